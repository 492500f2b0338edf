"""The review of a deal played against the engine: every decision of the person graded
from his own information, the double-dummy loss beside it, and the evaluation graph.

A decision is graded as ``brisque line --record FILE --view own`` grades it
(:func:`solver.analysis.line.grade_of`): inaccuracy, mistake or blunder by the points the
move gave away and by the chance of winning the deal it gave up, over the worlds his view
allowed, never inside the sampling noise (the paired difference over the same worlds).
The deal is over, so the review shows it face up.

>>> from solver.formats.records import DealRecord
>>> rec = DealRecord(start="petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3", moves=["KC", "9C", "TS", "KS"])
>>> r = review_deal(rec, "b", worlds=10)
>>> [row["move"] for row in r.rows], r.result["margin"]
(['KC'], 5)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from typing import Any

from solver.analysis.line import analyse_line
from solver.errors import ArgumentError, RecordError
from solver.formats.records import DealRecord
from solver.model.moves import parse_move
from solver.model.numbers import json_number
from solver.model.position import SEATS, Position
from solver.model.ranges import MIN_OWN_WORLDS, short_value

REVIEW_WORLDS = 50  # worlds a decision: enough to see a mistake of a few points


@dataclass
class Review:
    """A deal reviewed from the person's seat (``seat``, a or b)."""

    seat: str
    start: str  # the deal face up
    moves: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    graph: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "start": self.start,
            "moves": self.moves,
            "rows": self.rows,
            "graph": self.graph,
            "result": self.result,
        }

    def counts(self) -> dict[str, int]:
        """How many inaccuracies, mistakes and blunders."""
        out = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for row in self.rows:
            if row["grade"]:
                out[row["grade"]] += 1
        return out


def review_deal(
    record: DealRecord,
    seat: str,
    worlds: int = REVIEW_WORLDS,
    seed: int = 0,
    progress: Callable[[int, int], object] | None = None,
) -> Review:
    """Grade every decision of ``seat`` in a finished deal (a record whose every card is
    known), and the expected margin from his view after each of his moves."""
    if seat not in SEATS:
        raise ArgumentError(f"seat={short_value(seat)}: expected a or b")
    if worlds < MIN_OWN_WORLDS:
        raise ArgumentError(f"worlds={short_value(worlds)}: a review needs at least {MIN_OWN_WORLDS} worlds")
    positions = record.replay()
    end = positions[-1]
    if not end.is_over():
        raise RecordError(f"the deal of {record.start!r} is not over: a review is of a finished deal")
    steps = analyse_line(
        record.start,
        record.moves,
        view="own",
        worlds=worlds,
        seed=seed,
        only=seat,
        progress=progress,
        chance="game" if record.whole_game else "deal",
    )
    me = SEATS.index(seat)
    review = Review(seat=seat, start=record.start, moves=list(record.moves))
    review.graph.append({"number": 0, "value": None})
    for s in steps:
        before = positions[s.number - 1]
        if len(before.legal_moves()) < 2:
            continue  # (no decision: the one move he had)
        review.rows.append(
            {
                "number": s.number,
                "trick": s.trick,
                "move": str(s.move),
                "best": [str(m) for m in s.best],
                "grade": s.grade,
                "own_loss": json_number(s.own_loss),
                "own_stderr": json_number(s.own_stderr),
                "own_win_drop": json_number(s.own_win_drop),
                "own_win_stderr": json_number(s.own_win_stderr),
                "own_win_of": s.own_win_of,
                "estimate": bool(s.own_estimate),
                "dd_loss": json_number(s.loss),
                "game": s.game,
                "bpn": s.bpn,
            }
        )
        if review.graph[-1]["value"] is None:
            review.graph[-1]["value"] = json_number(s.own_best_value)
        review.graph.append({"number": s.number, "value": json_number(s.own_value), "grade": s.grade})
    outcome = end.outcome()
    assert outcome is not None
    margin = outcome.margin(me)
    review.graph.append({"number": len(record.moves), "value": int(margin), "final": True})
    if review.graph[0]["value"] is None:
        review.graph.pop(0)
    review.result = {
        "score": list(outcome.score),
        "margin": int(margin),
        "game_won": None if outcome.win is None else SEATS[outcome.win],
        "counts": review.counts(),
    }
    return review


GRADE_COLOURS = {None: "#2f6f4f", "inaccuracy": "#d9a21b", "mistake": "#e06c1f", "blunder": "#c0392b"}


def graph_svg(review: Review, width: int = 640, height: int = 200) -> str:
    """The evaluation graph: the person's expected margin after each of his moves, from his
    own view, to the deal's result; a dot for each decision, coloured by its grade.

    >>> r = Review("a", "", [], graph=[{"number": 0, "value": 5}, {"number": 3, "value": -12.5, "grade": "mistake"}])
    >>> svg = graph_svg(r)
    >>> svg.startswith("<svg") and "#e06c1f" in svg
    True
    """
    pts = [g for g in review.graph if g.get("value") is not None]
    pad = 28
    last = max([g["number"] for g in pts] + [1])
    top = max([abs(float(g["value"])) for g in pts] + [10.0])
    top = min(top, 200.0)  # (a game won reads in the hundreds: the scale stays readable)

    def x(n: int) -> float:
        return float(pad + (width - 2 * pad) * n / last)

    def y(v: float) -> float:
        v = max(-top, min(top, v))
        return height / 2 - (height / 2 - pad / 2) * v / top

    line = " ".join(f"{x(g['number']):.1f},{y(float(g['value'])):.1f}" for g in pts)
    dots = "".join(
        f'<circle cx="{x(g["number"]):.1f}" cy="{y(float(g["value"])):.1f}" r="{6 if g.get("grade") else 3.5}" '
        f'fill="{GRADE_COLOURS.get(g.get("grade"), GRADE_COLOURS[None])}">'
        f"<title>move {g['number']}: {float(g['value']):+.1f}{' ' + escape(g['grade']) if g.get('grade') else ''}"
        f"</title></circle>"
        for g in pts
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="evaluation-graph" '
        f'role="img" aria-label="expected margin after each move">'
        f'<rect width="{width}" height="{height}" rx="10" fill="#fbfaf6"/>'
        f'<line x1="{pad}" x2="{width - pad}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#b9b3a5" stroke-dasharray="4 4"/>'
        f'<text x="4" y="{y(top) + 4:.1f}" font-size="11" fill="#6b665c">+{top:g}</text>'
        f'<text x="4" y="{y(-top) + 4:.1f}" font-size="11" fill="#6b665c">-{top:g}</text>'
        f'<polyline points="{line}" fill="none" stroke="#2f6f4f" stroke-width="2.5" stroke-linejoin="round"/>'
        f"{dots}</svg>"
    )


def review_position(review: Review, number: int) -> Position:
    """The deal face up after its first ``number`` moves (the review's steps)."""
    p = Position(review.start)
    for text in review.moves[:number]:
        p.push(parse_move(text))
    return p


__all__ = ["REVIEW_WORLDS", "Review", "graph_svg", "review_deal", "review_position"]
