"""The Discord edge of the catalogs: every word a cog sends is rendered here, in the
language of whoever reads it.

Two readers: a *person* reads their own answers (hand views, errors, /help, /rules, /stats,
/history, private replays, DMs) in the language they chose with /language, else their
Discord client's (``interaction.locale``); a *server* reads its public messages (tables,
pings, results, lobbies) in the language set by ``/settings language:``, else the server's
preferred locale, else English. A locale Cookie Jar lacks is English.

``say`` is for text Discord reads as markdown (content, embeds): the data in it (names,
deck names) is escaped for markdown and mentions. ``label`` is for components (buttons,
select options, placeholders, modal titles), which show no markdown: nothing is escaped.
"""

from __future__ import annotations

import re
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.utils import escape_markdown, escape_mentions

from games.core.text import Text
from games.core.translations import COMMAND, ENGLISH, SELECTABLE, catalog, language_for, render

if TYPE_CHECKING:
    from bot.client import CookieJar


def escape(data: str) -> str:
    """Somebody's words made inert in Discord text: no markdown, no mention pings. A link
    stays a link (a backslash in it would break it; Discord reads no markdown in a link)."""
    if _LINK.fullmatch(data):
        return escape_mentions(data)
    return escape_mentions(escape_markdown(data))


_LINK = re.compile(r"https?://[^\s<>()\[\]*`|~]+")


def say(text: str, language: str) -> str:
    """Markdown text (message content, embed parts) in ``language``, its data escaped.
    The slash commands a sentence names come as the reader's Discord app lists them: the
    catalog has them so (``translations.with_commands``), and ``slash`` for one alone."""
    return render(text, language, escape)


def label(text: str, language: str) -> str:
    """A component's words (a button, a select option, a placeholder, a modal's title) in
    ``language``: components show no markdown, so nothing is escaped."""
    return render(text, language)


def chosen(code: str) -> str | None:
    """A stored language choice as a language we ship, or None (follow the locale)."""
    return code if code in SELECTABLE else None


SEEN_KEPT = 50_000  # people whose client language is remembered: a few MB at most


class Languages:
    """Whose language a message is in. Cheap on every message: a server's choice comes with
    its settings (``KnownSettings``, already read for pictures), a person's with theirs (the
    service keeps them), the locales from Discord's cache or the interaction."""

    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot
        # The client locale each person last clicked with (the latest SEEN_KEPT people): a
        # DM or a hand view redrawn after another's move has no interaction to read it from.
        self._seen: OrderedDict[int, str] = OrderedDict()

    async def personal(self, interaction: discord.Interaction) -> str:
        """The language of an answer to ``interaction``, which only its user sees."""
        locale = language_for(locale_code(interaction.locale))
        self._saw(interaction.user.id, locale)
        own = await self._choice(interaction.user.id)
        return own or locale

    def _saw(self, user_id: int, language: str) -> None:
        self._seen[user_id] = language
        self._seen.move_to_end(user_id)
        if len(self._seen) > SEEN_KEPT:
            self._seen.popitem(last=False)

    async def public(self, guild_id: int | None) -> str:
        """The language of a server's public messages."""
        if not guild_id:
            return ENGLISH
        settings = await self.bot.known_settings.get(guild_id)
        own = chosen(settings.language)
        if own is not None:
            return own
        return self.server_default(guild_id, settings.preferred_locale)

    def server_default(self, guild_id: int, kept: str = "") -> str:
        """The server's preferred locale, as Discord's cache has it, else as the bot last
        heard it (``kept``: a server this process's cache lacks), else English."""
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return language_for(kept)
        return language_for(locale_code(guild.preferred_locale))

    async def of_person(self, user_id: int, guild_id: int | None) -> str:
        """The language of a private message without an interaction (a DM, a hand view
        redrawn after another's move): their choice, else the locale they last clicked
        with, else the server's."""
        own = await self._choice(user_id)
        if own is not None:
            return own
        seen = self._seen.get(user_id)
        return seen if seen is not None else await self.public(guild_id)

    async def _choice(self, user_id: int) -> str | None:
        return chosen((await self.bot.service.known_settings(user_id)).language)


def locale_code(locale: discord.Locale | str | None) -> str | None:
    """Discord's code of a locale ("ko", "es-419"), None for none."""
    if locale is None:
        return None
    return locale.value if isinstance(locale, discord.Locale) else str(locale)


_LANGUAGES: weakref.WeakKeyDictionary[discord.Client, Languages] = weakref.WeakKeyDictionary()


def languages(client: discord.Client) -> Languages:
    """The bot's ``Languages``, made on first use."""
    found = _LANGUAGES.get(client)
    if found is None:
        found = _LANGUAGES[client] = Languages(client)  # type: ignore[arg-type]
    return found


async def personal(interaction: discord.Interaction) -> str:
    return await languages(interaction.client).personal(interaction)


async def public(interaction: discord.Interaction) -> str:
    return await languages(interaction.client).public(interaction.guild_id)


# --- slash commands -----------------------------------------------------------------------
# Discord's locales for the languages we ship (Spanish twice: Spain's and Latin America's).
DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.korean: "ko",
    discord.Locale.japanese: "ja",
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.brazil_portuguese: "pt_BR",
}
NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


class CatalogTranslator(app_commands.Translator):
    """Slash commands, their options and choices from the same catalogs: a command's name
    is the message ``tc("command", name)``, descriptions and choices their own English."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = DISCORD_LOCALES.get(locale)
        if language is None:
            return None
        message: Any = string.message
        if not isinstance(message, Text):
            is_name = context.location in NAMES
            message = Text(str(message), context=COMMAND if is_name else None)
        if (message.context, message.msgid) not in catalog(language).messages:
            return None  # untranslated: Discord shows the English
        words = render(message, language)
        return words.lower() if context.location in NAMES else words
