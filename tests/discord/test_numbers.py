"""Counts that reach the thousands (a busy server's matches, a keen player's games and wins)
are grouped the way the reader's language writes them, CLDR's by Babel: 1,234 in English,
Korean and Japanese, 1.234 in Spanish and Brazilian Portuguese."""

from __future__ import annotations

import pytest

from bot.service.history import HistoryPage
from cogs.history import history_message
from cogs.ratings import games_played
from cogs.speech import say
from games.core.translations import LANGUAGES

GROUPED = {"en": "1,234", "ko": "1,234", "ja": "1,234", "es": "1.234", "pt_BR": "1.234"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_players_games_are_counted_in_the_readers_digits(language: str) -> None:
    said = say(games_played(1234), language)
    assert GROUPED[language] in said and "1234" not in said
    assert "3" in say(games_played(3), language)  # a small count is as it was


@pytest.mark.parametrize("language", LANGUAGES)
def test_history_counts_a_busy_servers_matches_in_the_readers_digits(language: str) -> None:
    embed, _ = history_message(HistoryPage((), 0, 1, 1234), None, None, language)
    assert GROUPED[language] in (embed.description or "")
