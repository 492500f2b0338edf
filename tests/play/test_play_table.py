"""A game at the table against the engine: what the person sees, hidden cards kept hidden,
moves, the seats' alternation over a whole game, resuming from the kept form, records."""

from __future__ import annotations

import json
import re

import pytest
from helpers import allowed_cards

from solver.errors import ArgumentError, IllegalMoveError, RecordError
from solver.formats.records import DealRecord
from solver.model.cards import card_str
from solver.model.moves import parse_move
from solver.model.position import Position
from solver.play.table import Table, move_label, pretty_card

CARD = re.compile(r"\b[789TJQKA][SHDC]\b")


def play_out(t: Table, choose=lambda v: v["legal"][0]["move"], check=None) -> int:
    """Play the table's deal to its end; returns the number of moves."""
    n = 0
    while True:
        v = t.view()
        if check is not None:
            check(t, v)
        if v["over"]:
            return n
        if v["turn"] == "you":
            legal = [m["move"] for m in v["legal"]]
            move = choose(v)
            assert move in legal
            t.play(move)
        else:
            assert v["legal"] == []
            t.engine_play(t.engine_choose())
        n += 1


def no_hidden_card(t: Table, v: dict) -> None:
    seen = set(CARD.findall(json.dumps(v)))
    hidden = seen - allowed_cards(t)
    assert not hidden, f"the view shows {hidden}, which the person may not see"
    p = t.position()
    if not v["over"]:
        assert v["engine_cards"] == bin(p.hands[1 - t.person_seat()]).count("1")


@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
@pytest.mark.parametrize("seat", ["a", "b"])
def test_a_whole_deal_shows_no_hidden_card(game: str, seat: str) -> None:
    # (a seed whose deals are all played out: with seed 5 the engine shows four of a kind in
    # Brisque's second trick, which ends the game at once)
    t = Table.new(game, seat=seat, level=1, seed=6)
    n = play_out(t, choose=lambda v: v["legal"][-1]["move"], check=no_hidden_card)
    v = t.view()
    tricks = 5 if game == "petite" else 16
    assert n >= 2 * tricks and len(v["played"]) == tricks
    assert v["over"] and v["game_over"] and v["result"]["winner"] in ("you", "engine", None)


def test_the_view_of_the_first_move() -> None:
    t = Table.new("brisque", seat="a", level=1, seed=3)
    v = t.view()
    p = t.position()
    assert v["you"] == "a" and v["turn"] == "you"
    assert sorted(v["hand"]) == sorted(card_str(c) for c in range(32) if p.hands[0] >> c & 1)
    assert v["turnup"] == card_str(p.turnup) and v["trump"] == "SHDC"[p.trump]
    assert v["talon"] == 19 and v["engine_cards"] == 6 and v["engine_shown"] == []
    assert {m["move"] for m in v["legal"]} == {str(m) for m in p.legal_moves()}
    assert {m["kind"] for m in v["legal"]} <= {"card", "exchange"}


def test_the_same_seed_and_level_give_the_same_play() -> None:
    a = Table.new("briscan", seat="b", level=2, seed=21)
    b = Table.new("briscan", seat="b", level=2, seed=21)
    play_out(a)
    play_out(b)
    assert a.deals == b.deals
    c = Table.new("briscan", seat="b", level=2, seed=22)
    assert c.start(0).bpn() != a.start(0).bpn()


def test_a_table_resumes_from_its_kept_form_in_mid_deal() -> None:
    t = Table.new("brisque", seat="a", level=1, seed=9)
    for _ in range(9):
        v = t.view()
        if v["turn"] == "you":
            t.play(v["legal"][0]["move"])
        else:
            t.engine_play(t.engine_choose())
    kept = json.loads(t.to_json())
    again = Table.from_dict(kept)
    assert again.view() == t.view() and again.deals == t.deals
    assert again.engine_choose() == t.engine_choose() if not t.persons_turn() else True


