"""Each player's newest hand message, so the next one can take its place while Discord
still lets the bot delete it (an interaction's token reaches its messages for 15 minutes)."""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord

from cogs.table.base import Part
from cogs.table.reach import AT, EDITABLE, MESSAGE, Reach, edit_through, fresh, reach_of, webhook_of

if TYPE_CHECKING:
    from bot.client import CookieJar


class Hands(Part):
    def __init__(self, bot: CookieJar) -> None:
        super().__init__(bot)
        # Per (match, user): their newest hand message, so the next one can replace it.
        # Oldest first, so that dropping those past their 15 minutes stops at the first
        # younger one: a sweep of the whole dict on every hand grew with the hands kept.
        self._kept: OrderedDict[tuple[str, int], Reach] = OrderedDict()

    async def replace(
        self, match_id: str, interaction: discord.Interaction, message_id: int
    ) -> None:
        """Remember the player's newest hand message; delete the one it replaces while
        Discord still lets us (an interaction's token can edit its messages for 15 minutes)."""
        key = (match_id, interaction.user.id)
        previous, hand = self._kept.get(key), reach_of(interaction, message_id)
        self._keep(key, hand)
        if previous is None or hand[AT] - previous[AT] >= EDITABLE:
            return  # none, or too old to touch: Discord keeps it
        if previous[MESSAGE] != message_id:
            # Dismissed, or already gone: either way it no longer piles up.
            with contextlib.suppress(discord.HTTPException):
                await webhook_of(self.bot, previous).delete_message(previous[MESSAGE])

    def mark(self, match_id: str, user_id: int) -> Reach | None:
        """The player's newest hand message as last answered in: a click answered there
        since gives another mark."""
        return self._kept.get((match_id, user_id))

    def is_open(self, match_id: str, user_id: int) -> bool:
        """The player has a hand message Discord still lets us edit."""
        return fresh(self._kept.get((match_id, user_id)))

    async def follow(self, match_id: str, user_id: int, message: dict[str, object]) -> bool:
        """Redraw the player's open hand message with ``message`` (their own view: the
        moves when their decision arrives), so a turn needs no new Show hand. False when
        there is none Discord still lets us edit, or the edit failed."""
        hand = self._kept.get((match_id, user_id))
        if hand is None or not self.is_open(match_id, user_id):
            return False
        try:
            await edit_through(self.bot, hand, **message)
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
        if hand is not None and interaction.message and interaction.message.id == hand[MESSAGE]:
            self._keep(key, reach_of(interaction, hand[MESSAGE]))

    def _keep(self, key: tuple[str, int], hand: Reach) -> None:
        self._kept[key] = hand
        self._kept.move_to_end(key)
        while True:
            oldest = next(iter(self._kept))
            if hand[AT] - self._kept[oldest][AT] < EDITABLE:
                break
            del self._kept[oldest]  # too old to touch: Discord keeps it, and so do we not
