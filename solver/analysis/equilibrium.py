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
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.analysis.ranking import RankingRule, WinWorth
from solver.engine.api import shared_solver
from solver.engine.results import current_margin
from solver.engine.seam import engine_roots
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


def deal_cards(v: Position) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """Every deal consistent with the public view ``v``, each once (equally likely), as seat
    a's and seat b's hands (card masks) and the talon order (empty when it is not drawn)."""
    unseen = cards_of(v.unseen())
    allowed = [~v.void_cards(i) & 0xFFFFFFFF for i in (0, 1)]
    ordered = v.rules.draws and v.talon is None and v.talon_count > 0
    known = tuple(v.talon or ())
    for a in itertools.combinations([c for c in unseen if allowed[0] >> c & 1], v.unknown[0]):
        rest = [c for c in unseen if c not in a]
        hand_a = v.hands[0] | sum(1 << c for c in a)
        for b in itertools.combinations([c for c in rest if allowed[1] >> c & 1], v.unknown[1]):
            hand_b = v.hands[1] | sum(1 << c for c in b)
            left = [c for c in rest if c not in b]
            for order in itertools.permutations(left) if ordered else [known]:
                yield hand_a, hand_b, tuple(order)


def public_deals(v: Position) -> Iterator[Position]:
    """Every deal consistent with the public view ``v``, each once (equally likely).

    >>> v = public_view(Position("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H"))
    >>> sum(1 for _ in public_deals(v))
    53130
    """
    ordered = v.rules.draws and v.talon is None and v.talon_count > 0
    for hand_a, hand_b, order in deal_cards(v):
        w = v.copy()
        w.hands[0], w.hands[1] = hand_a, hand_b
        w.unknown[0] = w.unknown[1] = 0
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

    def _repr_html_(self) -> str:
        """The diagram and the moves with their equilibrium probabilities, for notebooks."""
        from solver.model.svg import answer_html

        rows = [[str(m.move), f"{m.probability:.3f}", f"{m.value:+.3f}"] for m in self.moves]
        caption = f"{self.turn} to move: game value {self.game_value:+.3f}, exploitability {self.exploitability:.2g}"
        return answer_html(
            Position(self.bpn), ["move", "probability", "value"], rows, caption=caption, best=self.best
        )

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
    sequences).

    The tree is walked once per public history, with the deals that reach it, not once per
    deal: in the domain nothing hidden changes the public play before the leaves (no card is
    drawn, and a trick ends only at the last reply), so one position stands for all of a
    node's deals (its *template*), and each deal's hands are its dealt hands with the cards
    the history took out and put in.  A mover's legal moves depend on his hand only, so the
    deals of a node are split by his hand: each part is one of his information sets."""

    def __init__(self, root: Position, rank: RankingRule, hands: Any, talons: list[tuple[int, ...]]):
        self.me = root.turn
        self.rank = rank
        self.root = root
        self.hands = hands  # by deal: the two dealt hands (card masks), an int64 array (n, 2)
        self.talons = talons  # by deal: the talon order (empty when it is not drawn)
        self.chance = 1.0 / len(talons)
        self.seqs: list[dict[Seq, int]] = [{None: 0}, {None: 0}]
        self.infos: list[dict[InfoKey, tuple[int, list[int]]]] = [{}, {}]  # key -> (parent, actions)
        # the leaves, in chunks of numpy arrays: the two players' sequences, the deals, and
        # the values for the root player
        self._s0: list[Any] = []
        self._s1: list[Any] = []
        self._deal: list[Any] = []
        self._value: list[Any] = []
        # the leaves the engine values one by one: (engine roots, the mover, his margin so
        # far, seat 0's and seat 1's sequences, deals)
        self.solves: list[tuple[list[Any], int, int, Any, Any, Any]] = []
        # the last replies: information sets whose card moves end the play with hidden
        # cards, each deal's node solved by one native every-move call: (engine roots, the
        # information set, its cards' sequences, his margin so far, the other's sequences,
        # deals)
        self.replies: list[tuple[list[Any], InfoKey, list[int], int, Any, Any]] = []
        # sequences of a last mover that another of his cards dominates (never better for
        # him in any deal of the information set): left out of the program
        self.dominated: list[set[int]] = [set(), set()]
        # PIMC's view: the information sets it plays at (the root player's with his actual
        # hand at the root, or ``everywhere``) and their moves' total double-dummy numbers
        # for the mover over the set's deals; the decision nodes still to solve for it
        self.engine_seconds = 0.0  # (the native solves' share of the time)
        self.everywhere = False
        self.pimc_hand = root.hands[root.turn] if not root.unknown[root.turn] else -1
        self.pimc_totals: dict[InfoKey, Any] = {}
        self.decisions: list[tuple[list[Any], InfoKey, int]] = []

    @property
    def leaves(self) -> int:
        return sum(len(v) for v in self._value)

    def seq(self, seat: int, key: InfoKey, action: int) -> int:
        table = self.seqs[seat]
        s = (key, action)
        if s not in table:
            table[s] = len(table)
        return table[s]

    def _leaves(self, s0: Any, s1: Any, deals: Any, values: Any) -> None:
        self._s0.append(np.asarray(s0, dtype=np.int64))
        self._s1.append(np.asarray(s1, dtype=np.int64))
        self._deal.append(np.asarray(deals, dtype=np.int64))
        self._value.append(np.asarray(values, dtype=np.float64))

    def _pimc_plays(self, key: InfoKey) -> bool:
        return self.everywhere or (not key[2] and key[0] == self.me and key[1] == self.pimc_hand)

    def walk(self, w: Position, deals: Any, at: Any, hist: tuple[int, ...], moved: Any) -> None:
        """Walk the public history ``hist`` at the template ``w`` for ``deals`` (an index
        array), ``at`` their two sequences (an array (len(deals), 2)), ``moved`` the cards
        each seat's hand lost and gained since the deal (an array [[lost, gained], ...])."""
        if no_hidden_decision(w):
            if w.is_over():  # (a public result: the same in every deal)
                value = float(self.rank.number(w.value(self.me), w))
                self._leaves(at[:, 0], at[:, 1], deals, np.full(len(deals), value))
            else:
                self.solves.append(
                    (self._roots(w, deals, moved), w.turn, current_margin(w), at[:, 0], at[:, 1], deals)
                )
            return
        i = w.turn
        mine = self.hands[deals, i]
        # each of the mover's hands is one of his information sets; a move's child node
        # gathers the deals of every set where it is legal
        children: dict[int, list[tuple[Any, Any]]] = defaultdict(list)
        for h in np.unique(mine).tolist():
            part = mine == h
            sub, sub_at = deals[part], at[part]
            key: InfoKey = (i, h, hist)
            self._set_hands(w, sub[0], moved)
            moves = [int(m) for m in w.legal_moves()]
            self.infos[i][key] = (int(sub_at[0, i]), moves)
            if _ends_hidden_play(w):
                # the cards that end the trick are valued together by the engine; the other
                # moves (an exchange of the seven) are walked
                cards = [self.seq(i, key, m) for m in moves if m < 32]
                self.replies.append(
                    (self._roots(w, sub, moved), key, cards, current_margin(w), sub_at[:, 1 - i], sub)
                )
                moves = [m for m in moves if m >= 32]
            elif self._pimc_plays(key):
                self.decisions.append((self._roots(w, sub, moved), key, current_margin(w)))
            for m in moves:
                child = sub_at.copy()
                child[:, i] = self.seq(i, key, m)
                children[m].append((sub, child))
        for m, parts in children.items():
            sub = np.concatenate([d for d, _ in parts])
            sub_at = np.concatenate([c for _, c in parts])
            self._set_hands(w, sub[0], moved)
            before = w.hands[i]
            w.push(m, check=False)
            lost, gained = before & ~w.hands[i], w.hands[i] & ~before
            now = moved.copy()
            now[i] = (moved[i, 0] | lost, (moved[i, 1] & ~lost) | gained)
            self.walk(w, sub, sub_at, (*hist, m), now)
            w.pop()

    def _now(self, deals: Any, moved: Any, seat: int) -> Any:
        """The hands of ``seat`` now in ``deals``: dealt, less the cards lost, with those gained."""
        return (self.hands[deals, seat] & ~moved[seat, 0]) | moved[seat, 1]

    def _set_hands(self, w: Position, deal: int, moved: Any) -> None:
        """Make the template one deal of its node (for the legal moves and the pushes)."""
        for seat in (0, 1):
            lost, gained = int(moved[seat, 0]), int(moved[seat, 1])
            w.hands[seat] = (int(self.hands[deal, seat]) & ~lost) | gained

    def _roots(self, w: Position, deals: Any, moved: Any) -> list[Any]:
        hands = zip(self._now(deals, moved, 0).tolist(), self._now(deals, moved, 1).tolist(), strict=True)
        return engine_roots(w, hands, [self.talons[d] for d in deals.tolist()])

    def solve_leaves(self) -> None:
        """Value every leaf the engine must solve: the last replies' cards by one every-move
        native call a node, the other leaves by one batch (the leaves are built from a valid
        position, so their checks are skipped); and find the dominated last replies."""
        engine = shared_solver(self.root.rules).engine
        engine.clear_limits()
        if self.replies:
            self._reply_leaves(engine)
        for roots, turn, current, s0, s1, deals in self.solves:
            raws, _ = engine.solve_batch(roots)
            n = len(raws)
            self._leaves(
                s0, s1, deals, _numbers(self.rank, self.root, self.me, raws, [turn] * n, [current] * n)
            )
        self.solves.clear()

    def _reply_leaves(self, engine: Any) -> None:
        t0 = time.perf_counter()
        results, _ = engine.solve_batch([r for reply in self.replies for r in reply[0]], every_move=True)
        self.engine_seconds += time.perf_counter() - t0
        # one row a deal of each information set: its cards' raw values, flat
        raws: list[int] = []
        start = 0
        for roots, key, _, current, _, _ in self.replies:
            chunk = results[start : start + len(roots)]
            start += len(roots)
            cards = [m for m in self.infos[key[0]][key][1] if m < 32]
            for moves in chunk:
                raw = dict(moves)
                raws.extend([raw[m] for m in cards])
            if self._pimc_plays(key):  # (every move, cards or not)
                self._pimc_add(key, current, chunk)
        n = np.array([len(r[0]) for r in self.replies])  # deals by set
        k = np.array([len(r[2]) for r in self.replies])  # cards by set
        seat = np.repeat([r[1][0] for r in self.replies], n * k)
        currents = np.repeat([r[3] for r in self.replies], n * k)
        mover = _numbers(self.rank, self.root, 0, raws, seat, currents)  # for seat 0 ...
        mover = np.where(seat == 0, mover, -mover)  # ... and so for the mover
        own = np.concatenate([np.tile(np.asarray(r[2], dtype=np.int64), len(r[0])) for r in self.replies])
        theirs = np.repeat(np.concatenate([r[4] for r in self.replies]), np.repeat(k, n))
        deals = np.repeat(np.concatenate([r[5] for r in self.replies]), np.repeat(k, n))
        self._leaves(
            np.where(seat == 0, own, theirs),
            np.where(seat == 0, theirs, own),
            deals,
            np.where(seat == self.me, mover, -mover),
        )
        # dominance, the sets with the same number of cards together
        first = np.cumsum(n * k) - n * k
        for width in np.unique(k).tolist():
            if width < 2:
                continue
            sets = np.flatnonzero(k == width)
            rows = np.concatenate([mover[first[g] : first[g] + n[g] * width] for g in sets.tolist()])
            v = rows.reshape(-1, width)
            starts = np.cumsum(n[sets]) - n[sets]
            # worst[g, i, j]: card j's least margin over card i in set g's deals
            worst = np.minimum.reduceat(v[:, None, :] - v[:, :, None], starts, axis=0)
            self._dominance(sets, width, worst)
        self.replies.clear()

    def _dominance(self, sets: Any, width: int, worst: Any) -> None:
        """Mark the last mover's cards that another card of his dominates at the same
        information set: at least as good for him in every deal of the set (``worst[g, i,
        j]``: card j's least margin over card i in set ``sets[g]``'s deals).  Leaving them
        out of the program keeps its value, and its solution stays an equilibrium of the
        whole game: the last mover's choice reaches only leaves, so against any plan the
        dominating card does as well.  Of two equal cards the first stays."""
        at_least = worst >= -1e-9  # j is at least as good as i in every deal
        lower = np.arange(width)[None, :] < np.arange(width)[:, None]  # [i, j]: j < i
        beats = at_least & (~np.transpose(at_least, (0, 2, 1)) | lower) & ~np.eye(width, dtype=bool)
        for g, i in zip(*np.nonzero(beats.any(axis=2)), strict=True):
            _, key, cards, *_ = self.replies[int(sets[g])]
            self.dominated[key[0]].add(cards[int(i)])

    def _pimc_add(self, key: InfoKey, current: int, results: list[Any]) -> None:
        """Add each deal's every-move double-dummy numbers (for the mover) to the set's
        totals: PIMC's view of the set, every consistent deal alike."""
        i, actions = key[0], self.infos[key[0]][key][1]
        raw = np.array([[dict(moves)[m] for m in actions] for moves in results], dtype=np.int64)
        numbers = _numbers(self.rank, self.root, i, raw.ravel(), [i] * raw.size, [current] * raw.size)
        total = numbers.reshape(raw.shape).sum(axis=0)
        self.pimc_totals[key] = self.pimc_totals.get(key, 0) + total

    def pimc_strategy(self) -> dict[InfoKey, int]:
        """PIMC's move at each information set it plays at (the root player's with his
        hand, or ``everywhere``): the move of best mean double-dummy value over the set's
        deals, the first of the tied."""
        if self.decisions:
            engine = shared_solver(self.root.rules).engine
            engine.clear_limits()
            results, _ = engine.solve_batch([r for d in self.decisions for r in d[0]], every_move=True)
            start = 0
            for roots, key, current in self.decisions:
                self._pimc_add(key, current, results[start : start + len(roots)])
                start += len(roots)
            self.decisions.clear()
        return {key: self.infos[key[0]][key][1][int(np.argmax(t))] for key, t in self.pimc_totals.items()}

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

        if not self._value:
            raise PositionError(f"the public subgame of {self.root.bpn()!r} has no leaf")
        data = self.chance * np.concatenate(self._value)
        rows, cols = np.concatenate(self._s0), np.concatenate(self._s1)
        if keep is not None:
            mask = keep[np.concatenate(self._deal)]
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
    # one program: the plan of the player with more sequences, and the other's from its
    # duals (one constraint a sequence of the other: the smaller program, and on these
    # games HiGHS solves it up to nine times faster than the other way round)
    q = 0 if len(tree.seqs[0]) >= len(tree.seqs[1]) else 1
    payoff = a if q == 0 else a.T.tocsr()
    value, plan_q, plan_other = _lp(tree, payoff if q == me else -payoff, q)
    value = value if q == me else -value
    plans = {q: plan_q, 1 - q: plan_other}
    answer = EquilibriumAnalysis(
        bpn=p.bpn(),
        turn=SEATS[me],
        game_value=value,
        value=None,
        exploitability=tree.nash_conv(a, plans),
        deals=len(deals),
        leaves=tree.leaves,
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


def _subgame(p: Position, rank: RankingRule, *, everywhere: bool) -> tuple[_Tree, Any, Any]:
    """The public subgame of ``p`` walked and its leaves solved: the tree, the deals, and
    the root player's payoff matrix (by seat 0's and seat 1's sequences); the deals as
    their two hands (an array (deals, 2))."""
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
    view = public_view(p)
    dealt = list(deal_cards(view))
    if not dealt:
        raise PositionError(f"no deal is consistent with {p.bpn()!r}")
    hands = np.array([(a, b) for a, b, _ in dealt], dtype=np.int64)
    tree = _Tree(p, rank, hands, [t for _, _, t in dealt])
    tree.everywhere = everywhere
    template = p.copy()
    template.unknown[0] = template.unknown[1] = 0
    template.talon = list(dealt[0][2]) if view.talon is None and p.rules.draws and p.talon_count else p.talon
    deals = np.arange(len(dealt))
    tree.walk(
        template, deals, np.zeros((len(dealt), 2), dtype=np.int64), (), np.zeros((2, 2), dtype=np.int64)
    )
    tree.solve_leaves()
    return tree, hands, tree.payoff()


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
    """max over ``seat``'s plans x of min over the other's plans y of x^T payoff y (his
    payoff, by his and the other's sequences): the value, x, and y (the duals of the
    other's best-response constraints).

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
    deals: Any,
    pimc: dict[InfoKey, int],
) -> None:
    """The root player's value with his actual hand, each root move's probability and value
    against the equilibrium opponent, and PIMC's move with its loss against him."""
    me = tree.me
    hand = p.hands[me]
    keep = deals[:, me] == hand  # (``deals``: the dealt hands, by deal)
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
