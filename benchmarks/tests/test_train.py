"""The network's training (benchmarks/training/train.py)."""

from __future__ import annotations

from benchmarks.training import train
from solver.native.constants import NET_INPUTS, NET_LEVEL, NET_LEVELS


def test_a_level_without_labels_gets_the_nearest_labelled_levels_weights() -> None:
    import numpy as np

    w = np.arange(NET_INPUTS * 2, dtype=float).reshape(NET_INPUTS, 2)
    tied = train.tie_unlabelled_levels(w, [1, 2, 3])
    for k, near in ((0, 1), (1, 1), (3, 3), (4, 3), (NET_LEVELS - 1, 3)):
        assert (tied[NET_LEVEL + k] == w[NET_LEVEL + near]).all()
    assert (tied[:NET_LEVEL] == w[:NET_LEVEL]).all() and (
        tied[NET_LEVEL + NET_LEVELS :] == w[NET_LEVEL + NET_LEVELS :]
    ).all()
