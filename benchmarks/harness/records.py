"""The reader of deal records (JSON Lines, as ``brisque match --records`` and the lab's
matches write them); their deal pairs are :mod:`benchmarks.harness.matches`'.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "deals.jsonl"
>>> _ = path.write_text('{"pair": 0, "first_at": "a"}\\ncut sho\\n{"pair": 0, "first_at": "b"}\\n')
>>> [r["first_at"] for r in read_records(path, warn=False)]
['a', 'b']
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def read_records(path: Path | str, warn: bool = True) -> list[dict[str, Any]]:
    """The records of a JSON Lines file; a line that is no JSON (a run cut short mid-line)
    is skipped, said on standard error with its line number when ``warn``."""
    path = Path(path)
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            if warn:
                print(f"{path}:{n}: not a JSON record, skipped", file=sys.stderr)
    return out
