"""Raw future values (before conversion to final values) agree between engine and reference,
game-winning events included: a win is worth exactly +-WIN_RAW whatever was scored before it,
so declaring four kings at once and collecting points first are the same value."""

import pytest

from solver.engine.reference import reference_values
from solver.engine.seam import engine_root
from solver.engine.solving import Solver
from solver.model.value import is_raw_game_win
from solver.native.constants import WIN_RAW
from solver.play.dealing import random_final_phase


@pytest.mark.slow
@pytest.mark.parametrize("stack_opponent", [False, True])
def test_raw_values_agree_with_quartets_in_play(stack_opponent):
    solver = Solver(table_bits=16)
    wins = 0
    for seed in range(150):
        p = random_final_phase(seed, "brisque", 4 + seed % 3, stack="quartet", stack_opponent=stack_opponent)
        if p.is_over():
            continue
        solver.engine.load(engine_root(p))
        engine = {m: v for m, v in solver.engine.move_values()}
        ref = {int(m): v for m, v in ((mv, reference_values(p)[str(mv)]) for mv in p.legal_moves())}
        assert engine == ref, p.bpn()
        wins += sum(1 for v in ref.values() if abs(v) == WIN_RAW)
    assert wins > 0  # the set really exercises game-winning events


def test_a_win_is_exactly_win_raw():
    # the player on lead holds four kings or queens: declaring them at once or later both win
    p = random_final_phase(218, "brisque", 6, stack="quartet")
    values = reference_values(p)
    assert max(values.values()) == WIN_RAW
    assert all(not is_raw_game_win(v) or abs(v) == WIN_RAW for v in values.values())
