"""Every level answers a rigged decision legally, from what its seat may know."""

from __future__ import annotations

import random

import pytest

from games import GAMES
from games.core.levels import LEVELS


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("level", LEVELS)
def test_each_level_answers_the_first_decision_legally(key: str, level: str) -> None:
    game = GAMES[key]
    options = game.options_model()
    names = tuple(f"P{i}" for i in range(game.min_players))
    state = game.setup(options, names, seed=11)
    decision = game.decisions(state)[0]
    action = game.level_action(
        state, decision.seat, level, decision=decision, seconds=0.05, rng=random.Random(3)
    )
    after, _ = game.apply(state, decision.seat, action)
    assert after.version == state.version + 1


def test_easy_slips_and_normal_never_does() -> None:
    game = GAMES["cover_your_assets"]
    state = game.setup(game.options_model(), ("A", "B", "C"), seed=4)
    decision = game.decisions(state)[0]
    while len(decision.options) < 3:  # play on to a real choice
        state, _ = game.apply(state, decision.seat, game.bot_action(state, decision.seat))
        decision = game.decisions(state)[0]
    normal = game.bot_action(state, decision.seat, decision=decision)
    rng = random.Random(0)
    easy = {
        game.level_action(state, decision.seat, "easy", decision=decision, rng=rng)
        for _ in range(60)
    }
    assert normal in easy and len(easy) > 1
    assert {
        game.level_action(state, decision.seat, "normal", decision=decision, rng=rng)
        for _ in range(20)
    } == {normal}
