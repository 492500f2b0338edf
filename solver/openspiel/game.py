"""The three games as OpenSpiel Python games: ``python_brisque``, ``python_briscan`` and
``python_petite_brisque`` (the optional extra ``pip install '.[openspiel]'``).

Each game takes two parameters: ``rules`` (an option string of its game, such as
``brisque(target=300)``; left out, the position's rules or the game's own) and ``position`` (a BPN to start from: a full position, a
player's view, or a spectator's view with both hands hidden; empty: the game deals from the
start).  Chance deals what the BPN does not show, every consistent deal equally likely
(:mod:`solver.openspiel.chance`).  Actions are the move codes of the package
(:class:`solver.model.moves.Move`: cards 0-31, ``x`` 32, ``pass`` 33, declarations from 40).
Returns are the deal's final margins, zero-sum; a game won outright is worth the points its
winner still needed (:mod:`solver.analysis.ranking`, ``win_worth="match"``).

>>> import pyspiel
>>> import solver.openspiel
>>> bpn = "petite K...9/?2 TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H"  # a's view: b's hand hidden
>>> state = pyspiel.load_game("python_petite_brisque", {"position": bpn}).new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # b's two cards: any two of the 22 unseen
(True, 22)
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pyspiel

from solver.analysis.public import no_hidden_decision, public_view
from solver.errors import ArgumentError, IllegalMoveError, NotationError, PlayError, PositionError
from solver.model.bits import cards_of
from solver.model.bpn import SEATS
from solver.model.cards import card_str
from solver.model.melds import MELDS, game_melds
from solver.model.moves import DECLARE_BASE, EXCHANGE_CODE, PASS_CODE, Move, move
from solver.model.position import Position
from solver.model.rules import Rules
from solver.native.constants import WIN_VALUE
from solver.openspiel.chance import DealPlan
from solver.openspiel.resample import resample
from solver.openspiel.returns import MATCH, played_returns, solved_returns
from solver.openspiel.steps import Step, play_step

NUM_ACTIONS = DECLARE_BASE + len(MELDS)  # every move code
SHORT_NAMES = {"brisque": "python_brisque", "briscan": "python_briscan", "petite": "python_petite_brisque"}
LONG_NAMES = {"brisque": "Brisque", "briscan": "Briscan", "petite": "Petite Brisque"}


_ENCODING = str.maketrans({",": ";", "(": "[", ")": "]", "=": "~"})
_DECODING = str.maketrans({";": ",", "[": "(", "]": ")", "~": "="})


def _encode(text: str) -> str:
    """A rules string or BPN in the form an OpenSpiel game string carries: , ( ) = as ; [ ] ~.

    >>> _encode("brisque(target=300)")
    'brisque[target~300]'
    """
    return text.translate(_ENCODING)


def _decode(text: str) -> str:
    """The inverse of :func:`_encode` (a text given as it is passes unchanged)."""
    return text.translate(_DECODING)


def _move_name(action: int) -> str:
    """The move ``action`` as BPN writes it; an action that is no move is an error (as
    leduc_poker's "Unknown action"), not a made-up name such as Move's ``move200``."""
    try:
        return str(move(action))
    except KeyError:
        raise ArgumentError(
            f"action {action} is no move: expected 0 to {PASS_CODE} (cards 0-31, x {EXCHANGE_CODE}, "
            f"pass {PASS_CODE}) or {DECLARE_BASE} to {NUM_ACTIONS - 1} (declarations)"
        ) from None


def max_moves(rules: Rules) -> int:
    """A bound on the decisions of a deal: every card, every declaration, an exchange and a pass."""
    return 2 * rules.tricks_per_deal + 2 * len(game_melds(rules.game)) + 2


def _game_type(game: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game],
        long_name=LONG_NAMES[game],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        # (rules "": the position's, or the game's own; see BrisqueGame)
        parameter_specification={"rules": "", "position": "", "exact_tail": False},
    )


class BrisqueGame(pyspiel.Game):  # type: ignore[misc]
    """One of the three games, from its parameters (see the module docstring)."""

    game_name = "brisque"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        # (rules "", the default, is "the position's, or the game's own": OpenSpiel fills a
        # default in, so a default of the bare game name could not be told from one given)
        rules_text = _decode(str(given.get("rules", "")))
        bpn = _decode(str(given.get("position", "")))
        try:
            rules = Rules.parse(rules_text) if rules_text.strip() else None
            start = Position(bpn) if bpn.strip() else None
        except NotationError as exc:
            raise ValueError(f"{SHORT_NAMES[self.game_name]}: {exc}") from None
        if rules is not None and rules.game != self.game_name:
            raise ValueError(
                f"{SHORT_NAMES[self.game_name]}: rules {rules_text!r} are not {self.game_name}'s "
                f"(load {SHORT_NAMES[rules.game]} for them)"
            )
        if start is not None:
            # a position's rules stand; rules given as well must be the same rules, however
            # they are spelt (brisque and brisque(target=500) are the same)
            if rules is not None and start.rules != rules:
                raise ValueError(
                    f"{SHORT_NAMES[self.game_name]}: the position's rules {start.rules} differ from "
                    f"rules={rules_text!r} (leave rules out to play the position's)"
                )
            rules = start.rules
            if rules.game != self.game_name:
                raise ValueError(
                    f"{SHORT_NAMES[self.game_name]}: the position {bpn!r} is not {self.game_name}"
                )
        if rules is None:
            rules = Rules.parse(self.game_name)
        # the parameters say the rules the game plays; OpenSpiel's game strings split on
        # , ( ) and =: keep the texts in a form they carry
        given["rules"], given["position"] = _encode(str(rules)), _encode(bpn)
        try:
            self.plan = DealPlan.of(start, rules)
        except PositionError as exc:
            raise ValueError(f"{SHORT_NAMES[self.game_name]}: {exc}") from None
        if start is not None and start.is_over():
            raise ValueError(f"{SHORT_NAMES[self.game_name]}: the deal is over in {bpn!r}")
        self.rules = rules
        self.moves_bound = max_moves(rules)
        # end where no decision with hidden cards is left, valued by the exact solver (the
        # public subgame of solver.analysis.equilibrium, for OpenSpiel's tree algorithms)
        self.exact_tail = bool(given.get("exact_tail", False))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=32,
            num_players=2,
            # (a game won counts the points its winner still needed: up to the target)
            min_utility=-float(max(WIN_VALUE, rules.target)),
            max_utility=float(max(WIN_VALUE, rules.target)),
            utility_sum=0.0,
            max_game_length=self.moves_bound,
        )
        super().__init__(_game_type(self.game_name), info, given)

    def new_initial_state(self) -> BrisqueState:
        return BrisqueState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BrisqueObserver:
        return BrisqueObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self, params)


class BriscanGame(BrisqueGame):
    game_name = "briscan"


class PetiteBrisqueGame(BrisqueGame):
    game_name = "petite"


class BrisqueState(pyspiel.State):  # type: ignore[misc]
    """A state: the chance cards dealt so far, then the full-information position and the
    moves played, each with the cards it brought into each hand (what its owner saw drawn)."""

    def __init__(self, game: BrisqueGame) -> None:
        super().__init__(game)
        self.plan = game.plan
        self.dealt: list[int] = []
        # the deal as chance made it (never played on: what information states start from),
        # and the position it is now
        self.start: Position | None = None if self.plan.size else self.plan.world([])
        self.position: Position | None = self.start.copy() if self.start is not None else None
        # (mover, move, cards it brought into each hand, cards it showed): what each saw of it
        self.steps: list[Step] = []

    # ---- the OpenSpiel API
    def current_player(self) -> int:
        if self.position is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.position.turn

    def _legal_actions(self, player: int) -> list[int]:
        if self.position is None or player != self.position.turn:
            return []
        return sorted(int(m) for m in self.position.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.plan.outcomes(self.dealt)

    def _apply_action(self, action: int) -> None:
        if self.position is None:
            cards = [c for c, _ in self.plan.outcomes(self.dealt)]
            if action not in cards:  # (a card dealt already, or not a card: refused as a move is)
                raise IllegalMoveError(
                    f"chance action {action} is not a card {self.plan.slot_name(self.dealt)} may get "
                    f"here; expected one of {' '.join(f'{c} ({card_str(c)})' for c in cards)}"
                )
            self.dealt.append(action)
            if len(self.dealt) == self.plan.size:
                self.start = self.plan.world(self.dealt)
                self.position = self.start.copy()
            return
        self.steps.append(play_step(self.position, action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            if not 0 <= action < 32:
                raise ArgumentError(f"chance action {action} is no card: expected 0 to 31 (the cards)")
            return f"deal {card_str(action)}"  # (which slot it fills follows from the history)
        return _move_name(action)

    def is_terminal(self) -> bool:
        if self.position is None:
            return False
        return self.position.is_over() or (self.get_game().exact_tail and no_hidden_decision(self.position))

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.position is None:
            return [0.0, 0.0]
        if self.position.is_over():
            return played_returns(self.position)
        return solved_returns(self.position)  # (exact_tail: the rest is solved exactly)

    def __str__(self) -> str:
        if self.position is None:
            return "dealing: " + " ".join(card_str(c) for c in self.dealt)
        return self.position.bpn()

    def __deepcopy__(self, memo: dict[int, Any]) -> BrisqueState:
        other = self.__class__.__new__(self.__class__)
        pyspiel.State.__init__(other, self.get_game())
        other.__dict__.update({k: copy.copy(v) for k, v in self.__dict__.items() if k != "position"})
        other.dealt = list(self.dealt)
        other.position = self.position.copy() if self.position is not None else None
        other.steps = list(self.steps)
        return other

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BrisqueState:
        """A state ``player_id`` cannot tell from this one, drawn uniformly among the
        consistent deals (:mod:`solver.openspiel.resample`, from the deal and the moves)."""
        if self.position is None:
            raise PlayError("resample_from_infostate at a chance node: nothing has been dealt yet")
        if self.position.rules.draws and self.position.talon_count == 0:
            same: BrisqueState = self.clone()  # the talon gone: every card's place is known to both
            return same
        rng = random.Random(int(probability_sampler() * 2**32))
        return resample(self.plan, self.dealt, self.steps, self.position, player_id, rng, self._replayed)

    def _replayed(self, dealt: list[int]) -> BrisqueState | None:
        """The state reached by this state's moves from the deal ``dealt`` (built from the
        game's initial state, so that its history is its own), or None if one is refused."""
        other: BrisqueState = self.get_game().new_initial_state()
        try:
            for action in [*dealt, *(move for _, move, *_ in self.steps)]:
                other.apply_action(action)
        except (IllegalMoveError, PositionError):
            return None
        return other

    # ---- what each player has seen
    def start_view(self, player: int | None) -> str:
        """The start as ``player`` saw it (None: a spectator), once the deal is dealt."""
        if self.start is None:
            return "dealing"
        return public_view(self.start).bpn() if player is None else self.start.view(player).bpn()

    def step_text(self, step: Step, player: int | None) -> str:
        """One move as ``player`` saw it: the move and the cards it showed (public: a carte
        blanche shows the whole hand), and the cards he received."""
        mover, move, received, showed = step
        text = f"{SEATS[mover]}:{Move(move)}"
        if showed:
            text += "=" + "".join(card_str(c) for c in cards_of(showed))
        if player is not None and received[player]:
            text += "+" + "".join(card_str(c) for c in cards_of(received[player]))
        return text


class BrisqueObserver:
    """Observations and information states (OpenSpiel's PyObserver interface).

    With perfect recall (an information state): the start as the player saw it, then every
    move (all are public) and the cards that move brought into his own hand.  Without: the
    position as he sees it now (his view).  ``private_info`` NONE gives a spectator's; he
    never sees a card he has not seen in play."""

    def __init__(self, iig_obs_type: Any, game: BrisqueGame, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation of every player's private cards is not supported")
        self.steps = game.moves_bound
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("player", 2, (2,))]
        if self.private:
            pieces.append(("hand", 32, (32,)))
        pieces += [
            ("out", 32, (32,)),
            ("trick", 32, (32,)),
            ("turnup", 32, (32,)),
            ("shown", 64, (2, 32)),
            ("voids", 8, (2, 4)),
            ("score", 2, (2,)),
            ("tricks", 2, (2,)),
            ("talon", 1, (1,)),
        ]
        if self.perfect_recall:
            pieces += [("start_hand", 32, (32,)), ("start_turnup", 32, (32,))]
            pieces += [("movers", 2 * self.steps, (self.steps, 2))]
            pieces.append(("moves", NUM_ACTIONS * self.steps, (self.steps, NUM_ACTIONS)))
            pieces.append(("showed", 32 * self.steps, (self.steps, 32)))
            if self.private:
                pieces.append(("received", 32 * self.steps, (self.steps, 32)))
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        i = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[i : i + size].reshape(shape)
            i += size

    def _seen(self, state: BrisqueState, player: int) -> Position | None:
        if state.position is None:
            return None
        return state.position.view(player) if self.private else public_view(state.position)

    def set_from(self, state: BrisqueState, player: int) -> None:
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        v = self._seen(state, player)
        if v is None:
            return
        if self.private:
            _bits(d["hand"], v.hands[player])
        _bits(d["out"], v.out)
        if v.trick >= 0:
            d["trick"][v.trick] = 1
        if v.turnup >= 0:
            d["turnup"][v.turnup] = 1
        for i in (0, 1):
            _bits(d["shown"][i], v.shown[i] & v.hands[i])
            for s in range(4):
                d["voids"][i][s] = v.voids[i] >> s & 1
        d["score"][:] = [v.score[0] / 1000.0, v.score[1] / 1000.0]
        d["tricks"][:] = [v.tricks[0] / 16.0, v.tricks[1] / 16.0]
        d["talon"][0] = v.talon_count / 32.0
        if self.perfect_recall and state.start is not None:
            start = state.start
            if self.private:
                _bits(d["start_hand"], start.hands[player])
            if start.turnup >= 0:  # (dealt by chance in a game from the start)
                d["start_turnup"][start.turnup] = 1
            for t, (mover, move, received, showed) in enumerate(state.steps[: self.steps]):
                d["movers"][t][mover] = 1
                d["moves"][t][move] = 1
                _bits(d["showed"][t], showed)
                if self.private:
                    _bits(d["received"][t], received[player])

    def string_from(self, state: BrisqueState, player: int) -> str:
        who = player if self.private else None
        if state.position is None:
            return f"p{player} dealing"  # (chance nodes: nobody decides there)
        if not self.perfect_recall:
            v = self._seen(state, player)
            return f"p{player} {v.bpn() if v is not None else ''}"
        moves = " ".join(state.step_text(s, who) for s in state.steps)
        return f"p{player} {state.start_view(who)} | {moves}"


def _bits(row: np.ndarray[Any, Any], mask: int) -> None:
    for c in cards_of(mask):
        row[c] = 1


for _cls in (BrisqueGame, BriscanGame, PetiteBrisqueGame):
    pyspiel.register_game(_game_type(_cls.game_name), _cls)

__all__ = [
    "MATCH",
    "NUM_ACTIONS",
    "SHORT_NAMES",
    "Step",
    "play_step",
    "BriscanGame",
    "BrisqueGame",
    "BrisqueState",
    "PetiteBrisqueGame",
]
