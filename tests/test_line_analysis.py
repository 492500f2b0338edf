"""``analyse_line`` and ``brisque line``: the value of every move of a played line and what it lost."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.analysis.line import analyse_line, losses_by_player
from solver.cli import main
from solver.engine.api import solve
from solver.errors import NotationError, PositionError
from solver.formats.bpd import read_bpd
from solver.formats.records import DealRecord, record_to_deal, write_records
from solver.model.moves import parse_move
from solver.model.position import Position
from solver.play.match import run_match

POSITIONS = Path(__file__).parent.parent / "positions"
FP = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"  # b to lead, v 44


def run(*args):
    try:  # keep standard error apart (click < 8.2 mixes it in by default)
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, [str(a) for a in args])


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


def test_cli_line_text_output():
    moves = mixed_line(FP)[:6]
    steps = analyse_line(FP, moves)
    res = run("line", FP, *moves)
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


def test_cli_line_json():
    moves = mixed_line(FP)
    res = run("line", FP, *moves, "--json")
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


def test_cli_line_interrupted_before_its_first_move_says_so(monkeypatch):
    import solver.analysis.line as line
    import solver.cli.commands.line as line_command

    def interrupted(*args, **kwargs):  # (Ctrl-C as the first move is being judged)
        raise line.LineInterrupted([])

    monkeypatch.setattr(line_command, "analyse_line", interrupted)
    res = run("line", FP, "QD", "9C")
    assert res.exit_code == 130
    assert res.stdout == ""  # (no table with no row)
    assert res.stderr == "interrupted before the first move was analysed (2 moves given)\n"
    res = run("line", FP, "QD", "9C", "--json")  # (a script still gets its object, marked)
    assert res.exit_code == 130
    assert json.loads(res.stdout)["steps"] == [] and json.loads(res.stdout)["interrupted"] is True


def test_cli_line_illegal_move():
    res = run("line", FP, "QD", "9D")
    assert res.exit_code == 2
    assert "not legal" in res.stderr and "9D" in res.stderr
    assert res.stdout == ""


def test_cli_line_needs_a_position():
    res = run("line")
    assert res.exit_code == 2
    assert "BPN" in res.stderr or "record" in res.stderr


# ---------------------------------------------------------------------------- records of a match
@pytest.fixture(scope="module")
def match_file(tmp_path_factory):
    result = run_match("greedy", "random", 1, seed=4)
    path = tmp_path_factory.mktemp("line") / "deals.jsonl"
    write_records(str(path), result.records)
    return path, result.records


def test_line_record_replays_the_deal(match_file):
    path, records = match_file
    assert len(records) == 2
    for i, rec in enumerate(records, 1):
        res = run("line", "--record", path, "--deal", i, "--json")
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


def test_line_record_text_output(match_file):
    path, records = match_file
    res = run("line", "--record", path, "--deal", 2)
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


def test_line_record_deal_out_of_range(match_file):
    path, records = match_file
    res = run("line", "--record", path, "--deal", len(records) + 1)
    assert res.exit_code == 2
    assert f"holds {len(records)} record" in res.stderr


def test_line_record_and_bpn_together_are_refused(match_file):
    path, _ = match_file
    res = run("line", FP, "--record", path)
    assert res.exit_code == 2
    assert "either" in res.stderr


def test_line_record_petite(tmp_path):
    result = run_match("random", "greedy", 1, seed=9, rules="petite")
    path = tmp_path / "petite.jsonl"
    write_records(str(path), result.records)
    res = run("line", "--record", path, "--deal", 1, "--json")
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


def test_line_names_a_game_given_up_and_keeps_it_out_of_the_point_totals():
    r = run("line", FOUR_QUEENS, "QS")
    assert r.exit_code == 0, r.output
    assert "gives up a won game" in r.output
    assert "10070" not in r.output and "total loss: a 0, b 0" in r.output
    assert "games given up (not in the totals): a 1, b 0" in r.output
    out = json.loads(run("line", FOUR_QUEENS, "QS", "--json").output)
    step = out["steps"][0]
    assert step["game"] == "gives up a won game" and step["mistake"] is True
    assert step["loss"] == 570  # the ranking rule "match": 500 still needed, plus the 70 lost
    assert out["loss"] == {"a": 0, "b": 0} and out["games_given_up"] == {"a": 1, "b": 0}
    steps = analyse_line(FOUR_QUEENS, ["QS"])
    assert losses_by_player(steps) == {"a": 0, "b": 0}


V = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def test_line_sampled_loss_within_the_noise_is_no_mistake():
    # 9H loses 3.85 over 20 worlds, but the paired difference's standard error is about 4
    res = run("line", V, "9H", "--worlds", 20, "--json")
    assert res.exit_code == 0, res.stderr
    step = json.loads(res.stdout)["steps"][0]
    assert step["loss"] == 3.85 and step["loss_stderr"] > 3.85 / 2
    assert step["mistake"] is False and step["inaccuracy"] is False
    assert json.loads(res.stdout)["loss"]["a"] == 3.85
    text = run("line", V, "9H", "--worlds", 20).stdout
    assert "mistake" not in text and "(sampled, +- 4.0)" in text


def test_line_sampled_loss_beyond_the_noise_is_a_mistake():
    steps = analyse_line(V, ["9H"], worlds=20)
    s = steps[0]
    s.loss_stderr = s.loss / 3  # (the same loss with a third of the noise)
    assert s.mistake


def test_line_estimate_differences_are_inaccuracies_not_mistakes(match_file):
    path, _ = match_file
    d = json.loads(run("line", "--record", path, "--deal", 2, "--json").stdout)
    estimated = [s for s in d["steps"] if not s["exact"] and s["loss_stderr"] is None]
    assert any(s["inaccuracy"] for s in estimated)
    steps = analyse_line(*_record(path, 2))
    assert all(s.proven for s in steps if not s.exact and s.mistake)
    text = run("line", "--record", path, "--deal", 2).stdout
    for row in text.splitlines():
        if "(estimate)" in row:
            assert "<-- mistake" not in row or "proven" in row
    assert "inaccuracy (estimate)" in text


def _record(path, i):
    rec = DealRecord.from_json(Path(path).read_text().splitlines()[i - 1])
    return rec.start, rec.moves


def test_line_own_view_calls_a_loss_between_estimates_an_inaccuracy(match_file):
    # judged from his own information, a move early in the talon is valued in worlds searched
    # to a depth: a loss beyond the noise there is an inaccuracy, as --view full calls it
    path, _ = match_file
    text = run("line", "--record", path, "--deal", 1, "--view", "own", "--worlds", 10).stdout
    rows = [ln for ln in text.splitlines() if ROW.match(ln)]
    assert not [row for row in rows if "(estimate)" in row and "<-- mistake" in row]
    assert any("(estimate)  <-- inaccuracy (estimate)" in row for row in rows)
    assert any(row.endswith("<-- mistake") for row in rows)
    steps = analyse_line(*_record(path, 1), view="own", worlds=10, seed=0)
    beyond = [s for s in steps if s.own_mistake]
    assert any(s.own_estimate for s in beyond) and any(not s.own_estimate for s in beyond)
    for s in steps:
        assert s.mistake == bool(s.own_mistake and not s.own_estimate)
        assert s.inaccuracy == bool(s.own_mistake and s.own_estimate)
    slips = [sum(s.inaccuracy for s in steps if s.player == seat) for seat in "ab"]
    assert f"inaccuracies (between estimates): a {slips[0]}, b {slips[1]}" in text
