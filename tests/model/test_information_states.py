"""Information states: the suits a player has shown out of (``void=``) and the cards he has
shown (``shown=``, a carte blanche or the last pickup), derived from play,
kept by views and BPN, checked for consistency, and respected by the world sampler."""

from __future__ import annotations

import itertools
import random
from statistics import mean

import pytest

import solver
from solver import Position, analyse
from solver.analysis.worlds import all_worlds, sample_worlds, world_count
from solver.engine.reference import reference_solve
from solver.errors import BPNError, HiddenInformationError, ImpossiblePositionError
from solver.model.cards import cards_of
from solver.play import deal


def shown_out(game: str, seeds: range, max_cards: int) -> list[Position]:
    """Positions of seeded random play where b has shown out of a suit and a is to lead,
    with at most ``max_cards`` cards each."""
    out = []
    for seed in seeds:
        p = deal(seed, game)
        rng = random.Random(seed)
        while not p.is_over():
            if p.voids[1] and p.turn == 0 and p.trick < 0 and p.hand_size(0) <= max_cards:
                out.append(p)
                break
            p.push(rng.choice(p.legal_moves()))
    return out


def suit_cards(mask: int, suits: int) -> list[int]:
    return [c for c in cards_of(mask) if suits >> (c >> 3) & 1]


@pytest.mark.parametrize("game", ["petite", "petite(draw=yes)"])
def test_play_records_a_void_and_views_and_bpn_keep_it(game):
    positions = shown_out(game, range(300), 5)
    assert len(positions) >= 5
    for p in positions:
        # the void is real: b holds no card of the suits he has shown out of
        assert not suit_cards(p.hands[1], p.voids[1])
        v = p.view("a")
        assert v.voids == p.voids and "void=" in v.bpn()
        # BPN carries it: the parsed position and its view are the same as the originals
        assert Position(p.bpn()).view("a").bpn() == v.bpn()
        assert Position(v.bpn()).voids == p.voids


def test_petite_worlds_never_give_a_void_suit_to_the_player_who_showed_out():
    for v in (p.view("a") for p in shown_out("petite", range(300), 5)):
        if not v.has_hidden:
            continue
        for w in sample_worlds(v, 50, seed=7):
            assert not suit_cards(w.hands[1], v.voids[1]), w.bpn()
            assert w.is_valid(), w.problems()


def test_world_counts_are_exact_and_enumeration_matches_them():
    views = [p.view("a") for p in shown_out("petite", range(300), 3) if p.view("a").has_hidden]
    assert views
    for v in views[:6]:
        worlds = list(all_worlds(v))
        assert len(worlds) == world_count(v)
        assert len({w.bpn() for w in worlds}) == len(worlds)
        # an independent count: b's hidden cards among the unseen cards outside his void suits
        visible = v.hands[0] | v.hands[1] | v.out | (1 << v.turnup if v.turnup >= 0 else 0)
        free = [c for c in range(32) if not visible >> c & 1 and not v.voids[1] >> (c >> 3) & 1]
        assert len(worlds) == sum(1 for _ in itertools.combinations(free, v.unknown[1]))


def test_enumerated_petite_analysis_is_the_brute_force_mean_over_consistent_deals():
    views = [p.view("a") for p in shown_out("petite", range(300), 3)]
    views = [v for v in views if v.has_hidden and 1 < world_count(v) <= 200]
    assert views
    for v in views[:3]:
        a = analyse(v, worlds=1000, seed=0)
        assert a.enumerated and a.worlds == world_count(v)
        # brute force, written independently: every hand b could hold, void suits excluded,
        # each solved by the reference solver
        visible = v.hands[0] | v.hands[1] | v.out | (1 << v.turnup if v.turnup >= 0 else 0)
        free = [c for c in range(32) if not visible >> c & 1 and not v.voids[1] >> (c >> 3) & 1]
        per_move: dict[str, list[int]] = {}
        for hand in itertools.combinations(free, v.unknown[1]):
            w = v.copy()
            w.hands[1] |= sum(1 << c for c in hand)
            w.unknown[1] = 0
            for m, value in reference_solve(w)[1].items():
                per_move.setdefault(m, []).append(int(value))
        for mv in a.moves:
            assert mv.value == pytest.approx(mean(per_move[str(mv.move)]), abs=1e-9), str(mv.move)


def test_a_hidden_hand_cannot_play_a_suit_it_has_shown_out_of():
    checked = 0
    for p in shown_out("petite", range(300), 5):
        va = p.view("a")
        if not va.has_hidden:
            continue
        va.push(va.legal_moves()[0])  # a leads; b, hidden in a's view, is to play
        unseen = [c for c in range(32) if not va.visible() >> c & 1 and c != va.trick]
        for c in unseen:
            if va.voids[1] >> (c >> 3) & 1:
                with pytest.raises(HiddenInformationError):
                    va.copy().push(c)
                checked += 1
    assert checked >= 10


