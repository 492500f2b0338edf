"""The sequence form of a public subgame, built and solved with numpy and scipy (the
equilibrium solver's machinery; :mod:`solver.analysis.equilibrium` is its API and imports
this module only when it solves, so that numpy is not a cost of every command).

>>> from solver.analysis.ranking import RankingRule
>>> p = Position("petite K...9/T...K TH 21 .K97.TQJ. - b 0:19 tricks=0:3 void=a:H shown=a:KS9C")
>>> tree, hands, payoff = build(p, RankingRule.parse("match"), everywhere=False)
>>> len(hands), tree.leaves, payoff.shape == (len(tree.seqs[0]), len(tree.seqs[1]))
(253, 704, True)
"""

from __future__ import annotations

import numbers
import time
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import numpy as np

from solver.analysis.public import (
    InfoKey,
    deal_cards,
    ends_hidden_play,
    entry_move,
    history_entry,
    no_hidden_decision,
    public_view,
)
from solver.analysis.ranking import RankingRule
from solver.engine.results import current_margin
from solver.engine.seam import engine_roots
from solver.engine.solving import shared_solver
from solver.errors import ArgumentError, PositionError
from solver.model.position import Position
from solver.model.value import Value
from solver.native.constants import WIN_THRESHOLD

Seq = tuple[InfoKey, int] | None  # a sequence: an information set and an action (None: empty)


