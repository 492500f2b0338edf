"""Plain card play's merged 7s, 8s and 9s (plain.pxd merge_zero_cards) keep it exact.

Plain play (the final phase's last tricks on two card masks) searches one card of each run
of 7s, 8s and 9s of a suit with no live card between them, for the leader's leads and the
follower's replies.  Random deals rarely give a hand the 7 and the 9 of a suit whose 8 is
gone, so these positions are dealt with zero-point cards first and the rest of the pack
dead: most hold such a run, or one split by a live 8 (which must not merge), under the
rules options that reach plain play.  The engine must agree with the reference solver (every
move's value) and, on more positions, with itself without its enhancements (plain
alpha-beta, no plain play), also in zero-window searches, which use plain play's table;
and so on positions one to three talon tricks from the final phase, whose searches reach
plain play from many more states (the only place where a follower's 7 and 9 with the
leader's 8 between them, under the default head rule, showed a wrong merge).

Checked against two broken builds: merging a 7 and a 9 across a live 8, and the follower
merging with only his own cards as live (not the leader's): each fails here.
"""

from __future__ import annotations

import random

import pytest
from helpers import ALL_OFF

from solver import Position, Rules
from solver.engine.reference import reference_solve
from solver.engine.seam import engine_root
from solver.engine.solving import Solver, solve
from solver.model.bits import points_of
from solver.model.cards import KING, QUEEN, card
from solver.play.dealing import random_position

# the options that reach plain play (Briscan never does, nor Petite Brisque without draws:
# its turnup stays on the table)
RULES = [
    "brisque",
    "brisque(final_follow=follow)",
    "brisque(quartet_win=deal)",
    "brisque(declare=before_draw)",
    "brisque(objective=tricks)",
    "petite(draw=yes,objective=margin)",
]


def zero_heavy(seed: int, rules: str) -> Position:
    """A final-phase position of 3 to 6 cards each (Petite: 5), dealt mostly from the 7s,
    8s and 9s, sometimes with a marriage or two; the rest of the pack is out."""
    r = Rules.parse(rules)
    rng = random.Random(seed)
    n = rng.randint(3, r.hand_size)
    if rng.random() < 0.5:  # zero-point cards first
        weight = rng.choice([0.1, 0.3])
        deck = sorted(range(32), key=lambda c: rng.random() * (weight if c & 7 <= 2 else 1.0))
    else:  # the cards of one or two suits first: runs and the higher cards of their suit
        focus = rng.sample(range(4), rng.randint(1, 2))
        deck = sorted(range(32), key=lambda c: rng.random() * (0.15 if c >> 3 in focus else 1.0))
    for s in rng.sample(range(4), rng.randint(1, 3)):  # these 8s are out: 7 and 9 may merge
        if rng.random() < 0.7:
            deck.remove(card(s, 1))
            deck.append(card(s, 1))
    hands: list[list[int]] = [[], []]
    if r.game == "brisque" and rng.random() < 0.3:
        who = rng.randrange(2)
        suits = rng.sample(range(4), rng.randint(1, 2))
        hands[who] = [card(s, rk) for s in suits for rk in (KING, QUEEN)][:n]
        for c in hands[who]:
            deck.remove(c)
    while len(hands[0]) < n or len(hands[1]) < n:
        for h in (0, 1):
            if len(hands[h]) < n:
                hands[h].append(deck.pop(0))
    h = [sum(1 << c for c in hands[0]), sum(1 << c for c in hands[1])]
    out = sum(1 << c for c in deck)
    pts = points_of(out)
    a_pts = rng.randint(0, pts)
    done = len(deck) // 2
    a_tricks = rng.randint(0, done)
    leader = rng.randrange(2)
    trick, turn = -1, leader
    if rng.random() < 0.25:  # a card led
        trick = rng.choice([c for c in range(32) if h[leader] >> c & 1])
        h[leader] &= ~(1 << trick)
        turn = 1 - leader
    return Position.from_parts(
        r,
        hands=(h[0], h[1]),
        trump=rng.randrange(4),
        turnup=-1,
        talon=[],
        talon_count=0,
        out=out,
        trick=trick,
        turn=turn,
        score=(a_pts, pts - a_pts),
        tricks=(0, 0) if r.game == "brisque" else (a_tricks, done - a_tricks),
        final=(0, 0),
    )


