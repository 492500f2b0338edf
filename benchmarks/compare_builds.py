"""Two builds of the solver side by side on the same positions.

Measured for each build:

* deep search: the time of each value-only solve, with a fresh table per solve (table
  2^22, no CPU cap), of Brisque positions with k talon tricks left (k = 5 and k = 7 by
  default), the positions of ``bench_deep.positions_with_talon_left`` (random play from
  seeded deals);
* final phase: the batch value call on the positions of ``bench_final_phase`` (1000 Brisque
  positions at the start of the final phase, a fresh table of 2^14 per call); the
  conversion of the positions to engine roots is timed together with the batch call, so
  both builds are timed on the same work whatever their root format (the two parts are
  also given apart).

The positions are generated once, as BPN strings, by the build this script imports.  Each
build runs in a subprocess of its own (``PYTHONPATH=DIR``, with the import hook of an
editable install removed and every ``solver`` module it loads checked to come from DIR),
a small runner that knows both engine APIs (``solver.engine.seam`` of the layered
package, ``solver.search`` before it).  Both subprocesses stay up for the whole comparison
and take turns, one measurement each: baseline then candidate, the order swapped every
round (A B, B A, ...), so that a slow spell of the machine falls on both builds alike.
Reported per build: the median over the positions of each solve's median over the rounds
(and its fastest, less sensitive to a loaded machine), and the median of the paired
candidate/baseline ratios, a pair being the same solve measured back to back.  Values and
node counts must be the same in every round and in both builds; any difference is reported
(and the exit status is 1).

Run:  python -m benchmarks.compare_builds --baseline /tmp/baseline --candidate . [--rounds 3]
          [--rounds-big-k N] [--positions 10] [--final-positions 1000] [--final-repeats 10] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import IO, Any

HERE = os.path.dirname(os.path.abspath(__file__))
BUILDS = ("baseline", "candidate")


# --- the runner: runs inside the build under test, imports nothing but that build ---------


def _api() -> tuple[ModuleType, Any, Any, Any, Any, str]:
    """(solver, Position, Rules, new_engine, root, the API's name) of the build on sys.path.

    An editable install's import hook would resolve a module missing from the build (such
    as ``solver.engine`` in a build older than it) from the installed tree: it is removed.
    """
    sys.meta_path[:] = [
        f
        for f in sys.meta_path
        if "__editable__" not in getattr(f, "__module__", "")
        and "__editable__" not in getattr(type(f), "__module__", "")
    ]
    import solver
    from solver import Position, Rules

    # the engine's API by the build's age, newest first: the seam module, the layered package
    # before the seam module got its name, the flat package before the layers (imported by
    # name: the older modules are not in this tree)
    for api in ("solver.engine.seam", "solver.engine.native"):
        try:
            module = importlib.import_module(api)
        except ImportError:
            continue
        return solver, Position, Rules, module.new_engine, module.engine_root, api
    module = importlib.import_module("solver.search")
    return solver, Position, Rules, module.new_engine, module.engine_state, "solver.search"


def _cpu_busy() -> float:
    """Seconds of CPU busy on all cores since boot (/proc/stat), 0 where unknown."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq = (v + [0] * 7)[:7]
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def runner() -> None:
    """Serve measurements on stdin/stdout, one JSON line each way: the job first, then
    {"op": "final"}, {"op": "deep", "k": "5", "i": 0}, {"op": "cpu"} or {"op": "quit"}."""
    import gc
    import hashlib
    import resource

    solver, Position, Rules, new_engine, root, api = _api()
    rules = Rules()
    job = json.loads(sys.stdin.readline())

    def parse(bpns: list[str]) -> list[Any]:
        ps = [Position(b) for b in bpns]
        if any(p.bpn() != b for p, b in zip(ps, bpns)) or any(p.rules != rules for p in ps):
            raise SystemExit(f"{solver.__file__}: the BPN of the positions does not round-trip")
        return ps

    final = parse(job["final"])
    deep = {k: parse(v) for k, v in job["deep"].items()}
    deep_engine = new_engine(rules, job["deep_table_bits"])

    def final_batch() -> dict[str, Any]:
        eng = new_engine(rules, job["final_table_bits"])
        gc.collect()
        # (the runner's own clocks, not the harness's: it runs inside the build under test,
        # which may be older than benchmarks/harness, and imports nothing but that build)
        c0, t0 = time.process_time(), time.perf_counter()
        states = [root(p) for p in final]
        t1 = time.perf_counter()
        values, nodes = eng.solve_batch(states)
        t2, c2 = time.perf_counter(), time.process_time()
        digest = hashlib.sha256(json.dumps([list(values), list(nodes)]).encode()).hexdigest()
        return {
            "seconds": t2 - t0,
            "convert_seconds": t1 - t0,
            "cpu_seconds": c2 - c0,
            "positions": len(values),
            "total_nodes": sum(nodes),
            "digest": digest,
        }

    def deep_solve(k: str, i: int) -> dict[str, Any]:
        eng = deep_engine
        eng.clear()
        eng.load(root(deep[k][i]))
        n0 = eng.nodes
        c0, t0 = time.process_time(), time.perf_counter()
        v = eng.value()
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        return {"seconds": dt, "cpu_seconds": dc, "nodes": eng.nodes - n0, "value": v}

    final_batch()  # warm-up, not kept
    modules = sorted(
        {
            file
            for name, m in sys.modules.items()
            if (name == "solver" or name.startswith("solver.")) and (file := getattr(m, "__file__", None))
        }
    )
    reply: dict[str, Any] = {"api": api, "solver_modules": modules}
    while True:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        cmd = json.loads(sys.stdin.readline() or '{"op": "quit"}')
        if cmd["op"] == "quit":
            return
        if cmd["op"] == "final":
            reply = final_batch()
        elif cmd["op"] == "deep":
            reply = deep_solve(cmd["k"], cmd["i"])
        else:
            ru = resource.getrusage(resource.RUSAGE_SELF)
            reply = {"cpu": ru.ru_utime + ru.ru_stime}


