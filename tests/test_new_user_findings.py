"""Defects found by trying the command line as a new user would (session 11), each with
the input that showed it."""

from __future__ import annotations

import signal
import subprocess
import sys
import tempfile
import time

import pytest
from helpers import NOTATION_EXAMPLES

from solver.errors import ArgumentError
from solver.model.limits import MAX_DEPTH, MAX_WORLDS
from solver.play.players import make_player

BRISQUE = [sys.executable, "-m", "solver.cli"]
OUTSIDE = tempfile.gettempdir()  # (run from the checkout, python -m would find its unbuilt source first)


def brisque(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*BRISQUE, *args], capture_output=True, text=True, timeout=120, cwd=OUTSIDE, **kw)


@pytest.mark.parametrize(
    "args",
    [
        ["solve", NOTATION_EXAMPLES[0], "--depth", str(MAX_DEPTH + 1)],
        ["solve", NOTATION_EXAMPLES[0], "--depth", "41", "--json"],
        ["line", NOTATION_EXAMPLES[0], "QD", "--depth", "41"],
        ["analyse", NOTATION_EXAMPLES[2], "--depth", str(MAX_DEPTH + 1)],
    ],
)
def test_a_depth_out_of_range_is_a_usage_error_not_a_traceback(args):
    r = brisque(*args)
    assert r.returncode == 2, r.stderr
    assert f"from 1 to {MAX_DEPTH}" in r.stderr and "Traceback" not in r.stderr


def test_the_deepest_depth_allowed_is_searched():
    r = brisque("solve", NOTATION_EXAMPLES[0], "--depth", str(MAX_DEPTH))
    assert r.returncode == 0 and "+44" in r.stdout  # (the final phase: exact under any depth)


@pytest.mark.parametrize("spec", ["pimc:0", f"pimc:{MAX_WORLDS + 1}", "pimc:99999999999999999999", "pimc:-3"])
def test_a_pimc_player_asks_for_a_sane_number_of_worlds(spec):
    with pytest.raises(ArgumentError, match=f"from 1 to {MAX_WORLDS}"):
        make_player(spec)
    assert make_player(f"pimc:{MAX_WORLDS}").name == f"pimc:{MAX_WORLDS}"


def test_ctrl_c_ends_a_match_of_pimc_in_one_process():
    # each decision of pimc:5000 takes seconds: Ctrl-C used to end that decision only
    # (the answer so far), and the match went on
    proc = subprocess.Popen(
        [*BRISQUE, "match", "pimc:5000", "greedy", "--deals", "3", "--json", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=OUTSIDE,
    )
    time.sleep(4)
    assert proc.poll() is None  # (still playing its first deal)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the match went on after Ctrl-C")
    assert proc.returncode == 130 and "interrupted" in err


def test_the_enhancements_summary_marks_the_cap_only_when_hit():
    from solver.bench.research import summary

    row = {"k": 3, "median_ms": 1.0, "unfinished": 0}
    free = {"name": "enhancements", "configs": {"plain alpha-beta": [row]}}
    assert not any("CPU cap" in line for line in summary(free))
    capped = {"name": "enhancements", "configs": {"plain alpha-beta": [dict(row, unfinished=1)]}}
    assert summary(capped)[-1] == "(* some solves hit the CPU cap)" and "k=3 1.00*" in summary(capped)[0]


# ---------------------------------------------------------------- session 12: the second trial
# (each test names the defect of the trial it covers)

FINISHED = "petite .../... KH 21 KJ8.T98.TK.Q7 - a 33:0 tricks=5:0 void=b:HC"  # (a deal played out)
HIDDEN = NOTATION_EXAMPLES[2]


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


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(c, id=c or "brisque", marks=[pytest.mark.slow] if c in ("bench", "match") else [])
        for c in sorted(HELP_EXAMPLES)
    ],
)
def test_every_example_of_the_help_works(command, tmp_path):
    # defect 2: `brisque show --help` gave `--arrow 9S`, a card in the talon at that trick
    import os
    import shlex
    from pathlib import Path

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
            sub = main.commands[words[1]]
            sub.make_context(words[1], words[2:])
            continue
        r = subprocess.run(
            ["bash", "-c", shell + run], capture_output=True, text=True, timeout=300, cwd=tmp_path
        )
        assert r.returncode == 0, f"{example!r} failed: {r.stderr}"