class Tree:
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
        # cards, each node's deals solved by one native every-move call: (the information
        # set, its first card sequence, its number of cards (their sequences consecutive),
        # his margin so far, its number of deals, where its deals' rows start); and by row
        # (each set's deals in turn): the results (move, raw value), the other player's
        # sequences and the deals, these two in arrays a node
        self.replies: list[tuple[InfoKey, int, int, int, int, int]] = []
        self._reply_results: list[list[tuple[int, int]]] = []
        self._reply_theirs: list[Any] = []
        self._reply_deals: list[Any] = []
        # sequences of a last mover that another of his cards dominates (never better for
        # him in any deal of the information set): left out of the program
        self.dominated: list[set[int]] = [set(), set()]
        # PIMC's view: the information sets it plays at (the root player's with his actual
        # hand at the root, or ``everywhere``) and their moves' total double-dummy numbers
        # for the mover over the set's deals; the decision nodes still to solve for it
        self.engine = shared_solver(root.rules).engine
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
        order = np.argsort(mine, kind="stable")  # (the sets' deals together, in order)
        hands, firsts = np.unique(mine[order], return_index=True)
        deals, at = deals[order], at[order]
        bounds = [*firsts.tolist(), len(order)]
        parents = at[firsts, i].tolist()
        if ends_hidden_play(w):
            walked = self._reply_node(w, deals, at, hist, moved, hands.tolist(), bounds, parents)
        else:
            walked = []
            for g, h in enumerate(hands.tolist()):
                sub = deals[bounds[g] : bounds[g + 1]]
                key: InfoKey = (i, h, hist)
                self._set_hands(w, sub[0], moved)
                moves = [int(m) for m in w.legal_moves()]
                self.infos[i][key] = (parents[g], moves)
                if self._pimc_plays(key):
                    self.decisions.append((self._roots(w, sub, moved), key, current_margin(w)))
                walked.append((g, key, moves))
        for g, key, moves in walked:
            lo, hi = bounds[g], bounds[g + 1]
            sub, sub_at = deals[lo:hi], at[lo:hi]
            self._set_hands(w, sub[0], moved)
            for m in moves:
                child = sub_at.copy()
                child[:, i] = self.seq(i, key, m)
                # (a carte blanche shows this set's hand: its child is the set's own)
                children[history_entry(m, w.hands[i] & ~w.shown[i])].append((sub, child))
        for entry, parts in children.items():
            m = entry_move(entry)
            sub = np.concatenate([d for d, _ in parts])
            sub_at = np.concatenate([c for _, c in parts])
            self._set_hands(w, sub[0], moved)
            before = w.hands[i]
            w.push(m, check=False)
            lost, gained = before & ~w.hands[i], w.hands[i] & ~before
            now = moved.copy()
            now[i] = (moved[i, 0] | lost, (moved[i, 1] & ~lost) | gained)
            self.walk(w, sub, sub_at, (*hist, entry), now)
            w.pop()

    def _reply_node(
        self,
        w: Position,
        deals: Any,
        at: Any,
        hist: tuple[int, ...],
        moved: Any,
        hands: list[int],
        bounds: list[int],
        parents: list[int],
    ) -> list[tuple[int, InfoKey, list[int]]]:
        """The information sets of a node whose cards end the hidden play (``deals`` and
        ``at`` in the sets' order, set ``g`` from ``bounds[g]`` to ``bounds[g + 1]``): every deal's
        cards valued by one native every-move call, whose moves are also each set's legal
        moves (a set is one hand, so its deals share them).  Returns the sets' other moves
        (an exchange of the seven), to walk: (set, key, moves)."""
        i = w.turn
        results = self._every_move(self._roots(w, deals, moved))
        current = current_margin(w)
        start = len(self._reply_results)
        self._reply_results.extend(results)
        self._reply_theirs.append(at[:, 1 - i])
        self._reply_deals.append(deals)
        table, infos, replies = self.seqs[i], self.infos[i], self.replies
        walked = []
        for g, h in enumerate(hands):
            key: InfoKey = (i, h, hist)
            moves = sorted([m for m, _ in results[bounds[g]]])  # (legal_moves' order: cards first)
            infos[key] = (parents[g], moves)
            k = bisect_left(moves, 32)
            first = len(table)  # (a new set: its sequences are new, consecutive, cards first)
            table.update(zip([(key, m) for m in moves], range(first, first + len(moves))))
            replies.append((key, first, k, current, bounds[g + 1] - bounds[g], start + bounds[g]))
            if k < len(moves):
                walked.append((g, key, moves[k:]))
        return walked

    def _now(self, deals: Any, moved: Any, seat: int) -> Any:
        """The hands of ``seat`` now in ``deals``: dealt, less the cards lost, with those gained."""
        return (self.hands[deals, seat] & ~moved[seat, 0]) | moved[seat, 1]

    def _set_hands(self, w: Position, deal: int, moved: Any) -> None:
        """Make the template one deal of its node (for the legal moves and the pushes)."""
        for seat in (0, 1):
            lost, gained = int(moved[seat, 0]), int(moved[seat, 1])
            w.hands[seat] = (int(self.hands[deal, seat]) & ~lost) | gained

    def _roots(self, w: Position, deals: Any, moved: Any) -> list[Any]:
        """The engine roots of ``deals`` at the template ``w``."""
        hands = zip(self._now(deals, moved, 0).tolist(), self._now(deals, moved, 1).tolist(), strict=True)
        return engine_roots(w, hands, [self.talons[d] for d in deals.tolist()])

    def solve_leaves(self) -> None:
        """Value every leaf: the last replies' cards from the walk's every-move native calls
        (one a node), the other leaves by one batch (the leaves are built from a valid
        position, so their checks are skipped); and find the dominated last replies."""
        if self.replies:
            self._reply_leaves()
        for roots, turn, current, s0, s1, deals in self.solves:
            raws, _ = self.engine.solve_batch(roots)
            n = len(raws)
            self._leaves(
                s0, s1, deals, numbers_of(self.rank, self.root, self.me, raws, [turn] * n, [current] * n)
            )
        self.solves.clear()

    def _every_move(self, roots: list[Any]) -> list[Any]:
        """Every legal move's raw value at each root, by the native engine."""
        t0 = time.perf_counter()
        results, _ = self.engine.solve_batch(roots, every_move=True)
        self.engine_seconds += time.perf_counter() - t0
        return results

    def _reply_leaves(self) -> None:
        results = self._reply_results
        for key, _, _, current, count, start in self.replies:
            if self._pimc_plays(key):  # (every move, cards or not)
                self._pimc_add(key, current, results[start : start + count])
        # one row a deal of each information set: its cards' raw values in the order of
        # the set's card sequences (ascending cards), flat
        pairs = np.array(list(chain.from_iterable(results)), dtype=np.int64).reshape(-1, 2)
        row = np.repeat(np.arange(len(results)), [len(moves) for moves in results])
        card = pairs[:, 0] < 32
        codes, values, row = pairs[card, 0], pairs[card, 1], row[card]
        raws = values[np.lexsort((codes, row))]
        first = np.array([r[1] for r in self.replies], dtype=np.int64)  # first card sequence by set
        k = np.array([r[2] for r in self.replies], dtype=np.int64)  # cards by set
        n = np.array([r[4] for r in self.replies], dtype=np.int64)  # deals by set
        if len(raws) != int(n @ k):  # (each deal of a set has the set's cards: one hand)
            raise AssertionError("the engine's moves at a last reply differ from its set's")
        seat = np.repeat([r[0][0] for r in self.replies], n * k)
        currents = np.repeat([r[3] for r in self.replies], n * k)
        mover = numbers_of(self.rank, self.root, 0, raws, seat, currents)  # for seat 0 ...
        mover = np.where(seat == 0, mover, -mover)  # ... and so for the mover
        # the mover's card sequence of each leaf: the set's k cards again in each of its n rows
        starts = np.cumsum(n * k) - n * k
        group = np.repeat(np.arange(len(n)), n * k)
        own = first[group] + (np.arange(len(raws)) - starts[group]) % k[group]
        theirs = np.repeat(np.concatenate(self._reply_theirs), np.repeat(k, n))
        deals = np.repeat(np.concatenate(self._reply_deals), np.repeat(k, n))
        self._leaves(
            np.where(seat == 0, own, theirs),
            np.where(seat == 0, theirs, own),
            deals,
            np.where(seat == self.me, mover, -mover),
        )
        # dominance, the sets with the same number of cards together
        for width in np.unique(k).tolist():
            if width < 2:
                continue
            sets = np.flatnonzero(k == width)
            v = mover[k[group] == width].reshape(-1, width)  # (a row a deal, the sets in order)
            # worst[g, i, j]: card j's least margin over card i in set g's deals
            worst = np.minimum.reduceat(v[:, None, :] - v[:, :, None], np.cumsum(n[sets]) - n[sets], axis=0)
            self._dominance(sets, width, worst)
        self.replies.clear()
        self._reply_results.clear()
        self._reply_theirs.clear()
        self._reply_deals.clear()

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
            key, first, *_ = self.replies[int(sets[g])]
            self.dominated[key[0]].add(first + int(i))

    def _pimc_add(self, key: InfoKey, current: int, results: list[Any]) -> None:
        """Add each deal's every-move double-dummy numbers (for the mover) to the set's
        totals: PIMC's view of the set, every consistent deal alike."""
        i, actions = key[0], self.infos[key[0]][key][1]
        raw = np.array([[dict(moves)[m] for m in actions] for moves in results], dtype=np.int64)
        numbers = numbers_of(self.rank, self.root, i, raw.ravel(), [i] * raw.size, [current] * raw.size)
        total = numbers.reshape(raw.shape).sum(axis=0)
        self.pimc_totals[key] = self.pimc_totals.get(key, 0) + total

    def pimc_strategy(self) -> dict[InfoKey, int]:
        """PIMC's move at each information set it plays at (the root player's with his
        hand, or ``everywhere``): the move of best mean double-dummy value over the set's
        deals, the first of the tied."""
        if self.decisions:
            self.engine.clear_limits()
            results, _ = self.engine.solve_batch([r for d in self.decisions for r in d[0]], every_move=True)
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
        br_me, _ = best_response(self, me, c_me, maximize=True)
        br_opp, _ = best_response(self, 1 - me, c_opp, maximize=False)
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


