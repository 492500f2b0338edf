"""Players for matches: random, greedy, PIMC with N worlds, and the clairvoyant player.

A player spec is a short string: ``random``, ``greedy``, ``pimc`` (100 worlds) or
``pimc:N``, ``clairvoyant``.

>>> make_player("pimc:20").name
'pimc:20'
"""
from __future__ import annotations

import random
import zlib

from solver.game import GreedyPlayer, RandomPlayer
from solver.moves import Move
from solver.position import Position


def _decision_seed(position: Position, salt: int) -> int:
    """A seed fixed by the position and the player's seed: same game, same decisions."""
    return zlib.crc32(position.bpn().encode()) ^ (salt * 0x9E3779B1 & 0xFFFFFFFF)


class PimcPlayer:
    """Samples worlds consistent with what it sees and plays the best mean move."""

    def __init__(self, worlds: int = 100, seed: int = 0):
        self.worlds = worlds
        self.seed = seed
        self.name = f"pimc:{worlds}"

    def choose(self, position: Position) -> Move:
        from solver.sampling import analyse
        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        view = position.view(position.turn)
        a = analyse(view, worlds=self.worlds, seed=_decision_seed(view, self.seed))
        return a.best[0]


class ClairvoyantPlayer:
    """Sees every card (the opponent's hand and the talon order) and plays the double-dummy
    best move: exact late in the deal, a three-trick estimate early (as PIMC's worlds)."""

    name = "clairvoyant"

    def choose(self, position: Position) -> Move:
        from solver.sampling import world_limit
        from solver.search import solve
        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        a = solve(position, pv=False, limit=world_limit(position))
        return a.best[0]


PLAYER_KINDS = ("random", "greedy", "pimc", "pimc:N", "clairvoyant")


def make_player(spec: str, seed: int = 0):
    """A player from its spec; raises ValueError listing the valid ones."""
    s = spec.strip().lower()
    if s == "random":
        return RandomPlayer(seed)
    if s == "greedy":
        return GreedyPlayer()
    if s == "clairvoyant":
        return ClairvoyantPlayer()
    if s == "pimc" or s.startswith("pimc:"):
        n = 100 if s == "pimc" else s[5:]
        try:
            worlds = int(n)
            if worlds < 1:
                raise ValueError
        except ValueError:
            raise ValueError(f"player {spec!r}: expected pimc:N with N a positive number of worlds") from None
        return PimcPlayer(worlds, seed)
    raise ValueError(f"unknown player {spec!r}: expected one of {', '.join(PLAYER_KINDS)}")


__all__ = ["ClairvoyantPlayer", "PLAYER_KINDS", "PimcPlayer", "make_player"]
