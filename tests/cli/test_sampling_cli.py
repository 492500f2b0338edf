"""``brisque analyse``: the sampling analysis from the command line (CliRunner)."""

from __future__ import annotations

import json
import re

import pytest

import solver
from solver.analysis.sampling import analyse
from solver.engine.solving import solve
from solver.model.position import Position

VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"
VIEW_B = "briscan ?5/AT.A..A7 8H 3 KQ8.TKQJ9.ATKQ87.TKQ9 - b 27:44 tricks=6:3"
SMALL_VIEW = "brisque 7.A.8.AJ7/?6 TC 1 ATKQ8.TKQJ9.ATKQJ7.Q9 - a 41:39 tricks=6:3"  # 7 worlds
FULL = "brisque 7.A.8.AJ7/J9.8.9.K8 TC 7H ATKQ8.TKQJ9.ATKQJ7.Q9 - a 41:39 tricks=6:3"
# the same deal as seen by b while a is to move: the mover's hand is hidden
MOVER_HIDDEN = "brisque ?6/J9.8.9.K8 TC 1 ATKQ8.TKQJ9.ATKQJ7.Q9 - a 41:39 tricks=6:3"


def test_json_answer_has_the_sampling_fields(invoke):
    r = invoke("analyse", VIEW, "--worlds", "20", "--seed", "4", "--json")
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1
    d = json.loads(lines[0])
    assert d["method"] == "pimc"
    for k in ("bpn", "turn", "value", "stderr", "best", "moves", "worlds", "enumerated", "seed"):
        assert k in d, k
    assert d["bpn"] == Position(VIEW).bpn() and d["turn"] == "a"
    assert d["worlds"] == 20 and d["enumerated"] is False and d["seed"] == 4
    assert isinstance(d["stderr"], (int, float)) and d["stderr"] >= 0
    legal = [str(m) for m in Position(VIEW).legal_moves()]
    assert [m["move"] for m in d["moves"]] == legal
    for m in d["moves"]:
        assert set(m) >= {"move", "value", "stderr"} and m["stderr"] >= 0
    assert d["value"] == max(m["value"] for m in d["moves"])
    assert d["best"] and all(b in legal for b in d["best"])
    # the same as the library with the same seed
    a = analyse(VIEW, worlds=20, seed=4)
    assert d["value"] == round(a.value, 3)
    assert [m["value"] for m in d["moves"]] == [round(m.value, 3) for m in a.moves]


