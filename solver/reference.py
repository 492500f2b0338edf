"""The reference solver: plain minimax over :class:`Position`, written to be obviously right.

It shares nothing with the compiled engine but the rules model, and is the
engine's oracle in the tests.  Values are *future* gains of the player to move
(his score gain minus his opponent's from here to the end of the deal); a
game-winning event is worth ``WIN_RAW`` (far above any point margin).

>>> from solver.position import Position
>>> p = Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
>>> reference_values(p)["KS"] + 52 - 35
-4
"""
from __future__ import annotations

from solver.position import HiddenInformationError, Position

WIN_RAW = 30000          # raw value of a game-winning event for the player who wins it
WIN_THRESHOLD = 15000    # raw values beyond this are wins or losses


def _key(p: Position) -> tuple:
    """Everything the rest of the deal depends on (scores and, in Brisque, trick counts do not)."""
    counts = () if p.rules.game == "brisque" else (tuple(p.tricks), tuple(p.final))
    return (p.hands[0], p.hands[1], p.out, p.trick, p.turn, p.turnup, p.talon_count,
            tuple(p.talon or ()), tuple(map(tuple, p.melds)), p.exchanged, p.taken, p.declared,
            p.ended, p.win) + counts


def _gain(p: Position, before: tuple, me: int) -> int:
    """What the last move gained for ``me``: score (or trick) margin change."""
    if p.rules.objective == "tricks":
        now = p.tricks[me] - p.tricks[1 - me]
    else:
        now = p.score[me] - p.score[1 - me]
    return now - (before[me] - before[1 - me])


def _counts(p: Position) -> tuple:
    return tuple(p.tricks) if p.rules.objective == "tricks" else tuple(p.score)


def move_value(p: Position, m, memo: dict) -> int:
    """Raw future value for the player to move of playing ``m`` and then best play by both."""
    me = p.turn
    before = _counts(p)
    p.push(m, check=False)
    try:
        if p.win >= 0:
            return WIN_RAW if p.win == me else -WIN_RAW
        gain = _gain(p, before, me)
        if p.is_over():
            return gain
        rest = future(p, memo)
        if abs(rest) >= WIN_THRESHOLD:      # a game-winning event is worth exactly +-WIN_RAW
            return rest if p.turn == me else -rest
        return gain + rest if p.turn == me else gain - rest
    finally:
        p.pop()


def future(p: Position, memo: dict) -> int:
    """Raw future value of ``p`` for its player to move, by exhaustive minimax."""
    key = _key(p)
    if key in memo:
        return memo[key]
    best = max(move_value(p, m, memo) for m in p.legal_moves())
    memo[key] = best
    return best


def to_value(p: Position, raw: int) -> tuple[int, int | None]:
    """Turn a raw future value into (final value for the player to move, winner or None)."""
    me = p.turn
    if raw >= WIN_THRESHOLD:
        return 10000, me
    if raw <= -WIN_THRESHOLD:
        return -10000, 1 - me
    if p.rules.objective == "tricks":
        return p.tricks[me] - p.tricks[1 - me] + raw, None
    return p.score[me] - p.score[1 - me] + raw, None


def reference_values(p: Position) -> dict[str, int]:
    """Every legal move's raw future value, by move string."""
    if p.has_hidden:
        raise HiddenInformationError(f"the reference solver needs a perfect-information position: {p.bpn()!r}")
    q = p.copy()
    memo: dict = {}
    return {str(m): move_value(q, m, memo) for m in q.legal_moves()}


def reference_solve(p: Position) -> tuple[int, dict[str, int]]:
    """(value, {move: value}) with final values for the player to move (wins as +-10000)."""
    raw = reference_values(p)
    values = {m: to_value(p, v)[0] for m, v in raw.items()}
    return to_value(p, max(raw.values()))[0], values


__all__ = ["WIN_RAW", "WIN_THRESHOLD", "future", "move_value", "reference_solve",
           "reference_values", "to_value"]
