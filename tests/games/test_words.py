"""Every panel (table, hand, details; every seat and a spectator) of many random states of
every game says things a person would: see ``tests/words.py``."""

from __future__ import annotations

import random

import pytest

from games import GAMES
from games.core.contract import playout
from games.core.panels import Panel
from games.core.protocol import Decision, GameState
from tests.words import word_problems

PLAYOUTS = 6
EVERY = 7  # look at every 7th state of a playout (and its decisions), not all


def panel_text(panel: Panel | None) -> str:
    if panel is None:
        return ""
    parts = [panel.title, panel.description, panel.footer]
    for field in panel.fields:
        parts += [field.name, field.value]
    return "\n".join(parts)


@pytest.mark.parametrize("key", list(GAMES))
def test_every_panel_and_prompt_of_random_states_reads_well(key: str) -> None:
    game = GAMES[key]
    rng = random.Random(f"words-{key}")
    problems: dict[str, str] = {}

    def check(text: str) -> None:
        for problem in word_problems(text, key):
            problems.setdefault(problem, text)

    seen = [0]

    def look(state: GameState, decisions: list[Decision]) -> None:
        seen[0] += 1
        if seen[0] % EVERY:
            return
        for seat in [None, *range(len(state.names))]:
            panels = game.panels(game.view(state, seat))
            for panel in (panels.table, panels.hand, panels.details):
                check(panel_text(panel))
        for decision in decisions:
            texts = [decision.prompt]
            for option in decision.options:
                texts += [option.group, option.label, option.description]
            for text in texts:
                check(text)

    for _ in range(PLAYOUTS):
        run = playout(game, rng, every_state=look)
        assert run.final is not None
        for seat in [None, *range(len(run.final.names))]:
            panels = game.panels(game.view(run.final, seat))
            check(panel_text(panels.table))
        for event in run.final.log:
            check(event.text)
    report = [f"{p}   in: {text[:300]!r}" for p, text in sorted(problems.items())[:30]]
    assert not problems, "\n".join(report)


def test_the_checks_catch_what_players_tripped_on() -> None:
    for bad in (
        "Ana picks all their cards card(s).",
        "no Batchs yet",
        "$30k in 1 sets",
        "Ben holds 1 cards",
        "after 1 rounds",
        "Hand: Hand: standard",
        "✋ ✋ Ben grabs the milk.",
        "You have 14.0 left.",
        "11.3 vacation days left",
    ):
        assert word_problems(bad), bad
    assert word_problems("Ana challenges your set", "cover_your_cookies")
    assert word_problems("Ben swiped the Batch", "cover_your_assets")
    for good in ("1 card", "2 cards", "$30k in 1 set", "🔢 1/2/3", "Pass Left · 2", "1,250 Dough"):
        assert not word_problems(good, "cover_your_cookies" if "Dough" in good else ""), good
