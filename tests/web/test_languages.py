"""The pages speak the server's language (``/settings language:``), issue 38: the
``<html lang>`` says it, every word of ours is translated, names stay as written."""

from __future__ import annotations

import asyncio
from html.parser import HTMLParser

import pytest
from aiohttp.test_utils import TestClient

from bot.service import MatchService
from bot.service.tournaments.drawn import bracket_drawn
from bot.service.tournaments.models import read_view
from games import GAMES
from games.core.pictures import Canvas
from games.core.words import BOT_NAMES
from tests.discord.untranslated import ABBREVIATIONS, report, words_in
from tests.web.conftest import ANA, GUILD, MOD, XSS, elimination_event, every_page_kind, opt_in
from tests.web.test_pages import get_text


class Shown(HTMLParser):
    """What a reader sees of a page: its text (the bracket written out too), and the words
    of its alt, aria-label and title attributes; scripts and styles aside."""

    def __init__(self) -> None:
        super().__init__()
        self.strings: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        self.strings += [v for k, v in attrs if k in ("alt", "aria-label", "title") and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.strings.append(data)


def shown(page: str) -> list[str]:
    parser = Shown()
    parser.feed(page)
    return parser.strings


async def pages_in(service: MatchService, web: TestClient, language: str) -> dict[str, str]:
    paths = await every_page_kind(service)
    await service.set_guild_defaults(GUILD, MOD, {"language": language})
    return {kind: await get_text(web, path) for kind, path in paths.items()}


async def test_a_korean_servers_pages_say_lang_ko_and_speak_korean(
    service: MatchService, web: TestClient
) -> None:
    pages = await pages_in(service, web, "ko")
    for kind, page in pages.items():
        assert '<html lang="ko">' in page, kind
        assert XSS not in page, kind  # a name in a translated sentence is escaped too
    assert "지금 진행 중인 게임" in pages["front"]
    assert "리더보드" in pages["front"]
    assert "순위" in pages["event"] and "1라운드" in pages["event"]
    assert "다시 보기" in pages["replay"]
    assert "Being played now" not in pages["front"] and "Standings" not in pages["event"]


async def test_a_server_without_a_language_pages_in_its_preferred_locale(
    service: MatchService, web: TestClient
) -> None:
    paths = await every_page_kind(service)
    assert '<html lang="en">' in await get_text(web, paths["front"])  # nothing heard yet
    await service.note_preferred_locale(GUILD, "ko")  # as the bot heard it from Discord
    front = await get_text(web, paths["front"])
    assert '<html lang="ko">' in front and "리더보드" in front
    await service.set_guild_defaults(GUILD, MOD, {"language": "es"})  # a choice wins
    assert '<html lang="es">' in await get_text(web, paths["front"])
    await service.set_guild_defaults(GUILD, MOD, {"language": ""})  # Automatic again
    assert '<html lang="ko">' in await get_text(web, paths["event"])


async def test_the_locale_noted_with_an_admins_change_loses_neither(
    service: MatchService,
) -> None:
    """The bot notes the locale an interaction carries as the same /settings runs."""
    await asyncio.gather(
        service.set_guild_defaults(GUILD, MOD, {"web": True, "language": "ja"}),
        service.note_preferred_locale(GUILD, "ko"),
    )
    settings = await service.guild_settings(GUILD)
    assert settings.web and settings.language == "ja" and settings.preferred_locale == "ko"
    await service.note_preferred_locale(GUILD, "x" * 40)  # no locale: left as it was
    assert (await service.guild_settings(GUILD)).preferred_locale == "ko"


async def test_an_english_servers_pages_stay_english(
    service: MatchService, web: TestClient
) -> None:
    pages = await pages_in(service, web, "")
    assert all('<html lang="en">' in page for page in pages.values())
    assert "Being played now" in pages["front"] and "Leaderboards" in pages["front"]
    assert "Standings" in pages["event"] and "Round 1" in pages["event"]
    assert "Step 0 of" in pages["replay"]


async def test_in_the_pseudo_locale_no_english_word_is_left_on_any_page(
    service: MatchService, web: TestClient
) -> None:
    pages = await pages_in(service, web, "pseudo")
    # Names as written (the tiebreaks' too, as in Discord: OMW% is their name); dates stay
    # ISO, in UTC, in every language.
    people = [ANA.name, XSS, "Basil", "Ginger", *BOT_NAMES]
    names = [*people, *ABBREVIATIONS, *(game.name for game in GAMES.values()), "UTC"]
    for kind, page in pages.items():
        assert '<html lang="en-XA">' in page, kind
        left = words_in(shown(page), names)
        assert not left, f"{kind}:\n{report(left)}"


@pytest.mark.parametrize("format", ["double_elimination", "multiplayer_elimination"])
async def test_a_bracket_written_out_and_drawn_speaks_the_pages_language(
    service: MatchService, web: TestClient, monkeypatch: pytest.MonkeyPatch, format: str
) -> None:
    """The bracket's parts, rounds and rows on the page, and its picture, whose words are
    read at the drawing call: in a pseudo server, none is English."""
    drawn: list[str] = []
    lettering = Canvas.lettering

    def recorded(self: Canvas, xy: object, text: str, *args: object, **kwargs: object) -> None:
        drawn.append(text)
        lettering(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Canvas, "lettering", recorded)
    root = await opt_in(service)
    await service.set_guild_defaults(GUILD, MOD, {"language": "pseudo"})
    tid = await elimination_event(service, format=format, game="cookie_chomper", players=6)
    page = await get_text(web, f"{root}/event/{tid}")
    picture = await web.get(f"{root}/event/{tid}/bracket.png")
    assert picture.status == 200 and drawn
    event = await service.store.get_tournament(tid)
    assert event is not None
    view = await read_view(service.store, GAMES[event.game], event)
    names = [*(e.name for e in view.entrants), *BOT_NAMES, *ABBREVIATIONS, "Cookie Chomper", "UTC"]
    # A name too long for its box is drawn cut, with an ellipsis: still the name.
    cut = [line for line in drawn if any(n.startswith(line.rstrip("…")) for n in names)]
    left = words_in([*shown(page), *(line for line in drawn if line not in cut)], names)
    assert not left, report(left)
    assert await picture.read() != bracket_drawn(view)  # not the English picture
