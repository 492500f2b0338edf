"""Another build's answer: a short Python program run in a process of its own whose
``PYTHONPATH`` is a checkout (its ``solver`` is the one imported), from a folder outside every
checkout (``python -c`` puts its folder first on the path: a checkout there would win), its
answer one JSON document on standard output.

>>> import pathlib
>>> root = str(pathlib.Path(__file__).resolve().parents[2])
>>> in_build(root, "import json, sys; print(json.dumps([sys.argv[1], sys.stdin.read()]))", "a", stdin="b")
['a', 'b']
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import Any

AWAY = tempfile.mkdtemp(prefix="brisque-build-")
"""The working folder of every build's process: empty, outside every checkout."""


def in_build(checkout: str, code: str, *args: str, stdin: str = "") -> Any:
    """The JSON answer of ``python -c code args`` run on the checkout ``checkout`` with
    ``stdin`` on its standard input; a SystemExit with its standard error if it fails."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(checkout)}
    done = subprocess.run([sys.executable, "-c", code, *args], input=stdin, capture_output=True, text=True, cwd=AWAY, env=env)  # fmt: skip
    if done.returncode:
        raise SystemExit(f"{checkout}: {done.stderr[-2000:]}")
    return json.loads(done.stdout)
