"""What everyone sees at a Toss table, and the hard bot's rules and search that use it, each
on a rigged table."""

from __future__ import annotations

import random

from games.toss.cards import MILK
from games.toss.search import TossSearch
from games.toss.view import table_panel
from tests.games.toss.conftest import Table
from tests.games.toss.test_ai import HANDS, TOSSED


def milk_seen_with_ana() -> Table:
    """Ana rolls Swap · Milk holding the milk herself: everyone sees it stays with her."""
    t = Table(HANDS)
    t.roll("Ana", "swap", "milk")
    return t


def test_a_milk_handed_on_is_seen_by_everyone_where_it_went() -> None:
    t = Table(HANDS)
    assert t.state.milk_seen is None  # dealt face down: nobody knows
    t.roll("Ana", "left", "milk")
    t.play("Ana", "take", 0)
    assert t.state.milk_seen == t.seat("Ben")
    assert t.game.view(t.state, t.seat("Dev")).milk_seen == t.seat("Ben")


def test_the_table_tells_everyone_where_the_milk_was_last_seen() -> None:
    t = Table(HANDS)
    t.roll("Ana", "left", "milk")
    t.play("Ana", "take", 0)
    panel = table_panel(t.game, t.game.view(t.state, None))
    players = panel.fields[0].value.splitlines()
    seen = [line for line in players if "milk last seen here" in line]
    assert seen == [line for line in players if "**Ben**" in line]


def test_a_blind_swap_with_the_milks_holder_loses_sight_of_it() -> None:
    t = milk_seen_with_ana()  # Ben's turn now
    t.roll("Ben", "swap", "1")
    t.play("Ben", "swap_with", t.seat("Ana"))
    t.play("Ben", "give", "fudge")
    t.play("Ben", "take", 0)
    assert t.state.milk_seen is None  # only Ben and Ana know whether he drew it


def test_cookies_grabbed_face_up_are_seen_and_travel_with_a_whole_hand() -> None:
    t = Table(HANDS)
    t.roll("Ana", "toss", "2")
    for name, cards in TOSSED.items():
        t.play(name, "toss", *cards)
    t.play("Ben", "grab", "fudge")
    assert t.game.view(t.state, t.seat("Cleo")).grabbed[t.seat("Ben")] == ["fudge"]
    while t.state.scramble is not None:  # the others empty the middle
        racer = t.game.decisions(t.state)[0].seat
        t.play(t.state.names[racer], "grab", t.state.scramble.middle[-1])
    seen = [list(g) for g in t.state.grabbed]
    # Ben's turn: Pass Right · All moves every hand, and what was seen of it, to the right.
    t.roll("Ben", "right", "all")
    for name in ("Ana", "Ben", "Cleo", "Dev"):
        t.play(name, "pass", "all")
    assert t.state.grabbed == [*seen[1:], seen[0]]


def test_hard_swaps_with_the_player_last_seen_taking_the_milk() -> None:
    t = Table(HANDS)
    t.roll("Ana", "right", "milk")  # Ana hands the milk to her right: Dev
    t.play("Ana", "take", 0)
    t.roll("Ben", "swap", "2")
    decision = t.decision("Ben")
    ben = t.seat("Ben")
    # normal swaps with the first player in the list, Ana; hard with the milk's holder
    assert t.game.bot_action(t.state, ben, decision=decision).args == (str(t.seat("Ana")),)
    lead = t.game.searcher().lead(t.game.view(t.state, ben), decision)  # type: ignore[arg-type]
    assert lead.args == (str(t.seat("Dev")),)


