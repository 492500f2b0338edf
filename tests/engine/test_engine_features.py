"""Every search enhancement keeps the engine exact.

Each enhancement can be switched off (``Engine.set_features``); values and every move's
value with all of them on must equal those with all of them off (plain alpha-beta with a
table), on seeded positions of every game: talon phase with a few talon tricks left, the
last pickup, the final phase, tricks in progress, and stacked kings and queens (the cheap
value bounds must allow for a declaration that ends the deal).
"""

from __future__ import annotations

import functools
import random

import pytest
from helpers import ALL_OFF, make

from solver import Position, Rules
from solver.engine.results import Limit
from solver.engine.seam import engine_root
from solver.engine.solving import Solver
from solver.model.value import is_raw_game_win
from solver.native.constants import WIN_RAW, WIN_THRESHOLD
from solver.play.dealing import mixed_final_phase, random_final_phase, random_position

ALL_ON = {k: True for k in ALL_OFF}

GAMES = [
    "brisque",
    "brisque(quartet_win=deal)",
    "brisque(objective=tricks)",
    "brisque(exchange_points=10)",
    "brisque(final_declarations=no)",
    "brisque(one_declaration_per_turn=yes)",
    "briscan",
    "petite",
]


def seeded_positions(game: str, count: int, first_seed: int) -> list:
    """A mix of talon-phase positions (at most three talon tricks left) and final-phase ones."""
    rules = Rules.parse(game)
    rng = random.Random(first_seed)
    out, seed = [], first_seed
    while len(out) < count:
        seed += 1
        kind = rng.randrange(4)
        if kind == 0 and rules.draws:
            trick = rules.talon_tricks + 1 - rng.randint(0, 3)
            p = random_position(seed, rules, trick)
            if not p.is_over() and rng.random() < 0.4:
                p.push(rng.choice(p.legal_moves()))  # a card led, a declaration...
        elif kind == 1 and rules.draws:
            p = random_position(seed, rules, rules.talon_tricks + rng.randint(0, 2))
        elif kind == 2:
            p = random_final_phase(
                seed,
                rules,
                cards=rng.randint(2, rules.hand_size),
                stack=rng.choice(["quartet", "marriages"]),
                stack_opponent=rng.random() < 0.5,
            )
        else:
            p = mixed_final_phase(seed, rules)
        if not p.is_over():
            out.append(p)
    return out


def engines(game: str) -> tuple:
    on = Solver(Rules.parse(game), 16).engine
    off = Solver(Rules.parse(game), 16).engine
    on.set_features(**ALL_ON)
    off.set_features(**ALL_OFF)
    return on, off


def zero_windows_agree(eng, v: int) -> bool:
    """Fail-soft zero-window searches of the loaded root around its value v: one proves
    at least v, the other at most v."""
    return eng.value(v - 1, v) >= v and eng.value(v, v + 1) <= v


def disagreements(game: str, count: int, first_seed: int, every_move: bool) -> list[str]:
    """Positions where the engine with its enhancements and without disagree.  With
    every_move, each move's value v is also checked by zero-window tests (reaches v, not
    v + 1), since the enhancements act differently in narrow windows."""
    on, off = engines(game)
    bad = []
    for p in seeded_positions(game, count, first_seed):
        results = []
        for eng in (on, off):
            eng.clear()
            eng.load(engine_root(p))
            results.append(sorted(eng.move_values()) if every_move else eng.value())
        if results[0] != results[1]:
            bad.append(f"{p.bpn()}: with enhancements {results[0]}, without {results[1]}")
        elif not every_move and not zero_windows_agree(on, results[1]):
            bad.append(f"{p.bpn()}: worth {results[1]}, zero-window searches disagree")
        elif every_move:
            for move, v in results[1]:
                if not on.reaches(move, v) or on.reaches(move, v + 1):
                    bad.append(f"{p.bpn()}: move {move} is worth {v}, zero-window tests disagree")
            try:  # the principal variation: zero-window tests all along the line
                on.pv(max(v for _, v in results[1]))
            except RuntimeError as e:
                bad.append(f"{p.bpn()}: {e}")
    return bad


@pytest.mark.parametrize("game", GAMES)
def test_values_do_not_depend_on_the_enhancements(game):
    bad = disagreements(game, 150, 1000, every_move=False)
    assert not bad, f"{len(bad)} of 150 disagree:\n" + "\n".join(bad[:5])