def test_the_show_example_draws_its_arrow_from_the_hand_to_move():
    example = next(e for e in HELP_EXAMPLES["show"] if "--arrow" in e)
    deal = brisque("deal", "--seed", "3", "--at", "5").stdout.strip()
    arrow = example.split("--arrow ")[1].split()[0]
    r = brisque("show", deal, "--json")
    assert arrow in __import__("json").loads(r.stdout)["legal"]


def test_a_progress_line_wipes_a_longer_one_before_it():
    # defect 1: "\r120/400 worlds" over "\r90 worlds, best KS +3.0 +- 1.2" left "+- 1.2" behind
    import io

    from solver.cli.output import StatusLine

    out = io.StringIO()
    line = StatusLine(True, out)
    line.show("90 worlds, best KS +3.0 +- 1.2")
    line.show("120/400 worlds")
    screen = out.getvalue().split("\r")[-1]
    assert screen.strip() == "120/400 worlds" and len(screen) == len("90 worlds, best KS +3.0 +- 1.2")
    line.clear()
    assert out.getvalue().endswith("\r") and out.getvalue().split("\r")[-2].strip() == ""
    quiet = io.StringIO()
    off = StatusLine(False, quiet)
    off.show("1/2 worlds")
    off.end()
    assert quiet.getvalue() == ""


@pytest.mark.parametrize(
    "args",
    [
        ["analyse", HIDDEN, "--worlds", "20"],
        ["match", "greedy", "random", "--deals", "1"],
        ["puzzles", "--", "-"],
    ],
    ids=["analyse", "match", "puzzles"],
)
def test_no_progress_line_is_written_where_standard_error_is_no_terminal(args, tmp_path):
    if args[0] == "puzzles":
        bpd = tmp_path / "one.bpd"
        bpd.write_text(f"{NOTATION_EXAMPLES[0]} ; v 44\n")
        args = ["puzzles", str(bpd)]
    r = brisque(*args)
    assert r.returncode == 0, r.stderr
    assert "\r" not in r.stderr and r.stderr == ""


def test_analyse_answers_a_finished_deal_as_solve_does():
    # defect 3: solve gave the final margin, analyse refused "there is nothing to analyse"
    import json

    solved = json.loads(brisque("solve", FINISHED, "--json").stdout)
    for extra in ([], ["--method", "equilibrium"]):
        r = brisque("analyse", FINISHED, "--json", *extra)
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout) == dict(solved, seconds=json.loads(r.stdout)["seconds"])
    assert solved["value"] == 5 and solved["moves"] == []
    text = brisque("analyse", FINISHED)
    assert text.returncode == 0 and "Value for a: +5 (the deal is over)" in text.stdout
    batch = brisque("analyse", "-", input=FINISHED + "\n")
    assert batch.returncode == 0 and json.loads(batch.stdout)["value"] == 5


def test_line_takes_q_and_both_spellings_of_the_record_option(tmp_path):
    # defect 4: line had no -q; line --record but match --records
    records = tmp_path / "deals.jsonl"
    made = brisque("match", "greedy", "random", "--deals", "1", "--record", str(records), "-q")
    assert made.returncode == 0 and len(records.read_text().splitlines()) == 2, made.stderr
    for option in ("--record", "--records"):
        r = brisque("line", option, str(records), "--deal", "2", "-q")
        assert r.returncode == 0 and "total loss" in r.stdout, r.stderr
    both = brisque("line", "--record", str(records), "--records", str(records))
    assert both.returncode == 2 and "give one --record FILE" in both.stderr
    assert "--records" not in brisque("line", "--help").stdout.replace("match --records", "")
    assert "--record " not in brisque("match", "--help").stdout.replace("line --record", "")


