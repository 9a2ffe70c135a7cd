"""Every rule of toss-your-cookies.txt on rigged hands and fixed dice."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.core.protocol import IllegalAction
from games.toss import TossYourCookies
from games.toss.state import TossOptions

from .conftest import Table, seven

# Four players, nobody near a win: Ana holds the milk.
HANDS = {
    "Ana": seven("chip", "chip", "fudge", "sugar", "ginger", "half", "milk"),
    "Ben": seven("chip", "chip", "fudge", "fudge", "sugar", "ginger", "wild"),
    "Cleo": seven("sugar", "sugar", "sugar", "ginger", "ginger", "chip", "fudge"),
    "Dev": seven("ginger", "ginger", "fudge", "fudge", "sugar", "chip", "wild"),
}


def table(**options: object) -> Table:
    return Table({k: list(v) for k, v in HANDS.items()}, **options)


def all_cards(t: Table) -> Counter[str]:
    return Counter(c for hand in t.state.hands for c in hand)


@pytest.mark.parametrize(
    ("players", "wilds", "halves"),
    [(3, 1, 1), (4, 2, 1), (5, 2, 2), (6, 3, 2), (7, 3, 3), (8, 3, 4)],
)
def test_the_deck_has_a_cookie_set_per_player_the_milk_and_the_printed_extras(
    players: int, wilds: int, halves: int
) -> None:
    game = TossYourCookies()
    names = [f"P{i}" for i in range(players)]
    state = game.setup(TossOptions(), names, seed=players)
    cards = Counter(c for hand in state.hands for c in hand)
    assert [len(hand) for hand in state.hands] == [7] * players
    assert (cards["milk"], cards["wild"], cards["half"]) == (1, wilds, halves)
    assert sorted(k for k in cards if k not in ("milk", "wild", "half")) == sorted(state.cookies)
    assert all(cards[cookie] == 6 for cookie in state.cookies)
    assert len(state.cookies) == players


def test_a_turn_starts_with_a_roll_and_both_dice_show_on_the_table() -> None:
    t = table()
    assert t.deciding() == ["Ana"] and t.decision("Ana").options[0].action.kind == "roll"
    t.roll("Ana", "left", "2")
    table_text = t.game.panels(t.game.view(t.state, None)).table.as_text()
    assert "Pass Left · 2" in table_text
    assert "🎲 Ana rolled Pass Left · 2." in t.public_log()


def test_swap_gives_chosen_cards_and_takes_as_many_blindly() -> None:
    t = table()
    t.roll("Ana", "swap", "2")
    t.play("Ana", "swap_with", t.seat("Cleo"))
    decision = t.decision("Ana")
    assert (decision.min_picks, decision.max_picks) == (2, 2)
    t.play("Ana", "give", "half", "ginger")
    # The blind take offers places in Cleo's hand, not cards.
    assert [o.label for o in t.decision("Ana").options][:2] == [
        "Face-down card 1",
        "Face-down card 2",
    ]
    t.play("Ana", "take", 0, 4)
    cleo_before = Counter(HANDS["Cleo"])
    taken = Counter(t.hand("Ana")) - (Counter(HANDS["Ana"]) - Counter(["half", "ginger"]))
    assert sum(taken.values()) == 2 and not taken - cleo_before
    assert Counter(t.hand("Cleo")) == cleo_before - taken + Counter(["half", "ginger"])
    assert [len(h) for h in t.state.hands] == [7, 7, 7, 7]
    assert t.deciding() == ["Ben"]  # the turn passed to the left
    assert "🙈 Ana takes 2 cards from Cleo without looking." in t.public_log()
    assert not any("Half" in line for line in t.public_log())  # the given cards stay secret


def test_swap_all_swaps_whole_hands() -> None:
    t = table()
    t.roll("Ana", "swap", "all")
    t.play("Ana", "swap_with", t.seat("Dev"))
    assert t.hand("Ana") == t.game.cards.sort(HANDS["Dev"])
    assert t.hand("Dev") == t.game.cards.sort(HANDS["Ana"])


def test_pass_left_waits_for_everyone_then_all_pass_together() -> None:
    t = table()
    t.roll("Ana", "left", "1")
    assert sorted(t.deciding()) == ["Ana", "Ben", "Cleo", "Dev"]
    t.play("Ben", "pass", "wild")
    t.play("Ana", "pass", "half")
    t.play("Dev", "pass", "chip")
    # Nothing has moved yet: Cleo is still choosing, and the table says so; Ben's pick is
    # still his (seven cards) until all pass at once.
    assert t.deciding() == ["Cleo"]
    assert "wild" not in t.hand("Cleo")
    lines = t.game.panels(t.game.view(t.state, None)).table.as_text()
    assert "Cleo** — 7 cards · ⏳ choosing" in lines and "Ben** — 7 cards · ✅ chosen" in lines
    with pytest.raises(IllegalAction):
        t.play("Ben", "pass", "chip")  # chosen already
    t.play("Cleo", "pass", "fudge")
    assert "half" in t.hand("Ben") and "wild" in t.hand("Cleo")
    assert "fudge" in t.hand("Dev") and t.hand("Ana").count("chip") == 3
    assert [len(h) for h in t.state.hands] == [7, 7, 7, 7]
    assert t.private_log("Ben")[-1] == (
        "You passed 🌟 Wild to Cleo and got 🥮 Half-eaten from Ana."
    )


def test_the_hand_tells_only_its_holder_what_changed_hands_this_turn_and_the_last() -> None:
    """Ben reads what he passed and got in his hand view, through the next turn (his next
    move comes a roll later); not once another roll has come, and never in another's."""
    t = table()

    def news(name: str) -> str:
        hand = t.game.panels(t.game.view(t.state, t.seat(name))).hand
        return hand.as_text() if hand is not None else ""

    t.roll("Ana", "left", "1")
    for name, card in (("Ben", "wild"), ("Ana", "half"), ("Dev", "chip")):
        t.play(name, "pass", card)
    assert "Only you saw" not in news("Ben")  # his pick shows as his pick meanwhile
    t.play("Cleo", "pass", "fudge")
    said = "You passed 🌟 Wild to Cleo and got 🥮 Half-eaten from Ana."
    assert said in news("Ben") and said not in news("Cleo")
    t.roll("Ben", "swap", "milk")  # Ana holds it: she hands it to Ben
    assert said in news("Ben")
    t.play("Ana", "take", 0)
    assert "took" in news("Ben") and said in news("Ben")  # the same turn's lines, in order
    t.roll("Cleo", "left", "1")
    assert said not in news("Ben")


