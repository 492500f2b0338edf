"""Helpers shared by the test modules: the notation examples, card-set shorthands, a BPN
builder, conservation checks and random play.

Import them with ``from helpers import ...`` (tests/ is on ``sys.path``: pytest's rootdir
insertion, as there is no ``tests/__init__.py``).  Fixtures live in conftest.py.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from solver import Position, Rules
from solver.formats.records import DealRecord
from solver.model.bits import points_of, popcount
from solver.model.cards import FULL_DECK, card_str, cards_of, format_hand, parse_card, parse_cards, parse_hand
from solver.model.moves import parse_move
from solver.play.dealing import deal
from solver.play.table import Table

# The command line as a subprocess.  Run it from outside the checkout (the fixture ``brisque``
# runs it from the test's tmp_path): from the checkout, python -m would find the unbuilt source first.
BRISQUE = [sys.executable, "-m", "solver.cli"]
# The checkout's root (positions/, src_cython/, solver/board/static/, ...), from this file's own place.
ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "positions"
OUTSIDE = tempfile.gettempdir()  # (a folder outside the checkout, for processes started directly)


def run_brisque(
    *args: object, cwd: str | Path, stdin: str | bytes | None = None, text: bool = True, **kw: Any
):
    """``brisque ARGS`` in a subprocess from ``cwd``; standard output and error captured."""
    kw.setdefault("timeout", 120)
    if stdin is not None:
        kw["input"] = stdin
    return subprocess.run([*BRISQUE, *(str(a) for a in args)], capture_output=True, text=text, cwd=cwd, **kw)


class Brisque:
    """The fixture ``brisque``: ``brisque(*args, stdin=..., cwd=...)`` gives text, ``brisque.raw`` bytes."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd

    def __call__(
        self, *args: object, cwd: str | Path | None = None, **kw: Any
    ) -> subprocess.CompletedProcess[str]:
        return run_brisque(*args, cwd=cwd if cwd is not None else self.cwd, **kw)

    def raw(
        self, *args: object, cwd: str | Path | None = None, **kw: Any
    ) -> subprocess.CompletedProcess[bytes]:
        return run_brisque(*args, cwd=cwd if cwd is not None else self.cwd, text=False, **kw)


# The engine's enhancements (keywords of solver.native.engine.Engine), all off: plain
# alpha-beta, the yardstick the enhanced search must agree with.
ALL_OFF = dict.fromkeys(("merge", "forced", "mtdf", "etc", "ordering", "bounds", "small", "win_tests"), False)

# The three valid examples of NOTATION.md.
NOTATION_EXAMPLES = [
    "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35",
    "brisque AK9.97..9/7..Q9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 KD a 52:35",
    "brisque AK.T9.J.8/?6 9C 13 JT..Q8.AK - a 18:12 tricks=2:1",
]


def cards(text: str) -> int:
    """A card set from space-separated cards: ``cards("7H KH AS")``."""
    m = 0
    for t in text.split():
        m |= 1 << parse_card(t)
    return m


def card_names(moves) -> set[str]:
    """The moves (or cards) as a set of strings."""
    return {str(m) for m in moves}


def names(mask: int) -> set[str]:
    """The cards of a card set as a set of strings."""
    return {card_str(c) for c in cards_of(mask)}


def make(
    game: str,
    hand_a: str,
    hand_b: str,
    trump: str,
    *,
    talon: str | int = "0",
    trick: str = "-",
    turn: str = "a",
    out: str | None = None,
    score: str | None = None,
    extra: str = "",
) -> str:
    """Build a BPN whose ``out`` field holds every card not placed elsewhere.

    Hands are in hand form (``"A.K7.."``).  ``trump`` is the turnup card or a suit letter.
    ``talon`` is a BPN talon field, or a number N: N of the cards not placed, in a fixed order.
    By default all card points out are credited to a, and in Briscan/Petite the tricks
    (and Briscan's final-phase tricks) are credited to a as well, so that the position
    passes the validity check.  Give ``out`` explicitly for Petite Brisque (dead cards).
    """
    rules = Rules.parse(game)
    if isinstance(talon, int):  # that many face-down cards, taken from the cards not placed
        free = FULL_DECK & ~(_known(hand_a) | _known(hand_b))
        if len(trump) > 1:
            free &= ~(1 << parse_card(trump))
        if trick != "-":
            free &= ~(1 << parse_card(trick))
        talon = "".join(card_str(c) for c in cards_of(free)[:talon]) or "0"
    if out is None:
        used = _known(hand_a) | _known(hand_b)
        if len(trump) > 1:
            used |= 1 << parse_card(trump)
        if not talon.isdigit():
            for c in parse_cards(talon):
                used |= 1 << c
        if trick != "-":
            used |= 1 << parse_card(trick)
        out_mask = FULL_DECK & ~used
    else:
        out_mask = 0 if out == "-" else parse_hand(out)
    out_field = format_hand(out_mask) if out_mask else "-"
    if score is None:
        score = f"{points_of(out_mask)}:0"
    done = popcount(out_mask) // 2
    keys = extra.split()
    if rules.game != "brisque" and done and not any(k.startswith("tricks=") for k in keys):
        keys.insert(0, f"tricks={done}:0")
    if (
        rules.game == "briscan"
        and done > rules.talon_tricks
        and not any(k.startswith("final=") for k in keys)
    ):
        keys.insert(1, f"final={done - rules.talon_tricks}:0")
    fields = [game, f"{hand_a}/{hand_b}", trump, talon, out_field, trick, turn, score] + keys
    return " ".join(fields)


