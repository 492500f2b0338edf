"""The reference expectimax: both hands known, the talon's order unknown to both players.

Neither player knows the order of the talon, so a position with both hands open and the
talon face down has an exact value only as an expectimax: the players choose their moves
(max for the player to move, min for the other) and every draw is a chance event, each
ordered pair of the face-down cards equally likely, the trick's winner's card first (the
last talon card goes to the winner, the turnup to the loser: no chance then).  Written to be
obviously right, as :mod:`solver.engine.reference` is for double-dummy values, and sharing
nothing with the compiled engine but the rules model: it is the oracle of the compiled
expectimax.

Once no chance is left (one talon card at most), a position is a double-dummy one: with
``leaves="engine"`` (the default) the compiled engine's exact double-dummy search solves it
(its plain value, nothing of its chance search), itself checked against the reference solver
on thousands of positions; ``leaves="reference"`` keeps the whole search in plain Python
(minutes a position with two talon tricks left).

Values are exact, and are the deal's final result for the player to move: the margin at
the deal's end, or exactly ``WIN_RAW`` for a game won outright (``-WIN_RAW`` lost), with no
points beside it, as in the double-dummy search.  A value is kept as three fractions, the
chance that the player to move wins the game outright (``win``), that he loses it (``loss``),
and the final margin of the other outcomes weighed by their chance (``margin``), and is
ranked by ``(win - loss) * WIN_RAW + margin``.  The points scored before a position count:
under chance they weigh against a chance of a game won (a clairvoyant search never has to
weigh them), so the memo keys a position with its current margin.

>>> from solver.model.position import Position
>>> p = Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
>>> expectimax_values(p)["KS"]  # (no talon left: the double-dummy value)
Fraction(-4, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

from solver.engine.reference import future, state_key
from solver.engine.results import current_margin
from solver.engine.seam import engine_root, new_engine
from solver.errors import ArgumentError, HiddenInformationError
from solver.model.moves import Move
from solver.model.position import Position
from solver.model.rules import Rules
from solver.model.value import is_raw_game_win
from solver.native.constants import WIN_RAW, WIN_THRESHOLD
from solver.native.engine import Engine

ZERO = Fraction(0)
LEAF_TABLE_BITS = 16
"""The leaves' table (2**16 entries): their searches are small, and a search of two talon
tricks takes a few milliseconds, less than allocating the default table."""


@dataclass(frozen=True)
class Chance:
    """A final result under chance, for one player: the chances of a game won and lost
    outright, and the final margin of the other outcomes weighed by their chance.

    >>> Chance(Fraction(1, 4), ZERO, Fraction(3)).raw == Fraction(WIN_RAW, 4) + 3
    True
    >>> Chance(Fraction(1, 4), ZERO, Fraction(3)).other().margin
    Fraction(-3, 1)
    """

    win: Fraction = ZERO
    loss: Fraction = ZERO
    margin: Fraction = ZERO

    @property
    def raw(self) -> Fraction:
        """The value on the engine's raw scale: what the players maximise."""
        return (self.win - self.loss) * WIN_RAW + self.margin

    def other(self) -> Chance:
        """The same future seen by the other player."""
        return Chance(self.loss, self.win, -self.margin)


def _mean(values: list[Chance]) -> Chance:
    n = len(values)
    return Chance(
        sum((v.win for v in values), ZERO) / n,
        sum((v.loss for v in values), ZERO) / n,
        sum((v.margin for v in values), ZERO) / n,
    )