# --- the driver --------------------------------------------------------------------------


class Build:
    """One build's runner subprocess."""

    def __init__(self, path: str, job: dict[str, Any]) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BRISQUE_PURE")}
        env["PYTHONPATH"] = path
        self.path = path
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--runner"],
            env=env,
            cwd=path,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None  # (both piped)
        self.stdin: IO[str] = self.proc.stdin
        self.stdout: IO[str] = self.proc.stdout
        self.stdin.write(json.dumps(job) + "\n")
        self.stdin.flush()
        hello = self._read()
        inside = os.path.realpath(path) + os.sep
        outside = [f for f in hello["solver_modules"] if not os.path.realpath(f).startswith(inside)]
        if not hello["solver_modules"] or outside:
            self.close()
            raise SystemExit(f"the run of {path} imported solver modules from elsewhere: {outside}")
        self.api = hello["api"]

    def _read(self) -> dict[str, Any]:
        line = self.stdout.readline()
        if not line:
            raise SystemExit(f"the runner of {self.path} stopped (exit status {self.proc.wait()})")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def ask(self, **cmd: object) -> dict[str, Any]:
        self.stdin.write(json.dumps(cmd) + "\n")
        self.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.stdin.write('{"op": "quit"}\n')
            self.stdin.close()
            self.proc.wait()


def make_job(positions: int, ks: list[int], final_positions: int) -> dict[str, Any]:
    # (here, not at the top: a build's runner runs this file with only its solver to import)
    from benchmarks.harness.positions import positions_with_talon_left, start_of_final_phase
    from solver import Rules

    rules = Rules()
    return {
        "deep": {str(k): [p.bpn() for p in positions_with_talon_left(k, positions, rules)] for k in ks},
        "final": [p.bpn() for p in start_of_final_phase(final_positions, rules)],
        "deep_table_bits": 22,
        "final_table_bits": 14,
    }