@pytest.mark.parametrize(
    "args, expected",
    [
        (["show", NOTATION_EXAMPLES[0], "--pov", "a"], "--pov is for the SVG diagram: add --svg"),
        (
            ["show", NOTATION_EXAMPLES[0], "--arrow", "7S", "--highlight", "7S"],
            "--highlight and --arrow are for the SVG diagram: add --svg",
        ),
        (["show", NOTATION_EXAMPLES[0], "--size", "300"], "--size is for the SVG diagram"),
        (
            ["analyse", HIDDEN, "--method", "equilibrium", "--worlds", "5", "--seed", "3"],
            "--worlds, --seed: these options are for the sampling (--method pimc)",
        ),
        (
            ["analyse", HIDDEN, "--method", "equilibrium", "--world-search", "exact"],
            "--world-search: this option is for the sampling",
        ),
        (["analyse", HIDDEN, "--max-exploitability", "1"], "for --method equilibrium only"),
        (["line", NOTATION_EXAMPLES[0], "QD", "--deal", "2"], "--deal 2 picks a record of a --record FILE"),
    ],
)
def test_an_option_that_would_be_ignored_is_an_error_naming_it(args, expected):
    # defect 4: --pov, --highlight, --arrow without --svg, and --worlds, --seed, --world-search
    # with --method equilibrium, were silently ignored
    r = brisque(*args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert expected in r.stderr


def test_line_own_view_says_how_many_worlds_it_needs(tmp_path):
    # defect 4: --view own --worlds 5 was refused as "worlds=5" while the help said 1 or more
    import re
    from pathlib import Path

    import solver
    from solver.model.limits import MIN_OWN_WORLDS

    # one number, set once (the command line's check and help and the library's read it)
    package = Path(solver.__file__).parent
    settings = [
        f.relative_to(package).as_posix()
        for f in package.rglob("*.py")
        if re.search(r"^\w*OWN_WORLDS\b\s*(:[^=]*)?=", f.read_text(encoding="utf-8"), re.M)
    ]
    assert settings == ["model/limits.py"]
    records = tmp_path / "deals.jsonl"
    brisque("match", "greedy", "random", "--deals", "1", "--records", str(records), "-q")
    r = brisque("line", "--record", str(records), "--view", "own", "--worlds", "5")
    assert r.returncode == 2 and f"--worlds 5: --view own needs at least {MIN_OWN_WORLDS} worlds" in r.stderr
    assert "worlds=" not in r.stderr
    assert f"at least {MIN_OWN_WORLDS}" in brisque("line", "--help").stdout


def test_errors_name_the_options_not_the_python_arguments():
    # defect 4: "win_worth='0': expected ..." on the command line
    r = brisque("analyse", HIDDEN, "--win-worth", "0")
    assert r.returncode == 2 and "--win-worth 0: expected" in r.stderr and "win_worth=" not in r.stderr
    from solver.cli.errors import option_words

    assert option_words("worlds=5 and world_search='exact'") == "--worlds 5 and --world-search exact"
    kept = "impossible position 'brisque ... tricks=2:1 void=b:H game=0:0'"  # (BPN fields stay)
    assert option_words(kept) == kept


@pytest.mark.parametrize(
    "args, quoted",
    [
        (["line", NOTATION_EXAMPLES[0], "seed=3"], "bad move 'seed=3'"),
        (["match", "worlds=5", "greedy", "--deals", "1"], "unknown player 'worlds=5'"),
        (["analyse", HIDDEN, "--world-search", "view=x"], "--world-search 'view=x'"),
    ],
)
def test_an_error_quotes_the_input_as_given(args, quoted):
    # the renaming of arguments to options rewrote the input quoted in the message:
    # "bad move '--seed 3'" for the move seed=3
    from solver.cli.errors import option_words

    r = brisque(*args)
    assert r.returncode == 2 and quoted in r.stderr, r.stderr
    assert option_words('bad "it\'s seed=3"; seed=4') == 'bad "it\'s seed=3"; --seed 4'
    assert option_words("the player's seed=4, 'x'") == "the player's --seed 4, 'x'"  # (an apostrophe)


def test_every_install_hint_has_the_same_wording():
    # defect 5: '.[openspiel]' in one message, 'brisque-solver[cluster]' in another
    import ast
    import re
    import tomllib
    from pathlib import Path

    from solver.errors import PROJECT, install_hint

    checkout = Path(__file__).resolve().parent.parent
    assert tomllib.loads((checkout / "pyproject.toml").read_text())["project"]["name"] == PROJECT
    assert (
        install_hint("board")
        == "pip install 'brisque-solver[board]' (or pip install '.[board]' from a checkout)"
    )
    stray = []
    for path in (checkout / "solver").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and re.search(r"pip install '[^']*\[", node.value)
                and path.name != "errors.py"
            ):
                stray.append(f"{path.name}:{node.lineno}")
    assert not stray, f"install hints not made by install_hint: {stray}"
    from solver.cli.options import SCHEDULER_HELP

    assert install_hint("cluster") in SCHEDULER_HELP


FIELDS = ["rules", "hands", "trump", "talon", "out", "trick", "turn", "score"]


@pytest.mark.parametrize("field", range(9), ids=[*FIELDS, "optional"])
def test_a_huge_bad_field_is_quoted_cut(field):
    # defect 6: a bad 100 KB field was echoed whole in the error
    parts = NOTATION_EXAMPLES[0].split()
    if field == 8:
        parts.append("k=" + "x" * 100_000)
    else:
        parts[field] = parts[field] + "X" * 100_000
    r = brisque("solve", " ".join(parts))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr) < 600 and "characters)" in r.stderr, r.stderr[:600]