def test_pass_right_all_is_a_confirmation_and_every_hand_moves_right() -> None:
    t = table()
    t.roll("Ana", "right", "all")
    decision = t.decision("Cleo")
    assert [o.label for o in decision.options] == ["Pass all 7 cards"]
    for name in ("Ana", "Ben", "Cleo", "Dev"):
        t.play(name, "pass", "all")
    assert t.hand("Ana") == t.game.cards.sort(HANDS["Ben"])
    assert t.hand("Dev") == t.game.cards.sort(HANDS["Ana"])


def test_pass_needs_exactly_n_cards_of_your_own() -> None:
    t = table()
    t.roll("Ana", "left", "2")
    with pytest.raises(IllegalAction, match="exactly 2"):
        t.play("Ben", "pass", "wild")
    with pytest.raises(IllegalAction, match="own hand"):
        t.play("Ben", "pass", "milk", "wild")


def test_toss_lands_face_up_and_the_scramble_is_first_come_first_served() -> None:
    t = table(scramble_seconds="30")
    t.roll("Ana", "toss", "1")
    for name, card in (("Ana", "half"), ("Ben", "wild"), ("Cleo", "sugar"), ("Dev", "wild")):
        t.play(name, "toss", card)
    assert t.state.scramble.middle == ["sugar", "wild", "wild", "half"]
    assert "🤾 Toss! In the middle: 🧁 Iced Sugar, 🌟 Wild ×2, 🥮 Half-eaten." in t.public_log()
    races = t.game.decisions(t.state)
    assert {d.window for d in races} == {30.0} and len({d.race_stamp for d in races}) == 1
    t.play("Cleo", "grab", "wild")
    t.play("Ana", "grab", "wild")
    with pytest.raises(IllegalAction, match=r"^Too slow: Ana grabbed that one first"):
        t.play("Ben", "grab", "wild")  # both wilds are gone, the last to Ana
    with pytest.raises(IllegalAction):
        t.play("Cleo", "grab", "sugar")  # Cleo tossed one, grabbed one
    t.play("Ben", "grab", "sugar")
    t.play("Dev", "grab", "half")
    assert t.hand("Cleo").count("wild") == 1 and t.hand("Ana").count("wild") == 1
    assert [len(h) for h in t.state.hands] == [7, 7, 7, 7]
    assert t.deciding() == ["Ben"]


