"""Sampling throughput: a 200-world best-move query at tricks 1, 5 and 9 of Brisque deals,
with one and with two worker processes, side by side in the same run.

Each query is the view of the player to move in a seeded deal played on by random moves
to the given trick.  Reported: median seconds per query and worlds per second, and the
two-worker speed-up.

The measurement is the research suite ``sampling-workers``
(``benchmarks/research.py``).

Run:  python -m benchmarks.bench_sampling [--deals 5] [--worlds 200] [--json]
"""

from __future__ import annotations

from typing import Any

from benchmarks.harness.console import Column, command, text_table
from benchmarks.research import sampling_workers


def run(deals: int = 5, worlds: int = 200) -> list[dict[str, Any]]:
    """The rows of the research suite ``sampling-workers``."""
    rows: list[dict[str, Any]] = sampling_workers(deals=deals, worlds=worlds)["rows"]
    return rows


COLUMNS = (
    Column("trick", ">5"),
    Column("per world", ">10", "method"),
    Column("1 worker s", ">11.3f", lambda r: r["1 worker"]["median_s"]),
    Column("worlds/s", ">9.0f", lambda r: r["1 worker"]["worlds_per_s"]),
    Column("2 workers s", ">12.3f", lambda r: r["2 workers"]["median_s"]),
    Column("worlds/s", ">9.0f", lambda r: r["2 workers"]["worlds_per_s"]),
    Column("speed-up", ">9", lambda r: f"{r['speedup']:.2f}x"),
)


def report(rows: list[dict[str, Any]]) -> str:
    return "\n".join(text_table(COLUMNS, rows))


def main() -> None:
    command(__doc__, run, report, deals=5, worlds=200)


if __name__ == "__main__":
    main()
