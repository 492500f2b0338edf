"""One test (at least) per rules option, showing its effect."""

import pytest
from helpers import card_names, make, names, play_random

from solver import EXCHANGE, PASS, WIN_VALUE, Position, Rules
from solver.model.bits import points_of
from solver.model.rules import OPTIONS
from solver.play.dealing import play_match
from solver.play.players import GreedyPlayer, RandomPlayer


def test_every_option_is_covered_here():
    tested = {
        "target",
        "exchange",
        "exchange_points",
        "quartet_win",
        "final_declarations",
        "one_declaration_per_turn",
        "final_follow",
        "declare",
        "draw",
        "next_dealer",
        "objective",
    }
    assert {o.name for o in OPTIONS} == tested


def with_rules(bpn: str, rules: str) -> Position:
    """The same position under other rules (the rules field replaced)."""
    return Position(rules + bpn[bpn.index(" ") :])


# Brisque, trick 3, spades trumps (turnup TS), a to lead holding the 7S and two marriages.
TALON_PHASE = make("brisque", "KQ7.KQ.A.", "9.7.K9.K9", "TS", talon=15, turn="a")


def test_talon_phase_fixture_is_valid():
    p = Position(TALON_PHASE)
    assert p.problems() == [] and p.trick_number == 3


# ---------------------------------------------------------------- target
def _running_totals(result):
    """Game totals per player after each deal of a MatchResult."""
    totals, out = [0, 0], []
    for record, at_a in zip(result.deals, result.seats):
        o = record.final().outcome()
        players = (at_a, 1 - at_a)
        if record.final().rules.game == "petite":
            if o.winner is not None:
                totals[players[o.winner]] += 1
        else:
            for s in (0, 1):
                totals[players[s]] += o.score[s]
        out.append(totals[:])
    return out


@pytest.mark.parametrize(
    "rules, target",
    [
        ("brisque(target=100)", 100),
        ("brisque", 500),
        ("briscan(target=150)", 150),
        ("petite", 3),
        ("petite(target=1)", 1),
    ],
)
@pytest.mark.parametrize("seed", [0, 2, 5])
def test_target_decides_when_the_match_ends(rules, target, seed):
    result = play_match([GreedyPlayer(), RandomPlayer(seed)], seed=seed, rules=rules)
    assert Rules.parse(rules).target == target
    running = _running_totals(result)
    assert running[-1] == result.totals
    if result.by_event:
        return
    for totals in running[:-1]:  # nobody had won yet
        assert max(totals) < target or totals[0] == totals[1]
    assert max(result.totals) >= target
    assert result.totals[result.winner] == max(result.totals) > min(result.totals)


def test_lower_target_ends_the_match_sooner():
    players = [GreedyPlayer(), GreedyPlayer()]
    short = play_match(players, seed=0, rules="brisque(target=100)")
    full = play_match(players, seed=0, rules="brisque")
    assert not short.by_event and not full.by_event
    assert len(short.deals) < len(full.deals)
    assert short.deals[0].start.split()[1:] == full.deals[0].start.split()[1:]  # same first deal


# ---------------------------------------------------------------- exchange
def test_exchange_no_removes_x():
    p = Position(TALON_PHASE)
    assert EXCHANGE in p.legal_moves()
    q = with_rules(TALON_PHASE, "brisque(exchange=no)")
    assert q.problems() == []
    assert EXCHANGE not in q.legal_moves()
    assert card_names(m for m in q.legal_moves() if m.is_card) == names(q.hands[0])


def test_exchange_no_skips_the_last_pickup_window():
    bpn = make("brisque", "Q.KQ.A.A", "9.7.K9.K9", "KS", talon="7S", trick="AH", turn="b")
    p = Position(bpn)
    p.push("7H")
    assert p.in_window and p.legal_moves() == [EXCHANGE, PASS]
    q = with_rules(bpn, "brisque(exchange=no)")
    q.push("7H")
    assert not q.in_window and q.turnup == -1
    assert "KS" in names(q.hands[1]) and "7S" in names(q.hands[0])


# ---------------------------------------------------------------- exchange_points
@pytest.mark.parametrize(
    "rules, points", [("brisque", 0), ("brisque(exchange_points=10)", 10), ("brisque(exchange_points=7)", 7)]
)
def test_exchange_points_are_scored(rules, points):
    p = with_rules(TALON_PHASE, rules)
    before = p.score[:]
    p.push("x")
    assert p.score == [before[0] + points, before[1]]
    assert p.exchanged == 0 and p.problems() == []
    assert Position(p.bpn()).problems() == []


# ---------------------------------------------------------------- quartet_win
FOUR_KINGS = make("brisque", "AK.K.K.K9", "QJ.Q.Q9.Q", "TS", talon=15, turn="a")


def test_quartet_win_game_wins_the_game():
    p = Position(FOUR_KINGS)
    assert p.problems() == []
    assert "+kK" in card_names(p.legal_moves())
    p.push("+kK")
    assert p.is_over() and p.legal_moves() == []
    assert p.outcome().win == 0 and p.outcome().winner == 0
    assert p.value() == WIN_VALUE and p.value("b") == -WIN_VALUE
    assert p.problems() == []


