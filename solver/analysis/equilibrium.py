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
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from solver.analysis.ranking import RankingRule, WinWorth
from solver.engine.api import shared_solver, solve
from solver.engine.results import current_margin
from solver.engine.seam import engine_root
from solver.errors import ArgumentError, PositionError
from solver.model.bits import cards_of, popcount
from solver.model.moves import Move, move
from solver.model.position import SEATS, Position
from solver.model.value import Value

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
            "deals": self.deals,
            "leaves": self.leaves,
            "seconds": round(self.seconds, 4),
        }


class _Tree:
    """The sequence form of the public subgame: each player's information sets and
    sequences, and the payoff matrix (for the root player) by pairs of sequences."""

    def __init__(self, root_player: int, rank: RankingRule):
        self.me = root_player
        self.rank = rank
        self.seqs: list[dict[Seq, int]] = [{None: 0}, {None: 0}]
        self.infos: list[dict[InfoKey, tuple[int, list[int]]]] = [{}, {}]  # key -> (parent, actions)
        # per leaf: its engine root (None: the deal is over), its value for the root player
        # if over, the player to move and his margin so far, its probability, s0, s1, deal
        self.leaf_of: list[tuple[Any, float, int, int, float, int, int, int]] = []
        # the last replies: nodes whose every move ends the play with hidden cards, each
        # solved by one native call for all its moves (engine root, mover, his margin so
        # far, prob, the other seat's sequence, deal, [(move, the mover's sequence)])
        self.replies: list[tuple[Any, int, int, float, int, int, list[tuple[int, int]]]] = []

    def seq(self, seat: int, key: InfoKey, action: int) -> int:
        table = self.seqs[seat]
        s = (key, action)
        if s not in table:
            table[s] = len(table)
        return table[s]

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
                done = float(self.rank.number(w.value(self.me), w))
                self.leaf_of.append((None, done, w.turn, 0, prob, at[0], at[1], deal))
            else:
                self.leaf_of.append(
                    (engine_root(w), 0.0, w.turn, current_margin(w), prob, at[0], at[1], deal)
                )
            return
        i = w.turn
        key: InfoKey = (i, root_hands[i], hist)
        moves = [int(m) for m in w.legal_moves()]
        if key not in self.infos[i]:
            self.infos[i][key] = (at[i], moves)
        if _last_replies(w, moves):
            seqs = [(m, self.seq(i, key, m)) for m in moves]
            self.replies.append((engine_root(w), i, current_margin(w), prob, at[1 - i], deal, seqs))
            return
        for m in moves:
            s = self.seq(i, key, m)
            before = at[i]
            at[i] = s
            w.push(m, check=False)
            self.walk(w, root_hands, (*hist, m), at, prob, deal)
            w.pop()
            at[i] = before


def _last_replies(w: Position, moves: list[int]) -> bool:
    """Whether every move of ``w`` is a card that ends the trick, after which no decision
    with hidden cards is left (the last talon trick's reply, or the reply with two cards
    each without drawing): its children are leaves, valued by one native call."""
    if w.trick < 0 or any(m >= 32 for m in moves):
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


def _reply_leaves(tree: _Tree, root: Position) -> None:
    """Value the last replies' children as leaves: every move of each reply node by one
    native call (the engine's every-move solve), appended to ``tree.leaf_of``."""
    if not tree.replies:
        return
    engine = shared_solver(root.rules).engine
    engine.clear_limits()
    results, _ = engine.solve_batch([r[0] for r in tree.replies], every_move=True)
    for (_, turn, current, prob, other_seq, deal, seqs), moves in zip(tree.replies, results, strict=True):
        raw = dict(moves)
        for m, s in seqs:
            number = float(tree.rank.number(Value.from_raw(raw[m], pov=turn, current=current), root))
            value = number if turn == tree.me else -number
            s0, s1 = (s, other_seq) if turn == 0 else (other_seq, s)
            tree.leaf_of.append((None, value, turn, 0, prob, s0, s1, deal))
    tree.replies.clear()