def test_json_enumerated_view(invoke):
    r = invoke("analyse", SMALL_VIEW, "--worlds", "50", "--seed", "9", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["method"] == "pimc" and d["enumerated"] is True and d["worlds"] == 7 and d["seed"] == 9


def test_json_is_the_same_with_two_workers(invoke):
    one = invoke("analyse", VIEW_B, "--worlds", "20", "--seed", "2", "--json")
    two = invoke("analyse", VIEW_B, "--worlds", "20", "--seed", "2", "--workers", "2", "--json")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_stopping_options(invoke):
    r = invoke("analyse", VIEW, "--worlds", "100000", "--seconds", "0.3", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["stopped"] == "time" and 1 <= d["worlds"] < 100000 and d["enumerated"] is False
    r = invoke(
        "analyse",
        "brisque A97.J.QJ./?6 7D 3 TK8.TKQ987.ATK.KQJ7 - a 13:52 tricks=1:7 exchanged=b taken=AD",
        "--worlds",
        "200",
        "--seed",
        "3",
        "--separation",
        "3",
        "--json",
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["stopped"] == "separated" and 20 <= d["worlds"] < 200


def test_perfect_information_json_is_the_exact_answer(invoke):
    r = invoke("analyse", FULL, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    s = solve(FULL)
    assert d["method"] == "exact" and d["value"] == s.value
    assert [(m["move"], m["value"]) for m in d["moves"]] == [(str(m.move), m.value) for m in s.moves]


def test_batch_from_standard_input(invoke):
    bad = "brisque AK.T9.J.8/?6 9C zz JT..Q8.AK - a 18:12"
    lines = [VIEW, "", "# a comment", bad, MOVER_HIDDEN, FULL, SMALL_VIEW]
    r = invoke("analyse", "-", "--worlds", "20", "--seed", "1", input="\n".join(lines) + "\n")
    assert r.exit_code == 1, r.output
    out = [json.loads(line) for line in r.stdout.strip().splitlines()]
    assert len(out) == 5, "one object per BPN line (blank and comment lines skipped)"
    assert out[0]["method"] == "pimc" and out[0]["worlds"] == 20 and out[0]["bpn"] == Position(VIEW).bpn()
    assert out[1]["bpn"] == bad and "error" in out[1] and "talon" in out[1]["error"]
    assert out[2]["bpn"] == MOVER_HIDDEN and "player to move" in out[2]["error"]
    assert out[3]["method"] == "exact" and out[3]["value"] == solve(FULL).value
    assert out[4]["method"] == "pimc" and out[4]["enumerated"] is True and out[4]["worlds"] == 7
    for d in (out[0], out[3], out[4]):
        assert "error" not in d
    assert "2 lines could not be analysed" in r.stderr
    # the successful lines give what they give alone
    alone = invoke("analyse", VIEW, "--worlds", "20", "--seed", "1", "--json")
    a, b = json.loads(alone.stdout), out[0]
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_batch_with_only_good_lines_exits_zero(invoke):
    r = invoke("analyse", "-", "--worlds", "10", input=f"{VIEW}\n{SMALL_VIEW}\n")
    assert r.exit_code == 0, r.output
    assert len(r.stdout.strip().splitlines()) == 2


def test_mover_hidden_is_a_clear_error(invoke):
    r = invoke("analyse", MOVER_HIDDEN, "--worlds", "10")
    assert r.exit_code != 0
    assert r.stdout == ""
    assert "Error" in r.stderr and "player to move" in r.stderr and "hand of a" in r.stderr
    r = invoke("analyse", MOVER_HIDDEN, "--worlds", "10", "--json")
    assert r.exit_code != 0 and "player to move" in r.stderr


def test_impossible_and_malformed_views_are_refused(invoke):
    r = invoke("analyse", "brisque AK.T9.J.8/?5 9C 13 JT..Q8.AK - a 18:12 tricks=2:1")
    assert r.exit_code != 0 and "impossible" in r.stderr
    r = invoke("analyse", "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - q 18:12")
    assert r.exit_code != 0 and "turn" in r.stderr


def test_human_output_lists_every_move_with_its_standard_error(invoke):
    r = invoke("analyse", VIEW, "--worlds", "20", "--seed", "4")
    assert r.exit_code == 0, r.output
    out = r.stdout
    a = analyse(VIEW, worlds=20, seed=4)
    assert "20 worlds" in out and "seed 4" in out
    for mv in a.moves:
        pat = rf"^\s*{re.escape(str(mv.move))}\s+(best\s+)?{re.escape(f'{mv.value:+.2f}')}\s+{re.escape(f'{mv.stderr:.2f}')}$"
        assert re.search(pat, out, re.M), f"no line for {mv.move} in\n{out}"
    # best first
    rows = _move_rows(out)
    assert len(rows) == len(a.moves)
    order = sorted(a.moves, key=lambda m: -m.value)
    assert [str(m.move) for m in order][0] == rows[0].split()[0]
    assert re.search(re.escape(f"{a.value:+.2f}") + r"\s+(\+-|±)\s*" + re.escape(f"{a.stderr:.2f}"), out)


# a's view at Brisque's last talon trick where some worlds end in four kings (7 worlds)
GAME_VIEW = "brisque KQ.A.AK.K/?6 9S 1 ATJ87.98.TQJ98.AQJ987 - a 45:9 tricks=6:3"
SEPARATING_VIEW = "brisque A97.J.QJ./?6 7D 3 TK8.TKQ987.ATK.KQJ7 - a 13:52 tricks=1:7 exchanged=b taken=AD"


def _move_rows(out: str) -> list[str]:
    """The rows of the moves: the lines after the column headings, up to the runner-up."""
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.split()[:2] == ["move", "value"]) + 1
    end = next(i for i, ln in enumerate(lines) if ln.startswith("Runner-up: "))
    return lines[start:end]


def test_human_output_has_column_headings_and_the_best_tag_in_one_column(invoke):
    """Headings name the columns; the best tag comes right after the move, where a long
    description of games won cannot push it out of line; a move that wins or loses no game
    outright shows its value once (its margin is the same number)."""
    out = invoke("analyse", GAME_VIEW).stdout
    a = analyse(GAME_VIEW)
    lines = out.splitlines()
    heading = next(ln for ln in lines if ln.split()[:2] == ["move", "value"])
    assert heading.split() == ["move", "value", "stderr", "games", "won", "outright;", "margin", "otherwise"]
    rows = _move_rows(out)
    assert len(rows) == len(a.moves)
    column = heading.index("move") + max(len("move"), *(len(str(m.move)) for m in a.moves)) + 2
    for row in rows:
        move = row.split()[0]
        mv = next(m for m in a.moves if str(m.move) == move)
        assert (row[column : column + 4] == "best") == (mv.move in a.best), row
        value_end = heading.index("value") + len("value")
        assert row[:value_end].endswith(f"{mv.value:+.2f}"), (row, heading)
        if mv.p_win or mv.p_loss:
            assert row.endswith(mv.describe(a.turn)), row
        else:  # (the margin is the value: not again)
            assert row.endswith(f"{mv.value:+.2f}    {mv.stderr:.2f}"), row
    assert any(m.p_win for m in a.moves) and any(not m.p_win and not m.p_loss for m in a.moves)
    plain = _move_rows(invoke("analyse", VIEW, "--worlds", "20").stdout)  # (no game won at all)
    assert all(len(row.split()) in (3, 4) for row in plain), plain


def test_human_output_says_why_the_sampling_stopped_in_words(invoke):
    out = invoke("analyse", VIEW, "--worlds", "20").stdout
    assert out.splitlines()[-1].endswith(" ms, stopped after the 20 worlds asked for")
    out = invoke("analyse", SEPARATING_VIEW, "--worlds", "200", "--seed", "3", "--separation", "3").stdout
    assert out.splitlines()[-1].endswith(
        " ms, stopped early, after 20 worlds: the best move is separated from the others"
    )
    out = invoke("analyse", SMALL_VIEW).stdout
    assert out.splitlines()[-1].endswith(" ms, every consistent world solved (7 worlds)")
    assert "stopped: " not in out


@pytest.mark.slow
def test_human_output_says_how_far_the_runner_up_is_behind_over_the_same_worlds(invoke):
    out = invoke("analyse", VIEW, "--worlds", "200").stdout
    a = analyse(VIEW, worlds=200)
    r = a.runner_up
    assert r is not None and r.stderr is not None
    line = next(ln for ln in out.splitlines() if ln.startswith("Runner-up: "))
    assert line == (
        f"Runner-up: {r.move} is {r.difference:.2f} +- {r.stderr:.2f} worse than {a.best[0]} "
        f"(paired over the same worlds: {r.difference / r.stderr:.1f} standard errors, within the sampling noise)"
    )
    d = json.loads(invoke("analyse", VIEW, "--worlds", "200", "--json").stdout)
    assert d["runner_up"] == {
        "move": str(r.move),
        "difference": round(r.difference, 3),
        "stderr": round(r.stderr, 3),
    }


HIDDEN = "brisque K8.K7..T9/?6 QC 11 A.9.TKQJ7.8 - a 11:19 tricks=1:3"


FULL_A = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - a 52:35"  # every card known


FINISHED = "petite .../... KH 21 KJ8.T98.TK.Q7 - a 33:0 tricks=5:0 void=b:HC"  # (a deal played out)


# b's view of a deal a ended by declaring four queens: a's last card is hidden from b
ENDED_VIEW = (
    "brisque Q.KQ.Q.Q+?1/97.T.T.A8 JH 3 ATKJ8.98.AK987.KJ97 - a 82:6 tricks=5:3 melds=mH+kQ/- declared=1"
)


def test_one_sampled_world_has_no_standard_error(invoke):
    from solver.analysis.sampling import analyse

    a = analyse(HIDDEN, worlds=1, seed=0)
    assert a.worlds == 1 and not a.enumerated and a.stderr is None
    d = a.to_dict()
    assert d["stderr"] is None and all(mv["stderr"] is None for mv in d["moves"])
    worst = min(a.moves, key=lambda mv: mv.value)
    loss, se = a.paired_loss(worst.move)
    assert loss > 0 and se is None
    assert "stderr" in a._repr_html_()  # (the notebook table shows "?", no TypeError)
    r = invoke("analyse", HIDDEN, "--worlds", "1", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["stderr"] is None
    # two worlds have one
    assert analyse(HIDDEN, worlds=2, seed=0).stderr is not None


@pytest.mark.parametrize(
    "options, named",
    [
        (["--worlds", "5", "--seed", "3"], "--worlds 5, --seed 3"),
        (["--seconds", "2"], "--seconds 2"),  # (as typed)
        (["--workers", "2", "--json"], "--workers 2"),
    ],
)
def test_analyse_refuses_sampling_options_where_every_card_is_known(brisque, options, named):
    # they were ignored (the exact solve answered), as brisque line's were before 7fd5743
    r = brisque("analyse", FULL_A, *options)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{named}: every card of this position is known" in r.stderr


def test_analyse_of_a_known_position_without_sampling_options_is_the_exact_solve(brisque):
    r = brisque("analyse", FULL_A, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["method"] == "exact"
    batch = brisque("analyse", "-", "--worlds", "5", input=FULL_A + "\n" + VIEW + "\n")
    assert batch.returncode == 0 and [json.loads(x)["method"] for x in batch.stdout.splitlines()] == [
        "exact",
        "pimc",
    ]


def test_analyse_answers_a_finished_deal_as_solve_does(brisque):
    # solve gave the final margin, analyse refused "there is nothing to analyse"
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


def test_a_single_sampled_world_has_no_standard_error(brisque, tmp_path):
    res = brisque.raw("analyse", VIEW, "--worlds", "1", "--quiet", cwd=tmp_path)
    assert res.returncode == 0 and b"+- 0.00" not in res.stdout and b"no standard error" in res.stdout


def test_the_api_analyse_answers_a_finished_deal_as_solve_does():
    # brisque analyse answered it, solver.analyse refused "there is nothing to analyse"
    for bpn, value in ((FINISHED, 5), (ENDED_VIEW, 10000)):
        a, s = solver.analyse(bpn), solver.solve(bpn)
        assert a.value == s.value == value and a.moves == a.best == a.pv == []
        assert dict(json.loads(a.to_json()), seconds=0) == dict(json.loads(s.to_json()), seconds=0)
    assert solver.Position(ENDED_VIEW).has_hidden and solver.solve(ENDED_VIEW).value.win == "a"


def test_the_command_line_answers_a_finished_view_with_hidden_cards(invoke):
    # brisque analyse on it said "use the sampling analysis (brisque analyse)"
    for command in ("solve", "analyse"):
        r = invoke(command, ENDED_VIEW, "--json")
        assert r.exit_code == 0, r.stderr
        assert json.loads(r.stdout)["win"] == "a"
