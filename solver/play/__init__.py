"""Play: every player (one ``Player`` protocol), dealing from a seed, deals played to the
end, games to the target and duplicate matches between players.

>>> from solver.play import deal, make_player, play_deal
>>> play_deal(deal(1), [make_player("random"), make_player("greedy")]).final().is_over()
True
"""

from solver.play.dealing import GameResult, deal, play_deal, play_match, random_position
from solver.play.match import MatchResult, run_match
from solver.play.players import PLAYER_KINDS, Player, make_player

__all__ = [
    "GameResult",
    "MatchResult",
    "PLAYER_KINDS",
    "Player",
    "deal",
    "make_player",
    "play_deal",
    "play_match",
    "random_position",
    "run_match",
]