def test_when_the_scramble_closes_leftovers_go_at_random_to_those_short() -> None:
    t = table()
    t.roll("Ana", "toss", "2")
    for name in ("Ana", "Ben", "Cleo", "Dev"):
        t.play(
            name, "toss", *t.game.choose(t.game.view(t.state, t.seat(name)), t.decision(name)).args
        )
    before = all_cards(t) + Counter(t.state.scramble.middle)
    t.play("Ben", "grab", t.state.scramble.middle[0])
    t.play("Ben", "grab", t.state.scramble.middle[0])
    t.play("Dev", "close")  # the window's timer plays this for the seat it fired for
    assert [len(h) for h in t.state.hands] == [7, 7, 7, 7]
    assert all_cards(t) == before
    assert any(
        line.startswith("⏱️ Time! The leftovers are dealt at random") for line in t.public_log()
    )


def test_milk_with_pass_the_passer_takes_a_card_blindly_first() -> None:
    t = table()
    t.roll("Ana", "left", "milk")
    # Ana holds the milk: she passes it left to Ben, taking one of his cards first.
    assert t.deciding() == ["Ana"]
    decision = t.decision("Ana")
    assert len(decision.options) == 7 and decision.max_picks == 1
    t.play("Ana", "take", 3)
    assert "milk" in t.hand("Ben") and "milk" not in t.hand("Ana")
    assert [len(h) for h in t.state.hands] == [7, 7, 7, 7]
    assert "🥛 Ben now holds the milk." in t.public_log()


def test_milk_with_pass_right_goes_to_the_right() -> None:
    t = table()
    t.roll("Ana", "right", "milk")
    t.play("Ana", "take", 0)
    assert "milk" in t.hand("Dev")


def test_milk_with_swap_goes_to_the_roller_or_nothing_happens() -> None:
    t = table(turn="Cleo")
    t.roll("Cleo", "swap", "milk")
    assert t.deciding() == ["Ana"]  # Ana holds the milk and picks from Cleo's hand
    t.play("Ana", "take", 6)
    assert "milk" in t.hand("Cleo") and len(t.hand("Ana")) == 7
    again = table()
    again.roll("Ana", "swap", "milk")
    assert "Ana already holds the milk: nothing happens." in again.public_log()
    assert again.deciding() == ["Ben"] and again.hand("Ana") == again.game.cards.sort(HANDS["Ana"])


def test_milk_with_toss_everyone_else_races_and_pays_the_tosser() -> None:
    t = table()
    t.roll("Ana", "toss", "milk")
    racing = t.game.decisions(t.state)
    assert sorted(t.state.names[d.seat] for d in racing) == ["Ben", "Cleo", "Dev"]
    assert all(d.window for d in racing)  # the tosser may not grab it
    with pytest.raises(IllegalAction):
        t.play("Ana", "grab", "milk")
    t.play("Dev", "grab", "milk")
    with pytest.raises(IllegalAction):
        t.play("Ben", "grab", "milk")
    assert t.deciding() == ["Ana"]  # Ana takes one of Dev's cards blindly
    t.play("Ana", "take", 2)
    assert "milk" in t.hand("Dev") and [len(h) for h in t.state.hands] == [7, 7, 7, 7]


