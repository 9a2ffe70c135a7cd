"""Whose language: a person's own answers in their own, the table in the server's.

A person's language is the one they chose with /language, else their Discord client's
(the interaction's ``locale``); the server's is /settings language, else its preferred
locale, else English. Slash commands carry their localisations when the bot syncs them.
"""

from __future__ import annotations

import re

import pytest

from bot.web.reader import Reader
from cogs.speech import CatalogTranslator, escape, languages, say
from games import GAMES
from games.core.pictures import hand_picture
from games.core.text import slash, t
from games.core.translations import ENGLISH, PSEUDO, SELECTABLE, catalog, render
from tests.discord.conftest import make_bot, move_components, show_hand, table_of
from tests.discord.harness import FakeDiscord
from tests.discord.test_pictures import picture_of
from tests.discord.untranslated import message_strings, report, untranslated, words_in

HANGUL = re.compile(r"[\uac00-\ud7a3]")
KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana and kanji
PSEUDO_MARK = "⟦"  # every pseudo-translated message is bracketed so


def korean(text: str) -> bool:
    return bool(HANGUL.search(text))


def japanese(text: str) -> bool:
    return bool(KANA.search(text))


async def test_each_player_reads_their_own_answers_while_the_table_speaks_the_servers(
    fake: FakeDiscord, db
) -> None:
    ana = fake.add_user("ana")
    ana.locale = "ko"  # a Korean Discord app
    ben = fake.add_user("ben")  # an English one, who chose the pseudo-locale for himself
    async with fake.running(make_bot(db)):
        await fake.slash(ben, "language", language=PSEUDO)
        assert PSEUDO_MARK in fake.last_reply(ben).text()
        await fake.slash(ana, "play", game="cover_your_assets")
        lobby = table_of(fake)
        await fake.click(ana, lobby, lobby.find_button("Join"))
        assert korean(fake.last_reply(ana).text())  # her Join answer
        await fake.click(ben, lobby, lobby.find_button("Join"))
        assert PSEUDO_MARK in fake.last_reply(ben).text()
        await fake.click(ana, lobby, lobby.find_button("Start"))
        table = table_of(fake)
        # The server set nothing and prefers en-US: the table is English for all.
        assert "Show hand" in table.text() and PSEUDO_MARK not in table.text()
        assert not korean(table.text())
        hers, his = await show_hand(fake, ana), await show_hand(fake, ben)
        assert korean(hers.text()) and PSEUDO_MARK not in hers.text()
        assert PSEUDO_MARK in his.text() and not korean(his.text())
        # The table is the same message for both, and still English.
        assert "Show hand" in table_of(fake).text()