class _Expectimax:
    """The search: a memo of values keyed by the state with the talon as a set, and the
    current margin."""

    def __init__(self, rules: Rules, fixed_order: bool, leaves: str) -> None:
        # fixed_order: the talon's given order is the only one (no chance): the double-dummy
        # value, computed by this search's arithmetic, which the tests hold to the reference's
        self.fixed_order = fixed_order
        # one engine for every leaf of the search: a leaf is a load and an exact value, where
        # a solve() each cost its checks and its answer many times the search
        self.engine = new_engine(rules, LEAF_TABLE_BITS) if leaves == "engine" else None
        self.memo: dict[tuple[object, ...], Chance] = {}
        # leaves="reference": the plain reference solver's memo of raw futures, which do not
        # depend on the margin (keyed by it, the whole final phase would be searched again
        # for every score that reaches it)
        self.dd_memo: dict[tuple[object, ...], int] = {}

    def value(self, p: Position) -> Chance:
        """The value of ``p`` for its player to move, best play by both, draws by chance."""
        key = (*state_key(p, talon_as_set=not self.fixed_order), current_margin(p))
        if key not in self.memo:
            if p.talon_count <= 1:  # (no chance left: a double-dummy leaf)
                self.memo[key] = (
                    _double_dummy(self.engine, p)
                    if self.engine is not None
                    else _reference_leaf(p, self.dd_memo)
                )
            else:
                self.memo[key] = max((self.move(p, m) for m in p.legal_moves()), key=lambda c: c.raw)
        return self.memo[key]

    def move(self, p: Position, m: Move) -> Chance:
        """The value of playing ``m`` in ``p`` for its player to move."""
        talon = list(p.talon or ())
        left = p.talon_count
        p.push(m, check=False)
        draws = p.talon_count < left and left > 1
        p.pop()
        if not draws or self.fixed_order:
            return self._after(p, m)
        outcomes = []
        for first, second in permutations(talon, 2):  # (the winner's card, the loser's)
            rest = sorted(c for c in talon if c != first and c != second)
            p.talon = [first, second, *rest]
            outcomes.append(self._after(p, m))
        p.talon = talon
        return _mean(outcomes)

    def _after(self, p: Position, m: Move) -> Chance:
        """The value of ``m`` with the talon's order as ``p`` holds it for the next draw."""
        me = p.turn
        p.push(m, check=False)
        try:
            if p.win >= 0:
                return Chance(win=Fraction(p.win == me), loss=Fraction(p.win != me))
            if p.is_over():
                return Chance(margin=Fraction(current_margin(p, me)))
            rest = self.value(p)
            return rest if p.turn == me else rest.other()
        finally:
            p.pop()


def _double_dummy(engine: Engine, p: Position) -> Chance:
    """The value of a position with no chance left (not over), by the compiled engine's
    exact double-dummy search.

    >>> p = Position("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")
    >>> _double_dummy(new_engine(p.rules, LEAF_TABLE_BITS), p).margin  # (a, 17 points ahead now, ends 4 behind)
    Fraction(-4, 1)
    """
    engine.load(engine_root(p))
    v = engine.value()  # (the future's raw value for the player to move; a game win beyond the threshold)
    if abs(v) >= WIN_THRESHOLD:
        return Chance(win=Fraction(v > 0), loss=Fraction(v < 0))
    return Chance(margin=Fraction(current_margin(p) + v))


def _reference_leaf(p: Position, memo: dict[tuple[object, ...], int]) -> Chance:
    """The value of a position with no chance left, by the plain Python reference solver."""
    v = future(p, memo)  # (the future's raw value for the player to move)
    if is_raw_game_win(v):
        return Chance(win=Fraction(v > 0), loss=Fraction(v < 0))
    return Chance(margin=Fraction(current_margin(p) + v))


def _open_hands(p: Position) -> Position:
    """A copy of ``p`` whose talon, if face down, is laid out in a canonical order (the
    search treats it as a set); refused when a hand is hidden."""
    if any(p.unknown):
        raise HiddenInformationError(
            f"the reference expectimax needs both hands known (the talon may be hidden): {p.bpn()!r}"
        )
    q = p.copy()
    if q.talon is None and q.talon_count > 0:
        q.talon = [c for c in range(32) if p.unseen() >> c & 1]
        if len(q.talon) != q.talon_count:  # (Petite Brisque's dead cards: no talon to draw)
            raise HiddenInformationError(f"the cards face down are not only the talon: {p.bpn()!r}")
    return q


LEAVES = ("engine", "reference")


def expectimax_chances(p: Position, fixed_order: bool = False, leaves: str = "engine") -> dict[str, Chance]:
    """Every legal move's exact value with the draws by chance, for the player to move.

    ``fixed_order``: take the talon's given order as known (the double-dummy value).
    ``leaves``: what solves the positions with no chance left (:data:`LEAVES`)."""
    if leaves not in LEAVES:
        raise ArgumentError(f"leaves={leaves!r}: expected one of {', '.join(LEAVES)}")
    q = _open_hands(p)
    search = _Expectimax(q.rules, fixed_order and q.talon is not None, leaves)
    return {str(m): search.move(q, m) for m in q.legal_moves()}


def expectimax_values(p: Position, fixed_order: bool = False, leaves: str = "engine") -> dict[str, Fraction]:
    """Every legal move's exact value (:attr:`Chance.raw`: the final margin, a game won
    ``WIN_RAW``), by move string."""
    return {m: c.raw for m, c in expectimax_chances(p, fixed_order, leaves).items()}


__all__ = ["LEAVES", "Chance", "expectimax_chances", "expectimax_values"]
