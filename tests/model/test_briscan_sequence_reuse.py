"""Briscan: a card of a declared sequence may later count only in a quartet, so neither the
ace of trumps nor a carte blanche can use it (position model and engine agree)."""

from test_briscan import decls, final_phase

from solver.engine.reference import reference_solve
from solver.engine.solving import solve


def test_ace_of_trumps_after_a_trump_sequence_with_the_ace_is_refused():
    # trumps are clubs; a holds the A K Q of clubs and has already declared them as a tierce
    p = final_phase("9.9..AKQ", "8.8.9.T7", melds="3AC/-")
    assert "+at" not in decls(p)
    q = final_phase("9.9..AKQ", "8.8.9.T7")
    assert "+at" in decls(q)


def test_ace_of_trumps_declared_first_then_the_sequence_is_allowed():
    q = final_phase("9.9..AKQ", "8.8.9.T7")
    q.push("+at")
    assert "+3AC" in decls(q)


def test_carte_blanche_refused_when_a_card_was_in_a_sequence():
    p = final_phase("..987.87", "A.A.A.AT", melds="39D/-", trump="H")
    assert "+bp" not in decls(p)
    q = final_phase("..987.87", "A.A.A.AT", trump="H")
    assert "+bp" in decls(q)


def test_engine_agrees_with_the_reference_on_the_reuse_rule():
    for p in (
        final_phase("9.9..AKQ", "8.8.9.T7", melds="3AC/-"),
        final_phase("9.9..AKQ", "8.8.9.T7"),
        final_phase("..987.87", "A.A.A.AT", melds="39D/-", trump="H"),
    ):
        value, moves = reference_solve(p)
        a = solve(p)
        assert a.value == value
        assert {str(m.move): m.value for m in a.moves} == moves
