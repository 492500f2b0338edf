"""The validity check: why a well-formed position cannot occur.

>>> from solver.model.position import Position
>>> position_problems(Position("brisque AK9.97..9/A..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"))[0]
'card AS appears twice (in the hand of a and in the hand of b)'
"""

from __future__ import annotations

from solver.model.bits import points_of, popcount
from solver.model.bpn import SEATS
from solver.model.cards import SUITS, card_str, cards_of
from solver.model.deal_state import DealState
from solver.model.melds import BLANK_COURTS, BLANK_PLAIN, MELDS, QUARTET
from solver.native.constants import PACK_POINTS


def _places(p: DealState) -> list[tuple[str, int]]:
    places = [("the hand of a", p.hands[0]), ("the hand of b", p.hands[1]), ("out", p.out)]
    if p.turnup >= 0:
        places.append(("the turnup", 1 << p.turnup))
    if p.trick >= 0:
        places.append(("the trick", 1 << p.trick))
    for c in p.talon or ():
        places.append(("the talon", 1 << c))
    return places


def _card_problems(p: DealState) -> list[str]:
    probs = []
    places = _places(p)
    seen = 0
    where: dict[int, str] = {}
    for name, mask in places:
        for c in cards_of(mask & seen):
            probs.append(f"card {card_str(c)} appears twice (in {where[c]} and in {name})")
        for c in cards_of(mask & ~seen):
            where[c] = name
        seen |= mask
    hidden = p.unknown[0] + p.unknown[1] + (p.talon_count if p.talon is None else 0)
    total = popcount(seen) + hidden
    if total != 32:
        missing = 32 - total
        if not hidden and missing > 0:
            probs.append("cards missing: " + " ".join(card_str(c) for c in cards_of(~seen & 0xFFFFFFFF)))
        else:
            probs.append(f"the position holds {total} cards instead of 32")
    return probs


def _shape_problems(p: DealState) -> list[str]:
    """Hand sizes, talon and turnup that must fit the trick number and the phase."""
    r = p.rules
    n_out = popcount(p.out)
    if n_out % 2:
        return [f"{n_out} cards out: completed tricks hold an even number of cards"]
    done = n_out // 2
    if done > r.tricks_per_deal:
        return [f"{done} tricks completed: a deal of {r.game} has {r.tricks_per_deal}"]
    probs = []
    size = [r.hand_size, r.hand_size]
    if r.draws:
        d = r.talon_tricks
        want_talon = r.talon_size - 2 * done if done < d else 0
        window = done == d and p.turnup >= 0
        if done >= d:
            size = [r.hand_size - (done - d)] * 2
        if window:
            if not r.last_pickup_window:
                probs.append(
                    f"the turnup {card_str(p.turnup)} is still on the table after the talon "
                    f"is drawn: in {r.game} the loser of trick {d} takes it at once"
                )
            if p.trick >= 0:
                probs.append("a trick is in progress during the last-pickup window")
            size[1 - p.turn] -= 1
            seven = p.seven_of_trumps
            if not p.unknown[p.turn] and not p.hands[p.turn] >> seven & 1:
                probs.append(
                    f"last-pickup window but {SEATS[p.turn]}, to act, does not hold "
                    f"the 7 of trumps {card_str(seven)}"
                )
        elif done < d and p.turnup < 0:
            probs.append(
                f"the turnup is taken (trump field {'SHDC'[p.trump]!r}) but the talon is "
                f"not exhausted at trick {done + 1}"
            )
        elif done > d and p.turnup >= 0:
            probs.append(f"the turnup {card_str(p.turnup)} is on the table in the final phase")
    else:
        want_talon = r.talon_size
        size = [r.hand_size - done] * 2
        if p.turnup < 0:
            probs.append(f"the turnup must stay on the table in {r.game}: give it as a card, e.g. '9C'")
    if p.talon_count != want_talon:
        probs.append(f"talon of {p.talon_count} cards at trick {done + 1}: expected {want_talon}")
    if p.trick >= 0:
        size[1 - p.turn] -= 1
    if p.ended and p.trick < 0:
        size = [p.hand_size(0), p.hand_size(1)] if p.win >= 0 or _quartet_ended(p) else size
    for i in (0, 1):
        have = p.hand_size(i)
        if have != size[i]:
            phase = "trick in progress" if p.trick >= 0 else "no trick in progress"
            probs.append(
                f"the hand of {SEATS[i]} has {have} cards at trick {done + 1} ({phase}): expected {size[i]}"
            )
    return probs


