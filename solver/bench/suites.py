"""The standard benchmark suites, run from the installed package (``brisque bench``).

Their positions ship with the package (``positions/``, seeded positions written once), so
the same suite runs on any machine.  The longer research suites behind BENCHMARKS.md are the
lab's, beside the package in a checkout (``python -m benchmarks.research``).  Each suite gives its figures; the run ends, as a chess
engine's bench does, with a *signature*: the total node count of the exact solves of the
fixed suites (final phase and deep search), with fixed tables.  The search is
deterministic, so a change that alters it changes the signature on any machine, while a
change that only makes it faster does not.

>>> r = run(["final-phase", "deep"], quick=True)
>>> r["suites"][0]["name"], r["suites"][0]["positions"], r["signature"] > 0
('final-phase', 100, True)
"""

from __future__ import annotations

import math
import statistics
import time
from importlib import resources
from typing import Any

from solver.bench.machine import machine
from solver.errors import ArgumentError
from solver.model.ranges import short_value

SUITES = ("final-phase", "deep", "sampling", "batch", "chance")
SIGNED = ("final-phase", "deep")  # the suites whose nodes make the signature
TABLE_BITS = 20  # every exact solve of the suites: the same table on every machine
DEEP_LEVELS = (2, 3, 4, 5)  # talon tricks left
CHANCE_LEVELS = (2, 3)  # talon tricks left: positions/chance-k2.txt, chance-k3.txt