def numbers_of(rank: RankingRule, root: Position, me: int, raws: Any, turns: Any, currents: Any) -> Any:
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


def info_sets(tree: Tree, seat: int) -> tuple[Any, Any, Any]:
    """``seat``'s information sets in ``tree.infos`` order, as three int64 arrays: each
    set's parent sequence, its first sequence and its number of moves (a set's sequences are
    consecutive: the walk numbers them together)."""
    seqs = tree.seqs[seat]
    sets = tree.infos[seat]
    parents = np.fromiter((parent for parent, _ in sets.values()), dtype=np.int64, count=len(sets))
    firsts = np.fromiter((seqs[(key, a[0])] for key, (_, a) in sets.items()), dtype=np.int64, count=len(sets))
    counts = np.fromiter((len(a) for _, a in sets.values()), dtype=np.int64, count=len(sets))
    return parents, firsts, counts


def constraints(tree: Tree, seat: int) -> Any:
    """The realization-plan constraints E x = e of ``seat`` (row 0: the empty sequence):
    each information set's sequences sum to its parent's."""
    from scipy.sparse import coo_matrix

    parents, firsts, counts = info_sets(tree, seat)
    sets = np.arange(1, len(parents) + 1)
    starts = np.cumsum(counts) - counts
    children = np.repeat(firsts - starts, counts) + np.arange(int(counts.sum()))
    rows = np.concatenate([[0], sets, np.repeat(sets, counts)])
    cols = np.concatenate([[0], parents, children])
    data = np.concatenate([[1.0], -np.ones(len(sets)), np.ones(len(children))])
    shape = (1 + len(parents), len(tree.seqs[seat]))
    return coo_matrix((data, (rows, cols)), shape=shape).tocsr()