def _quartet_ended(p: DealState) -> bool:
    return p.rules.game == "brisque" and any(MELDS[m].kind == QUARTET for ms in p.melds for m in ms)


def _count_problems(p: DealState) -> list[str]:
    r = p.rules
    probs = []
    for name in ("score", "tricks", "final", "game"):
        v = getattr(p, name)
        if v[0] < 0 or v[1] < 0:
            probs.append(f"{name} {v[0]}:{v[1]} is negative")
    done = p.completed
    if r.game != "brisque":
        if sum(p.tricks) != done:
            probs.append(f"tricks {p.tricks[0]}:{p.tricks[1]} do not add up to the {done} completed tricks")
    elif sum(p.tricks) > done:  # Brisque: a count absent from the BPN starts when play goes on
        probs.append(f"tricks {p.tricks[0]}:{p.tricks[1]} add up to more than the {done} completed tricks")
    if p.final != [0, 0] or (r.game == "briscan" and done > r.talon_tricks):
        want = max(0, done - r.talon_tricks) if r.draws else 0
        if r.game == "briscan" and sum(p.final) != want:
            probs.append(f"final-phase tricks {p.final[0]}:{p.final[1]} do not add up to {want}")
    return probs


def _meld_problems(p: DealState) -> list[str]:
    r = p.rules
    probs = []
    if not r.has_declarations and (p.melds[0] or p.melds[1]):
        return [f"declarations in {r.game}, which has none"]
    for ms in p.melds:
        for m in set(ms):
            if ms.count(m) > 1:
                probs.append(f"+{MELDS[m].code} declared twice")
    for m in set(p.melds[0]) & set(p.melds[1]):
        if MELDS[m].kind not in (BLANK_COURTS, BLANK_PLAIN):  # carte blanche: once per player
            probs.append(f"+{MELDS[m].code} declared by both players")
    for i in (0, 1):
        elsewhere = p.hands[1 - i] | (1 << p.turnup if p.turnup >= 0 else 0)
        for c in p.talon or ():
            elsewhere |= 1 << c
        if p.exchanged == i:  # a declared 7 of trumps may have gone to the turnup, then anywhere
            elsewhere &= ~(1 << p.seven_of_trumps)
        for m in p.melds[i]:
            meld = MELDS[m]
            if r.game == "brisque" and meld.kind not in (0, QUARTET):
                probs.append(f"+{meld.code} is not a declaration of Brisque")
                continue
            if r.game == "brisque" and meld.kind == QUARTET and meld.code not in ("kK", "kQ"):
                probs.append(f"+{meld.code} is not a declaration of Brisque (only kK and kQ)")
                continue
            if meld.kind in (BLANK_COURTS, BLANK_PLAIN):
                continue
            clash = meld.cards_for(p.trump) & elsewhere
            if clash:
                probs.append(
                    f"+{meld.code} of {SEATS[i]} but {card_str(cards_of(clash)[0])} "
                    f"is not in {SEATS[i]}'s hand nor played"
                )
    if p.completed < 1 and (p.melds[0] or p.melds[1]):
        probs.append("declarations before the first trick is completed")
    return probs


def _exchange_problems(p: DealState) -> list[str]:
    probs = []
    if p.exchanged >= 0:
        if not p.rules.exchange:
            probs.append("exchanged is set but the rules forbid the exchange")
        if p.turnup >= 0 and p.turnup != p.seven_of_trumps:
            probs.append(
                f"exchanged={SEATS[p.exchanged]} but the turnup {card_str(p.turnup)} is not the 7 of trumps"
            )
        if p.taken >= 0 and (p.taken >> 3 != p.trump or p.taken == p.seven_of_trumps):
            probs.append(f"taken={card_str(p.taken)} is not a trump other than the 7")
        if p.taken >= 0 and (p.turnup == p.taken or p.hands[1 - p.exchanged] >> p.taken & 1):
            probs.append(f"taken={card_str(p.taken)} but that card is not with {SEATS[p.exchanged]} nor out")
    return probs


