"""The examples of the commands' help run as printed, and the help points to what an installed user can reach."""

from __future__ import annotations


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

    if (
        " serve" in example
        or example.startswith("brisque play")
        or "tcp://" in example
        or ("--scheduler local" in example and not _dask())
    ):
        return None  # (the board runs until stopped; no cluster to reach)
    if "--suite whole-deals" in example:
        return None  # (minutes of solving: tests/cli/test_bench.py runs this very command, with --json)
    run = re.sub(r"--deals \d+", "--deals 2", example)
    run = re.sub(r"--worlds (\d+)", lambda m: f"--worlds {min(int(m.group(1)), 50)}", run)
    if run.startswith("brisque bench") and "--quick" not in run:
        run = run.replace(" > ", " --quick > ") if " > " in run else run + " --quick"
    if "| dot" in run and shutil.which("dot") is None:
        run = run.split(" | dot")[0] + " > /dev/null"
    return run


def test_the_show_example_draws_its_arrow_from_the_hand_to_move(brisque):
    example = next(e for e in HELP_EXAMPLES["show"] if "--arrow" in e)
    deal = brisque("deal", "--seed", "3", "--at", "5").stdout.strip()
    arrow = example.split("--arrow ")[1].split()[0]
    r = brisque("show", deal, "--json")
    assert arrow in __import__("json").loads(r.stdout)["legal"]


def test_the_help_points_to_what_an_installed_user_can_reach(invoke):
    top = invoke("--help").output
    assert "https://" in top and "show --help" in top
    show = invoke("show", "--help").output
    assert "BPN fields" in show and "score" in show and "talon" in show
