"""Every rule and card of cookie-chomper.txt on rigged tables."""

from __future__ import annotations

import pytest

from games.chomper.state import COOKIE, GOLDEN, POISON
from games.core.protocol import IllegalAction

from .conftest import Table

ABC = ("Ana", "Ben", "Cleo")


def table(ana: list[str], ben: list[str], cleo: list[str], **kw: object) -> Table:
    return Table({"Ana": ana, "Ben": ben, "Cleo": cleo}, **kw)


def test_the_produced_number_example_2_add_3_multiply_5_is_25() -> None:
    t = table(["2", "add", "3"], ["multiply", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "play", "add", "3", 3)
    assert t.number() == 5 and t.deciding() == "Ana"  # she keeps the window after playing
    t.play("Ana", "pass")
    t.play("Ben", "play", "multiply", "5", 5)
    assert t.number() == 25
    table_text = t.game.panels(t.game.view(t.state, None)).table.as_text()
    assert "2 → +3 = 5 → ×5 = 25" in table_text
    t.passes("Ben", "Cleo", "Ana")
    assert len(t.state.stack) == 40 - 25 and "🍪 Ana takes 25 from the Stack." in t.public_log()
    assert t.deciding() == "Ben"  # the turn passed clockwise
    assert [len(h) for h in t.state.hands] == [3, 3, 3]  # everyone drew back up


def test_the_modifier_round_ends_when_everyone_has_passed_in_a_row() -> None:
    t = table(["2", "double", "1"], ["negate", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "2", 2)
    t.passes("Ana", "Ben")
    t.play("Cleo", "pass")
    assert t.state.queue == [] and len(t.state.stack) == 38  # settled: Ana took 2


def test_taking_the_poison_puts_you_out_and_the_stack_is_rebuilt() -> None:
    t = table(["3", "0", "1"], ["1", "2", "4"], ["0", "1", "2"], stack=[COOKIE, COOKIE, POISON])
    t.play("Ana", "number", "3", 3)
    t.passes("Ana", "Ben", "Cleo")
    assert t.state.out == [True, False, False] and t.state.hands[0] == []
    assert "☠️ Ana takes the poison cookie and is out!" in t.public_log()
    assert t.state.stack == [COOKIE] * 39 + [POISON]
    assert t.deciding() == "Ben"


def test_last_player_standing_wins() -> None:
    t = Table({"Ana": ["5", "0", "1"], "Ben": ["1", "2", "4"]}, stack=[COOKIE, POISON])
    t.play("Ana", "number", "5", 5)
    t.passes("Ana", "Ben")
    outcome = t.game.outcome(t.state)
    assert outcome is not None and outcome.winners == [1]
    assert outcome.reason == "Ben is the last player standing."


def test_a_number_larger_than_the_stack_takes_all_of_it() -> None:
    t = Table(
        {"Ana": ["5", "double", "1"], "Ben": ["1", "2", "4"]},
        stack=[COOKIE] * 3 + [GOLDEN],
        mode="golden",
    )
    t.play("Ana", "number", "5", 5)
    t.play("Ana", "play", "double")
    t.passes("Ana", "Ben")
    assert t.game.outcome(t.state).winners == [0]  # the Golden Cookie wins
    assert "🌟 Ana takes the Golden Cookie and wins!" in t.public_log()


def test_copy_copies_the_last_card_played() -> None:
    t = table(["3", "double", "1"], ["copy", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "3", 3)
    t.play("Ana", "play", "double")
    t.play("Ana", "pass")
    assert "play.copy" in t.options("Ben")
    t.play("Ben", "play", "copy")
    assert t.number() == 12


def test_negate_then_reverse_takes_2_as_in_the_rulebook() -> None:
    t = table(["2", "negate", "1"], ["reverse", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "play", "negate")
    assert t.number() == -2
    t.play("Ana", "pass")
    t.play("Ben", "play", "reverse")
    assert t.number() == 2
    t.passes("Ben", "Cleo", "Ana")
    assert len(t.state.stack) == 38


def test_negative_numbers_give_cookies_back_and_reverse_gives_instead_of_taking() -> None:
    t = table(["3", "reverse", "1"], ["5", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "3", 3)
    t.play("Ana", "play", "reverse")
    t.passes("Ana", "Ben", "Cleo")
    assert (
        len(t.state.stack) == 43 and "🍪 Ana gives 3 cookies back to the Stack." in t.public_log()
    )


@pytest.mark.parametrize(
    ("card", "choices"),
    [("0", ["1", "2", "3", "4", "5"]), ("12345", ["0"]), ("13", ["2", "4", "5"])],
)
def test_opposites_inverts_the_choices_of_a_number_card(card: str, choices: list[str]) -> None:
    t = table([card, "0", "1"], ["opposites", "5", "1"], ["0", "1", "2"])
    first = card[0]
    t.play("Ana", "number", card, first)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "opposites", 0)
    assert t.deciding() == "Ana"  # the card's owner must choose again, at once
    offered = [o.split(".")[1] for o in t.options("Ana")]
    assert offered == choices
    t.play("Ana", "choose", choices[-1])
    assert t.number() == int(choices[-1]) and t.deciding() == "Ben"


def test_opposites_does_not_touch_roll_and_think_again_rerolls_it() -> None:
    """Roll: "Note the card 'Opposites' does not affect this card, but the card 'Think
    Again!' causes a reroll." """
    t = table(["roll", "0", "1"], ["opposites", "again", "1"], ["0", "1", "2"])
    t.play("Ana", "roll")
    t.play("Ana", "pass")
    assert not any(o.startswith("aim.opposites") for o in t.options("Ben"))
    assert "aim.again.0" in t.options("Ben")  # Think Again! rerolls a Roll


def test_think_again_on_a_card_with_one_option_has_no_effect() -> None:
    """Think Again!: "If the played card does not have 2 or more options, then 'Think
    Again!' has no effect." It may be played; the card keeps its number and the Think
    Again! goes to the Played Cards Pile with the rest."""
    t = table(["4", "0", "1"], ["again", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "4", 4)
    t.play("Ana", "pass")
    assert "aim.again.0" in t.options("Ben")
    t.play("Ben", "aim", "again", 0)
    assert t.state.redo is None and t.number() == 4 and "again" not in t.state.hands[1]
    assert "🤔 It has no effect: that card had only one choice." in t.public_log()
    t.passes("Ben", "Cleo", "Ana")
    assert len(t.state.stack) == 40 - 4 and sorted(t.state.played) == ["4", "again"]


def test_roll_produces_0_to_5_and_think_again_rolls_again() -> None:
    t = table(["roll", "0", "1"], ["again", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "roll")
    first = t.state.queue[0].choice
    assert 0 <= first <= 5
    t.play("Ana", "pass")
    t.play("Ben", "aim", "again", 0)
    assert 0 <= t.state.queue[0].choice <= 5
    assert any(line.startswith("🎲 Rolled again") for line in t.public_log())


def test_think_again_forces_a_different_number() -> None:
    t = table(["135", "0", "1"], ["again", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "135", 5)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "again", 0)
    assert t.options("Ana") == ["choose.1", "choose.3"]
    with pytest.raises(IllegalAction):
        t.play("Ana", "choose", 5)
    t.play("Ana", "choose", 1)
    assert t.number() == 1


def test_seek_takes_a_public_card_from_the_pile_and_restarts_the_turn() -> None:
    t = table(["seek", "0", "1"], ["again", "5", "1"], ["0", "1", "2"], played=["double", "veto"])
    assert t.options("Ana")[:2] == ["seek.double", "seek.veto"]  # the pile is public
    t.play("Ana", "seek", "veto")
    assert "🔍 Ana plays Seek and picks 🚫 Veto." in t.public_log()
    t.play("Ana", "pass")
    t.play("Ben", "aim", "again", 0)  # Think Again! forces another pick
    assert t.options("Ana") == ["choose.double"]
    t.play("Ana", "choose", "double")
    t.passes("Ben", "Cleo", "Ana")
    assert "double" in t.state.hands[0] and t.deciding() == "Ana"  # her turn restarts
    assert t.state.phase == "main" and "seek" in t.state.played


def test_seek_on_an_empty_pile_draws() -> None:
    t = table(["seek", "0", "1"], ["5", "5", "1"], ["0", "1", "2"], deck=["4"])
    assert t.options("Ana")[0] == "seek"
    t.play("Ana", "seek")
    t.passes("Ana", "Ben", "Cleo")
    assert "4" in t.state.hands[0] and t.deciding() == "Ana"


def test_skip_is_its_owners_only_card_and_passes_the_turn() -> None:
    t = table(["skip", "double", "1"], ["veto", "double", "1"], ["0", "1", "2"])
    t.play("Ana", "skip")
    assert t.options("Ana") == ["pass"]  # Skip must be the only card she plays
    t.play("Ana", "pass")
    assert t.options("Ben") == ["pass", "aim.veto.0"]  # only a Veto touches a Skip
    t.passes("Ben", "Cleo")
    assert len(t.state.stack) == 40 and t.deciding() == "Ben" and len(t.state.hands[0]) == 3


def test_skip_seek_and_mulligan_make_no_number_and_the_round_says_so() -> None:
    """ "Skip does not produce a number, so it is not equivalent to Zero": the round's
    question and the table say what the card does instead of "the number is 0", and an
    Add played on a Seek does not show a number of cookies to take."""
    t = table(["skip", "double", "1"], ["veto", "double", "1"], ["0", "1", "2"])
    t.play("Ana", "skip")
    t.play("Ana", "pass")
    ben = t.game.decision_for(t.state, t.seat("Ben"))
    assert ben.prompt == "Play a modifier or pass (Skip makes no number: no cookies are taken)."
    shown = t.game.panels(t.game.view(t.state, None)).table.as_text()
    assert "**Skip makes no number: no cookies are taken**" in shown and "Number: 0" not in shown
    t = table(["seek", "0", "1"], ["add", "3", "1"], ["0", "1", "2"], deck=["4"])
    t.play("Ana", "seek")
    t.play("Ana", "pass")
    t.play("Ben", "play", "add", "3", 3)
    ben = t.game.decision_for(t.state, t.seat("Ben"))
    assert ben.prompt == "Play a modifier or pass (Seek makes no number: the turn starts again)."
    shown = t.game.panels(t.game.view(t.state, None)).table.as_text()
    assert "Number: 3" not in shown and "Seek makes no number" in shown


def test_veto_returns_the_card_and_its_number_card_and_bars_them_this_turn() -> None:
    t = table(["2", "add", "3"], ["veto", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "play", "add", "3", 3)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "veto", 1)
    assert t.number() == 2 and sorted(t.state.hands[0]) == ["3", "add"]
    assert t.state.barred[0] == ["add", "3"]
    t.passes("Ben", "Cleo")
    assert "play.add.3.3" not in t.options("Ana")  # cannot be played again this turn


def test_vetoing_the_main_card_makes_the_active_player_play_another_or_mulligan() -> None:
    t = table(["2", "4", "1"], ["veto", "5", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "veto", 0)
    assert t.deciding() == "Ana" and "number.2.2" not in t.options("Ana")
    t.play("Ana", "number", "4", 4)
    assert t.number() == 4
    stuck = table(["2", "double", "negate"], ["veto", "5", "1"], ["0", "1", "2"], deck=["0"] * 5)
    stuck.play("Ana", "number", "2", 2)
    stuck.play("Ana", "pass")
    stuck.play("Ben", "aim", "veto", 0)
    assert stuck.options("Ana") == ["mulligan.forced"]  # nothing else she may play
    stuck.play("Ana", "mulligan", "forced")
    assert stuck.state.hands[0] == ["0", "0", "0"] and stuck.deciding() == "Ana"
    assert {"2", "double", "negate"} <= set(stuck.state.played)


def test_the_mulligan_card_draws_a_new_hand_and_restarts_the_turn() -> None:
    t = table(["mulligan", "double", "negate"], ["5", "5", "1"], ["0", "1", "2"], deck=["3"] * 5)
    t.play("Ana", "mulligan")
    t.passes("Ana", "Ben", "Cleo")
    assert t.state.hands[0] == ["3", "3", "3"] and t.deciding() == "Ana"


def test_a_player_who_cannot_play_must_mulligan() -> None:
    t = table(["double", "negate", "veto"], ["5", "5", "1"], ["0", "1", "2"], deck=["3"] * 5)
    assert t.options("Ana") == ["mulligan.forced"]


def test_an_empty_deck_is_made_anew_from_the_played_pile() -> None:
    t = table(["2", "0", "1"], ["5", "5", "1"], ["0", "1", "2"], deck=[], played=["4", "4"])
    t.play("Ana", "number", "2", 2)
    t.passes("Ana", "Ben", "Cleo")
    # The pile (two 4s, and the 2 just settled) became the deck; Ana drew one of them.
    assert len(t.state.hands[0]) == 3 and t.state.hands[0][2] in ("2", "4")
    assert t.state.played == [] and sorted([*t.state.deck, t.state.hands[0][2]]) == ["2", "4", "4"]


def test_flip_turns_the_stack_over_before_taking() -> None:
    stack = [COOKIE] * 3 + [POISON] + [COOKIE] * 3
    t = table(["1", "flip", "0"], ["5", "5", "1"], ["0", "1", "2"], stack=stack, mode="middle")
    t.play("Ana", "number", "1", 1)
    t.play("Ana", "play", "flip")
    t.passes("Ana", "Ben", "Cleo")
    assert len(t.state.stack) == 6 and t.state.out == [False] * 3


def test_cookie_hoarder_bandits_steal_and_the_scores_count() -> None:
    t = table(
        ["3", "0", "1"],
        ["2", "5", "1"],
        ["0", "1", "2"],
        stack=[COOKIE, COOKIE, "b1", GOLDEN, POISON],
        mode="hoarder",
    )
    t.play("Ana", "number", "3", 3)
    t.passes("Ana", "Ben", "Cleo")
    assert t.state.piles[0] == [COOKIE] and t.state.bandit_pile == 1
    t.play("Ben", "number", "2", 2)
    t.passes("Ben", "Cleo", "Ana")
    outcome = t.game.outcome(t.state)
    assert outcome is not None  # the Stack is empty
    assert [p.score for p in sorted(outcome.placements, key=lambda p: p.seat)] == [1, 0, 0]


def test_cookie_hoarder_gives_back_from_your_own_pile_never_below_zero() -> None:
    t = table(
        ["2", "negate", "1"], ["5", "5", "1"], ["0", "1", "2"], stack=[COOKIE] * 5, mode="hoarder"
    )
    t.state.piles[0] = [COOKIE]
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "play", "negate")
    t.passes("Ana", "Ben", "Cleo")
    assert t.state.piles[0] == [] and len(t.state.stack) == 6


def test_number_chain_draws_per_new_number_and_empty_hand_wins() -> None:
    t = Table({"Ana": ["12", "3"], "Ben": ["0", "45"]}, deck=["5", "4"], mode="chain")
    t.state.phase, t.state.chain_top = "chain", "1"
    t.play("Ana", "chain", "12")  # 2 is new: draw one
    assert sorted(t.state.hands[0]) == ["3", "4"]
    t.play("Ben", "chain", "0")  # 0 is new: draw one (the last)
    assert sorted(t.state.hands[1]) == ["45", "5"]
    t.play("Ana", "chain", "3")  # 3 is new, but the deck is dry: the game ends
    outcome = t.game.outcome(t.state)
    assert outcome is not None and outcome.winners == [0]
    assert outcome.reason == "The deck ran dry: Ana held the fewest cards (1)."


def test_number_chain_emptying_your_hand_wins() -> None:
    t = Table({"Ana": ["12"], "Ben": ["0", "45"]}, deck=["5"], mode="chain")
    t.state.phase, t.state.chain_top = "chain", "12345"
    t.play("Ana", "chain", "12")
    outcome = t.game.outcome(t.state)
    assert outcome.winners == [0] and outcome.reason == "Ana emptied their hand."


def test_the_bot_avoids_the_poison_and_vetoes_what_would_poison_it() -> None:
    t = Table({"Ana": ["5", "2", "veto"], "Ben": ["add", "3", "1"]}, stack=[COOKIE] * 4 + [POISON])
    seat = t.seat("Ana")
    assert t.game.bot_action(t.state, seat).encode() == "number.2.2"  # 5 would poison her
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "pass")
    ben = t.game.bot_action(t.state, t.seat("Ben"))
    assert ben.encode() == "play.add.3.3"  # 2 + 3 = 5 reaches the poison
    t.play("Ben", "play", "add", "3", 3)
    t.play("Ben", "pass")
    assert t.game.bot_action(t.state, seat).encode() == "aim.veto.1"


def test_seek_starts_a_turn_again_at_most_three_times_then_it_is_mulligan() -> None:
    # Ben can open only with Seek, and the pile holds only a Copy: Seek takes the Copy, the
    # Copy (as Seek) takes the Seek back, and so on for ever (a bot match never ended so).
    t = Table(
        {"Ana": ["1", "2", "3"], "Ben": ["opposites", "veto", "seek"]},
        played=["copy"],
        turn="Ben",
    )
    for seek in ("seek.copy", "copy.seek.seek", "seek.copy"):
        assert t.options("Ben") == [seek]
        t.play("Ben", *seek.split("."))
        t.passes("Ben", "Ana")
    assert t.state.seeks == 3 and t.public_log().count("Ben's turn starts again.") == 3
    assert t.state.hands[t.seat("Ben")] == ["opposites", "veto", "copy"]
    assert t.options("Ben") == ["mulligan.forced"]  # the Copy may no longer act as Seek
    t.play("Ben", "mulligan", "forced")  # the deck holds only 0s: a new hand of them
    assert t.state.hands[t.seat("Ben")] == ["0", "0", "0"] and t.options("Ben") == ["number.0.0"]
    assert t.state.seeks == 3  # a Mulligan is no Seek
    while t.state.turn == t.seat("Ben"):
        decision = t.game.decisions(t.state)[0]
        action = t.game.bot_action(t.state, decision.seat)
        t.play(t.state.names[decision.seat], action.kind, *action.args)
    assert t.state.seeks == 0  # Ana's turn counts its own


def test_the_bot_seeks_while_it_may_then_finds_the_safe_play() -> None:
    # Only the poison is left: the bot tries Seek three times, then plays 3 with Reverse.
    t = Table(
        {"Ana": ["reverse", "34", "copy"], "Ben": ["1", "2", "3"]}, stack=[POISON], played=["seek"]
    )
    played = []
    while t.state.turn == t.seat("Ana") and len(played) < 30:
        decision = t.game.decisions(t.state)[0]
        action = t.game.bot_action(t.state, decision.seat)
        played.append((t.state.names[decision.seat], action.encode()))
        t.play(t.state.names[decision.seat], action.kind, *action.args)
    seeks = [("Ana", "copy.seek.seek"), ("Ana", "seek.copy"), ("Ana", "copy.seek.seek")]
    assert played == [
        *(move for seek in seeks for move in (seek, ("Ana", "pass"), ("Ben", "pass"))),
        ("Ana", "number.34.3"),  # Seek is spent for this turn
        ("Ana", "play.reverse"),  # 3 cookies given back instead of taken
        ("Ana", "pass"),
        ("Ben", "pass"),
    ]
    assert t.state.stack == [COOKIE] * 3 + [POISON] and t.state.out == [False, False]


def test_copy_of_a_veto_vetoes_again_and_a_copied_skip_does_nothing() -> None:
    t = table(["2", "add", "3"], ["veto", "copy", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "play", "add", "3", 3)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "veto", 1)
    assert "aim.copy.0" in t.options("Ben")  # Copy acts as the Veto it follows
    t.play("Ben", "aim", "copy", 0)
    assert t.state.phase == "main" and t.deciding() == "Ana"  # her main card is vetoed
    skip = table(["skip", "0", "1"], ["veto", "copy", "1"], ["0", "1", "2"])
    skip.play("Ana", "skip")
    skip.play("Ana", "pass")
    assert "play.copy" not in skip.options("Ben")  # after a Skip only a Veto may follow


def test_the_bot_plays_opposites_to_push_the_active_player_onto_the_poison() -> None:
    # Only the poison is left: Ana's 0 is safe, but Opposites makes her choose 1 to 5.
    t = Table({"Ana": ["0", "1", "2"], "Ben": ["opposites", "5", "1"]}, stack=[POISON])
    t.play("Ana", "number", "0", 0)
    t.play("Ana", "pass")
    assert t.game.bot_action(t.state, t.seat("Ben")).encode() == "aim.opposites.0"

    t.play("Ben", "aim", "opposites", 0)
    t.play("Ana", "choose", 1)
    t.passes("Ben", "Ana")
    assert t.state.out == [True, False] and t.game.outcome(t.state).winners == [1]


def test_the_bot_does_not_waste_opposites_when_the_owner_can_stay_safe() -> None:
    t = Table({"Ana": ["0", "1", "2"], "Ben": ["opposites", "5", "1"]}, stack=[COOKIE, POISON])
    t.play("Ana", "number", "0", 0)
    t.play("Ana", "pass")
    assert t.game.bot_action(t.state, t.seat("Ben")).encode() == "pass"  # she would pick 1


def test_opposites_twice_on_the_12345_card_still_leaves_zero_to_choose() -> None:
    t = table(["12345", "0", "1"], ["opposites", "copy", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "12345", 3)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "opposites", 0)
    t.play("Ana", "choose", 0)
    t.play("Ben", "aim", "copy", 0)  # a second Opposites, copied
    assert t.options("Ana") == ["choose.0"]
    t.play("Ana", "choose", 0)
    assert t.number() == 0


def test_giving_tokens_back_restores_their_order() -> None:
    """Reverse: "the Active Player must return Tokens in the opposite order they were taken
    (First in is last out)." Ana takes a Golden Cookie and then a cookie; giving both back
    puts the cookie back first and the Golden Cookie on top of it."""
    t = table(
        ["2", "12", "reverse"],
        ["0", "5", "1"],
        ["0", "1", "2"],
        stack=[GOLDEN, COOKIE, POISON, COOKIE, COOKIE],
        mode="hoarder_plus",
    )
    t.play("Ana", "number", "2", 2)
    t.passes("Ana", "Ben", "Cleo")
    assert t.state.piles[0] == [GOLDEN, COOKIE] and t.state.stack == [POISON, COOKIE, COOKIE]
    t.play("Ben", "number", "0", 0)
    t.passes("Ben", "Cleo", "Ana")
    t.play("Cleo", "number", "0", 0)
    t.passes("Cleo", "Ana", "Ben")
    t.play("Ana", "number", "12", 2)
    t.play("Ana", "play", "reverse")
    t.passes("Ana", "Ben", "Cleo")
    assert t.state.piles[0] == []
    assert t.state.stack == [GOLDEN, COOKIE, POISON, COOKIE, COOKIE]  # as it was, from the top


def test_roll_in_place_of_the_number_card_played_with_add() -> None:
    """Roll: "Can be played in place of a Number Card." With Add, Subtract or Multiply the
    rolled number is the number added, subtracted or multiplied by; Think Again! rerolls
    it, Opposites does not touch it, and a Veto sends both cards back."""
    t = table(["2", "0", "1"], ["add", "roll", "1"], ["again", "opposites", "veto"])
    t.play("Ana", "number", "2", 2)
    t.play("Ana", "pass")
    assert "play.add.roll" in t.options("Ben")
    t.play("Ben", "play", "add", "roll")
    rolled = t.state.queue[1]
    assert rolled.companion == "roll" and 0 <= rolled.choice <= 5
    assert t.number() == 2 + rolled.choice
    assert sorted(t.state.hands[1]) == ["1"]
    t.play("Ben", "pass")
    cleo = t.options("Cleo")
    assert "aim.again.1" in cleo and "aim.opposites.1" not in cleo and "aim.veto.1" in cleo
    t.play("Cleo", "aim", "again", 1)
    assert any(line.startswith("🎲 Rolled again") for line in t.public_log())
    assert t.number() == 2 + t.state.queue[1].choice
    t.play("Cleo", "aim", "veto", 1)
    assert sorted(t.state.hands[1]) == ["1", "add", "roll"] and t.number() == 2


def test_roll_in_place_of_the_number_card_played_with_multiply() -> None:
    """Roll: "Can be played in place of a Number Card"; Multiply: "Play this with a Number
    Card, and multiply the Produced Number by it." The die's number is the one multiplied
    by."""
    t = table(["3", "0", "1"], ["multiply", "roll", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "3", 3)
    t.play("Ana", "pass")
    t.play("Ben", "play", "multiply", "roll")
    factor = t.state.queue[1].choice
    t.passes("Ben", "Cleo", "Ana")
    assert len(t.state.stack) == 40 - 3 * factor
    assert f"🎲 Ben plays ✖️ Multiply with 🎲 Roll and rolls {factor}." in t.public_log()


def test_copy_as_a_number_card_opens_a_turn() -> None:
    """Copy: "It will act as a copy of the last card played before it. It can therefore be
    used like a Modifier, Special, or Number card." At the start of a turn the last card
    played is the top of the Played Cards Pile: a hand of Copy, Double and Veto need not
    Mulligan when that card is a number card."""
    t = table(["copy", "double", "veto"], ["0", "5", "1"], ["0", "1", "2"], played=["veto", "135"])
    assert t.options("Ana") == ["copy.135.1", "copy.135.3", "copy.135.5"]
    t.play("Ana", "copy", "135", 3)
    assert t.number() == 3 and t.state.queue[0].opener
    t.play("Ana", "play", "double")
    t.passes("Ana", "Ben", "Cleo")
    assert len(t.state.stack) == 40 - 6 and t.deciding() == "Ben"
    assert "copy" in t.state.played and "double" in t.state.played


def test_copy_cannot_open_a_turn_as_a_card_that_cannot() -> None:
    """ "A player cannot play any cards on their turn: They must Mulligan until they are able
    to play a card." Only a card that could open a turn may be copied to open one: with a
    Double on top of the Played Cards Pile, Copy, Double and Veto must Mulligan."""
    t = table(["copy", "double", "veto"], ["0", "5", "1"], ["0", "1", "2"], played=["5", "double"])
    assert t.options("Ana") == ["mulligan.forced"]


def test_copy_opening_a_turn_is_its_owners_main_card() -> None:
    """Copy "will act as a copy of the last card played before it"; Veto: "If veto forces
    the Active Player to be unable to play any cards during their turn, then they must
    mulligan." A Copy standing for a number card is the main card: Opposites acts on it as
    on the card it copies, and a Veto makes its owner play another card."""
    t = table(["copy", "1", "0"], ["opposites", "veto", "1"], ["0", "1", "2"], played=["135"])
    t.play("Ana", "copy", "135", 5)
    t.play("Ana", "pass")
    assert "aim.opposites.0" in t.options("Ben")
    t.play("Ben", "aim", "opposites", 0)
    assert t.options("Ana") == ["choose.2", "choose.4"]
    t.play("Ana", "choose", 2)
    t.play("Ben", "aim", "veto", 0)
    assert t.state.phase == "main" and t.deciding() == "Ana"
    assert "copy" in t.state.hands[0] and "copy" in t.state.barred[0]


def test_copy_opening_a_turn_as_roll_rolls() -> None:
    """Copy "can therefore be used like a ... Number card", and Roll "can be played in place
    of a Number Card": a Copy of a Roll opening the turn rolls the die anew."""
    t = table(["copy", "double", "veto"], ["0", "5", "1"], ["0", "1", "2"], played=["roll"])
    assert t.options("Ana") == ["copy.roll"]
    t.play("Ana", "copy", "roll")
    entry = t.state.queue[0]
    assert entry.acts_as == "roll" and 0 <= entry.choice <= 5 and t.number() == entry.choice


def test_a_second_opposites_on_the_same_card_keeps_the_inverted_choices() -> None:
    """Our ruling (the book is silent): Opposites inverts the choices printed on the card; a
    second Opposites does not turn them back, its owner chooses again from the same set."""
    t = table(["135", "0", "1"], ["opposites", "copy", "1"], ["0", "1", "2"])
    t.play("Ana", "number", "135", 1)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "opposites", 0)
    assert t.options("Ana") == ["choose.2", "choose.4"]
    t.play("Ana", "choose", 2)
    t.play("Ben", "aim", "copy", 0)  # a second Opposites, copied
    assert t.options("Ana") == ["choose.2", "choose.4"]
    t.play("Ana", "choose", 4)
    assert t.number() == 4


def test_a_bandit_in_a_taken_group_steals_what_was_taken_above_it() -> None:
    """Our ruling: tokens taken in one go are handled top to bottom, so a bandit token
    steals from your pile with the cookies above it in the same grab, not those below it."""
    t = table(
        ["4", "0", "1"],
        ["0", "5", "1"],
        ["0", "1", "2"],
        stack=[COOKIE, COOKIE, "b2", COOKIE, COOKIE],
        mode="hoarder",
    )
    t.play("Ana", "number", "4", 4)
    t.passes("Ana", "Ben", "Cleo")
    assert t.state.piles[0] == [COOKIE] and t.state.bandit_pile == 2
    assert t.state.stack == [COOKIE]


def test_skip_after_your_number_card_was_vetoed() -> None:
    """Skip: "Must be the only card played by the Owner." Our ruling: a vetoed card "has no
    effect", so after a Veto sends your number card back you may still Skip; others may
    then only Veto the Skip."""
    t = table(["3", "skip", "0"], ["veto", "5", "1"], ["double", "1", "2"])
    t.play("Ana", "number", "3", 3)
    t.play("Ana", "pass")
    t.play("Ben", "aim", "veto", 0)
    assert "skip" in t.options("Ana") and "number.3.3" not in t.options("Ana")
    t.play("Ana", "skip")
    assert t.options("Ana") == ["pass"]
    t.play("Ana", "pass")
    t.play("Ben", "pass")
    assert t.options("Cleo") == ["pass"]  # no Double after a Skip
    t.play("Cleo", "pass")
    assert len(t.state.stack) == 40 and t.deciding() == "Ben"
    assert "⏭️ Ana skips." in t.public_log() and sorted(t.state.hands[0]) == ["0", "0", "3"]


def test_modifiers_played_before_a_vetoed_main_card_is_replaced_change_nothing() -> None:
    """Our ruling (the book is silent): the replacement main card sets the Produced Number
    afresh; a Double and an Add played before the Veto stay in the order and act on the
    vetoed card's nothing."""
    t = table(["3", "5", "double"], ["veto", "add", "2"], ["0", "1", "2"])
    t.play("Ana", "number", "3", 3)
    t.play("Ana", "play", "double")
    t.play("Ana", "pass")
    t.play("Ben", "play", "add", "2", 2)
    t.play("Ben", "aim", "veto", 0)
    assert t.state.phase == "main" and t.options("Ana") == ["number.5.5"]
    # Until she plays it, the table says so, not the "Number: 2" the Add alone would make.
    shown = t.game.panels(t.game.view(t.state, None)).table.as_text()
    assert "**Ana plays another card: it sets the number afresh**" in shown
    assert "Number: 2" not in shown
    t.play("Ana", "number", "5", 5)
    assert t.number() == 5
    t.passes("Ana", "Ben", "Cleo")
    assert len(t.state.stack) == 40 - 5
    assert {"double", "add", "2", "veto", "5"} <= set(t.state.played)