def test_take_back_and_play_on() -> None:
    t = Table.new("brisque", seat="a", level=1, seed=4)
    play_out(t)
    bpn_after_3 = Position(t.start(0).bpn())
    for m in t.deals[0][:3]:
        bpn_after_3.push(m)
    t.take_back(3)
    assert t.position().bpn() == bpn_after_3.bpn()
    assert not t.view()["over"]
    with pytest.raises(ArgumentError, match="moves_kept=99"):
        t.take_back(99)
    # a take-back is counted (the result says it was played with take-backs) and kept
    t.take_back(3)  # (nothing undone: not counted)
    assert t.view()["take_backs"] == 1
    assert Table.from_dict(json.loads(t.to_json())).take_backs == 1
    with pytest.raises(RecordError, match="take_backs=-1"):
        Table.from_dict({**t.to_dict(), "take_backs": -1})


def test_a_whole_game_alternates_the_seats_and_adds_the_totals() -> None:
    t = Table.new("petite", seat="a", level=1, seed=2, whole_game=True)
    play_out(t)
    first = t.view()
    assert first["over"] and first["you"] == "a"
    if first["game_over"]:
        pytest.skip("the first deal ended the game")
    with pytest.raises(IllegalMoveError, match="over"):
        t.play("AS")
    t.next_deal()
    v = t.view()
    assert v["you"] == "b" and v["deal"] == 2
    won = first["result"]["winner"]
    assert v["totals"][won] == 1 if won else sum(v["totals"].values()) == 0
    assert t.start(1).game == t.totals(1)


def test_a_whole_game_ends_at_the_target() -> None:
    t = Table.new("petite", seat="b", level=1, seed=8, whole_game=True)
    for _ in range(12):
        play_out(t)
        if t.game_over():
            break
        with pytest.raises(IllegalMoveError, match="not over"):
            Table.from_dict({**t.to_dict(), "deals": [*t.to_dict()["deals"], []]}).next_deal()
        t.next_deal()
    assert t.game_over()
    totals = t.totals()
    assert max(totals) >= t.rules.target
    winner = t.view()["game_winner"]
    assert winner == ("you" if totals[t.person_seat()] > totals[1 - t.person_seat()] else "engine")
    with pytest.raises(IllegalMoveError, match="game is over"):
        t.next_deal()


def test_records_replay_and_name_the_players_by_seat() -> None:
    t = Table.new("brisque", seat="b", level=1, seed=6)
    assert t.records() == []
    play_out(t)
    (rec,) = t.records()
    again = DealRecord.from_json(rec.to_json())
    assert again.final().is_over()
    assert again.players == ("humanlike:6:0.1", "you")
    assert again.final().bpn() == t.position().bpn()
    assert not again.whole_game  # (one deal: graded by the chance of winning the deal)
    whole = Table.new("brisque", seat="b", level=1, seed=6, whole_game=True)
    play_out(whole)
    assert DealRecord.from_json(whole.records()[0].to_json()).whole_game


def test_move_labels_read_with_suit_symbols_and_points() -> None:
    assert pretty_card(7) == "A♠" and pretty_card(21) == "K♦" and pretty_card(14) == "10♥"
    p = Position("brisque AK9.97..9/7..KQ9.A7 D 0 TQJ8.ATKQJ8.ATJ87.TKQJ8 - b 52:35")
    label = move_label(p, parse_move("+mD"))
    assert label == {
        "move": "+mD",
        "kind": "declare",
        "label": "Declare the marriage in trumps: K♦ Q♦",
        "points": 40,
    }
    assert move_label(p, parse_move("9D"))["label"] == "9♦"


