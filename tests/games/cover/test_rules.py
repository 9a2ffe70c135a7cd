"""One test per Cover Your Assets rule (classic), each on a rigged deck with exact outcomes."""

from __future__ import annotations

import pytest

from games import GAMES
from games.core.protocol import Action, IllegalAction, NotYourTurn
from games.cover import CoverYourAssets
from games.cover.state import CoverOptions

from .conftest import cathys_piano_set_exposed, cover_set

# --- Form a set ----------------------------------------------------------------------------


def test_form_a_set_from_two_identical_assets(rig) -> None:
    t = rig(hands={"Ezra": ["piano", "piano", "cabin", "jewels", "scooter"]}, deck=["gold", "cash"])
    t.play("Ezra", "pair", "piano", "piano")
    assert t.stack("Ezra") == [["piano", "piano"]]
    assert t.hand("Ezra") == ["jewels", "cash", "scooter", "cabin", "gold"]  # drew back to five


def test_a_wild_is_always_placed_below_the_asset(rig) -> None:
    t = rig(hands={"Ezra": ["gold", "cabin", "piano", "jewels", "scooter"]})
    t.play("Ezra", "pair", "cabin", "gold")
    assert t.stack("Ezra") == [["gold", "cabin"]]  # bottom to top


def test_a_set_may_never_be_two_wilds(rig) -> None:
    t = rig(hands={"Ezra": ["gold", "silver", "piano", "jewels", "scooter"]})
    assert "pair.gold.silver" not in t.options("Ezra")
    with pytest.raises(IllegalAction, match="never two wilds"):
        t.play("Ezra", "pair", "gold", "silver")
    assert t.hand("Ezra") == ["piano", "jewels", "scooter", "silver", "gold"]


def test_a_set_may_never_be_three_cards(rig) -> None:
    t = rig(hands={"Ezra": ["piano", "piano", "piano", "jewels", "scooter"]})
    with pytest.raises(IllegalAction):
        t.play("Ezra", "pair", "piano", "piano", "piano")
    assert t.stack("Ezra") == []


def test_two_different_assets_do_not_make_a_set(rig) -> None:
    t = rig(hands={"Ezra": ["piano", "cabin", "jewels", "scooter", "cash"]})
    with pytest.raises(IllegalAction):
        t.play("Ezra", "pair", "piano", "cabin")


def test_form_a_set_with_the_discard_pile_top(rig) -> None:
    t = rig(
        hands={"Ezra": ["cabin", "piano", "jewels", "scooter", "cash"]},
        discard=["toy_train", "cabin"],
    )
    t.play("Ezra", "take", "cabin")
    assert t.stack("Ezra") == [["cabin", "cabin"]]
    assert t.state.discard == ["toy_train"]


def test_a_wild_on_the_discard_pile_pairs_with_a_hand_asset(rig) -> None:
    t = rig(hands={"Ezra": ["cabin", "piano", "jewels", "scooter", "silver"]}, discard=["gold"])
    assert "take.silver" not in t.options("Ezra")  # never two wilds, from the pile either
    t.play("Ezra", "take", "jewels")
    assert t.stack("Ezra") == [["gold", "jewels"]]


def test_the_discard_top_must_match(rig) -> None:
    t = rig(hands={"Ezra": ["cabin", "piano", "jewels", "scooter", "cash"]}, discard=["toy_train"])
    with pytest.raises(IllegalAction):
        t.play("Ezra", "take", "cabin")


def test_new_sets_are_never_combined_with_earlier_sets(rig) -> None:
    t = rig(
        hands={"Ezra": ["piano", "piano", "jewels", "scooter", "cash"]},
        stacks={"Ezra": [cover_set("piano", "piano")]},
    )
    t.play("Ezra", "pair", "piano", "piano")
    assert t.stack("Ezra") == [["piano", "piano"], ["piano", "piano"]]


# --- Discard -------------------------------------------------------------------------------


def test_discard_puts_a_card_face_up_on_the_discard_pile(rig) -> None:
    t = rig(hands={"Ezra": ["cabin", "piano", "jewels", "scooter", "cash"]}, deck=["gold"])
    t.play("Ezra", "discard", "cabin")
    assert t.state.discard[-1] == "cabin"
    assert "Ezra discarded 🛖 Cabin." in t.public_log()
    assert t.hand("Ezra") == ["piano", "jewels", "cash", "scooter", "gold"]


