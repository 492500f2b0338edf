"""Type stub of the compiled module solver.native.bpnline (src_cython/bpnline.pyx): the batch
path's native lane, BPN lines to JSON answers (solver.engine.batchline builds and drives it).
"""

from typing import Any

from solver.native.engine import Engine

class LineLane:
    def __init__(self, spec: dict[str, Any]) -> None: ...
    def answer(self, engine: Engine, line: str) -> str | None: ...
