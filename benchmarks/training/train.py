"""Train the learned horizon evaluation on exact labels, and write it into the package.

Reads the labels of ``benchmarks/training/labels.py`` (exact values of seeded positions), encodes each
position with the package's own encoder (``solver.engine.evaluation.network_inputs``), and fits
a network of two hidden layers with numpy (Adam, mini-batches; the three plain suits
permuted at random, which changes no value): the future margin by least squares over the
deals no game-winning event ends, and the chances of a game won and lost by cross-entropy.
The last tenth of each level (by seed) is held out: the error there is printed per level,
beside the error of the linear evaluation shipped before it (``evaluation.linear_weights``), and
written to ``benchmarks/training/data/report-<game>.json``.  The weights are shipped through
``solver.engine.evaluation.write_network`` (``shipped_network_path``), with the fingerprint
of the input layout they were trained for.

The same labels and ``--seed`` give the same weights (numpy's seeded generator, one thread).

Run from the repository's root:
      python -m benchmarks.training.train --game brisque [--levels 1,2,3,4,5] [--epochs 40] [--seed 1]                      (needs numpy: pip install '.[train]')
"""

from __future__ import annotations

import json
import os
import sys
import time
from itertools import permutations
from pathlib import Path
from typing import Any

# one BLAS thread: the same sums in the same order, so the same labels and seed give the
# same weights (before numpy is imported)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from benchmarks.training import arguments  # noqa: E402
from benchmarks.training.labels import DATA, label_path, read_labels, slug  # noqa: E402
from solver.engine import Solver  # noqa: E402
from solver.engine.evaluation import (  # noqa: E402
    Network,
    canonical_melds,
    horizon_weights,
    network_inputs,
    network_key,
    shipped_network_path,
    write_network,
)
from solver.engine.evaluation.features import HIDDEN, LAYOUT  # noqa: E402
from solver.model.melds import MELDS  # noqa: E402
from solver.model.position import Position  # noqa: E402
from solver.model.rules import Rules  # noqa: E402
from solver.native.constants import (  # noqa: E402
    NET_INPUTS,
    NET_LEVEL,
    NET_LEVELS,
    WIN_THRESHOLD,
)

SCALE = 50.0  # margins are fitted in units of 50 points (the weights are written in points)


