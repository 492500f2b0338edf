"""Human-readable reports of analyses.

>>> from solver.engine.solving import solve
>>> print(format_analysis(solve("brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35")).splitlines()[1])
Value for a: -4 (exact)
"""

from __future__ import annotations

from fractions import Fraction

from solver.analysis.equilibrium import EquilibriumAnalysis
from solver.analysis.sampling import SampledAnalysis
from solver.engine.chance_solving import ChanceAnalysis
from solver.engine.results import Analysis, Bound, MoveValue
from solver.errors import HiddenInformationError
from solver.formats.words import mixed_number, percent, plural
from solver.model.moves import Move
from solver.model.outright import game_win_possible
from solver.model.position import SEATS, Position
from solver.model.rules import GAME_NAMES
from solver.native.constants import WIN_RAW, WIN_VALUE


def _signed(v: int | None) -> str:
    """``+12``, ``-4``; ``?`` for a bound that is not known."""
    return "?" if v is None else f"{v:+d}"


def proven_words(lower: int | None, upper: int | None) -> str:
    """What the proven bounds say, in words.  ±10000 (a game lost or won) bounds nothing;
    ±9999, the game-win guard's bounds, say that no game is lost, or won, outright.

    >>> proven_words(-230, -42), proven_words(-10000, 190), proven_words(-5, 10000)
    ('proven between -230 and -42', 'proven at most +190', 'proven at least -5')
    >>> proven_words(-10000, 10000), proven_words(-9999, 9999)
    ('nothing proven', 'proven: no game lost, none won')
    """
    low = lower is not None and lower > -WIN_VALUE
    high = upper is not None and upper < WIN_VALUE
    no_loss = low and lower == 1 - WIN_VALUE
    no_win = high and upper == WIN_VALUE - 1
    if no_loss or no_win:
        said = [
            *(["no game lost"] if no_loss else []),
            *(["none won" if no_loss else "no game won"] if no_win else []),
        ]
        rest = proven_words(None if no_loss else lower, None if no_win else upper)
        return "proven: " + ", ".join(said) + ("" if rest == "nothing proven" else f"; {rest}")
    if low and high:
        return f"proven between {_signed(lower)} and {_signed(upper)}"
    if high:
        return f"proven at most {_signed(upper)}"
    if low:
        return f"proven at least {_signed(lower)}"
    return "nothing proven"


def _kind(mv: MoveValue) -> str:
    """What a move's value is: ``exact``, ``estimate``, or the bound it is (``at most``)."""
    if mv.exact:
        return "exact"
    return {"upper": "at most", "lower": "at least", None: "estimate"}[mv.bound]


def _value_words(value: int, bound: Bound | None, upper: int | None) -> str:
    """An unfinished answer's headline value: an estimate, or a bare bound said as one.  A
    best move proven at most ``value`` bounds the position only when no other move may be
    worth more (the position's proven ``upper``): else the words say whose bound it is.

    >>> _value_words(190, "upper", 10000), _value_words(-5, None, 10000)
    ('at most +190 for the best move (its proven bound; its estimate lay above it)', '-5 estimated')
    >>> _value_words(74, "lower", 10000), _value_words(-42, "upper", -42)
    ('at least +74 (a proven bound; the estimate lay below it)', 'at most -42 (a proven bound; the estimate lay above it)')
    """
    if bound == "upper" and (upper is None or upper > value):
        return f"at most {_signed(value)} for the best move (its proven bound; its estimate lay above it)"
    if bound == "upper":
        return f"at most {_signed(value)} (a proven bound; the estimate lay above it)"
    if bound == "lower":  # (a lower bound of the best move is one of the position)
        return f"at least {_signed(value)} (a proven bound; the estimate lay below it)"
    return f"{_signed(value)} estimated"


