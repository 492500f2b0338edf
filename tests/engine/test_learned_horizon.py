"""The learned horizon evaluation: the compiled encoder and network against their plain
Python twin (solver.engine.evaluation), on thousands of seeded positions of both games, and
the network files with the fingerprint of their input layout."""

from __future__ import annotations

import json
import random
import re

import pytest

from solver.engine import Solver
from solver.engine.evaluation import (
    FINGERPRINT,
    Network,
    canonical_melds,
    load_network,
    network_inputs,
    network_text,
    parse_network,
    read_network,
    shipped_network_path,
    write_network,
)
from solver.errors import ArgumentError, BrisqueError, NetworkFileError
from solver.model.melds import MELD_BY_CODE
from solver.model.position import Position
from solver.model.rules import Rules
from solver.native.constants import N_MELDS, NET_H1, NET_H2, NET_INPUTS, NET_LEVEL, NET_LEVELS
from solver.play.dealing import random_position


def turn_starts(game: str, count: int, first_seed: int = 0) -> list[Position]:
    """Seeded positions at the start of a talon-phase trick (every level, melds and
    exchanges as random play made them)."""
    rules = Rules.parse(game)
    rng = random.Random(first_seed)
    out, seed = [], first_seed
    while len(out) < count:
        p = random_position(seed, rules, rng.randint(2, rules.talon_tricks))
        seed += 1
        if not p.is_over() and p.trick < 0 and not p.in_window and p.turnup >= 0:
            out.append(p)
    return out


def random_network(seed: int, h1: int = NET_H1, h2: int = NET_H2) -> Network:
    """A network of seeded random weights (not the shipped one: the twins must agree on any)."""
    rng = random.Random(seed)

    def rows(n: int, m: int, scale: float) -> list[list[float]]:
        return [[rng.gauss(0.0, scale) for _ in range(m)] for _ in range(n)]

    return Network.from_dict(
        {
            "key": "test",
            "w1": rows(NET_INPUTS, h1, 0.3),
            "b1": [rng.gauss(0.0, 0.1) for _ in range(h1)],
            "w2": rows(h1, h2, 0.4),
            "b2": [rng.gauss(0.0, 0.1) for _ in range(h2)],
            "w3": rows(h2, 3, 5.0),
            "b3": [rng.gauss(0.0, 1.0) for _ in range(3)],
        }
    )


def melds_table() -> list[list[int]]:
    return [list(canonical_melds(t)) for t in range(4)]


@pytest.mark.parametrize("game", ["brisque", "briscan"])
def test_the_compiled_network_gives_its_twins_numbers(game):
    net = random_network(7)
    solver = Solver(Rules.parse(game))
    solver.engine.set_network(net, melds_table(), win_points=0.0)
    positions = turn_starts(game, 1500)
    assert sum(1 for p in positions if p.melds[0] or p.melds[1]) > 50  # melds are covered
    assert sum(1 for p in positions if p.exchanged >= 0) > 20  # so are exchanges made
    for p in positions:
        solver.load(p)
        on = network_inputs(p)
        assert solver.engine.network_inputs() == on, p.bpn()
        assert solver.engine.network_outputs() == net.outputs(on), p.bpn()


def test_the_inputs_say_where_each_card_lies():
    p = Position("brisque AJ.KQ..A8/T87.87..Q JC 7C KQ9.ATJ9.ATKQJ987.TK9 - b 53:21 tricks=7:2")
    # b is to move; clubs are trump (suit 0 once renumbered), spades the suit after it (1)
    on = network_inputs(p)
    assert 0 * 32 + 1 * 8 + 6 in on  # b holds the ten of spades
    assert 1 * 32 + 1 * 8 + 7 in on  # a holds the ace of spades
    assert 2 * 32 + 0 in on and 6 * 32 + 3 in on  # the 7 of trumps drawn next, the jack turned up
    assert len([i for i in on if i < 7 * 32]) == 14


def test_a_suit_renumbered_meld_is_the_same_meld():
    hearts_trump = canonical_melds(1)
    assert hearts_trump[MELD_BY_CODE["mH"].index] == MELD_BY_CODE["mS"].index
    assert hearts_trump[MELD_BY_CODE["3AS"].index] == MELD_BY_CODE["3AC"].index
    assert hearts_trump[MELD_BY_CODE["kK"].index] == MELD_BY_CODE["kK"].index


def test_the_horizon_scores_with_the_network():
    # a depth-0 search at a turn's start is the horizon value itself
    net = random_network(3)
    solver = Solver(Rules.parse("brisque"))
    solver.engine.set_network(net, melds_table(), win_points=40.0)
    for p in turn_starts("brisque", 40, first_seed=500):
        solver.load(p)
        solver.engine.clear()
        solver.engine.set_limits(depth=0)
        margin, win, loss = net.evaluate(p)
        v = margin + 40.0 * (win - loss)
        assert solver.engine.value(-(10**6) + 1, 10**6 - 1) == (int(v + 0.5) if v >= 0 else -int(0.5 - v))
        solver.engine.clear_limits()


def test_a_misshapen_network_is_refused():
    solver = Solver(Rules.parse("brisque"), horizon="linear")
    net = random_network(1)
    with pytest.raises(ArgumentError, match="rows"):
        solver.engine.set_network({**net.__dict__, "w1": net.w1[:-1]}, melds_table())
    with pytest.raises(ArgumentError, match="meld indices"):
        solver.engine.set_network(net, [[0] * (N_MELDS - 1)] * 4)
    solver.load(turn_starts("brisque", 1)[0])
    with pytest.raises(ArgumentError, match="none is set"):
        solver.engine.network_outputs()


