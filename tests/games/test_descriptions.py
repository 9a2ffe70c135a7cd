"""Every card with an effect says what it does under its option, in at most 100 characters
(a select option's description), and every lobby switch says what it does."""

from __future__ import annotations

import random

import pytest

from games import GAMES
from games.core.contract import playout
from games.core.options import switches
from games.core.protocol import Decision, GameState
from games.core.words import brief
from games.toss.cards import HALF, MILK, WILD

EFFECT_KINDS = {"play", "aim", "roll", "seek", "skip", "mulligan", "swap", "move", "rotate"}
TOSS_SPECIAL = {WILD, HALF, MILK}


def has_effect(key: str, decision: Decision, index: int, state: GameState) -> bool:
    option = decision.options[index]
    action = option.action
    if key == "toss_your_cookies":
        return (
            action.kind in {"pass", "toss", "give"}
            and action.args[:1] != ("all",)
            and (action.args[0] in TOSS_SPECIAL)
        )
    if key == "cookie_chomper":
        return action.kind in EFFECT_KINDS and action.args[:1] != ("forced",)
    weighty = action.kind in {"challenge", "challenge_second", "counter"} and any(
        a in {"penny_jar", "chocolate_milk"} for a in action.args
    )
    # A Penny Jar counts as two; Chocolate Milk only with Extra Strength.
    extra = key == "cover_your_assets" or getattr(state.options, "extra_strength", False)
    return action.kind in {"swap", "move", "rotate", "mixer_swap", "exchange"} or (
        weighty and extra
    )


@pytest.mark.parametrize("key", list(GAMES))
def test_every_card_with_an_effect_has_a_short_description(key: str) -> None:
    game = GAMES[key]
    rng = random.Random(f"descriptions-{key}")
    missing: dict[str, str] = {}
    seen = [0]

    def look(state: GameState, decisions: list[Decision]) -> None:
        for decision in decisions:
            for index, option in enumerate(decision.options):
                assert len(option.description) <= 100, option.description
                if has_effect(key, decision, index, state) and not option.description:
                    missing.setdefault(option.action.encode(), option.label)
                seen[0] += has_effect(key, decision, index, state)

    for _ in range(10):
        playout(game, rng, every_state=look)
    assert not missing, missing
    assert seen[0], "no card with an effect was offered"


@pytest.mark.parametrize("key", list(GAMES))
def test_every_lobby_switch_has_a_description(key: str) -> None:
    for field in switches(GAMES[key].options_model):
        assert 0 < len(field.description) <= 100, field.name


def test_a_long_effect_is_shortened_without_its_asides() -> None:
    text = (
        "A played card (and the number card played with it) goes back to its owner's hand, "
        "has no effect, and cannot be played again this turn."
    )
    assert brief(text) == (
        "A played card goes back to its owner's hand, has no effect, and cannot be played "
        "again this turn."
    )
    assert brief("Short.") == "Short."
    assert len(brief("word " * 40)) <= 100
