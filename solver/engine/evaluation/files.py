"""The network file format, and where the shipped networks lie.

A network file is one line of JSON: the network's ``key`` (its game and objective), the
``features`` fingerprint of the input layout it was trained for
(:data:`~solver.engine.evaluation.features.FINGERPRINT`), its ``inputs`` and ``hidden``
widths, the ``levels`` of its labels, and the weights ``w1`` ... ``b3``, each as the base64 of
little-endian single-precision numbers, row after row.  A file whose fingerprint is not the
engine's was trained for other inputs: its numbers would be read as the wrong features, so
:func:`read_network` refuses it with a :class:`~solver.errors.NetworkFileError` that quotes
the file and both fingerprints.

>>> net = load_network("brisque")
>>> net.key, shipped_network_path("brisque").name
('brisque-margin', 'brisque-margin.json')
>>> load_network("petite") is None
True
"""

from __future__ import annotations

import base64
import json
import sys
from array import array
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.engine.evaluation.features import FINGERPRINT
from solver.engine.evaluation.network import Network, network_key
from solver.errors import NetworkFileError
from solver.model.rules import Rules
from solver.native.constants import NET_H1, NET_H2, NET_INPUTS, NET_OUTPUTS

# the shipped networks, one file a game and objective (package data)
NETWORKS = Path(__file__).parent / "networks"
WEIGHTS = ("w1", "b1", "w2", "b2", "w3", "b3")


def shipped_network_path(rules: Rules | str) -> Path:
    """Where the network of ``rules``' game and objective is shipped (and where the
    training writes it), whether or not it exists."""
    return NETWORKS / f"{network_key(rules)}.json"


def parse_network(text: str, source: str = "network") -> Network:
    """The network of a file's text; ``source`` names the file in errors."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NetworkFileError(f"{source}: not a network file ({exc})") from None
    if not isinstance(d, dict) or not all(k in d for k in ("key", *WEIGHTS)):
        raise NetworkFileError(
            f"{source}: not a network file (expected the fields key, {', '.join(WEIGHTS)})"
        )
    found = d.get("features")
    if found != FINGERPRINT:
        raise NetworkFileError(
            f"{source}: trained for the input layout {found or 'of no fingerprint'}, and the engine's is "
            f"{FINGERPRINT} (solver/engine/evaluation/features.py): train it again for these inputs"
        )
    shapes = {"w1": (NET_INPUTS, NET_H1), "b1": (1, NET_H1), "w2": (NET_H1, NET_H2), "b2": (1, NET_H2),
              "w3": (NET_H2, NET_OUTPUTS), "b3": (1, NET_OUTPUTS)}  # fmt: skip
    parts: dict[str, Any] = {"key": d["key"], "levels": d.get("levels", [])}
    for name, (n, m) in shapes.items():
        flat = array("f")
        try:
            flat.frombytes(base64.b64decode(d[name], validate=True))
        except (ValueError, TypeError) as exc:  # (binascii.Error is a ValueError)
            raise NetworkFileError(
                f"{source}: {name} is not base64 of single-precision numbers ({exc})"
            ) from None
        if sys.byteorder == "big":
            flat.byteswap()
        if len(flat) != n * m:
            raise NetworkFileError(f"{source}: {name} holds {len(flat)} numbers, expected {n * m}")
        rows = [tuple(flat[i * m : (i + 1) * m]) for i in range(n)]
        parts[name] = rows[0] if n == 1 else rows
    return Network.from_dict(parts)


def network_text(net: Network) -> str:
    """The file of ``net`` (what :func:`parse_network` reads), with this engine's fingerprint."""

    def b64(rows: Any) -> str:
        flat = array("f", [v for r in rows for v in r] if rows and isinstance(rows[0], tuple) else rows)
        if sys.byteorder == "big":
            flat.byteswap()
        return base64.b64encode(flat.tobytes()).decode("ascii")

    head: dict[str, Any] = {
        "key": net.key,
        "features": FINGERPRINT,
        "inputs": NET_INPUTS,
        "hidden": [NET_H1, NET_H2],
    }
    if net.levels:
        head["levels"] = list(net.levels)
    return json.dumps({**head, **{name: b64(getattr(net, name)) for name in WEIGHTS}}) + "\n"


def read_network(path: Path | str) -> Network:
    """The network of the file ``path`` (a :class:`~solver.errors.NetworkFileError` if it is
    not one, cannot be read, or was trained for another input layout)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise NetworkFileError(f"cannot read the network file {str(path)!r}: {exc}") from None
    return parse_network(text, str(path))


def write_network(path: Path | str, net: Network) -> None:
    """Write ``net`` to the file ``path`` (its folder made if need be)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(network_text(net.checked()))


def load_network(rules: Rules | str) -> Network | None:
    """The network shipped for ``rules``' game and objective, or None.  Read once a
    process: the quick search asks for it at every decision."""
    return _shipped(network_key(rules))


@lru_cache(maxsize=8)
def _shipped(key: str) -> Network | None:
    path = NETWORKS / f"{key}.json"
    return read_network(path) if path.is_file() else None


__all__ = [
    "NETWORKS",
    "load_network",
    "network_text",
    "parse_network",
    "read_network",
    "shipped_network_path",
    "write_network",
]
