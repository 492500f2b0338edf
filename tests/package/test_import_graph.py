"""The package's import graph: no cycles, no private names across modules, and the layers.

Every module under solver/ is parsed with ``ast`` (the compiled modules through their
``.pyi`` stubs); every ``import`` counts, at module level, inside a function or under
``if TYPE_CHECKING:`` (a cycle only type checkers follow is still a cycle of the design:
a module names another's class where a protocol, or plain data, would do).  The layers,
from the bottom (docs/architecture.md):

    errors < native < model < formats, engine < analysis < play < cli

* ``solver.errors`` and ``solver.processes`` (the worker processes) import nothing from
  solver; ``solver.native`` only errors;
  ``solver.model`` only errors, native and model; ``solver.formats`` only errors, native,
  model and formats; ``solver.engine`` only errors, native, model and engine;
  ``solver.analysis`` only errors, processes, native, model, formats, engine and analysis;
  ``solver.play`` anything but cli (processes included); nothing imports ``solver.cli`` (a package: the
  group and one module a command, all in the layer cli); ``solver.openspiel``
  (optional: it needs OpenSpiel) anything but cli, and only the command line imports it;
  ``solver.board`` (optional: the browser board) the same, but openspiel; ``solver.cluster``
  (optional: Dask) only errors and processes, and only the command line imports it.
* The top-level ``solver/__init__.py`` re-exports the public API from every layer (but cli);
  a subpackage's ``__init__`` re-exports its own modules and follows its layer's rule.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

import solver

PACKAGE_DIR = Path(solver.__file__).resolve().parent
ROOT = PACKAGE_DIR.parent

# the layers each layer may import from (a layer is the first name after ``solver.``)
ALLOWED: dict[str, set[str]] = {
    "startup": set(),  # (Ctrl-C while the command starts: the package's first import)
    "errors": set(),
    "processes": set(),  # (the worker processes: started, tied to their parent, stopped)
    "native": {"errors", "native"},
    "model": {"errors", "native", "model"},
    "formats": {"errors", "native", "model", "formats"},
    "engine": {"errors", "native", "model", "engine"},
    "analysis": {"errors", "processes", "native", "model", "formats", "engine", "analysis"},
    "play": {"", "errors", "processes", "native", "model", "formats", "engine", "analysis", "play"},
    "cli": {  # (a package: the group and its modules, one a command, import each other)
        "",
        "cli",
        "startup",
        "errors",
        "native",
        "model",
        "formats",
        "engine",
        "analysis",
        "play",
        "openspiel",
        "board",
        "bench",
        "cluster",
    },
    # the standard benchmarks (brisque bench): on top, beside the command line
    "bench": {"errors", "native", "model", "formats", "engine", "analysis", "play", "bench"},
    # the analysis board in the browser (the extra board): on top, beside the command line
    "board": {"errors", "processes", "native", "model", "formats", "engine", "analysis", "play", "board"},
    # the optional OpenSpiel adapter (the extra openspiel): on top, beside the command line
    "openspiel": {"errors", "native", "model", "formats", "engine", "analysis", "play", "openspiel"},
    # the Dask cluster (the extra cluster): only the command line starts one; the library
    # takes any executor (solver.analysis.executors)
    "cluster": {"errors", "processes", "cluster"},
    "": {"startup", "errors", "native", "model", "formats", "engine", "analysis", "play"},  # solver/__init__
    "svg": {"model"},  # solver/svg.py: the public name of solver.model.svg
}


@dataclass(frozen=True)
class Import:
    """One imported module (and the names taken from it) at one line of one module."""

    source: str  # the importing module, e.g. "solver.model.position"
    path: str  # its file, relative to the repository
    line: int
    target: str  # the imported module, e.g. "solver.model.cards"
    names: tuple[str, ...] = ()  # the names of ``from target import ...`` that are not modules
    text: str = ""  # the import statement
    type_only: bool = False  # under ``if TYPE_CHECKING:``: never runs

    def where(self) -> str:
        return f"{self.path}:{self.line}: {self.source}: {self.text}"


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_files() -> dict[str, Path]:
    """Every module of the package: its .py source, or the .pyi stub of a compiled module."""
    files: dict[str, Path] = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py*")):
        if path.suffix not in (".py", ".pyi") or "__pycache__" in path.parts:
            continue
        name = module_name(path)
        if path.suffix == ".py" or name not in files:
            files[name] = path
    return files


MODULES = module_files()


def _is_package(name: str) -> bool:
    return MODULES[name].stem == "__init__"


def _resolve_relative(source: str, level: int, module: str | None) -> str:
    base = source.split(".")
    if not _is_package(source):
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([module] if module else []))


def imports_of(name: str) -> list[Import]:
    """Every import of the solver package in module ``name`` (at any depth of its code)."""
    path = MODULES[name]
    rel = str(path.relative_to(ROOT))
    src = path.read_text(encoding="utf-8")
    tree = ast.parse(src, filename=rel)
    type_only = {
        id(n)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If)
        and ast.unparse(branch.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for stmt in branch.body
        for n in ast.walk(stmt)
    }
    out: list[Import] = []
    for node in ast.walk(tree):
        typing_only = id(node) in type_only
        text = ast.get_source_segment(src, node) if isinstance(node, (ast.Import, ast.ImportFrom)) else ""
        text = " ".join((text or "").split())
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "solver" or alias.name.startswith("solver."):
                    out.append(Import(name, rel, node.lineno, alias.name, (), text, typing_only))
        elif isinstance(node, ast.ImportFrom):
            target = _resolve_relative(name, node.level, node.module) if node.level else node.module or ""
            if not (target == "solver" or target.startswith("solver.")):
                continue
            plain = []
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in MODULES:  # ``from pkg import module``: that module
                    out.append(Import(name, rel, node.lineno, sub, (), text, typing_only))
                else:
                    plain.append(alias.name)
            if plain:
                out.append(Import(name, rel, node.lineno, target, tuple(plain), text, typing_only))
    return out


ALL_IMPORTS = [imp for name in MODULES for imp in imports_of(name)]


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def import_graph() -> nx.DiGraph:
    """Module -> imported module, for every import (those for type checkers too)."""
    g = nx.DiGraph()
    g.add_nodes_from(MODULES)
    for imp in ALL_IMPORTS:
        if imp.target != imp.source:
            g.add_edge(imp.source, imp.target)
            g.edges[imp.source, imp.target].setdefault("imports", []).append(imp)
    return g


# ----------------------------------------------------------------------------- the tests
def test_the_package_is_found():
    assert {"solver", "solver.errors", "solver.model.position", "solver.native.engine", "solver.cli"} <= set(
        MODULES
    )
    assert any(imp.target == "solver.model.cards" for imp in ALL_IMPORTS)


def test_every_imported_module_exists():
    missing = [
        f"{imp.where()}\n    imports {imp.target}, which is not a module of the package"
        for imp in ALL_IMPORTS
        if imp.target not in MODULES
    ]
    assert not missing, "\n".join(missing)


def test_no_import_cycles():
    g = import_graph()
    cycles = sorted(nx.simple_cycles(g), key=lambda c: (len(c), c))
    lines = []
    for cycle in cycles[:10]:
        lines.append("cycle: " + " -> ".join(cycle + cycle[:1]))
        for a, b in zip(cycle, cycle[1:] + cycle[:1]):
            for imp in g.edges[a, b]["imports"]:
                lines.append(f"    {imp.where()}")
    assert not cycles, f"{len(cycles)} import cycle(s):\n" + "\n".join(lines)


def test_no_private_name_is_imported_from_another_module():
    bad = []
    for imp in ALL_IMPORTS:
        private_module = [p for p in imp.target.split(".") if _private(p)]
        private_names = [n for n in imp.names if _private(n)]
        if private_module:
            bad.append(f"{imp.where()}\n    imports the private module {imp.target}")
        if private_names:
            bad.append(
                f"{imp.where()}\n    imports the private name(s) {', '.join(private_names)} from {imp.target}"
            )
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("source_layer", sorted(ALLOWED))
def test_layers(source_layer):
    allowed = ALLOWED[source_layer]
    bad = []
    for imp in ALL_IMPORTS:
        if layer(imp.source) != source_layer or imp.target == imp.source:
            continue
        target_layer = layer(imp.target)
        if target_layer not in allowed:
            shown = ", ".join(sorted(f"solver.{x}" if x else "solver" for x in allowed)) or "nothing"
            bad.append(
                f"{imp.where()}\n    {imp.source} (layer solver.{source_layer or ''}) imports "
                f"{imp.target}; it may import only from {shown}"
            )
    assert not bad, "\n".join(bad)


def test_every_module_is_in_a_layer():
    assert {layer(m) for m in MODULES} <= set(ALLOWED)


def test_only_the_command_line_imports_the_optional_openspiel_adapter():
    bad = [
        f"{imp.where()}\n    {imp.source} imports {imp.target}"
        for imp in ALL_IMPORTS
        if layer(imp.target) == "openspiel" and layer(imp.source) not in ("openspiel", "cli")
    ]
    assert not bad, "\n".join(bad)


def test_nothing_imports_the_command_line():
    bad = [
        f"{imp.where()}\n    {imp.source} imports {imp.target}"
        for imp in ALL_IMPORTS
        if layer(imp.target) == "cli" and layer(imp.source) != "cli"
    ]
    assert not bad, "\n".join(bad)
