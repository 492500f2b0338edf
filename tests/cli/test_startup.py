"""The start of the command line stays cheap: ``import solver`` and ``import solver.cli``
load no layer they do not use, and ``brisque solve -`` loads the model, the engine and the
batch solver but not the analyses, formats, players, multiprocessing or networkx; the public
names, imported on first use (PEP 562), are all there."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import communicate_or_kill

# what the start of the command line must not import (each costs milliseconds: the
# analyses, formats and players import more of their own, multiprocessing 20 ms)
HEAVY = (
    "solver.analysis.sampling",
    "solver.analysis.line",
    "solver.analysis.puzzles",
    "solver.analysis.tree",
    "solver.analysis.equilibrium",
    "solver.analysis.text_reports",
    "solver.formats",
    "solver.play",
    "networkx",
    "multiprocessing",
    "concurrent.futures.process",
)

SOLVE_STDIN = """\
import sys
sys.argv[1:] = ["solve", "-"]
from solver.cli import main
try:
    main()
except SystemExit as stop:
    assert not stop.code, stop.code
"""


def modules_after(code: str, cwd: Path) -> set[str]:
    """The modules loaded in a fresh interpreter after ``code`` (empty standard input)."""
    code += "\nimport json, sys\nsys.stdout.write('\\n' + json.dumps(sorted(sys.modules)))\n"
    # (run away from the checkout, whose unbuilt source tree would shadow the installed package)
    res = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )
    return set(json.loads(res.stdout.splitlines()[-1]))


STARTS = {
    "import solver": "import solver",
    "import solver.cli": "import solver.cli",
    "brisque solve -": SOLVE_STDIN,
}


@pytest.mark.parametrize("start", sorted(STARTS))
def test_the_start_loads_only_what_it_uses(start: str, tmp_path: Path):
    loaded = modules_after(STARTS[start], tmp_path)
    heavy = sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert not heavy, f"{start} imports {heavy}"
    if start == "brisque solve -":
        assert {"solver.analysis.batch_solve", "solver.engine.solving", "solver.model.position"} <= loaded


def test_every_lazy_name_is_there_in_a_fresh_interpreter(tmp_path: Path):
    code = """
import solver, solver.analysis, solver.model
for pkg in (solver, solver.analysis, solver.model):
    for name in pkg.__all__:
        assert name in dir(pkg), (pkg.__name__, name)
        getattr(pkg, name)
from solver import *  # noqa: F403
from solver.analysis import *  # noqa: F403
from solver.model import *  # noqa: F403
assert solver.Position is solver.model.Position is solver.model.position.Position
assert solver.analyse is solver.analysis.analyse is solver.analysis.sampling.analyse
"""
    modules_after(code, tmp_path)


def test_the_submodules_are_still_attributes(tmp_path: Path):
    # (importing everything used to make these attributes: scripts may rely on it)
    code = """
import solver
assert solver.engine.solve is solver.solve
assert solver.analysis.worlds.world_count is solver.analysis.world_count
assert solver.model.rules.GAMES is solver.model.GAMES
for name in ("errors", "formats", "native", "play"):
    getattr(solver, name)
"""
    modules_after(code, tmp_path)


def test_an_unknown_name_is_an_attribute_error():
    import solver
    import solver.analysis
    import solver.model

    for pkg in (solver, solver.analysis, solver.model):
        with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
            pkg.nothing_here  # noqa: B018
        assert not hasattr(pkg, "nothing_here")


def test_a_worker_pool_that_broke_is_still_said(invoke, monkeypatch: pytest.MonkeyPatch):
    # (the CLI looks BrokenProcessPool up only once a pool has imported its module)
    from concurrent.futures.process import BrokenProcessPool

    import solver.analysis.batch_solve as batch

    def broken(*args: object, **kwargs: object):
        raise BrokenProcessPool("a worker died")
        yield  # (a generator, as solve_lines is)

    monkeypatch.setattr(batch, "solve_lines", broken)
    res = invoke("solve", "-", "--workers", "2", input="x\n")
    assert res.exit_code == 2
    assert "a worker process died (killed from outside?)" in res.output

    def failing(*args: object, **kwargs: object):
        raise ValueError("not a pool's")
        yield

    monkeypatch.setattr(batch, "solve_lines", failing)
    res = invoke("solve", "-", input="x\n")
    assert isinstance(res.exception, ValueError)


# ----------------------------------------------------------------------------- Ctrl-C at the start
FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # solved at once
CONSOLE_SCRIPT = """\
import re
import sys
from solver.cli import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(main())
"""  # (what pip writes as bin/brisque)
EARLY = [i / 100 for i in range(11)]  # seconds after the package began to load, up to a tenth


def _command(form: str, tmp_path: Path) -> list[str]:
    """The command solving FP, as its console script or as python -m solver.cli."""
    if form == "console script":
        script = tmp_path / "brisque"
        script.write_text(CONSOLE_SCRIPT)
        return [sys.executable, str(script), "solve", FP]
    return [sys.executable, "-m", "solver.cli", "solve", FP]


def _start(command: list[str], tmp_path: Path, **popen: object) -> subprocess.Popen[str]:
    """``command`` started, once the package has begun to load: its compiled modules are
    mapped, which the package does right after its first statement, the start's handler.
    (Before that the interpreter starts and finds the package, no code of ours: a signal
    there is Python's own traceback.)"""
    import time

    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, **popen
    )
    maps = Path(f"/proc/{proc.pid}/maps")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if "/solver/native/" in maps.read_text():
                return proc
        except OSError:  # (the process is not there yet, or gone)
            pass
    proc.kill()
    raise AssertionError(f"{command} did not load the package: {proc.communicate()}")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc/PID/maps")