def pv_by_trick(start: Position, line: list[Move]) -> list[str]:
    """The principal variation as one line per trick: ``11: b +mD 7S, a 9S -> b``."""
    p = start.copy()
    rows: list[str] = []
    current: list[str] = []
    trick_no = min(p.trick_number, p.rules.tricks_per_deal)
    if p.trick >= 0:
        current.append(f"({SEATS[p.leader]} led {Move(p.trick)})")
    for i, m in enumerate(line):
        who = SEATS[p.turn]
        completes = m.is_card and p.trick >= 0
        try:
            p.push(m)
        except HiddenInformationError:
            # a view's line goes on in the world that was solved (one hidden hand's
            # declaration, say): its moves cannot be replayed on the view, only listed
            if current:
                rows.append(f"  {trick_no}: " + ", ".join(current))
            rest = " ".join(str(x) for x in line[i:])
            rows.append(f"  then {rest} (in the world solved: the view does not show {who}'s cards)")
            return rows
        current.append(f"{who} {m}")
        if completes or p.is_over():
            winner = f" -> {SEATS[p.turn]}" if completes else ""
            rows.append(f"  {trick_no}: " + ", ".join(current) + winner)
            current = []
            trick_no = min(p.trick_number, p.rules.tricks_per_deal)
    if current:
        rows.append(f"  {trick_no}: " + ", ".join(current))
    out = p.outcome()
    if out is not None:
        if out.win is not None:
            rows.append(f"  end: {SEATS[out.win]} wins the game")
        else:
            tricks = f"tricks {out.tricks[0]}:{out.tricks[1]}"
            if not start.tricks_recorded:
                # a Brisque BPN need not record the tricks taken: then only this line's are known
                tricks = f"tricks in this line {out.tricks[0]}:{out.tricks[1]}"
            rows.append(f"  end: score {out.score[0]}:{out.score[1]}, {tricks}")
    return rows


def _header(a: Analysis | SampledAnalysis | ChanceAnalysis, p: Position, note: str) -> tuple[list[str], str]:
    """The first report line (game, trick, who moves, score) and the unit of the values."""
    r = p.rules
    unit = "tricks" if r.objective == "tricks" else "points"
    return [
        f"{GAME_NAMES[r.game]}, trick {min(p.trick_number, r.tricks_per_deal)}, "
        f"{a.turn} to move, score {p.score[0]}:{p.score[1]}{note}"
    ], unit


def format_analysis(a: Analysis, position: Position | None = None) -> str:
    """Every move with its value, best first, and the principal variation trick by trick."""
    p = position or Position(a.bpn)
    lines, unit = _header(a, p, "")
    win = f", {a.win} wins the game" if a.win else ""
    if a.exact:
        # (a bounded search whose proven bounds met: as sure as an exact one)
        how = "the deal is over" if p.is_over() else "exact" if a.method == "exact" else "proven"
        lines.append(f"Value for {a.turn}: {_signed(a.value)} ({how}{win})")
    else:
        depth = f", {plural(a.depth, 'trick')} deep" if a.depth else ""
        why = "interrupted" if a.stopped == "interrupted" else f"search not finished{depth}"
        proven = proven_words(a.lower, a.upper)
        upper = None if a.upper is None else int(a.upper)
        lines.append(f"Value for {a.turn}: {_value_words(a.value, a.bound, upper)}; {proven} ({why})")
    if a.moves:
        lines.append(f"Moves, best first (final {unit} margin for {a.turn}):")
        best = set(int(m) for m in a.best)
        rows = [(mv, "" if mv.exact else proven_words(mv.lower, mv.upper)) for mv in a.moves]
        inexact = not all(mv.exact for mv in a.moves)
        wide = max([len(r) for _, r in rows] + [len("proven")])
        if inexact:
            lines.append(f"  {'move':<6}{'value':>7}  {'is':<9} proven")
        for mv, known in sorted(rows, key=lambda r: -r[0].value):
            mark = "  best" if int(mv.move) in best else ""
            if inexact:
                row = f"  {str(mv.move):<6}{_signed(mv.value):>7}  {_kind(mv):<9} {known:<{wide}}{mark}"
                lines.append(row.rstrip())
            else:
                lines.append(f"  {str(mv.move):<6}{_signed(mv.value):>7}{mark}")
        if a.stopped == "interrupted":
            reached = {int(mv.move) for mv in a.moves}
            rest = [str(m) for m in p.legal_moves() if int(m) not in reached]
            if rest:
                lines.append(f"  not searched before the interrupt: {' '.join(rest)}")
    if a.exact and not a.best and a.stopped == "interrupted" and not p.is_over():
        # (the value proven, without every move, before a principal variation named a move)
        lines.append("Best move: none proven before the interrupt")
    if a.pv:
        lines.append("Principal variation:")
        lines.extend(pv_by_trick(p, a.pv))
    lines.append(f"{plural(a.nodes, 'node')}, {a.seconds * 1000:.1f} ms")
    return "\n".join(lines)


