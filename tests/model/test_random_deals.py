"""Thousands of random deals played to the end by random legal moves.

Every position reached is checked: cards conserved, no validity problem, hand sizes that fit
the phase, BPN round trip (of the position and of both players' views).  Every finished deal
is checked: card points, last-trick and Briscan bonuses, number of tricks.

The default run plays 1000 deals per game; ``-m slow`` adds 3000 more per game.
"""

import random

import pytest
from helpers import assert_conserved, expected_hand_sizes

from solver import Position
from solver.model.bits import points_of, popcount
from solver.model.cards import FULL_DECK, suit_mask
from solver.model.melds import MELDS, QUARTET
from solver.play.dealing import deal

GAMES = ["brisque", "briscan", "petite"]
DEFAULT_SEEDS = range(1000)
# 500 more deals in the whole run (it was 1,500): every check runs at every position of every
# deal, so 1,500 deals in all are some 40,000 positions a game, and the rules of play and
# scoring they check are the same from one deal to the next
SLOW_SEEDS = range(1000, 1500)


def _meld_points(p: Position) -> int:
    return sum(MELDS[m].points(p.trump, p.rules.game) for ms in p.melds for m in ms)


def _five_trump_hands(p: Position) -> int:
    trumps = suit_mask(p.trump)
    return sum(1 for h in p.hands if popcount(h) == 5 and h & trumps == h)


def play_and_check(seed: int, game: str) -> Position:
    """Play one random deal, checking every step; return the final position."""
    p = deal(seed, game)
    r = p.rules
    rng = random.Random(seed)
    honour = p.score[1]  # Briscan: 10 for the dealer's honour turnup
    dead = FULL_DECK & ~(p.hands[0] | p.hands[1] | 1 << p.turnup)
    if r.draws:
        for c in p.talon:
            dead &= ~(1 << c)
    five_trumps = 0
    while True:
        assert_conserved(p)
        assert p.problems() == [], p.bpn()
        assert [p.hand_size(0), p.hand_size(1)] == expected_hand_sizes(p), p.bpn()
        if p.is_over():
            break
        moves = p.legal_moves()
        assert moves and len(set(moves)) == len(moves)
        m = rng.choice(moves)
        completes = m.is_card and p.trick >= 0
        led = p.trick
        turnup_before = p.turnup >= 0
        total_before = sum(p.score)
        p.push(m)
        gained = sum(p.score) - total_before
        if completes:
            trick_points = points_of(1 << led | 1 << m)
            bonus = 0
            if p.is_over():
                bonus = r.last_trick_bonus
                if game == "briscan":
                    bonus += 20 * sum(f == 5 for f in p.final) + 10 * sum(t >= 9 for t in p.tricks)
            if game == "briscan" and turnup_before and p.turnup < 0:
                n = _five_trump_hands(p)  # last five cards: 30 for a final-phase hand of trumps
                five_trumps += 30 * n
                bonus += 30 * n
            assert gained == trick_points + bonus, p.bpn()
        elif m.is_card or m == 33:
            assert gained == 0
    # ---- the end of the deal
    quartet = game == "brisque" and any(MELDS[i].kind == QUARTET for ms in p.melds for i in ms)
    if quartet:  # four kings/queens win the game at once
        assert p.win == p.turn and p.completed < r.tricks_per_deal
        assert sum(p.score) == points_of(p.out) + _meld_points(p)
        return p
    assert p.completed == r.tricks_per_deal
    assert p.hand_size(0) == p.hand_size(1) == 0 and p.trick == -1
    if r.draws:
        assert p.out == FULL_DECK and points_of(p.out) == 120
    else:  # Petite: the cards out, the card on the table and the dead cards make the pack
        assert p.out | 1 << p.turnup | dead == FULL_DECK
        assert points_of(p.out) + points_of(1 << p.turnup) + points_of(dead) == 120
    if game == "brisque":
        assert sum(p.score) == 120 + 10 + _meld_points(p)
        assert p.win == -1
    elif game == "briscan":
        bonuses = (
            20 * sum(f == 5 for f in p.final) + 10 * sum(t >= 9 for t in p.tricks) + five_trumps + honour
        )
        assert sum(p.score) == 120 + 10 + _meld_points(p) + bonuses
        assert sum(p.final) == 5
        assert (p.win >= 0) is (max(p.tricks) == 16)
    else:
        assert sum(p.score) == points_of(p.out)
        assert p.win == -1 and p.melds == [[], []]
        t = p.tricks
        assert p.outcome().winner == (None if t[0] == t[1] else 0 if t[0] > t[1] else 1)
        if not r.draws:  # five tricks: whoever takes 3 or more wins the deal
            assert p.outcome().winner == (0 if t[0] >= 3 else 1)
    assert sum(p.tricks) == r.tricks_per_deal
    return p


def _run_checks(game, seeds):
    ends = {"event": 0, "full": 0}
    for seed in seeds:
        p = play_and_check(seed, game)
        ends["event" if p.completed < p.rules.tricks_per_deal else "full"] += 1
    assert ends["full"] > 0.9 * len(seeds)


@pytest.mark.parametrize("game", GAMES)
def test_random_deals(game):
    _run_checks(game, DEFAULT_SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES + ["petite(draw=yes)"])
def test_random_deals_many(game):
    _run_checks(game, SLOW_SEEDS)


# ---------------------------------------------------------------- BPN round trips
def roundtrip_and_views(seed: int, game: str) -> int:
    p = deal(seed, game)
    rng = random.Random(seed)
    checked = 0
    while True:
        b = p.bpn()
        q = Position(b)
        assert q.bpn() == b
        assert q == p
        if not p.is_over():
            assert q.legal_moves() == p.legal_moves(), b
        for who in (0, 1):
            v = p.view(who)
            vb = v.bpn()
            assert Position(vb).bpn() == vb
            assert v.problems() == [], (vb, v.problems())
            # the viewer's own hand is in full; the opponent's known cards are real ones
            assert v.hands[who] == p.hands[who] and v.unknown[who] == 0
            o = 1 - who
            assert v.hands[o] & ~p.hands[o] == 0
            assert v.hand_size(o) == p.hand_size(o)
            if p.rules.draws and p.talon_count == 0:
                assert vb == b  # nothing left to hide
            elif p.rules.draws:
                assert v.talon is None and vb.split()[3] == str(p.talon_count)
            if not p.is_over() and p.turn == who:
                assert v.legal_moves() == p.legal_moves()
        checked += 1
        if p.is_over():
            return checked
        p.push(rng.choice(p.legal_moves()))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_bpn_roundtrip_every_position_and_view(game):
    total = sum(roundtrip_and_views(seed, game) for seed in DEFAULT_SEEDS)
    assert total > 1000 * 10


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES + ["petite(draw=yes)"])
def test_bpn_roundtrip_every_position_and_view_many(game):
    for seed in SLOW_SEEDS:
        roundtrip_and_views(seed, game)