def test_the_table_marks_the_milk_where_everyone_saw_it_go_while_it_moves() -> None:
    """Tossed, the milk lies in the middle, not with its tosser; caught, it is the
    catcher's (the tosser first takes a card of theirs): the table says so, not where
    it was seen before."""
    t = table()

    def marked() -> list[str]:
        text = t.game.panels(t.game.view(t.state, None)).table.as_text()
        return [n for n in t.state.names if f"**{n}** — " in text and _seen_line(text, n)]

    t.roll("Ana", "swap", "milk")  # Ana holds it: nothing happens, and all saw it is hers
    assert marked() == ["Ana"]
    t.roll("Ben", "toss", "milk")  # Ana tosses it
    assert marked() == []
    t.play("Dev", "grab", "milk")
    assert t.deciding() == ["Ana"] and marked() == ["Dev"]
    t.play("Ana", "take", 0)
    assert marked() == ["Dev"]


def _seen_line(text: str, name: str) -> bool:
    line = next(line for line in text.splitlines() if f"**{name}** — " in line)
    return "milk last seen here" in line


def test_a_tossed_milk_nobody_grabs_goes_to_one_of_the_others() -> None:
    t = table()
    t.roll("Ana", "toss", "milk")
    t.play("Ben", "close")
    t.play("Ana", "take", 0)
    holder = next(n for n in ("Ben", "Cleo", "Dev") if "milk" in t.hand(n))
    assert holder != "Ana"


def test_five_of_a_cookie_with_wilds_and_the_milk_wins_at_once_on_anyones_turn() -> None:
    hands = {
        "Ana": seven("sugar", "sugar", "ginger", "ginger", "fudge", "half", "wild"),
        "Ben": seven("chip", "chip", "chip", "chip", "milk", "sugar", "fudge"),
        "Cleo": seven("sugar", "sugar", "ginger", "ginger", "fudge", "fudge", "half"),
        "Dev": seven("chip", "chip", "fudge", "fudge", "ginger", "sugar", "sugar"),
    }
    t = Table(hands, rounds="1")
    t.roll("Ana", "left", "1")
    t.play("Ana", "pass", "wild")  # Ana hands Ben his fifth "chip" on her own turn
    t.play("Ben", "pass", "sugar")
    t.play("Cleo", "pass", "half")
    t.play("Dev", "pass", "fudge")
    outcome = t.game.outcome(t.state)
    assert outcome is not None and outcome.winners == [t.seat("Ben")]
    assert any(line.startswith("🥛 Snickerdoodle! Ben wins round 1") for line in t.public_log())
    assert t.game.decisions(t.state) == []


def test_half_eaten_cookies_are_worth_nothing() -> None:
    assert not TossYourCookies().cards.wins(["chip"] * 4 + ["half", "milk", "sugar"])
    assert TossYourCookies().cards.wins(["chip"] * 3 + ["wild", "wild", "milk", "half"])
    assert not TossYourCookies().cards.wins(["chip"] * 5 + ["sugar", "wild"])  # no milk


def test_must_shout_the_holder_wins_only_by_pressing_the_button() -> None:
    hands = {
        "Ana": seven("chip", "chip", "chip", "chip", "wild", "milk", "half"),
        "Ben": seven("sugar", "sugar", "ginger", "ginger", "fudge", "fudge", "wild"),
        "Cleo": seven("sugar", "sugar", "ginger", "ginger", "fudge", "fudge", "half"),
    }
    t = Table(hands, turn="Ben", must_shout=True, rounds="3")
    chance = [d for d in t.game.decisions(t.state) if d.optional]
    assert [(d.seat, d.options[0].label) for d in chance] == [(0, "Snickerdoodle!")]
    assert t.game.outcome(t.state) is None  # nobody shouted yet: play goes on
    t.roll("Ben", "left", "1")  # Ben's turn continues around Ana's chance
    t.play("Ana", "shout")
    assert t.state.round_wins == [1, 0, 0] and t.state.round == 2
    assert any("Snickerdoodle! Ana wins round 1" in line for line in t.public_log())


