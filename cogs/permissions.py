"""Before the bot opens a thread, posts or edits in a channel: is it allowed to?"""

from __future__ import annotations

import discord

from bot.errors import UserError
from bot.permissions import missing
from games.core.words import join_names


def require_permissions(interaction: discord.Interaction, needed: tuple[str, ...]) -> None:
    """Before the bot posts, edits or opens a thread here: name what it lacks, and how to
    grant it, instead of failing on Discord's 403."""
    lacking = missing(interaction.app_permissions, needed)
    if not lacking:
        return
    names = join_names([f"**{name}**" for name in lacking])
    where = f"<#{interaction.channel_id}>"
    raise UserError(
        f"I can't run a game in {where}: I'm missing {names} there. A server admin can "
        "grant it to my role in Server Settings → Roles, or in this channel's Edit Channel "
        "→ Permissions; then try /play again."
    )
