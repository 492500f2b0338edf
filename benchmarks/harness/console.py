"""A script's command line and what it prints: the parser that shows the module's docstring
as its ``--help``, a result printed as JSON or as text, and the fixed-width text tables.

>>> rows = [{"k": 1, "ms": 0.5}, {"k": 10, "ms": 12.25}]
>>> print("\\n".join(text_table([Column("k", ">3"), Column("median ms", ">10.2f", "ms")], rows)))
  k  median ms
  1       0.50
 10      12.25
>>> parser("Measures a thing.\\n\\nRun:  python -m benchmarks.x").description.splitlines()[0]
'Measures a thing.'
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


def parser(doc: str | None) -> argparse.ArgumentParser:
    """The parser of a script whose ``--help`` is its module docstring ``doc``, as written."""
    return argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)


def emit(result: Any, text: Callable[[Any], str], as_json: bool) -> None:
    """Print ``result`` as one line of JSON (``--json``) or as ``text(result)``."""
    print(json.dumps(result) if as_json else text(result))


def command(
    doc: str | None,
    run: Callable[..., Any],
    text: Callable[[Any], str],
    argv: Sequence[str] | None = None,
    **defaults: float,
) -> None:
    """The whole command line (``argv``, the process's by default) of a script that measures
    ``run(**options)`` and prints it: an option a keyword of ``defaults`` (``table_bits=14``:
    ``--table-bits``, an int, 14 by default), and ``--json``.

    >>> twice = lambda deals, worlds: deals * worlds
    >>> command("Multiplies.", twice, lambda n: f"{n} worlds", ["--deals", "3"], deals=5, worlds=2)
    6 worlds
    """
    ap = parser(doc)
    for name, default in defaults.items():
        ap.add_argument("--" + name.replace("_", "-"), type=type(default), default=default)
    ap.add_argument("--json", action="store_true", help="the result as one line of JSON")
    options = vars(ap.parse_args(argv))
    as_json = options.pop("json")
    emit(run(**options), text, as_json)


@dataclass(frozen=True)
class Column:
    """A column of a text table: its title, the format spec of its cells (``">11.2f"``: the
    title takes its alignment and width), and the row's key, or a function of the row (the
    title by default)."""

    title: str
    spec: str = ""
    value: str | Callable[[Any], Any] | None = None

    def cell(self, row: Any) -> str:
        v = self.value(row) if callable(self.value) else row[self.value or self.title]
        return format(v, self.spec)

    def head(self) -> str:
        found = re.match(r"[<>^]?\d*", self.spec)
        return format(self.title, found.group(0) if found else "")


def text_table(columns: Sequence[Column], rows: Sequence[Any], sep: str = " ") -> list[str]:
    """The lines of a fixed-width table: the titles, then a line a row."""
    return [sep.join(c.head() for c in columns)] + [sep.join(c.cell(r) for c in columns) for r in rows]
