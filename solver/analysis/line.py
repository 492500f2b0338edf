"""A played line, move by move: the value after every move and what each move lost.

>>> steps = analyse_line("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35", ["QD"])
>>> steps[0].move_value, steps[0].best_value, steps[0].loss
(Value.margin(4, pov='b'), Value.margin(44, pov='b'), 40)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from solver.analysis.analyse_options import DEFAULT_WORLDS
from solver.analysis.game_chance import GameChance
from solver.engine.quick import quick_limit, reaches_final_phase
from solver.engine.results import Bound, Limit
from solver.engine.solving import shared_solver, solve
from solver.errors import (
    ArgumentError,
    ArgumentTypeError,
    HiddenInformationError,
    IllegalMoveError,
    Interrupted,
    PositionError,
)
from solver.formats.words import plural
from solver.model.moves import Move, parse_move, parse_moves
from solver.model.numbers import json_number
from solver.model.position import SEATS, Position, as_position
from solver.model.ranges import MIN_OWN_WORLDS, short_value
from solver.model.rules import as_rules
from solver.model.value import ExpectedMargin, Value


def default_limit(p: Position) -> Limit | None:
    """The engine's quick search: three tricks to the learned evaluation in Brisque and
    Briscan; exact near the end of the talon and a four-trick estimate earlier in Petite
    Brisque (:mod:`solver.engine.quick`).  ``None`` (exact) where that search is exact anyway:
    the warm exact judgement then gives the same values sooner."""
    limit = quick_limit(p)
    return None if reaches_final_phase(p, limit) else limit


@dataclass(kw_only=True)
class Step:
    """One move of the line, valued for the player who made it."""

    number: int
    trick: int
    player: str
    move: Move
    move_value: Value | float  # a Value when solved, a mean over worlds when sampled
    best_value: Value | float
    loss: float
    best: list[Move]
    exact: bool
    bpn: str
    # judged from the player's own information (``view="own"``): the mean paired loss over
    # the worlds his view allows, its standard error, and whether it exceeds the noise
    own_loss: float | None = None
    own_stderr: float | None = None
    own_mistake: bool | None = None
    own_worlds: int | None = None
    # whether those worlds were valued by depth-limited estimates (the quick search early in
    # the talon): a loss beyond the noise is then an inaccuracy, as between any estimates
    own_estimate: bool | None = None
    # from his own information too: his expected number (ranking "match") of the move and of
    # the best move, and how much the move lowered his chance of winning the deal (or, with
    # ``own_win_of`` "game", the whole game to the target), paired over the same worlds,
    # with its standard error
    own_value: float | None = None
    own_best_value: float | None = None
    own_win_drop: float | None = None
    own_win_stderr: float | None = None
    own_win_of: str | None = None
    # a game won outright thrown away (or a game lost let in) by this move: the loss is then
    # in the ranking numbers of :mod:`solver.analysis.ranking` (rule "match"), kept out of
    # the point totals of :func:`losses_by_player` and counted by :func:`games_given_up`
    game: str | None = None
    # a sampled judgement (hidden cards): the standard error of the paired loss (0 when every
    # consistent world was solved); None when the position was searched, or from a single
    # sampled world (``sampled``), which says nothing of the noise: no mistake then
    loss_stderr: float | None = None
    sampled: bool = False
    # a depth-limited estimate whose loss the search's proven bounds confirm
    proven: bool = False
    # an estimate that is a bare proven bound (Analysis.bound): the move's value, the best
    # value ("upper": at most it, the estimate having said more; "lower": at least it)
    value_bound: Bound | None = None
    best_bound: Bound | None = None

    @property
    def mistake(self) -> bool:
        """A mistake: from his own information when judged so (beyond the noise, between
        values that are no estimates); from sampled values, a loss beyond ``MISTAKE_Z``
        standard errors of the paired difference; from an estimate, a loss its proven bounds
        confirm; else (exact) any loss."""
        if self.own_mistake is not None:
            return self.own_mistake and not self.own_estimate
        if self.loss_stderr is not None:
            return self.loss > MISTAKE_Z * self.loss_stderr if self.loss_stderr > 0 else self.loss > 0
        if not self.exact:
            return self.proven and (self.loss > 0 or self.game is not None)
        return self.loss > 0 or self.game is not None

    @property
    def game_proven(self) -> bool:
        """Whether the game event (``game``) is a fact: from an exact value, or from an
        estimate whose proven bounds confirm it; an unproven estimate's is only likely."""
        return self.game is not None and (self.exact or self.proven)

    @property
    def grade(self) -> str | None:
        """From his own information: ``"inaccuracy"``, ``"mistake"`` or ``"blunder"`` by the
        points (tricks, in Petite Brisque) the move gave away and by the chance of winning
        the deal it gave up (:func:`grade_of`), the worse of the two; in a deal of a whole
        game (``own_win_of`` "game"), where points count only for the game, by the chance of
        winning the game alone. None when nothing is beyond the noise, or when the move was
        not judged from his own information."""
        if self.own_loss is None:
            return None
        if self.own_win_of == "game":  # (in a whole game, points count only for the game)
            return grade_of(0.0, None, self.own_win_drop, self.own_win_stderr)
        objective = as_rules(self.bpn.split(" ", 1)[0]).objective
        return grade_of(self.own_loss, self.own_stderr, self.own_win_drop, self.own_win_stderr, objective)

    @property
    def inaccuracy(self) -> bool:
        """A loss between depth-limited estimates that their bounds do not prove: shown as
        "inaccuracy (estimate)", not as a mistake.  Judged from his own information, a loss
        beyond the noise between the worlds' estimates (nothing bounds those)."""
        if self.own_mistake is not None:
            return self.own_mistake and bool(self.own_estimate)
        return not self.exact and self.loss_stderr is None and self.loss > 0 and not self.mistake

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "trick": self.trick,
            "player": self.player,
            "move": str(self.move),
            "value": json_number(self.move_value),
            "best_value": json_number(self.best_value),
            "loss": json_number(self.loss),
            "loss_stderr": json_number(self.loss_stderr),
            "best": [str(m) for m in self.best],
            "exact": self.exact,
            "bpn": self.bpn,
            "mistake": self.mistake,
            "inaccuracy": self.inaccuracy,
            "own_loss": json_number(self.own_loss),
            "own_stderr": json_number(self.own_stderr),
            "own_worlds": self.own_worlds,
            "own_value": json_number(self.own_value),
            "own_best_value": json_number(self.own_best_value),
            "own_win_drop": json_number(self.own_win_drop),
            "own_win_stderr": json_number(self.own_win_stderr),
            "own_win_of": self.own_win_of,
            "grade": self.grade,
            "game": self.game,
            "game_proven": self.game_proven,
            "value_bound": self.value_bound,
            "best_bound": self.best_bound,
        }


