"""The reference solver: plain minimax over :class:`Position`, written to be obviously right.

It shares nothing with the compiled engine but the rules model, and is the
engine's oracle in the tests.  Values are *future* gains of the player to move
(his score gain minus his opponent's from here to the end of the deal); a
game-winning event is worth ``WIN_RAW`` (far above any point margin).

>>> from solver.model.position import Position
>>> p = Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
>>> reference_values(p)["KS"] + 52 - 35
-4
"""

from __future__ import annotations

from solver.engine.results import final_value
from solver.errors import HiddenInformationError
from solver.model.moves import Move
from solver.model.position import Position
from solver.model.value import Value, is_raw_game_win, raw_game_win

_Key = tuple[object, ...]
"""A position's memo key: the hashable state the rest of the deal depends on."""


def state_key(p: Position, talon_as_set: bool = False) -> _Key:
    """Everything the rest of the deal depends on (scores and, in Brisque, trick counts do
    not); with ``talon_as_set`` the talon's cards without their order (when every draw is
    a chance event, the order is not yet decided)."""
    counts: _Key = () if p.rules.game == "brisque" else (tuple(p.tricks), tuple(p.final))
    return (
        p.hands[0],
        p.hands[1],
        p.out,
        p.trick,
        p.turn,
        p.turnup,
        p.talon_count,
        tuple(sorted(p.talon or ())) if talon_as_set else tuple(p.talon or ()),
        tuple(map(tuple, p.melds)),
        p.exchanged,
        p.taken,
        p.declared,
        p.drawn,
        p.ended,
        p.win,
    ) + counts


def gain_of(p: Position, before: tuple[int, ...], me: int) -> int:
    """What the last move gained for ``me``: score (or trick) margin change."""
    if p.rules.objective == "tricks":
        now = p.tricks[me] - p.tricks[1 - me]
    else:
        now = p.score[me] - p.score[1 - me]
    return now - (before[me] - before[1 - me])


def counts_of(p: Position) -> tuple[int, ...]:
    """The score (or, when tricks are the objective, the trick counts) of both seats."""
    return tuple(p.tricks) if p.rules.objective == "tricks" else tuple(p.score)


def move_value(p: Position, m: Move, memo: dict[_Key, int]) -> int:
    """Raw future value for the player to move of playing ``m`` and then best play by both."""
    me = p.turn
    before = counts_of(p)
    p.push(m, check=False)
    try:
        if p.win >= 0:
            return raw_game_win(p.win == me)
        gain = gain_of(p, before, me)
        if p.is_over():
            return gain
        rest = future(p, memo)
        if is_raw_game_win(rest):  # a game-winning event is worth exactly +-WIN_RAW
            return rest if p.turn == me else -rest
        return gain + rest if p.turn == me else gain - rest
    finally:
        p.pop()


def future(p: Position, memo: dict[_Key, int]) -> int:
    """Raw future value of ``p`` for its player to move, by exhaustive minimax."""
    key = state_key(p)
    if key in memo:
        return memo[key]
    best = max(move_value(p, m, memo) for m in p.legal_moves())
    memo[key] = best
    return best


def reference_values(p: Position) -> dict[str, int]:
    """Every legal move's raw future value, by move string."""
    if p.has_hidden:
        raise HiddenInformationError(
            f"the reference solver needs a perfect-information position: {p.bpn()!r}"
        )
    q = p.copy()
    memo: dict[_Key, int] = {}
    return {str(m): move_value(q, m, memo) for m in q.legal_moves()}


def reference_solve(p: Position) -> tuple[Value, dict[str, Value]]:
    """(value, {move: value}) with final values for the player to move."""
    raw = reference_values(p)
    values = {m: final_value(p, v) for m, v in raw.items()}
    return final_value(p, max(raw.values())), values


__all__ = ["counts_of", "future", "gain_of", "move_value", "reference_solve", "reference_values", "state_key"]
