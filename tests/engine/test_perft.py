"""Perft-style agreement of the compiled engine's rules of play with the Python model.

Along every line of a few plies (every legal move at each level) from seeded positions of
every game, in the talon phase, at Brisque's last pickup and in the final phase:

* the engine's move generation at the root (``Engine.root_moves()`` after
  ``load(engine_root(p))``, which prunes and merges nothing) is the model's
  ``p.legal_moves()``, as a set and without repetitions;
* for each move ``m`` the engine's state after it (``Engine.after(m)``) is
  ``engine_root(child)`` of the model's ``child = p.push(m)``: hands, cards out, turnup,
  trump, trick, turn, tricks, final-phase tricks, melds, exchange, declarations at the turn
  and the talon still to draw;
* and the engine's ``gain`` is the model's change of the objective (the mover's score change
  minus the opponent's, or the tricks' under ``objective=tricks``), its ``ended`` the model's
  end of the deal and its ``win`` the model's game won (when the model says a game was won,
  only the winner is checked: the engine does not count a win's points).

Every disagreement is collected and reported with the BPN of the position and the move.
The ``slow`` variant goes one ply deeper from more seeds.
"""

from __future__ import annotations

import collections
import random

import pytest
from helpers import make

from solver.engine.seam import engine_root, new_engine
from solver.model.moves import Move
from solver.model.position import Position
from solver.model.rules import Rules
from solver.native.constants import DECLARE_BASE, MOVE_EXCHANGE, MOVE_PASS
from solver.native.structs import Root
from solver.play.dealing import deal, mixed_final_phase, random_final_phase, random_position

# every game, and non-default rule sets that change the rules of play or the gains
RULE_SETS = [
    "brisque",
    "briscan",
    "petite",
    "brisque(quartet_win=deal)",
    "petite(draw=yes)",
    "petite(objective=margin)",
    "brisque(objective=tricks)",
    "briscan(objective=tricks)",
    "brisque(exchange=no)",
    "brisque(exchange_points=10,final_declarations=no)",
    "brisque(one_declaration_per_turn=yes)",
    "briscan(one_declaration_per_turn=yes)",
    "briscan(final_declarations=no)",
    "petite(draw=yes,exchange_points=10)",
    "brisque(final_follow=follow)",
    "briscan(final_follow=follow)",
    "brisque(declare=before_draw)",
    "briscan(declare=before_draw)",
    "brisque(declare=before_draw,one_declaration_per_turn=yes)",
]
ROOT_FIELDS = tuple(Root.__annotations__)


# ----------------------------------------------------------------------------- positions
def _before_window(r: Rules, seed: int) -> Position | None:
    """Two plies before Brisque's last-pickup window opens in the random deal of ``seed``."""
    p = deal(seed, r)
    rng = random.Random(seed)
    history = [p.copy()]
    while not p.is_over() and not p.in_window:
        p.push(rng.choice(p.legal_moves()))
        history.append(p.copy())
    return history[-3] if p.in_window else None


def _hand_made(r: Rules) -> list[Position]:
    """Rare events random play seldom reaches: Briscan's five trumps at the last draw,
    the final-phase bonus and the vole."""
    if r.game != "briscan":
        return []
    game = str(r)
    bpns = [
        make(game, ".AKQJ..7", "8..789.A", "8H", talon="9H"),  # a ends with five trumps
        make(game, "A...", "7...", "D"),  # a makes the vole
        make(game, "A...", "8...", "D", extra="tricks=14:1"),  # a: all five final tricks
        make(game, "7...", "A...", "D", extra="tricks=9:6"),  # b takes the last trick
    ]
    return [Position(b) for b in bpns]