MISTAKE_Z = 2.0  # a loss from one's own information counts beyond this many standard errors

# The grades of a move judged from one's own information: the points it gave away (ranking
# numbers: a game won counts what it is worth), and the chance of winning the deal (or the
# game) it gave up, each at least this much and beyond MISTAKE_Z standard errors of its
# paired difference.  Petite Brisque's margins are tricks (one trick more is 2 of margin,
# from -5 to +5): its own scale, where a loss of 2 is a whole trick given away in every world.
GRADE_POINTS = (("blunder", 25.0), ("mistake", 10.0), ("inaccuracy", 3.0))
GRADE_TRICKS = (("blunder", 2.0), ("mistake", 1.0), ("inaccuracy", 0.5))
GRADE_WIN_CHANCE = (("blunder", 0.25), ("mistake", 0.10), ("inaccuracy", 0.05))
GRADES = ("inaccuracy", "mistake", "blunder")


def grade_of(
    loss: float,
    loss_se: float | None,
    win_drop: float | None = None,
    win_se: float | None = None,
    objective: str = "margin",
) -> str | None:
    """The grade of a move that lost ``loss`` points (tricks of margin, for the objective
    ``"tricks"``) and ``win_drop`` of the chance of winning (with their standard errors; 0:
    no noise, every world solved; None: one world, nothing proven): the worse of the two
    grades, None if neither is beyond the noise.

    >>> grade_of(12.0, 2.0), grade_of(12.0, 8.0), grade_of(4.0, 1.0, 0.3, 0.05), grade_of(2.0, 0.0)
    ('mistake', None, 'blunder', None)
    >>> grade_of(2.0, 0.0, objective="tricks")
    'blunder'
    """

    def by(value: float | None, se: float | None, table: tuple[tuple[str, float], ...]) -> int:
        if value is None or se is None or value <= MISTAKE_Z * se:
            return -1
        return next((GRADES.index(name) for name, least in table if value >= least), -1)

    points = GRADE_TRICKS if objective == "tricks" else GRADE_POINTS
    worst = max(by(loss, loss_se, points), by(win_drop, win_se, GRADE_WIN_CHANCE))
    return GRADES[worst] if worst >= 0 else None


