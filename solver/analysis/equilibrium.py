"""Exact equilibrium play where the imperfect-information part is small (issue 15): the
public subgame solved as a sequence-form linear program.

The *public subgame* of a position is the game from what a spectator sees: both hands
hidden but their shown cards, the talon order hidden, with a uniform prior over the deals
consistent with that (the voids included).  In it each player knows his own hand and every
move.  Its leaves are where no decision with hidden cards is left: the talon gone (every
card's place is then known to both, and the engine solves the rest exactly), one card each,
or the end of the deal.  The domain (``domain_problem``): at most one talon trick left in
the games that draw, and at most two cards a hand in Petite Brisque without drawing.

The equilibrium comes from the sequence form (von Stengel): one linear program over the
root player's realization plans, solved by HiGHS (scipy), whose duals are the opponent's
plan; its value is the game's value, and each player's behaviour strategy follows from
his plan.  ``exploitability`` is the sum of both
players' best-response gains against it, in points.

>>> a = equilibrium("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H")
>>> a.method, a.deals > 1, a.exploitability < 0.1
('equilibrium', True, True)
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.analysis.ranking import RankingRule, WinWorth
from solver.engine.api import shared_solver
from solver.engine.results import current_margin
from solver.engine.seam import engine_root
from solver.errors import ArgumentError, PositionError
from solver.model.bits import cards_of, popcount
from solver.model.moves import Move, move
from solver.model.position import SEATS, Position
from solver.model.value import Value
from solver.native.constants import WIN_THRESHOLD

InfoKey = tuple[int, int, tuple[int, ...]]  # (seat, his hand at the root, the moves so far)
Seq = tuple[InfoKey, int] | None  # a sequence: an information set and an action (None: empty)


def domain_problem(p: Position) -> str | None:
    """Why ``p`` is outside the equilibrium solver's domain (None: inside).

    >>> domain_problem(Position("brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1"))
    '7 talon tricks left: the equilibrium is solved with at most one'
    """
    if p.is_over():
        return "the deal is over"
    if p.rules.draws:
        left = p.talon_count + (1 if p.turnup >= 0 else 0)
        if left > 2:
            return f"{(left + 1) // 2} talon tricks left: the equilibrium is solved with at most one"
        return None
    if max(p.hand_size(0), p.hand_size(1)) > 2:
        return "more than two cards a hand: in Petite Brisque the equilibrium is solved with at most two"
    return None


def public_view(p: Position) -> Position:
    """What a spectator sees of ``p``: both hands hidden but their shown cards, the talon
    order hidden (unlike a player, he cannot tell the hands apart once the talon is gone)."""
    v = p.copy()
    if v.rules.draws and v.talon_count:
        v.talon = None
    for i in (0, 1):
        v.unknown[i] += popcount(v.hands[i] & ~v.shown[i])
        v.hands[i] &= v.shown[i]
    v.drawn &= v.hands[v.turn]
    return v


def public_deals(v: Position) -> Iterator[Position]:
    """Every deal consistent with the public view ``v``, each once (equally likely)."""
    unseen = cards_of(v.unseen())
    allowed = [~v.void_cards(i) & 0xFFFFFFFF for i in (0, 1)]
    ordered = v.rules.draws and v.talon is None and v.talon_count > 0
    for a in itertools.combinations([c for c in unseen if allowed[0] >> c & 1], v.unknown[0]):
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations([c for c in rest if allowed[1] >> c & 1], v.unknown[1]):
            left = [c for c in rest if c not in b]
            for order in itertools.permutations(left) if ordered else [()]:
                w = v.copy()
                for seat, cards in ((0, a), (1, b)):
                    for c in cards:
                        w.hands[seat] |= 1 << c
                    w.unknown[seat] = 0
                if ordered:
                    w.talon = list(order)
                yield w


@dataclass(kw_only=True)
class EquilibriumMove:
    """A root move of the player to move: its equilibrium probability, and its value against
    the equilibrium opponent (he plays best afterwards), for his actual hand."""

    move: Move
    probability: float
    value: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "probability": round(self.probability, 6),
            "value": round(self.value, 4),
        }


@dataclass(kw_only=True)
class EquilibriumAnalysis:
    """The answer of :func:`equilibrium` (values for the player to move, ``turn``)."""

    bpn: str
    turn: str
    game_value: float  # the public subgame's equilibrium value, averaged over the deals
    value: float | None  # his equilibrium value with his actual hand (None: it is hidden)
    moves: list[EquilibriumMove] = field(default_factory=list)
    best: list[Move] = field(default_factory=list)
    exploitability: float = 0.0
    pimc_move: Move | None = None
    pimc_loss: float | None = None
    # with ``strategies``: both players' behaviour strategies by information set (seat, his
    # hand at the root, the moves since), the equilibrium's and PIMC's (pure), and PIMC's
    # exploitability (both players' best-response gains against PIMC, in points)
    strategy: dict[InfoKey, dict[int, float]] | None = None
    pimc_strategy: dict[InfoKey, int] | None = None
    pimc_exploitability: float | None = None
    deals: int = 0
    leaves: int = 0
    seconds: float = 0.0
    method: str = "equilibrium"

    def to_json(self) -> str:
        import json

        return json.dumps(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        return {
            "bpn": self.bpn,
            "turn": self.turn,
            "method": self.method,
            "game_value": round(self.game_value, 4),
            "value": None if self.value is None else round(self.value, 4),
            "best": [str(m) for m in self.best],
            "moves": [m.to_dict() for m in self.moves],
            "exploitability": round(self.exploitability, 6),
            "pimc_move": None if self.pimc_move is None else str(self.pimc_move),
            "pimc_loss": None if self.pimc_loss is None else round(self.pimc_loss, 4),
            "pimc_exploitability": None
            if self.pimc_exploitability is None
            else round(self.pimc_exploitability, 4),
            "deals": self.deals,
            "leaves": self.leaves,
            "seconds": round(self.seconds, 4),
        }


class _Tree:
    """The sequence form of the public subgame: each player's information sets and
    sequences, and its leaves (for the payoff matrix of the root player, by pairs of
    sequences), gathered by one walk of each deal."""

    def __init__(self, root_player: int, rank: RankingRule, root: Position):
        self.me = root_player
        self.rank = rank
        self.root = root
        self.seqs: list[dict[Seq, int]] = [{None: 0}, {None: 0}]
        self.infos: list[dict[InfoKey, tuple[int, list[int]]]] = [{}, {}]  # key -> (parent, actions)
        # by information set: (its moves, whether its cards end the hidden play, their sequences)
        self._nodes: dict[InfoKey, tuple[list[int], bool, list[int]]] = {}
        # every leaf: its probability, the two players' sequences, its deal and its value for
        # the root player (NaN until the engine has solved it)
        self.prob: list[float] = []
        self.s0: list[int] = []
        self.s1: list[int] = []
        self.deal: list[int] = []
        self.value: list[float] = []
        # the leaves the engine values: (leaf index, engine root, the mover, his margin so far)
        self.solves: list[tuple[int, Any, int, int]] = []
        # the last replies: nodes whose card moves end the play with hidden cards, each solved
        # by one native every-move call: (engine root, the mover, his margin so far, prob,
        # the other seat's sequence, deal, the information set)
        self.replies: list[tuple[Any, int, int, float, int, int, InfoKey]] = []
        # sequences of a last mover that another of his cards dominates (never better for
        # him in any deal of the information set): left out of the program
        self.dominated: list[set[int]] = [set(), set()]
        # PIMC's view: the decision nodes but the last replies, (information set, engine
        # root, mover, margin so far), at the root only or (``everywhere``) all; and each
        # information set's moves' total double-dummy numbers for the mover, over its deals
        self.everywhere = False
        self.decisions: list[tuple[InfoKey, Any, int, int]] = []
        self.pimc_totals: dict[InfoKey, Any] = {}

    def seq(self, seat: int, key: InfoKey, action: int) -> int:
        table = self.seqs[seat]
        s = (key, action)
        if s not in table:
            table[s] = len(table)
        return table[s]

    def leaf(self, prob: float, s0: int, s1: int, deal: int, value: float) -> int:
        self.prob.append(prob)
        self.s0.append(s0)
        self.s1.append(s1)
        self.deal.append(deal)
        self.value.append(value)
        return len(self.value) - 1

    def node(self, w: Position, key: InfoKey, parent: int) -> tuple[list[int], bool, list[int]]:
        """The moves at an information set (the same in each of its deals: they depend on
        the mover's hand and the public play only), registered on first sight."""
        known = self._nodes.get(key)
        if known is None:
            i = key[0]
            moves = [int(m) for m in w.legal_moves()]
            self.infos[i][key] = (parent, moves)
            ends = _ends_hidden_play(w)
            cards = [self.seq(i, key, m) for m in moves if m < 32] if ends else []
            known = self._nodes[key] = (moves, ends, cards)
        return known

    def walk(
        self,
        w: Position,
        root_hands: tuple[int, int],
        hist: tuple[int, ...],
        at: list[int],
        prob: float,
        deal: int,
    ) -> None:
        if no_hidden_decision(w):
            if w.is_over():
                self.leaf(prob, at[0], at[1], deal, float(self.rank.number(w.value(self.me), w)))
            else:
                k = self.leaf(prob, at[0], at[1], deal, math.nan)
                self.solves.append((k, engine_root(w), w.turn, current_margin(w)))
            return
        i = w.turn
        key: InfoKey = (i, root_hands[i], hist)
        moves, ends, _ = self.node(w, key, at[i])
        if not ends and (self.everywhere or not hist):
            self.decisions.append((key, engine_root(w), i, current_margin(w)))
        if ends:
            # the cards that end the trick are valued together by the engine; the other
            # moves (an exchange of the seven) are walked
            self.replies.append((engine_root(w), i, current_margin(w), prob, at[1 - i], deal, key))
            moves = [m for m in moves if m >= 32]
        for m in moves:
            before = at[i]
            at[i] = self.seq(i, key, m)
            w.push(m, check=False)
            self.walk(w, root_hands, (*hist, m), at, prob, deal)
            w.pop()
            at[i] = before

    def solve_leaves(self) -> None:
        """Value every leaf the engine must solve: the last replies' cards by one every-move
        native call, the other leaves by one batch (the leaves are built by play from a
        valid position, so their checks are skipped); and find the dominated last replies."""
        engine = shared_solver(self.root.rules).engine
        engine.clear_limits()
        if self.replies:
            self._reply_leaves(engine)
        if self.solves:
            values, _ = engine.solve_batch([s[1] for s in self.solves])
            where = np.array([s[0] for s in self.solves], dtype=np.int64)
            turns = [s[2] for s in self.solves]
            currents = [s[3] for s in self.solves]
            numbers = _numbers(self.rank, self.root, self.me, values, turns, currents)
            out = np.asarray(self.value)
            out[where] = numbers
            self.value = out.tolist()
            self.solves.clear()

    def _reply_leaves(self, engine: Any) -> None:
        results, _ = engine.solve_batch([r[0] for r in self.replies], every_move=True)
        raws: list[int] = []
        mine: list[int] = []
        counts: list[int] = []
        for reply, moves in zip(self.replies, results, strict=True):
            key = reply[6]
            raw = dict(moves)
            actions, _, cards = self._nodes[key]
            raws.extend([raw[m] for m in actions if m < 32])
            mine.extend(cards)
            counts.append(len(cards))
        # PIMC's view of the last replies it plays (the engine values every move, cards or not)
        pimc = [k for k, r in enumerate(self.replies) if self.everywhere or not r[6][2]]
        nodes = [(self.replies[k][6], self.replies[k][1], self.replies[k][2]) for k in pimc]
        self._pimc_add(nodes, [results[k] for k in pimc])
        reps = np.asarray(counts)
        turn = np.repeat([r[1] for r in self.replies], reps)
        other = np.repeat([r[4] for r in self.replies], reps)
        numbers = _numbers(
            self.rank, self.root, self.me, raws, turn, np.repeat([r[2] for r in self.replies], reps)
        )
        own = np.asarray(mine)
        self.prob.extend(np.repeat([r[3] for r in self.replies], reps).tolist())
        self.s0.extend(np.where(turn == 0, own, other).tolist())
        self.s1.extend(np.where(turn == 0, other, own).tolist())
        self.deal.extend(np.repeat([r[5] for r in self.replies], reps).tolist())
        self.value.extend(numbers.tolist())
        self._dominance(numbers, counts)
        self.replies.clear()

    def _dominance(self, numbers: Any, counts: list[int]) -> None:
        """Mark each last mover's cards that another card of his dominates: at least as good
        for him in every deal of the information set.  Leaving them out of the program keeps
        its value, and its solution stays an equilibrium of the whole game: the last mover's
        choice reaches only leaves, so against any plan the dominating card does as well."""
        ids: dict[InfoKey, int] = {}
        group = np.array([ids.setdefault(r[6], len(ids)) for r in self.replies])
        sign = np.array([1.0 if r[1] == self.me else -1.0 for r in self.replies])
        ks = np.asarray(counts)
        starts = np.cumsum(ks) - ks
        keys = list(ids)
        for k in range(2, int(ks.max(initial=0)) + 1):
            # the replies with k cards, sorted by information set: a matrix of the mover's
            # own numbers (a row a deal), its rows of one set reduced to the worst case
            pick = np.flatnonzero(ks == k)
            if not len(pick):
                continue
            pick = pick[np.argsort(group[pick], kind="stable")]
            rows = numbers[starts[pick, None] + np.arange(k)] * sign[pick, None]
            # worst[g, i, j]: card j's least margin over card i in set g's deals
            diff = rows[:, None, :] - rows[:, :, None]
            sets = group[pick]
            first = np.flatnonzero(np.r_[True, sets[1:] != sets[:-1]])
            worst = np.minimum.reduceat(diff, first, axis=0)
            at_least = worst >= -1e-9  # j is at least as good as i in every deal
            # i goes if some j is at least as good and not tied with a lower-numbered i
            lower = np.arange(k)[None, :] < np.arange(k)[:, None]  # [i, j]: j < i
            beats = at_least & (~np.transpose(at_least, (0, 2, 1)) | lower) & ~np.eye(k, dtype=bool)
            gs, cs = np.nonzero(beats.any(axis=2))
            for g, i in zip(sets[first[gs]].tolist(), cs.tolist(), strict=True):
                key = keys[g]
                self.dominated[key[0]].add(self._nodes[key][2][i])

    def _pimc_add(self, nodes: list[tuple[InfoKey, int, int]], results: list[Any]) -> None:
        """Add each node's every-move double-dummy numbers (for its mover) to its
        information set's totals: PIMC's view of the set, every consistent deal alike."""
        for (key, turn, current), moves in zip(nodes, results, strict=True):
            raw = dict(moves)
            actions = self._nodes[key][0]
            numbers = _numbers(
                self.rank,
                self.root,
                turn,
                [raw[m] for m in actions],
                [turn] * len(actions),
                [current] * len(actions),
            )
            if key in self.pimc_totals:
                self.pimc_totals[key] += numbers
            else:
                self.pimc_totals[key] = numbers

    def pimc_strategy(self) -> dict[InfoKey, int]:
        """PIMC's move at each information set walked for it (the root's, or ``everywhere``):
        the move of best mean double-dummy value over the set's deals, the first of the tied."""
        if self.decisions:
            engine = shared_solver(self.root.rules).engine
            engine.clear_limits()
            results, _ = engine.solve_batch([d[1] for d in self.decisions], every_move=True)
            self._pimc_add([(d[0], d[2], d[3]) for d in self.decisions], results)
            self.decisions.clear()
        return {key: self._nodes[key][0][int(np.argmax(t))] for key, t in self.pimc_totals.items()}

    def plan(self, seat: int, behaviour: dict[InfoKey, dict[int, float]]) -> Any:
        """``seat``'s realization plan of a behaviour strategy (an information set missing
        from it: its moves alike); parents come before children in ``infos``."""
        x = np.zeros(len(self.seqs[seat]))
        x[0] = 1.0
        seqs = self.seqs[seat]
        for key, (parent, actions) in self.infos[seat].items():
            probs = behaviour.get(key)
            for m in actions:
                share = probs.get(m, 0.0) if probs is not None else 1.0 / len(actions)
                x[seqs[(key, m)]] = x[parent] * share
        return x

    def behaviour(self, seat: int, plan: Any) -> dict[InfoKey, dict[int, float]]:
        """``seat``'s behaviour strategy of a realization plan (where his plan never comes,
        his moves alike)."""
        out: dict[InfoKey, dict[int, float]] = {}
        seqs = self.seqs[seat]
        for key, (parent, actions) in self.infos[seat].items():
            reach = float(plan[parent])
            if reach > 1e-12:
                out[key] = {m: max(0.0, float(plan[seqs[(key, m)]])) / reach for m in actions}
            else:
                out[key] = {m: 1.0 / len(actions) for m in actions}
        return out

    def nash_conv(self, a: Any, plans: dict[int, Any]) -> float:
        """Both players' best-response gains against ``plans`` (the root player's payoff
        matrix ``a``, by seat 0's and seat 1's sequences), in points."""
        me = self.me
        c_me = a @ plans[1] if me == 0 else a.T @ plans[0]
        c_opp = a.T @ plans[0] if me == 0 else a @ plans[1]
        br_me, _ = _best_response(self, me, c_me, maximize=True)
        br_opp, _ = _best_response(self, 1 - me, c_opp, maximize=False)
        return max(0.0, br_me - br_opp)

    def payoff(self, keep: Any = None) -> Any:
        """The root player's payoff matrix, indexed (seat 0's sequence, seat 1's sequence),
        over the deals where ``keep`` (a boolean array by deal) holds, or all."""
        from scipy.sparse import coo_matrix

        data = np.asarray(self.prob) * np.asarray(self.value)
        rows, cols = np.asarray(self.s0), np.asarray(self.s1)
        if keep is not None:
            mask = keep[np.asarray(self.deal)]
            data, rows, cols = data[mask], rows[mask], cols[mask]
        shape = (len(self.seqs[0]), len(self.seqs[1]))
        return coo_matrix((data, (rows, cols)), shape=shape).tocsr()


def _numbers(rank: RankingRule, root: Position, me: int, raws: Any, turns: Any, currents: Any) -> Any:
    """The engine's raw future values, each for the mover ``turns[k]`` with margin so far
    ``currents[k]``, as the root player's numbers under the ranking rule (a game won counts
    what the rule says in the root's match), vectorised."""
    raw = np.asarray(raws, dtype=np.int64)
    turn = np.asarray(turns, dtype=np.int64)
    worth = np.array([rank.number(Value.game_won(s, pov=s), root) for s in (0, 1)], dtype=np.float64)
    number = (np.asarray(currents, dtype=np.int64) + raw).astype(np.float64)
    won, lost = raw >= WIN_THRESHOLD, raw <= -WIN_THRESHOLD
    number[won] = worth[turn[won]]  # the mover wins: what it is worth to him
    number[lost] = -worth[1 - turn[lost]]  # his opponent wins
    return np.where(turn == me, number, -number)


def _ends_hidden_play(w: Position) -> bool:
    """Whether a card played at ``w`` ends the trick, after which no decision with hidden
    cards is left (the reply of the last talon trick, or the reply with two cards each
    without drawing): those moves' children are leaves, valued by one native call."""
    if w.trick < 0:
        return False
    if w.rules.draws:
        return w.talon_count <= 1
    return w.hand_size(0) <= 2 and w.hand_size(1) <= 2


def no_hidden_decision(w: Position) -> bool:
    """No decision with hidden cards is left: the deal over, the talon gone (every card's
    place known to both, the last pickup included), or one card each without drawing."""
    if w.is_over() or (w.rules.draws and w.talon_count == 0):
        return True
    return not w.rules.draws and w.hand_size(0) <= 1 and w.hand_size(1) <= 1


def _constraints(tree: _Tree, seat: int) -> Any:
    """The realization-plan constraints E x = e of ``seat`` (row 0: the empty sequence)."""
    from scipy.sparse import coo_matrix

    seqs = tree.seqs[seat]
    rows, cols, data = [0], [0], [1.0]
    for row, (key, (parent, actions)) in enumerate(tree.infos[seat].items(), start=1):
        rows.append(row)
        cols.append(parent)
        data.append(-1.0)
        for m in actions:
            rows.append(row)
            cols.append(seqs[(key, m)])
            data.append(1.0)
    shape = (1 + len(tree.infos[seat]), len(seqs))
    return coo_matrix((data, (rows, cols)), shape=shape).tocsr()


def _best_response(tree: _Tree, seat: int, c: Any, maximize: bool) -> tuple[float, dict[int, float]]:
    """``seat``'s best-response value against the payoff vector ``c`` of his sequences, and
    each sequence's value (the infosets in reverse order: children come after parents)."""
    value = {s: float(c[s]) for s in range(len(tree.seqs[seat]))}
    pick = max if maximize else min
    for key, (parent, actions) in reversed(list(tree.infos[seat].items())):
        value[parent] += pick(value[tree.seqs[seat][(key, m)]] for m in actions)
    return value[0], value


def equilibrium(
    position: Position | str, *, win_worth: WinWorth | str = "match", strategies: bool = False
) -> EquilibriumAnalysis:
    """The exact equilibrium of ``position``'s public subgame (module docstring), for the
    player to move; refused with the reason outside the domain.  With ``strategies``, the
    answer also holds both players' whole strategies, the equilibrium's and PIMC's, and
    PIMC's exploitability (PIMC then values every decision node of every deal)."""
    t0 = time.perf_counter()
    p = Position(position) if isinstance(position, str) else position
    tree, deals, a = _subgame(p, RankingRule.parse(win_worth), everywhere=strategies)
    me = p.turn
    # one program: the root player's plan, and the opponent's from its dual
    value, plan_me, plan_opp = _lp(tree, a if me == 0 else a.T.tocsr(), me)
    plans = {me: plan_me, 1 - me: plan_opp}
    answer = EquilibriumAnalysis(
        bpn=p.bpn(),
        turn=SEATS[me],
        game_value=value,
        value=None,
        exploitability=tree.nash_conv(a, plans),
        deals=len(deals),
        leaves=len(tree.value),
    )
    pimc = tree.pimc_strategy()
    if strategies:
        answer.strategy = {**tree.behaviour(0, plans[0]), **tree.behaviour(1, plans[1])}
        answer.pimc_strategy = pimc
        pure = {key: {m: 1.0} for key, m in pimc.items()}
        answer.pimc_exploitability = tree.nash_conv(a, {0: tree.plan(0, pure), 1: tree.plan(1, pure)})
    if not p.unknown[me]:
        _with_actual_hand(answer, tree, p, plans, deals, pimc)
    answer.seconds = time.perf_counter() - t0
    return answer


def _subgame(p: Position, rank: RankingRule, *, everywhere: bool) -> tuple[_Tree, list[Position], Any]:
    """The public subgame of ``p`` walked and its leaves solved: the tree, the deals, and
    the root player's payoff matrix (by seat 0's and seat 1's sequences)."""
    try:
        import scipy.optimize  # noqa: F401
    except ImportError:
        raise ArgumentError(
            "the equilibrium solver needs numpy and scipy: pip install '.[openspiel]'"
        ) from None
    probs = p.problems()
    if probs:
        raise PositionError(f"impossible position {p.bpn()!r}: " + "; ".join(probs))
    why = domain_problem(p)
    if why:
        raise ArgumentError(f"{p.bpn()!r} is outside the equilibrium solver's domain: {why}")
    tree = _Tree(p.turn, rank, p)
    tree.everywhere = everywhere
    deals = list(public_deals(public_view(p)))
    if not deals:
        raise PositionError(f"no deal is consistent with {p.bpn()!r}")
    chance = 1.0 / len(deals)
    for d, w in enumerate(deals):
        tree.walk(w, (w.hands[0], w.hands[1]), (), [0, 0], chance, d)
    tree.solve_leaves()
    return tree, deals, tree.payoff()


def exploitability(
    position: Position | str,
    strategy: Mapping[InfoKey, Mapping[int, float]],
    *,
    win_worth: WinWorth | str = "match",
) -> float:
    """Both players' best-response gains, in points, against ``strategy`` in ``position``'s
    public subgame: a behaviour strategy keyed as :attr:`EquilibriumAnalysis.strategy`
    (an information set it does not name plays its moves alike).

    >>> p = "petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H shown=a:KS9C"
    >>> a = equilibrium(p, strategies=True)
    >>> exploitability(p, a.strategy) < 1e-6, exploitability(p, {}) > 0.1
    (True, True)
    """
    p = Position(position) if isinstance(position, str) else position
    tree, _, a = _subgame(p, RankingRule.parse(win_worth), everywhere=False)
    plain = {key: dict(probs) for key, probs in strategy.items()}
    return tree.nash_conv(a, {0: tree.plan(0, plain), 1: tree.plan(1, plain)})


def _lp(tree: _Tree, payoff: Any, seat: int) -> tuple[float, Any, Any]:
    """max over ``seat``'s plans x of min over the other's plans y of x^T payoff y: the
    value, x, and y (the duals of the opponent's best-response constraints).

    HiGHS's interior-point method with crossover: on these programs (tens of thousands of
    rows, sparse) it is about a hundred times faster than its simplex (BENCHMARKS.md), and
    the crossover still ends on a vertex.  Should it fail on a hard program, the dual
    simplex gets the program again."""
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, hstack

    mine, theirs = _constraints(tree, seat), _constraints(tree, 1 - seat)
    n, m = mine.shape[1], theirs.shape[0]
    # one row per opponent sequence (his best-response constraints) but the dominated ones;
    # the root player's dominated sequences are held at 0
    rows = np.ones(theirs.shape[1], dtype=bool)
    rows[list(tree.dominated[1 - seat])] = False
    a_ub = hstack([-payoff.T, theirs.T]).tocsr()[rows]
    a_eq = hstack([mine, csr_matrix((mine.shape[0], m))]).tocsr()
    c = np.zeros(n + m)
    c[n] = -1.0
    rhs = np.zeros(mine.shape[0])
    rhs[0] = 1.0
    bounds: list[tuple[float | None, float | None]] = [(0.0, None)] * n + [(None, None)] * m
    for s in tree.dominated[seat]:
        bounds[s] = (0.0, 0.0)
    res = None
    for method in ("highs-ipm", "highs-ds"):
        res = linprog(
            c, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=rhs, bounds=bounds, method=method
        )
        if res.status == 0:
            break
    if res is None or res.status != 0:
        raise PositionError(f"the equilibrium program did not solve: {res.message if res else ''}")
    plan = np.zeros(theirs.shape[1])
    plan[rows] = np.maximum(0.0, -res.ineqlin.marginals)
    return float(-res.fun), res.x[:n], plan


def _with_actual_hand(
    answer: EquilibriumAnalysis,
    tree: _Tree,
    p: Position,
    plans: dict[int, Any],
    deals: list[Position],
    pimc: dict[InfoKey, int],
) -> None:
    """The root player's value with his actual hand, each root move's probability and value
    against the equilibrium opponent, and PIMC's move with its loss against him."""
    me = tree.me
    hand = p.hands[me]
    keep = np.array([w.hands[me] == hand for w in deals])
    share = float(keep.mean())
    a_hand = tree.payoff(keep)
    c_me = a_hand @ plans[1] if me == 0 else a_hand.T @ plans[0]
    _, seq_value = _best_response(tree, me, c_me, maximize=True)
    root: InfoKey = (me, hand, ())
    parent, actions = tree.infos[me][root]
    x = plans[me]
    reach = float(x[parent])
    moves = []
    for m in actions:
        s = tree.seqs[me][(root, m)]
        prob = float(x[s]) / reach if reach > 1e-12 else 1.0 / len(actions)
        moves.append(EquilibriumMove(move=move(m), probability=max(0.0, prob), value=seq_value[s] / share))
    answer.moves = moves
    # his equilibrium value with this hand: the plans' payoff over his deals
    answer.value = float(plans[0] @ (a_hand @ plans[1])) / share
    top = max(mv.value for mv in moves)
    answer.best = [mv.move for mv in moves if mv.probability > 1e-6]
    # PIMC: the move of best mean double-dummy value over the deals with his hand
    answer.pimc_move = move(pimc[root])
    answer.pimc_loss = top - next(mv.value for mv in moves if int(mv.move) == pimc[root])


__all__ = [
    "EquilibriumAnalysis",
    "EquilibriumMove",
    "domain_problem",
    "equilibrium",
    "exploitability",
    "no_hidden_decision",
    "public_deals",
    "public_view",
]