def test_quartet_win_deal_credits_the_remaining_points():
    p = with_rules(FOUR_KINGS, "brisque(quartet_win=deal)")
    before = p.score[:]
    remaining = 120 - points_of(p.out)
    p.push("+kK")
    assert p.is_over() and p.legal_moves() == []
    assert p.outcome().win is None and p.win == -1
    assert p.score == [before[0] + remaining + 10, before[1]]
    assert not p.value().is_game_win
    assert p.value() == p.score[0] - p.score[1]
    assert p.problems() == []
    assert Position(p.bpn()).bpn() == p.bpn() and Position(p.bpn()).is_over()


# ---------------------------------------------------------------- final_declarations
@pytest.mark.parametrize(
    "rules, allowed",
    [("brisque", True), ("brisque(final_declarations=no)", False), ("briscan(final_declarations=no)", False)],
)
def test_final_declarations(rules, allowed):
    game = rules.split("(")[0]
    p = Position(
        make(rules, "KQ.9..8", "A.7.9.9", "D", turn="a")
        if game == "brisque"
        else make(rules, "KQ.9..", "A.7.9.", "D", turn="a")
    )
    assert p.problems() == [] and p.in_final_phase
    assert ("+mS" in card_names(p.legal_moves())) is allowed


def test_final_declarations_no_still_allows_the_talon_phase():
    p = with_rules(TALON_PHASE, "brisque(final_declarations=no)")
    assert {"+mS", "+mH"} <= card_names(p.legal_moves())


# ---------------------------------------------------------------- one_declaration_per_turn
def test_several_declarations_per_turn_by_default():
    p = Position(TALON_PHASE)
    p.push("+mS")
    assert "+mH" in card_names(p.legal_moves())
    p.push("+mH")
    assert p.score[0] == Position(TALON_PHASE).score[0] + 40 + 20
    assert p.problems() == []


def test_one_declaration_per_turn():
    p = with_rules(TALON_PHASE, "brisque(one_declaration_per_turn=yes)")
    assert {"+mS", "+mH"} <= card_names(p.legal_moves())
    p.push("+mS")
    assert not any(m.is_declaration for m in p.legal_moves())
    assert "declared=1" in p.bpn().split()
    again = Position(p.bpn())  # the BPN carries the count
    assert not any(m.is_declaration for m in again.legal_moves())
    # the next turn on lead may declare again
    p.push("AD")
    p.push("9D")  # b follows low, a wins and leads again
    assert p.turn == 0 and "+mH" in card_names(p.legal_moves())


# ---------------------------------------------------------------- final_follow
@pytest.mark.parametrize("game", ["brisque", "briscan"])
def test_final_follow(game):
    """b leads the 9 of spades in the final phase; a holds the 10 and the 7 of spades."""
    hand_a, hand_b = ("T7.A.9.9", ".7.KQ.8") if game == "brisque" else ("T7.A.9.", ".7.K.8")
    head = Position(make(game, hand_a, hand_b, "D", trick="9S", turn="a"))
    follow = with_rules(head.bpn(), f"{game}(final_follow=follow)")
    assert head.problems() == [] and follow.problems() == []
    assert card_names(head.legal_moves()) == {"TS"}  # he must head the trick
    assert card_names(follow.legal_moves()) == {"TS", "7S"}  # he need only follow suit
    # not in the talon phase, where any card may be played under either rule
    talon = with_rules(TALON_PHASE, "brisque(final_follow=follow)")
    assert card_names(talon.legal_moves()) == card_names(Position(TALON_PHASE).legal_moves())


# ---------------------------------------------------------------- declare
def _drawn_marriage(game: str) -> Position:
    """A position under declare=before_draw whose player on lead has just drawn the card that
    completes a marriage (found by seeded random play)."""
    import random

    from solver.play.dealing import deal

    for seed in range(2000):
        p = deal(seed, f"{game}(declare=before_draw)")
        rng = random.Random(seed)
        while not p.is_over():
            if p.trick < 0 and p.drawn and p.drawn >> 29 & 0x01010101 | p.drawn >> 28 & 0x01010101:
                after = with_rules(p.bpn().split(" drawn=")[0], game)
                blocked = card_names(after.legal_moves()) - card_names(p.legal_moves())
                if any(m.startswith("+m") for m in blocked):
                    return p
            p.push(rng.choice(p.legal_moves()))
    raise AssertionError("no such position in 2000 deals")