CHANCE_METHOD = "expectimax: the talon's order unknown to both players; every draw a chance event"
"""How the report of a face-down talon says what its values are."""


def chance_value_words(v: Fraction | None) -> str:
    """An expectimax value in words: exact, with its decimals when it is not whole.

    >>> chance_value_words(Fraction(-260, 3)), chance_value_words(Fraction(-74)), chance_value_words(None)
    ('-86 2/3 (-86.667)', '-74', 'not searched')
    """
    if v is None:
        return "not searched"
    return mixed_number(v) if v.denominator == 1 else f"{mixed_number(v)} ({float(v):+.3f})"


def _chance_rows(a: ChanceAnalysis) -> list[str]:
    """The moves valued, best first, in two columns (the exact value, and its decimals when
    it is not whole), then those not searched."""
    best = {int(m) for m in a.best}
    valued = [(mv, mv.value) for mv in a.moves if mv.value is not None]
    exact = {int(mv.move): mixed_number(v) for mv, v in valued}
    decimals = {int(mv.move): "" if v.denominator == 1 else f"({float(v):+.3f})" for mv, v in valued}
    wide = max([len(t) for t in exact.values()] + [7])
    deci = max([len(t) for t in decimals.values()] + [0])
    rows = []
    for mv, _ in sorted(valued, key=lambda r: -r[1]):
        m = int(mv.move)
        mark = "  best" if m in best else ""
        rows.append(
            f"  {str(mv.move):<6}{exact[m]:>{wide}}{'  ' if deci else ''}{decimals[m]:<{deci}}{mark}".rstrip()
        )
    rest = [str(mv.move) for mv in a.moves if mv.value is None]
    if rest:
        rows.append(f"  not searched: {' '.join(rest)}")
    return rows


def format_chance_analysis(a: ChanceAnalysis, position: Position | None = None) -> str:
    """The report of a face-down talon's expectimax: the method, every move with its exact
    value best first, and the principal variation up to the next draw.

    >>> from solver.engine.chance_solving import solve_chance
    >>> text = format_chance_analysis(solve_chance("brisque AJ.KQ.7.8/T87.A87.. JC 3 KQ9.TJ9.ATKQJ98.TK9 - b 53:10 tricks=7:1"))
    >>> print(text.splitlines()[2])
    Value for b: -74 (exact; the expected final margin)
    """
    p = position or Position(a.bpn)
    lines, unit = _header(a, p, "")
    lines.append(f"Method: {CHANCE_METHOD} ({plural(a.face_down, 'face-down card')})")
    if a.exact:
        what = f"{a.win} wins the game outright whatever the draws" if a.win else "the expected final margin"
        lines.append(f"Value for {a.turn}: {chance_value_words(a.value)} (exact; {what})")
    else:
        why = "interrupted" if a.stopped == "interrupted" else "budget spent"
        if a.value is None:
            lines.append(f"Value for {a.turn}: unknown ({why} before any move was valued)")
        else:
            words = chance_value_words(a.value)
            lines.append(f"Value for {a.turn}: at least {words} ({why}: the best of the moves valued)")
    if any(game_win_possible(p, seat) for seat in (0, 1)):
        lines.append(f"(a game won outright counts +-{WIN_RAW} in these expectations)")
    if a.moves:
        lines.append(f"Moves, best first (expected final {unit} margin for {a.turn}):")
        lines.extend(_chance_rows(a))
    elif a.best:
        lines.append(f"Best move: {a.best[0]}")
    if a.pv:
        lines.append(
            "Principal variation, up to the next draw:" if a.pv_ends == "draw" else "Principal variation:"
        )
        lines.extend(pv_by_trick(p, a.pv))
        if a.pv_ends == "draw":
            lines.append("  then a draw of the face-down cards: the line goes on as they fall")
    lines.append(f"{plural(a.nodes, 'node')}, {a.seconds * 1000:.1f} ms")
    return "\n".join(lines)