def test_you_cannot_discard_a_card_you_do_not_hold(rig) -> None:
    t = rig(hands={"Ezra": ["cabin", "piano", "jewels", "scooter", "cash"]})
    with pytest.raises(IllegalAction, match="You don't hold 🥇 Gold"):
        t.play("Ezra", "discard", "gold")


# --- Challenge -----------------------------------------------------------------------------


def test_the_rulebook_example_ezra_takes_cathys_auto_set(rig) -> None:
    """Ezra challenges with an Auto, Cathy answers Gold, Ezra an Auto, Cathy cannot."""
    t = rig(
        hands={
            "Ezra": ["classic_auto", "classic_auto", "piano", "jewels", "cash"],
            "Cathy": ["gold", "piano", "toy_train", "cash", "jewels"],
        },
        stacks={
            "Ezra": [cover_set("cabin", "cabin")],
            "Cathy": [cover_set("piano", "piano"), cover_set("classic_auto", "silver")],
        },
        deck=["toy_train", "toy_train", "scooter", "scooter"],
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "classic_auto")
    t.play("Cathy", "counter", "gold")
    t.play("Ezra", "counter", "classic_auto")
    # Cathy holds no Auto and no wild: she lets the set go, her lone answer played for her
    # (the rig answers it as the bot driver does), in words a choice would use.
    assert t.state.battle is None
    assert t.stack("Ezra") == [
        ["cabin", "cabin"],
        ["silver", "gold", "classic_auto", "classic_auto", "classic_auto"],
    ]
    assert t.stack("Cathy") == [["piano", "piano"]]
    assert "Cathy let the set go." in t.public_log()
    assert "Ezra stole the Classic Auto set (5 cards, $120,000)." in t.public_log()


def test_a_side_with_no_answer_is_asked_as_one_with_a_choice_would_be(rig) -> None:
    """Settled at once, the table learnt Cathy held no Auto, Gold or Silver: she is asked
    all the same, pinged and waited for (``hides_choice``), with letting go her one answer.
    A match stored before this rule (``ask_unanswerable`` off) settles as it did."""
    hands = {
        "Ezra": ["classic_auto", "piano", "jewels", "cash", "cash"],
        "Cathy": ["piano", "toy_train", "cash", "jewels", "jewels"],
    }
    stacks = {
        "Ezra": [cover_set("cabin", "cabin")],
        "Cathy": [cover_set("piano", "piano"), cover_set("classic_auto", "classic_auto")],
    }
    t = rig(hands=hands, stacks=stacks)
    t.state, _ = t.game.apply(t.state, t.seat("Ezra"), Action.of("challenge", 1, "classic_auto"))
    (decision,) = t.game.decisions(t.state)
    assert decision.seat == t.seat("Cathy") and decision.hides_choice
    assert [o.label for o in decision.options] == ["Let it go"]
    assert decision.forced == Action.of("concede")
    t.state, events = t.game.apply(t.state, t.seat("Cathy"), Action.of("concede"))
    said = [e.text for e in events if e.visible_to is None]
    assert said[0] == "Cathy let the set go." and not any("cannot" in s for s in said)

    old = rig(hands=hands, stacks=stacks, options=CoverOptions(ask_unanswerable=False))
    events = old.play("Ezra", "challenge", old.seat("Cathy"), "classic_auto")
    assert old.state.battle is None
    assert "Cathy cannot answer." in [e.text for e in events]


def test_challenger_and_defender_alternate_until_one_gives_up(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "piano", "silver", "cash", "jewels"],
            "Cathy": ["piano", "gold", "cash", "jewels", "scooter"],
        },
        stacks=cathys_piano_set_exposed(),
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "piano")
    assert t.options("Cathy") == ["counter.piano", "counter.gold", "concede"]
    with pytest.raises(NotYourTurn):
        t.play("Ezra", "counter", "piano")  # it is Cathy who must answer
    t.play("Cathy", "counter", "piano")
    assert t.options("Ezra") == ["counter.piano", "counter.silver", "concede"]
    t.play("Ezra", "counter", "silver")
    t.play("Cathy", "counter", "gold")
    t.play("Ezra", "concede")
    # The defender wins and keeps every card used in the battle.
    assert t.stack("Cathy")[-1] == ["silver", "gold", "piano", "piano", "piano", "piano"]
    assert t.stack("Ezra") == [["cabin", "cabin"]]