def test_the_exchange_is_a_button_with_its_points() -> None:
    for seed in range(200):
        t = Table.new("brisque", seat="a", level=1, seed=seed)
        found = None
        while not t.view()["over"] and found is None:
            v = t.view()
            if v["turn"] == "you":
                found = next((m for m in v["legal"] if m["kind"] == "exchange"), None)
                t.play(v["legal"][0]["move"])
            else:
                t.engine_play(t.engine_choose())
        if found:
            assert found["label"].startswith("Exchange the 7") and found["points"] == 0
            return
    pytest.fail("no exchange was offered in 200 deals")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"game": "skat"}, "game='skat'"),
        ({"seat": "c"}, "seat='c'"),
        ({"level": 9}, "level=9"),
        ({"level": "x"}, "level='x'"),
        ({"seed": -1}, "seed=-1"),
        ({"seed": 2**70}, "seed="),
    ],
)
def test_bad_settings_are_clear_errors(kwargs: dict, match: str) -> None:
    with pytest.raises(ArgumentError, match=re.escape(match)):
        Table.new(**kwargs)


def test_moves_out_of_turn_or_illegal_are_refused() -> None:
    t = Table.new("brisque", seat="b", level=1, seed=1)
    with pytest.raises(IllegalMoveError, match="engine's turn"):
        t.play("AS")
    t.engine_play(t.engine_choose())
    with pytest.raises(IllegalMoveError, match="not legal here"):
        t.play("+kK")
    with pytest.raises(IllegalMoveError, match="not the engine's turn"):
        t.engine_choose()


@pytest.mark.parametrize(
    "kept",
    [
        "not an object",
        {"game": "brisque"},
        {"game": "brisque", "seat": "a", "level": 1, "seed": 1, "deals": [["ZZ"]]},
        {"game": "brisque", "seat": "a", "level": 1, "seed": 1, "deals": [["AS", "AS"]]},
        {"game": "brisque", "seat": "a", "level": 1, "seed": 1, "deals": []},
        {"game": "brisque", "seat": "a", "level": 7, "seed": 1, "deals": [[]]},
    ],
)
def test_a_corrupt_kept_table_is_a_record_error(kept: object) -> None:
    with pytest.raises(RecordError, match="table"):
        Table.from_dict(kept)


def test_declared_melds_are_listed_with_their_names_and_points() -> None:
    for seed in range(100):
        t = Table.new("briscan", seat="a", level=1, seed=seed)

        def declare_first(v: dict) -> str:
            return next((m["move"] for m in v["legal"] if m["kind"] == "declare"), v["legal"][0]["move"])

        play_out(t, choose=declare_first)
        mine = t.view()["melds"]["you"]
        if mine:
            p = t.position()
            for m in mine:
                label = move_label(p, parse_move(m["move"]))
                assert m == {
                    "move": label["move"],
                    "label": label["label"].removeprefix("Declare "),
                    "points": label["points"],
                }
                assert m["points"] > 0 and not m["label"].startswith("Declare")
            return
    pytest.fail("no declaration in 100 deals")


def test_the_seed_is_shown_only_once_the_game_is_over() -> None:
    t = Table.new("petite", seat="a", level=1, seed=77, whole_game=True)
    seen: list[object] = []
    while True:
        seen.clear()
        play_out(t, check=lambda tt, v: seen.append(v["seed"]))
        if t.game_over():
            break
        assert set(seen) == {None}  # (the seed would deal the next deals too)
        t.next_deal()
    assert t.view()["seed"] == 77


def test_the_totals_at_the_end_of_a_deal_count_it() -> None:
    t = Table.new("petite", seat="a", level=1, seed=3, whole_game=True)
    play_out(t)
    v = t.view()
    won = v["result"]["winner"]
    assert v["totals"] == {"you": int(won == "you"), "engine": int(won == "engine")}


def test_a_long_whole_game_is_viewed_without_replaying_every_deal_again() -> None:
    t = Table.new("petite", seat="a", level=1, seed=5, whole_game=True)
    t.rules = t.rules.__class__.parse("petite(target=12)")  # (a longer match: more deals)
    deals = 0
    while not t.game_over() and deals < 14:
        play_out(t)
        deals += 1
        if not t.game_over():
            t.next_deal()
    calls = 0
    from solver.play import table as module

    real = module.deal

    def counting(*args, **kwargs):
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)

    module.deal = counting
    try:
        again = Table.from_dict(t.to_dict())
        again.view()
    finally:
        module.deal = real
    assert deals >= 10
    assert calls == len(again.deals)  # (each deal dealt once)