def test_a_void_that_contradicts_a_known_card_is_impossible():
    p = Position("petite AT9.K..8/KQ.A.9.7 9C 21 - - a 0:0 void=b:H")
    problems = p.problems()
    assert any("b holds AH but has shown out of H" in s for s in problems), problems
    with pytest.raises(ImpossiblePositionError):
        p.validate()


@pytest.mark.parametrize("field", ["void=b", "void=b:", "void=c:D", "void=b:X", "void=b:D,"])
def test_a_malformed_void_is_a_notation_error_that_quotes_it(field):
    with pytest.raises(BPNError, match="void=SEAT:SUITS"):
        Position(f"petite AT9.K..8/?5 9C 21 - - a 0:0 {field}")


def test_voids_are_canonical_in_bpn():
    p = Position("petite AT9.K..8/?5 9C 21 - - a 0:0 void=b:dh,a:c")
    assert p.bpn().endswith("void=a:C,b:HD")
    assert Position(p.bpn()).bpn() == p.bpn()


def test_drawing_a_card_ends_a_void():
    # petite(draw=yes): a player who shows out and then draws face down may have drawn that
    # suit, so his voids end; taking the turnup ends only the void in trumps
    shown_then_drew = 0
    for seed in range(100):
        p = deal(seed, "petite(draw=yes)")
        rng = random.Random(seed)
        while not p.is_over():
            led, talon = p.trick, p.talon_count
            m = rng.choice(p.legal_moves())
            p.push(m)
            if p.talon_count < talon:
                winner = p.turn  # the winner draws face down, then the loser (or the turnup)
                assert p.voids[winner] == 0, p.bpn()
                if p.turnup >= 0 or talon >= 2:
                    assert p.voids[1 - winner] == 0, p.bpn()
                else:  # the loser took the turnup, a trump everybody saw: only that void ends
                    assert not p.voids[1 - winner] >> p.trump & 1, p.bpn()
                shown_then_drew += led >= 0 and m.is_card and m >> 3 != led >> 3
    assert shown_then_drew >= 10


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite", "petite(draw=yes)"])
def test_a_view_of_a_parsed_bpn_is_the_view_of_the_position(game):
    # everything play revealed survives the round trip through BPN, at every step of a deal
    for seed in range(40):
        p = deal(seed, game)
        rng = random.Random(seed)
        while not p.is_over():
            q = Position(p.bpn())
            assert q.bpn() == p.bpn()
            for s in "ab":
                assert q.view(s).bpn() == p.view(s).bpn(), (p.bpn(), s)
                assert Position(p.view(s).bpn()).view(s).bpn() == p.view(s).bpn()
            p.push(rng.choice(p.legal_moves()))


def test_a_carte_blanche_shows_the_whole_hand_in_bpn_and_views():
    found = 0
    for seed in range(400):
        p = deal(seed, "briscan")
        rng = random.Random(seed)
        while not p.is_over():
            blank = [m for m in p.legal_moves() if str(m) in ("+bc", "+bp")]
            if blank:
                me = p.turn
                hand = p.hands[me]
                p.push(blank[0])
                # (with the talon gone every card is known, and BPN needs no shown=)
                assert ("shown=" in p.bpn()) == (p.talon_count > 0)
                v = Position(p.bpn()).view("ab"[1 - me])
                assert v.hands[me] == hand and v.unknown[me] == 0  # all five cards seen
                found += 1
                break
            p.push(rng.choice(p.legal_moves()))
    assert found >= 2


@pytest.mark.parametrize(
    "field, message",
    [
        ("shown=b", "shown=SEAT:CARDS"),
        ("shown=b:ZZ", "shown=SEAT:CARDS"),
        ("shown=a:KC", "a does not hold KC"),
    ],
)
def test_a_malformed_shown_field_is_a_notation_error(field, message):
    with pytest.raises(BPNError, match=message):
        Position(f"petite AT9.K..8/?5 9C 21 - - a 0:0 {field}")


VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"  # a's view at trick 4


PETITE = "petite A..J.K/?3 8D 21 KJ.T.Q. - a 13:6 tricks=1:1 void=b:D"  # 969 worlds


@pytest.mark.parametrize(
    "bpn",
    [
        VIEW + " void=b:D",  # Brisque's talon phase: no obligation to follow, and a draw each trick
        "petite(draw=yes) AT9.K..8/?5 9C 21 - - a 0:0 void=b:D",
    ],
)
def test_a_void_with_face_down_cards_left_is_impossible(brisque, bpn):
    # accepted, and the sampler then dealt b no diamond on a void no play can reveal: every
    # trick of the talon phase ends with both players drawing, which ends any void
    p = solver.Position(bpn)
    assert any("a void is known with" in problem for problem in p.problems())
    r = brisque("analyse", bpn, "--worlds", "5")
    assert r.returncode == 2 and "impossible position" in r.stderr and "Traceback" not in r.stderr


def test_a_void_without_drawing_stays_possible():
    assert solver.Position(PETITE).problems() == []