def best_response(tree: Tree, seat: int, c: Any, maximize: bool) -> tuple[float, list[float]]:
    """``seat``'s best-response value against the payoff vector ``c`` of his sequences, and
    each sequence's value (the infosets in reverse order: children come after parents)."""
    value: list[float] = np.asarray(c, dtype=np.float64).ravel().tolist()
    pick = max if maximize else min
    parents, firsts, counts = (x.tolist() for x in info_sets(tree, seat))
    for parent, first, count in zip(reversed(parents), reversed(firsts), reversed(counts), strict=True):
        value[parent] += pick(value[first : first + count])
    return value[0], value


def build(p: Position, rank: RankingRule, *, everywhere: bool) -> tuple[Tree, Any, Any]:
    """The public subgame of ``p`` walked and its leaves solved: the tree, the deals, and
    the root player's payoff matrix (by seat 0's and seat 1's sequences); the deals as
    their two hands (an array (deals, 2)).  ``p`` is valid and inside the domain (the
    caller checks: :func:`solver.analysis.equilibrium.equilibrium`)."""
    view = public_view(p)
    dealt = list(deal_cards(view))
    if not dealt:
        raise PositionError(f"no deal is consistent with {p.bpn()!r}")
    hands = np.array([(a, b) for a, b, _ in dealt], dtype=np.int64)
    tree = Tree(p, rank, hands, [t for _, _, t in dealt])
    tree.everywhere = everywhere
    template = p.copy()
    template.unknown[0] = template.unknown[1] = 0
    template.drawn = view.drawn  # (which card the mover just drew is his secret, as in OpenSpiel)
    template.talon = list(dealt[0][2]) if view.talon is None and p.rules.draws and p.talon_count else p.talon
    deals = np.arange(len(dealt))
    tree.engine.clear_limits()  # (the walk solves the last replies)
    tree.walk(
        template, deals, np.zeros((len(dealt), 2), dtype=np.int64), (), np.zeros((2, 2), dtype=np.int64)
    )
    tree.solve_leaves()
    return tree, hands, tree.payoff()


def solve_program(tree: Tree, payoff: Any, seat: int) -> tuple[float, Any, Any]:
    """max over ``seat``'s plans x of min over the other's plans y of x^T payoff y (his
    payoff, by his and the other's sequences): the value, x, and y (the duals of the
    other's best-response constraints).

    HiGHS's interior-point method with crossover: on Brisque's programs (tens of thousands
    of rows, sparse) it was about six times faster than the dual simplex, on Briscan's as
    fast (BENCHMARKS.md), and the crossover still ends on a vertex.  Should it fail on a hard program, the dual
    simplex gets the program again."""
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, hstack

    mine, theirs = constraints(tree, seat), constraints(tree, 1 - seat)
    n, m = mine.shape[1], theirs.shape[0]
    # one row per opponent sequence (his best-response constraints) but the dominated ones;
    # the root player's dominated sequences are held at 0
    rows = np.ones(theirs.shape[1], dtype=bool)
    rows[list(tree.dominated[1 - seat])] = False
    # and the root player's dominated sequences are left out (held at 0)
    cols = np.ones(n, dtype=bool)
    cols[list(tree.dominated[seat])] = False
    kept = int(cols.sum())
    a_ub = hstack([-payoff.T.tocsr()[:, cols], theirs.T]).tocsr()[rows]
    a_eq = hstack([mine.tocsc()[:, cols], csr_matrix((mine.shape[0], m))]).tocsr()
    c = np.zeros(kept + m)
    c[kept] = -1.0
    rhs = np.zeros(mine.shape[0])
    rhs[0] = 1.0
    bounds: list[tuple[float | None, float | None]] = [(0.0, None)] * kept + [(None, None)] * m
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
    x = np.zeros(n)
    x[cols] = res.x[:kept]
    return float(-res.fun), x, plan


@dataclass(kw_only=True)
class Solution:
    """A public subgame solved: values for the root player (the player to move)."""

    game_value: float
    exploitability: float
    deals: int
    leaves: int
    # with the root player's actual hand (None when it is hidden): his value, and each root
    # move's (code, equilibrium probability, value against the equilibrium opponent)
    value: float | None = None
    moves: list[tuple[int, float, float]] = field(default_factory=list)
    pimc_move: int | None = None
    # with ``strategies``
    strategy: dict[InfoKey, dict[int, float]] | None = None
    pimc_strategy: dict[InfoKey, int] | None = None
    pimc_exploitability: float | None = None


