"""Thinking by time, deterministically: a budget of seconds counted in work, not on a clock.

A clock makes an answer depend on the machine's load and on the number of workers.  The
sampling analysis therefore counts each world it solves in *work seconds*, from what the
search did there:

    seconds = world + nodes * node + evaluations * evaluation

with costs of its own for each game, a node's by the kind of search (exact, or to which
horizon evaluation), and ``evaluations`` the learned network's, which cost more than a node.
The inference adds a cost for every move it replays in each world's histories (its short
searches included).  It stops after the
first world, in the seeded order of the worlds, at which the work so far reaches the budget.
So ``think=0.5`` is about half a second of one core of the machine of BENCHMARKS.md, and the
same seed gives the same worlds, the same answer, whatever the load and the workers.  The
three costs were fitted on that machine by ``benchmarks/bench_thinking.py``, which also
reports how near each world search's measured time is to the time they predict.

>>> Think.parse("0.5s").seconds, Think.parse("250ms").seconds, str(Think.parse("2"))
(0.5, 0.25, '2s')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from solver.errors import ArgumentError, ArgumentTypeError
from solver.model.ranges import MAX_SECONDS, short, short_value


@dataclass(frozen=True)
class WorkCosts:
    """The seconds of one game's work: a world's fixed cost; a node of an exact search, and
    of a search to each horizon evaluation (whose leaves cost what the evaluation does);
    and an evaluation of the learned network beyond its node."""

    world: float
    exact_node: float
    node: dict[str, float]  # by horizon (solver.engine.evaluation.HORIZONS)
    evaluation: float
    inference_move: float  # the inference's, for each move replayed in each history of a world


# fitted by benchmarks/bench_thinking.py on the machine of BENCHMARKS.md
# (results/thinking.json); Petite Brisque, which has no horizon, uses Brisque's
COSTS: dict[str, WorkCosts] = {
    "brisque": WorkCosts(
        world=238e-6,
        exact_node=34e-9,
        node={"linear": 88e-9, "handmade": 56e-9, "learned": 87e-9},
        evaluation=897e-9,
        inference_move=17e-6,
    ),
    "briscan": WorkCosts(
        world=356e-6,
        exact_node=127e-9,
        node={"linear": 149e-9, "handmade": 118e-9, "learned": 152e-9},
        evaluation=1019e-9,
        inference_move=20e-6,
    ),
}

MIN_THINK = 0.001  # seconds: less is not a budget a world search could use
_SPEC = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)\s*(ms|s)?$")


def world_work(
    game: str, horizon: str, exact: bool, nodes: int, evaluations: int, replayed: int = 0
) -> float:
    """The work seconds of one world searched (the module's formula): in ``game``, exactly
    or to the ``horizon`` evaluation; and the inference's, ``replayed`` moves of its
    histories (their searches included: solver.analysis.inference).

    >>> world_work("brisque", "linear", True, 0, 0) == COSTS["brisque"].world
    True
    """
    c = COSTS.get(game, COSTS["brisque"])
    node = c.exact_node if exact else c.node[horizon]
    return c.world + nodes * node + evaluations * c.evaluation + replayed * c.inference_move


@dataclass(frozen=True)
class Think:
    """A budget of thinking, in work seconds (module text).

    >>> Think(0.25).seconds, str(Think(0.25))
    (0.25, '0.25s')
    """

    seconds: float

    def __post_init__(self) -> None:
        s = self.seconds
        if isinstance(s, bool) or not isinstance(s, (int, float)):
            raise ArgumentTypeError(f"think={short_value(s)}: expected a number of seconds")
        if not MIN_THINK <= s <= MAX_SECONDS:  # (also refuses NaN)
            raise ArgumentError(
                f"think={short_value(s)}: expected seconds of thinking from {MIN_THINK:g} to {MAX_SECONDS:g}"
            )

    @classmethod
    def parse(cls, text: Think | str | float) -> Think:
        """``"0.5s"``, ``"500ms"``, ``"2"`` (seconds) or a number of seconds; anything else is
        an ArgumentError that quotes it."""
        if isinstance(text, Think):
            return text
        if isinstance(text, (int, float)) and not isinstance(text, bool):
            return cls(float(text))
        if not isinstance(text, str):
            raise ArgumentTypeError(f"think={short_value(text)}: expected seconds such as 0.5s or 500ms")
        m = _SPEC.match(text.strip().lower())
        if not m:
            raise ArgumentError(f"think={short(text)}: expected seconds such as 0.5s, 2s or 500ms")
        number = float(m.group(1))
        return cls(number / 1000 if m.group(2) == "ms" else number)

    def __str__(self) -> str:
        return f"{self.seconds:g}s"


__all__ = ["COSTS", "Think", "WorkCosts", "world_work"]