def _score_problems(p: DealState) -> list[str]:
    """Scores must be the card points taken plus what was declared (and the known bonuses).

    Under the tricks objective the points do not count, and are not checked: ``0:0`` may
    stand for "not recorded" (a Petite Brisque problem rarely gives them)."""
    r = p.rules
    if r.objective == "tricks":
        return []
    expect = points_of(p.out)
    for i in (0, 1):
        for m in p.melds[i]:
            expect += MELDS[m].points(p.trump, r.game)
    if p.exchanged >= 0:
        expect += r.exchange_points
    if p.ended and p.win < 0 and not _quartet_ended(p):
        expect += r.last_trick_bonus
    if _quartet_ended(p) and r.quartet_win == "deal":
        expect += PACK_POINTS - points_of(p.out) + r.last_trick_bonus
    got = p.score[0] + p.score[1]
    if r.game == "briscan":
        if got < expect:
            return [
                f"scores {p.score[0]}:{p.score[1]} add up to {got}, less than the {expect} "
                f"taken in card points and declarations"
            ]
        return []
    if got != expect:
        taken = "the card points out" if r.game == "petite" else "the card points out and the declarations"
        return [f"scores {p.score[0]}:{p.score[1]} add up to {got}: {taken} give {expect}"]
    return []


def _void_problems(p: DealState) -> list[str]:
    """A seat shown out of a suit cannot hold a card of it, nor can his hidden cards all lack it
    when no unseen card is left to fill them; and no void outlives a draw, so none is known
    while face-down cards are left to draw."""
    probs = []
    if p.rules.draws and p.talon_count and (p.voids[0] or p.voids[1]):
        # (a follower shows out as the trick ends, and both then draw a face-down card)
        probs.append(
            f"a void is known with {p.talon_count} face-down cards left: a void ends when its "
            f"player draws, and every trick of the talon phase ends with a draw"
        )
    for i in (0, 1):
        for s in range(4):
            if not p.voids[i] >> s & 1:
                continue
            held = p.hands[i] & (0xFF << (8 * s))
            if held:
                names = " ".join(card_str(c) for c in cards_of(held))
                probs.append(
                    f"{SEATS[i]} holds {names} but has shown out of {SUITS[s]} (void={SEATS[i]}:{SUITS[s]})"
                )
        if p.unknown[i] and p.voids[i]:
            allowed = p.unseen() & ~p.void_cards(i)
            if popcount(allowed) < p.unknown[i]:
                probs.append(
                    f"{SEATS[i]} has {p.unknown[i]} hidden cards but only {popcount(allowed)} unseen "
                    f"cards outside the suits he has shown out of"
                )
    return probs


def _field_problems(p: DealState) -> list[str]:
    """Fields outside what any position can hold (set by hand: BPN cannot say them)."""
    probs = []
    if p.turn not in (0, 1):
        probs.append(f"turn {p.turn!r}: expected 0 (a) or 1 (b)")
    if not -1 <= p.trick <= 31:
        probs.append(f"trick {p.trick!r}: expected -1 (no trick) or a card 0..31")
    if not -1 <= p.turnup <= 31:
        probs.append(f"turnup {p.turnup!r}: expected -1 (taken) or a card 0..31")
    if not 0 <= p.trump <= 3:
        probs.append(f"trump {p.trump!r}: expected a suit 0..3")
    return probs


def _drawn_problems(p: DealState) -> list[str]:
    """``drawn=`` names cards of the player to act that came after his last trick: only
    under declare=before_draw, at the start of a turn, and held by him."""
    if not p.drawn:
        return []
    names = " ".join(card_str(c) for c in cards_of(p.drawn))
    if p.rules.declare != "before_draw":
        return [
            f"drawn={names} is given, but the rules declare after the draw: drawn= needs declare=before_draw"
        ]
    if p.trick >= 0:
        return [f"drawn={names} in the middle of a trick: it is for the player on lead"]
    if popcount(p.drawn) > 2:
        return [f"drawn={names}: at most two cards, the card drawn and a turnup taken"]
    if p.drawn & ~p.hands[p.turn]:
        return [f"drawn={names} but {SEATS[p.turn]}, the player to act, does not hold it"]
    return []


def position_problems(p: DealState) -> list[str]:
    """Every reason why ``p`` is impossible (empty list when it is valid)."""
    fields = _field_problems(p)
    if fields:  # fields set out of range by hand (p.turn = 5): the other checks would index them
        return fields
    probs = _card_problems(p) + _shape_problems(p) + _count_problems(p)
    probs += _meld_problems(p) + _exchange_problems(p) + _void_problems(p) + _drawn_problems(p)
    if not probs:  # the score check is only meaningful once the cards are right
        probs += _score_problems(p)
    return probs


__all__ = ["position_problems"]