@pytest.mark.parametrize("form", ["console script", "python -m solver.cli"])
def test_ctrl_c_while_the_command_starts_is_no_traceback(form: str, tmp_path: Path):
    import re
    import signal
    import time

    def untimed(text: str) -> str:  # (the solve's time differs from run to run)
        return re.sub(r"[\d.]+ ms", "ms", text)

    answer = untimed(
        communicate_or_kill(
            subprocess.Popen(_command(form, tmp_path), stdout=subprocess.PIPE, text=True, cwd=tmp_path), 60
        )[0]
    )
    assert "Value for b" in answer, answer
    seen = set()
    for delay in EARLY:
        proc = _start(_command(form, tmp_path), tmp_path)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = communicate_or_kill(proc, 60)
        assert "Traceback" not in err, f"SIGINT {delay} s into the start:\n{err}"
        # the status of a later Ctrl-C, or 0 when the solve ended first
        assert proc.returncode in (130, 0), (delay, proc.returncode, err)
        if proc.returncode == 130:
            # nothing, or (a Ctrl-C after the answer was written, before the exit) all of it:
            # never part of an answer
            assert err.splitlines() == ["interrupted"] and untimed(out) in ("", answer), (out, err)
        seen.add(proc.returncode)
    assert 130 in seen  # (some signal came while the modules loaded)


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc/PID/maps")
def test_ctrl_c_ignored_at_the_start_stays_ignored(tmp_path: Path):
    import signal

    proc = _start(
        _command("console script", tmp_path),
        tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),  # (a background job)
    )
    proc.send_signal(signal.SIGINT)
    out, err = communicate_or_kill(proc, 60)
    assert proc.returncode == 0, err
    assert "interrupted" not in err and "Value for b: +44 (exact)" in out


def test_a_program_that_imports_the_package_keeps_its_ctrl_c(tmp_path: Path):
    # (the start's handler is the command's only: a program's Ctrl-C stays its own)
    code = (
        "import signal, solver, solver.cli\n"
        "assert signal.getsignal(signal.SIGINT) is signal.default_int_handler\n"
    )
    modules_after(code, tmp_path)


# ----------------------------------------------------------------------------- Ctrl-C at the end
# A Ctrl-C that comes in code run by exec() of a string, as dataclasses make their methods
# while the command imports its modules: CPython notes that KeyboardInterrupt as unhandled,
# even once the command handled it.  (Here a finder, which a sitecustomize installs, sends
# the signal from such code at the command's first import once its handler is in place.)
CTRL_C_IN_EXEC = """\
import os
import signal
import sys

class _CtrlCInExec:
    def find_spec(self, name, path=None, target=None):
        if getattr(signal.getsignal(signal.SIGINT), "__name__", "") == "on_signal":
            sys.meta_path.remove(self)
            exec("os.kill(os.getpid(), signal.SIGINT)")
        return None

sys.meta_path.insert(0, _CtrlCInExec())
"""


@pytest.mark.parametrize("form", ["console script", "python -m solver.cli"])
def test_ctrl_c_in_code_made_by_exec_ends_with_130(form: str, tmp_path: Path):
    # (python -m ended such a command by SIGINT, status -2, after its "interrupted")
    import os

    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(CTRL_C_IN_EXEC)
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p)
    res = subprocess.run(
        _command(form, tmp_path),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": path},
        timeout=60,
    )
    assert (res.returncode, res.stderr, res.stdout) == (130, "interrupted\n", ""), res


# a signal as the finished command's interpreter tears down (here, the console script's
# own, as its module is cleared): Python has given SIGINT back its default action by then
SIGNAL_AT_TEARDOWN = """\
import os
import signal
import sys

class _SignalAtTeardown:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)

_at_teardown = _SignalAtTeardown()
"""


def test_a_signal_as_the_finished_command_exits_leaves_its_status(tmp_path: Path):
    script = tmp_path / "brisque"
    script.write_text(SIGNAL_AT_TEARDOWN + CONSOLE_SCRIPT)
    res = subprocess.run(
        [sys.executable, str(script), "solve", FP],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert (res.returncode, res.stderr) == (0, ""), res
    assert "Value for b: +44 (exact)" in res.stdout


def _compiled_under(tmp_path, value: str) -> subprocess.CompletedProcess:
    import os

    env = {**os.environ, "BRISQUE_PURE": value}
    code = "import solver.model.bits as b; print(b.COMPILED)"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env
    )


@pytest.mark.parametrize("value", ["0", "no", "False", "OFF", ""])
def test_brisque_pure_off_values_keep_the_compiled_module(tmp_path, value):
    # BRISQUE_PURE=0 switched the pure Python twin on (any non-empty value did)
    r = _compiled_under(tmp_path, value)
    assert r.returncode == 0 and r.stdout.strip() == "True" and r.stderr == "", r.stderr


@pytest.mark.parametrize("value", ["1", "yes", "TRUE", "On"])
def test_brisque_pure_on_values_use_the_pure_twin(tmp_path, value):
    r = _compiled_under(tmp_path, value)
    assert r.returncode == 0 and r.stdout.strip() == "False" and r.stderr == "", r.stderr


def test_brisque_pure_other_values_are_a_warning_quoting_them(tmp_path):
    r = _compiled_under(tmp_path, "maybe")
    assert r.returncode == 0 and r.stdout.strip() == "True"
    assert "RuntimeWarning: BRISQUE_PURE='maybe' is not understood" in r.stderr
    assert "Traceback" not in r.stderr
