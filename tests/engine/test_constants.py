"""The Python model uses the engine's numbers (solver.native.constants, defined once in
src_cython/constants.pxd), and the structs that cross into the engine have exactly the
fields it needs (solver.native.structs against src_cython/context.pxd)."""

from __future__ import annotations

import hashlib
import re

import pytest
from helpers import ROOT

import solver
from solver.engine import reference
from solver.engine.seam import engine_root, engine_rules
from solver.model import cards as model_cards
from solver.model import moves as model_moves
from solver.model import pure_bits
from solver.model.cards import ACE, FULL_DECK, JACK, KING, NATURAL, QUEEN, RANKS, SEVEN, TEN, card, parse_card
from solver.model.melds import (
    ACE_OF_TRUMPS,
    BLANK_COURTS,
    BLANK_PLAIN,
    MARRIAGE,
    MELDS,
    QUARTET,
    SEQUENCE,
    game_melds,
)
from solver.model.position import Position
from solver.model.rules import GAMES, Rules
from solver.native import constants as C
from solver.native.engine import Engine, RootPosition
from solver.native.structs import EngineRules, Root
from solver.play.dealing import random_final_phase

CONTEXT_PXD = ROOT / "src_cython" / "context.pxd"
EXAMPLE = "brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35"
ALL_RULES = [
    "brisque",
    "briscan",
    "petite",
    "brisque(quartet_win=deal,objective=tricks)",
    "petite(draw=yes)",
    "briscan(one_declaration_per_turn=yes,final_declarations=no)",
]


# ----------------------------------------------------------------------------- move codes
def test_move_codes_are_the_engines():
    assert model_moves.EXCHANGE_CODE == C.MOVE_EXCHANGE == int(model_moves.EXCHANGE)
    assert model_moves.PASS_CODE == C.MOVE_PASS == int(model_moves.PASS)
    assert model_moves.DECLARE_BASE == C.DECLARE_BASE
    assert solver.EXCHANGE == C.MOVE_EXCHANGE and solver.PASS == C.MOVE_PASS
    # 0..31 are the cards, and the special codes lie outside them and the declarations
    assert all(model_moves.move(c).is_card and int(model_moves.move(c)) == c for c in range(32))
    assert 32 <= C.MOVE_EXCHANGE < C.DECLARE_BASE and 32 <= C.MOVE_PASS < C.DECLARE_BASE
    assert C.MOVE_EXCHANGE != C.MOVE_PASS
    for m in MELDS:
        d = model_moves.parse_move("+" + m.code)
        assert int(d) == C.DECLARE_BASE + m.index and d.meld == m


def test_the_engine_generates_the_model_codes():
    # b to lead in the final phase with the marriage of diamonds (trumps): cards and +mD
    p = Position(EXAMPLE)
    e = Engine(engine_rules(p.rules), 4)
    e.load(engine_root(p))
    assert set(e.root_moves()) == {int(m) for m in p.legal_moves()}
    assert C.DECLARE_BASE + MELDS.index(next(m for m in MELDS if m.code == "mD")) in e.root_moves()


# ----------------------------------------------------------------------------- melds
def _same_suit(mask: int) -> bool:
    return len({c >> 3 for c in pure_bits.cards_of(mask)}) == 1


def test_meld_table_size_and_indices():
    assert len(MELDS) == C.N_MELDS
    assert [m.index for m in MELDS] == list(range(C.N_MELDS))


def test_meld_kind_constants_are_the_engines():
    assert (MARRIAGE, QUARTET, SEQUENCE, ACE_OF_TRUMPS, BLANK_COURTS, BLANK_PLAIN) == (
        C.K_MARRIAGE,
        C.K_QUARTET,
        C.K_SEQUENCE,
        C.K_ACE_TRUMPS,
        C.K_BLANK_COURTS,
        C.K_BLANK_PLAIN,
    )
    kinds = [C.K_MARRIAGE, C.K_QUARTET, C.K_SEQUENCE, C.K_ACE_TRUMPS, C.K_BLANK_COURTS, C.K_BLANK_PLAIN]
    assert len(set(kinds)) == len(kinds)


@pytest.mark.parametrize("meld", MELDS, ids=lambda m: m.code)
def test_every_meld_has_the_engine_kind_of_its_meaning(meld):
    """The kind number of each meld is the K_* constant of what the meld is (its code and
    its cards), since the engine decides by kind alone."""
    cards = pure_bits.cards_of(meld.cards)
    if meld.code.startswith("m"):  # marriage: king and queen of one suit
        assert meld.kind == C.K_MARRIAGE
        assert sorted(cards) == sorted([card(meld.suit, QUEEN), card(meld.suit, KING)])
    elif meld.code.startswith("k"):  # four of a kind
        assert meld.kind == C.K_QUARTET
        assert cards == [card(s, meld.rank) for s in range(4)]
        assert RANKS[meld.rank] == meld.code[1]
    elif meld.code[0].isdigit():  # sequence: length, top card, suit, natural order
        assert meld.kind == C.K_SEQUENCE
        length, top = int(meld.code[0]), meld.code[1]
        assert len(cards) == length and _same_suit(meld.cards)
        naturals = sorted(NATURAL.index(RANKS[c & 7]) for c in cards)
        assert naturals == list(range(naturals[0], naturals[0] + length))
        assert NATURAL[naturals[-1]] == top
    elif meld.code == "at":
        assert meld.kind == C.K_ACE_TRUMPS and meld.cards == 0
    elif meld.code == "bc":
        assert meld.kind == C.K_BLANK_COURTS and meld.cards == 0
    elif meld.code == "bp":
        assert meld.kind == C.K_BLANK_PLAIN and meld.cards == 0
    else:  # pragma: no cover - a new meld needs its meaning checked here
        pytest.fail(f"meld {meld.code!r} of unknown meaning")