def test_a_huge_bad_line_of_a_batch_is_given_back_once():
    # defect 6: `brisque solve -` echoed a 1 MB bad line twice (in "bpn" and in the error)
    import json

    parts = NOTATION_EXAMPLES[0].split()
    parts[2] += "X" * 1_000_000
    line = " ".join(parts)
    r = brisque("solve", "-", input=line + "\n")
    answer = json.loads(r.stdout)
    # (a line past MAX_LINE_BYTES is not kept whole: its beginning and its end, and its length)
    assert r.returncode == 1 and answer["bpn"].startswith(line[:50]) and answer["bpn"].endswith(line[-50:])
    assert len(answer["bpn"]) < 300 and "..." in answer["bpn"]
    assert len(answer["error"]) < 300 and f"({len(line)} bytes)" in answer["error"]


@pytest.mark.parametrize(
    "args",
    [
        ["match", "Q" * 100_000, "greedy"],
        ["line", NOTATION_EXAMPLES[0], "Q" * 100_000],
        ["deal", "--seed", "1", "--rules", "brisque(target=" + "1" * 100_000 + ")"],
        ["line", NOTATION_EXAMPLES[0], "QD", "--view", "Q" * 100_000],
        ["analyse", HIDDEN, "--world-search", "Q" * 100_000],
    ],
    ids=["player", "move", "rules option", "choice", "world search"],
)
def test_huge_bad_options_are_quoted_cut(args):
    r = brisque(*args)
    assert r.returncode == 2 and len(r.stderr) < 800 and "100000 characters" in r.stderr, r.stderr[:800]


def test_a_file_given_as_a_position_gets_a_hint(tmp_path):
    # defect 7: `brisque solve lines.txt` said only "bad BPN 'lines.txt'"
    lines = tmp_path / "lines.txt"
    lines.write_text(NOTATION_EXAMPLES[0] + "\n")
    r = brisque("solve", str(lines))
    assert r.returncode == 2 and f"to solve each line use `brisque solve - < {lines}`" in r.stderr
    r = brisque("analyse", str(lines))
    assert r.returncode == 2 and f"`brisque analyse - < {lines}`" in r.stderr
    puzzles = tmp_path / "mine.bpd"
    puzzles.write_text(NOTATION_EXAMPLES[0] + " ; v 44\n")
    assert f"`brisque puzzles {puzzles}`" in brisque("solve", str(puzzles)).stderr
    assert "looks like" not in brisque("solve", "nothing-here.txt").stderr  # (no such file: no hint)


@pytest.mark.parametrize("command", ["solve", "analyse"])
@pytest.mark.parametrize("text", ["", "# only a comment\n\n"], ids=["empty", "comments"])
def test_a_batch_with_no_positions_says_so(command, text):
    # defect 7: `brisque solve - < /dev/null` was silent
    r = brisque(command, "-", input=text)
    assert r.returncode == 0 and r.stdout == ""
    assert "no positions read from standard input" in r.stderr


def test_counts_of_one_are_singular():
    # defect 8: "1 tricks deep", "1 deal pairs"
    r = brisque("match", "greedy", "random", "--deals", "1")
    assert "1 deal pair (2 deals)" in r.stdout and "1 deal pairs" not in r.stdout
    deal = brisque("deal", "--seed", "3").stdout.strip()
    r = brisque("solve", deal, "--depth", "1")
    assert "1 trick deep" in r.stdout and "1 tricks" not in r.stdout
    r = brisque("show", "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
    assert "Talon: 0 cards" in r.stdout


def test_a_share_shows_as_all_or_none_only_when_it_is():
    # defect 8: a share of 99.6% printed as 100%, one of 0.4% as 0%
    from solver.analysis.sampling import SampledMove
    from solver.formats.words import percent, proportion
    from solver.model.moves import parse_move

    assert [percent(x) for x in (0.0, 0.004, 0.5, 0.996, 1.0)] == ["0%", "<1%", "50%", ">99%", "100%"]
    assert [percent(x, 1) for x in (0.0004, 0.9996)] == ["<0.1%", ">99.9%"]
    assert [proportion(x) for x in (0.0004, 0.9996, 1.0)] == ["<0.001", ">0.999", "1.000"]
    mv = SampledMove(move=parse_move("AS"), value=1.0, stderr=0.1, p_win=0.996, p_loss=0.004, margin=3.0)
    text = mv.describe("a")
    assert "a wins the game in >99% of worlds" in text and "b wins the game in <1% of worlds" in text