@pytest.mark.parametrize("game", GAMES)
def test_every_move_values_do_not_depend_on_the_enhancements(game):
    bad = disagreements(game, 200, 5000, every_move=True)
    assert not bad, f"{len(bad)} disagreements in 200 positions:\n" + "\n".join(bad[:5])


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_values_do_not_depend_on_the_enhancements_many(game):
    bad = disagreements(game, 1000, 100_000, every_move=False)
    assert not bad, f"{len(bad)} of 1000 disagree:\n" + "\n".join(bad[:5])


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_move_values_do_not_depend_on_the_enhancements_many(game):
    bad = disagreements(game, 400, 200_000, every_move=True)
    assert not bad, f"{len(bad)} disagreements in 400 positions:\n" + "\n".join(bad[:5])


def test_the_mix_covers_every_phase():
    ps = seeded_positions("brisque", 150, 1000)
    assert sum(p.turnup >= 0 and not p.in_window for p in ps) >= 20
    assert sum(p.trick >= 0 for p in ps) >= 10
    assert sum(p.turnup < 0 for p in ps) >= 50
    # the last pickup (exchange or pass) is rarer: the slow set has some
    assert sum(p.in_window for p in seeded_positions("brisque", 1000, 100_000)) >= 5


def test_unknown_feature_is_an_error():
    on, _ = engines("brisque")
    with pytest.raises(TypeError):
        on.set_features(history=True)


def test_clear_forgets_everything_even_when_the_generation_counter_wraps():
    # Clearing starts a new table generation instead of wiping memory; after 65535 clears
    # the counter wraps and the memory is wiped.  A solve after a clear must cost exactly
    # as many nodes as on a fresh engine: no old entry may be seen.
    p = random_position(3, Rules.parse("brisque"), 8)  # three talon tricks to go
    assert p.turnup >= 0 and not p.is_over()
    fresh = Solver(Rules.parse("brisque"), 16).engine
    fresh.load(engine_root(p))
    n0 = fresh.nodes
    value = fresh.value()
    cost = fresh.nodes - n0
    for clears in (1, 65535, 65536, 3):
        for _ in range(clears):
            fresh.clear()
        fresh.load(engine_root(p))
        n0 = fresh.nodes
        assert fresh.value() == value
        assert fresh.nodes - n0 == cost, clears


# Four queens against top trumps worth more than half the points left: a bound from card
# points and sure trumps alone would rule out the queens' game-winning declaration.
QUEENS_AGAINST_TRUMPS = [
    ("Q.Q.Q.Q", "ATK..7.", "a"),
    ("Q.Q.Q.Q", "ATK..7.", "b"),
    ("ATK..7.", "Q.Q.Q.Q", "a"),
    ("ATK..7.", "Q.Q.Q.Q", "b"),
    ("Q8.Q.Q.Q", "ATK..78.", "a"),
    ("ATK..78.", "Q8.Q.Q.Q", "b"),
]


@pytest.mark.parametrize("game", ["brisque", "brisque(quartet_win=deal)"])
@pytest.mark.parametrize("hand_a,hand_b,turn", QUEENS_AGAINST_TRUMPS)
def test_bounds_allow_for_a_game_winning_declaration(game, hand_a, hand_b, turn):
    p = Position(make(game, hand_a, hand_b, "S", turn=turn))
    on, off = engines(game)
    for eng in (on, off):
        eng.clear()
        eng.load(engine_root(p))
    expected = sorted(off.move_values())
    assert sorted(on.move_values()) == expected, p.bpn()
    assert zero_windows_agree(on, max(v for _, v in expected)), p.bpn()
    for move, v in expected:
        assert on.reaches(move, v) and not on.reaches(move, v + 1), (p.bpn(), move, v)


# Solved one after the other with one table, these once lost the last one's principal
# variation: plain play's table narrowed a window to nothing on an exact entry.
WARM_SEQUENCE = [
    "brisque J87.J..K7/ATQ.K.T.9 S 0 K9.ATQ987.AKQJ987.ATQJ8 - b 72:2",
    "brisque AJ.T.QJ9./KQ.A..J87 D 0 T987.KQJ987.ATK87.ATKQ9 - a 31:41",
    "brisque 9.K.AQ.AT/KQJ..K8.9 S 0 AT87.ATQJ987.TJ97.KQJ87 - a 68:0",
    "brisque J87.J..K7/ATQ.K.T.9 S 0 K9.ATQ987.AKQJ987.ATQJ8 - b 72:2",
]


def test_a_warm_table_keeps_principal_variations():
    s = Solver(Rules.parse("brisque"), 20)
    for bpn in WARM_SEQUENCE:
        a = s.solve(Position(bpn))
        assert a.pv and a.pv[0] in a.best


