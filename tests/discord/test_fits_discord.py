"""Every table and hand view fits Discord's limits, at the largest table, all game long."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from bench.languages import record_for
from bot.pictures import Pictures
from bot.service import MatchService, SeatView
from cogs import render
from cogs.table.drawing import Drawing
from games import GAMES
from games.core import contract
from games.core.options import random_options
from games.core.text import t
from games.core.translations import PSEUDO, SELECTABLE
from tests.discord.harness import message_errors


def payload(embeds, view, content: str = "") -> dict:  # type: ignore[no-untyped-def]
    return {
        "content": content,
        "embeds": [e.to_dict() for e in embeds],
        "components": view.to_components() if view else [],
    }


@pytest.mark.parametrize("size", ["largest", "smallest"])
@pytest.mark.parametrize("key", sorted(GAMES))
async def test_tables_and_hands_fit_at_any_table(key: str, size: str) -> None:
    """Every option switched on at random, at the largest and the smallest table, in every
    language we ship and the pseudo-locale (the longest)."""
    game = GAMES[key]
    service = MatchService(store=None, games=GAMES)  # type: ignore[arg-type]
    drawing = Drawing(SimpleNamespace(service=service), Pictures(service.guild_settings))  # type: ignore[arg-type]
    rng = random.Random(f"fits:{key}:{size}")
    seats = game.max_players if size == "largest" else game.min_players
    names = tuple(f"{n}-with-a-long-display-name" for n in contract.NAMES[:seats])
    checked = 0
    for seed in range(30):  # short games (two players) need a few more deals
        if seed >= 3 and checked > 100:
            break
        state = game.setup(random_options(game.options_model, rng), names, seed)
        step = 0
        while True:
            step += 1
            if step % 4 and game.outcome(state) is None:  # every fourth state, and the last
                decision = rng.choice(game.decisions(state))
                move = contract.next_move(game, state, decision, rng)
                state, _ = game.apply(state, decision.seat, move)
                continue
            record = record_for(key, state)
            panel = game.panels(game.view(state, None)).table
            # The pseudo-locale (the longest) at every state, each language at every third.
            languages = SELECTABLE if step % 3 == 0 else ("en", PSEUDO)
            for language in languages:
                table = render.embed_from_panel(panel, language)
                assert message_errors(payload([table], None)) == {}, language
            # A scramble's grab buttons are in each racer's hand view, checked here too.
            for seat in range(len(names)):
                seen = SeatView.of(record, game, state, seat)
                for language in languages:
                    message = drawing.hand_text(seen, [t("⏩ a note")], None, language)
                    errors = message_errors(payload(message.embeds, message.view, message.content))
                    assert errors == {}, (seed, step, seat, language, errors)
                checked += 1
            if game.outcome(state) is not None:
                break
    assert checked > 100