class LineInterrupted(Interrupted[list[Step]]):
    """Ctrl-C during :func:`analyse_line`: ``steps`` (the ``partial`` answer) holds the
    moves judged so far."""

    def __init__(self, steps: list[Step]):
        super().__init__(f"interrupted after {plural(len(steps), 'move')}", steps)

    @property
    def steps(self) -> list[Step]:
        return self.partial


def own_information_loss(
    p: Position, m: Move, worlds: int, seed: int
) -> tuple[float, float | None, bool, int]:
    """(loss, stderr, mistake, worlds) of move ``m`` judged from the view of the player to
    move in the perfect-information ``p``, in the ranking numbers of sampled answers (a game
    won counts what it is worth in the match: :mod:`solver.analysis.ranking`).

    The view's worlds are sampled (or all solved, when there are no more than ``worlds``):
    the loss is the mean over them of the best move's number minus ``m``'s, and the move is
    a mistake when that exceeds ``MISTAKE_Z`` standard errors of the paired difference, or,
    with every world solved (no sampling noise), when it is above zero.  The best move is
    the one with the best mean over the same worlds, which favours flagging a little when
    several moves are nearly equal (docs/solver.md).  Ctrl-C raises KeyboardInterrupt."""
    j = _own_judgement(p, m, worlds, seed)
    return j.loss, j.stderr, j.mistake, j.worlds


@dataclass(frozen=True)
class _Own:
    """A move judged from its player's own information (:func:`own_information_loss`)."""

    loss: float
    stderr: float | None
    mistake: bool
    worlds: int
    estimate: bool  # the worlds' values were depth-limited estimates (early in the talon)
    value: float  # the move's expected number, and the best move's
    best_value: float
    win_drop: float  # the chance of winning the deal (or game) given up, and its standard error
    win_stderr: float | None


def _own_judgement(p: Position, m: Move, worlds: int, seed: int, chance: str = "deal") -> _Own:
    from solver.analysis.analyse_options import AnalyseOptions
    from solver.analysis.ranking import RankingRule
    from solver.analysis.sampling import SampledAnalysis, analyse

    view = p.view(p.turn)
    of_value: Callable[[Value | ExpectedMargin], float] | None = None
    if chance == "game":  # the chance of winning the game to the target, from the totals
        table = GameChance.for_rules(p.rules)
        of_value = partial(table.of_value, view)
    a = analyse(view, AnalyseOptions(worlds=worlds, seed=seed)) if view.has_hidden else solve(view, pv=False)
    if not isinstance(a, SampledAnalysis):  # no hidden card, or one consistent world: exact
        rank = RankingRule.parse("match")
        numbers = {mv.move: rank.number(mv.value, view) for mv in a.moves}
        best = max(numbers.values())
        loss = float(best - numbers[m])
        if of_value is None:
            drop = float(best > 0) - float(numbers[m] > 0)
        else:  # (against the move best for the chance of the game)
            chances = {mv.move: of_value(mv.value) for mv in a.moves}
            drop = max(chances.values()) - chances[m]
        return _Own(loss, 0.0, loss > 0, 1, False, float(numbers[m]), float(best), drop, 0.0)
    if a.stopped == "interrupted":
        raise KeyboardInterrupt
    loss, se = a.paired_loss(m)
    drop, drop_se = a.paired_win_drop(m, of_value)
    estimate = a.world_method != "exact"
    if se is None:  # (one world sampled: nothing known of the noise, no mistake proven)
        mistake = False
    else:
        mistake = loss > 0 if a.enumerated or se == 0 else loss > MISTAKE_Z * se
    return _Own(loss, se, mistake, a.worlds, estimate, a.move_value(m), a.value, drop, drop_se)