def test_engine_rules_carry_the_meld_table():
    for rules in ALL_RULES:
        r = Rules.parse(rules)
        er = engine_rules(r)
        assert er["meld_kind"] == [m.kind for m in MELDS]
        assert er["meld_cards"] == [m.cards for m in MELDS]
        assert er["meld_allowed"] == [int(m in game_melds(r.game)) for m in MELDS]
        assert len(er["meld_points"]) == 4 and all(len(row) == C.N_MELDS for row in er["meld_points"])


def test_game_numbers_are_the_engines():
    assert (GAMES.index("brisque"), GAMES.index("briscan"), GAMES.index("petite")) == (
        C.G_BRISQUE,
        C.G_BRISCAN,
        C.G_PETITE,
    )
    for g in GAMES:
        assert engine_rules(Rules.preset(g))["game"] == GAMES.index(g)


# ----------------------------------------------------------------------------- card points
def test_rank_points_are_the_engines():
    # RULES.md: A 11, 10 10, K 4, Q 3, J 2, and nothing for 9 8 7 (ranks in trick order)
    expected = {SEVEN: 0, 1: 0, 2: 0, JACK: 2, QUEEN: 3, KING: 4, TEN: 10, ACE: 11}
    assert tuple(expected[r] for r in range(8)) == C.RANK_POINTS
    assert model_cards.RANK_POINTS == C.RANK_POINTS
    assert pure_bits.RANK_POINTS == C.RANK_POINTS
    for c in range(32):
        assert pure_bits.points_of(1 << c) == C.RANK_POINTS[c & 7]
        assert solver.model.bits.points_of(1 << c) == C.RANK_POINTS[c & 7]


def test_byte_points_table_is_the_pure_points_of_every_suit_byte():
    assert len(C.BYTE_POINTS) == 256
    for b in range(256):
        for suit in range(4):
            assert C.BYTE_POINTS[b] == pure_bits.points_of(b << (8 * suit)), (b, suit)


def test_pack_points():
    assert pure_bits.points_of(FULL_DECK) == C.PACK_POINTS == 120
    assert sum(C.RANK_POINTS) * 4 == C.PACK_POINTS
    assert solver.model.bits.points_of(FULL_DECK) == C.PACK_POINTS


# ----------------------------------------------------------------------------- win values
def _margin_bound() -> int:
    """More than any deal can score: every card point, the last trick, every meld of the
    pack (each exists once, carte blanche once per seat) and every bonus (five trumps,
    final tricks, nine tricks)."""
    blanks = [m for m in MELDS if m.kind in (BLANK_COURTS, BLANK_PLAIN)]
    melds = max(
        sum(m.points(t, "briscan") for m in MELDS) + sum(m.points(t) for m in blanks) for t in range(4)
    )
    return C.PACK_POINTS + 10 + melds + 2 * 30 + 20 + 2 * 10


def test_win_values():
    bound = _margin_bound()
    assert bound < C.WIN_VALUE < C.WIN_THRESHOLD < C.WIN_RAW
    assert C.WIN_RAW - bound > C.WIN_THRESHOLD  # a raw win stays a win
    assert solver.WIN_VALUE == C.WIN_VALUE
    # the search's scale is the engine's own: the reference solver does not redefine it
    assert not hasattr(reference, "WIN_RAW") and not hasattr(reference, "WIN_THRESHOLD")


def test_a_game_won_is_reported_as_win_value():
    # a stacked four kings or queens on lead in Brisque: declared at once, the game is won
    for seed in range(20):
        p = random_final_phase(seed, "brisque", cards=4, stack="quartet")
        if any(m.is_declaration and m.meld.kind == C.K_QUARTET for m in p.legal_moves()):
            break
    else:  # pragma: no cover
        pytest.fail("no position with a quartet to declare")
    assert solver.solve(p).value == C.WIN_VALUE, p.bpn()


# ----------------------------------------------------------------------------- structs
def _struct_fields(name: str) -> list[str]:
    """The field names of ``ctypedef struct name`` in src_cython/context.pxd."""
    text = CONTEXT_PXD.read_text(encoding="utf-8")
    block = re.search(rf"^ctypedef struct {name}:\n((?:[ \t]+.*\n|\n)+)", text, re.M)
    assert block, f"no struct {name} in {CONTEXT_PXD}"
    fields = []
    for line in block.group(1).splitlines():
        code = line.split("#")[0].strip()
        if code:
            fields.append(re.match(r".*?(\w+)\s*(\[.*\])?$", code).group(1))
    return fields