def measure(
    builds: dict[str, Build],
    job: dict[str, Any],
    rounds: int,
    big_rounds: int,
    final_repeats: int,
    log: Callable[[str], object] | None = None,
) -> list[dict[str, Any]]:
    """``rounds`` rounds; in each, every measurement is taken for both builds back to back."""
    out = []
    # (not the harness's loop: two builds interleaved, one measurement each in turn, the
    # order swapped every round, with the machine's load over each round; the times
    # themselves are the runners')
    t_start = time.perf_counter()
    for rnd in range(rounds):
        order = BUILDS if rnd % 2 == 0 else BUILDS[::-1]
        busy0, w0 = _cpu_busy(), time.perf_counter()
        cpu0 = {b: builds[b].ask(op="cpu")["cpu"] for b in BUILDS}
        me0 = time.process_time()
        r: dict[str, Any] = {
            "order": list(order),
            "final": {b: [] for b in BUILDS},
            "deep": {k: {b: [] for b in BUILDS} for k in job["deep"] if int(k) < 7 or rnd < big_rounds},
        }
        for _ in range(final_repeats):
            for b in order:
                r["final"][b].append(builds[b].ask(op="final"))
        for k in r["deep"]:
            for i in range(len(job["deep"][k])):
                for b in order:
                    r["deep"][k][b].append(builds[b].ask(op="deep", k=k, i=i))
        cpu1 = {b: builds[b].ask(op="cpu")["cpu"] for b in BUILDS}
        wall = time.perf_counter() - w0
        mine = sum(cpu1[b] - cpu0[b] for b in BUILDS) + time.process_time() - me0
        # the CPU time other processes took during the round, as a share of the machine
        r["others_share"] = max(0.0, _cpu_busy() - busy0 - mine) / (wall * (os.cpu_count() or 1))
        r["loadavg"] = os.getloadavg()[0]
        r["seconds"] = wall
        out.append(r)
        if log:
            log(
                f"round {rnd + 1}/{rounds} ({', '.join(r['deep'])}) done in {wall:.0f} s, "
                f"{time.perf_counter() - t_start:.0f} s in all; others' CPU share {r['others_share']:.1%}"
            )
    return out


def _med(xs: Iterable[float]) -> float:
    return statistics.median(list(xs))


def summarise(rounds: list[dict[str, Any]], ks: list[str]) -> dict[str, Any]:
    """Medians per build, ratios candidate/baseline, and the equality of values and nodes."""
    s: dict[str, Any] = {"deep": {}, "final": {}, "equal": {}}
    for k in ks:
        rs = [r["deep"][k] for r in rounds if k in r["deep"]]
        n = len(rs[0]["baseline"])
        d: dict[str, Any] = {"rounds": len(rs), "positions": n}
        for b in BUILDS:
            per_pos = [_med(r[b][i]["seconds"] for r in rs) for i in range(n)]
            best = [min(r[b][i]["seconds"] for r in rs) for i in range(n)]
            cpu = [_med(r[b][i]["cpu_seconds"] for r in rs) for i in range(n)]
            d[b] = {
                "median_ms": _med(per_pos) * 1e3,
                "total_ms": sum(per_pos) * 1e3,
                "median_best_ms": _med(best) * 1e3,
                "total_best_ms": sum(best) * 1e3,
                "median_cpu_ms": _med(cpu) * 1e3,
                "median_ms_per_round": [_med(x["seconds"] for x in r[b]) * 1e3 for r in rs],
                "median_nodes": _med(x["nodes"] for x in rs[0][b]),
                "total_nodes": sum(x["nodes"] for x in rs[0][b]),
            }
        base, cand = d["baseline"], d["candidate"]
        for key in ("median_ms", "total_ms", "median_best_ms", "total_best_ms", "median_cpu_ms"):
            d["ratio_" + key[:-3]] = cand[key] / base[key]
        d["ratio_paired"] = _med(
            r["candidate"][i]["seconds"] / r["baseline"][i]["seconds"] for r in rs for i in range(n)
        )
        d["ratio_paired_per_round"] = [
            sum(x["seconds"] for x in r["candidate"]) / sum(x["seconds"] for x in r["baseline"]) for r in rs
        ]
        s["deep"][k] = d
        signatures = {tuple((x["nodes"], x["value"]) for x in r[b]) for r in rs for b in BUILDS}
        s["equal"][f"deep k={k}"] = len(signatures) == 1
    f: dict[str, Any] = {}
    for b in BUILDS:
        runs = [x for r in rounds for x in r["final"][b]]
        t = [x["seconds"] for x in runs]
        n = runs[0]["positions"]
        med = _med(t)
        f[b] = {
            "median_ms": med * 1e3,
            "min_ms": min(t) * 1e3,
            "us_per_position": med / n * 1e6,
            "positions_per_s": n / med,
            "median_convert_ms": _med(x["convert_seconds"] for x in runs) * 1e3,
            "median_batch_ms": _med(x["seconds"] - x["convert_seconds"] for x in runs) * 1e3,
            "median_cpu_ms": _med(x["cpu_seconds"] for x in runs) * 1e3,
            "median_ms_per_round": [_med(x["seconds"] for x in r["final"][b]) * 1e3 for r in rounds],
            "nodes_per_position": runs[0]["total_nodes"] / n,
            "positions": n,
            "samples": len(t),
        }
    fb, fc = f["baseline"], f["candidate"]
    for key in ("median_ms", "min_ms", "median_convert_ms", "median_batch_ms", "median_cpu_ms"):
        f["ratio_" + key[:-3]] = fc[key] / fb[key]
    pairs = [(c, a) for r in rounds for a, c in zip(r["final"]["baseline"], r["final"]["candidate"])]
    f["ratio_paired"] = _med(c["seconds"] / a["seconds"] for c, a in pairs)
    f["ratio_paired_batch"] = _med(
        (c["seconds"] - c["convert_seconds"]) / (a["seconds"] - a["convert_seconds"]) for c, a in pairs
    )
    s["final"] = f
    s["equal"]["final phase"] = len({x["digest"] for r in rounds for b in BUILDS for x in r["final"][b]}) == 1
    s["others_share"] = [r["others_share"] for r in rounds]
    s["loadavg"] = [r["loadavg"] for r in rounds]
    return s


