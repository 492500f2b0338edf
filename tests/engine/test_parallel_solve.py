"""One exact solve on several cores: threads sharing one table (``solve(threads=)``,
``Engine.set_threads``, ``brisque solve --workers``) and root moves on an executor
(``parallel_solve``): the answer of the one-core solve, its principal variation a real line
of the best value."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import solver
from solver.analysis.parallel import parallel_solve
from solver.engine.solving import solve
from solver.errors import ArgumentError, HiddenInformationError, ImpossiblePositionError
from solver.model.position import Position
from solver.model.rules import Rules
from solver.play.dealing import deal, positions_with_talon_left, random_position

AWAY = tempfile.mkdtemp(prefix="brisque-parallel-")


def positions() -> list[Position]:
    out = []
    for game, trick in (("brisque", 9), ("briscan", 8), ("petite", 10), ("petite(draw=yes)", 11)):
        for seed in range(1, 40):
            p = random_position(seed, game, trick)
            if not p.is_over() and not p.has_hidden:
                out.append(p)
            if len(out) % 3 == 0 and out:
                break
    return out


@pytest.fixture(scope="module")
def pool():
    from solver.processes import stop_pool, worker_pool

    ex = worker_pool(2)
    yield ex
    stop_pool(ex)


def test_the_answer_is_the_one_core_solve(pool):
    ps = positions()
    assert len(ps) >= 4
    for p in ps:
        one, two = solve(p), parallel_solve(p, executor=pool)
        assert two.value == one.value, p.bpn()
        assert [(str(m.move), m.value) for m in two.moves] == [(str(m.move), m.value) for m in one.moves]
        assert [str(m) for m in two.best] == [str(m) for m in one.best]
        # its principal variation starts with a best move and reaches the value
        q = p.copy()
        assert two.pv[0] in two.best
        for m in two.pv:
            q.push(m)
        assert q.is_over() and q.value(p.turn) == two.value, p.bpn()


def talon_positions(game: str, tricks_left: int, count: int) -> list[Position]:
    # (from three talon tricks left, an exact solve goes on several threads)
    return positions_with_talon_left(tricks_left, count, game)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["brisque", "briscan", "petite(draw=yes)"])
def test_threads_sharing_a_table_give_the_one_thread_values(game):
    """Every root move's exact value and the position's value, on 2, 3 and 4 threads, against
    one thread.  The threads race on the shared table (lockless entries): any torn entry
    read as valid would show here as a wrong value sooner or later."""
    from solver.engine.seam import engine_root
    from solver.engine.solving import Solver

    rules = Rules.parse(game)
    one = Solver(rules, 18).engine
    many = {n: Solver(rules, 18).engine for n in (2, 3, 4)}
    for n, engine in many.items():
        engine.set_threads(n)
        assert engine.threads == n
    checked = other_nodes = 0
    for left in (3, 4, 5):  # (from 4 talon cards left, that is 3 tricks, a solve takes threads)
        for p in talon_positions(game, left, 5):
            root = engine_root(p)
            one.clear()
            one.load(root)
            n0 = one.nodes
            value, moves = one.value(), one.move_values()
            nodes = one.nodes - n0
            for n, engine in many.items():
                engine.clear()
                engine.load(root)
                n0 = engine.nodes
                assert engine.value() == value, (n, p.bpn())
                assert engine.move_values() == moves, (n, p.bpn())
                other_nodes += engine.nodes - n0 != nodes  # (every thread's nodes: they differ)
                checked += 1
    assert checked == 3 * 3 * 5
    assert other_nodes > checked // 2  # the threads did run


def test_solve_on_threads_is_the_solve():
    p = talon_positions("brisque", 5, 1)[0]
    one, two = solve(p), solve(p, threads=2)
    assert (two.value, two.best) == (one.value, one.best)
    assert [(str(m.move), m.value) for m in two.moves] == [(str(m.move), m.value) for m in one.moves]
    q = p.copy()
    for m in two.pv:
        q.push(m)
    assert q.is_over() and q.value(p.turn) == two.value
    assert parallel_solve(p, workers=2).moves == one.moves
    for bad in (0, 65, True, 1.5):
        with pytest.raises(ArgumentError, match="threads="):
            solve(p, threads=bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="no budget"):
        solve(p, threads=2, nodes=1000)


def test_bad_input_is_refused():
    with pytest.raises(ArgumentError):
        parallel_solve(deal(1, "brisque"), workers=0)
    with pytest.raises(HiddenInformationError):
        parallel_solve(deal(1, "brisque").view(0), workers=2)
    with pytest.raises(ImpossiblePositionError):
        parallel_solve(
            "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 tricks=9:9", workers=2
        )


@pytest.mark.slow
def test_the_command_line_shares_a_solve_and_a_batch():
    p = talon_positions("brisque", 5, 1)[0]  # (five talon tricks left: a solve on two threads)
    brisque = str(Path(sys.executable).parent / "brisque")
    one = subprocess.run([brisque, "solve", p.bpn(), "--json"], capture_output=True, text=True, cwd=AWAY)
    two = subprocess.run(
        [brisque, "solve", p.bpn(), "--json", "--workers", "2"], capture_output=True, text=True, cwd=AWAY
    )
    assert one.returncode == two.returncode == 0, two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert (a["value"], a["moves"], a["best"]) == (b["value"], b["moves"], b["best"])
    bad = subprocess.run(
        [brisque, "solve", p.bpn(), "--workers", "2", "--nodes", "9"],
        capture_output=True,
        text=True,
        cwd=AWAY,
    )
    assert bad.returncode == 2 and "--workers" in bad.stderr and "Traceback" not in bad.stderr
    lines = "\n".join(random_position(s, "brisque", 13).bpn() for s in range(1, 9)) + "\nbrisque x\n"
    here = subprocess.run([brisque, "solve", "-"], input=lines, capture_output=True, text=True, cwd=AWAY)
    pooled = subprocess.run(
        [brisque, "solve", "-", "--workers", "2"], input=lines, capture_output=True, text=True, cwd=AWAY
    )
    assert here.returncode == pooled.returncode == 1
    strip = [
        {k: v for k, v in json.loads(x).items() if k not in ("seconds", "nodes", "pv")}
        for x in here.stdout.splitlines()
    ]
    pooled_strip = [
        {k: v for k, v in json.loads(x).items() if k not in ("seconds", "nodes", "pv")}
        for x in pooled.stdout.splitlines()
    ]
    assert strip == pooled_strip and len(strip) == 9


VIEW = "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"


def test_solve_from_several_threads_gives_the_answers_of_one():
    # solve() from a ThreadPoolExecutor shared one engine between the threads (its search
    # runs without the GIL): wrong values, or "EngineError: principal variation lost"
    ps = [random_position(seed, "brisque", 9) for seed in range(32)]
    alone = [solver.solve(p).to_json() for p in ps]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda p: solver.solve(p).to_json(), ps))

    def strip(text: str) -> dict:
        d = json.loads(text)
        d.pop("seconds")
        d.pop("nodes")  # (a warm table differs from thread to thread)
        return d

    assert [strip(a) for a in together] == [strip(a) for a in alone]


def test_a_sampled_analysis_on_a_thread_pool_is_the_local_one():
    # docs: "any concurrent.futures executor", the same answer with any number of workers;
    # on a ThreadPoolExecutor the worlds were solved by threads sharing one engine
    alone = solver.analyse(VIEW, worlds=40, seed=2)
    with ThreadPoolExecutor(4) as pool:
        pooled = solver.analyse(VIEW, worlds=40, seed=2, executor=pool)
    assert pooled.moves == alone.moves and pooled.best == alone.best


def test_the_batch_path_on_a_thread_pool_is_the_local_one():
    from solver.analysis.batch_solve import solve_lines

    lines = [random_position(seed, "brisque", 10).bpn() for seed in range(40)] * 2
    alone = [json.loads(a) for a, _ in solve_lines(lines)]
    with ThreadPoolExecutor(4) as pool:
        pooled = [json.loads(a) for a, _ in solve_lines(lines, executor=pool, chunk=2)]
    for d in (*alone, *pooled):
        d.pop("seconds")
        d.pop("nodes")
    assert pooled == alone
