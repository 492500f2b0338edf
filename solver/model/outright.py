"""Can a player still win the game outright in this deal?  A cheap test from the cards alone.

A game-winning event (docs/rules.md) is four kings or four queens declared in Brisque
(``quartet_win=game``) and a vole (all 16 tricks) in Briscan.  Searches use this test to
skip proving what cannot happen.  It never says no when the event is possible; it may say
yes when play would rule it out.

>>> from solver.model.position import Position
>>> p = Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
>>> game_win_possible(p, 0), game_win_possible(p, 1)
(False, False)
"""

from __future__ import annotations

from solver.model.cards import KING, QUEEN, card, suit_mask
from solver.model.position import Position


def game_win_possible(p: Position, seat: int) -> bool:
    """Might ``seat`` (0 = a, 1 = b) still win the game outright, given where the cards are?"""
    if p.rules.game == "briscan":
        # a vole: his opponent has taken no trick, and does not hold the highest trump still
        # to be played (whoever holds it takes the trick he plays it to)
        if p.tricks[1 - seat] > 0:
            return False
        live = suit_mask(p.trump) & ~p.out
        if p.trick >= 0:
            live &= ~(1 << p.trick)
        return not (live and p.hands[1 - seat] >> (live.bit_length() - 1) & 1)
    if p.rules.game != "brisque" or p.rules.quartet_win != "game":
        return False
    reachable = p.hands[seat]  # his hand, and the cards still to be drawn
    for c in p.talon or ():
        reachable |= 1 << c
    if p.turnup >= 0:
        reachable |= 1 << p.turnup
    if p.has_hidden:
        reachable |= p.unseen()  # hidden cards: any of them might come to him
    for rank in (KING, QUEEN):
        four = sum(1 << card(s, rank) for s in range(4))
        if reachable & four == four:
            return True
    return False


__all__ = ["game_win_possible"]