async def test_a_hand_view_redrawn_after_anothers_move_stays_in_its_readers_language(
    fake: FakeDiscord, db
) -> None:
    """A hand view that follows the turn is edited without an interaction of its reader's:
    it keeps the language they last clicked in, its picture's words too."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    ana.locale, ben.locale = "ko", "ja"
    async with fake.running(make_bot(db, pictures=True)) as bot:
        await fake.slash(ben, "play", game="cover_your_assets")
        lobby = table_of(fake)
        await fake.click(ana, lobby, lobby.find_button("Join"))
        await fake.click(ben, lobby, lobby.find_button("Start"))
        hers, his = await show_hand(fake, ana), await show_hand(fake, ben)
        # The first move may be offered as buttons or, with many cards, as selects only.
        mover, hand, waiting = (ben, his, hers) if any(move_components(his)) else (ana, hers, his)
        assert any(move_components(hand)), "neither hand offers a move"
        for _ in range(4):  # the mover plays on until the turn passes
            buttons, selects = move_components(fake.messages[hand.id])
            if buttons:
                await fake.click(mover, fake.messages[hand.id], buttons[0])
            elif selects:
                value = selects[0]["options"][0]["value"]
                await fake.select(mover, fake.messages[hand.id], selects[0]["custom_id"], [value])
            if fake.messages[waiting.id].history:
                break
        followed = fake.messages[waiting.id]
        assert followed.history, "the waiting player's hand view never followed the turn"
        assert (korean if waiting is hers else japanese)(followed.text())
        assert move_components(followed)[0] or move_components(followed)[1]
        # Its picture is the seat's hand as it stands, drawn in its reader's language.
        reader, language = (ben, "ja") if waiting is his else (ana, "ko")
        record = await bot.service.store.open_in_channel(fake.general.id)
        seat = record.seat_of(reader.id)
        game = bot.service.game_of(record)
        view = game.view(bot.service.load_state(record), seat)
        drawn = picture_of(followed).data
        assert drawn == hand_picture(game, view, language) != hand_picture(game, view)


async def test_settings_language_changes_what_the_channel_reads(fake: FakeDiscord, db) -> None:
    admin = fake.add_user("admin", manage_guild=True)
    async with fake.running(make_bot(db)):
        await fake.slash(admin, "play", game="cookie_chomper")
        assert "· lobby" in table_of(fake).text()
        assert PSEUDO_MARK not in table_of(fake).text()
        await fake.slash(admin, "cancel")
        await fake.slash(admin, "settings", language=PSEUDO)
        # The admin's own answer stays in their language; it says what changed.
        assert "✅" in fake.last_reply(admin).text()
        assert PSEUDO_MARK not in fake.last_reply(admin).text()
        await fake.slash(admin, "play", game="cookie_chomper")
        lobby = fake.public_messages(fake.general)[-1]
        assert PSEUDO_MARK in lobby.text()  # the new lobby, in the server's language
        await fake.click(admin, lobby, lobby.buttons()[2])  # Add bot
        # Add bot's private answer is the admin's own: their (English) client's language.
        assert "How hard should it play?" in fake.last_reply(admin).text()
    assert not fake.rejections, [str(r) for r in fake.rejections]


async def test_a_server_without_a_choice_speaks_its_preferred_locale(fake: FakeDiscord, db) -> None:
    fake.set_guild_locale("ko")
    host = fake.add_user("host")
    async with fake.running(make_bot(db)):
        await fake.slash(host, "play", game="toss_your_cookies")
        assert korean(table_of(fake).text())


async def test_the_servers_preferred_locale_is_kept_for_its_web_pages(
    fake: FakeDiscord, db
) -> None:
    """The web pages cannot ask Discord: the bot keeps the preferred locale it is told of,
    at start (the server becomes available), when an admin changes it, and at the next
    interaction if the change passed it by; a page of a server that chose no language
    speaks it."""
    fake.set_guild_locale("ja")
    admin = fake.add_user("admin", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:

        async def kept() -> str:
            return (await bot.service.guild_settings(fake.guild_id)).preferred_locale

        assert await kept() == "ja"
        fake.set_guild_locale("ko")  # Server Settings: Discord sends the guild's update
        await fake.settle()
        assert await kept() == "ko"
        fake.guild_locale = "pt-BR"  # changed while the bot was away: no update came
        await fake.slash(admin, "settings", web=True)
        assert await kept() == "pt-BR"
        token = (await bot.service.guild_settings(fake.guild_id)).web_token
        site = await Reader(bot.store, GAMES, bot.service).site(fake.guild_id, token)
        assert site is not None and site.language == "pt_BR"
        # A server this process's cache lacks speaks the locale kept for it.
        elsewhere = fake.guild_id + 1
        await bot.service.note_preferred_locale(elsewhere, "es-419")
        assert await languages(bot).public(elsewhere) == "es"
        # A language chosen wins over the locale, on the pages too.
        await fake.slash(admin, "settings", language="ja")
        site = await Reader(bot.store, GAMES, bot.service).site(fake.guild_id, token)
        assert site is not None and site.language == "ja"
    fake.assert_clean()


def test_an_unsupported_locale_reads_english() -> None:
    from games.core.translations import language_for

    assert language_for("th") == ENGLISH and language_for("fr") == ENGLISH
    assert language_for("es-419") == "es" and language_for("pt-BR") == "pt_BR"


async def test_a_korean_client_sees_korean_command_names(fake: FakeDiscord, db) -> None:
    async with fake.running(make_bot(db)):
        pass
    synced = [c for scope in fake.commands.values() for c in scope]
    by_name = {c["name"]: c for c in synced}
    settings = by_name["settings"]
    assert korean(settings["name_localizations"]["ko"])
    assert korean(settings["description_localizations"]["ko"])
    language = next(o for o in settings["options"] if o["name"] == "language")
    assert korean(language["name_localizations"]["ko"])
    # Both Spanish locales, Japanese and Brazilian Portuguese are there too.
    assert {"ko", "ja", "es-ES", "es-419", "pt-BR"} <= set(by_name["play"]["name_localizations"])
    # The fake held every payload to Discord's rules (names lowercase, lengths...).
    assert not fake.rejections


async def test_the_translator_leaves_what_it_lacks_to_discord() -> None:
    from discord import Locale, app_commands

    translator = CatalogTranslator()
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, None
    )
    missing = app_commands.locale_str("No catalog has this sentence.")
    assert await translator.translate(missing, Locale.korean, context) is None
    assert await translator.translate(missing, Locale.french, context) is None


def test_names_are_escaped_where_discord_reads_markdown() -> None:
    line = t("**{name}** joins.", name="dark_knight *@everyone*")
    assert say(line, ENGLISH) == "**dark\\_knight \\*@\u200beveryone\\*** joins."
    assert escape("Ana (EU)") == "Ana (EU)"
    # A link someone is given (a web page's secret address) stays a working link.
    link = "https://cookies.example/s/ab_c-d/table"
    assert say(t("on, at {link}", link=link), ENGLISH) == f"on, at {link}"


def test_commands_a_sentence_names_read_as_the_readers_app_lists_them_names_as_written() -> None:
    cancelled = t("This match was cancelled. Start a new one with /play.")
    played = catalog("ko").commands["play"]
    assert f"/{played}" in say(cancelled, "ko") and "/play" not in say(cancelled, "ko")
    assert "/play" in say(cancelled, ENGLISH)
    # A command passed on its own is ours too; a player's name that looks like one is theirs.
    assert say(slash("/settings language:"), "ko") == (
        f"/{catalog('ko').commands['settings']} {catalog('ko').commands['language']}:"
    )
    assert say(slash("/settings language:"), ENGLISH) == "/settings language:"
    named = t("**{name}** joins.", name="/play settings:")
    for language in SELECTABLE:
        assert "/play settings:" in say(named, language)


# --- every Discord limit holds in every language ----------------------------------------------
BUTTON, SELECT_TEXT = 80, 100


def test_every_button_label_fits_in_every_language() -> None:
    """Each ``tc("button", ...)`` message, rendered in every language we ship and the
    pseudo-locale (the longest), fits a button."""
    from devtools.catalog import extract

    buttons = [e for e in extract() if e.context == "button"]
    assert buttons
    for code in SELECTABLE:
        for entry in buttons:
            words = render(_text(entry.id, "button"), code)
            assert len(words) <= BUTTON, (code, entry.id, words)


def _text(msgid: str, context: str | None):  # type: ignore[no-untyped-def]
    from games.core.text import Text

    return Text(msgid, context=context)


@pytest.mark.parametrize("language", SELECTABLE)
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_message_of_a_match_fits_discord_in_every_language(
    fake: FakeDiscord, db, game: str, language: str
) -> None:
    """A server and its players in ``language`` play a few moves of ``game``: the fake
    Discord refuses any message over a limit (a button over 80, a select option over 100,
    an embed over 6000...), as Discord does."""
    admin = fake.add_user("admin", manage_guild=True)
    other = fake.add_user("other")
    async with fake.running(make_bot(db)):
        await fake.slash(admin, "settings", language=language)
        for user in (admin, other):
            await fake.slash(user, "language", language=language)
        await fake.slash(admin, "play", game=game)
        lobby = table_of(fake)
        await fake.click(admin, lobby, lobby.buttons()[0])  # Join
        await fake.click(other, lobby, lobby.buttons()[0])
        if GAMES[game].max_players > 2:
            await fake.click(admin, lobby, lobby.buttons()[2])  # Add bot
        await fake.click(admin, lobby, lobby.buttons()[3])  # Start
        for _ in range(6):
            for user in (admin, other):
                hand = await show_hand(fake, user)
                buttons, selects = move_components(hand)
                if buttons:
                    await fake.click(user, hand, buttons[0])
                elif selects:
                    select = selects[0]
                    picks = max(1, select.get("min_values", 1))
                    values = [o["value"] for o in select["options"][:picks]]
                    await fake.select(user, hand, select["custom_id"], values)
        await fake.slash(admin, "games")
    assert not fake.rejections, [str(r) for r in fake.rejections]


def test_the_checker_finds_english_and_spares_names_syntax_and_products() -> None:
    found = words_in(
        [
            "⟦Ŝĥöŵ ĥàñð ···⟧",
            "<@123> <t:1796671190:R> https://example.com/x /settings pictures:False `ab12cd`",
            "🍪 Cover Your Assets · Ana · dark\\_knight 42",
            "Waiting for Ana",
        ],
        names=["Ana", "dark_knight"],
    )
    assert [(f.word, f.text) for f in found] == [
        ("Waiting", "Waiting for Ana"),
        ("for", "Waiting for Ana"),
    ]


async def test_the_checker_reads_a_pseudo_lobby_clean(fake: FakeDiscord, db) -> None:
    """The lobby, its buttons and selects, and a player's own answers, in the pseudo-locale:
    nothing the cogs say is left in English (the game's option names are the games')."""
    host = fake.add_user("host", manage_guild=True)
    async with fake.running(make_bot(db)):
        await fake.slash(host, "language", language=PSEUDO)
        await fake.slash(host, "settings", language=PSEUDO)
        await fake.slash(host, "play", game="toss_your_cookies")
        lobby = table_of(fake)
        await fake.click(host, lobby, lobby.find_button("Ĵöîñ"))
    lobby_strings = list(lobby.strings())
    # The lobby's own words, minus the select of the game's options (the games' catalog).
    ours = [s for s in lobby_strings if s not in _option_words(lobby)]
    assert not words_in(ours, names=["Host", "host"]), words_in(ours, names=["Host"])
    # Every answer only the host saw: /language's, /settings', Join's.
    private = [s for m in fake.messages.values() if m.ephemeral for s in message_strings(m)]
    assert len(private) >= 3
    assert not words_in(private, names=["Host"]), report(words_in(private, names=["Host"]))
    # Everything recorded: what is left in English is the game's own (its option names).
    left = untranslated(fake, names=["Host"])
    assert {f.text for f in left} <= _option_words(lobby), report(left)


def _option_words(lobby) -> set[str]:  # type: ignore[no-untyped-def]
    words: set[str] = set()
    for select in lobby.selects():
        if ":lopt:" in select["custom_id"]:
            for option in select["options"]:
                words |= {option.get("label", ""), option.get("description") or ""}
    for embed in lobby.embeds:
        for field in embed.get("fields") or []:
            words.add(field.get("value", ""))
    return words


def test_the_pseudo_catalog_covers_the_cogs() -> None:
    """Every message a cog has is in each shipped catalog (make test checks they are
    translated once every area is done)."""
    for code in ("ko", "ja", "es", "pt_BR"):
        assert ("button", "Show hand") in catalog(code).messages, code
