"""The Cover Your Assets bot: sensible to a casual player, on rigged tables."""

from __future__ import annotations

from games.cover.state import CoverOptions

from .conftest import cover_set


def bot_move(t, name: str) -> str:
    return t.game.bot_action(t.state, t.seat(name)).encode()


def test_never_discards_a_gold_when_a_set_can_be_formed(rig) -> None:
    t = rig(hands={"Ezra": ["gold", "gold", "silver", "silver", "piano"]}, discard=["cabin"])
    move = bot_move(t, "Ezra")
    assert not move.startswith("discard"), move
    assert move in {"pair.piano.gold", "pair.piano.silver", "take.gold", "take.silver"}


def test_discards_the_cheapest_loose_asset_rather_than_a_wild(rig) -> None:
    t = rig(
        hands={"Ezra": ["gold", "cabin", "piano", "jewels", "scooter"]},
        discard=["toy_train"],
        stacks={"Ezra": [cover_set("cash", "cash")]},
    )
    # Sets exist only with the Gold; keeping the Gold for defence, it throws the Piano away
    # unless its own top set is exposed and rich.
    assert bot_move(t, "Ezra") == "discard.piano"


def test_forms_the_richest_natural_set(rig) -> None:
    t = rig(hands={"Ezra": ["piano", "piano", "cabin", "cabin", "gold"]}, discard=["toy_train"])
    assert bot_move(t, "Ezra") == "pair.cabin.cabin"


def test_defends_a_valuable_set(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["cabin", "cash", "cash", "jewels", "jewels"],
            "Cathy": ["silver", "piano", "toy_train", "cash", "jewels"],
        },
        stacks={
            "Ezra": [cover_set("piano", "piano")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("cabin", "gold", "cabin")],
        },
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "cabin")
    assert bot_move(t, "Cathy") == "counter.silver"


def test_does_not_throw_a_wild_after_a_cheap_set(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "cash", "cash", "jewels", "jewels"],
            "Cathy": ["gold", "cabin", "toy_train", "cash", "jewels"],
        },
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("piano", "piano")],
        },
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "piano")
    assert bot_move(t, "Cathy") == "concede"


def test_defends_with_a_matching_asset_before_a_wild(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "cash", "cash", "jewels", "jewels"],
            "Cathy": ["gold", "piano", "toy_train", "cash", "jewels"],
        },
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("piano", "piano")],
        },
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "piano")
    assert bot_move(t, "Cathy") == "counter.piano"


def test_challenges_when_it_can_win_on_count(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "piano", "silver", "jewels", "cash"],
            "Cathy": ["gold", "toy_train"],
        },
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("piano", "piano")],
        },
        deck=[],
    )
    assert bot_move(t, "Ezra") == f"challenge.{t.seat('Cathy')}.piano"


def test_does_not_open_a_hopeless_challenge(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "cash", "cash", "jewels", "scooter"],
            "Cathy": ["gold", "toy_train", "cash", "jewels", "cabin"],
        },
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("piano", "piano")],
        },
    )
    assert not bot_move(t, "Ezra").startswith("challenge")


def test_hides_a_rich_exposed_top_set_at_the_bottom_with_move(rig) -> None:
    t = rig(
        hands={"Ezra": ["move", "piano", "cash", "jewels", "scooter"]},
        stacks={"Ezra": [cover_set("piano", "piano"), cover_set("cabin", "gold", "cabin")]},
        options=CoverOptions(action_cards=True),
    )
    assert bot_move(t, "Ezra") == f"move.{t.seat('Ezra')}.top"


def test_swaps_for_a_much_richer_top_set(rig) -> None:
    t = rig(
        hands={"Ezra": ["swap", "piano", "cash", "jewels", "scooter"]},
        stacks={
            "Ezra": [cover_set("piano", "piano")],
            "Phil": [cover_set("toy_train", "toy_train"), cover_set("cabin", "gold", "cabin")],
            "Carla": [cover_set("jewels", "jewels")],
        },
        options=CoverOptions(action_cards=True),
    )
    assert bot_move(t, "Ezra") == f"swap.{t.seat('Phil')}"


def test_reaches_under_a_top_set_with_a_penny_jar_when_it_can_follow_up(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["penny_jar", "cabin", "cash", "jewels", "scooter"],
            "Cathy": ["piano", "piano", "toy_train", "toy_train", "jewels"],
        },
        stacks={
            "Ezra": [cover_set("piano", "piano")],
            "Cathy": [
                cover_set("jewels", "jewels"),
                cover_set("cabin", "gold"),
                cover_set("toy_train", "toy_train"),
            ],
        },
        options=CoverOptions(second_from_top=True, penny_jar=True),
    )
    assert bot_move(t, "Ezra") == f"challenge_second.{t.seat('Cathy')}.penny_jar"


def test_stops_after_one_action_rather_than_throw_a_card_away(rig) -> None:
    t = rig(
        hands={"Ezra": ["cash", "cash", "piano", "toy_train", "jewels"], "Cathy": ["cabin"]},
        options=CoverOptions(two_actions=True),
        discard=["scooter"],
    )
    t.play("Ezra", "pair", "cash", "cash")
    assert bot_move(t, "Ezra") == "done"


def test_answers_a_penny_jar_with_the_cheapest_two_cards(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["penny_jar", "cash", "jewels"],
            "Cathy": ["piano", "piano", "gold", "silver", "cash"],
        },
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [cover_set("jewels", "jewels"), cover_set("piano", "piano")],
        },
        options=CoverOptions(penny_jar=True),
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "penny_jar")
    assert bot_move(t, "Cathy") == "counter.piano.piano"


def test_drafts_the_richest_set_on_offer(rig) -> None:
    t = rig(
        names=("Phil", "Carla"),
        turn="Phil",
        hands={
            "Phil": ["jewels", "piano", "cash", "toy_train", "scooter", "comic_books"],
            "Carla": ["cash"] * 6,
        },
        drafts=[["cash", "gold"], ["piano", "silver"], ["cash", "jewels"]],
        discard=["sport_plane"],
    )
    assert bot_move(t, "Phil") == "draft.jewels.0.1.2"


def test_challenges_a_rich_draft_it_can_fight_for(rig) -> None:
    t = rig(
        names=("Phil", "Carla"),
        turn="Phil",
        hands={
            "Phil": ["jewels", "piano", "cash", "toy_train", "scooter", "comic_books"],
            "Carla": ["jewels", "jewels", "silver", "cash", "cash", "piano"],
        },
        drafts=[["cash", "gold"], ["piano", "silver"], ["cash", "jewels"]],
    )
    t.play("Phil", "draft", "jewels", 0, 1, 2)
    assert bot_move(t, "Carla") == "challenge_draft.jewels"