@pytest.mark.parametrize("game", ["brisque", "briscan"])
def test_the_shipped_network_matches_its_twin(game):
    net = load_network(game)
    if net is None:
        pytest.skip(f"no network shipped for {game}")
    solver = Solver(Rules.parse(game))
    solver.engine.set_network(net, melds_table())
    for p in turn_starts(game, 300, first_seed=9000):
        solver.load(p)
        assert solver.engine.network_outputs() == net.outputs(network_inputs(p))


@pytest.mark.parametrize("game", ["brisque", "briscan"])
def test_the_shipped_network_names_the_levels_of_its_labels(game):
    """A level input that no label turned on keeps its random start (or, trained with
    ``train.py --tie``, the nearest labelled level's weights): the file says which levels
    were learnt, the talon tricks left of the exact labels."""
    rules = Rules.parse(game)
    net = load_network(rules)
    if net is None:
        pytest.skip(f"no network shipped for {game}")
    assert net.levels == ((1, 2, 3, 4, 5) if game == "brisque" else (1, 2, 3, 4))
    assert len({net.w1[NET_LEVEL + k] for k in range(NET_LEVELS)}) == NET_LEVELS  # (no row copied)


def test_the_weights_file_keeps_every_weight_exactly(tmp_path):
    net = random_network(5)
    assert parse_network(network_text(net)) == net
    labelled = Network.from_dict({**net.__dict__, "levels": [1, 2, 5]})
    write_network(tmp_path / "nets" / "labelled.json", labelled)
    assert read_network(tmp_path / "nets" / "labelled.json").levels == (1, 2, 5)
    with pytest.raises(NetworkFileError, match="w1 (holds|is not base64)"):
        parse_network(network_text(net).replace('"w1": "', '"w1": "AAAA'))


def test_a_network_file_carries_the_fingerprint_of_its_input_layout():
    head = json.loads(network_text(random_network(2)))
    assert head["features"] == FINGERPRINT and len(FINGERPRINT) == 16
    int(FINGERPRINT, 16)  # (hex digits)


def test_a_network_of_another_input_layout_is_refused_with_both_fingerprints(tmp_path):
    text = network_text(random_network(4))
    other = tmp_path / "other-layout.json"
    other.write_text(text.replace(FINGERPRINT, "0123456789abcdef"))
    with pytest.raises(NetworkFileError) as caught:
        read_network(other)
    message = str(caught.value)
    assert str(other) in message and "0123456789abcdef" in message and FINGERPRINT in message
    assert isinstance(caught.value, BrisqueError) and isinstance(caught.value, ValueError)
    # a file of no fingerprint (written before the layout had one) is refused alike
    bare = json.loads(text)
    del bare["features"]
    old = tmp_path / "no-fingerprint.json"
    old.write_text(json.dumps(bare))
    with pytest.raises(NetworkFileError, match=f"{re.escape(str(old))}: .*no fingerprint.*{FINGERPRINT}"):
        read_network(old)


def test_a_file_that_is_no_network_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"key": "x"}')
    with pytest.raises(NetworkFileError, match="not a network file"):
        read_network(bad)
    bad.write_text("{")
    with pytest.raises(NetworkFileError, match="not a network file"):
        read_network(bad)


@pytest.mark.parametrize("game", ["brisque", "briscan"])
def test_the_shipped_networks_carry_the_engines_fingerprint(game):
    path = shipped_network_path(game)
    assert path.is_file() and path.name == f"{game}-margin.json"
    assert json.loads(path.read_text())["features"] == FINGERPRINT
    assert load_network(game) == read_network(path)
    # the file is what the format writes: nothing in it but the network and its layout
    assert network_text(read_network(path)) == path.read_text()


def test_a_world_search_names_the_horizon_it_scores_with():
    from solver.engine.evaluation import DEFAULT_HORIZON
    from solver.engine.quick import WorldSearch, exact_late_limit

    p = turn_starts("brisque", 1, first_seed=77)[0]
    assert WorldSearch.parse("learned:3").horizon(p.rules) == "learned"
    assert WorldSearch.parse("linear").horizon(p.rules) == "linear"
    assert WorldSearch.parse("depth:2").horizon(p.rules) == DEFAULT_HORIZON == "linear"
    # the quick search: the learned network where one is shipped (proven at equal time)
    assert WorldSearch.parse("quick").horizon(p.rules) == "learned"
    petite = Rules.parse("petite(draw=yes)")
    assert WorldSearch.parse("quick").horizon(petite) == "linear"  # (no network for Petite)
    # learned and linear without a depth are the search of a game without a network
    assert (
        WorldSearch.parse("learned").limit(p) == WorldSearch.parse("linear").limit(p) == exact_late_limit(p)
    )
    assert WorldSearch.parse("quick").limit(p) == WorldSearch.parse("learned:3").limit(p)


def test_a_network_file_that_cannot_be_read_is_a_network_file_error(tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(NetworkFileError, match=r"cannot read the network file '.*missing\.json'"):
        read_network(missing)
    (tmp_path / "bytes.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(NetworkFileError, match="cannot read the network file"):
        read_network(tmp_path / "bytes.json")