def test_must_shout_the_chance_is_lost_when_the_hand_changes() -> None:
    hands = {
        "Ana": seven("chip", "chip", "chip", "chip", "wild", "milk", "half"),
        "Ben": seven("sugar", "sugar", "ginger", "ginger", "fudge", "fudge", "wild"),
        "Cleo": seven("sugar", "sugar", "ginger", "ginger", "fudge", "fudge", "half"),
    }
    t = Table(hands, must_shout=True)
    t.roll("Ana", "left", "milk")
    t.play("Ana", "take", 0)  # the milk goes to Ben
    assert not any(d.optional for d in t.game.decisions(t.state))
    with pytest.raises(IllegalAction):
        t.play("Ana", "shout")


def test_a_match_of_three_rounds_goes_to_the_first_with_two() -> None:
    game = TossYourCookies()
    state = game.setup(TossOptions(rounds="3"), ["Ana", "Ben", "Cleo"], seed=3)
    first = state.first
    state.hands[1] = ["chip"] * 5 + ["milk", "half"]  # Ben is handed a winning hand
    events: list = []
    game.settle(state, events, __import__("random").Random(1))
    assert state.round_wins[1] == 1 and state.round == 2
    assert state.first == (first + 1) % 3 and state.turn == state.first  # next player starts
    assert [len(h) for h in state.hands] == [7, 7, 7]  # a fresh deal
    assert game.outcome(state) is None
    state.hands[1] = ["fudge"] * 4 + ["wild", "milk", "half"]
    game.settle(state, events, __import__("random").Random(2))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == [1]
    assert outcome.reason == "Ben won 2 of 3 rounds."


def test_best_of_three_with_three_round_winners_plays_on_until_someone_has_two() -> None:
    """ "For a longer game, set a number of rounds before playing (suggested 3 or 5). First
    player to win a majority of rounds wins the game." Our ruling: the majority is of the
    rounds set (2 of 3); three rounds with three different winners leave nobody there, so a
    fourth round is played, and more if needed, until someone has won 2."""
    game = TossYourCookies()
    state = game.setup(TossOptions(rounds="3"), ["Ana", "Ben", "Cleo", "Dev"], seed=3)
    events: list = []
    for round_, seat in enumerate((0, 1, 2), start=1):
        assert state.round == round_
        state.hands[seat] = ["chip"] * 5 + ["milk", "half"]
        game.settle(state, events, random.Random(round_))
    assert state.round_wins == [1, 1, 1, 0] and game.outcome(state) is None
    assert state.round == 4 and [len(h) for h in state.hands] == [7, 7, 7, 7]
    panel = game.panels(game.view(state, None)).table
    assert "round 4 (best of 3: extra, first to 2 wins)" in panel.title
    state.hands[3] = ["fudge"] * 5 + ["milk", "half"]  # Dev wins the fourth: 1-1-1-1
    game.settle(state, events, random.Random(14))
    assert game.outcome(state) is None and state.round == 5
    state.hands[1] = ["fudge"] * 4 + ["wild", "milk", "half"]
    game.settle(state, events, random.Random(5))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == [1]
    assert outcome.reason == "Ben was first to win 2 rounds, in round 5 (best of 3)."


def test_the_bot_keeps_the_milk_and_its_best_cookie_and_grabs_what_it_collects() -> None:
    t = table()
    t.roll("Ana", "left", "2")
    view = t.game.view(t.state, t.seat("Ana"))
    # Ana: chip chip fudge sugar ginger half milk -> away go the half-eaten and a stray.
    action = t.game.choose(view, t.decision("Ana"))
    assert action.kind == "pass" and "half" in action.args and "milk" not in action.args
    assert "chip" not in action.args
    for name in ("Ana", "Ben", "Cleo", "Dev"):
        seat = t.seat(name)
        t.state, _ = t.game.apply(t.state, seat, t.game.bot_action(t.state, seat))
    t.roll("Ben", "toss", "1")
    for name in ("Ana", "Ben", "Cleo", "Dev"):
        seat = t.seat(name)
        t.state, _ = t.game.apply(t.state, seat, t.game.bot_action(t.state, seat))
    cleo = t.seat("Cleo")  # collects Iced Sugar: she grabs one if there is one
    grab = t.game.bot_action(t.state, cleo)
    if "sugar" in t.state.scramble.middle:
        assert grab.args == ("sugar",)
    elif "wild" in t.state.scramble.middle:
        assert grab.args == ("wild",)