def _known(hand: str) -> int:
    """The known cards of a BPN hand (``"AK.T9.J.8"``, ``".KQ..+?4"``, ``"?6"``)."""
    return 0 if hand.startswith("?") else parse_hand(hand.split("+")[0])


def known_cards(p: Position) -> list[int]:
    """Every card whose place the position records, with repetitions (a list of bit masks)."""
    places = [p.hands[0], p.hands[1], p.out]
    if p.turnup >= 0:
        places.append(1 << p.turnup)
    if p.trick >= 0:
        places.append(1 << p.trick)
    places.extend(1 << c for c in (p.talon or ()))
    return places


def assert_conserved(p: Position) -> None:
    """Every card exactly once across hands, out, trick, turnup and talon (dead cards counted)."""
    places = known_cards(p)
    union = 0
    for m in places:
        assert union & m == 0, f"a card is in two places in {p.bpn()}"
        union |= m
    if p.rules.draws:
        assert union == FULL_DECK, f"cards missing in {p.bpn()}"
    else:  # Petite Brisque: the dead cards are never drawn and their identity is not recorded
        assert popcount(union) + p.talon_count == 32, p.bpn()


def expected_hand_sizes(p: Position) -> list[int]:
    """Hand sizes implied by the phase and the trick number, computed independently."""
    r = p.rules
    h = r.hand_size
    done = popcount(p.out) // 2
    if not r.draws:
        sizes = [h - done, h - done]
    elif p.turnup >= 0 and p.talon_count > 0:  # talon phase
        sizes = [h, h]
    elif p.turnup >= 0:  # Brisque's last-pickup window
        sizes = [h, h]
        sizes[1 - p.turn] -= 1  # the loser has not taken the turnup yet
    else:  # final phase
        left = h - (done - r.talon_tricks)
        sizes = [left, left]
    if p.trick >= 0:
        sizes[1 - p.turn] -= 1  # the leader has played his card
    return sizes


def play_random(seed: int, rules: str | Rules, on_position=None) -> Position:
    """Play the deal of ``seed`` to its end by random legal moves, calling ``on_position(p)``
    on every position reached (start and end included).  Returns the final position."""
    p = deal(seed, rules)
    rng = random.Random(seed)
    if on_position:
        on_position(p)
    while not p.is_over():
        p.push(rng.choice(p.legal_moves()))
        if on_position:
            on_position(p)
    return p


def interrupt_after(args: list[str], after: float, stdin: str | None = None, within: float = 30.0):
    """Run brisque ARGS, send SIGINT after ``after`` seconds (to the command alone, as
    ``timeout -s INT`` or ``kill -INT`` do), and return (status, stdout, stderr, seconds from
    the signal to the end).  A command still running ``within`` seconds after the signal
    fails the test (its process group is killed)."""
    proc = subprocess.Popen(
        [*BRISQUE, *args],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=OUTSIDE,
        start_new_session=True,
    )
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
        proc.stdin = None
    time.sleep(after)
    proc.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    try:
        out, err = proc.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"brisque {' '.join(args)} still ran {within} s after Ctrl-C")
    return proc.returncode, out, err, time.monotonic() - t0


def communicate_or_kill(proc: subprocess.Popen[Any], timeout: float) -> tuple[Any, Any]:
    """``proc.communicate(timeout)``; a command still running then is killed (its workers
    end with it) and fails the test, rather than run on for hours after the suite."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        command = proc.args if isinstance(proc.args, str) else " ".join(map(str, proc.args))
        pytest.fail(f"{command[:200]} still ran {timeout} s after the signal")


# The table against the engine (tests/play and tests/board).


def allowed_cards(t: Table) -> set[str]:
    """The cards the person may see now: his hand, the cards out, the turnup and the
    cards the engine showed."""
    p = t.position()
    me = t.person_seat()
    mask = p.hands[me] | p.out | p.shown[1 - me]
    if p.turnup >= 0:
        mask |= 1 << p.turnup
    for m in t.deals[-1]:  # cards played earlier this deal (and the 7 given by an exchange)
        if m.is_card:
            mask |= 1 << int(m)
    if any(m == parse_move("x") for m in t.deals[-1]):
        mask |= 1 << (p.trump * 8)  # the 7 of trumps, exchanged face up
    return {card_str(c) for c in range(32) if mask >> c & 1}


def whole_game_record() -> DealRecord:
    """A deal late in a whole game (totals near the target), played by the table."""
    t = Table.new("brisque", "a", 1, 21, whole_game=True)
    while not t.game_over():
        if t.position().is_over():
            t.next_deal()
        elif t.persons_turn():
            t.play(t.position().legal_moves()[-1])
        else:
            t.engine_play(t.engine_choose())
    rec = t.records()[-1]
    assert rec.whole_game and Position(rec.start).game != [0, 0]
    return rec


__all__ = [
    "ALL_OFF",
    "BRISQUE",
    "NOTATION_EXAMPLES",
    "OUTSIDE",
    "POSITIONS",
    "ROOT",
    "Brisque",
    "allowed_cards",
    "assert_conserved",
    "card_names",
    "cards",
    "communicate_or_kill",
    "expected_hand_sizes",
    "interrupt_after",
    "known_cards",
    "make",
    "names",
    "play_random",
    "run_brisque",
    "whole_game_record",
]
