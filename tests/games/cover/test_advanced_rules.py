"""Cover Your Assets advanced rules, each a switch, on rigged decks with exact outcomes."""

from __future__ import annotations

from collections import Counter

import pytest

from games.core.protocol import IllegalAction, NotYourTurn
from games.cover import CoverYourAssets
from games.cover.state import CoverOptions

from .conftest import cover_set

ALL = CoverOptions(
    hand_of_six=True,
    two_actions=True,
    improve=True,
    action_cards=True,
    second_from_top=True,
    penny_jar=True,
)


def test_the_deck_holds_advanced_cards_only_when_their_rules_are_on() -> None:
    game = CoverYourAssets()
    assert len(game.deck_for(CoverOptions())) == 104
    deck = Counter(game.deck_for(ALL))
    assert len(game.deck_for(ALL)) == 110
    assert (deck["penny_jar"], deck["swap"], deck["move"]) == (2, 2, 2)
    assert "penny_jar" not in game.deck_for(CoverOptions(action_cards=True))


def test_hand_of_six(rig) -> None:
    state = CoverYourAssets().setup(CoverOptions(hand_of_six=True), "ABCD", seed=3)
    assert all(len(p.hand) == 6 for p in state.players)
    t = rig(hands={"Ezra": ["cash"] * 6}, options=CoverOptions(hand_of_six=True))
    t.play("Ezra", "pair", "cash", "cash")
    assert len(t.hand("Ezra")) == 6


# --- Two actions a turn ----------------------------------------------------------------------


def test_the_second_action_is_optional(rig) -> None:
    t = rig(
        hands={"Ezra": ["cash", "cash", "piano", "piano", "jewels"], "Cathy": ["cabin"]},
        options=CoverOptions(two_actions=True),
        deck=["gold", "silver", "cabin"],
    )
    t.play("Ezra", "pair", "cash", "cash")
    assert t.state.turn == t.seat("Ezra") and len(t.hand("Ezra")) == 3  # no draw yet
    assert "done" in t.options("Ezra")
    t.play("Ezra", "done")
    assert t.state.turn == t.seat("Cathy")
    assert len(t.hand("Ezra")) == 5


def test_the_same_action_may_be_taken_twice(rig) -> None:
    t = rig(
        hands={"Ezra": ["cash", "cash", "piano", "piano", "jewels"], "Cathy": ["cabin"]},
        options=CoverOptions(two_actions=True),
    )
    t.play("Ezra", "pair", "cash", "cash")
    t.play("Ezra", "pair", "piano", "piano")
    assert t.stack("Ezra") == [["cash", "cash"], ["piano", "piano"]]
    assert t.state.turn == t.seat("Cathy")


def test_discarding_first_draws_back_at_once_then_the_second_action(rig) -> None:
    t = rig(
        hands={"Ezra": ["cash", "cabin", "piano", "toy_train", "jewels"]},
        options=CoverOptions(two_actions=True),
        deck=["scooter", "gold"],
    )
    t.play("Ezra", "discard", "cabin")
    assert "gold" in t.hand("Ezra") and len(t.hand("Ezra")) == 5
    t.play("Ezra", "take", "gold")  # the Gold drawn pairs with the Cabin just discarded
    assert t.stack("Ezra") == [["gold", "cabin"]]


def test_a_lost_challenge_bars_that_player_until_your_next_turn(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "cash", "cash", "jewels", "jewels"],
            "Cathy": ["piano", "toy_train", "cash", "jewels", "scooter"],
        },
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("piano", "piano")],
            "Phil": [cover_set("jewels", "jewels"), cover_set("cash", "cash")],
        },
        options=CoverOptions(two_actions=True),
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "piano")
    t.play("Cathy", "counter", "piano")  # Ezra has no Piano left: Cathy keeps her set
    assert t.state.turn == t.seat("Ezra") and t.state.barred == [t.seat("Cathy")]
    assert not [o for o in t.options("Ezra") if o.startswith(f"challenge.{t.seat('Cathy')}.")]
    t.play("Ezra", "challenge", t.seat("Phil"), "cash")  # another player is fair game
    assert t.stack("Ezra")[-1] == ["cash", "cash", "cash"]


# --- Improve a set, Swap, Move ---------------------------------------------------------------


