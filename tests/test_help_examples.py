"""The examples of the commands' help run as printed, and the help points to what an installed user can reach."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from helpers import NOTATION_EXAMPLES


def _help_examples() -> dict[str, list[str]]:
    """The examples of ``brisque --help`` and of every command's ``--help``: the lines after
    "Examples:" up to the next blank line, by command ("" for the group's own)."""
    from click.testing import CliRunner

    from solver.cli import COMMANDS, main

    found: dict[str, list[str]] = {}
    for name in ["", *COMMANDS]:
        text = CliRunner().invoke(main, [name, "--help"] if name else ["--help"]).output
        lines, inside = [], False
        for line in text.splitlines():
            if line.strip() == "Examples:":
                inside = True
            elif inside and not line.strip():
                inside = False
            elif inside:
                lines.append(line.strip())
        found[name] = lines
    return found


HELP_EXAMPLES = _help_examples()


def _dask() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def _runnable(example: str) -> str | None:
    """The example as run by the test (None: only its options are checked): the same command,
    with matches and benchmarks made short (fewer deals, --quick), and a pipe into Graphviz
    dropped where Graphviz is not installed."""
    import re
    import shutil

    if " serve" in example or "tcp://" in example or ("--scheduler local" in example and not _dask()):
        return None  # (the board runs until stopped; no cluster to reach)
    if "--suite whole-deals" in example:
        return None  # (minutes of solving: tests/test_bench.py runs this very command, with --json)
    run = re.sub(r"--deals \d+", "--deals 2", example)
    run = re.sub(r"--worlds (\d+)", lambda m: f"--worlds {min(int(m.group(1)), 50)}", run)
    if run.startswith("brisque bench") and "--quick" not in run:
        run = run.replace(" > ", " --quick > ") if " > " in run else run + " --quick"
    if "| dot" in run and shutil.which("dot") is None:
        run = run.split(" | dot")[0] + " > /dev/null"
    return run


def _help_command_lines() -> list[list[str]]:
    """The examples of every command's --help that need no file: each must work."""
    import shlex

    from click.testing import CliRunner

    from solver.cli import COMMANDS, main

    out = []
    for name in COMMANDS:
        text = CliRunner().invoke(main, [name, "--help"]).output
        for line in text.splitlines():
            line = line.strip()
            line = line.split(" | ")[0]  # (the command before a pipe)
            words = line.split()
            if (
                len(words) < 2
                or words[0] != "brisque"
                or words[1] not in COMMANDS
                or words[1] in ("match", "serve", "bench")
            ):
                continue  # (matches and benchmarks take minutes, the board runs until stopped: all have
                # tests of their own, and test_every_example_of_the_help_works runs their examples)
            if not any(s in line for s in ("$(", ".jsonl", ".json", ".bpd", "-o ", " > ")):
                out.append(shlex.split(line)[1:])
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c, id=c or "brisque", marks=[pytest.mark.slow] if c in ("bench", "match") else [])
        for c in sorted(HELP_EXAMPLES)
    ],
)
def test_every_example_of_the_help_works(brisque, command, tmp_path):
    # `brisque show --help` gave `--arrow 9S`, a card in the talon at that trick
    import shlex

    from solver.cli import main

    examples = HELP_EXAMPLES[command]
    assert examples, f"brisque {command} --help has no examples"
    checkout = Path(__file__).resolve().parent.parent
    os.symlink(checkout / "positions", tmp_path / "positions")  # (brisque puzzles positions/...)
    (tmp_path / "positions.txt").write_text(f"{NOTATION_EXAMPLES[0]}\n{NOTATION_EXAMPLES[1]}\n")
    made = brisque("match", "greedy", "random", "--deals", "2", "--records", str(tmp_path / "deals.jsonl"))
    assert made.returncode == 0, made.stderr
    shell = f'set -o pipefail; brisque() {{ "{sys.executable}" -m solver.cli "$@"; }}; '
    for example in examples:
        if not example.startswith("brisque "):
            continue  # (such as serve's "open http://...")
        words = shlex.split(example)
        run = _runnable(example)
        if run is None:  # the options are checked, as click parses them
            sub = main.get_command(click.Context(main), words[1])
            assert sub is not None
            sub.make_context(words[1], words[2:])
            continue
        r = subprocess.run(
            ["bash", "-c", shell + run], capture_output=True, text=True, timeout=300, cwd=tmp_path
        )
        assert r.returncode == 0, f"{example!r} failed: {r.stderr}"


def test_the_show_example_draws_its_arrow_from_the_hand_to_move(brisque):
    example = next(e for e in HELP_EXAMPLES["show"] if "--arrow" in e)
    deal = brisque("deal", "--seed", "3", "--at", "5").stdout.strip()
    arrow = example.split("--arrow ")[1].split()[0]
    r = brisque("show", deal, "--json")
    assert arrow in __import__("json").loads(r.stdout)["legal"]


@pytest.mark.slow
@pytest.mark.parametrize("args", _help_command_lines(), ids=lambda a: " ".join(a)[:40])
def test_the_examples_of_the_help_work(brisque, tmp_path, args):
    res = brisque.raw(*args, cwd=tmp_path)
    assert res.returncode == 0, res.stderr.decode()


def test_the_help_points_to_what_an_installed_user_can_reach(invoke):
    top = invoke("--help").output
    assert "https://" in top and "show --help" in top
    show = invoke("show", "--help").output
    assert "BPN fields" in show and "score" in show and "talon" in show
