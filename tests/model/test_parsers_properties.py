"""Property tests: the parsers raise only NotationError, and what parses round-trips.

``solver.NotationError`` is a ``ValueError``; ``BPNError`` and ``RulesError`` subclass it.
Any other exception escaping ``Position``, ``Rules.parse`` or ``parse_move`` is a bug.
"""

import random

import pytest
from helpers import NOTATION_EXAMPLES
from hypothesis import example, given
from hypothesis import strategies as st

import solver
from solver import NotationError, Position, Rules, parse_move
from solver.errors import HiddenInformationError, PositionError
from solver.play.dealing import deal


def test_error_classes():
    assert issubclass(NotationError, ValueError)
    assert issubclass(solver.BPNError, NotationError)
    assert issubclass(solver.RulesError, NotationError)


# ---------------------------------------------------------------- a pool of valid BPNs
def _pool() -> list[str]:
    out = list(NOTATION_EXAMPLES)
    for game in (
        "brisque",
        "briscan",
        "petite",
        "brisque(target=300,exchange_points=10)",
        "petite(draw=yes)",
        "briscan(one_declaration_per_turn=yes)",
    ):
        for seed in range(6):
            p = deal(seed, game)
            rng = random.Random(seed)
            k = 0
            while not p.is_over():
                if k % 4 == 0:
                    out += [p.bpn(), p.view(0).bpn(), p.view(1).bpn()]
                p.push(rng.choice(p.legal_moves()))
                k += 1
            out.append(p.bpn())
    return sorted(set(out))


POOL = _pool()
FIELDS = sorted({f for b in POOL for f in b.split()})
ALPHABET = "AKQJT987610SHDCshdcx.?+/-:=() ,abmkp♠♥♦♣²٣\t\n\x00éİſK"

fields = st.one_of(st.sampled_from(FIELDS), st.text(alphabet=ALPHABET, max_size=12), st.text(max_size=8))


@st.composite
def mutated_bpn(draw) -> str:
    parts = draw(st.sampled_from(POOL)).split()
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["substitute", "delete", "duplicate", "swap", "char", "insert"]))
        i = draw(st.integers(0, len(parts) - 1)) if parts else 0
        if op == "substitute" and parts:
            parts[i] = draw(fields)
        elif op == "delete" and parts:
            del parts[i]
        elif op == "duplicate" and parts:
            parts.insert(i, parts[i])
        elif op == "swap" and len(parts) > 1:
            j = draw(st.integers(0, len(parts) - 1))
            parts[i], parts[j] = parts[j], parts[i]
        elif op == "char" and parts and parts[i]:
            f = parts[i]
            k = draw(st.integers(0, len(f) - 1))
            parts[i] = f[:k] + draw(st.sampled_from(ALPHABET + "")) + f[k + 1 :]
        elif op == "insert":
            parts.insert(i, draw(fields))
    return " ".join(parts)


def check_position_string(text: str) -> None:
    """Position(text) raises only NotationError; a parsed position checks and prints cleanly."""
    try:
        p = Position(text)
    except NotationError as exc:
        assert str(exc)  # the message says something
        return
    probs = p.problems()
    assert isinstance(probs, list) and all(isinstance(m, str) and m for m in probs)
    b = p.bpn()
    assert Position(b).bpn() == b
    assert Position(b).problems() == probs
    if probs or p.is_over():
        return
    try:
        moves = p.legal_moves()
    except HiddenInformationError:
        return
    assert moves, f"a valid position that is not over has no legal move: {b}"
    for m in moves:  # a legal move from a valid position stays valid
        q = p.apply(m)
        assert q.problems() == [], (b, str(m), q.bpn(), q.problems())
        assert Position(q.bpn()).bpn() == q.bpn()


@pytest.mark.slow
@given(st.text())
@example("")
@example("brisque")
@example("brisque AK9.97..9/7..KQ9.A7 D ² TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
@example("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35 declared=٣")
@example("brisque AK9.97..9/7..KQ9.A7 D " + "9" * 5000 + " TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
def test_position_arbitrary_text(text):
    check_position_string(text)


@given(st.lists(fields, max_size=12).map(" ".join))
def test_position_arbitrary_fields(text):
    check_position_string(text)


@given(mutated_bpn())
def test_position_mutated_bpn(text):
    check_position_string(text)


def test_pool_is_valid():
    for b in POOL:
        p = Position(b)
        assert p.bpn() == b or b == NOTATION_EXAMPLES[2]
        assert p.problems() == [], b


# ---------------------------------------------------------------- rules field
RULES_WORDS = [
    "brisque",
    "briscan",
    "petite",
    "target",
    "exchange",
    "exchange_points",
    "quartet_win",
    "final_declarations",
    "one_declaration_per_turn",
    "draw",
    "next_dealer",
    "objective",
    "yes",
    "no",
    "game",
    "deal",
    "winner",
    "alternate",
    "margin",
    "tricks",
    "0",
    "1",
    "300",
    "-1",
    "=",
    ",",
    "(",
    ")",
    " ",
]


def check_rules_string(text: str) -> None:
    try:
        r = Rules.parse(text)
    except NotationError as exc:
        assert isinstance(exc, solver.RulesError) and str(exc)
        return
    assert Rules.parse(str(r)) == r
    assert str(Rules.parse(str(r))) == str(r)


@given(st.text())
def test_rules_arbitrary_text(text):
    check_rules_string(text)


@given(st.lists(st.sampled_from(RULES_WORDS), max_size=10).map("".join))
@example("brisque(target=" + "9" * 5000 + ")")
@example("brisque(target=٣)")
def test_rules_word_soup(text):
    check_rules_string(text)


# ---------------------------------------------------------------- moves
MOVE_ALPHABET = "AKQJT98710SHDCshdcxX+mkabtcp354pasPASS♠♥♦♣ "


def check_move_string(text: str) -> None:
    try:
        m = parse_move(text)
    except NotationError as exc:
        assert str(exc)
        return
    assert isinstance(m, solver.Move)
    assert parse_move(str(m)) == m
    assert str(parse_move(str(m))) == str(m)


@given(st.text())
def test_move_arbitrary_text(text):
    check_move_string(text)


@given(st.text(alphabet=MOVE_ALPHABET, max_size=6))
def test_move_small_alphabet(text):
    check_move_string(text)


def test_parse_moves_rejects_the_whole_line():
    assert [str(m) for m in solver.parse_moves("+mh +3ks 10s x pass")] == ["+mH", "+3KS", "TS", "x", "pass"]
    try:
        solver.parse_moves("+mH ZZ AS")
    except NotationError as exc:
        assert "'ZZ'" in str(exc)
    else:
        raise AssertionError("parse_moves accepted ZZ")


def test_illegal_move_is_a_position_error_not_a_crash():
    p = Position(NOTATION_EXAMPLES[0])
    for text in ("AH", "x", "pass", "+kK", "+mH"):
        try:
            p.push(text)
        except PositionError as exc:
            assert text.lstrip("+").lower() in str(exc).lower()
        else:
            raise AssertionError(f"{text} was accepted in {p.bpn()}")
    assert p.bpn() == NOTATION_EXAMPLES[0]