def test_hard_grabs_the_cookie_the_milks_holder_collects_before_its_own() -> None:
    t = milk_seen_with_ana()  # Ben's turn
    t.roll("Ben", "toss", "2")
    for name, cards in TOSSED.items():
        t.play(name, "toss", *cards)
    # the middle: Chocolate Chip, Fudge Swirl x2, Gingerbread x2, half-eaten, Iced Sugar x2
    t.play("Ana", "grab", "fudge")  # the milk's holder is seen collecting Fudge Swirl
    dev = t.seat("Dev")
    decision = t.decision("Dev")
    assert t.hand("Dev") == ["chip", "chip", "chip", "fudge", "fudge"]
    # normal grabs toward its own three Chocolate Chip; hard takes Ana's last Fudge Swirl
    assert t.game.race_action(t.state, dev, "normal", decision=decision).args == ("chip",)
    assert t.game.race_action(t.state, dev, "hard", decision=decision).args == ("fudge",)


def test_hard_denies_the_holder_a_wild_before_its_cookie() -> None:
    t = milk_seen_with_ana()
    t.roll("Ben", "toss", "2")
    for name, cards in {**TOSSED, "Ben": ("wild", "fudge")}.items():
        t.play(name, "toss", *cards)
    t.play("Ana", "grab", "fudge")  # seen collecting Fudge Swirl; a fudge and a wild remain
    dev, decision = t.seat("Dev"), t.decision("Dev")
    assert t.game.race_action(t.state, dev, "hard", decision=decision).args == ("wild",)


def test_the_worlds_keep_the_milk_with_the_player_last_seen_taking_it() -> None:
    t = milk_seen_with_ana()
    search = TossSearch(t.game)
    rng = random.Random(3)
    dev = t.seat("Dev")
    plain = [t.game.scramble_hidden(t.state, dev, rng) for _ in range(30)]
    assert any(MILK not in w.hands[t.seat("Ana")] for w in plain)  # the plain re-deal
    for _ in range(30):
        world = search.deal_world(t.state, dev, rng)
        assert MILK in world.hands[t.seat("Ana")]
        assert world.hands[dev] == t.hand("Dev")
        assert sorted(c for h in world.hands for c in h) == sorted(
            c for h in t.state.hands for c in h
        )


def test_a_playout_ends_with_the_turn_and_a_won_round_counts_whole() -> None:
    t = Table(HANDS)
    search = TossSearch(t.game)
    world = t.game.private_copy(t.state)
    sim = t.game.private_copy(t.state)
    assert not search.stopped(world, sim, 0, 1)  # Ana's turn still
    sim.turn, sim.phase = t.seat("Ben"), "roll"
    assert search.stopped(world, sim, 5, 1)  # Ben rolls next: the turn played has ended
    assert not search.stopped(world, sim, 5, 2)
    sim.winners = [t.seat("Cleo")]
    assert search.stopped(world, sim, 5, 2)
    assert search.value(sim, t.seat("Cleo")) == 1.0
    assert search.value(sim, t.seat("Ana")) == 0.0
    sim.winners = []
    # Ana holds the milk: her share of the chances is the largest
    shares = [search.value(sim, s) for s in range(4)]
    assert max(range(4), key=shares.__getitem__) == t.seat("Ana")
    assert abs(sum(shares) - 1.0) < 1e-9


def test_in_a_race_easy_slips_now_and_then_and_normal_grabs_as_the_heuristic() -> None:
    t = milk_seen_with_ana()
    t.roll("Ben", "toss", "2")
    for name, cards in TOSSED.items():
        t.play(name, "toss", *cards)
    dev, decision = t.seat("Dev"), t.decision("Dev")
    rng = random.Random(1)
    heuristic = t.game.bot_action(t.state, dev, decision=decision)
    easy = {t.game.race_action(t.state, dev, "easy", decision=decision, rng=rng) for _ in range(40)}
    normal = {
        t.game.race_action(t.state, dev, "normal", decision=decision, rng=rng) for _ in range(9)
    }
    assert normal == {heuristic}
    assert heuristic in easy and len(easy) > 2  # a beginner grabs at random 85 % of the time
    assert all(decision.allows(a) for a in easy)  # type: ignore[union-attr]
