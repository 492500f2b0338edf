"""The learned and linear evaluation, in one room: its inputs, its files, its weights.

What scores the horizon of a depth-limited search, as Stockfish keeps ``src/nnue/``:

* ``features.py``: the network's input layout (names, offsets and sizes, the compiled
  engine's numbers), its :data:`FINGERPRINT`, and the encoder of a position;
* ``network.py``: the network in plain Python, the twin the compiled one
  (``src_cython/network.pxd``) is tested against;
* ``files.py``: the network file format, which carries the fingerprint of its layout, and
  the shipped networks (``networks/``);
* ``shipped.py``: the other shipped numbers (``data/``): the linear horizon weights, how
  deals end (the chance of winning a game), the inference's fitted settings;
* ``choice.py``: which evaluation a search uses, and setting it on an engine.

Every shipped artefact is read, and written by the scripts that make it (in
``benchmarks/training/``), through the names below.

>>> net = load_network("brisque")
>>> net.key, len(net.w1) == LAYOUT[-1].offset + LAYOUT[-1].size
('brisque-margin', True)
"""

from solver.engine.evaluation.choice import (
    DEFAULT_HORIZON,
    HORIZONS,
    NETWORK_WIN_POINTS,
    has_network,
    horizon_key,
    horizon_network,
    horizon_weights,
    quick_horizon,
    set_evaluation,
)
from solver.engine.evaluation.features import (
    FINGERPRINT,
    LAYOUT,
    InputBlock,
    canonical_card,
    canonical_melds,
    layout_description,
    network_inputs,
    network_level,
)
from solver.engine.evaluation.files import (
    load_network,
    network_text,
    parse_network,
    read_network,
    shipped_network_path,
    write_network,
)
from solver.engine.evaluation.network import Network, network_key, sigmoid
from solver.engine.evaluation.shipped import (
    deal_outcomes,
    inference_settings,
    linear_weights,
    write_deal_outcomes,
    write_inference_settings,
    write_linear_weights,
)

__all__ = [
    "DEFAULT_HORIZON",
    "FINGERPRINT",
    "HORIZONS",
    "LAYOUT",
    "NETWORK_WIN_POINTS",
    "InputBlock",
    "Network",
    "canonical_card",
    "canonical_melds",
    "deal_outcomes",
    "has_network",
    "horizon_key",
    "horizon_network",
    "horizon_weights",
    "inference_settings",
    "layout_description",
    "linear_weights",
    "load_network",
    "network_inputs",
    "network_key",
    "network_level",
    "network_text",
    "parse_network",
    "quick_horizon",
    "read_network",
    "set_evaluation",
    "shipped_network_path",
    "sigmoid",
    "write_deal_outcomes",
    "write_inference_settings",
    "write_linear_weights",
    "write_network",
]