def suit_permutations() -> list[np.ndarray]:
    """Input-index permutations that renumber the three plain suits (1, 2, 3) among
    themselves: the six ways to write the same position (the blocks where the package's input
    layout puts the cards and the melds)."""
    block = {b.name: b for b in LAYOUT}
    places, melds = block["places"], (block["melds_me"], block["melds_opp"])
    out = []
    for perm in permutations((1, 2, 3)):
        suit = [0, *perm]
        p = np.arange(NET_INPUTS)
        for place in range(places.size // 32):
            for c in range(32):
                p[place * 32 + c] = place * 32 + suit[c // 8] * 8 + c % 8
        # a suited meld goes to the same meld in its new suit: canonical_melds(t) maps suit s
        # to s - t, so the meld of suit s is sent to suit suit[s] by composing two of them
        for m in MELDS:
            if m.suit < 0:
                continue
            target = next(
                n.index
                for n in MELDS
                if n.kind == m.kind and n.code[:-1] == m.code[:-1] and n.suit == suit[m.suit]
            )
            for b in melds:
                p[b.offset + m.index] = b.offset + target
        out.append(p)
    assert canonical_melds(0) == tuple(range(len(MELDS)))
    return out


def tie_unlabelled_levels(w1: np.ndarray, levels: list[int]) -> np.ndarray:
    """``w1`` with the row of every level input that no label turned on (a level without
    labels, deeper or shallower) made a copy of the nearest labelled level's row (``--tie``).

    Such a row otherwise keeps its random start, and a search whose horizon lies at that
    level (three tricks from the first tricks of a deal) adds it to every evaluation there.
    Copying measured better in Brisque's early world searches and worse in Briscan's, and the
    shipped networks keep their random rows (docs/experiments/learned-horizon.md).

    >>> w = np.arange(NET_INPUTS * 2, dtype=float).reshape(NET_INPUTS, 2)
    >>> t = tie_unlabelled_levels(w, [1, 2])
    >>> bool((t[NET_LEVEL + 7] == w[NET_LEVEL + 2]).all()), bool((t[NET_LEVEL] == w[NET_LEVEL + 1]).all())
    (True, True)
    """
    out = w1.copy()
    for k in range(NET_LEVELS):
        if k not in levels:
            nearest = min(levels, key=lambda m: (abs(m - k), -m))
            out[NET_LEVEL + k] = w1[NET_LEVEL + nearest]
    return out


def encode(game: str, levels: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(inputs, raw values, levels, held-out mask, the linear evaluation of each held-out
    label) of every label of ``levels``; the last tenth of each level is held out."""
    rules = Rules.parse(game)
    weights = horizon_weights(rules)
    solver = Solver(rules, horizon="linear")
    rows, values, lv, held, linear = [], [], [], [], []
    for level in levels:
        labels = read_labels(game, level)  # (read once: a label run may be adding to the file)
        cut = len(labels) * 9 // 10
        for k, r in enumerate(labels):
            p = Position(r["bpn"])
            x = np.zeros(NET_INPUTS, dtype=np.float32)
            x[network_inputs(p)] = 1.0
            rows.append(x)
            values.append(r["raw"])
            lv.append(level)
            held.append(k >= cut)
            if k >= cut:  # the linear evaluation, for the report's comparison
                solver.load(p)
                row, feats = solver.engine.horizon_features()
                linear.append(sum(w * f for w, f in zip(weights[row], feats)) if weights else 0.0)
        print(f"{game} level {level}: {len(labels)} labels encoded", file=sys.stderr)
    return np.array(rows), np.array(values, dtype=np.float64), np.array(lv), np.array(held), np.array(linear)


def label_kind(game: str, level: int) -> str:
    """How a level's labels were made: "exact", or the search of ``labels.py --depth`` (a
    file holds one kind, so its first row tells)."""
    with label_path(game, level).open() as f:
        first = json.loads(f.readline() or "{}")
    return (
        f"searched {first['depth']} tricks deep to network {first.get('network')}"
        if first.get("depth")
        else "exact"
    )


class Adam:
    def __init__(self, params: list[np.ndarray], lr: float):
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1**self.t)
            vh = v / (1 - b2**self.t)
            p -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def forward(params: list[np.ndarray], x: np.ndarray) -> tuple[np.ndarray, ...]:
    w1, b1, w2, b2, w3, b3 = params
    z1 = x @ w1 + b1
    h1 = np.maximum(z1, 0)
    z2 = h1 @ w2 + b2
    h2 = np.maximum(z2, 0)
    return h1, h2, h2 @ w3 + b3


def train(
    x: np.ndarray, y: np.ndarray, hidden: tuple[int, int], epochs: int, seed: int, lr: float
) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    n_in = x.shape[1]
    h1n, h2n = hidden
    params = [
        rng.normal(0, np.sqrt(2 / 40), (n_in, h1n)),  # about 40 inputs are on
        np.zeros(h1n),
        rng.normal(0, np.sqrt(2 / h1n), (h1n, h2n)),
        np.zeros(h2n),
        rng.normal(0, np.sqrt(1 / h2n), (h2n, 3)),
        np.zeros(3),
    ]
    opt = Adam(params, lr)
    perms = suit_permutations()
    win = (y >= WIN_THRESHOLD).astype(np.float64)
    loss_ = (y <= -WIN_THRESHOLD).astype(np.float64)
    plain = 1.0 - win - loss_
    margin = np.where(plain > 0, y, 0.0) / SCALE
    n, batch = len(y), 256
    for epoch in range(epochs):
        opt.lr = lr * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))  # cosine decay
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n, batch):
            idx = order[s : s + batch]
            xb = x[idx][:, perms[rng.integers(6)]]
            h1, h2, out = forward(params, xb)
            # margin: squared error over the plain deals; wins: cross-entropy
            d = np.zeros_like(out)
            err = (out[:, 0] - margin[idx]) * plain[idx]
            d[:, 0] = err
            for o, t in ((1, win[idx]), (2, loss_[idx])):
                pr = 1 / (1 + np.exp(-out[:, o]))
                d[:, o] = 0.1 * (pr - t)
            total += float(np.sum(err**2))
            d /= len(idx)
            w1, b1, w2, b2, w3, b3 = params
            g_w3 = h2.T @ d
            g_b3 = d.sum(0)
            dh2 = (d @ w3.T) * (h2 > 0)
            g_w2 = h1.T @ dh2
            g_b2 = dh2.sum(0)
            dh1 = (dh2 @ w2.T) * (h1 > 0)
            g_w1 = xb.T @ dh1
            g_b1 = dh1.sum(0)
            opt.step([g_w1, g_b1, g_w2, g_b2, g_w3, g_b3])
        print(
            f"epoch {epoch + 1}/{epochs}: training rmse {SCALE * np.sqrt(total / max(plain.sum(), 1)):.2f}",
            file=sys.stderr,
        )
    return params


def main() -> None:
    ap = arguments.parser(__doc__)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-write", action="store_true", help="report the held-out error only")
    ap.add_argument(
        "--tie",
        action="store_true",
        help="give the levels without labels the weights of the nearest labelled level (else their random start)",
    )
    ap.add_argument(
        "--hidden",
        default=",".join(map(str, HIDDEN)),
        help="the hidden widths, to try others (the engine's are fixed when it is built: with --no-write)",
    )
    ap.add_argument(
        "--report", type=Path, default=None, help="where the report goes (default benchmarks/training/data)"
    )
    args = ap.parse_args()
    h1, h2 = (int(v) for v in args.hidden.split(","))
    if (h1, h2) != HIDDEN and not args.no_write:
        ap.error(
            f"--hidden {args.hidden}: the engine is built for {HIDDEN[0]},{HIDDEN[1]}; try others with --no-write"
        )
    levels = arguments.levels(args.levels)
    t0 = time.time()
    x, y, lv, held, linear = encode(args.game, levels)
    print(f"encoded in {time.time() - t0:.0f} s", file=sys.stderr)
    params = train(x[~held], y[~held], (h1, h2), args.epochs, args.seed, args.lr)
    _, _, out = forward(params, x[held])
    yh, lvh = y[held], lv[held]
    plain = np.abs(yh) < WIN_THRESHOLD
    report: dict[str, Any] = {
        "game": args.game,
        "hidden": [h1, h2],
        "epochs": args.epochs,
        "seed": args.seed,
        "levels": {},
    }
    for level in levels:
        sel = plain & (lvh == level)
        rmse = float(SCALE * np.sqrt(np.mean((out[sel, 0] - yh[sel] / SCALE) ** 2)))
        lin = float(np.sqrt(np.mean((linear[sel] - yh[sel]) ** 2)))
        kind = label_kind(args.game, level)
        report["levels"][level] = {
            "train": int(((lv == level) & ~held).sum()),
            "held_out": int(sel.sum()),
            "sd": float(yh[sel].std()),
            "rmse": rmse,
            "rmse_linear": lin,
            "labels": kind,
        }
        print(
            f"level {level}: held-out {sel.sum()}, sd {yh[sel].std():.1f}, rmse {rmse:.2f} (linear {lin:.2f})"
            + ("" if kind == "exact" else f", against labels {kind}"),
            file=sys.stderr,
        )
    report_path: Path = args.report or DATA / f"report-{slug(args.game)}.json"
    report_path.parent.mkdir(parents=True, exist_ok=True)
    report_path.write_text(json.dumps(report, indent=1))
    if args.no_write:
        return
    w1, b1, w2, b2, w3, b3 = params
    labelled = [k for k in range(NET_LEVELS) if x[:, NET_LEVEL + k].any()]
    if args.tie:
        w1 = tie_unlabelled_levels(w1, labelled)
    w3 = w3 * np.array([SCALE, 1, 1])
    b3 = b3 * np.array([SCALE, 1, 1])
    key = network_key(Rules.parse(args.game))

    net = Network.from_dict(
        {
            "key": key,
            "levels": labelled,
            **{
                n: a.astype(np.float32).tolist()
                for n, a in zip(("w1", "b1", "w2", "b2", "w3", "b3"), (w1, b1, w2, b2, w3, b3))
            },
        }
    )
    path = shipped_network_path(args.game)
    write_network(path, net)
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
