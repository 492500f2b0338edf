"""The arguments the training scripts share: the game and its levels (talon tricks left).

>>> args = parser("Labels.").parse_args(["--game", "briscan", "--levels", "2,5"])
>>> args.game, levels(args.levels)
('briscan', [2, 5])
"""

from __future__ import annotations

import argparse


def parser(doc: str | None) -> argparse.ArgumentParser:
    """A parser with the script's docstring as its help, and ``--game`` and ``--levels``."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="brisque", help="the game (rules text; default brisque)")
    ap.add_argument(
        "--levels", default="1,2,3,4", help="talon tricks left, comma-separated (default 1,2,3,4)"
    )
    return ap


def levels(text: str) -> list[int]:
    """The levels of ``--levels``: ``"1,2,3"`` -> ``[1, 2, 3]``."""
    return [int(x) for x in text.split(",")]
