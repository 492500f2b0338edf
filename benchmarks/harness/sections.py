"""The report's sections: Markdown lines built from result files and their meta.

Every table of BENCHMARKS.md says its machine, its date and the command that reproduces it;
``report-figures.json`` holds, for each result file (or pattern) under ``runs``, where and
how it was measured.  :meth:`Sections.section` is the shape most sections share: a heading,
then the source line of a run.

>>> s = Sections({"machines": {"AMD": "AMD EPYC, 2 cores"},
...               "runs": {"x.json": {"machine": "AMD", "date": "2026-12-01", "command": "python -m benchmarks.x"}}})
>>> _ = s.section("X", "x.json", "x.json")
>>> s.table(["a", "b"], [[1, 2]])
>>> print("\\n".join(s.lines))
## X
<BLANKLINE>
*Machine AMD, 2026-12-01: `python -m benchmarks.x`; results: `benchmarks/results/x.json`.*
<BLANKLINE>
| a | b |
|---|---:|
| 1 | 2 |
<BLANKLINE>
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.harness import result_files


class Sections:
    """The report's lines, added section by section; ``meta`` is ``report-figures.json``
    (its ``machines``: short name to description; its ``runs``: file to machine, date,
    command) and ``directory`` the result files."""

    def __init__(self, meta: dict[str, Any], directory: Path | str | None = None) -> None:
        self.dir = Path(directory or result_files.RESULTS)
        self.meta = meta
        self.machines: dict[str, str] = meta["machines"]
        self.lines: list[str] = []

    def path(self, name: str) -> str:
        """The path of the result file ``name``."""
        return str(self.dir / name)

    def load(self, name: str) -> Any:
        """The JSON result file ``name``."""
        return result_files.read(name, self.dir)

    def rows(self, name: str) -> list[dict[str, Any]]:
        """The JSON Lines result file ``name``."""
        return result_files.read_rows(name, self.dir)

    def exists(self, name: str) -> bool:
        """Whether the result file ``name`` is there."""
        return result_files.exists(name, self.dir)

    def names(self, pattern: str) -> list[str]:
        """The result files that match the glob ``pattern``, sorted by name."""
        return result_files.names(pattern, self.dir)

    def machine(self, m: str) -> str:
        """The short name of the machine described by ``m`` (``m`` itself when unknown)."""
        return next((k for k, v in self.machines.items() if v == m), m)

    def add(self, *lines: str) -> None:
        self.lines += lines

    def source(self, machine: str, date: str, command: str, files: str = "") -> None:
        """The line that says where, when and how a table was measured, and its files."""
        where = f"; results: `benchmarks/results/{files}`" if files else ""
        self.add(f"*Machine {self.machine(machine)}, {date}: `{command}`{where}.*", "")

    def run_source(self, run: str, files: str, machine: str | None = None) -> dict[str, Any]:
        """The source line of the run ``run`` of the meta (``machine`` for its own); its meta."""
        m: dict[str, Any] = self.meta["runs"][run]
        self.source(machine or self.machines[m["machine"]], m["date"], m["command"], files)
        return m

    def section(self, title: str, run: str, files: str, machine: str | None = None) -> dict[str, Any]:
        """A section's heading and the source line of its run (:meth:`run_source`)."""
        self.add(f"## {title}", "")
        return self.run_source(run, files, machine)

    def table(self, columns: list[str], rows: list[list[Any]], left: int = 1) -> None:
        """A Markdown table, its first ``left`` columns aligned left and the others right."""
        self.add("| " + " | ".join(columns) + " |")
        self.add("|" + "|".join("---" if i < left else "---:" for i in range(len(columns))) + "|")
        for r in rows:
            self.add("| " + " | ".join(str(c) for c in r) + " |")
        self.add("")