def _leaf_values(tree: _Tree, root: Position) -> list[float]:
    """Each leaf's value for the root player, solved exactly in one native batch (the
    leaves are built by play from a valid position, so their checks are skipped).  A game
    won is worth what the ranking rule says in the root's match (the same game totals)."""
    out = [leaf[1] for leaf in tree.leaf_of]
    todo = [k for k, leaf in enumerate(tree.leaf_of) if leaf[0] is not None]
    if todo:
        engine = shared_solver(root.rules).engine
        engine.clear_limits()
        raws, _ = engine.solve_batch([tree.leaf_of[k][0] for k in todo])
        for k, raw in zip(todo, raws, strict=True):
            _, _, turn, current, *_ = tree.leaf_of[k]
            number = float(tree.rank.number(Value.from_raw(raw, pov=turn, current=current), root))
            out[k] = number if turn == tree.me else -number
    return out


def _constraints(tree: _Tree, seat: int) -> Any:
    """The realization-plan constraints E x = e of ``seat`` (row 0: the empty sequence)."""
    from scipy.sparse import lil_matrix

    infos = tree.infos[seat]
    e = lil_matrix((1 + len(infos), len(tree.seqs[seat])))
    e[0, 0] = 1.0
    for row, (key, (parent, actions)) in enumerate(infos.items(), start=1):
        e[row, parent] = -1.0
        for m in actions:
            e[row, tree.seqs[seat][(key, m)]] = 1.0
    return e.tocsr()


def _best_response(tree: _Tree, seat: int, c: Any, maximize: bool) -> tuple[float, dict[int, float]]:
    """``seat``'s best-response value against the payoff vector ``c`` of his sequences, and
    each sequence's value (the infosets in reverse order: children come after parents)."""
    value = {s: float(c[s]) for s in range(len(tree.seqs[seat]))}
    pick = max if maximize else min
    for key, (parent, actions) in reversed(list(tree.infos[seat].items())):
        value[parent] += pick(value[tree.seqs[seat][(key, m)]] for m in actions)
    return value[0], value


def equilibrium(position: Position | str, *, win_worth: WinWorth | str = "match") -> EquilibriumAnalysis:
    """The exact equilibrium of ``position``'s public subgame (module docstring), for the
    player to move; refused with the reason outside the domain."""
    try:
        from scipy.sparse import coo_matrix
    except ImportError:
        raise ArgumentError(
            "the equilibrium solver needs numpy and scipy: pip install '.[openspiel]'"
        ) from None

    t0 = time.perf_counter()
    p = Position(position) if isinstance(position, str) else position
    probs = p.problems()
    if probs:
        raise PositionError(f"impossible position {p.bpn()!r}: " + "; ".join(probs))
    why = domain_problem(p)
    if why:
        raise ArgumentError(f"{p.bpn()!r} is outside the equilibrium solver's domain: {why}")
    rank = RankingRule.parse(win_worth)
    me = p.turn
    view = public_view(p)
    tree = _Tree(me, rank)
    deals = list(public_deals(view))
    if not deals:
        raise PositionError(f"no deal is consistent with {p.bpn()!r}")
    chance = 1.0 / len(deals)
    for d, w in enumerate(deals):
        tree.walk(w, (w.hands[0], w.hands[1]), (), [0, 0], chance, d)
    _reply_leaves(tree, p)
    values = _leaf_values(tree, p)
    n0, n1 = len(tree.seqs[0]), len(tree.seqs[1])
    rows, cols, data = [], [], []
    for (*_, pr, s0, s1, _), v in zip(tree.leaf_of, values, strict=True):
        rows.append(s0)
        cols.append(s1)
        data.append(pr * v)
    # the root player's payoff, indexed (seat 0's sequence, seat 1's sequence)
    a = coo_matrix((data, (rows, cols)), shape=(n0, n1)).tocsr()
    # one program: the root player's plan, and the opponent's from its dual
    value, plan_me, plan_opp = _lp(tree, a if me == 0 else a.T.tocsr(), me)
    plans = {me: plan_me, 1 - me: plan_opp}
    # best responses: the root player's against the opponent's plan, and the other way round
    c_me = a @ plans[1] if me == 0 else a.T @ plans[0]
    c_opp = a.T @ plans[0] if me == 0 else a @ plans[1]
    br_me, _ = _best_response(tree, me, c_me, maximize=True)
    br_opp, _ = _best_response(tree, 1 - me, c_opp, maximize=False)
    exploitability = max(0.0, br_me - br_opp)
    answer = EquilibriumAnalysis(
        bpn=p.bpn(),
        turn=SEATS[me],
        game_value=value,
        value=None,
        exploitability=exploitability,
        deals=len(deals),
        leaves=len(tree.leaf_of),
    )
    if not p.unknown[me]:
        _with_actual_hand(answer, tree, p, a, plans, values, deals)
    answer.seconds = time.perf_counter() - t0
    return answer