def test_improve_adds_one_matching_asset_to_your_top_set(rig) -> None:
    t = rig(
        hands={"Ezra": ["cash", "gold", "piano", "piano", "jewels"]},
        stacks={"Ezra": [cover_set("jewels", "jewels"), cover_set("cash", "silver")]},
        options=CoverOptions(improve=True),
    )
    assert [o for o in t.options("Ezra") if o.startswith("improve")] == ["improve.cash"]
    with pytest.raises(IllegalAction):
        t.play("Ezra", "improve", "gold")  # never a wild
    t.play("Ezra", "improve", "cash")
    assert t.stack("Ezra")[-1] == ["silver", "cash", "cash"]


def test_improve_is_only_offered_when_the_rule_is_on(rig) -> None:
    t = rig(hands={"Ezra": ["cash", "piano"]}, stacks={"Ezra": [cover_set("cash", "cash")]})
    assert not [o for o in t.options("Ezra") if o.startswith("improve")]


def test_swap_trades_top_sets_and_leaves_play(rig) -> None:
    t = rig(
        hands={"Ezra": ["swap", "piano", "cash"]},
        stacks={
            "Ezra": [cover_set("piano", "piano")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("cabin", "gold")],
        },
        options=CoverOptions(action_cards=True),
    )
    t.play("Ezra", "swap", t.seat("Cathy"))
    assert t.stack("Ezra") == [["gold", "cabin"]]
    assert t.stack("Cathy") == [["jewels", "jewels"], ["piano", "piano"]]
    assert t.state.removed == ["swap"] and "swap" not in t.state.discard


def test_move_sends_a_top_set_to_the_bottom_or_the_bottom_to_the_top(rig) -> None:
    stacks = {
        "Cathy": [
            cover_set("jewels", "jewels"),
            cover_set("cash", "cash"),
            cover_set("cabin", "gold"),
        ]
    }
    t = rig(
        hands={"Ezra": ["move", "move", "piano"]},
        stacks=stacks,
        options=CoverOptions(action_cards=True, two_actions=True),
    )
    t.play("Ezra", "move", t.seat("Cathy"), "top")
    assert [s[-1] for s in t.stack("Cathy")] == ["cabin", "jewels", "cash"]
    t.play("Ezra", "move", t.seat("Cathy"), "bottom")
    assert [s[-1] for s in t.stack("Cathy")] == ["jewels", "cash", "cabin"]
    assert t.state.removed == ["move", "move"]


def test_move_works_on_your_own_stack(rig) -> None:
    t = rig(
        hands={"Ezra": ["move", "piano"]},
        stacks={"Ezra": [cover_set("piano", "piano"), cover_set("cabin", "gold")]},
        options=CoverOptions(action_cards=True),
    )
    t.play("Ezra", "move", t.seat("Ezra"), "top")
    assert t.stack("Ezra") == [["gold", "cabin"], ["piano", "piano"]]


def test_a_hand_shows_an_action_card_as_one_not_as_no_money(rig) -> None:
    t = rig(hands={"Ezra": ["swap", "move", "piano"]}, options=CoverOptions(action_cards=True))
    hand = t.game.panels(t.game.view(t.state, t.seat("Ezra"))).hand
    assert hand is not None
    assert hand.description.splitlines()[:3] == [
        "🎹 Piano · $5k",
        "🔄 Swap · action card",
        "↕️ Move · action card",
    ]


def test_action_cards_never_pair(rig) -> None:
    t = rig(
        hands={"Ezra": ["swap", "swap", "gold", "piano"]}, options=CoverOptions(action_cards=True)
    )
    assert not [o for o in t.options("Ezra") if "swap" in o and o.startswith("pair")]


# --- Second-from-top challenges and the Penny Jar --------------------------------------------


def second_from_top_table(rig, ezra_hand, cathy_hand):  # type: ignore[no-untyped-def]
    return rig(
        hands={"Ezra": ezra_hand, "Cathy": cathy_hand},
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [
                cover_set("jewels", "jewels"),
                cover_set("piano", "piano"),
                cover_set("cash", "cash"),
            ],
        },
        options=CoverOptions(second_from_top=True, penny_jar=True),
    )


def test_a_second_from_top_set_is_opened_with_two_cards(rig) -> None:
    t = second_from_top_table(rig, ["piano", "silver", "toy_train"], ["piano", "gold", "cabin"])
    cathy = t.seat("Cathy")
    assert f"challenge_second.{cathy}.piano.silver" in t.options("Ezra")
    with pytest.raises(IllegalAction):
        t.play("Ezra", "challenge_second", cathy, "piano")  # one card is not enough
    t.play("Ezra", "challenge_second", cathy, "piano", "silver")
    assert t.options("Cathy") == ["counter.piano", "counter.gold", "concede"]  # then singles
    t.play("Cathy", "counter", "piano")
    assert t.state.battle is None  # Ezra has nothing left that matches
    assert t.stack("Cathy") == [
        ["jewels", "jewels"],
        ["silver", "piano", "piano", "piano", "piano"],
        ["cash", "cash"],
    ]