def analyse_line(
    start: Position | str,
    moves: Iterable[Move | str] | str,
    limit: Limit | None = None,
    auto_limit: bool = True,
    worlds: int = DEFAULT_WORLDS,
    seed: int = 0,
    view: Literal["full", "own"] = "full",
    progress: Callable[[int, int], object] | None = None,
    only: str | None = None,
    chance: Literal["deal", "game"] = "deal",
) -> list[Step]:
    """Play ``moves`` from ``start``; before each, value every legal move.

    Perfect-information positions are solved (exactly, or within ``limit``; with
    ``auto_limit`` early talon positions get the quick search's estimate); positions with
    hidden cards are analysed by sampling (``worlds``, ``seed``).

    ``view="own"`` (on a deal with every card known, such as a deal record) also judges
    each move from its player's own information (:func:`own_information_loss`): a move is
    then a mistake only when that loss exceeds the sampling noise, and the double-dummy
    loss stays beside it in ``loss``.  ``progress(done, total)`` follows the moves.
    Ctrl-C raises :class:`LineInterrupted`, which holds the steps judged so far.
    ``moves`` is a list of moves (Moves or strings) or one string of moves separated by
    spaces (``"QD 9C"``).  ``only="a"`` (or ``"b"``) judges that seat's moves alone (the
    other moves are played, not judged; a move's judgement never depends on the others).
    ``chance="game"`` judges the chance a move gives up of winning the whole game to the
    target, from the start's game totals (:mod:`solver.analysis.game_chance`), rather than
    of winning the deal.
    """
    p = as_position(start, "start").copy()
    if only not in (None, "a", "b"):
        raise ArgumentError(f"only={short_value(only)}: expected 'a', 'b' or None (every move)")
    if view not in ("full", "own"):
        raise ArgumentError(f"view={view!r}: expected 'full' or 'own'")
    if chance not in ("deal", "game"):
        raise ArgumentError(
            f"chance={short_value(chance)}: expected 'deal' (the chance of winning the deal) or "
            "'game' (of winning the whole game to the target)"
        )
    if view == "own" and worlds < MIN_OWN_WORLDS:
        raise ArgumentError(
            f"worlds={worlds}: judging moves from one's own information needs at least {MIN_OWN_WORLDS} worlds"
        )
    if view == "own" and p.has_hidden:
        raise PositionError(
            f"judging moves from each player's own information needs a deal with every card "
            f"known (a deal record), not {p.bpn()!r}"
        )
    if isinstance(moves, str):  # (one string: its moves apart, as brisque line reads them)
        moves = parse_moves(moves)
    try:
        moves = list(moves)
    except TypeError:
        raise ArgumentTypeError(
            f"moves={short_value(moves)}: expected a list of moves, such as ['QD', '9C'] or 'QD 9C', "
            f"not {type(moves).__name__}"
        ) from None
    steps: list[Step] = []
    try:
        _play_and_judge(p, moves, steps, limit, auto_limit, worlds, seed, view, progress, only, chance)
    except KeyboardInterrupt:
        raise LineInterrupted(steps) from None
    return steps


@dataclass(kw_only=True)
class _Judged:
    """One move valued from the position as it stands (what :func:`_play_and_judge` puts in
    its step besides the judgement from the player's own information)."""

    value: Value | float  # the best value
    move_value: Value | float
    best: list[Move]
    exact: bool
    stderr: float | None = None  # sampled: the paired loss's standard error
    sampled: bool = False
    proven: bool = False  # an estimate's loss that the search's proven bounds confirm
    bounds: tuple[Bound | None, Bound | None] = (None, None)  # (the move's, the best's)