@pytest.mark.skipif(not CONTEXT_PXD.exists(), reason="no Cython sources next to the tests")
@pytest.mark.parametrize("typed, name", [(EngineRules, "EngineRules"), (Root, "Root")])
def test_typed_dicts_list_the_c_structs_fields(typed, name):
    assert list(typed.__annotations__) == _struct_fields(name)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_engine_rules_and_root_have_exactly_the_typed_dicts_fields(rules):
    r = Rules.parse(rules)
    assert set(engine_rules(r)) == set(EngineRules.__annotations__)
    p = random_final_phase(3, r)
    assert set(engine_root(p).to_dict()) == set(Root.__annotations__)
    e = Engine(engine_rules(r), 4)  # the full structs are accepted
    e.load(engine_root(p))
    after = e.after(e.root_moves()[0])
    assert set(after) == set(Root.__annotations__) | {"gain", "ended", "win"}


@pytest.mark.parametrize("field", list(EngineRules.__annotations__))
def test_every_engine_rules_field_is_needed(field):
    er = dict(engine_rules(Rules.parse("briscan")))
    del er[field]
    with pytest.raises(ValueError, match=f"No value specified for struct attribute '{field}'"):
        Engine(er, 4)


ROOT_ATTRIBUTES = (
    "hands",
    "out",
    "turnup",
    "trump",
    "talon",
    "trick",
    "turn",
    "tricks",
    "final",
    "melds",
    "exchanged",
    "taken",
    "declared",
)
# RootPosition takes the same fields as keywords, the one hand to move as ``hand``
ROOT_ARGUMENTS = ("hand", *ROOT_ATTRIBUTES[1:])


def root_arguments(p: Position) -> dict:
    """RootPosition's keyword arguments for ``p``, one per field (as engine_root passes them)."""
    return {
        name: (getattr(p, attr) or [] if name == "talon" else getattr(p, attr))
        for name, attr in zip(ROOT_ARGUMENTS, ROOT_ATTRIBUTES)
    }


@pytest.mark.parametrize("field", ROOT_ARGUMENTS)
def test_every_root_field_is_needed(field):
    p = Position(EXAMPLE)
    args = root_arguments(p)
    RootPosition(**args)
    del args[field]
    with pytest.raises(TypeError, match=field):
        RootPosition(**args)


def test_a_root_refuses_what_the_struct_cannot_hold():
    p = Position(EXAMPLE)
    args = root_arguments(p)
    for bad, message in (
        (dict(talon=list(range(33))), "at most 32"),
        (dict(trump=4), "trump=4"),
        (dict(melds=[[72], []]), "meld 72"),
        (dict(out=-1), "negative"),
    ):
        with pytest.raises((ValueError, OverflowError), match=message):
            RootPosition(**{**args, **bad})


def test_a_root_survives_pickling():
    import pickle

    p = Position("briscan .AKQJ.KQ./AT..AT.K D 0 - - a 60:40 tricks=6:5 final=1:1 melds=3KH/mD")
    root = engine_root(p)
    assert pickle.loads(pickle.dumps(root)).to_dict() == root.to_dict()


def test_the_network_input_layout_is_the_engines():
    # features.py names the blocks of inputs with the engine's offsets and sizes: they must
    # follow one another from 0 and fill NET_INPUTS, each of the size its meaning needs
    from solver.engine.evaluation import features

    offset = 0
    for block in features.LAYOUT:
        assert block.offset == offset, block.name
        offset += block.size
    assert offset == C.NET_INPUTS
    sizes = {b.name: b.size for b in features.LAYOUT}
    assert sizes["places"] == (features.TURNUP + 1) * 32  # (seven places of the 32 cards)
    assert sizes["melds_me"] == sizes["melds_opp"] == len(MELDS) == C.N_MELDS
    assert sizes["tricks_me"] == sizes["tricks_opp"] == 16 + 1  # (0 to 16 tricks taken)
    assert sizes["level"] == C.NET_LEVELS and sizes["exchange"] == 1
    assert len(features.OUTPUTS) == C.NET_OUTPUTS and features.HIDDEN == (C.NET_H1, C.NET_H2)
    # the fingerprint is of this layout: another size or meaning is another fingerprint
    assert features.FINGERPRINT == hashlib.sha256(features.layout_description().encode()).hexdigest()[:16]
    assert str(C.NET_INPUTS) in features.layout_description()


def test_card_parsing_matches_the_engine_layout():
    # card = suit * 8 + rank, suits S H D C, ranks in trick order: the engine's masks
    assert parse_card("7S") == 0 and parse_card("AS") == 7 and parse_card("7H") == 8
    assert parse_card("AC") == 31 and RANKS == "789JQKTA"