@pytest.mark.parametrize("game", ["brisque", "briscan"])
def test_declare_before_draw(game):
    p = _drawn_marriage(game)
    after = with_rules(p.bpn().split(" drawn=")[0], game)
    blocked = sorted(
        m for m in card_names(after.legal_moves()) - card_names(p.legal_moves()) if m.startswith("+m")
    )
    # the drawn card is in the hand and playable, but not part of a declaration this turn
    assert blocked and p.problems() == [] and "drawn=" in p.bpn()
    assert card_names([m for m in after.legal_moves() if not m.is_declaration]) <= card_names(p.legal_moves())
    again = Position(p.bpn())  # the BPN carries the cards drawn
    assert again.drawn == p.drawn and card_names(again.legal_moves()) == card_names(p.legal_moves())
    # the drawn card counts from his next turn on: after a card is played it is forgotten
    lead = next(m for m in p.legal_moves() if not m.is_declaration and str(m) not in blocked[0])
    p.push(lead)
    assert p.drawn == 0
    # the option is refused where it means nothing, and drawn= without it is a problem
    with pytest.raises(Exception, match="does not apply"):
        Rules.parse("petite(declare=before_draw)")
    assert any(
        "declare after the draw" in m
        for m in Position(again.bpn().replace(f"{game}(declare=before_draw)", game, 1)).problems()
    )


def test_declare_before_draw_and_the_exchange():
    """A turnup taken by the exchange on lead came after the moment of declaring, too, and
    the 7 given for it (perhaps the card just drawn) is no longer in the hand; an exchange
    when following sets nothing.  Every position of the way stays valid."""
    import random

    from solver.play.dealing import deal

    seen = {"on lead": 0, "the 7 just drawn": 0, "following": 0}
    for seed in range(400):
        p = deal(seed, "brisque(declare=before_draw)")
        rng = random.Random(seed)
        while not p.is_over():
            if EXCHANGE in p.legal_moves():
                q, turnup, seven = p.copy(), p.turnup, p.seven_of_trumps
                fresh_seven = bool(q.drawn >> seven & 1)
                q.push(EXCHANGE)
                assert q.problems() == [], q.bpn()
                assert Position(q.bpn()).bpn() == q.bpn()
                if p.trick < 0:
                    assert q.drawn >> turnup & 1 and not q.drawn >> seven & 1
                    seen["on lead"] += 1
                    seen["the 7 just drawn"] += fresh_seven
                else:
                    assert q.drawn == 0
                    seen["following"] += 1
            p.push(rng.choice(p.legal_moves()))
            assert p.problems() == [], p.bpn()
    assert all(n >= 3 for n in seen.values()), seen


# ---------------------------------------------------------------- draw (Petite Brisque)
@pytest.mark.parametrize("rules, tricks", [("petite", 5), ("petite(draw=yes)", 16), ("petite(draw=no)", 5)])
def test_petite_draw(rules, tricks):
    r = Rules.parse(rules)
    assert r.tricks_per_deal == tricks
    for seed in range(30):
        p = play_random(seed, rules)
        assert p.completed == tricks
        assert p.is_over() and p.problems() == []
        assert (p.talon_count == 0) is r.draws


def test_petite_draw_keeps_the_talon_dead_by_default():
    from solver.play.dealing import deal

    p = deal(3, "petite")
    assert p.talon is None and p.talon_count == 21
    q = deal(3, "petite(draw=yes)")
    assert q.talon is not None and len(q.talon) == 21
    p.push(p.legal_moves()[0])
    p.push(p.legal_moves()[0])
    assert p.talon_count == 21 and p.hand_size(0) == 4
    q.push(q.legal_moves()[0])
    q.push(q.legal_moves()[0])
    assert q.talon_count == 19 and q.hand_size(0) == 5


# ---------------------------------------------------------------- next_dealer
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_next_dealer_winner(seed):
    result = play_match(
        [GreedyPlayer(), RandomPlayer(seed)], seed=seed, rules="brisque(next_dealer=winner,target=400)"
    )
    for k in range(len(result.deals) - 1):
        at_a = result.seats[k]
        winner_seat = result.deals[k].final().outcome().winner
        if winner_seat is None:
            continue
        winner = (at_a, 1 - at_a)[winner_seat]
        assert 1 - result.seats[k + 1] == winner, "the winner deals (sits at b) next"


def test_next_dealer_alternate():
    result = play_match([GreedyPlayer(), GreedyPlayer()], seed=0, rules="brisque(target=400)")
    assert len(result.deals) >= 3
    assert result.seats == [1 - k % 2 for k in range(len(result.deals))]


def test_next_dealer_changes_the_seating():
    # The greedy player (player 0) wins most deals: with next_dealer=winner he keeps dealing.
    alt = play_match([GreedyPlayer(), RandomPlayer(0)], seed=0, rules="brisque")
    win = play_match([GreedyPlayer(), RandomPlayer(0)], seed=0, rules="brisque(next_dealer=winner)")
    assert alt.seats != win.seats


# ---------------------------------------------------------------- objective
@pytest.mark.parametrize("game", ["brisque", "briscan", "petite"])
def test_objective_changes_value(game):
    differing = 0
    for seed in range(20):
        margin = play_random(seed, f"{game}(objective=margin)" if game == "petite" else game)
        tricks = play_random(seed, f"{game}(objective=tricks)" if game != "petite" else game)
        assert margin.out == tricks.out and margin.score == tricks.score  # same play
        if margin.win >= 0:
            continue
        for who in (0, 1):
            assert margin.value(who) == margin.score[who] - margin.score[1 - who]
            assert tricks.value(who) == tricks.tricks[who] - tricks.tricks[1 - who]
        differing += margin.value() != tricks.value()
    assert differing > 0