def _play_and_judge(
    p: Position,
    moves: list[Move | str],
    steps: list[Step],
    limit: Limit | None,
    auto_limit: bool,
    worlds: int,
    seed: int,
    view: str,
    progress: Callable[[int, int], object] | None,
    only: str | None = None,
    chance: str = "deal",
) -> None:
    """The loop of :func:`analyse_line`: appends a step for each move (kept on Ctrl-C)."""
    for i, text in enumerate(moves, 1):
        m = parse_move(text) if isinstance(text, str) else text
        if p.is_over():
            raise PositionError(f"move {i} ({m}): the deal is already over")
        if only is not None and SEATS[p.turn] != only:
            if not p.is_legal(m):
                raise IllegalMoveError(f"move {i} ({m}) is not legal in {p.bpn()!r}")
        else:
            _check_judged_move(p, m, i)
            if p.has_hidden:
                judged = _judge_sampled(p, m, worlds, seed)
            else:
                judged = _judge_searched(p, m, limit, auto_limit)
            own = _own_judgement(p, m, worlds, seed, chance) if view == "own" else None
            steps.append(_step(p, i, m, judged, own, chance))
        p.push(m)
        if progress is not None:
            progress(i, len(moves))


def _check_judged_move(p: Position, m: Move, i: int) -> None:
    """Refuse move ``i`` of the line if its player's hand is hidden or it is not legal."""
    if p.unknown[p.turn]:  # (nothing to value his moves by: say which move, not only why)
        raise HiddenInformationError(
            f"move {i} ({m}) is {SEATS[p.turn]}'s, whose hand is hidden in {p.bpn()!r}: a line "
            f"is judged only where the player to move shows his hand"
        )
    if not p.is_legal(m):
        legal = " ".join(str(x) for x in p.legal_moves())
        raise IllegalMoveError(f"move {i} ({m}) is not legal in {p.bpn()!r}; legal: {legal}")


def _judge_sampled(p: Position, m: Move, worlds: int, seed: int) -> _Judged:
    """Move ``m`` of a position with hidden cards, valued over the worlds :func:`analyse`
    samples (or exactly, where one world is consistent)."""
    from solver.analysis.analyse_options import AnalyseOptions
    from solver.analysis.sampling import SampledAnalysis, analyse

    a = analyse(p, AnalyseOptions(worlds=worlds, seed=seed))
    if getattr(a, "stopped", None) == "interrupted":
        raise KeyboardInterrupt
    judged = _Judged(value=a.value, move_value=a.move_value(m), best=list(a.best), exact=a.method == "exact")
    if isinstance(a, SampledAnalysis):  # (judged against its noise, as --view own is)
        _, judged.stderr = a.paired_loss(m)
        judged.sampled = True
    return judged


def _judge_searched(p: Position, m: Move, limit: Limit | None, auto_limit: bool) -> _Judged:
    """Move ``m`` of a position with every card known: solved exactly, or by a bounded
    search whose proven bounds say whether its loss is sure."""
    lim = limit if limit is not None else (default_limit(p) if auto_limit else None)
    if lim is None or not lim.bounded:
        # exact: the value, the move's and the best moves, not every move's exact
        # margin (the shared solver's table stays warm from move to move)
        value, mv_value, best = shared_solver(p.rules).judge(p, m)
        return _Judged(value=value, move_value=mv_value, best=best, exact=True)
    # (the quick search as solve runs it, with its own horizon evaluation)
    b = solve(p, pv=False, quick=True) if limit is None else solve(p, pv=False, limit=lim)
    mine = next(mv for mv in b.moves if mv.move == m)
    # exact: the best value and this move's both proven (a game won or lost at
    # once is, though other moves be estimates)
    exact = b.exact and mine.exact
    lows = [mv.value if mv.exact else mv.lower for mv in b.moves]
    up = mine.value if mine.exact else mine.upper
    # proven: some move's proven lower bound beats this move's proven upper bound
    # (a move proven to lose the game, against one proven not to: the game-win
    # guard's bounds)
    known = [v for v in lows if v is not None]
    return _Judged(
        value=b.value,
        move_value=mine.value,
        best=list(b.best),
        exact=exact,
        proven=exact or (up is not None and bool(known) and max(known) > up),
        bounds=(mine.bound, b.bound),
    )


