"""What every cog's pictures share: whether a server wants them (``/settings pictures``,
on unless its admins turned it off), and a PNG attached as an embed's image.

Pictures are drawn in a worker thread by the caller (``asyncio.to_thread``), never on
the event loop: a big bracket takes a fifth of a second.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord

from cogs.speech import label
from games.core.text import t
from games.core.translations import ENGLISH

if TYPE_CHECKING:
    from bot.client import CookieJar


async def pictures_on(bot: CookieJar, guild_id: int) -> bool:
    """The server's ``pictures`` setting (an old row reads as on)."""
    return (await bot.known_settings.get(guild_id)).pictures


def attach(
    embed: discord.Embed, png: bytes | None, filename: str, language: str = ENGLISH
) -> list[discord.File]:
    """The embed shows ``png`` as its image; the files to send with it (none without)."""
    if png is None:
        return []
    embed.set_image(url=f"attachment://{filename}")
    # The description is the picture's alt text: the embed's own text says it in words.
    alt = label(t("A picture of the text"), language)
    return [discord.File(io.BytesIO(png), filename=filename, description=alt)]


def keep(embed: discord.Embed, message: discord.Message | None, filename: str) -> None:
    """A message edited without new files keeps its picture: the new embed points at the
    attachment it already has."""
    if message is not None and any(a.filename == filename for a in message.attachments):
        embed.set_image(url=f"attachment://{filename}")


def with_files(files: list[discord.File]) -> dict[str, list[discord.File]]:
    """``files=`` for a send only when there are some."""
    return {"files": files} if files else {}


async def draws_pictures(bot: CookieJar, guild_id: int) -> bool:
    """Whether the server's tables carry pictures: this process draws (``PICTURES``) and
    the server wants them."""
    return bot.settings.pictures and await pictures_on(bot, guild_id)
