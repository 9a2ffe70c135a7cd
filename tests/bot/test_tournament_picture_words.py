"""Issue 38: the tournament pictures draw their words in the reader's language, checked at
the drawing call: every kind of bracket (single, double with its losers' part and reset,
multiplayer with byes and forfeits) and the standings (a dropped and a disqualified
player, and none yet), in each shipped language and the pseudo-locale."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.tournaments.pictures import bracket_picture, standings_picture
from games.core.pictures import Canvas
from games.core.text import Names, Text, t, tc
from games.core.translations import ENGLISH, LANGUAGES, PSEUDO, catalog
from tests.bot import tournament_rigs as rigs
from tests.discord.untranslated import ABBREVIATIONS, record_lettering, words_in

TITLE = t("{game} tournament", game="Toss Your Cookies")
SUBTITLE = t("round {n} being played", n=2)


def named(count: int) -> dict[int, str]:
    """Players named in Hangul: any ASCII word drawn is ours."""
    return {p: f"선수{p}" for p in range(1, count + 1)}


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every line of words drawn, as drawn."""
    return record_lettering(monkeypatch)


def draw_every_kind(language: str) -> None:
    brackets = [
        (rigs.single(5, 2), 5),  # byes, a round being played
        (rigs.single(64, 40), 64),  # numbered: "Winner of 33"
        (rigs.double(8, 4), 8),  # the losers' part waiting on "Loser of 5"
        (rigs.double(4, 5), 4),  # the grand final and its reset
        (rigs.pods(16), 16),  # places, a forfeit, a table being played
        (rigs.pods(9, size=3, advance=1, decided_rounds=1), 9),  # each winner goes on
        (rigs.pods(6, decided_rounds=2), 6),  # the final table
    ]
    for tree, count in brackets:
        bracket_picture(tree, named(count), TITLE, SUBTITLE, language)  # type: ignore[arg-type]
    standings = rigs.swiss(8, 3)
    gone = {standings[-1].player: tc("standings", "disqualified")}
    standings_picture(standings, named(8), TITLE, SUBTITLE, None, language)
    standings_picture(standings, named(8), TITLE, SUBTITLE, gone, language)
    standings_picture([], named(8), TITLE, SUBTITLE, None, language)


def test_every_tournament_picture_draws_no_english_word_in_pseudo(drawn: list[str]) -> None:
    draw_every_kind(PSEUDO)
    # A tiebreak's short name (OMW%) is the same in every language, as in Discord.
    left = words_in(drawn, [*named(64).values(), *ABBREVIATIONS, "Toss Your Cookies"])
    assert not left, [(f.word, f.text) for f in left]


def messages_in(text: Text) -> Iterator[Text]:
    """A Text and the Texts among its arguments (a list's items too)."""
    if text.msgid is not None:
        yield text
    for arg in text.args.values():
        for item in arg if isinstance(arg, Names) else (arg,):
            if isinstance(item, Text):
                yield from messages_in(item)


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != ENGLISH])
def test_every_word_a_picture_draws_is_in_each_catalog(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[Text] = []
    words = Canvas.words

    def recorded(self: Canvas, text: str) -> str:
        assert self.language == language
        if isinstance(text, Text):
            asked.extend(messages_in(text))
        return words(self, text)

    monkeypatch.setattr(Canvas, "words", recorded)
    draw_every_kind(language)
    book = catalog(language)
    assert len({m.msgid for m in asked}) >= 20
    assert not [m.msgid for m in asked if (m.context, m.msgid) not in book.messages]


def test_english_pictures_keep_their_words(drawn: list[str]) -> None:
    draw_every_kind(ENGLISH)
    for words in ("Winner of 41", "Loser of 5", "Losers' bracket", "Grand final", "Reset"):
        assert words in drawn
    assert "Toss Your Cookies tournament" in drawn and "round 2 being played" in drawn
    assert {"Player", "Pts", "No results yet.", "forfeit", "bye", "Final table"} <= set(drawn)


def test_a_korean_bracket_reads_korean(drawn: list[str]) -> None:
    bracket_picture(rigs.double(4, 5), named(4), TITLE, SUBTITLE, "ko")
    assert "Toss Your Cookies 토너먼트" in drawn
    assert any("결승" in line for line in drawn)
