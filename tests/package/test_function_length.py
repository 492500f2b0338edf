"""No function in solver/ is longer than MAX_LINES lines unless a comment says why.

A function's length runs from its ``def`` line to its last line, docstring included
(decorators excluded: a click command's options are declarations, not code).  A longer
function is allowed when a comment inside it carries the marker ``(long: REASON)``, for
example a click command whose signature and ``--help`` text are long while its code is short:

    # (long: a signature of many options and a --help text with examples; the code is short)

The search loops of the compiled engine live in ``src_cython/`` and are not checked here.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import solver

PACKAGE_DIR = Path(solver.__file__).resolve().parent
MAX_LINES = 80
MARKER = re.compile(r"\(long: [^)]+\)")


def long_functions(source: str, max_lines: int = MAX_LINES) -> list[tuple[str, int, int]]:
    """(name, first line, length) of each function of ``source`` longer than ``max_lines``
    whose lines hold no comment with the marker ``(long: REASON)``.

    >>> body = "".join(f"    x{i} = {i}\\n" for i in range(80))
    >>> long_functions("def f():\\n" + body)
    [('f', 1, 81)]
    >>> long_functions("def f():\\n    # (long: a table of cases)\\n" + body)
    []
    """
    marked = {
        tok.start[0]
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT and MARKER.search(tok.string)
    }
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            end = node.end_lineno or node.lineno
            length = end - node.lineno + 1
            if length > max_lines and not any(node.lineno <= line <= end for line in marked):
                found.append((node.name, node.lineno, length))
    return found


def test_the_check_finds_a_long_function_and_honours_the_marker() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES))
    assert long_functions("def f():\n" + body) == [("f", 1, MAX_LINES + 1)]
    assert long_functions("def f():\n" + body[: -len("    x79 = 79\n")]) == []
    assert long_functions("def f():\n    # (long: a table of cases)\n" + body) == []
    # a marker must give a reason, and a string is no comment
    assert long_functions("def f():\n    # (long: )\n" + body) == [("f", 1, MAX_LINES + 2)]
    assert long_functions('def f():\n    "(long: no)"\n' + body) == [("f", 1, MAX_LINES + 2)]


def test_no_function_in_the_package_is_long_without_a_reason() -> None:
    found = [
        f"{path.relative_to(PACKAGE_DIR.parent)}:{line} {name} ({length} lines)"
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
        for name, line, length in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        f"functions over {MAX_LINES} lines (split them, or say why in a comment '(long: REASON)'):\n"
        + "\n".join(found)
    )