def report(s: dict[str, Any], meta: dict[str, Any]) -> str:
    lines = [
        f"Machine: {meta['machine']}",
        f"baseline:  {meta['baseline']} ({meta['baseline_git']}, {meta['baseline_api']})",
        f"candidate: {meta['candidate']} ({meta['candidate_git']}, {meta['candidate_api']})",
        f"{meta['rounds']} rounds, each measurement taken for both builds back to back, "
        f"{meta['seconds']:.0f} s in all",
        "share of the machine's CPU taken by other processes, by round: "
        + " ".join(f"{x:.0%}" for x in s["others_share"]),
        "1-minute load average after each round: " + " ".join(f"{x:.2f}" for x in s["loadavg"]),
        "",
        f"{'':<30} {'baseline':>11} {'candidate':>11} {'cand/base':>10}",
    ]

    def row(name: str, b: float, c: float, ratio: float | None = None, fmt: str = ".2f") -> str:
        return f"  {name:<28} {b:>11{fmt}} {c:>11{fmt}}" + (f" {ratio:>10.3f}" if ratio is not None else "")

    for k, d in s["deep"].items():
        b, c = d["baseline"], d["candidate"]
        lines += [
            f"deep k={k} ({d['positions']} positions, {d['rounds']} rounds)",
            row("median ms", b["median_ms"], c["median_ms"], d["ratio_median"]),
            row("total ms", b["total_ms"], c["total_ms"], d["ratio_total"], ".1f"),
            row(
                "fastest of rounds: median ms",
                b["median_best_ms"],
                c["median_best_ms"],
                d["ratio_median_best"],
            ),
            row(
                "fastest of rounds: total ms",
                b["total_best_ms"],
                c["total_best_ms"],
                d["ratio_total_best"],
                ".1f",
            ),
            row("median CPU ms", b["median_cpu_ms"], c["median_cpu_ms"], d["ratio_median_cpu"]),
            f"  {'paired ratio, median':<28} {'':>11} {'':>11} {d['ratio_paired']:>10.3f}",
            "  total ratio by round: " + " ".join(f"{x:.3f}" for x in d["ratio_paired_per_round"]),
            row("median nodes", b["median_nodes"], c["median_nodes"], fmt=".0f"),
        ]
    f = s["final"]
    b, c = f["baseline"], f["candidate"]
    lines += [
        f"final phase ({b['positions']} positions, {b['samples']} batch calls per build)",
        row("median ms, roots + batch", b["median_ms"], c["median_ms"], f["ratio_median"], ".3f"),
        row(
            "  of which the roots",
            b["median_convert_ms"],
            c["median_convert_ms"],
            f["ratio_median_convert"],
            ".3f",
        ),
        row(
            "  the batch call alone",
            b["median_batch_ms"],
            c["median_batch_ms"],
            f["ratio_median_batch"],
            ".3f",
        ),
        row("fastest ms, roots + batch", b["min_ms"], c["min_ms"], f["ratio_min"], ".3f"),
        row("median CPU ms", b["median_cpu_ms"], c["median_cpu_ms"], f["ratio_median_cpu"], ".3f"),
        f"  {'paired ratio, median':<28} {'':>11} {'':>11} {f['ratio_paired']:>10.3f}",
        f"  {'  batch call alone':<28} {'':>11} {'':>11} {f['ratio_paired_batch']:>10.3f}",
        row("positions/s", b["positions_per_s"], c["positions_per_s"], fmt=".0f"),
        row("nodes per position", b["nodes_per_position"], c["nodes_per_position"], fmt=".1f"),
        "",
        "values and node counts identical in every run: "
        + ", ".join(f"{name} {'yes' if ok else 'NO'}" for name, ok in s["equal"].items()),
    ]
    return "\n".join(lines)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.machine()}"


