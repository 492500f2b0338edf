"""What the lab's tests share: the repository's root, where ``python -m benchmarks.X`` runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def deal_record(
    pair: int, at: str, margin: int, win: str | None = None, seed: int | None = None
) -> dict[str, Any]:
    """A deal record of a duplicate match (pair ``pair``, the first player at ``at``), dealt
    from ``seed`` (the pair's number by default)."""
    return {"pair": pair, "first_at": at, "deal_seed": pair if seed is None else seed,
            "margin_first": margin, "win": win}  # fmt: skip


def write_records(path: Path, records: list[dict[str, Any]]) -> Path:
    """``records`` as a JSON Lines file."""
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path
