"""How soon Ctrl-C ends a long exact solve: the delay from SIGINT to the process's exit.

For each seeded whole deal (Briscan by default: its exact solves take longest), a
subprocess runs ``brisque solve BPN`` without a budget; after ``--after`` seconds of its
run it is sent SIGINT, and the time until it exits is measured, with its exit status
(130 expected).  A solve that finishes before the signal is reported as such and left
out.  The engine looks for a pending signal every SIGNAL_INTERVAL nodes
(src_cython/context.pxd); what that look costs in search speed is measured by
``compare_builds.py`` against a build without it.

Run:  python -m benchmarks.bench_interrupt [--game briscan] [--seeds 1 2 3] [--after 1.0] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import time


def _brisque() -> list[str]:
    """The command line of the CLI of the build this interpreter imports."""
    exe = shutil.which("brisque")
    return [exe] if exe else [sys.executable, "-m", "solver.cli"]


def measure(bpn: str, after: float) -> dict[str, object]:
    """Interrupt ``brisque solve BPN`` after ``after`` seconds; its delay to exit and status."""
    proc = subprocess.Popen(
        [*_brisque(), "solve", bpn], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    time.sleep(after)
    if proc.poll() is not None:
        return {"bpn": bpn, "finished_first": True}
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return {"bpn": bpn, "finished_first": False, "delay_ms": None, "status": "killed after 60 s"}
    delay = time.perf_counter() - sent
    stderr = proc.stderr.read() if proc.stderr else ""
    return {
        "bpn": bpn,
        "finished_first": False,
        "delay_ms": round(delay * 1000, 1),
        "status": proc.returncode,
        "traceback": "Traceback" in stderr,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="briscan")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--after", type=float, default=1.0, help="seconds of search before SIGINT")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from solver import deal

    rows = [measure(deal(seed, args.game).bpn(), args.after) | {"seed": seed} for seed in args.seeds]
    delays = [d for r in rows if isinstance(d := r.get("delay_ms"), float)]
    summary = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "game": args.game,
        "after_s": args.after,
        "interrupted": len(delays),
        "finished_first": sum(1 for r in rows if r.get("finished_first")),
        "median_delay_ms": round(statistics.median(delays), 1) if delays else None,
        "max_delay_ms": max(delays) if delays else None,
        "statuses": sorted({str(r.get("status")) for r in rows if not r.get("finished_first")}),
        "tracebacks": sum(1 for r in rows if r.get("traceback")),
        "rows": rows,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for r in rows:
            print(r)
        print({k: v for k, v in summary.items() if k != "rows"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