def _step(p: Position, i: int, m: Move, judged: _Judged, own: _Own | None, chance: str) -> Step:
    """The step of move ``i`` (``m``, about to be played in ``p``), with its judgement from
    the position and, with ``view="own"``, from its player's own information."""
    loss, game = move_loss(judged.value, judged.move_value, p)
    step = Step(
        number=i,
        trick=min(p.trick_number, p.rules.tricks_per_deal),
        player=SEATS[p.turn],
        move=m,
        move_value=judged.move_value,
        best_value=judged.value,
        loss=loss,
        game=game,
        loss_stderr=judged.stderr,
        sampled=judged.sampled,
        proven=judged.proven,
        value_bound=judged.bounds[0],
        best_bound=judged.bounds[1],
        best=judged.best,
        exact=judged.exact,
        bpn=p.bpn(),
    )
    if own is not None:
        step.own_loss, step.own_stderr, step.own_mistake = own.loss, own.stderr, own.mistake
        step.own_worlds, step.own_estimate = own.worlds, own.estimate
        step.own_value, step.own_best_value = own.value, own.best_value
        step.own_win_drop, step.own_win_stderr, step.own_win_of = own.win_drop, own.win_stderr, chance
    return step


GAVE_UP_WIN = "gives up a won game"
LET_IN_LOSS = "lets the opponent win the game"


def move_loss(best: Value | float, move: Value | float, p: Position) -> tuple[float, str | None]:
    """(loss, game event) of a move valued ``move`` where the best is valued ``best``.

    Margins subtract.  When either value is a game won outright (the ``+-10000`` marker of
    exact answers), the loss is taken in the ranking numbers of :mod:`solver.analysis.ranking`
    (rule ``"match"``: a game won is worth the points its winner still needed), as
    ``brisque analyse`` ranks moves, and the event is named: :data:`GAVE_UP_WIN` or
    :data:`LET_IN_LOSS` (``None`` when the move keeps the best outcome).

    >>> p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
    >>> move_loss(Value.game_won(0, pov=0), Value.margin(-70, pov=0), p)
    (570, 'gives up a won game')
    """
    if not (isinstance(best, Value) and isinstance(move, Value)):
        return best - move, None
    if best.winner is None and move.winner is None:
        return best - move, None
    from solver.analysis.ranking import RankingRule

    rank = RankingRule.parse("match")
    loss = rank.number(best, p) - rank.number(move, p)
    if best.won and not move.won:
        return loss, GAVE_UP_WIN
    if move.lost and not best.lost:
        return loss, LET_IN_LOSS
    return loss, None


def losses_by_player(steps: list[Step]) -> dict[str, float]:
    """The total point loss of each player (``a``, ``b``) over the steps of a line; a move
    that throws away a game won (or lets a game be lost) is counted apart, by
    :func:`games_given_up`, not added here."""
    out: dict[str, float] = {"a": 0, "b": 0}
    for s in steps:
        if s.game is None:
            out[s.player] += s.loss
    return out


def games_given_up(steps: list[Step], proven: bool = True) -> dict[str, int]:
    """How many moves of each player threw away a game won or let a game be lost: proven
    (exact, or confirmed by an estimate's proven bounds), or with ``proven=False`` the
    estimates that say so without proof (counted nowhere else: a game won is no number of
    points)."""
    out = {"a": 0, "b": 0}
    for s in steps:
        if s.game is not None and s.game_proven == proven:
            out[s.player] += 1
    return out


__all__ = [
    "GRADES",
    "GRADE_POINTS",
    "GRADE_TRICKS",
    "GRADE_WIN_CHANCE",
    "MIN_OWN_WORLDS",
    "MISTAKE_Z",
    "LineInterrupted",
    "Step",
    "analyse_line",
    "GAVE_UP_WIN",
    "LET_IN_LOSS",
    "default_limit",
    "games_given_up",
    "grade_of",
    "losses_by_player",
    "move_loss",
    "own_information_loss",
]
