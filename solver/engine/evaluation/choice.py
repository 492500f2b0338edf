"""Which evaluation scores the horizon of a depth-limited search, and setting it on an engine.

Three evaluations (docs/solver.md): the learned network, the fitted linear weights, the
hand-made heuristic (in the compiled engine: ``horizon_value`` in ``src_cython/bounds.pxd``).
A game without a network falls back on its linear weights, one without weights on the
heuristic.  Solves default to the linear weights (``DEFAULT_HORIZON``); the quick search of
sampled worlds uses the network where one is shipped (:func:`quick_horizon`).

>>> quick_horizon(Rules.parse("brisque")), quick_horizon(Rules.parse("petite"))
('learned', 'linear')
"""

from __future__ import annotations

from solver.engine.evaluation.features import canonical_melds
from solver.engine.evaluation.files import load_network
from solver.engine.evaluation.network import Network
from solver.engine.evaluation.shipped import linear_weights
from solver.model.rules import Rules
from solver.native.engine import Engine

HORIZONS = ("learned", "linear", "handmade")
# the default of solves (depth-limited and bounded solves, MTD(f)'s first guess): the fitted
# linear weights.  The quick search of sampled worlds uses the learned network where one is
# shipped (quick_horizon): proven the stronger player at equal thinking time
# (BENCHMARKS.md); the exact solves' node counts, which sign the benchmarks, stay as they were
DEFAULT_HORIZON = "linear"
# what a game won at the horizon (its chance less that of a game lost) adds to the margin
NETWORK_WIN_POINTS = 100.0


def horizon_network(rules: Rules) -> Network | None:
    """The learned horizon evaluation shipped for ``rules`` (its game and objective, with a
    talon), or ``None``."""
    if not rules.draws:
        return None
    return load_network(rules)


def has_network(rules: Rules) -> bool:
    """Whether a learned horizon network is shipped for ``rules`` (then the quick search
    is ``solver.engine.quick.LEARNED_DEPTH`` tricks to it).

    >>> has_network(Rules.parse("brisque")), has_network(Rules.parse("petite"))
    (True, False)
    """
    return horizon_network(rules) is not None


def quick_horizon(rules: Rules) -> str:
    """The horizon evaluation of the quick search: the learned network where one is shipped,
    else the default of depth-limited solves (the fitted linear weights).  Solves keep that
    default (``DEFAULT_HORIZON``): MTD(f)'s first guess and the bounded solves of
    ``brisque solve`` are scored with it, and their node counts sign the benchmarks."""
    return "learned" if has_network(rules) else DEFAULT_HORIZON


def horizon_key(rules: Rules) -> str:
    """What fitted horizon weights are kept under: the game and the objective they were
    fitted for (``"brisque/margin"``)."""
    return f"{rules.game}/{rules.objective}"


def horizon_weights(rules: Rules) -> list[list[float]] | None:
    """The fitted horizon weights for ``rules``, or ``None`` (the hand-made heuristic): for a
    game with a talon, under the objective they were fitted for.

    >>> horizon_weights(Rules.parse("brisque")) is not None, horizon_weights(Rules.parse("brisque(objective=tricks)"))
    (True, None)
    """
    if not rules.draws:
        return None  # without a talon the whole deal is one phase, unlike the fitted positions
    return linear_weights().get(horizon_key(rules))


def set_evaluation(engine: Engine, rules: Rules, horizon: str = DEFAULT_HORIZON) -> None:
    """Give ``engine`` the ``horizon`` evaluation of ``rules``' game (one of ``HORIZONS``):
    the linear weights under ``linear`` and ``learned`` (the fallback), and the network
    under ``learned`` where one is shipped."""
    if horizon not in HORIZONS:
        raise ValueError(f"horizon={horizon!r}: expected one of {', '.join(HORIZONS)}")
    engine.set_horizon(horizon_weights(rules) if horizon != "handmade" else None)
    network = horizon_network(rules) if horizon == "learned" else None
    if network is not None:
        engine.set_network(network, [list(canonical_melds(t)) for t in range(4)], NETWORK_WIN_POINTS)


__all__ = [
    "DEFAULT_HORIZON",
    "HORIZONS",
    "NETWORK_WIN_POINTS",
    "has_network",
    "horizon_key",
    "horizon_network",
    "horizon_weights",
    "quick_horizon",
    "set_evaluation",
]