def _lp(tree: _Tree, payoff: Any, seat: int) -> tuple[float, Any, Any]:
    """max over ``seat``'s plans x of min over the other's plans y of x^T payoff y: the
    value, x, and y (the duals of the opponent's best-response constraints)."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, hstack

    mine, theirs = _constraints(tree, seat), _constraints(tree, 1 - seat)
    n, m = mine.shape[1], theirs.shape[0]
    a_ub = hstack([-payoff.T, theirs.T]).tocsr()
    a_eq = hstack([mine, csr_matrix((mine.shape[0], m))]).tocsr()
    c = np.zeros(n + m)
    c[n] = -1.0
    rhs = np.zeros(mine.shape[0])
    rhs[0] = 1.0
    bounds = [(0, None)] * n + [(None, None)] * m
    res = linprog(
        c, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=rhs, bounds=bounds, method="highs"
    )
    if res.status != 0:
        raise PositionError(f"the equilibrium program did not solve: {res.message}")
    return float(-res.fun), res.x[:n], np.maximum(0.0, -res.ineqlin.marginals)


def _with_actual_hand(
    answer: EquilibriumAnalysis,
    tree: _Tree,
    p: Position,
    a: Any,
    plans: dict[int, Any],
    values: list[float],
    deals: list[Position],
) -> None:
    """The root player's value with his actual hand, each root move's probability and value
    against the equilibrium opponent, and PIMC's move with its loss."""
    from scipy.sparse import coo_matrix

    me = tree.me
    hand = p.hands[me]
    mine = [d for d, w in enumerate(deals) if w.hands[me] == hand]
    share = len(mine) / len(deals)
    keep = set(mine)
    n0, n1 = len(tree.seqs[0]), len(tree.seqs[1])
    rows, cols, data = [], [], []
    for (*_, pr, s0, s1, d), v in zip(tree.leaf_of, values, strict=True):
        if d in keep:
            rows.append(s0)
            cols.append(s1)
            data.append(pr * v)
    a_hand = coo_matrix((data, (rows, cols)), shape=(n0, n1)).tocsr()
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
    # PIMC: each move's mean double-dummy value over the deals with his hand
    means: dict[int, float] = defaultdict(float)
    for d in mine:
        exact = solve(deals[d], pv=False)
        for mv in exact.moves:
            number = float(tree.rank.number(mv.value, deals[d]))
            means[int(mv.move)] += number / len(mine)
    pimc = max(actions, key=lambda m: means[m])
    answer.pimc_move = move(pimc)
    answer.pimc_loss = top - next(mv.value for mv in moves if int(mv.move) == pimc)


__all__ = [
    "EquilibriumAnalysis",
    "EquilibriumMove",
    "domain_problem",
    "equilibrium",
    "no_hidden_decision",
    "public_deals",
    "public_view",
]