def positions(rules: str, count: int, first_seed: int) -> list[Position]:
    out, seed = [], first_seed
    while len(out) < count:
        p = zero_heavy(seed, rules)
        seed += 1
        if not p.is_over() and not p.problems():
            out.append(p)
    return out


def split_run(p: Position) -> bool:
    """Some hand holds the 7 and the 9 of a suit whose 8 is out (a run plain play merges)."""
    return any(h >> (8 * s) & 7 == 5 and p.out >> (8 * s + 1) & 1 for h in p.hands for s in range(4))


def live_between(p: Position) -> bool:
    """Some hand holds the 7 and the 9 of a suit whose 8 the other holds (no merge)."""
    return any(
        p.hands[i] >> (8 * s) & 7 == 5 and p.hands[1 - i] >> (8 * s + 1) & 1 for i in (0, 1) for s in range(4)
    )


@pytest.mark.parametrize("rules", RULES)
def test_the_positions_hold_runs_to_merge(rules):
    ps = positions(rules, 200, 0)
    assert sum(map(split_run, ps)) >= 35
    assert sum(map(live_between, ps)) >= 8
    assert sum(p.trick >= 0 for p in ps) >= 20
    assert len({p.bpn() for p in ps}) == len(ps)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_plain_play_with_merged_cards_matches_the_reference(rules):
    bad = []
    ps = [p for p in positions(rules, 200, 10_000) if split_run(p) or live_between(p)][:40]
    assert len(ps) == 40
    for p in ps:
        a = solve(p)
        eng = (a.value, {str(m.move): m.value for m in a.moves})
        ref = reference_solve(p)
        if eng != (ref[0], dict(ref[1])):
            bad.append(f"{p.bpn()}: engine {eng}, reference {ref}")
    assert not bad, f"{len(bad)} of 40 disagree:\n" + "\n".join(bad[:5])


def talon_positions(rules: str, count: int, first_seed: int) -> list[Position]:
    """Positions with one to three talon tricks left, some with a card led: their searches
    reach plain play from many more final phases than a deal of it."""
    r = Rules.parse(rules)
    out, seed = [], first_seed
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        p = random_position(seed, r, r.talon_tricks + 1 - rng.randint(1, 3))
        if not p.is_over() and rng.random() < 0.4:
            p.push(rng.choice(p.legal_moves()))
        if not p.is_over() and not p.in_window:
            out.append(p)
    return out


def disagreements(rules: str, ps: list[Position]) -> list[str]:
    """Every move's value with every enhancement on, and off (no plain play), then
    zero-window tests of each value in the engine with them on (its tables kept)."""
    on = Solver(Rules.parse(rules), 16).engine
    off = Solver(Rules.parse(rules), 16).engine
    on.set_features(**{k: True for k in ALL_OFF})
    off.set_features(**ALL_OFF)
    bad = []
    for p in ps:
        res = []
        for eng in (on, off):
            eng.clear()
            eng.load(engine_root(p))
            res.append(sorted(eng.move_values()))
        if res[0] != res[1]:
            bad.append(f"{p.bpn()}: with enhancements {res[0]}, without {res[1]}")
            continue
        for move, v in res[1]:
            if not on.reaches(move, v) or on.reaches(move, v + 1):
                bad.append(f"{p.bpn()}: move {move} is worth {v}, zero-window tests disagree")
    return bad


@pytest.mark.parametrize("rules", RULES)
def test_plain_play_with_merged_cards_matches_the_search_without_it(rules):
    bad = disagreements(rules, positions(rules, 1500, 20_000))
    assert not bad, f"{len(bad)} disagreements in 1500 positions:\n" + "\n".join(bad[:5])


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_plain_play_from_the_talon_matches_the_search_without_it(rules):
    bad = disagreements(rules, talon_positions(rules, 250, 0))
    assert not bad, f"{len(bad)} disagreements in 250 positions:\n" + "\n".join(bad[:5])


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
def test_plain_play_with_merged_cards_matches_the_search_without_it_many(rules):
    # (10,000 and 1,000 more: with the quick cases, 12,750 positions a rules variant; twice
    # as many took four minutes of the suite's time)
    bad = disagreements(rules, positions(rules, 10_000, 100_000))
    bad += disagreements(rules, talon_positions(rules, 1000, 100_000))
    assert not bad, f"{len(bad)} disagreements in 11000 positions:\n" + "\n".join(bad[:5])
