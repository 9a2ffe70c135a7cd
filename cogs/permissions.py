"""Before the bot opens a thread, posts or edits in a channel: is it allowed to?"""

from __future__ import annotations

import discord

from bot.errors import UserError
from bot.permissions import FOR_PICTURES, NEEDED, in_a_thread, missing
from games.core.text import Names, slash, t


def require_permissions(
    interaction: discord.Interaction,
    needed: tuple[str, ...],
    *,
    pictures: bool,
    again: str = "/play",
) -> None:
    """Before the bot posts, edits or opens a thread here: name what it lacks, and how to
    grant it, instead of failing on Discord's 403 (a table whose picture cannot be
    attached would stay a lobby, unseen by everyone)."""
    if pictures:
        needed = (*needed, *FOR_PICTURES)
    if isinstance(interaction.channel, discord.Thread):
        needed = in_a_thread(needed)
    lacking = missing(interaction.app_permissions, needed)
    if not lacking:
        return
    # Discord's own names of its permissions, as its settings show them.
    names = Names(t("**{permission}**", permission=name) for name in lacking)
    where = interaction.channel_id or 0
    # The pictures are the server's choice: turning them off is the other way out.
    if pictures_only(lacking):
        raise UserError(
            t(
                "I can't run a game in <#{channel}>: I'm missing {permissions} there. A server "
                "admin can grant it to my role in Server Settings → Roles, or in this channel's "
                "Edit Channel → Permissions; then try {command} again (or turn pictures off: "
                "/settings pictures:False).",
                channel=where,
                permissions=names,
                command=slash(again),
            )
        )
    raise UserError(
        t(
            "I can't run a game in <#{channel}>: I'm missing {permissions} there. A server admin "
            "can grant it to my role in Server Settings → Roles, or in this channel's Edit "
            "Channel → Permissions; then try {command} again.",
            channel=where,
            permissions=names,
            command=slash(again),
        )
    )


def pictures_only(lacking: list[str]) -> bool:
    """Whether what the bot lacks is needed only for the pictures."""
    return lacking == [NEEDED[name] for name in FOR_PICTURES]