def solve_public(p: Position, rank: RankingRule, *, strategies: bool) -> Solution:
    """The equilibrium of ``p``'s public subgame (:func:`solver.analysis.equilibrium.equilibrium`)."""
    me = p.turn
    tree, deals, a = build(p, rank, everywhere=strategies)
    # one program: the plan of the player with more sequences, and the other's from its
    # duals (one constraint a sequence of the other: the smaller program, and on these
    # games HiGHS solved it up to seven times faster than the other way round)
    q = 0 if len(tree.seqs[0]) >= len(tree.seqs[1]) else 1
    payoff = a if q == 0 else a.T.tocsr()
    value, plan_q, plan_other = solve_program(tree, payoff if q == me else -payoff, q)
    plans = {q: plan_q, 1 - q: plan_other}
    out = Solution(
        game_value=value if q == me else -value,
        exploitability=tree.nash_conv(a, plans),
        deals=len(deals),
        leaves=tree.leaves,
    )
    pimc = tree.pimc_strategy()
    if strategies:
        out.strategy = {**tree.behaviour(0, plans[0]), **tree.behaviour(1, plans[1])}
        out.pimc_strategy = pimc
        pure = {key: {m: 1.0} for key, m in pimc.items()}
        out.pimc_exploitability = tree.nash_conv(a, {0: tree.plan(0, pure), 1: tree.plan(1, pure)})
    if not p.unknown[me]:
        _with_actual_hand(out, tree, p, plans, deals)
        out.pimc_move = pimc[(me, p.hands[me], ())]
    return out


def plan_exploitability(p: Position, rank: RankingRule, strategy: dict[InfoKey, dict[int, float]]) -> float:
    """Both players' best-response gains against a behaviour strategy, in points
    (:func:`solver.analysis.equilibrium.exploitability`)."""
    tree, _, a = build(p, rank, everywhere=False)
    for seat in (0, 1):
        for key, (_, actions) in tree.infos[seat].items():
            if key in strategy:
                check_behaviour(key, strategy[key], actions)
    return tree.nash_conv(a, {0: tree.plan(0, strategy), 1: tree.plan(1, strategy)})


# (an equilibrium's own behaviour divides by the reach of its information set, which can be
# small: its sums may miss 1 by far more than the LP's tolerance, and must still be taken)
SUM_SLACK = 1e-3


def check_behaviour(key: InfoKey, probs: dict[int, float], actions: list[int]) -> None:
    """Refuse a behaviour at information set ``key`` that is no probability distribution
    over its legal moves ``actions``: a realization plan built from it would be no plan,
    and the best responses against it measured nothing (an illegal move's probability was
    dropped, probabilities of 2 each were taken as they were, both giving 0 points)."""
    legal = set(actions)
    for m, given in probs.items():
        q: object = given  # (read as given: a saved or hand-made strategy may hold anything)
        if m not in legal:
            raise ArgumentError(
                f"strategy at {key}: move {m!r} is not legal there; expected moves of {sorted(legal)}"
            )
        if isinstance(q, bool) or not isinstance(q, numbers.Real) or not 0.0 <= float(q) <= 1.0 + SUM_SLACK:
            raise ArgumentError(
                f"strategy at {key}: probability {q!r} of move {m}: expected a number from 0 to 1"
            )
    total = sum(probs.values())
    if abs(total - 1.0) > SUM_SLACK:
        raise ArgumentError(f"strategy at {key}: probabilities {probs} sum to {total:g}, expected 1")


def _with_actual_hand(out: Solution, tree: Tree, p: Position, plans: dict[int, Any], deals: Any) -> None:
    """The root player's value with his actual hand, and each root move's probability and
    value against the equilibrium opponent."""
    me = tree.me
    hand = p.hands[me]
    keep = deals[:, me] == hand  # (``deals``: the dealt hands, by deal)
    share = float(keep.mean())
    a_hand = tree.payoff(keep)
    c_me = a_hand @ plans[1] if me == 0 else a_hand.T @ plans[0]
    _, seq_value = best_response(tree, me, c_me, maximize=True)
    root: InfoKey = (me, hand, ())
    parent, actions = tree.infos[me][root]
    x = plans[me]
    reach = float(x[parent])
    for m in actions:
        s = tree.seqs[me][(root, m)]
        prob = float(x[s]) / reach if reach > 1e-12 else 1.0 / len(actions)
        out.moves.append((m, max(0.0, prob), seq_value[s] / share))
    # his equilibrium value with this hand: the plans' payoff over his deals
    out.value = float(plans[0] @ (a_hand @ plans[1])) / share


__all__ = [
    "Solution",
    "Tree",
    "build",
    "check_behaviour",
    "plan_exploitability",
    "solve_public",
    "solve_program",
]
