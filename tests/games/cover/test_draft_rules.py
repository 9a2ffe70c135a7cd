"""Cover Your Assets for two and three players: draft piles, drafting, turned-up actions."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.core.protocol import Action, IllegalAction, NotYourTurn
from games.cover import CoverYourAssets
from games.cover.state import CoverOptions
from games.cover.view import situation

from .conftest import cover_set

TWO = ("Phil", "Carla")
THREE = ("Ana", "Ben", "Cleo")


def test_two_player_set_up() -> None:
    game = CoverYourAssets()
    state = game.setup(CoverOptions(), TWO, seed=9)
    every = Counter(
        state.deck
        + state.discard
        + [c for p in state.players for c in p.hand]
        + [c for pile in state.drafts for c in pile]
    )
    assert every["cabin"] == 0 and every["silver"] == 6 and every["gold"] == 3
    assert sum(every.values()) == 104 - 11
    assert [len(pile) for pile in state.drafts] == [10, 10, 10]
    assert all(len(p.hand) == 6 for p in state.players)


def test_three_player_set_up_uses_the_full_deck_and_hands_of_five() -> None:
    state = CoverYourAssets().setup(CoverOptions(), THREE, seed=9)
    assert [len(pile) for pile in state.drafts] == [10, 10, 10]
    assert all(len(p.hand) == 5 for p in state.players)
    assert len(state.deck) == 104 - 30 - 15 - 1


def test_rulebook_example_1_phil_drafts_two_scooters_and_carla_lets_it_be(rig) -> None:
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["scooter", "piano"] * 3, "Carla": ["jewels"] * 6},
        drafts=[["cash", "scooter"], ["piano", "scooter"], ["cash", "toy_train"]],
    )
    assert "draft.scooter.0.1" in t.options("Phil")
    t.play("Phil", "draft", "scooter", 0, 1)
    # She holds no Scooter and no wild: her lone answer, letting it be, is played for her
    # (asked all the same in Discord, so nobody learns that from a missing ping).
    assert t.state.draft is None
    assert t.stack("Phil") == [["scooter", "scooter", "scooter"]]
    assert [pile[-1] for pile in t.state.drafts] == ["cash", "piano", "toy_train"]  # flipped
    assert t.state.turn == t.seat("Carla")


@pytest.mark.parametrize(("hand", "secret"), [(["jewels"], True), ([], False)])
def test_a_draft_answer_is_a_secret_unless_the_hand_is_empty(rig, hand, secret) -> None:
    """Asked alike whether Carla holds a Scooter or not, but an empty hand (the deck
    gone) is on the table for all to see: she is not pinged to let it be."""
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["scooter", "piano"], "Carla": hand},
        deck=[],
        drafts=[["cash", "scooter"], ["piano", "scooter"], ["cash", "toy_train"]],
    )
    t.state, _ = t.game.apply(t.state, t.seat("Phil"), Action.of("draft", "scooter", 0, 1))
    (answer,) = t.game.decisions(t.state)
    assert answer.seat == t.seat("Carla") and answer.forced is not None
    assert answer.hides_choice is secret


def test_the_table_waits_on_a_draft_in_the_buttons_words(rig) -> None:
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["scooter", "piano"], "Carla": ["scooter"]},
        drafts=[["cash", "scooter"], ["piano", "jewels"], ["cash", "toy_train"]],
    )
    t.state, _ = t.game.apply(t.state, t.seat("Phil"), Action.of("draft", "scooter", 0))
    (answer,) = t.game.decisions(t.state)
    assert [o.label for o in answer.options][-1] == "Let them have it"
    said = situation(t.game, t.game.view(t.state, None), list(TWO))
    assert said.waiting == "Waiting for **Carla**: challenge it, or let them have it?"


def test_a_draft_names_the_piles_it_takes_from(rig) -> None:
    """Two piles showing a Scooter read as two identical buttons, though which pile is
    taken decides what turns up next: each names its piles, as the table numbers them."""
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["scooter", "piano"], "Carla": ["jewels"]},
        drafts=[["cash", "scooter"], ["piano", "scooter"], ["cash", "toy_train"]],
    )
    decision = t.game.decision_for(t.state, t.seat("Phil"))
    assert decision is not None
    assert [o.label for o in decision.options if o.action.kind == "draft"] == [
        "Draft from pile 1: 🛴 Scooter + 🛴 Scooter",
        "Draft from pile 2: 🛴 Scooter + 🛴 Scooter",
        "Draft from piles 1 and 2: 🛴 Scooter + 🛴 Scooter + 🛴 Scooter",
    ]


def test_rulebook_example_2_apryl_wins_davids_drafted_jewels(rig) -> None:
    t = rig(
        names=("David", "Apryl"),
        turn="David",
        hands={
            "David": ["jewels", "piano", "piano", "cash", "cash", "toy_train"],
            "Apryl": ["jewels", "scooter", "scooter", "cash", "cash", "toy_train"],
        },
        drafts=[["cash", "sport_plane"], ["piano", "gold"], ["cash", "silver"]],
    )
    t.play("David", "draft", "jewels", 1, 2)  # Jewels with the Gold and the Silver
    t.play("Apryl", "challenge_draft", "jewels")
    assert t.state.battle is None and t.state.draft is None  # David cannot defend
    assert t.stack("Apryl") == [["silver", "gold", "jewels", "jewels"]]
    assert t.stack("David") == []
    assert t.state.turn == t.seat("Apryl")
    assert len(t.hand("Apryl")) == 6  # she drew back up after David's turn


def test_a_draft_must_form_one_set(rig) -> None:
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["gold", "piano"], "Carla": ["cash"]},
        drafts=[["silver"], ["cash"], ["toy_train"]],
    )
    options = t.options("Phil")
    assert "draft.gold.0" not in options  # two wilds are never a set
    assert "draft.piano.1" not in options  # two different assets
    assert "draft.gold.1" in options and "draft.gold.0.1" in options
    with pytest.raises(IllegalAction):
        t.play("Phil", "draft", "piano", 1, 2)


def test_three_players_draft_one_pile_at_a_time_from_their_left_or_right(rig) -> None:
    t = rig(
        names=THREE,
        turn="Ana",
        hands={n: ["piano"] * 5 for n in THREE},
        drafts=[["piano"], ["piano"], ["piano"]],
    )
    # Pile 0 lies between Ana and Ben, pile 1 between Ben and Cleo, pile 2 between Cleo and Ana.
    drafts = [o for o in t.options("Ana") if o.startswith("draft")]
    assert drafts == ["draft.piano.0", "draft.piano.2"]


def test_only_the_neighbour_beside_the_pile_may_challenge_a_draft(rig) -> None:
    t = rig(
        names=THREE,
        turn="Ana",
        hands={n: ["piano"] * 5 for n in THREE},
        drafts=[["cash", "piano"], ["piano"], ["piano"]],
    )
    t.play("Ana", "draft", "piano", 0)
    assert [d.seat for d in t.game.decisions(t.state)] == [t.seat("Ben")]
    with pytest.raises(NotYourTurn):
        t.play("Cleo", "challenge_draft", "piano")
    t.play("Ben", "challenge_draft", "piano")
    t.play("Ana", "counter", "piano")
    t.play("Ben", "concede")
    assert t.stack("Ana") == [["piano"] * 4]


def test_action_cards_turned_up_before_the_round_are_buried_mid_pile() -> None:
    game = CoverYourAssets()
    state = game.setup(CoverOptions(action_cards=True), THREE, seed=1)
    piles = [  # bottom to top
        ["piano"] * 8 + ["cash", "swap"],
        ["piano"] * 9 + ["move"],
        ["cash"] * 8 + ["swap", "move"],
    ]
    state.deck = [card for pile in reversed(piles) for card in reversed(pile)]
    game.deal_draft_piles(state, random.Random(3))
    assert [pile[-1] for pile in state.drafts] == ["cash", "piano", "cash"]
    assert all(len(pile) == 10 for pile in state.drafts)
    for pile in state.drafts:
        for position, card in enumerate(pile):
            if game.is_action(card):
                assert 3 <= position <= 6  # buried in the middle third, face down


def test_a_swap_turned_up_swaps_the_two_players_top_sets(rig) -> None:
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["piano", "cash"], "Carla": ["jewels"]},
        stacks={"Phil": [cover_set("cabin", "cabin")], "Carla": [cover_set("cash", "gold")]},
        drafts=[["toy_train", "swap", "piano"], ["jewels"], ["scooter"]],
        options=CoverOptions(action_cards=True),
    )
    t.play("Phil", "draft", "piano", 0)
    assert t.state.draft is None  # Carla, holding no Piano nor wild, let it be for her
    assert t.stack("Phil") == [["cabin", "cabin"], ["gold", "cash"]]
    assert t.stack("Carla") == [["piano", "piano"]]
    assert t.state.drafts[0] == ["toy_train"] and t.state.removed == ["swap"]
    assert t.state.turn == t.seat("Carla")  # it used nobody's turn


def test_a_swap_turned_up_goes_back_when_someone_has_no_set(rig) -> None:
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["piano", "cash"], "Carla": ["jewels"]},
        drafts=[["toy_train", "cash", "scooter", "swap", "piano"], ["jewels"], ["scooter"]],
        options=CoverOptions(action_cards=True),
    )
    t.play("Phil", "draft", "piano", 0)
    assert t.state.draft is None  # Carla, holding no Piano nor wild, let it be for her
    pile = t.state.drafts[0]
    assert sorted(pile) == ["cash", "scooter", "swap", "toy_train"] and pile[-1] != "swap"
    assert t.state.removed == []


def test_a_move_turned_up_lets_each_player_decide_for_the_other(rig) -> None:
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["piano", "cash"], "Carla": ["jewels"]},
        stacks={
            "Phil": [cover_set("cabin", "cabin"), cover_set("jewels", "jewels")],
            "Carla": [
                cover_set("cash", "gold"),
                cover_set("scooter", "scooter"),
                cover_set("toy_train", "toy_train"),
            ],
        },
        drafts=[["toy_train", "move", "piano"], ["jewels"], ["scooter"]],
        options=CoverOptions(action_cards=True),
    )
    t.play("Phil", "draft", "piano", 0)
    assert t.state.draft is None  # Carla, holding no Piano nor wild, let it be for her
    assert sorted(d.seat for d in t.game.decisions(t.state)) == [0, 1]
    t.play("Carla", "force_move", t.seat("Phil"), "bottom")
    t.play("Phil", "force_move", t.seat("Carla"), "top")
    assert [s[-1] for s in t.stack("Phil")] == ["jewels", "piano", "cabin"]
    assert [s[-1] for s in t.stack("Carla")] == ["toy_train", "cash", "scooter"]
    assert t.state.turn == t.seat("Carla") and t.state.removed == ["move"]


@pytest.mark.parametrize("one_move", [True, False])
def test_a_turned_up_move_on_a_stack_of_two_asks_nothing(rig, one_move) -> None:
    """On two sets, the top to the bottom and the bottom to the top leave the same stack:
    each player was asked to pick one of two identical outcomes. Now the one Move is
    played for them after the pause, unpinged (the stacks are on the table); a match
    begun before (``one_move_for_two_sets`` off) still asks."""
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["piano", "cash"], "Carla": ["jewels"]},
        stacks={
            "Phil": [cover_set("cabin", "cabin")],
            "Carla": [cover_set("cash", "gold"), cover_set("scooter", "scooter")],
        },
        drafts=[["toy_train", "move", "piano"], ["jewels"], ["scooter"]],
        options=CoverOptions(action_cards=True, one_move_for_two_sets=one_move),
    )
    t.state, _ = t.game.apply(t.state, t.seat("Phil"), Action.of("draft", "piano", 0))
    t.state, _ = t.game.apply(t.state, t.seat("Carla"), Action.of("accept"))
    decisions = {d.seat: d for d in t.game.decisions(t.state)}
    assert sorted(decisions) == [0, 1]
    carla = decisions[t.seat("Carla")]
    assert [o.label for o in carla.options] == (
        ["Phil's top set goes to the bottom"]
        if one_move
        else ["Phil's top set goes to the bottom", "Phil's bottom set comes to the top"]
    )
    assert (carla.forced is not None) is one_move and not carla.hides_choice


def test_a_move_card_offers_one_move_for_a_stack_of_two(rig) -> None:
    t = rig(
        hands={"Ezra": ["move", "piano"]},
        stacks={
            "Ezra": [cover_set("piano", "piano"), cover_set("cabin", "gold")],
            "Cathy": [
                cover_set("jewels", "jewels"),
                cover_set("cash", "cash"),
                cover_set("toy_train", "toy_train"),
            ],
        },
        options=CoverOptions(action_cards=True),
    )
    assert [o for o in t.options("Ezra") if o.startswith("move")] == [
        "move.0.top",
        "move.1.top",
        "move.1.bottom",
    ]


def move_pile_table(rig, pile: list[str]):  # type: ignore[no-untyped-def]
    """Phil drafts a Piano off pile 0; under it lies ``pile`` (top last). Both players hold
    three sets, so a Move turned up asks each to decide for the other."""
    t = rig(
        names=TWO,
        turn="Phil",
        hands={"Phil": ["piano", "cash"], "Carla": ["jewels"]},
        stacks={
            "Phil": [cover_set("cabin", "cabin"), cover_set("jewels", "jewels")],
            "Carla": [
                cover_set("cash", "gold"),
                cover_set("scooter", "scooter"),
                cover_set("toy_train", "toy_train"),
            ],
        },
        drafts=[[*pile, "piano"], ["jewels"], ["scooter"]],
        options=CoverOptions(action_cards=True),
    )
    t.play("Phil", "draft", "piano", 0)
    assert t.state.draft is None  # Carla, holding no Piano nor wild, let it be for her
    return t


def test_a_turned_up_move_is_settled_before_the_next_card_turns_up(rig) -> None:
    """ "When an action card is revealed during play, its effect applies immediately";
    "After the action card is resolved it is discarded from play." A Swap lying under a
    Move waits until both players have decided the Move, and then swaps the sets the Move
    left on top."""
    t = move_pile_table(rig, ["toy_train", "swap", "move"])
    assert t.state.drafts[0] == ["toy_train", "swap"]  # the Swap has not turned up yet
    assert t.stack("Phil")[-1] == ["piano", "piano"]
    t.play("Carla", "force_move", t.seat("Phil"), "top")  # Phil's Piano set to the bottom
    assert t.state.drafts[0] == ["toy_train", "swap"]  # Phil has still to decide
    t.play("Phil", "force_move", t.seat("Carla"), "bottom")  # Carla's Cash set to the top
    # Now the Swap turns up: the two top sets the Move left swap places.
    assert [s[-1] for s in t.stack("Phil")] == ["piano", "cabin", "cash"]
    assert [s[-1] for s in t.stack("Carla")] == ["scooter", "toy_train", "jewels"]
    assert t.state.drafts[0] == ["toy_train"] and t.state.removed == ["move", "swap"]
    assert t.state.turn == t.seat("Carla") and not t.state.reveals


def test_two_moves_in_a_row_are_decided_one_at_a_time(rig) -> None:
    """ "Move: The two players affected each decide whether their opponent must move their
    top set to the bottom or their bottom set to the top." "After the action card is
    resolved it is discarded from play." One Move at a time: each player decides the first,
    then the second turns up. Every decision names its own occasion, and a player's pending
    half still stands while the other decides."""
    t = move_pile_table(rig, ["toy_train", "move", "move"])
    first = {d.seat: d for d in t.game.decisions(t.state)}
    assert sorted(first) == [0, 1] and len({d.key for d in first.values()}) == 2
    assert t.state.drafts[0] == ["toy_train", "move"]
    t.play("Carla", "force_move", t.seat("Phil"), "top")
    assert t.game.decisions(t.state) == [first[t.seat("Phil")]]  # still the same decision
    t.play("Phil", "force_move", t.seat("Carla"), "top")
    second = {d.seat: d for d in t.game.decisions(t.state)}
    assert sorted(second) == [0, 1] and t.state.drafts[0] == ["toy_train"]
    assert not {d.key for d in second.values()} & {d.key for d in first.values()}
    t.play("Phil", "force_move", t.seat("Carla"), "top")
    t.play("Carla", "force_move", t.seat("Phil"), "top")
    # Each top set went to the bottom twice.
    assert [s[-1] for s in t.stack("Phil")] == ["jewels", "piano", "cabin"]
    assert [s[-1] for s in t.stack("Carla")] == ["scooter", "toy_train", "cash"]
    assert t.state.removed == ["move", "move"] and t.state.turn == t.seat("Carla")
