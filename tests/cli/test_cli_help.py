"""The command line's help: every example that ``brisque --help`` and ``brisque COMMAND
--help`` show runs as shown, and ``brisque --help`` lists the commands from their table
without importing a command's module."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from helpers import OUTSIDE, POSITIONS

from solver.cli import COMMANDS, main


def commands() -> dict[str, click.Command]:
    """Every command of the group, loaded."""
    ctx = click.Context(main)
    found = {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}
    return {name: cmd for name, cmd in found.items() if cmd is not None}


def examples(help_text: str) -> list[str]:
    """The lines under "Examples:" in a help text."""
    lines = help_text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == "Examples:"]
    found = []
    for start in starts:
        for line in lines[start + 1 :]:
            if not line.strip() or not line[0].isspace():
                break
            found.append(line.strip())
    return found


EXAMPLES = [("brisque", line) for line in examples(main.help or "")] + [
    (name, line) for name, cmd in commands().items() for line in examples(cmd.help or "")
]

# Examples that are not run here, and why.
NOT_RUN = {
    "--scheduler": "starts or reaches a Dask cluster",
    "brisque serve": "starts the board's server, which runs until it is stopped",
    "brisque play": "starts the board's server, which runs until it is stopped (tests/board/test_board_play.py runs it)",
    "open http": "opens a browser on a running board",
}
# Examples that take from tens of seconds to minutes: run with the slow tests.
SLOW = (
    'brisque solve "$(brisque deal --seed 3)" --workers 2',  # (an exact solve of a whole deal)
    "brisque match pimc",  # (PIMC players: a search for each move of every deal)
    "brisque bench",  # (from 5 s to minutes a run)
    "--view own",  # (worlds sampled for every move of a whole deal)
    'brisque analyse "$(brisque deal --seed 4 --at 5 --view turn)" --worlds 400',
)
# (the exit status an example documents, when not 0)
STATUS: dict[str, int] = {}


def cases() -> list[object]:
    params: list[object] = []
    for name, line in EXAMPLES:
        marks: list[pytest.MarkDecorator] = []
        why = next((why for key, why in NOT_RUN.items() if key in line), None)
        if why is not None:
            marks.append(pytest.mark.skip(reason=why))
        elif any(key in line for key in SLOW):
            marks.append(pytest.mark.slow)
        params.append(pytest.param(line, id=f"{name}: {line[:60]}", marks=marks))
    return params


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the files the examples name: positions/, a deal record file,
    positions.txt, and a saved bench run."""
    folder = tmp_path_factory.mktemp("examples")
    shutil.copytree(POSITIONS, folder / "positions", ignore=shutil.ignore_patterns("*.py"))
    run = [sys.executable, "-m", "solver.cli"]
    subprocess.run(
        [*run, "match", "random", "greedy", "--deals", "2", "--records", "deals.jsonl", "-q"],
        cwd=folder,
        check=True,
        capture_output=True,
    )
    deal = subprocess.run(
        [*run, "deal", "--seed", "3", "--at", "11"], cwd=folder, check=True, capture_output=True
    )
    (folder / "positions.txt").write_bytes(deal.stdout)
    return folder


@pytest.mark.parametrize("line", cases())
def test_every_help_example_runs(line: str, workdir: Path) -> None:
    if "| dot " in line and shutil.which("dot") is None:
        pytest.skip("needs Graphviz's dot")
    if "--compare run.json" in line and not (workdir / "run.json").exists():
        saved = subprocess.run(
            [sys.executable, "-m", "solver.cli", "bench", "--suite", "final-phase", "--json", "-q"],
            cwd=workdir,
            check=True,
            capture_output=True,
        )
        (workdir / "run.json").write_bytes(saved.stdout)
    script = f'set -o pipefail; brisque() {{ "{sys.executable}" -m solver.cli "$@"; }}; {line}'
    res = subprocess.run(
        ["bash", "-c", script], cwd=workdir, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert res.returncode == STATUS.get(line, 0), f"{line}\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}"
    assert "Traceback" not in res.stderr


def test_every_command_has_examples() -> None:
    shown = {name for name, _ in EXAMPLES}
    assert set(COMMANDS) <= shown, sorted(set(COMMANDS) - shown)


def test_the_table_says_what_each_command_says() -> None:
    # (brisque --help shows the table's summary: it must be the command's own first sentence)
    for name, cmd in commands().items():
        assert COMMANDS[name].summary == cmd.get_short_help_str(limit=10_000), name
    assert sorted(COMMANDS) == sorted(commands())


def test_the_help_imports_no_command(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom solver.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('solver.cli.commands.'))))"
    )
    res = subprocess.run(
        [sys.executable, "-c", "import json\n" + code],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert json.loads(res.stdout.splitlines()[-1]) == []
    for name in COMMANDS:  # (every command listed, with its summary)
        assert f"  {name} " in res.stdout


def test_a_mistyped_command_is_offered_the_one_meant() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "solver.cli", "sol"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=OUTSIDE,  # (from the checkout, python -m would find the unbuilt source)
    )
    assert res.returncode == 2
    assert "No such command 'sol'" in res.stderr
    if "Did you mean" in res.stderr or hasattr(click.exceptions, "NoSuchCommand"):  # (click >= 8.4)
        assert "Did you mean 'solve'?" in res.stderr
