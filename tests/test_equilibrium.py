"""The exact equilibrium of the public subgame (issue 15, part 2): checked against
OpenSpiel's sequence-form LP on the same games, and for what an equilibrium must be."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

pytest.importorskip("scipy")

from solver.analysis import analyse  # noqa: E402
from solver.analysis.equilibrium import domain_problem, equilibrium, public_view  # noqa: E402
from solver.errors import ArgumentError  # noqa: E402
from solver.model.position import Position  # noqa: E402
from solver.play.dealing import deal, random_position  # noqa: E402


def petite_ending(seed: int) -> Position:
    """Petite Brisque, two cards each, on lead (seeded random play)."""
    p = deal(seed, "petite")
    rng = random.Random(seed)
    while p.hand_size(0) > 2 or p.trick >= 0:
        p.push(rng.choice(p.legal_moves()))
    return p


def last_talon_trick(seed: int, rules: str) -> Position:
    """The start of the last talon trick (seeded random play)."""
    trick = 11 if rules.startswith(("briscan", "petite")) else 10
    for s in range(seed, seed + 200):
        p = random_position(s, rules, trick)
        if not p.is_over() and p.trick < 0 and p.talon_count == 1:
            return p
    raise AssertionError("no such position")


def shown(p: Position, seat: int) -> Position:
    """``p`` with ``seat``'s hand shown to both (a smaller public subgame)."""
    q = p.copy()
    q.shown[seat] |= q.hands[seat]
    return Position(q.bpn())


def openspiel_value(view: Position, seat: int) -> float:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import sequence_form_lp

    import solver.openspiel  # noqa: F401

    name = {"petite": "python_petite_brisque"}.get(view.rules.game, f"python_{view.rules.game}")
    game = pyspiel.load_game(name, {"position": view.bpn(), "exact_tail": True})
    values = sequence_form_lp.solve_zero_sum_game(game)[:2]
    return float(values[seat])


@pytest.mark.parametrize(
    "make",
    [
        lambda: shown(petite_ending(1), 0),
        lambda: shown(petite_ending(4), 1),
        lambda: shown(last_talon_trick(3, "briscan"), 1),
        lambda: shown(last_talon_trick(5, "petite(draw=yes)"), 0),
    ],
)
def test_the_game_value_is_openspiels_sequence_form_lp(make):
    p = make()
    a = equilibrium(p)
    expected = openspiel_value(public_view(p), p.turn)
    assert abs(a.game_value - expected) < 2e-4, (p.bpn(), a.game_value, expected)


@pytest.mark.parametrize(
    "make",
    [
        lambda: petite_ending(2),
        lambda: last_talon_trick(7, "briscan"),
        lambda: last_talon_trick(9, "brisque"),
    ],
)
def test_an_equilibrium_is_what_it_says(make):
    p = make()
    if p.rules.game == "brisque":
        p = shown(p, 1 - p.turn)  # (a smaller subgame: the whole one takes long)
    a = equilibrium(p)
    assert 0 <= a.exploitability <= 0.1
    assert abs(sum(m.probability for m in a.moves) - 1) < 1e-6
    assert a.value is not None and a.best
    # every move played is a best reply to the equilibrium opponent, and none does better
    for m in a.moves:
        assert m.value <= a.value + 1e-6
        if m.probability > 1e-6:
            assert abs(m.value - a.value) < 1e-6
    assert a.pimc_move is not None and a.pimc_loss is not None and a.pimc_loss >= -1e-9
    assert analyse(p, method="equilibrium").game_value == pytest.approx(a.game_value)


def test_outside_the_domain_is_refused_with_the_reason():
    early = deal(1)
    assert "talon tricks left" in (domain_problem(early) or "")
    with pytest.raises(ArgumentError, match="outside the equilibrium solver's domain"):
        equilibrium(early)
    with pytest.raises(ArgumentError, match="two cards a hand"):
        equilibrium(deal(1, "petite"))


def test_the_command_line_answers_and_refuses(tmp_path):
    p = shown(petite_ending(1), 0)
    run = [sys.executable, "-m", "solver.cli", "analyse"]
    res = subprocess.run(
        [*run, p.bpn(), "--method", "equilibrium", "--json"], capture_output=True, cwd=tmp_path
    )
    assert res.returncode == 0, res.stderr
    answer = json.loads(res.stdout)
    assert answer["method"] == "equilibrium" and answer["exploitability"] <= 0.1
    assert {"game_value", "value", "moves", "pimc_move", "pimc_loss", "deals"} <= set(answer)
    text = subprocess.run([*run, p.bpn(), "--method", "equilibrium"], capture_output=True, cwd=tmp_path)
    assert text.returncode == 0 and b"Exploitability" in text.stdout
    bad = subprocess.run([*run, deal(1).bpn(), "--method", "equilibrium"], capture_output=True, cwd=tmp_path)
    assert bad.returncode == 2 and b"outside the equilibrium" in bad.stderr and b"Traceback" not in bad.stderr