def _git(build: str) -> str:
    try:
        rev = subprocess.run(
            ["git", "-C", build, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", build, "status", "--porcelain", "--", "solver", "src_cython", "setup.py"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        return (rev or "not a git tree") + (" with uncommitted changes to the build" if dirty else "")
    except OSError:
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument(
        "--baseline", default="/tmp/baseline", help="source tree of the first build (built in place)"
    )
    ap.add_argument("--candidate", default=os.path.dirname(HERE), help="source tree of the second build")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (each measures both builds)")
    ap.add_argument(
        "--rounds-big-k",
        type=int,
        default=None,
        metavar="N",
        help="only the first N rounds include the deep search at k >= 7 (the longest "
        "part); default: every round",
    )
    ap.add_argument("--positions", type=int, default=10, help="deep-search positions per k")
    ap.add_argument("--ks", default="5,7", help="talon tricks left for the deep search ('' for none)")
    ap.add_argument("--final-positions", type=int, default=1000)
    ap.add_argument("--final-repeats", type=int, default=10, help="batch calls per build and round")
    ap.add_argument(
        "--json",
        action="store_true",
        help="print the summary and every measurement as JSON (the report goes to stderr)",
    )
    a = ap.parse_args()
    if a.runner:
        runner()
        return
    ks = [str(int(k)) for k in a.ks.split(",") if k.strip()]  # --ks "": the final phase only
    job = make_job(a.positions, [int(k) for k in ks], a.final_positions)
    paths = {"baseline": os.path.abspath(a.baseline), "candidate": os.path.abspath(a.candidate)}
    t0 = time.perf_counter()
    builds: dict[str, Build] = {}
    try:
        for b in BUILDS:
            builds[b] = Build(paths[b], job)
        rounds = measure(
            builds,
            job,
            a.rounds,
            a.rounds if a.rounds_big_k is None else a.rounds_big_k,
            a.final_repeats,
            log=lambda m: print(m, file=sys.stderr, flush=True),
        )
    finally:
        for build in builds.values():
            build.close()
    s = summarise(rounds, ks)
    meta = {
        "machine": machine(),
        "rounds": a.rounds,
        "positions": a.positions,
        "ks": ks,
        "final_positions": a.final_positions,
        "final_repeats": a.final_repeats,
        "seconds": time.perf_counter() - t0,
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "command": " ".join(sys.argv),
    }
    for b in BUILDS:
        meta[b], meta[b + "_git"], meta[b + "_api"] = paths[b], _git(paths[b]), builds[b].api
    text = report(s, meta)
    if a.json:
        print(text, file=sys.stderr)
        print(json.dumps({"meta": meta, "summary": s, "rounds": rounds}))
    else:
        print(text)
    if not all(s["equal"].values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