NOISE_Z = 2.0
"""Standard errors a paired difference must exceed for the report to call the best move
ahead of the runner-up beyond the sampling noise."""

STOPPED_WORDS = {
    "worlds": "stopped after the {worlds} asked for",
    "enumerated": "every consistent world solved ({worlds})",
    "time": "stopped at the time limit, after {worlds}",
    "think": "thought for its time, {worlds}",
    "separated": "stopped early, after {worlds}: the best move is separated from the others",
    "interrupted": "interrupted after {worlds}",
}
"""Why the sampling stopped, in words (``SampledAnalysis.stopped``)."""


def stopped_words(a: SampledAnalysis) -> str:
    """``stopped after the 200 worlds asked for``: why the sampling of ``a`` stopped.

    >>> from solver.analysis.sampling import analyse
    >>> stopped_words(analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=20, seed=1))
    'stopped after the 20 worlds asked for'
    """
    words = STOPPED_WORDS.get(a.stopped, "stopped: {stopped}")  # (a reason added later: its name)
    return words.format(worlds=plural(a.worlds, "world"), stopped=a.stopped)


def runner_up_words(a: SampledAnalysis) -> str | None:
    """Whether the best move beats the runner-up, from their paired difference over the same
    worlds: ``TH is 0.90 +- 0.75 worse than 9H (...)``; None with a single legal move."""
    r = a.runner_up
    if r is None:
        return None
    best = a.best[0]
    if r.difference == 0:
        return f"{r.move} is worth as much as {best} over these worlds"
    if r.stderr is None:
        return f"{r.move} is {r.difference:.2f} worse than {best} (one world: no standard error)"
    if r.stderr == 0:
        return f"{r.move} is {r.difference:.2f} worse than {best} (every consistent world: no sampling noise)"
    z = r.difference / r.stderr
    verdict = "beyond the sampling noise" if z > NOISE_Z else "within the sampling noise"
    return (
        f"{r.move} is {r.difference:.2f} +- {r.stderr:.2f} worse than {best} (paired over the same "
        f"worlds: {z:.1f} standard errors, {verdict})"
    )