def test_the_defender_may_let_the_set_go(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "cash", "cash", "jewels", "jewels"],
            "Cathy": ["gold", "cash", "jewels", "scooter", "scooter"],
        },
        stacks=cathys_piano_set_exposed(),
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "piano")
    t.play("Cathy", "concede")
    assert t.stack("Ezra")[-1] == ["piano", "piano", "piano"]
    assert t.hand("Cathy") == ["jewels", "cash", "scooter", "scooter", "gold"]  # kept her Gold


def test_a_wild_can_challenge_any_set(rig) -> None:
    t = rig(
        hands={"Ezra": ["gold", "cash", "cash", "jewels", "jewels"], "Cathy": ["scooter"] * 5},
        stacks=cathys_piano_set_exposed(),
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "gold")
    assert t.stack("Ezra")[-1] == ["gold", "piano", "piano"]


def test_a_challenge_must_match_the_set(rig) -> None:
    t = rig(
        hands={"Ezra": ["cash", "cash", "jewels", "jewels", "scooter"]},
        stacks=cathys_piano_set_exposed(),
    )
    with pytest.raises(IllegalAction):
        t.play("Ezra", "challenge", t.seat("Cathy"), "cash")


def test_the_first_bottom_set_is_safe(rig) -> None:
    t = rig(
        hands={"Ezra": ["piano", "cabin", "jewels", "jewels", "scooter"]},
        stacks={"Ezra": [cover_set("cash", "cash")], "Cathy": [cover_set("piano", "piano")]},
    )
    assert not [o for o in t.options("Ezra") if o.startswith("challenge")]
    with pytest.raises(IllegalAction):
        t.play("Ezra", "challenge", t.seat("Cathy"), "piano")


def test_you_must_form_a_set_before_stealing(rig) -> None:
    t = rig(
        hands={"Ezra": ["piano", "cabin", "jewels", "jewels", "scooter"]},
        stacks={"Cathy": [cover_set("cash", "cash"), cover_set("piano", "piano")]},
    )
    assert not [o for o in t.options("Ezra") if o.startswith("challenge")]
    with pytest.raises(IllegalAction, match="form at least one set"):
        t.play("Ezra", "challenge", t.seat("Cathy"), "piano")


def test_nobody_draws_during_a_challenge(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "piano", "jewels", "jewels", "scooter"],
            "Cathy": ["piano", "cash", "jewels", "scooter", "scooter"],
        },
        stacks=cathys_piano_set_exposed(),
    )
    deck = list(t.state.deck)
    t.play("Ezra", "challenge", t.seat("Cathy"), "piano")
    t.play("Cathy", "counter", "piano")
    assert t.state.deck == deck
    assert len(t.hand("Ezra")) == 4 and len(t.hand("Cathy")) == 4


def test_the_defender_draws_back_to_five_after_the_challengers_turn(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "piano", "jewels", "jewels", "scooter"],
            "Cathy": ["piano", "cash", "jewels", "scooter", "scooter"],
        },
        stacks=cathys_piano_set_exposed(),
        deck=["cabin", "gold", "silver", "toy_train"],  # top is last: Ezra gets these first
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "piano")
    t.play("Cathy", "counter", "piano")
    t.play("Ezra", "counter", "piano")
    # Cathy cannot answer; Ezra draws his two, then Cathy draws her one.
    assert sorted(t.hand("Ezra")) == sorted(["jewels", "jewels", "scooter", "toy_train", "silver"])
    assert sorted(t.hand("Cathy")) == sorted(["cash", "jewels", "scooter", "scooter", "gold"])
    assert t.state.deck == ["cabin"]
    assert t.state.turn == t.seat("Cathy")


def test_a_defender_who_played_no_card_does_not_draw(rig) -> None:
    t = rig(
        hands={
            "Ezra": ["piano", "piano", "jewels", "jewels", "scooter"],
            "Cathy": ["gold", "cash", "jewels", "scooter"],
        },
        stacks=cathys_piano_set_exposed(),
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "piano")
    t.play("Cathy", "concede")
    assert len(t.hand("Cathy")) == 4


# --- Turn order, the play-out, scoring -----------------------------------------------------


def test_the_player_left_of_the_dealer_starts_and_play_passes_left(rig) -> None:
    t = rig(hands={n: ["cash"] * 5 for n in ("Ezra", "Cathy", "Phil", "Carla")})
    game, state = t.game, t.game.setup(CoverOptions(), ("A", "B", "C", "D"), seed=5)
    assert state.turn == (state.dealer + 1) % 4
    assert all(len(p.hand) == 5 for p in state.players) and len(state.discard) == 1
    assert len(state.deck) == 104 - 4 * 5 - 1
    t.play("Ezra", "discard", "cash")
    assert t.state.turn == t.seat("Cathy")
    assert game.decisions(t.state)[0].seat == t.seat("Cathy")


