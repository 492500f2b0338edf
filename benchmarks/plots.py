"""The plots of the benchmark report, drawn with matplotlib (Agg backend, no display needed).

matplotlib is the optional extra ``bench`` (``pip install '.[bench]'``); it is imported only
when a plot is drawn, and :func:`require_matplotlib` says how to install it when it is missing.

Used by ``python -m benchmarks.run_all`` (run from the repository's root).
"""

from __future__ import annotations

from typing import Any


def require_matplotlib() -> Any:
    """``matplotlib.pyplot`` on the Agg backend, or SystemExit saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise SystemExit(
            "the benchmark plots need matplotlib, the optional extra 'bench': "
            "pip install '.[bench]'  (or: pip install 'matplotlib>=3.7')"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def deep_plot(deep: dict[str, Any], path: str) -> None:
    """Median milliseconds per solve by talon tricks left, one line per configuration of
    ``bench_deep.CONFIGS`` (``deep`` as run_all keeps it: ``{"configs": {name: rows}, ...}``).

    A median that is the CPU cap (most solves hit it) is only a lower bound: it is drawn
    with an open marker.
    """
    plt = require_matplotlib()
    fig, ax = plt.subplots(figsize=(9, 5.6), dpi=100)
    colors = plt.get_cmap("tab10").colors
    markers = "osD^v<>ph"
    capped_any = False
    last = len(deep["configs"]) - 1
    for i, (name, rows) in enumerate(deep["configs"].items()):
        color, marker = colors[i % len(colors)], markers[i % len(markers)]
        if i == last and i:  # every enhancement, the engine's default: in black
            color, name = "black", f"{name} (every enhancement)"
        ks = [r["k"] for r in rows]
        ms = [max(r["median_ms"], 1e-3) for r in rows]
        ax.plot(
            ks,
            ms,
            color=color,
            marker=marker,
            markersize=5,
            linewidth=2.4 if i == last else 1.5,
            label=name,
            zorder=3 if i == last else 2,
        )
        capped = [(k, m) for r, k, m in zip(rows, ks, ms) if r["unfinished"] * 2 > r["positions"]]
        if capped:
            capped_any = True
            ax.plot(
                [k for k, _ in capped],
                [m for _, m in capped],
                linestyle="none",
                marker=marker,
                markersize=9,
                markerfacecolor="white",
                markeredgecolor=color,
                markeredgewidth=1.6,
                zorder=4,
            )
    if capped_any:
        ax.plot(
            [],
            [],
            linestyle="none",
            marker="o",
            markersize=9,
            markerfacecolor="white",
            markeredgecolor="0.3",
            label="median at the CPU cap (a lower bound)",
        )
    ax.set_yscale("log")
    ax.set_xlabel("talon tricks left, k (k = 10: the whole deal from trick 1)")
    ax.set_ylabel("median time per solve (ms, log scale)")
    n = deep.get("positions")
    ax.set_title(
        "Deep double-dummy search, Brisque: each enhancement added to the one above"
        + (f"\n{n} seeded positions per k, fresh table per solve, value only" if n else ""),
        fontsize=11,
    )
    all_k = sorted({r["k"] for rows in deep["configs"].values() for r in rows})
    ax.set_xticks(all_k)
    ax.grid(True, which="major", color="0.85")
    ax.grid(True, which="minor", axis="y", color="0.93", linewidth=0.6)
    ax.legend(loc="lower right", fontsize=8.5, frameon=True, framealpha=0.9)
    fig.tight_layout()
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)


__all__ = ["deep_plot", "require_matplotlib"]