@pytest.mark.slow
@pytest.mark.parametrize("game", ["brisque", "brisque(one_declaration_per_turn=yes)", "briscan", "petite"])
def test_a_warm_table_gives_the_answers_of_a_fresh_one(game):
    """One solver, never cleared, over many positions: every answer (values and principal
    variation) as from an empty table."""
    rules = Rules.parse(game)
    warm = Solver(rules, 20)
    fresh = Solver(rules, 16)
    for p in seeded_positions(game, 400, 9000):
        a = warm.solve(p)
        fresh.engine.clear()
        b = fresh.solve(p, pv=False)
        assert [(str(m.move), m.value) for m in a.moves] == [(str(m.move), m.value) for m in b.moves], p.bpn()
        assert a.pv and a.pv[0] in a.best, p.bpn()


# ------------------------------------------------------------- game wins and zero windows
# A game win is worth exactly +-WIN_RAW whatever was scored before it.  Zero-window tests
# at and around the win threshold once passed a meaningless upper bound of WIN_RAW up the
# tree as a win: reaches() said yes to a move that does not win, and principal variations
# took it.  Values at the thresholds, in the raw units of the engine:
THRESHOLDS = [
    WIN_RAW + 1,
    WIN_RAW,
    WIN_RAW - 1,
    WIN_THRESHOLD,
    WIN_THRESHOLD - 1,
    1 - WIN_THRESHOLD,
    -WIN_THRESHOLD,
    1 - WIN_RAW,
    -WIN_RAW,
    -WIN_RAW - 1,
]
WIN_GAMES = ["brisque", "brisque(exchange_points=10)", "brisque(one_declaration_per_turn=yes)", "briscan"]
WIN_COUNT = {"briscan": 6}  # Briscan's wins (all sixteen tricks) are rarer


@functools.cache
def win_positions(game: str) -> tuple:
    """Seeded positions where some move wins or loses the game outright (at most
    WIN_COUNT of them; shared by the tests below, which leave them unchanged)."""
    count = WIN_COUNT.get(game, 40)
    eng = engines(game)[1]
    out = []
    for p in seeded_positions(game, 1000, 9000):
        eng.clear()
        eng.load(engine_root(p))
        if any(is_raw_game_win(v) for _, v in eng.move_values()):
            out.append(p)
            if len(out) == count:
                break
    return tuple(out)


def principal_variation_errors(solver: Solver, p: Position) -> list[str]:
    """Steps of the principal variation whose move is not worth the best value there."""
    a = solver.solve(p)
    q, bad = p.copy(), []
    for m in a.pv:
        here = solver.solve(q, pv=False)
        if here.move_value(m) != here.value:
            bad.append(f"{q.bpn()}: pv move {m} worth {here.move_value(m)}, best {here.value}")
            break
        q.push(m)
    return bad


@pytest.mark.slow
@pytest.mark.parametrize("game", WIN_GAMES)
def test_zero_windows_at_the_win_thresholds(game):
    positions = win_positions(game)
    assert len(positions) == WIN_COUNT.get(game, 40)
    on, off = engines(game)
    bad = []
    for p in positions:
        off.clear()
        off.load(engine_root(p))
        exact = off.move_values()
        for eng in (on, off):
            for move, v in exact:
                for t in THRESHOLDS + [v, v + 1]:
                    eng.clear()
                    eng.load(engine_root(p))
                    if eng.reaches(move, t) != (v >= t):
                        bad.append(f"{p.bpn()}: move {move} worth {v}, reaches({t}) wrong")
    assert not bad, f"{len(bad)} wrong zero-window tests:\n" + "\n".join(bad[:5])


@pytest.mark.parametrize("game", WIN_GAMES)
def test_principal_variations_through_game_wins(game):
    solver = Solver(Rules.parse(game), 16)
    bad = []
    for p in win_positions(game):
        bad += principal_variation_errors(solver, p)
    assert not bad, f"{len(bad)} wrong principal variations:\n" + "\n".join(bad[:5])


def test_principal_variation_of_a_lost_game_keeps_the_winning_reply():
    # b loses whatever he plays; after 9S a's only winning reply is 9D (then four queens).
    solver = Solver(Rules.parse("brisque"), 16)
    p = Position("brisque Q.TQ.Q9.Q/AT9.9.J8. 7D KSTCKC J87.AKJ87.ATK.AJ987 - b 55:2 tricks=2:6")
    assert not principal_variation_errors(solver, p)
    p.push("9S")
    a = solver.solve(p)
    assert a.win == "a" and str(a.pv[0]) == "9D", (a.win, [str(m) for m in a.pv])


