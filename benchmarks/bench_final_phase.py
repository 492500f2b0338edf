"""Final-phase throughput: the compiled engine against the plain Python reference.

The same seeded set of Brisque positions at the start of the final phase (6 cards
each, reached by random play from seeded deals) is solved by:

* the engine in one batch call (value only, table shared across the batch),
* the engine giving every move's value (one call per position),
* the reference solver (every move's value: that is all it knows how to do).

The measurement is the research suite ``reference``
(``benchmarks/research.py``); this script runs it with other sizes and prints it.

Run:  python -m benchmarks.bench_final_phase [--positions 1000] [--table-bits 14] [--json]
"""

from __future__ import annotations

from typing import Any

from benchmarks.harness.console import command
from benchmarks.research import reference


def run(positions: int = 1000, table_bits: int = 14) -> dict[str, Any]:
    """The research suite ``reference`` (benchmarks.research)."""
    return reference(positions=positions, table_bits=table_bits)


def report(r: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"Machine: {r['machine']}",
            f"{r['positions']} Brisque positions at the start of the final phase (6 cards each), "
            f"table 2^{r['table_bits']}",
            f"engine, value (batch):   {r['engine_value_us']:9.1f} us/position  "
            f"{r['engine_value_positions_per_s']:10.0f} positions/s  "
            f"{r['engine_nodes_per_position']:7.0f} nodes/position  {r['engine_nodes_per_s'] / 1e6:5.2f} M nodes/s",
            f"engine, every move:      {r['engine_every_move_us']:9.1f} us/position  "
            f"({r['every_move_over_value']:.2f}x the value alone)",
            f"reference, every move:   {r['reference_every_move_us']:9.1f} us/position  "
            f"{r['reference_positions_per_s']:10.1f} positions/s  ({r['reference_positions']} positions)",
            f"ratio reference/engine:  {r['speedup_value_vs_reference']:9.0f}x (value)  "
            f"{r['speedup_every_move_vs_reference']:.0f}x (every move)",
            f"values agree: {r['values_agree']}",
        ]
    )


def main() -> None:
    command(__doc__, run, report, positions=1000, table_bits=14)


if __name__ == "__main__":
    main()