def start_positions(rules: str, seeds) -> list[Position]:
    """Seeded positions of ``rules``: talon phase, last pickup, final phase (not over, valid)."""
    r = Rules.parse(rules)
    out: list[Position] = []
    for seed in seeds:
        if r.draws:
            t = r.talon_tricks
            out += [random_position(seed, r, trick) for trick in (1, 2, t // 2 + 1, t - 1, t)]
            out += [random_position(seed, r, trick) for trick in (t + 1, t + 3)]
            if r.last_pickup_window:
                w = _before_window(r, seed)
                out += [w] if w is not None else []
        else:
            out += [random_position(seed, r, trick) for trick in (1, 2, 3, 4)]
        out.append(mixed_final_phase(seed, r))
        out += [random_final_phase(seed, r, cards=n) for n in (1, 2)]
        out.append(random_final_phase(seed, r, lead_card=True))
        if r.has_declarations:
            out.append(random_final_phase(seed, r, stack="marriages"))
            out.append(random_final_phase(seed, r, stack="quartet"))
            out.append(random_final_phase(seed, r, stack="quartet", stack_opponent=True))
    out += _hand_made(r)
    starts = [p for p in out if not p.is_over()]
    for p in starts:
        assert p.problems() == [], f"invalid start position {p.bpn()}: {p.problems()}"
        assert not p.has_hidden, p.bpn()
    return starts


# ----------------------------------------------------------------------------- the walk
def _kind(m: int) -> str:
    if m < 32:
        return "card"
    if m == MOVE_EXCHANGE:
        return "exchange"
    if m == MOVE_PASS:
        return "pass"
    assert m >= DECLARE_BASE, m
    return "declare"


def _objective(p: Position) -> list[int]:
    return p.tricks[:] if p.rules.objective == "tricks" else p.score[:]


def perft(engine, p: Position, depth: int, bad: list[str], seen: collections.Counter) -> int:
    """Walk every line of ``depth`` plies from ``p`` (restored on return), comparing the
    engine with the model at every node; returns the number of nodes compared."""
    if depth == 0 or p.is_over():
        return 0
    where = p.bpn()
    model_moves = [int(m) for m in p.legal_moves()]
    engine.load(engine_root(p))
    engine_moves = engine.root_moves()
    seen["nodes"] += 1
    if p.in_window:
        seen["window"] += 1
    if len(set(model_moves)) != len(model_moves):
        bad.append(f"{where}\n    the model lists a move twice: {[str(Move(m)) for m in model_moves]}")
    if len(set(engine_moves)) != len(engine_moves):
        bad.append(f"{where}\n    the engine lists a move twice: {[str(Move(m)) for m in engine_moves]}")
    if set(engine_moves) != set(model_moves):
        only_e = sorted(str(Move(m)) for m in set(engine_moves) - set(model_moves))
        only_m = sorted(str(Move(m)) for m in set(model_moves) - set(engine_moves))
        bad.append(f"{where}\n    moves: engine only {only_e}, model only {only_m}")
        return 1
    nodes = 1
    me = p.turn
    before = _objective(p)
    afters = [engine.after(m) for m in model_moves]  # before the walk below reloads the engine
    for m, after in zip(model_moves, afters):
        p.push(m)
        try:
            seen[_kind(m)] += 1
            expected = engine_root(p).to_dict()
            expected["talon"] = expected["talon"][: expected["talon_len"]]
            diffs = [
                f"{k}: engine {after[k]} model {expected[k]}" for k in ROOT_FIELDS if after[k] != expected[k]
            ]
            if p.win >= 0:
                seen["win"] += 1
                if after["win"] != p.win or not after["ended"]:
                    diffs.append(f"win: engine {after['win']} (ended {after['ended']}) model {p.win}")
            else:
                now = _objective(p)
                gain = (now[me] - before[me]) - (now[1 - me] - before[1 - me])
                if after["win"] != -1:
                    diffs.append(f"win: engine {after['win']} model none")
                if after["ended"] != p.ended:
                    diffs.append(f"ended: engine {after['ended']} model {p.ended}")
                if after["gain"] != gain:
                    diffs.append(f"gain: engine {after['gain']} model {gain}")
                if p.ended:
                    seen["ended"] += 1
            if diffs:
                bad.append(f"{where}  move {Move(m)}\n    " + "\n    ".join(diffs))
            nodes += perft(engine, p, depth - 1, bad, seen)
        finally:
            p.pop()
    return nodes


def run(rules: str, seeds, depth: int) -> collections.Counter:
    engine = new_engine(Rules.parse(rules), table_bits=4)  # no search: a tiny table
    bad: list[str] = []
    seen: collections.Counter = collections.Counter()
    for start in start_positions(rules, seeds):
        p = start.copy()
        perft(engine, p, depth, bad, seen)
        assert p.bpn() == start.bpn(), "the walk did not restore the position"
    assert not bad, f"{len(bad)} disagreements between the engine and the model ({rules}):\n" + "\n".join(
        bad[:20]
    )
    return seen


# the events each game's walks must reach, so that the comparison stays meaningful
EXPECTED_EVENTS = {
    "brisque": {"card", "exchange", "pass", "declare", "window", "ended", "win"},
    "briscan": {"card", "exchange", "declare", "ended", "win"},
    "petite": {"card", "exchange", "ended"},
}


def _expected_events(rules: str) -> set[str]:
    r = Rules.parse(rules)
    events = set(EXPECTED_EVENTS[r.game])
    if not r.exchange:
        events -= {"exchange", "pass", "window"}
    if r.game == "brisque" and (r.quartet_win == "deal" or not r.final_declarations):
        events.discard("win")  # no game won, or no quartet in the (stacked) final phase
    return events


@pytest.mark.parametrize("rules", RULE_SETS)
def test_engine_moves_and_effects_agree_with_the_model(rules):
    seen = run(rules, seeds=range(3), depth=3)
    missing = _expected_events(rules) - set(seen)
    assert not missing, f"{rules}: the walks never reached {sorted(missing)} ({dict(seen)})"


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS)
def test_engine_moves_and_effects_agree_with_the_model_deeper(rules):
    run(rules, seeds=range(3, 15), depth=4)
