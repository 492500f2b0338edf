"""The package as users meet it: its public names, version, typing files, the error of a
source tree without a build, and the files the CLI writes only when asked."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

import solver
from solver.errors import BrisqueError

PKG = Path(solver.__file__).parent


def test_every_public_name_exists():
    missing = [n for n in solver.__all__ if not hasattr(solver, n)]
    assert not missing
    # the calls docs/solver.md and the README show
    for name in (
        "Position",
        "Rules",
        "Move",
        "Value",
        "solve",
        "solve_batch",
        "solve_chance",
        "can_reach",
        "Solver",
        "Limit",
        "analyse",
        "analyse_line",
        "solution_tree",
        "run_match",
    ):
        assert name in solver.__all__, name


def test_every_error_class_is_a_brisque_error():
    import solver.errors as errors

    classes = [getattr(errors, n) for n in errors.__all__]
    assert all(issubclass(c, BrisqueError) for c in classes)
    assert len(classes) >= 12


def test_one_version(tmp_path: Path):
    assert solver.__version__ == importlib.metadata.version("brisque-solver")
    # (run away from the checkout, whose unbuilt source tree would shadow the installed package)
    out = subprocess.run(
        [sys.executable, "-m", "solver.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert solver.__version__ in out


def test_typing_files_are_shipped():
    files = importlib.resources.files("solver")
    assert files.joinpath("py.typed").is_file()
    for stub in ("constants.pyi", "bits.pyi", "engine.pyi"):
        assert files.joinpath("native", stub).is_file(), stub


def test_a_source_tree_without_a_build_says_how_to_build(tmp_path: Path):
    # the Python files of the package, without its compiled modules; -S: no site-packages,
    # where an installed copy (this one's editable install) would make it a shadowing tree
    shutil.copytree(PKG, tmp_path / "solver", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    res = subprocess.run(
        [sys.executable, "-S", "-c", "import solver"], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert res.returncode != 0
    assert "EngineMissingError" in res.stderr
    assert "are not built" in res.stderr and "install the package with `pip install .`" in res.stderr
    assert "build_ext --inplace" in res.stderr and "another directory" not in res.stderr
    assert "solver.native" in res.stderr  # it names what is missing
    # and it is an ImportError, as a missing module always was, and a BrisqueError
    res = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            "try:\n    import solver\nexcept ImportError as x:\n"
            "    print(' '.join(c.__name__ for c in type(x).__mro__))",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    names = res.stdout.split()
    assert names[0] == "EngineMissingError" and "BrisqueError" in names, res.stderr


def test_a_source_tree_that_shadows_the_installed_package_says_so(tmp_path: Path):
    # the checkout's root after `pip install .`: its unbuilt tree comes first on the path (the
    # current directory), the installed package, built, after it
    tree, installed = tmp_path / "checkout", tmp_path / "site-packages"
    shutil.copytree(PKG, tree / "solver", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    shutil.copytree(PKG, installed / "solver", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(installed)])}
    res = subprocess.run(
        [sys.executable, "-S", "-c", "import solver"], capture_output=True, text=True, cwd=tree, env=env
    )
    assert res.returncode != 0 and "EngineMissingError" in res.stderr
    message = res.stderr.splitlines()[-1]
    assert f"imported from the source tree {tree / 'solver'}" in message
    assert f"the package installed in {installed / 'solver'}, which it shadows" in message
    assert "Python looks in the current directory first" in message
    assert "Run from another directory" in message and "`pip install -e .`" in message
    assert "install the package with `pip install .`" not in message  # (done already)
    # from elsewhere, the installed package is the one imported
    res = subprocess.run(
        [sys.executable, "-S", "-c", "import solver; print(solver.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(installed)},
    )
    assert res.returncode == 0 and res.stdout.strip() == str(installed / "solver" / "__init__.py"), res.stderr


@pytest.mark.slow
@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_match_writes_records_only_when_asked(tmp_path: Path, extra: list[str]):
    cmd = [sys.executable, "-m", "solver.cli", "match", "random", "greedy", "--deals", "1", "-q", *extra]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert list(tmp_path.iterdir()) == []
    assert "records:" not in res.stdout
    res = subprocess.run([*cmd, "--records", "deals.jsonl"], capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert len((tmp_path / "deals.jsonl").read_text().splitlines()) == 2  # one deal pair


def test_an_output_file_that_cannot_be_written_is_refused_before_any_work(brisque, tmp_path: Path):
    res = brisque(
        "match", "random", "greedy", "--deals", "3", "--records", "/nonexistent/dir/x.jsonl", cwd=tmp_path
    )
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "no folder '/nonexistent/dir'" in res.stderr
    assert res.stdout == ""  # refused before the match was played
    bpn = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    res = brisque("tree", bpn, "-o", "/nonexistent/x.graphml", cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "cannot write the tree" in res.stderr


def test_an_absurd_score_is_shown_as_an_impossible_position(brisque, tmp_path: Path):
    # a finished deal whose margin is beyond any real one still prints, with its problems
    res = brisque(
        "show", "brisque .../... D 0 ATKQJ987.ATKQJ987.ATKQJ987.ATKQJ987 - a 4000:0 tricks=8:8", cwd=tmp_path
    )
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "Valid: NO" in res.stdout and "4000" in res.stdout
    # beyond what a margin can carry (+-10000 marks a game won) it is a malformed BPN
    res = brisque(
        "show", "brisque .../... D 0 ATKQJ987.ATKQJ987.ATKQJ987.ATKQJ987 - a 20000:0 tricks=8:8", cwd=tmp_path
    )
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "'20000' is out of range: expected a whole number from -5000 to 5000" in res.stderr


def test_the_value_alone_still_names_one_best_move():
    p = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
    full = solver.solve(p)
    quick = solver.solve(p, every_move=False, pv=False)
    assert quick.value == full.value and quick.moves == [] and quick.pv == []
    assert len(quick.best) == 1 and quick.best[0] in full.best


@pytest.mark.slow
def test_every_install_hint_has_the_same_wording():
    # '.[openspiel]' in one message, 'brisque-solver[cluster]' in another
    import ast
    import re
    import tomllib

    from solver.errors import PROJECT, install_hint

    checkout = ROOT
    assert tomllib.loads((checkout / "pyproject.toml").read_text())["project"]["name"] == PROJECT
    assert (
        install_hint("board")
        == "pip install 'brisque-solver[board]' (or pip install '.[board]' from a checkout)"
    )
    stray = []
    for path in (checkout / "solver").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and re.search(r"pip install '[^']*\[", node.value)
                and path.name != "errors.py"
            ):
                stray.append(f"{path.name}:{node.lineno}")
    assert not stray, f"install hints not made by install_hint: {stray}"
    from solver.cli.options import SCHEDULER_HELP

    assert install_hint("cluster") in SCHEDULER_HELP


@pytest.mark.slow
def test_a_fresh_install_with_no_extra_plays_reviews_and_analyses(
    request: pytest.FixtureRequest, tmp_path: Path
):
    # the first thing a new user does: `pip install .` with no extra into a new virtual
    # environment, then a deal, its review from the player's own view (the chance of winning
    # uses numpy), a line graded from a record, and a sampled analysis
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(request.config.rootpath)],
        capture_output=True,
        text=True,
    )
    assert pip.returncode == 0, pip.stderr[-2000:]
    brisque = str(venv / "bin" / "brisque")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stderr[-2000:])
        return done

    run(brisque, "match", "greedy", "random", "--deals", "1", "--seed", "1", "--records", "deals.jsonl", "-q")
    line = run(
        brisque, "line", "--record", "deals.jsonl", "--view", "own", "--worlds", "10", "--seed", "1", "-q"
    )
    assert "decisions" in line.stdout or "move" in line.stdout
    analysed = run(
        brisque,
        "analyse",
        "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1",
        "--worlds",
        "20",
        "--json",
    )
    assert '"best"' in analysed.stdout
    review = run(
        str(venv / "bin" / "python"),
        "-c",
        "from solver.formats.records import DealRecord\n"
        "from solver.play.review import review_deal\n"
        "record = DealRecord.from_json(open('deals.jsonl').readline())\n"
        "r = review_deal(record, 'a', worlds=10, seed=1)\n"
        "print(len(r.rows), sorted(r.counts()))",
    )
    assert int(review.stdout.split()[0]) > 0


@pytest.mark.parametrize("package", ["solver", "solver.model", "solver.analysis"])
def test_every_lazy_name_and_submodule_of_a_package_exists(package: str):
    # the packages that import their names on first use (solver.model.lazy) list their
    # submodules by name: a module renamed or moved must leave no name behind
    module = importlib.import_module(package)
    for name in module._SUBMODULES:
        assert importlib.util.find_spec(f"{package}.{name}") is not None, f"{package}.{name}"
        assert hasattr(module, name), f"{package}.{name}"
    for name in module.__all__:
        assert getattr(module, name) is not None, f"{package}.{name}"
    assert set(module._SUBMODULES) <= set(dir(module))
