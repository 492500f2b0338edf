"""Mine puzzle records from seeded self-play and write the collections of positions/.

Each candidate is solved by the engine (or analysed by sampling when cards are hidden)
and kept when it is instructive: a unique best move that beats the runner-up by a clear
margin, preferring a declaration or an exchange that matters, or a four-kings threat to
meet.  The same seeds give the same files, so the collections can be regenerated and
extended (raise --count or change --first-seed).

Run from the repository's root:
      python -m benchmarks.mine_positions [--out positions] [--only FILE]
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable, Iterable, Iterator

from solver.analysis.sampling import SampledAnalysis, analyse
from solver.engine.results import Analysis
from solver.engine.solving import solve
from solver.formats.bpd import Record, write_bpd
from solver.model.moves import Move
from solver.model.position import Position
from solver.play.dealing import random_final_phase, random_position

MARGIN = 10  # the best move must beat the runner-up by this much (points)
TRICK_MARGIN = 1  # ... or by one trick in Petite Brisque


def _theme(a: Analysis, p: Position) -> str:
    best = a.best[0]
    if a.win:
        return f"{a.win} wins the game by a declaration"
    if best.is_declaration:
        return f"declare {best} before leading"
    if str(best) == "x":
        return "the exchange of the 7 of trumps matters"
    if p.in_final_phase and p.trick >= 0:
        return "the right card to follow"
    return "the only move that keeps the best result"


def _unique(a: Analysis, margin: int) -> Move | None:
    """The best move if it is unique and beats the runner-up by ``margin``."""
    if len(a.best) != 1 or len(a.moves) < 2:
        return None
    values = sorted((mv.value for mv in a.moves), reverse=True)
    if values[0] - values[1] < margin:
        return None
    return a.best[0]


def exact_record(p: Position, prefix: str, n: int, margin: int, extra_theme: str = "") -> Record | None:
    a = solve(p)
    best = _unique(a, margin)
    if best is None:
        return None
    runner = sorted((mv.value for mv in a.moves), reverse=True)[1]
    theme = extra_theme or _theme(a, p)
    return Record(
        bpn=p.bpn(),
        ops={
            "id": f"{prefix}-{n:03d}",
            "bm": [best],
            "v": a.value,
            "pv": a.pv,
            "c0": f"{theme}; runner-up {runner:+d}",
        },
    )


def mine_exact(
    prefix: str,
    count: int,
    candidates: Iterable[Position],
    margin: int,
    prefer: Callable[[Record], bool] | None = None,
    final_only: bool = False,
) -> list[Record]:
    """Records from candidate positions; ``prefer`` ranks instructive ones first;
    ``final_only`` keeps final-phase positions only (not Brisque's last-pickup window)."""
    picked: list[Record] = []
    spare: list[Record] = []
    for p in candidates:
        if p.is_over() or (final_only and not p.in_final_phase and p.rules.draws):
            continue
        rec = exact_record(p, prefix, 0, margin)
        if rec is None:
            continue
        (picked if prefer and prefer(rec) else spare).append(rec)
        if len(picked) >= count:
            break
    out = (picked + spare)[:count]
    for i, r in enumerate(out, 1):
        r.ops["id"] = f"{prefix}-{i:03d}"
    return out


def brisque_endgames(count: int) -> list[Record]:
    """A third each: a declaration that matters, four kings/queens to stop, card play."""
    third = count // 3
    rng = random.Random(11)
    decl = (
        random_final_phase(seed, "brisque", rng.randint(3, 6), stack="marriages") for seed in range(100000)
    )
    threat = (
        random_final_phase(seed, "brisque", rng.randint(4, 6), stack="quartet", stack_opponent=True)
        for seed in range(100000)
    )
    plain = (random_position(seed, "brisque", 11 + rng.randrange(3)) for seed in range(100000))
    out = mine_exact("fp", third, decl, MARGIN, final_only=True)
    out += [_threat(r) for r in mine_exact("fp", third, threat, MARGIN, final_only=True)]
    out += mine_exact(
        "fp",
        count - len(out),
        plain,
        MARGIN,
        final_only=True,
        prefer=lambda r: not any(m.is_declaration for m in r.moves("bm")),
    )
    for i, r in enumerate(out, 1):
        r.ops["id"] = f"fp-{i:03d}"
    return out


def _threat(r: Record) -> Record:
    r.ops["c0"] = f"keep the opponent off lead: he holds four kings or queens; {r.ops['c0']}"
    return r


def briscan_endgames(count: int) -> list[Record]:
    def candidates() -> Iterator[Position]:
        rng = random.Random(12)
        for seed in range(100000):
            if seed % 2:
                yield random_final_phase(seed, "briscan", rng.randint(3, 5), stack="marriages")
            else:
                yield random_position(seed, "briscan", 12 + rng.randrange(2))

    def prefer(r: Record) -> bool:
        return any(m.is_declaration for m in r.moves("bm"))

    return mine_exact("bc", count, candidates(), MARGIN, prefer, final_only=True)


def petite_deals(count: int) -> list[Record]:
    cands = (random_position(seed, "petite", 1) for seed in range(100000))
    return mine_exact("pb", count, cands, TRICK_MARGIN)


def double_dummy(count: int) -> list[Record]:
    def candidates() -> Iterator[Position]:
        rng = random.Random(13)
        for seed in range(100000):
            p = random_position(seed, "brisque", 9 + rng.randrange(2))
            if not p.is_over() and p.turnup >= 0:
                yield p

    def prefer(r: Record) -> bool:
        return any(str(m) == "x" or m.is_declaration for m in r.moves("bm"))

    return mine_exact("dd", count, candidates(), MARGIN, prefer)


def hidden_cards(count: int, worlds: int = 40) -> list[Record]:
    out: list[Record] = []
    rng = random.Random(14)
    for seed in range(100000):
        p = random_position(seed, "brisque", 8 + rng.randrange(3))
        if p.is_over() or p.turnup < 0 or p.in_window:
            continue
        view = p.view(p.turn)
        a = analyse(view, worlds=worlds, seed=seed)
        if not isinstance(a, SampledAnalysis) or a.method != "pimc":
            continue
        ranked = sorted(a.moves, key=lambda mv: -mv.value)
        if len(ranked) < 2 or len(a.best) != 1:
            continue
        # (no standard error from fewer than two worlds: no margin to judge the gap by)
        first, second = ranked[0].stderr, ranked[1].stderr
        if first is None or second is None or a.stderr is None:
            continue
        gap = ranked[0].value - ranked[1].value
        if gap < max(MARGIN, 3 * (first + second)):
            continue
        tol = round(max(2.0, 3 * a.stderr), 1)
        out.append(
            Record(
                bpn=view.bpn(),
                ops={
                    "id": f"hc-{len(out) + 1:03d}",
                    "bm": [a.best[0]],
                    "ev": round(a.value, 2),
                    "evtol": tol,
                    "worlds": worlds,
                    "seed": seed,
                    "c0": f"expected {a.value:+.1f}, runner-up {ranked[1].move} {ranked[1].value:+.1f}",
                },
            )
        )
        if len(out) >= count:
            break
    return out


COLLECTIONS = {
    "brisque-endgames.bpd": (brisque_endgames, 60, "Brisque final-phase endgames: a unique best move"),
    "briscan-endgames.bpd": (briscan_endgames, 20, "Briscan endgames with melds in play"),
    "petite-deals.bpd": (petite_deals, 10, "Petite Brisque deals: the trick margin"),
    "double-dummy.bpd": (double_dummy, 20, "Brisque talon-phase positions, talon order known"),
    "hidden-cards.bpd": (
        hidden_cards,
        20,
        "Hidden cards: the view of the player to move; ev is the expected value by sampling (worlds, seed)",
    ),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="positions", help="the folder of the collections (default positions)")
    ap.add_argument("--only", default=None, help="one collection file name")
    a = ap.parse_args()
    for name, (fn, count, title) in COLLECTIONS.items():
        if a.only and name != a.only:
            continue
        records = fn(count)
        path = os.path.join(a.out, name)
        write_bpd(
            path,
            records,
            f"{title}.\nMined by `python -m benchmarks.mine_positions` from seeded self-play; "
            f"every record checked by the engine.",
        )
        print(f"{path}: {len(records)} records")


if __name__ == "__main__":
    main()