def test_out_of_turn_moves_are_refused(rig) -> None:
    t = rig(hands={"Ezra": ["cash"] * 5, "Cathy": ["cash"] * 5})
    with pytest.raises(NotYourTurn):
        t.play("Cathy", "discard", "cash")


def test_when_the_deck_is_gone_play_continues_until_every_hand_is_empty(rig) -> None:
    t = rig(
        hands={"Ezra": ["piano", "cash"], "Cathy": [], "Phil": ["cabin"], "Carla": []},
        stacks={"Ezra": [cover_set("jewels", "jewels")], "Cathy": [cover_set("cabin", "gold")]},
        deck=[],
        discard=["scooter"],
    )
    decision = t.game.decision_for(t.state, t.seat("Ezra"))
    assert {o.action.kind for o in decision.options} == {"discard"}  # no passing: discard
    t.play("Ezra", "discard", "piano")
    assert t.state.turn == t.seat("Phil")  # Cathy has no cards and sits out
    t.play("Phil", "discard", "cabin")
    assert t.state.turn == t.seat("Ezra")
    t.play("Ezra", "discard", "cash")
    assert t.state.rounds[0].scores == [20_000, 70_000, 0, 0]  # the round ended and scored
    assert t.state.round == 2


def test_a_player_with_an_empty_hand_can_still_lose_their_top_set(rig) -> None:
    t = rig(
        hands={"Ezra": ["piano", "cash"], "Cathy": []},
        stacks={
            "Ezra": [cover_set("jewels", "jewels")],
            "Cathy": [cover_set("cabin", "gold"), cover_set("piano", "piano")],
        },
        deck=[],
    )
    t.play("Ezra", "challenge", t.seat("Cathy"), "piano")
    assert t.stack("Ezra")[-1] == ["piano", "piano", "piano"]


def test_scoring_adds_up_every_card_in_a_stack(rig) -> None:
    t = rig(
        hands={"Ezra": ["cash"]},
        stacks={
            "Ezra": [cover_set("jewels", "jewels"), cover_set("cabin", "gold", "cabin")],
            "Cathy": [cover_set("piano", "silver")],
            "Phil": [cover_set("scooter", "scooter")],
        },
        deck=[],
        options=CoverOptions(end_mode="quick"),
    )
    t.play("Ezra", "discard", "cash")
    assert t.state.rounds[0].scores == [20_000 + 90_000, 30_000, 30_000, 0]
    outcome = t.game.outcome(t.state)
    assert outcome.winners == [t.seat("Ezra")]
    assert [(p.seat, p.place) for p in outcome.placements] == [(0, 1), (1, 2), (2, 2), (3, 4)]


# --- Ending the game -----------------------------------------------------------------------


def last_card_of_the_round(rig, mode: str, totals: list[int], ezra_set: tuple[str, ...]):
    return rig(
        hands={"Ezra": ["cash"]},
        stacks={"Ezra": [cover_set(*ezra_set)], "Cathy": [cover_set("piano", "piano")]},
        deck=[],
        options=CoverOptions(end_mode=mode),
        totals=totals,
    )


def test_quick_game_ends_after_one_round(rig) -> None:
    t = last_card_of_the_round(rig, "quick", [0, 0, 0, 0], ("cabin", "cabin"))
    t.play("Ezra", "discard", "cash")
    assert t.state.end_reason == "Quick game: Ezra scored highest."


def test_classic_game_plays_rounds_until_someone_passes_a_million(rig) -> None:
    t = last_card_of_the_round(rig, "classic", [950_000, 980_000, 0, 0], ("cabin", "cabin"))
    t.play("Ezra", "discard", "cash")
    assert t.state.end_reason is None and t.state.round == 2
    assert t.state.totals == [990_000, 990_000, 0, 0]
    assert all(len(p.hand) == 5 for p in t.state.players) and t.state.players[0].stack == []


def test_reaching_exactly_a_million_passes_it(rig) -> None:
    t = last_card_of_the_round(rig, "classic", [0, 990_000, 0, 0], ("cabin", "cabin"))
    t.play("Ezra", "discard", "cash")
    assert t.state.end_reason == "Cathy passed $1,000,000 with $1,000,000."


