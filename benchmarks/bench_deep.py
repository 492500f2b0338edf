"""Deep double-dummy search: time and nodes by number of talon tricks left.

For k = 0..10 talon tricks left (k = 10 is the whole Brisque deal from trick 1), seeded
deals are played on by random legal moves to the start of trick 11 - k and the value of
the position (talon order known) is solved exactly with a fresh table, under a CPU-time cap
per solve.  A solve that hits the cap is counted as unfinished and its time as the cap.

The measurement is benchmarks.research.deep_levels (``python -m benchmarks.research --suite
enhancements`` runs it for each enhancement); this script runs the default search alone.

Run:  python -m benchmarks.bench_deep [--positions 20] [--max-k 10] [--cap 10] [--json]
"""

from __future__ import annotations

from typing import Any

from benchmarks.harness.console import Column, emit, parser, text_table
from benchmarks.research import deep_levels


def run(
    positions: int = 20,
    max_k: int = 10,
    cap: float = 10.0,
    table_bits: int = 22,
    features: dict[str, bool] | None = None,
) -> list[dict[str, Any]]:
    """The levels of the research suite ``enhancements``, for one
    configuration (benchmarks.research.deep_levels)."""
    return deep_levels(positions, max_k, cap, features, table_bits)


def report(rows: list[dict[str, Any]], cap: float) -> str:
    columns = (
        Column("k", ">3"),
        Column("median ms", ">11.2f", "median_ms"),
        Column("p90 ms", ">11.2f", "p90_ms"),
        Column("median nodes", ">13.0f", "median_nodes"),
        Column("p90 nodes", ">12.0f", "p90_nodes"),
        Column(f" unfinished (cap {cap:g} s)", "", lambda r: f" {r['unfinished']}/{r['positions']}"),
    )
    return "\n".join(text_table(columns, rows))


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--max-k", type=int, default=10)
    ap.add_argument("--cap", type=float, default=10.0, help="CPU seconds per solve")
    ap.add_argument("--table-bits", type=int, default=22)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    emit(run(a.positions, a.max_k, a.cap, a.table_bits), lambda rows: report(rows, a.cap), a.json)


if __name__ == "__main__":
    main()
