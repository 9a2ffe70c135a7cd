"""The Discord permissions the bot needs, named as Discord's settings name them."""

from __future__ import annotations

import discord

# Every permission the bot uses in a game's channel: to post the table and pings, edit the
# table, and open a thread for a match and talk in it.
NEEDED: dict[str, str] = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",  # the tables' pictures (unless /settings pictures:off)
    "read_message_history": "Read Message History",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "manage_threads": "Manage Threads",  # tournaments archive their tables' threads
    "manage_events": "Manage Events",  # recurring tournaments go in the server's Events
}
IN_CHANNEL = ("view_channel", "send_messages", "embed_links", "read_message_history")
FOR_THREADS = (*IN_CHANNEL, "create_public_threads", "send_messages_in_threads")
FOR_PICTURES = ("attach_files",)

INVITE_PERMISSIONS = discord.Permissions(**dict.fromkeys(NEEDED, True))


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with every permission it needs."""
    return discord.utils.oauth_url(
        application_id,
        permissions=INVITE_PERMISSIONS,
        scopes=("bot", "applications.commands"),
    )


def in_a_thread(needed: tuple[str, ...]) -> tuple[str, ...]:
    """What ``needed`` means inside a thread: there Discord asks for Send Messages in
    Threads, and Send Messages (the parent channel's) does not count."""
    return tuple("send_messages_in_threads" if name == "send_messages" else name for name in needed)


def missing(permissions: discord.Permissions, needed: tuple[str, ...]) -> list[str]:
    """The names (as Discord shows them) of the needed permissions that are not granted."""
    return [NEEDED[name] for name in needed if not getattr(permissions, name)]
