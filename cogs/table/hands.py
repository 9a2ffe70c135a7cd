"""Each player's newest hand message, so the next one can take its place while Discord
still lets the bot delete it (an interaction's token reaches its messages for 15 minutes)."""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord

from cogs.table.base import Part

if TYPE_CHECKING:
    from bot.client import CookieJar

# An interaction's token edits or deletes its messages for 15 minutes; a margin for the
# request in flight.
HAND_EDITABLE = 15 * 60 - 30

# A player's newest hand message, and how to delete it: (application id, the token of the
# latest interaction that reaches it, message id, time.monotonic() of that interaction).
# Not the interaction, which holds its message, member and components; nor its webhook: a
# plain tuple of numbers and text is one the collector stops tracking, and under load some
# thousands of hands are kept for their 15 minutes (a webhook and a record each had made
# every full collection walk 10,000 more objects by the end of a 10-minute run).
_HandMessage = tuple[int, str, int, float]
_MESSAGE, _AT = 2, 3


def _hand_of(interaction: discord.Interaction, message_id: int) -> _HandMessage:
    return (interaction.application_id, interaction.token, message_id, time.monotonic())


class Hands(Part):
    def __init__(self, bot: CookieJar) -> None:
        super().__init__(bot)
        # Per (match, user): their newest hand message, so the next one can replace it.
        # Oldest first, so that dropping those past their 15 minutes stops at the first
        # younger one: a sweep of the whole dict on every hand grew with the hands kept.
        self._kept: OrderedDict[tuple[str, int], _HandMessage] = OrderedDict()

    async def replace(
        self, match_id: str, interaction: discord.Interaction, message_id: int
    ) -> None:
        """Remember the player's newest hand message; delete the one it replaces while
        Discord still lets us (an interaction's token can edit its messages for 15 minutes)."""
        key = (match_id, interaction.user.id)
        previous, hand = self._kept.get(key), _hand_of(interaction, message_id)
        self._keep(key, hand)
        if previous is None or hand[_AT] - previous[_AT] >= HAND_EDITABLE:
            return  # none, or too old to touch: Discord keeps it
        application_id, token, old_message, _ = previous
        if old_message != message_id:
            # Dismissed, or already gone: either way it no longer piles up. The endpoint
            # of the token's followup webhook, as interaction.followup would reach it.
            webhook = discord.Webhook.partial(application_id, token, client=self.bot)
            with contextlib.suppress(discord.HTTPException):
                await webhook.delete_message(old_message)

    def mark(self, match_id: str, user_id: int) -> _HandMessage | None:
        """The player's newest hand message as last answered in: a click answered there
        since gives another mark."""
        return self._kept.get((match_id, user_id))

    def is_open(self, match_id: str, user_id: int) -> bool:
        """The player has a hand message Discord still lets us edit."""
        hand = self._kept.get((match_id, user_id))
        return hand is not None and time.monotonic() - hand[_AT] < HAND_EDITABLE

    async def follow(self, match_id: str, user_id: int, message: dict[str, object]) -> bool:
        """Redraw the player's open hand message with ``message`` (their own view: the
        moves when their decision arrives), so a turn needs no new Show hand. False when
        there is none Discord still lets us edit, or the edit failed."""
        hand = self._kept.get((match_id, user_id))
        if hand is None or not self.is_open(match_id, user_id):
            return False
        application_id, token, message_id, _ = hand
        webhook = discord.Webhook.partial(application_id, token, client=self.bot)
        try:
            await webhook.edit_message(message_id, **message)  # type: ignore[arg-type]
        except discord.HTTPException:
            return False  # dismissed or gone: a ping tells them instead
        return True

    def forget(self, match_id: str) -> None:
        """An ended match's hands are not replaced by moves any more."""
        for key in [k for k in self._kept if k[0] == match_id]:
            del self._kept[key]

    def touched(self, match_id: str, interaction: discord.Interaction) -> None:
        """A click answered in the player's newest hand message renews its 15 minutes."""
        key = (match_id, interaction.user.id)
        hand = self._kept.get(key)
        if hand is not None and interaction.message and interaction.message.id == hand[_MESSAGE]:
            self._keep(key, _hand_of(interaction, hand[_MESSAGE]))

    def _keep(self, key: tuple[str, int], hand: _HandMessage) -> None:
        self._kept[key] = hand
        self._kept.move_to_end(key)
        while True:
            oldest = next(iter(self._kept))
            if hand[_AT] - self._kept[oldest][_AT] < HAND_EDITABLE:
                break
            del self._kept[oldest]  # too old to touch: Discord keeps it, and so do we not
