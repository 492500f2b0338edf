"""Our strategies as OpenSpiel policies, so that OpenSpiel's own algorithms (its
``exploitability`` module, its best responses) can judge them.

A strategy of :func:`solver.analysis.equilibrium.equilibrium` (``strategies=True``) is keyed
by information set as (seat, his hand at the start, the moves since); an OpenSpiel state of
the same start gives that key from its deal and its moves.  Every state of one OpenSpiel
information state must give the same key, and no key two OpenSpiel information states:
the check, both ways, that the two games' information sets are the same.

>>> import pyspiel
>>> from open_spiel.python.algorithms import exploitability as openspiel
>>> from solver.analysis.equilibrium import equilibrium, exploitability, public_view
>>> from solver.model.position import Position
>>> p = Position("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H shown=a:KS9C")
>>> a = equilibrium(p, strategies=True)
>>> game = pyspiel.load_game("python_petite_brisque", {"position": public_view(p).bpn(), "exact_tail": True})
>>> pimc = pure_strategy(a.pimc_strategy)
>>> ours, theirs = exploitability(p, pimc), openspiel.nash_conv(game, tabular_policy(game, pimc))
>>> round(ours, 6) == round(float(theirs), 6), ours > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from open_spiel.python.policy import TabularPolicy

from solver.analysis.public import history_entry
from solver.openspiel.game import BrisqueState

InfoKey = tuple[int, int, tuple[int, ...]]


def state_key(state: BrisqueState, player: int) -> InfoKey:
    """The equilibrium solver's information-set key of ``player`` in ``state``: his seat,
    his hand as dealt at the start, and the moves played since."""
    if state.start is None:
        raise ValueError("a chance node has no information set key")
    return (player, state.start.hands[player], tuple(history_entry(step[1], step[3]) for step in state.steps))


def tabular_policy(game: Any, strategy: Mapping[InfoKey, Mapping[int, float]]) -> TabularPolicy:
    """``strategy`` (information-set key -> {move: probability}) as a TabularPolicy of
    ``game``; an information set it does not name plays its moves alike.  Raises ValueError
    when the two games' information sets differ (either way), or when the strategy plays a
    move that is not legal."""
    policy = TabularPolicy(game)
    seen: dict[int, InfoKey] = {}
    rows: dict[InfoKey, int] = {}  # (the other way: one of our sets, one OpenSpiel state)
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            for action, _ in state.chance_outcomes():
                stack.append(state.child(action))
            continue
        player = state.current_player()
        key = state_key(state, player)
        row = policy.state_lookup[state.information_state_string(player)]
        if row in seen:
            if seen[row] != key:
                raise ValueError(f"one OpenSpiel information state, two keys: {seen[row]} and {key}")
        else:
            if rows.setdefault(key, row) != row:
                raise ValueError(f"one information set {key} of ours, two of OpenSpiel's")
            seen[row] = key
            probs = strategy.get(key)
            legal = state.legal_actions()
            if probs is not None and not set(probs) <= set(legal):
                raise ValueError(
                    f"the strategy plays {sorted(set(probs) - set(legal))} at {key}: not legal there"
                )
            policy.action_probability_array[row] = 0.0
            for m in legal:
                policy.action_probability_array[row, m] = (
                    probs.get(m, 0.0) if probs is not None else 1.0 / len(legal)
                )
        for action in state.legal_actions():
            stack.append(state.child(action))
    return policy


def pure_strategy(moves: Mapping[InfoKey, int]) -> dict[InfoKey, dict[int, float]]:
    """A pure strategy (one move by information set, as PIMC's) in the mixed form."""
    return {key: {m: 1.0} for key, m in moves.items()}


__all__ = ["InfoKey", "pure_strategy", "state_key", "tabular_policy"]