def positions(name: str) -> list[str]:
    """The BPNs of a shipped position file (``final-phase``, ``deep-k3``, ``sampling``...)."""
    text = resources.files("solver.bench").joinpath(f"positions/{name}.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def final_phase(quick: bool) -> dict[str, Any]:
    """Every move's value of Brisque positions at the start of the final phase (6 cards
    each), one native batch, a fresh table."""
    from solver.engine import Solver
    from solver.engine.seam import engine_root
    from solver.model.position import Position
    from solver.model.rules import Rules

    bpns = positions("final-phase")[: 100 if quick else None]
    roots = [engine_root(Position(b)) for b in bpns]
    solver = Solver(Rules(), TABLE_BITS)
    t0 = time.perf_counter()
    _, nodes = solver.engine.solve_batch(roots, every_move=True)
    seconds = time.perf_counter() - t0
    return {
        "name": "final-phase",
        "positions": len(bpns),
        "us_per_position": round(seconds / len(bpns) * 1e6, 2),
        "nodes": sum(nodes),
        "seconds": round(seconds, 4),
    }


def deep(quick: bool) -> dict[str, Any]:
    """The exact value of Brisque positions with 2 to 5 talon tricks left (talon order
    known), each with a fresh table; the median time by level."""
    from solver.engine import Solver
    from solver.model.position import Position
    from solver.model.rules import Rules

    levels = DEEP_LEVELS[:2] if quick else DEEP_LEVELS
    by_level: dict[str, Any] = {}
    total_nodes, total_seconds, count = 0, 0.0, 0
    for k in levels:
        times, nodes = [], 0
        for bpn in positions(f"deep-k{k}")[: 5 if quick else None]:
            solver = Solver(Rules(), TABLE_BITS)
            t0 = time.perf_counter()
            a = solver.solve(Position(bpn), every_move=False, pv=False)
            times.append(time.perf_counter() - t0)
            nodes += a.nodes
        by_level[str(k)] = {
            "positions": len(times),
            "median_ms": round(statistics.median(times) * 1e3, 2),
            "nodes": nodes,
        }
        total_nodes += nodes
        total_seconds += sum(times)
        count += len(times)
    return {
        "name": "deep",
        "positions": count,
        "levels": by_level,
        "nodes": total_nodes,
        "seconds": round(total_seconds, 4),
    }


def sampling(quick: bool) -> dict[str, Any]:
    """A sampled analysis (PIMC, seed 7) of Brisque views at tricks 5 and 9, one process."""
    from solver.analysis.sampling import SampledAnalysis, analyse

    worlds = 20 if quick else 100
    views = positions("sampling")[: 2 if quick else None]
    t0 = time.perf_counter()
    solved = 0
    for v in views:
        a = analyse(v, worlds=worlds, seed=7)
        solved += a.worlds if isinstance(a, SampledAnalysis) else 1
    seconds = time.perf_counter() - t0
    return {
        "name": "sampling",
        "positions": len(views),
        "worlds": solved,
        "worlds_per_s": round(solved / seconds, 1),
        "seconds": round(seconds, 4),
    }


def batch(quick: bool) -> dict[str, Any]:
    """The batch path as ``brisque solve -`` runs it, in this process: each BPN parsed and
    checked, every move solved, one JSON line made (:func:`solver.analysis.batch_solve.solve_line`)."""
    from solver.analysis.batch_solve import solve_line

    bpns = positions("final-phase")[: 100 if quick else None]
    t0 = time.perf_counter()
    size = 0
    for bpn in bpns:
        size += len(solve_line(bpn)[0])
    seconds = time.perf_counter() - t0
    return {
        "name": "batch",
        "positions": len(bpns),
        "us_per_position": round(seconds / len(bpns) * 1e6, 2),
        "bytes": size,
        "seconds": round(seconds, 4),
    }


def _every_move(position: str, engine: Any) -> tuple[float, int, float, int]:
    """Every root move of ``position`` valued twice by ``engine``, each time from cleared
    tables: double dummy (its talon's order known), then by expectimax (the talon a set,
    every draw by chance).  The seconds and nodes of each."""
    from solver.engine.results import current_margin
    from solver.engine.seam import engine_root
    from solver.model.position import Position

    p = Position(position)
    past = current_margin(p)

    def every_move(value: Any) -> tuple[float, int]:
        engine.clear()
        engine.chance_clear()
        engine.load(engine_root(p))
        n0, t0 = engine.nodes, time.perf_counter()
        for m in engine.root_moves():
            value(m)
        return time.perf_counter() - t0, engine.nodes - n0

    dd = every_move(engine.move_value)
    ev = every_move(lambda m: engine.chance_move(m, past))
    return dd[0], dd[1], ev[0], ev[1]


def chance(quick: bool) -> dict[str, Any]:
    """Every move of Brisque and Briscan positions with 2 and 3 talon tricks left, both hands
    open, valued side by side: the double-dummy search with the talon's order known, and the
    expectimax with every draw a chance event; fresh tables each, and the ratio of their
    times by game and level.  Not signed: its double-dummy half is the deep suite's search."""
    from solver.engine.seam import new_engine
    from solver.model.position import Position

    engines: dict[str, Any] = {}
    sides: list[dict[str, Any]] = []
    dd_total = ev_total = 0.0
    for k in CHANCE_LEVELS:
        by_game: dict[str, list[str]] = {}
        for bpn in positions(f"chance-k{k}"):
            by_game.setdefault(bpn.split(" ", 1)[0], []).append(bpn)
        for game, bpns in by_game.items():
            if game not in engines:
                engines[game] = new_engine(Position(bpns[0]).rules, TABLE_BITS)
            runs = [_every_move(b, engines[game]) for b in bpns[: (10 if k == 2 else 2) if quick else None]]
            dd, ev = sum(r[0] for r in runs), sum(r[2] for r in runs)
            dd_total, ev_total = dd_total + dd, ev_total + ev
            sides.append(
                {
                    "game": game,
                    "talon_tricks_left": k,
                    "positions": len(runs),
                    "double_dummy_ms": round(dd / len(runs) * 1e3, 2),
                    "expectimax_ms": round(ev / len(runs) * 1e3, 2),
                    "ratio": round(ev / dd, 1),
                    "double_dummy_nodes": sum(r[1] for r in runs),
                    "expectimax_nodes": sum(r[3] for r in runs),
                }
            )
    return {
        "name": "chance",
        "positions": sum(r["positions"] for r in sides),
        "double_dummy_s": round(dd_total, 4),
        "expectimax_s": round(ev_total, 4),
        "ratio": round(ev_total / dd_total, 1),
        "nodes": sum(r["expectimax_nodes"] for r in sides),
        "seconds": round(dd_total + ev_total, 4),
        "sides": sides,
    }


def side_label(side: dict[str, Any]) -> str:
    """The game and level of a row of the chance suite's ``sides``."""
    return f"{side['game']}, {side['talon_tricks_left']} talon tricks left"


def side_figures(side: dict[str, Any]) -> str:
    """A row of the chance suite's ``sides`` in words: both searches side by side.

    >>> side_figures({"game": "brisque", "talon_tricks_left": 2, "positions": 40, "double_dummy_ms": 1.5,
    ...               "expectimax_ms": 30.0, "ratio": 20.0, "double_dummy_nodes": 9, "expectimax_nodes": 99})
    'every move, mean ms a position: double dummy 1.5, expectimax 30.0 (20.0x); nodes 9 and 99'
    """
    return (
        f"every move, mean ms a position: double dummy {side['double_dummy_ms']}, expectimax "
        f"{side['expectimax_ms']} ({side['ratio']}x); nodes {side['double_dummy_nodes']} and {side['expectimax_nodes']}"
    )


RUNNERS = {"final-phase": final_phase, "deep": deep, "sampling": sampling, "batch": batch, "chance": chance}


def run(names: list[str] | None = None, *, quick: bool = False) -> dict[str, Any]:
    """Run the named suites (the standard ones by default); the machine, each suite's
    figures, and the signature (None when no signed suite ran).  The research suites are
    the lab's: ``python -m benchmarks.research`` from a checkout."""
    chosen: list[str] = []
    for n in names or SUITES:
        if n not in RUNNERS:
            raise ArgumentError(f"no benchmark suite {n!r}: expected one of {', '.join(SUITES)}")
        if n not in chosen:
            chosen.append(n)
    results = [RUNNERS[n](quick) for n in chosen]
    # the signature of the whole signed suite only (a quick run has a signature of its own)
    whole = all(n in chosen for n in SIGNED)
    return {
        "machine": machine(),
        "quick": quick,
        "suites": results,
        "signature": sum(r["nodes"] for r in results if r["name"] in SIGNED) if whole else None,
    }


def check_comparable(old: dict[str, Any], quick: bool) -> None:
    """Refuse a saved run ``old`` that a run with ``quick`` cannot be compared with, before
    that run starts (so that a whole run is not spent on a comparison refused after it)."""
    if bool(old.get("quick")) != bool(quick):
        raise ArgumentError("a quick run and a whole one do not compare: run both the same way")


FIGURES = ("us_per_position", "seconds", "worlds_per_s", "nodes", "median_s", "engine_value_us")
"""The figures of a suite that ``--compare`` sets beside a saved run's."""


def _figure(value: Any) -> bool:
    """Whether ``value`` is a figure a ratio can be made of (0 is a figure, but no ratio)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0


def check_saved(old: dict[str, Any]) -> None:
    """Refuse a saved run whose suites are not what ``brisque bench --json`` writes: an entry
    that is no object, or has no name, or a figure (:data:`FIGURES`) that is not a number 0
    or more (a string, a bool, NaN, a negative time): ArgumentError naming the entry.  A
    ratio made of such a figure (-28.5, nan) would mean nothing.

    >>> check_saved({"suites": [{"name": "batch", "seconds": 0.5}, {"name": "deep", "nodes": -3}]})
    Traceback (most recent call last):
    solver.errors.ArgumentError: suites[1] ('deep'): nodes -3: expected a number 0 or more
    """
    suites = old.get("suites")
    if not isinstance(suites, list):
        raise ArgumentError(f"suites {short_value(suites)}: expected a list of suites")
    for i, r in enumerate(suites):
        if not isinstance(r, dict):
            raise ArgumentError(
                f"suites[{i}] is {short_value(r)}: expected an object with a suite's name and figures"
            )
        name = r.get("name")
        if not isinstance(name, str):
            raise ArgumentError(f"suites[{i}] has name {short_value(name)}: expected a suite's name (text)")
        for key in FIGURES:
            v = r.get(key)
            if key in r and not (
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0
            ):
                raise ArgumentError(
                    f"suites[{i}] ({name!r}): {key} {short_value(v)}: expected a number 0 or more"
                )


def not_compared(new: dict[str, Any], old: dict[str, Any]) -> list[str]:
    """The suites of ``new`` that the saved run ``old`` does not hold (nothing to compare).

    >>> not_compared({"suites": [{"name": "batch"}, {"name": "deep"}]}, {"suites": [{"name": "deep"}]})
    ['batch']
    """
    saved = {r.get("name") for r in old.get("suites", []) if isinstance(r, dict)}
    return [r["name"] for r in new["suites"] if r["name"] not in saved]


def compare(new: dict[str, Any], old: dict[str, Any]) -> list[dict[str, Any]]:
    """Each figure of ``new`` beside the same one of a saved run ``old``, as a ratio (new
    over old; for times below 1 is faster).  A saved run with a malformed entry is refused
    (:func:`check_saved`); a figure of 0 makes no ratio and is left out.

    >>> compare({"quick": True, "suites": [{"name": "batch", "seconds": 2.0, "nodes": 5}]},
    ...         {"quick": True, "suites": [{"name": "batch", "seconds": 1.0, "nodes": 0}]})
    [{'suite': 'batch', 'figure': 'seconds', 'new': 2.0, 'old': 1.0, 'ratio': 2.0}]
    """
    check_saved(old)
    before = {r["name"]: r for r in old["suites"]}
    check_comparable(old, bool(new.get("quick")))
    rows = []
    for r in new["suites"]:
        o = before.get(r["name"])
        if o is None:
            continue
        for key in FIGURES:
            if key in r and _figure(r[key]) and _figure(o.get(key)):
                rows.append(
                    {
                        "suite": r["name"],
                        "figure": key,
                        "new": r[key],
                        "old": o[key],
                        "ratio": round(r[key] / o[key], 3),
                    }
                )
    return rows


def figures(suite: dict[str, Any], skip: tuple[str, ...] = ("positions",)) -> str:
    """A suite's own figures as ``key value, ...``: the scalars, but for its name, its
    machine and the keys ``skip``.

    >>> figures({"name": "batch", "positions": 2, "seconds": 0.1, "levels": {}})
    'seconds 0.1'
    """
    return ", ".join(
        f"{k} {v}"
        for k, v in suite.items()
        if k not in ("name", "machine", *skip) and not isinstance(v, (dict, list))
    )


def markdown(result: dict[str, Any]) -> str:
    """A run's figures as the Markdown table of BENCHMARKS.md (``benchmarks/run_all.py``
    writes its section with it): a row a suite (and a deep level), then the signature.

    >>> print(markdown({"machine": "M", "quick": True, "signature": None, "suites": [
    ...     {"name": "batch", "positions": 2, "us_per_position": 3.5, "bytes": 9, "seconds": 0.1}]}))
    Machine: M (quick run).
    <BLANKLINE>
    | suite | positions | figures |
    |---|---:|---|
    | batch | 2 | us_per_position 3.5, bytes 9, seconds 0.1 |
    """
    lines = [
        f"Machine: {result['machine']}{' (quick run)' if result.get('quick') else ''}.",
        "",
        "| suite | positions | figures |",
        "|---|---:|---|",
    ]
    for r in result["suites"]:
        lines.append(f"| {r['name']} | {r.get('positions', '')} | {figures(r)} |")
        for k, level in r.get("levels", {}).items():
            lines.append(
                f"| {r['name']}, {k} talon tricks left | {level['positions']} | "
                f"median_ms {level['median_ms']}, nodes {level['nodes']} |"
            )
        for side in r.get("sides", []):
            lines.append(f"| {r['name']}, {side_label(side)} | {side['positions']} | {side_figures(side)} |")
    if result.get("signature") is not None:
        lines += ["", f"Signature: {result['signature']}."]
    return "\n".join(lines)


__all__ = [
    "FIGURES",
    "SIGNED",
    "SUITES",
    "check_saved",
    "compare",
    "figures",
    "machine",
    "markdown",
    "not_compared",
    "positions",
    "run",
    "side_figures",
    "side_label",
]