def test_classic_game_ends_when_a_total_passes_a_million(rig) -> None:
    t = last_card_of_the_round(rig, "classic", [980_000, 0, 0, 0], ("cabin", "cabin"))
    t.play("Ezra", "discard", "cash")
    assert t.state.end_reason == "Ezra passed $1,000,000 with $1,020,000."
    assert t.game.outcome(t.state).winners == [0]
    assert t.game.decisions(t.state) == []


def test_highest_total_after_three_rounds(rig) -> None:
    t = last_card_of_the_round(rig, "highest_after_3", [100_000, 300_000, 0, 0], ("piano", "piano"))
    t.play("Ezra", "discard", "cash")
    assert t.state.end_reason is None
    t = last_card_of_the_round(rig, "highest_after_3", [100_000, 300_000, 0, 0], ("piano", "piano"))
    t.state.round = 3
    t.play("Ezra", "discard", "cash")
    assert t.state.end_reason == "After 3 rounds, Cathy has the highest total: $310,000."


def test_first_to_win_two_rounds(rig) -> None:
    t = last_card_of_the_round(rig, "first_to_2", [0, 0, 0, 0], ("cabin", "cabin"))
    t.state.round_wins = [1, 1, 0, 0]
    t.play("Ezra", "discard", "cash")
    assert t.state.round_wins == [2, 1, 0, 0]
    assert t.state.end_reason == "Ezra won 2 rounds first."


def test_first_to_two_rounds_counts_a_tied_round_for_everyone_tied(rig) -> None:
    t = last_card_of_the_round(rig, "first_to_2", [0, 0, 0, 0], ("piano", "piano"))
    t.state.round_wins = [0, 1, 0, 0]
    t.play("Ezra", "discard", "cash")  # Ezra and Cathy tie the round with $10,000
    assert t.state.round_wins == [1, 2, 0, 0]
    assert t.state.end_reason == "Cathy won 2 rounds first."


def test_a_drawn_card_is_seen_only_by_its_drawer(rig) -> None:
    t = rig(hands={"Ezra": ["cash"] * 5}, deck=["gold"])
    events = t.play("Ezra", "discard", "cash")
    private = [e for e in events if e.visible_to is not None]
    assert [(e.text, set(e.visible_to)) for e in private] == [("You drew 🥇 Gold.", {0})]
    assert all("Gold" not in e.text for e in events if e.visible_to is None)


def test_actions_have_an_exact_text_form() -> None:
    action = Action.of("challenge", 2, "gold")
    assert action.encode() == "challenge.2.gold"
    assert Action.decode("challenge.2.gold") == action
    with pytest.raises(IllegalAction):
        Action.decode("challenge.2.<gold>")


def test_an_export_written_before_the_rule_replays_under_the_rule_it_was_played_by() -> None:
    """A file exported before a side with no answer was asked holds no word of it: read
    as the old rule (``"before"``), its log replays to the state it was played to."""
    import random

    from games.core import contract
    from games.core.replay import ExportedAction, ExportedSeat, MatchExport, final_state

    game = CoverYourAssets()
    names = ["Ana", "Ben", "Cleo"]
    for seed in range(40):
        rng = random.Random(seed)
        options = CoverOptions(ask_unanswerable=False)
        state = game.setup(options, names, seed)
        logged, settled = [], False
        for _ in range(400):
            if game.outcome(state) is not None or settled:
                break
            decision = game.decisions(state)[0]
            action = contract.random_pick(decision, rng)
            state, events = game.apply(state, decision.seat, action)
            logged.append(
                ExportedAction(seq=len(logged), seat=decision.seat, action=action.encode())
            )
            settled = any(e.text.endswith("cannot answer.") for e in events)
        if settled:
            break
    assert settled, "no unanswerable challenge in 40 seeds"
    written = options.model_dump()
    del written["ask_unanswerable"]  # as the old code exported it
    export = MatchExport(
        game=game.key,
        options=written,
        seed=seed,
        seats=[ExportedSeat(seat=i, name=n) for i, n in enumerate(names)],
        actions=logged,
        status="active",
    )
    assert final_state(game, export).model_dump_json() == state.model_dump_json()


@pytest.mark.parametrize("key", ["cover_your_assets", "cover_your_cookies"])
def test_the_rules_say_a_side_with_no_answer_is_asked_all_the_same(key: str) -> None:
    """/rules once said such a side 'loses it at once': since ask_unanswerable its lone
    answer waits for the pause, as a player with no matching card sees it happen."""
    rules = GAMES[key].rulebook()
    assert "at once (they could not respond)" not in rules
    assert "asked all the same: their only answer" in " ".join(rules.split())