def format_sampled(a: SampledAnalysis, position: Position | None = None) -> str:
    """A sampled analysis: every move's ranking value and standard error, best first, and
    what it is made of when games are won outright (the share of worlds won and lost, and the
    margin of the others; without them the value is the mean margin, shown once), then how
    far the runner-up is behind the best move over the same worlds, and why the sampling
    stopped.

    >>> from solver.analysis.sampling import analyse
    >>> a = analyse("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1", worlds=20, seed=1)
    >>> print(format_sampled(a).splitlines()[3])
      move         value  stderr
    """
    p = position or Position(a.bpn)
    lines, unit = _header(a, p, " (hidden cards)")
    how = "all" if a.enumerated else "sampled"
    # one sampled world says nothing of the spread: no standard error rather than 0
    unknown = a.stderr is None
    spread = "+- ? (one world: no standard error)" if a.stderr is None else f"+- {a.stderr:.2f}"
    lines.append(
        f"Expected value for {a.turn}: {a.value:+.2f} {spread} "
        f"({plural(a.worlds, 'world')}, {how}, seed {a.seed}, each solved {a.world_method})"
    )
    # a move without a game won outright has its mean margin for value: shown once
    games = any(mv.p_win or mv.p_loss for mv in a.moves)
    if games:
        lines.append(
            f"Moves, best first (value for {a.turn} with its standard error, where a game won counts "
            f"{_worth_words(a.ranking)}; for a move that wins or loses games outright, how often, "
            f"and the mean final {unit} margin of the other worlds):"
        )
    else:
        lines.append(
            f"Moves, best first (value for {a.turn}: the mean final {unit} margin over the worlds, "
            "with its standard error):"
        )
    ordered = sorted(a.moves, key=lambda x: -x.value)
    values = [f"{mv.value:+.2f}" for mv in ordered]
    move_w = max(len("move"), *(len(str(mv.move)) for mv in ordered))
    value_w = max(len("value"), *(len(v) for v in values))
    heading = f"  {'move':<{move_w}}  {'':4}  {'value':>{value_w}}  stderr"
    lines.append(heading + ("  games won outright; margin otherwise" if games else ""))
    best = set(int(m) for m in a.best)
    for mv, value in zip(ordered, values):
        mark = "best" if int(mv.move) in best else ""
        se = "?" if mv.stderr is None else f"{mv.stderr:.2f}"
        row = f"  {str(mv.move):<{move_w}}  {mark:4}  {value:>{value_w}}  {se:>6}"
        if mv.p_win or mv.p_loss:
            row += f"  {mv.describe(a.turn, with_stderr=not unknown)}"
        lines.append(row.rstrip())
    runner_up = runner_up_words(a)
    if runner_up is not None:
        lines.append(f"Runner-up: {runner_up}")
    if a.effective_worlds is not None:
        other = "ab"[1 - "ab".index(a.turn)]
        lines.append(
            f"Inference from {other}'s play: the {plural(a.worlds, 'world')} weigh as "
            f"{a.effective_worlds:.1f} equally weighted (effective sample size)"
        )
    lines.append(f"{plural(a.nodes, 'node')}, {a.seconds * 1000:.1f} ms, {stopped_words(a)}")
    return "\n".join(lines)


def format_equilibrium(a: EquilibriumAnalysis) -> str:
    """An equilibrium answer: the public subgame's value, the player's with his hand, each
    root move's probability and value against the equilibrium opponent, and PIMC's move."""
    lines = [
        f"Equilibrium of the public subgame ({plural(a.deals, 'deal')} equally likely, "
        f"{plural(a.leaves, 'leaf', 'leaves')} solved exactly), {a.turn} to move",
        f"Game value for {a.turn}: {a.game_value:+.3f} (averaged over the deals)",
    ]
    if a.value is not None:
        lines.append(f"Value for {a.turn} with his hand: {a.value:+.3f}")
        lines.append("Moves (equilibrium probability; value against the equilibrium opponent):")
        best = {int(m) for m in a.best}
        for mv in sorted(a.moves, key=lambda m: (-m.probability, -m.value)):
            mark = "  played" if int(mv.move) in best else ""
            lines.append(f"  {str(mv.move):<6}{percent(mv.probability, 1):>7}  {mv.value:+9.3f}{mark}")
        if a.pimc_move is not None and a.pimc_loss is not None:
            lines.append(
                f"PIMC's move: {a.pimc_move}, losing {a.pimc_loss:.3f} against the equilibrium opponent"
            )
    lines.append(f"Exploitability: {a.exploitability:.6f} points; {a.seconds * 1000:.0f} ms")
    return "\n".join(lines)


def _worth_words(ranking: str) -> str:
    if ranking == "match":
        return "the points its winner still needed"
    if ranking == "sentinel":
        return "+-10000"
    return f"{ranking} points"


__all__ = [
    "CHANCE_METHOD",
    "chance_value_words",
    "format_analysis",
    "format_chance_analysis",
    "format_equilibrium",
    "format_sampled",
    "pv_by_trick",
    "runner_up_words",
    "stopped_words",
]
