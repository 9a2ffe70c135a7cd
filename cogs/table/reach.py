"""A message the bot may still edit through an interaction's token, which is free: the
interaction endpoints are outside Discord's request budget, and a token reaches the
messages of its interaction (its answer, its follow-ups) for 15 minutes.

A hand view is the answer (or a follow-up) of the click that showed it; a lobby or a table
is the answer of the last click on it that redrew it (Join, Add bot, Start: Discord's
``UPDATE_MESSAGE``), or of the command that posted it (/play, Rematch).

Kept as a plain tuple of numbers and text, not the interaction (which holds its message,
member and components) nor its webhook: a tuple is one the collector stops tracking, and
under load some thousands are kept for their 15 minutes.
"""

from __future__ import annotations

import time
from typing import Any

import discord

# An interaction's token edits or deletes its messages for 15 minutes; a margin for the
# request in flight.
EDITABLE = 15 * 60 - 30

# (application id, the interaction's token, the message's id, time.monotonic() of the
# interaction).
Reach = tuple[int, str, int, float]
MESSAGE, AT = 2, 3


def reach_of(interaction: discord.Interaction, message_id: int) -> Reach:
    return (interaction.application_id, interaction.token, message_id, time.monotonic())


def fresh(reach: Reach | None) -> bool:
    """Discord still lets the token edit its message."""
    return reach is not None and time.monotonic() - reach[AT] < EDITABLE


def webhook_of(client: discord.Client, reach: Reach) -> discord.Webhook:
    """The token's webhook, the endpoint ``interaction.followup`` reaches too."""
    return discord.Webhook.partial(reach[0], reach[1], client=client)


async def edit_through(client: discord.Client, reach: Reach, **message: Any) -> discord.Message:
    """Edit the message through the token (free); raises ``discord.HTTPException`` when
    Discord refuses (the token expired, the message is gone)."""
    return await webhook_of(client, reach).edit_message(reach[MESSAGE], **message)