@pytest.mark.parametrize("game", WIN_GAMES)
def test_budgeted_bounds_hold_near_game_wins(game):
    """Budgeted solves narrow every move by zero-window tests, some beyond every real value:
    their proven bounds must hold the exact values where wins are at stake."""
    rules = Rules.parse(game)
    bad = []
    for p in win_positions(game)[: WIN_COUNT.get(game, 40) // 2]:
        exact = Solver(rules, 16).solve(p, pv=False)
        for nodes in (300, 3000):
            b = Solver(rules, 16).solve(p, limit=Limit(nodes=nodes))
            for mv in b.moves:
                v = exact.move_value(mv.move)
                if not mv.lower <= v <= mv.upper:
                    bad.append(f"{p.bpn()}: {mv.move} worth {v}, bounds {mv.lower}..{mv.upper}")
            if not b.lower <= exact.value <= b.upper:
                bad.append(f"{p.bpn()}: worth {exact.value}, bounds {b.lower}..{b.upper}")
    assert not bad, f"{len(bad)} bounds broken:\n" + "\n".join(bad[:5])


# ------------------------------------------------- MTD(f)'s first guess early in a deal
@pytest.mark.parametrize(
    ("game", "at", "expected"),
    [("brisque", 1, 6), ("briscan", 1, 7), ("brisque", 2, 5), ("brisque", 3, 2), ("briscan", 4, 2)],
)
def test_the_guess_looks_deeper_early_in_a_deal(game, at, expected):
    """Early in a deal (9 or more talon tricks left) MTD(f) starts from a search to 4 talon
    tricks before the talon's end, later from a two-trick search; the budgeted solve asks
    the engine for the same depth (Engine.guess_depth), counted from the root.  A lead
    leaves the talon as it is, so each root move has the root's depth."""
    from solver.play.dealing import random_position

    p = random_position(1, game, trick=at)
    assert p.trick_number == at and p.trick < 0
    eng = Solver(p.rules).engine
    eng.load(engine_root(p))
    assert {eng.guess_depth(m) for m in eng.root_moves()} == {expected}


@pytest.mark.slow
def test_a_deep_guess_keeps_the_whole_deal_exact():
    """The deeper guess changes only where MTD(f) starts: the value of a whole deal is the
    same as plain alpha-beta's (MTD(f) off), here a short one (seed 3, a game lost)."""
    from solver.play.dealing import deal

    p = deal(3, Rules())
    on, off = Solver(Rules(), 20), Solver(Rules(), 20)
    off.engine.set_features(mtdf=False)
    for s in (on, off):
        s.engine.load(engine_root(p))
    assert on.engine.value() == off.engine.value() == -WIN_RAW


def with_and_without_win_tests(p: Position, table_bits: int) -> tuple[dict[bool, int], dict[bool, int]]:
    """The value of Brisque position ``p`` and the nodes it took, each keyed by whether the
    game-win tests were on: two fresh engines, so that neither answer helps the other."""
    values, nodes = {}, {}
    for tests in (True, False):
        eng = Solver(Rules(), table_bits).engine
        eng.set_features(win_tests=tests)
        eng.load(engine_root(p))
        values[tests] = eng.value()
        nodes[tests] = eng.nodes
    return values, nodes


def test_the_game_win_tests_keep_a_later_position_exact():
    """From 6 talon tricks left: a position with 7 left whose game is lost outright
    (benchmarks/results/win-tests-k7.jsonl, seed 13) gets the same value with the tests and
    without them, in far fewer nodes."""
    from solver.play.dealing import positions_with_talon_left

    p = positions_with_talon_left(7, 1, Rules(), first_seed=13)[0]
    values, nodes = with_and_without_win_tests(p, 20)
    assert values[True] == values[False] == -WIN_RAW
    assert nodes[True] * 10 < nodes[False]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 5, 11])
def test_the_game_win_tests_keep_whole_deals_exact(seed):
    """With 6 or more talon tricks left in Brisque MTD(f) first tests whether either player
    can force four kings or queens: the value of whole deals won and lost outright (seeds 3, 5 and 11) is the
    same with the tests and without them, and a forced win is found in far fewer nodes
    (seed 11: 72 M without the tests)."""
    from solver.play.dealing import deal

    values, nodes = with_and_without_win_tests(deal(seed, Rules()), 20)
    assert values[True] == values[False] and is_raw_game_win(values[True])
    assert nodes[True] < nodes[False]
    if seed == 11:
        assert nodes[True] < 2_000_000 < 20_000_000 < nodes[False]


@pytest.mark.slow
def test_the_game_win_tests_leave_the_margin_search_as_it_was():
    """On a deal without a game win (seed 21, +20) the tests cost only their own nodes: they
    search in a scratch generation of the tables and restore the killer moves, so the
    margin's search after them takes the nodes it takes without them (within the tests'
    own cost, well under a million nodes here), where sharing the table cost up to 1.5 times."""
    from solver.play.dealing import deal

    values, nodes = with_and_without_win_tests(deal(21, Rules()), 22)
    assert values[True] == values[False] == 20
    assert 0 < nodes[True] - nodes[False] < 1_000_000
