"""The evaluation's other shipped numbers, read and written here only (files in ``data/``).

* the linear horizon weights (``linear-weights.json``, fitted by ``benchmarks/training/fit_horizon.py``
  from exact solves of seeded positions): under the game and objective they were fitted for
  (``"brisque/margin"``, :func:`~solver.engine.evaluation.choice.horizon_key`), one row per
  number of talon tricks left at the horizon, one weight per feature of
  ``Engine.horizon_features`` (docs/solver.md);
* how deals end between good players (``deal-outcomes.json``, counted from self-play
  records by ``benchmarks/training/deal_outcomes.py``): by game, its ``source`` and its ``outcomes``,
  each ``[score_a, score_b, winner, count]`` (``winner``: the seat of a game-winning event,
  or null), which the chance of winning a game is computed from
  (``solver/analysis/game_chance.py``);
* the fitted settings of the inference's opponent model (``inference.json``, fitted by
  ``benchmarks/training/fit_inference.py`` on self-play records): by game, ``beta``, ``floor`` and
  ``temper`` (``solver/analysis/inference.py``, docs/solver.md "Inference").

>>> len(linear_weights()["brisque/margin"]), sorted(deal_outcomes()), sorted(inference_settings())
(12, ['briscan', 'brisque', 'petite'], ['briscan', 'brisque'])
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
LINEAR_WEIGHTS = DATA / "linear-weights.json"
DEAL_OUTCOMES = DATA / "deal-outcomes.json"
INFERENCE = DATA / "inference.json"


@cache
def linear_weights() -> dict[str, list[list[float]]]:
    """The fitted linear horizon weights, by ``horizon_key`` (read once a process)."""
    weights: dict[str, list[list[float]]] = json.loads(LINEAR_WEIGHTS.read_text())
    return weights


def write_linear_weights(weights: dict[str, list[list[float]]]) -> Path:
    """Ship ``weights`` (every key of them: merge with :func:`linear_weights` to keep the
    others), one row a line; returns the file."""
    blocks = []
    for key, rows in sorted(weights.items()):
        lines = ",\n".join(f"  {json.dumps([float(v) for v in row])}" for row in rows)
        blocks.append(f" {json.dumps(key)}: [\n{lines}\n ]")
    LINEAR_WEIGHTS.write_text("{\n" + ",\n".join(blocks) + "\n}\n")
    linear_weights.cache_clear()
    return LINEAR_WEIGHTS


@cache
def deal_outcomes() -> dict[str, Any]:
    """How deals end, by game: ``{"source": ..., "outcomes": [[a, b, winner, count], ...]}``."""
    data: dict[str, Any] = json.loads(DEAL_OUTCOMES.read_text())
    return data


def write_deal_outcomes(data: dict[str, Any], path: Path | None = None) -> Path:
    """Ship the deal outcomes ``data`` (every game of them), or write them to ``path``;
    returns the file."""
    out = DEAL_OUTCOMES if path is None else path
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    deal_outcomes.cache_clear()
    return out


@cache
def inference_settings() -> dict[str, dict[str, float]]:
    """The fitted settings of the inference's opponent model, by game (``beta``, ``floor``,
    ``temper``); a game without them has no inference."""
    data: dict[str, dict[str, float]] = json.loads(INFERENCE.read_text())
    return data


def write_inference_settings(game: str, settings: dict[str, float]) -> Path:
    """Ship the fitted ``settings`` of ``game``'s opponent model (the other games' kept);
    returns the file."""
    data = {**inference_settings(), game: settings}
    INFERENCE.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n")
    inference_settings.cache_clear()
    return INFERENCE


__all__ = [
    "deal_outcomes",
    "inference_settings",
    "linear_weights",
    "write_deal_outcomes",
    "write_inference_settings",
    "write_linear_weights",
]