def test_stealing_a_second_from_top_set_lifts_it_from_the_middle(rig) -> None:
    t = second_from_top_table(rig, ["penny_jar", "toy_train"], ["cabin", "cash"])
    t.play("Ezra", "challenge_second", t.seat("Cathy"), "penny_jar")  # one Penny Jar opens
    assert t.stack("Cathy") == [["jewels", "jewels"], ["cash", "cash"]]
    assert t.stack("Ezra")[-1] == ["penny_jar", "piano", "piano"]


def test_a_second_from_top_challenge_is_answered_with_one_card_even_after_a_penny_jar(
    rig,
) -> None:
    """ "After the challenge is initiated, only one card is played to defend or to continue
    challenging." Our reading: for the whole second-from-top challenge, so when the
    defender answers with a Penny Jar, one card answers it."""
    t = second_from_top_table(rig, ["piano", "silver", "gold"], ["penny_jar", "cash"])
    cathy = t.seat("Cathy")
    t.play("Ezra", "challenge_second", cathy, "piano", "silver")
    # So her Penny Jar is not said to count as two cards here (it did say so).
    answer = t.game.decision_for(t.state, cathy)
    assert answer is not None and [o.description for o in answer.options] == [
        "🫙 Penny Jar counts as one card in a second-from-top challenge.",
        "",
    ]
    t.play("Cathy", "counter", "penny_jar")
    assert t.state.battle is not None and t.state.battle.need == 1
    assert t.options("Ezra") == ["counter.gold", "concede"]  # a single wild answers it
    t.play("Ezra", "counter", "gold")
    assert t.state.battle is None  # Cathy has nothing left that matches
    assert t.stack("Ezra")[-1] == ["silver", "gold", "penny_jar", "piano", "piano", "piano"]
    assert t.stack("Cathy") == [["jewels", "jewels"], ["cash", "cash"]]


def test_the_bottom_set_stays_safe_from_second_from_top_challenges(rig) -> None:
    t = rig(
        hands={"Ezra": ["jewels", "jewels", "piano"]},
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("piano", "piano")],
        },
        options=CoverOptions(second_from_top=True),
    )
    assert not [o for o in t.options("Ezra") if o.startswith("challenge_second")]


def test_a_penny_jar_must_be_answered_with_two_cards_or_a_penny_jar(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "penny_jar", "cash"],
            "Cathy": ["piano", "silver", "gold", "cash"],
        },
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("piano", "piano")],
        },
        options=CoverOptions(penny_jar=True),
    )
    cathy = t.seat("Cathy")
    t.play("Ezra", "challenge", cathy, "penny_jar")
    assert t.state.battle.need == 2
    answers = t.options("Cathy")
    assert "counter.piano" not in answers and "counter.piano.silver" in answers
    assert "counter.silver.gold" in answers  # two wilds
    with pytest.raises(IllegalAction):
        t.play("Cathy", "counter", "gold")
    t.play("Cathy", "counter", "piano", "silver")
    assert t.state.battle.need == 1  # then single cards again
    t.play("Ezra", "counter", "piano")
    t.play("Cathy", "counter", "gold")
    assert t.state.battle is None
    assert t.stack("Cathy")[-1] == [
        "silver",
        "gold",
        "penny_jar",
        "piano",
        "piano",
        "piano",
        "piano",
    ]


def test_a_penny_jar_is_a_thousand_dollar_wild_in_a_set(rig) -> None:
    t = rig(
        hands={"Ezra": ["penny_jar", "cabin", "piano"]},
        options=CoverOptions(penny_jar=True),
        deck=[],
    )
    t.play("Ezra", "pair", "cabin", "penny_jar")
    assert t.stack("Ezra") == [["penny_jar", "cabin"]]
    assert t.game.set_value(t.state.players[0].stack[0]) == 21_000


def test_only_the_player_answering_may_answer(rig) -> None:
    t = second_from_top_table(rig, ["piano", "silver", "toy_train"], ["piano", "gold", "cabin"])
    t.play("Ezra", "challenge_second", t.seat("Cathy"), "piano", "silver")
    with pytest.raises(NotYourTurn):
        t.play("Phil", "concede")
