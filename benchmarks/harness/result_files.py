"""Result files in ``benchmarks/results/``: JSON objects and JSON Lines, with their meta.

A result written by :func:`write` carries where and when it was measured (``machine``,
``date``), so that the report can say so beside its table.

>>> import tempfile
>>> d = tempfile.mkdtemp()
>>> path = write("x.json", {"rows": [1]}, directory=d, date="2026-01-02")
>>> r = read("x.json", directory=d)
>>> r["rows"], r["date"], "cores" in r["machine"]
([1], '2026-01-02', True)
>>> _ = write_rows("x.jsonl", [{"a": 1}, {"a": 2}], directory=d)
>>> read_rows("x.jsonl", directory=d)
[{'a': 1}, {'a': 2}]
>>> exists("x.json", d), exists("y.json", d), names("x.*", d)
(True, False, ['x.json', 'x.jsonl'])
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from solver.bench.machine import machine

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root, where BENCHMARKS.md is written."""
RESULTS = ROOT / "benchmarks" / "results"
"""The lab's result files (the report is written from those kept in git)."""


def path(name: str, directory: Path | str | None = None) -> Path:
    """The path of the result file ``name`` (in ``directory``, default :data:`RESULTS`)."""
    return Path(directory or RESULTS) / name


def exists(name: str, directory: Path | str | None = None) -> bool:
    """Whether the result file ``name`` is there (some are written only by a run of their own)."""
    return path(name, directory).exists()


def names(pattern: str, directory: Path | str | None = None) -> list[str]:
    """The names of the result files that match the glob ``pattern``, sorted."""
    return sorted(p.name for p in Path(directory or RESULTS).glob(pattern))


def today() -> str:
    return time.strftime("%Y-%m-%d")


def meta(date: str | None = None) -> dict[str, str]:
    """Where and when: this machine's description and the date (today by default)."""
    return {"machine": machine(), "date": date or today()}


def read(name: str, directory: Path | str | None = None) -> Any:
    """A JSON result file."""
    with open(path(name, directory), encoding="utf-8") as f:
        return json.load(f)


def read_rows(name: str, directory: Path | str | None = None) -> list[dict[str, Any]]:
    """A JSON Lines result file (blank lines skipped)."""
    with open(path(name, directory), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write(
    name: str,
    data: dict[str, Any],
    directory: Path | str | None = None,
    date: str | None = None,
    stamp: bool = True,
) -> Path:
    """Write ``data`` (with its :func:`meta` when ``stamp``, its own keys first) as ``name``."""
    out = path(name, directory)
    out.parent.mkdir(parents=True, exist_ok=True)
    body = {**meta(date), **data} if stamp else data
    out.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    return out


def write_rows(name: str, rows: Iterable[dict[str, Any]], directory: Path | str | None = None) -> Path:
    """Write ``rows`` as the JSON Lines file ``name``, a row a line."""
    out = path(name, directory)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    return out
