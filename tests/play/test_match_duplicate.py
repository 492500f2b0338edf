"""Duplicate matches: run_match, duplicate_summary, wilson, the records, and ``brisque match``."""

from __future__ import annotations

import json
import math
import os

import pytest
from helpers import ROOT

import solver
from solver.errors import ArgumentError
from solver.formats.records import DealRecord, record_to_deal, write_records
from solver.model.position import Position
from solver.model.ranges import MAX_SEED
from solver.play.dealing import deal
from solver.play.match import DEAL_SEED_STEP, deal_seed, duplicate_summary, run_match, t95, wilson
from solver.play.players import make_player

Z = 1.959963984540054
# Student's t(0.975) for 1 and 2 degrees of freedom (scipy.stats.t.ppf), and the 1.96 of many
T1, T2 = 12.706204736174698, 4.302652729749464


def hand_wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval, written out from its textbook formula."""
    p = k / n
    denom = 1 + Z**2 / n
    centre = p + Z**2 / (2 * n)
    spread = Z * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2))
    return (max(0.0, (centre - spread) / denom), min(1.0, (centre + spread) / denom))


def margin_from_replay(rec: dict) -> int:
    """The first player's margin, from the replayed final position (not from the record's fields)."""
    final = DealRecord(start=rec["start"], moves=rec["moves"]).final()
    seat = "ab".index(rec["first_at"])
    return int(final.value(seat))  # the answers' number: +-10000 for a game won


@pytest.fixture(scope="module")
def small():
    return run_match("greedy", "random", 3, seed=5)


# ---------------------------------------------------------------------------- statistics
def test_summary_against_a_hand_computation(small):
    recs = small.records
    assert len(recs) == 6
    margins = [margin_from_replay(r) for r in recs]
    assert margins == [r["margin_first"] for r in recs]
    pairs = [margins[0:2], margins[2:4], margins[4:6]]
    # the margin and its interval come from the pairs without a game-winning event (+-10000)
    clean = [pair for pair in pairs if not any(abs(m) == 10000 for m in pair)]
    assert len(clean) >= 2
    pair_means = [(a + b) / 2 for a, b in clean]
    mean = sum(pair_means) / len(clean)
    sd = math.sqrt(sum((x - mean) ** 2 for x in pair_means) / (len(clean) - 1))  # sample sd
    half = t95(len(clean) - 1) * sd / math.sqrt(len(clean))
    won = sum(m > 0 for m in margins)
    lost = sum(m < 0 for m in margins)
    s = small.summary
    assert s["deals"] == 6 and s["pairs"] == 3
    assert s["mean_margin"] == pytest.approx(mean)
    assert s["ci95"] == pytest.approx([mean - half, mean + half])
    assert (s["won"], s["lost"], s["drawn"]) == (won, lost, 6 - won - lost)
    assert s["won_share_ci95"] == pytest.approx(list(hand_wilson(won, 6)))
    assert s["first"] == "greedy" and s["second"] == "random" and s["seed"] == 5
    assert s["rules"] == "brisque"
    wins = [r for r in recs if r["win"]]
    assert s["game_wins_first"] == sum(r["win"] == r["first_at"] for r in wins)
    assert s["game_wins_second"] == sum(r["win"] != r["first_at"] for r in wins)


def test_duplicate_summary_hand_made_numbers():
    s = duplicate_summary([[10, -4], [0, 6], [20, 20]])
    # margins 10 -4 0 6 20 20: mean 52/6; pair means 3, 3, 20 (mean 26/3)
    # sample variance ((17/3)^2 * 2 + (34/3)^2) / 2 = 289/3, sd = 17/sqrt(3), half = t(2 df)*17/3
    assert s["deals"] == 6 and s["pairs"] == 3
    assert s["mean_margin"] == pytest.approx(26 / 3)
    assert s["ci95"] == pytest.approx([26 / 3 - T2 * 17 / 3, 26 / 3 + T2 * 17 / 3])
    assert (s["won"], s["lost"], s["drawn"]) == (4, 1, 1)
    assert s["won_share_ci95"] == pytest.approx([0.29999, 0.90323], abs=1e-4)  # Wilson 4/6


def test_duplicate_summary_docstring_and_equal_pairs():
    s = duplicate_summary([[10, -4], [0, 6]])
    assert (s["deals"], s["mean_margin"], s["won"], s["lost"], s["drawn"]) == (4, 3.0, 2, 1, 1)
    assert s["ci95"] == pytest.approx([3.0, 3.0])  # both pair means are 3: no spread
    s = duplicate_summary([[-2, -8], [4, 0]])
    # pair means -5, 2: sd = 7/sqrt(2), half = t(1 df) * 7 / 2
    assert s["mean_margin"] == pytest.approx(-1.5)
    assert s["ci95"] == pytest.approx([-1.5 - T1 * 3.5, -1.5 + T1 * 3.5])
    assert (s["won"], s["lost"], s["drawn"]) == (1, 2, 1)


def test_duplicate_summary_reports_game_wins_apart_from_the_margins():
    s = duplicate_summary([[10000, -30], [12, 8], [-10000, 10000], [4, -2]])
    # the margin is over the pairs without a game-winning event: (12 + 8) / 2 and (4 - 2) / 2
    assert s["mean_margin"] == pytest.approx(5.5)
    assert s["pairs_without_events"] == 2 and s["deals_with_events"] == 3
    assert (s["game_wins_first"], s["game_wins_second"]) == (2, 1)
    assert (s["won"], s["lost"]) == (5, 3)  # a game won outright is a deal won
    pm = [10.0, 1.0]
    half = T1 * math.sqrt(sum((x - 5.5) ** 2 for x in pm)) / math.sqrt(2)
    assert s["ci95"] == pytest.approx([5.5 - half, 5.5 + half])
    assert duplicate_summary([[10000, 1]])["mean_margin"] is None


def test_wilson_against_known_values():
    assert wilson(4, 6) == pytest.approx((0.29999, 0.90323), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.27753, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(0.72247, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    for k, n in [(1, 3), (7, 9), (13, 40)]:
        assert wilson(k, n) == pytest.approx(hand_wilson(k, n))
        lo, hi = wilson(k, n)
        assert lo < k / n < hi


# ---------------------------------------------------------------------------- the records
def test_records_replay_to_their_scores(small):
    for rec in small.records:
        positions = DealRecord(start=rec["start"], moves=rec["moves"]).replay()
        final = positions[-1]
        assert final.is_over()
        assert not any(p.is_over() for p in positions[:-1])
        assert list(final.score) == rec["score"]
        assert list(final.tricks) == rec["tricks"]
        assert rec["win"] == (None if final.win < 0 else "ab"[final.win])
        assert record_to_deal(rec).final().bpn() == final.bpn()


def test_seats_swapped_within_each_pair(small):
    recs = small.records
    for i in range(0, len(recs), 2):
        one, two = recs[i], recs[i + 1]
        assert one["pair"] == two["pair"] == i // 2
        assert one["deal_seed"] == two["deal_seed"]
        assert one["start"] == two["start"]
        assert one["start"] == deal(one["deal_seed"], "brisque").bpn()
        assert Position(one["start"]).trick_number == 1
        assert one["players"] == ["greedy", "random"]
        assert two["players"] == ["random", "greedy"]
        assert (one["first_at"], two["first_at"]) == ("a", "b")
    seeds = [r["deal_seed"] for r in recs[::2]]
    assert len(set(seeds)) == len(seeds)


def test_same_seed_same_records(small):
    again = run_match("greedy", "random", 3, seed=5)
    assert again.records == small.records
    assert again.summary == small.summary
    other = run_match("greedy", "random", 3, seed=6)
    assert [r["start"] for r in other.records] != [r["start"] for r in small.records]


def test_workers_give_the_same_records(small):
    par = run_match("greedy", "random", 3, seed=5, workers=2)
    assert par.records == small.records
    assert par.summary == small.summary


def test_progress_is_reported():
    calls = []
    run_match("random", "random", 2, seed=1, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 2), (2, 2)]


def test_random_players_are_seeded_the_same_in_both_seats():
    r = run_match("random", "random", 1, seed=3)
    again = run_match("random", "random", 1, seed=3)
    assert r.records == again.records


@pytest.mark.parametrize("rules", ["briscan", "petite"])
def test_other_games(rules):
    r = run_match("random", "greedy", 1, seed=2, rules=rules)
    assert r.summary["rules"] == rules and r.summary["deals"] == 2
    for rec in r.records:
        assert rec["start"].startswith(rules)
        assert rec["margin_first"] == margin_from_replay(rec)
        final = DealRecord(start=rec["start"], moves=rec["moves"]).final()
        assert list(final.score) == rec["score"] and list(final.tricks) == rec["tricks"]
    if rules == "petite":  # the objective is tricks: the margins are trick differences
        assert all(abs(rec["margin_first"]) <= 5 for rec in r.records)


def test_pimc_and_clairvoyant_players_tiny():
    r = run_match("pimc:3", "clairvoyant", 1, seed=4)
    assert len(r.records) == 2
    for rec in r.records:
        assert rec["margin_first"] == margin_from_replay(rec)
        assert DealRecord(start=rec["start"], moves=rec["moves"]).final().is_over()
        assert list(DealRecord(start=rec["start"], moves=rec["moves"]).final().score) == rec["score"]
    assert r.records[0]["players"] == ["pimc:3", "clairvoyant"]
    assert r.records[1]["players"] == ["clairvoyant", "pimc:3"]


def test_same_seed_same_records_with_a_searching_player():
    """run_match promises that the same seed gives the same records; that must hold for the
    clairvoyant player too, also when the match is run again in the same process."""
    first = run_match("clairvoyant", "greedy", 1, seed=1)
    second = run_match("clairvoyant", "greedy", 1, seed=1)
    for a, b in zip(first.records, second.records):
        diverge = next((i for i, (x, y) in enumerate(zip(a["moves"], b["moves"])) if x != y), None)
        assert a == b, f"deal {a['first_at']}: the moves diverge at move {diverge}"


def test_write_records_one_json_object_a_line(small, tmp_path):
    path = tmp_path / "r.jsonl"
    write_records(str(path), small.records)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(ln) for ln in lines] == small.records
    for ln, rec in zip(lines, small.records):
        d = DealRecord.from_json(ln)
        assert d.start == rec["start"] and d.moves == rec["moves"]


def test_unknown_player_spec():
    for spec in ("grumpy", "pimc:0", "pimc:x", "pimc:-3"):
        with pytest.raises(ValueError) as exc:
            make_player(spec)
        assert repr(spec) in str(exc.value)
        with pytest.raises(ValueError):
            run_match(spec, "random", 1)
    assert make_player("PIMC:7").name == "pimc:7"


# ---------------------------------------------------------------------------- the CLI
def test_cli_match_json(invoke, tmp_path):
    records = tmp_path / "deals.jsonl"
    res = invoke("match", "greedy", "random", "--deals", 2, "--seed", 8, "--records", records, "--json")
    assert res.exit_code == 0, res.stderr
    last = res.stdout.strip().splitlines()[-1]
    s = json.loads(last, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))
    for key in ("deals", "mean_margin", "ci95", "won", "lost", "drawn"):
        assert key in s
    assert s["deals"] == 4
    assert len(s["ci95"]) == 2 and all(isinstance(x, (int, float)) for x in s["ci95"])
    assert s["ci95"][0] <= s["mean_margin"] <= s["ci95"][1]
    assert s["won"] + s["lost"] + s["drawn"] == 4
    lib = run_match("greedy", "random", 2, seed=8)
    assert s["seconds_per_deal_first"] >= 0 and s["seconds_per_deal_second"] >= 0
    del s["seconds_per_deal_first"], s["seconds_per_deal_second"]
    expected = json.loads(json.dumps(lib.summary))  # (the JSON rounds values to 3 decimals, shares to 6)
    expected["mean_margin"] = round(expected["mean_margin"], 3)
    expected["ci95"] = [round(x, 3) for x in expected["ci95"]]
    expected["won_share_ci95"] = [round(x, 6) for x in expected["won_share_ci95"]]  # (a share: 6)
    assert s == expected
    written = [json.loads(ln) for ln in records.read_text(encoding="utf-8").splitlines()]
    assert written == lib.records


def test_cli_match_json_is_strict_json_with_one_pair(invoke, tmp_path):
    """One deal pair has no spread: the summary must still be valid JSON (no Infinity/NaN),
    with ci95 two numbers or nulls."""
    res = invoke("match", "greedy", "random", "--deals", 1, "--records", tmp_path / "r.jsonl", "--json", "-q")
    assert res.exit_code == 0, res.stderr
    last = res.stdout.strip().splitlines()[-1]

    def refuse(const):
        raise ValueError(f"{const} is not JSON")

    s = json.loads(last, parse_constant=refuse)
    assert len(s["ci95"]) == 2


def test_cli_match_text(invoke, tmp_path):
    records = tmp_path / "deals.jsonl"
    res = invoke("match", "random", "greedy", "--deals", 2, "--seed", 3, "--records", records, "-q")
    assert res.exit_code == 0, res.stderr
    s = run_match("random", "greedy", 2, seed=3).summary
    out = res.stdout
    assert "2 deal pairs (4 deals), seed 3" in out
    assert f"mean margin for random: {s['mean_margin']:+.2f} points per deal" in out
    assert f"deals won {s['won']}, lost {s['lost']}, drawn {s['drawn']}" in out
    assert f"records: {records}" in out
    assert len(records.read_text().splitlines()) == 4


def test_cli_match_unknown_player(invoke, tmp_path):
    records = tmp_path / "never.jsonl"
    res = invoke("match", "greedy", "wizard", "--deals", 1, "--records", records)
    assert res.exit_code != 0
    assert "unknown player 'wizard'" in res.stderr
    assert "greedy" in res.stderr and "pimc" in res.stderr  # it lists the valid kinds
    assert "Traceback" not in res.stderr + res.stdout
    assert not records.exists()
    res = invoke("match", "pimc:0", "random", "--deals", 1, "--records", records)
    assert res.exit_code != 0 and "pimc:0" in res.stderr


def test_cli_match_bad_rules(invoke, tmp_path):
    res = invoke("match", "greedy", "random", "--rules", "poker", "--records", tmp_path / "r.jsonl")
    assert res.exit_code != 0
    assert "poker" in res.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a device always full")
@pytest.mark.parametrize("workers", [1, 2])
def test_cli_match_records_that_cannot_be_written_name_the_file(invoke, workers):
    res = invoke(
        "match", "greedy", "random", "--deals", 3, "--workers", workers, "--records", "/dev/full", "-q"
    )
    assert res.exit_code == 1
    assert res.stderr.splitlines()[-1] == (
        "Error: cannot write the records to '/dev/full': No space left on device"
    )
    assert res.stdout == "" and not isinstance(res.exception, OSError)


@pytest.mark.parametrize(
    "rules, message",
    [
        ("brisk", "--rules 'brisk': unknown game: expected one of brisque, briscan, petite"),
        ("brisque(target=x)", "--rules 'brisque(target=x)': option target: 'x' is not a whole number"),
    ],
)
def test_cli_match_bad_rules_names_the_option_and_quotes_the_value(invoke, rules, message):
    res = invoke("match", "greedy", "random", "--rules", rules)
    assert res.exit_code == 2
    assert res.stderr.splitlines()[-1].startswith(f"Error: {message}")
    assert "bad rules" not in res.stderr  # (the value quoted once)


@pytest.mark.slow
def test_matches_report_each_players_thinking_time():
    m = run_match("pimc:4", "greedy", 2, seed=3)
    t = m.timing
    assert t["seconds_per_deal_first"] > t["seconds_per_deal_second"] >= 0  # sampling costs more
    assert "seconds_per_deal_first" not in m.summary  # the summary of a seed never changes


def test_t95_matches_students_t():
    # scipy.stats.t.ppf(0.975, df), to 6 decimals
    known = {
        1: 12.706205,
        2: 4.302653,
        3: 3.182446,
        10: 2.228139,
        30: 2.042272,
        31: 2.039513,
        50: 2.008559,
        100: 1.983972,
        1000: 1.962339,
    }
    for df, t in known.items():
        assert t95(df) == pytest.approx(t, abs=5e-6)
    assert t95(10**9) == pytest.approx(Z)


def test_match_ci_of_three_pairs_uses_students_t():
    # a pair of means 80, 61, 42: a t interval with 2 df is [13.8, 108.2], not [39.5, 82.5]
    lo, hi = duplicate_summary([[80, 80], [61, 61], [42, 42]])["ci95"]
    assert lo == pytest.approx(13.80138, abs=1e-4) and hi == pytest.approx(108.19862, abs=1e-4)


# ---- match seeds: every seed the help accepts, and the deal seeds matches always had


@pytest.mark.parametrize("seed", [100_000_000_000_000, MAX_SEED])
def test_match_takes_every_seed_its_help_accepts(brisque, tmp_path, seed):
    # was "ArgumentError: seed=10000300000000000000: expected a whole number from 0 to ..."
    r = brisque("match", "greedy", "random", "--deals", "1", "--seed", str(seed), "--json")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert json.loads(r.stdout)["seed"] == seed


def test_match_api_at_the_largest_seed_deals_in_range():
    m = run_match("greedy", "random", 2, seed=MAX_SEED)
    seeds = [rec["deal_seed"] for rec in m.records]
    assert all(0 <= s <= MAX_SEED for s in seeds) and seeds[0] != seeds[2]
    assert m.records[0]["start"] == solver.deal(seeds[0]).bpn()


def test_deal_seeds_in_range_are_those_matches_always_had():
    # (the recorded results of benchmarks/ replay from them)
    last = (MAX_SEED - 5) // DEAL_SEED_STEP  # the largest match seed whose pairs 0..5 fit
    for seed in (0, 1, 5, 12345, last):
        assert [deal_seed(seed, i) for i in range(6)] == [seed * 100003 + i for i in range(6)]
    assert deal_seed(last + 1, 0) == (last + 1) * 100003 - 2**63


def test_recorded_match_results_replay_from_the_same_deal_seeds():
    recorded = ROOT / "benchmarks" / "results" / "match-pimc100-greedy-brisque.jsonl"
    lines = recorded.read_text(encoding="utf-8").splitlines()[:6]
    for rec in map(json.loads, lines):  # (a match of seed 1)
        assert rec["deal_seed"] == deal_seed(1, rec["pair"])
        assert rec["start"] == solver.deal(deal_seed(1, rec["pair"])).bpn()


def test_positions_from_the_largest_seed_go_on_from_0():
    from solver.play.dealing import positions_with_talon_left

    assert len(positions_with_talon_left(5, 3, "brisque", first_seed=MAX_SEED)) == 3


def test_match_refuses_a_seed_out_of_range_naming_it():
    with pytest.raises(ArgumentError, match=r"seed=-1: expected a whole number from 0 to"):
        run_match("greedy", "random", 1, seed=-1)
