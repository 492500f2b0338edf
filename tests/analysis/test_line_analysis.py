"""``analyse_line`` and ``brisque line``: the value of every move of a played line and what it lost."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import POSITIONS

import solver
from solver import Position
from solver.analysis.line import analyse_line, games_given_up, losses_by_player
from solver.engine.results import Limit
from solver.engine.solving import solve
from solver.errors import (
    ArgumentTypeError,
    HiddenInformationError,
    NotationError,
    PositionError,
)
from solver.formats.bpd import read_bpd
from solver.formats.records import DealRecord, record_to_deal, write_records
from solver.model.moves import parse_move
from solver.play.match import run_match

FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # b to lead, v 44


def mixed_line(bpn: str, pattern: str = "wbmb") -> list[str]:
    """A line to the end of the deal: worst, best, a middle move, best, ... (cycling)."""
    p = Position(bpn)
    moves, i = [], 0
    while not p.is_over():
        a = solve(p, pv=False)
        ranked = sorted(a.moves, key=lambda mv: (mv.value, str(mv.move)))
        kind = pattern[i % len(pattern)]
        mv = {"w": ranked[0], "b": ranked[-1], "m": ranked[len(ranked) // 2]}[kind].move
        moves.append(str(mv))
        p.push(mv)
        i += 1
    return moves


def value_after(p: Position, m) -> int:
    """The value of the move for its player, from the position it leads to (solved afresh)."""
    q = p.copy()
    q.push(parse_move(m) if isinstance(m, str) else m)
    if q.is_over():
        return q.value(p.turn)
    v = solve(q, pv=False).value
    return v if q.turn == p.turn else -v


def check_steps(bpn: str, moves: list[str], steps, engine: str = "native") -> None:
    assert len(steps) == len(moves)
    p = Position(bpn)
    for i, (m, s) in enumerate(zip(moves, steps), 1):
        a = solve(p, engine=engine)
        assert s.number == i
        assert s.bpn == p.bpn()
        assert s.player == "ab"[p.turn]
        assert str(s.move) == m
        assert s.exact is True
        assert s.best_value == a.value
        assert s.move_value == a.move_value(m)
        assert s.move_value == value_after(p, m)
        assert s.loss == a.value - a.move_value(m)
        assert s.loss >= 0
        assert (s.loss == 0) == (parse_move(m) in a.best)
        assert {str(x) for x in s.best} == {str(x) for x in a.best}
        p.push(parse_move(m))


def test_line_matches_the_reference_solver_move_by_move():
    moves = mixed_line(FP)
    assert len(moves) >= 11
    steps = analyse_line(FP, moves)
    check_steps(FP, moves, steps, engine="reference")
    assert any(s.loss > 0 for s in steps) and any(s.loss == 0 for s in steps)


@pytest.mark.parametrize("name", ["brisque-endgames.bpd", "briscan-endgames.bpd", "petite-deals.bpd"])
def test_line_matches_solve_on_collection_positions(name):
    for rec in read_bpd(str(POSITIONS / name))[:3]:
        moves = mixed_line(rec.bpn, "mbwb")
        steps = analyse_line(rec.bpn, moves)
        check_steps(rec.bpn, moves, steps)


def test_principal_variation_loses_nothing():
    for rec in read_bpd(str(POSITIONS / "brisque-endgames.bpd"))[:5]:
        pv = [str(m) for m in rec.moves("pv")]
        steps = analyse_line(rec.bpn, pv)
        assert [s.loss for s in steps] == [0] * len(pv)
        assert steps[0].best_value == rec.int_op("v")
        assert losses_by_player(steps) == {"a": 0, "b": 0}


def test_known_mistake_notation_example():
    steps = analyse_line(FP, ["QD"])
    s = steps[0]
    assert (s.move_value, s.best_value, s.loss) == (4, 44, 40)
    assert s.player == "b"
    assert "QD" not in {str(m) for m in s.best}


def test_known_mistake_from_a_collection_record():
    """fp-001: bm +mD, v 4, and the comment gives the runner-up's value; playing the runner-up
    loses exactly the difference."""
    rec = read_bpd(str(POSITIONS / "brisque-endgames.bpd"))[0]
    runner_up = int(re.search(r"runner-up ([+-]\d+)", rec.ops["c0"]).group(1))
    a = solve(rec.position)
    mistake = next(mv.move for mv in a.moves if mv.value == runner_up)
    s = analyse_line(rec.bpn, [mistake])[0]
    assert s.best_value == rec.int_op("v")
    assert s.loss == rec.int_op("v") - runner_up > 0
    assert str(s.move) not in {str(m) for m in rec.moves("bm")}


def test_losses_by_player_sums_each_players_losses():
    moves = mixed_line(FP)
    steps = analyse_line(FP, moves)
    expect = {"a": 0, "b": 0}
    for s in steps:
        expect[s.player] += s.loss
    assert losses_by_player(steps) == expect
    assert expect["a"] > 0 or expect["b"] > 0


def test_illegal_move_raises_a_clear_error():
    with pytest.raises(PositionError) as exc:
        analyse_line(FP, ["QD", "9D"])  # a has no diamond: 9D is not in his hand
    msg = str(exc.value)
    assert "move 2" in msg and "9D" in msg and "not legal" in msg
    assert "legal:" in msg and "9S" in msg  # it lists what is legal
    with pytest.raises(PositionError) as exc:
        analyse_line(FP, ["AS"])  # a's card, but b is to play
    assert "move 1" in str(exc.value) and "AS" in str(exc.value)


def test_move_after_the_end_raises():
    moves = mixed_line(FP)
    with pytest.raises(PositionError) as exc:
        analyse_line(FP, moves + ["AS"])
    assert "over" in str(exc.value)


def test_unreadable_move_raises_a_notation_error():
    with pytest.raises(NotationError):
        analyse_line(FP, ["QD", "ZZ"])


def test_start_position_is_not_modified():
    p = Position(FP)
    analyse_line(p, ["QD"])
    assert p.bpn() == FP


# ---------------------------------------------------------------------------- the CLI
ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([ab])\s+(\S+)\s+([+-]\d+)\s+([+-]\d+)\s+(\d+)\s+(.*)$")


def test_cli_line_text_output(invoke):
    moves = mixed_line(FP)[:6]
    steps = analyse_line(FP, moves)
    res = invoke("line", FP, *moves)
    assert res.exit_code == 0, res.stderr
    out = res.stdout.splitlines()
    assert out[0].split()[:4] == ["#", "trick", "who", "move"]
    rows = [ROW.match(ln) for ln in out[1:-1]]
    assert all(rows) and len(rows) == len(moves)
    for m, s in zip(rows, steps):
        number, trick, who, move, value, best, loss, rest = m.groups()
        assert (int(number), int(trick), who, move) == (s.number, s.trick, s.player, str(s.move))
        assert (int(value), int(best), int(loss)) == (s.move_value, s.best_value, s.loss)
        assert ("<-- mistake" in rest) == (s.loss > 0)
    losses = losses_by_player(steps)
    assert out[-1] == f"total loss: a {losses['a']:g}, b {losses['b']:g}"


def test_cli_line_json(invoke):
    moves = mixed_line(FP)
    res = invoke("line", FP, *moves, "--json")
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    assert len(lines) == 1
    d = json.loads(lines[0])
    assert d["bpn"] == FP
    steps = analyse_line(FP, moves)
    assert d["steps"] == [s.to_dict() for s in steps]
    assert d["loss"] == losses_by_player(steps)
    for row in d["steps"]:
        assert row["loss"] == row["best_value"] - row["value"] >= 0


def test_cli_line_interrupted_before_its_first_move_says_so(invoke, monkeypatch):
    import solver.analysis.line as line
    import solver.cli.commands.line as line_command

    def interrupted(*args, **kwargs):  # (Ctrl-C as the first move is being judged)
        raise line.LineInterrupted([])

    monkeypatch.setattr(line_command, "analyse_line", interrupted)
    res = invoke("line", FP, "QD", "9C")
    assert res.exit_code == 130
    assert res.stdout == ""  # (no table with no row)
    assert res.stderr == "interrupted before the first move was analysed (2 moves given)\n"
    res = invoke("line", FP, "QD", "9C", "--json")  # (a script still gets its object, marked)
    assert res.exit_code == 130
    assert json.loads(res.stdout)["steps"] == [] and json.loads(res.stdout)["interrupted"] is True


def test_cli_line_illegal_move(invoke):
    res = invoke("line", FP, "QD", "9D")
    assert res.exit_code == 2
    assert "not legal" in res.stderr and "9D" in res.stderr
    assert res.stdout == ""


def test_cli_line_needs_a_position(invoke):
    res = invoke("line")
    assert res.exit_code == 2
    assert "BPN" in res.stderr or "record" in res.stderr


# ---------------------------------------------------------------------------- records of a match
@pytest.fixture(scope="module")
def match_file(tmp_path_factory):
    result = run_match("greedy", "random", 1, seed=4)
    path = tmp_path_factory.mktemp("line") / "deals.jsonl"
    write_records(str(path), result.records)
    return path, result.records


def test_line_record_replays_the_deal(invoke, match_file):
    path, records = match_file
    assert len(records) == 2
    for i, rec in enumerate(records, 1):
        res = invoke("line", "--record", path, "--deal", i, "--json")
        assert res.exit_code == 0, res.stderr
        d = json.loads(res.stdout)
        assert d["bpn"] == Position(rec["start"]).bpn()
        assert len(d["steps"]) == len(rec["moves"])
        assert [s["move"] for s in d["steps"]] == rec["moves"]
        bpns = DealRecord(start=rec["start"], moves=rec["moves"]).bpns()
        assert [s["bpn"] for s in d["steps"]] == bpns[:-1]
        assert all(s["loss"] >= 0 for s in d["steps"])
        late = [s for s in d["steps"] if s["exact"]]
        assert late and all((s["loss"] == 0) == (s["move"] in s["best"]) for s in late)


def test_line_record_text_output(invoke, match_file):
    path, records = match_file
    res = invoke("line", "--record", path, "--deal", 2)
    assert res.exit_code == 0, res.stderr
    rows = [ln for ln in res.stdout.splitlines() if ROW.match(ln)]
    assert len(rows) == len(records[1]["moves"])
    assert res.stdout.splitlines()[-1].startswith("total loss: a ")


def test_line_record_through_the_library(match_file):
    _, records = match_file
    rec = record_to_deal(records[0])
    steps = analyse_line(rec.start, rec.moves)
    assert len(steps) == len(rec.moves)
    assert [str(s.move) for s in steps] == rec.moves


def test_line_record_deal_out_of_range(invoke, match_file):
    path, records = match_file
    res = invoke("line", "--record", path, "--deal", len(records) + 1)
    assert res.exit_code == 2
    assert f"holds {len(records)} record" in res.stderr


def test_line_record_and_bpn_together_are_refused(invoke, match_file):
    path, _ = match_file
    res = invoke("line", FP, "--record", path)
    assert res.exit_code == 2
    assert "either" in res.stderr


def test_line_record_petite(invoke, tmp_path):
    result = run_match("random", "greedy", 1, seed=9, rules="petite")
    path = tmp_path / "petite.jsonl"
    write_records(str(path), result.records)
    res = invoke("line", "--record", path, "--deal", 1, "--json")
    assert res.exit_code == 0, res.stderr
    d = json.loads(res.stdout)
    assert len(d["steps"]) == len(result.records[0]["moves"])
    assert all(s["exact"] for s in d["steps"])  # Petite deals are solved exactly
    p = Position(result.records[0]["start"])
    for s in d["steps"]:
        a = solve(p, pv=False)
        assert s["value"] == a.move_value(s["move"]) and s["best_value"] == a.value
        p.push(parse_move(s["move"]))


# a holds four queens at trick 9 (brisque deal --seed 236 --at 9): QS throws the game away
FOUR_QUEENS = "brisque Q9.Q.Q.Q8/T7.J.TK9. KH ACAHAD AKJ8.T987.J87.TKJ97 - a 6:39 tricks=2:6"


def test_line_names_a_game_given_up_and_keeps_it_out_of_the_point_totals(invoke):
    r = invoke("line", FOUR_QUEENS, "QS")
    assert r.exit_code == 0, r.output
    assert "gives up a won game" in r.output
    assert "10070" not in r.output and "total loss: a 0, b 0" in r.output
    assert "games given up (not in the totals): a 1, b 0" in r.output
    out = json.loads(invoke("line", FOUR_QUEENS, "QS", "--json").output)
    step = out["steps"][0]
    assert step["game"] == "gives up a won game" and step["mistake"] is True
    assert step["loss"] == 570  # the ranking rule "match": 500 still needed, plus the 70 lost
    assert out["loss"] == {"a": 0, "b": 0} and out["games_given_up"] == {"a": 1, "b": 0}
    steps = analyse_line(FOUR_QUEENS, ["QS"])
    assert losses_by_player(steps) == {"a": 0, "b": 0}


V = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def test_line_sampled_loss_within_the_noise_is_no_mistake(invoke):
    # 9H loses 5.35 over 20 worlds, but the paired difference's standard error is about 3.5
    res = invoke("line", V, "9H", "--worlds", 20, "--json")
    assert res.exit_code == 0, res.stderr
    step = json.loads(res.stdout)["steps"][0]
    assert step["loss"] == 5.35 and step["loss_stderr"] > 5.35 / 2
    assert step["mistake"] is False and step["inaccuracy"] is False
    assert json.loads(res.stdout)["loss"]["a"] == 5.35
    text = invoke("line", V, "9H", "--worlds", 20).stdout
    assert "mistake" not in text and "(sampled, +- 3.5)" in text


def test_line_sampled_loss_beyond_the_noise_is_a_mistake():
    steps = analyse_line(V, ["9H"], worlds=20)
    s = steps[0]
    s.loss_stderr = s.loss / 3  # (the same loss with a third of the noise)
    assert s.mistake


def test_line_estimate_differences_are_inaccuracies_not_mistakes(invoke, match_file):
    path, _ = match_file
    d = json.loads(invoke("line", "--record", path, "--deal", 2, "--json").stdout)
    estimated = [s for s in d["steps"] if not s["exact"] and s["loss_stderr"] is None]
    assert any(s["inaccuracy"] for s in estimated)
    steps = analyse_line(*_record(path, 2))
    assert all(s.proven for s in steps if not s.exact and s.mistake)
    text = invoke("line", "--record", path, "--deal", 2).stdout
    for row in text.splitlines():
        if "(estimate)" in row:
            assert "<-- mistake" not in row or "proven" in row
    assert "inaccuracy (estimate)" in text


def _record(path, i):
    rec = DealRecord.from_json(Path(path).read_text().splitlines()[i - 1])
    return rec.start, rec.moves


def test_line_own_view_calls_a_loss_between_estimates_an_inaccuracy(invoke, match_file):
    # judged from his own information, a move early in the talon is valued in worlds searched
    # to a depth: a loss beyond the noise there is an inaccuracy, as --view full calls it
    path, _ = match_file
    text = invoke("line", "--record", path, "--deal", 1, "--view", "own", "--worlds", 10).stdout
    rows = [ln for ln in text.splitlines() if ROW.match(ln)]
    assert not [row for row in rows if "(estimate)" in row and "<-- mistake" in row]
    assert any("(estimate)  <-- inaccuracy (estimate)" in row for row in rows)
    assert any(row.split("  [grade: ")[0].endswith("<-- mistake") for row in rows)
    steps = analyse_line(*_record(path, 1), view="own", worlds=10, seed=0)
    for s in steps:  # (the grade, when there is one, closes the row)
        row = next(r for r in rows if r.split()[0] == str(s.number))
        assert row.endswith(f"[grade: {s.grade}]") == (s.grade is not None)
    beyond = [s for s in steps if s.own_mistake]
    assert any(s.own_estimate for s in beyond) and any(not s.own_estimate for s in beyond)
    for s in steps:
        assert s.mistake == bool(s.own_mistake and not s.own_estimate)
        assert s.inaccuracy == bool(s.own_mistake and s.own_estimate)
    slips = [sum(s.inaccuracy for s in steps if s.player == seat) for seat in "ab"]
    assert f"inaccuracies (between estimates): a {slips[0]}, b {slips[1]}" in text
    # the quick search's three tricks reach the final phase from three talon tricks left
    # (trick 8 of Brisque's ten talon tricks): the worlds' values are proven from there on
    assert {s.own_estimate for s in steps if s.trick <= 7} == {True}
    assert {s.own_estimate for s in steps if s.trick >= 8} == {False}


# b declares the four kings at once (+kK): a game won outright, proven within any budget
KINGS = "brisque AJ.98.8.A/K.K.TK7.K JC TSJD9CQD9D7CQCQS7SAHADJHQH8STC 9.T7..8 - b 0:10 tricks=0:2"


HIDDEN_LINE = "brisque ?6/J8..7.AJ8 AD 3 AK97.AT987.TKJ98.Q7 - b 17:38 tricks=3:5"


VIEW = "brisque ?6/TJ97.Q.8. QC AH A8.TKJ97.TKQJ97.AKJ98 - b 29:34 tricks=4:5"


# the same, but b holds the 7 of trumps (clubs): a cannot exchange
SEVEN_SEEN = "brisque ?6/TJ9.Q.8.7 QC AH A8.TKJ97.TKQJ97.AKJ98 - b 29:34 tricks=4:5"


S5 = "brisque AJ.98.8.A/K.K.TK7.K JC TSJD9CQD9D7CQCQS7SAHADJHQH8STC 9.T7..8 - b 0:10 tricks=0:2"


PETITE = "petite A..J.K/?3 8D 21 KJ.T.Q. - a 13:6 tricks=1:1 void=b:D"  # 969 worlds


def test_a_line_move_winning_the_game_at_once_is_exact(invoke):
    (step,) = analyse_line(KINGS, ["+kK"])
    assert step.exact and step.loss == 0 and not step.inaccuracy
    r = invoke("line", KINGS, "+kK")
    assert r.exit_code == 0 and "(estimate)" not in r.stdout, r.stdout


def test_a_line_move_giving_up_a_proven_game_win_is_a_proven_mistake():
    # KC, against +kK: the game-win guard proves KC wins no game (its upper bound +9999)
    (step,) = analyse_line(KINGS, ["KC"])
    assert step.game == "gives up a won game"
    assert step.proven and step.mistake and not step.inaccuracy
    a = solve(KINGS, limit=Limit(depth=4))
    kc = next(mv for mv in a.moves if str(mv.move) == "KC")
    assert int(kc.upper) == 9999 and not kc.upper.won


def test_a_line_from_one_sampled_world_flags_no_mistake(invoke):
    (step,) = analyse_line(HIDDEN_LINE, ["8S"], worlds=1)
    assert step.loss > 0 and step.loss_stderr is None and step.sampled
    assert not step.mistake and step.inaccuracy
    r = invoke("line", HIDDEN_LINE, "8S", "--worlds", "1")
    assert r.exit_code == 0, r.output
    assert "mistake" not in r.stdout and "+- 0.0" not in r.stdout
    assert "(sampled, one world: no standard error)" in r.stdout and "inaccuracy" in r.stdout
    d = json.loads(invoke("line", HIDDEN_LINE, "8S", "--worlds", "1", "--json").stdout)
    assert d["steps"][0]["mistake"] is False and d["steps"][0]["loss_stderr"] is None


def test_a_hidden_hand_may_exchange_when_it_may_hold_the_seven():
    p = Position(VIEW)
    p.push("7S")
    p.push("x")  # a may hold the 7 of clubs: it is unseen
    assert p.exchanged == 0 and p.taken == Position(VIEW).turnup
    assert p.unknown[0] == 5 and p.hands[0] == 1 << p.taken  # the queen taken is known now
    assert p.problems() == []
    q = Position(SEVEN_SEEN)
    assert q.problems() == []
    q.push("8D")
    with pytest.raises(HiddenInformationError, match="cannot play x for a"):
        q.push("x")


def test_analyse_reports_a_line_that_leaves_the_view(brisque, tmp_path: Path):
    r = brisque("analyse", VIEW, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert "Value for b: -56 (exact)" in r.stdout
    assert "10: b 7S, a x, a QC -> a" in r.stdout
    assert "then +mS " in r.stdout and "the view does not show a's cards" in r.stdout


def test_an_unproven_game_event_is_counted_apart():
    # four tricks to the linear horizon see the game given up by KS but cannot prove it
    # (the quick search's three tricks to the learned one can: the guard's proofs depend
    # on the search before them)
    (ks,) = analyse_line(S5, "KS", limit=Limit(depth=4))
    assert ks.game is not None and not ks.exact and not ks.proven
    assert not ks.game_proven and ks.inaccuracy and not ks.mistake
    assert games_given_up([ks]) == {"a": 0, "b": 0}
    assert games_given_up([ks], proven=False) == {"a": 0, "b": 1}
    (kd,) = analyse_line(S5, "KD", limit=Limit(depth=4))
    assert kd.game_proven and kd.mistake
    assert games_given_up([kd]) == {"a": 0, "b": 1}
    assert games_given_up([kd], proven=False) == {"a": 0, "b": 0}
    # the quick search (three tricks to the learned network, the guard after them) sees it
    # too; whether its guard proves it depends on the network's values before it, and the
    # count follows the proof either way
    (ks,) = analyse_line(S5, "KS")
    assert ks.game == "gives up a won game" and not ks.exact and ks.game_proven == ks.proven
    assert games_given_up([ks]) == ({"a": 0, "b": 1} if ks.game_proven else {"a": 0, "b": 0})
    assert games_given_up([ks], proven=False) == ({"a": 0, "b": 0} if ks.game_proven else {"a": 0, "b": 1})


def test_the_command_says_which_game_events_are_proven(tmp_path: Path):
    def line(move: str, *extra: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "solver.cli", "line", S5, move, "-q", "--depth", "4", *extra]
        return subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=120)

    r = line("KS", "--json")
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert answer["games_given_up"] == {"a": 0, "b": 0}
    assert answer["games_given_up_unproven"] == {"a": 0, "b": 1}
    assert answer["steps"][0]["game_proven"] is False and answer["steps"][0]["mistake"] is False
    text = line("KS").stdout
    assert "inaccuracy (estimate)" in text and "games given up by estimates, not proven: a 0, b 1" in text
    assert "games given up (not in the totals)" not in text
    text = line("KD").stdout
    assert "<-- gives up a won game" in text and "games given up (not in the totals): a 0, b 1" in text


def test_the_diagram_says_one_trick():
    from solver import Position
    from solver.svg import svg

    p = Position(
        "briscan J..AJ8.K/AT8.A..T 8H 7 KQ7.TKQJ9.TKQ7.Q9 - b 53:23 tricks=6:1 melds=mC/bp shown=b:8STSASAHTC declared=1"
    )
    drawing = svg(p)
    assert "b: 23 points, 1 trick " in drawing and "1 tricks" not in drawing
    assert "a: 53 points, 6 tricks" in drawing


def test_analyse_line_reads_one_string_of_moves_as_the_command_line_does():
    # analyse_line(p, "QD 9C") read the string a character at a time: "bad move 'Q'"
    steps = solver.analyse_line(FP, "QD 9C")
    assert [(str(s.move), s.loss) for s in steps] == [("QD", 40), ("9C", 0)]


def test_analyse_line_refuses_moves_that_are_not_a_list():
    with pytest.raises(ArgumentTypeError, match="moves=None: expected a list of moves"):
        solver.analyse_line(FP, None)


def test_line_without_moves_is_an_error(brisque):
    # printed an empty table and "total loss: a 0, b 0"
    r = brisque("line", FP)
    assert r.returncode == 2 and "no moves to judge after the BPN" in r.stderr, r.stderr


def test_line_reads_moves_given_in_one_argument(brisque):
    r = brisque("line", FP, "QD 9C", "--json")
    assert r.returncode == 0, r.stderr
    assert [s["move"] for s in json.loads(r.stdout)["steps"]] == ["QD", "9C"]


def test_line_refuses_worlds_where_every_card_is_known(invoke):
    # `line BPN QD --worlds 5` on a double-dummy position silently ignored --worlds

    from solver.play.dealing import deal

    p = deal(6, "brisque")
    first = str(p.legal_moves()[0])
    for extra, quoted in ((["--worlds", "5"], "--worlds 5"), (["--seed", "3"], "--seed 3")):
        r = invoke("line", p.bpn(), first, *extra)
        assert r.exit_code == 2 and quoted in r.output and "every card" in r.output, r.output
    ok = invoke("line", p.bpn(), first, "--json")  # without them: answered
    assert ok.exit_code == 0 and json.loads(ok.output)["steps"][0]["move"] == first
    hidden = p.view(0).bpn()  # hidden cards: the worlds are used, so accepted
    r = invoke("line", hidden, first, "--worlds", "10", "--json")
    assert r.exit_code == 0, r.output


def test_a_line_through_a_hidden_hand_names_the_move(brisque):
    # "the legal moves of b are unknown: ..." said neither which move nor why it was asked
    with pytest.raises(HiddenInformationError, match=r"move 2 \(KS\) is b's, whose hand is hidden"):
        solver.analyse_line(PETITE, "AS KS", worlds=20)
    r = brisque("line", PETITE, "AS", "KS", "--worlds", "20")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "move 2 (KS) is b's, whose hand is hidden" in r.stderr


def test_line_takes_q_and_both_spellings_of_the_record_option(brisque, tmp_path):
    # line had no -q; line --record but match --records
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


def test_line_own_view_says_how_many_worlds_it_needs(brisque, tmp_path):
    # --view own --worlds 5 was refused as "worlds=5" while the help said 1 or more
    import re
    from pathlib import Path

    import solver
    from solver.model.ranges import MIN_OWN_WORLDS

    # one number, set once (the command line's check and help and the library's read it)
    package = Path(solver.__file__).parent
    settings = [
        f.relative_to(package).as_posix()
        for f in package.rglob("*.py")
        if re.search(r"^\w*OWN_WORLDS\b\s*(:[^=]*)?=", f.read_text(encoding="utf-8"), re.M)
    ]
    assert settings == ["model/ranges.py"]
    records = tmp_path / "deals.jsonl"
    brisque("match", "greedy", "random", "--deals", "1", "--records", str(records), "-q")
    r = brisque("line", "--record", str(records), "--view", "own", "--worlds", "5")
    assert r.returncode == 2 and f"--worlds 5: --view own needs at least {MIN_OWN_WORLDS} worlds" in r.stderr
    assert "worlds=" not in r.stderr
    assert f"at least {MIN_OWN_WORLDS}" in brisque("line", "--help").stdout
