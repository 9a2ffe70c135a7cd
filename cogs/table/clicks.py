"""Answering clicks on the table: Show hand, a move, a grab in a race, Spectate, More,
I'm back, Rematch; and a refused click, with the current hand after a stale one."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.errors import ChannelTaken, NotSeated, StaleClick, UserError
from bot.permissions import IN_CHANNEL
from bot.service import Change, SeatView
from bot.store import MatchRecord
from cogs import render
from cogs.components import match_id_of, message_gone, person, tell
from cogs.permissions import require_permissions
from cogs.pictures import draws_pictures
from cogs.speech import personal, say
from cogs.table.base import Part
from cogs.table.drawing import Drawing, Note
from cogs.table.hands import Hands
from cogs.table.pictured import Drawn
from cogs.table.shown import Showing, Shown
from cogs.taken import channel_taken
from games.core.protocol import Action, IllegalAction
from games.core.text import t

if TYPE_CHECKING:
    from bot.client import CookieJar

# Seconds a hand view must stay as answered for its late picture to follow: a player who
# clicked on meanwhile reads the next answer, never that picture, and under load the edit
# (a webhook call, the view and its text again) cost more than the drawing.
PICTURE_FOLLOWS_AFTER = 0.25


class Clicks(Part):
    """The table's ``TableClicks`` (see buttons.py), and the explainer of refused clicks."""

    def __init__(self, bot: CookieJar, drawing: Drawing, hands: Hands, shown: Shown) -> None:
        super().__init__(bot)
        self.drawing, self.hands, self.shown = drawing, hands, shown
        # Late hand pictures: edited into the view, or not (a click answered there since).
        self.followed = self.passed_over = 0

    async def show_hand(self, interaction: discord.Interaction, match_id: str) -> None:
        seen = await self.service.seat_view(match_id, interaction.user.id)
        if seen.seat is None:
            raise NotSeated()
        if seen.match.status == "finished":
            await self.send_last_hand(interaction, seen)
            return
        await self.send_hand(interaction, seen)

    async def on_table(
        self,
        interaction: discord.Interaction,
        match_id: str,
        change: Awaitable[MatchRecord],
        *,
        command: bool = False,
    ) -> MatchRecord:
        """A click on the lobby or the table that changes it (Join, Start, a pick...): the
        change, then the message redrawn in the click's own answer (``command``: in the
        command's answer, which showed the lobby), which is free and at once. The
        presenter's edit, which the budget counts, waits for this answer and then finds
        nothing left to show."""
        with self.shown.answering(match_id):
            record = await change
            # Its picture waits as the presenter's would (TABLE_WAIT at most); one drawn
            # later comes with the presenter's edit, which the change asked for.
            drawn = await self.drawing.table_message(record, late=lambda: None)
            edit = self.shown.edit(match_id, record.message_id or 0, drawn)
            # The answer's message is the clicked one (or the command's): its token reaches
            # it for 15 minutes, and the presenter's edits go through it (free).
            clicked = interaction.message.id if interaction.message else None
            if record.message_id is not None and (command or clicked == record.message_id):
                self.shown.reached_by(match_id, interaction, record.message_id)
            if edit is None:  # it shows this already
                if not command:
                    await interaction.response.defer()
                return record
            kwargs, showing = edit
            if command:
                answered: object = await interaction.edit_original_response(**kwargs)
            else:
                answered = await interaction.response.edit_message(**kwargs)
            message = getattr(answered, "resource", answered)
            if isinstance(message, discord.Message) and message.id == record.message_id:
                self.shown.remember(record, message, showing)
        return record

    async def send_last_hand(self, interaction: discord.Interaction, seen: SeatView) -> None:
        """My last hand: the cards the player ended with, or, when the end left them
        empty-handed, the last cards they held (a replay: answered after a defer)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        held = await self.service.last_held(seen)
        note = [t("🃏 The last cards you held in this match.")] if held is not seen else []
        language = await personal(interaction)
        drawn = await self.drawing.hand_message(held, note, language=language)
        message = await interaction.followup.send(ephemeral=True, wait=True, **drawn.sent())
        await self.hands.replace(seen.match.match_id, interaction, message.id)

    async def send_hand(
        self, interaction: discord.Interaction, seen: SeatView, note: Note = ()
    ) -> None:
        """A fresh hand view, which takes the place of the player's previous one."""
        language = await personal(interaction)
        drawn = await self.drawing.hand_message(
            seen, note, language=language, then=self.picture_follows(seen, note, language)
        )
        message = await self.send_private(interaction, seen.match.match_id, drawn)
        if isinstance(message, discord.Message):  # late answers send WebhookMessages
            await self.hands.replace(seen.match.match_id, interaction, message.id)

    async def send_private(
        self, interaction: discord.Interaction, match_id: str, drawn: Drawn
    ) -> object:
        """A private answer to a click. Clicked on the table while its edit waits for the
        budget, the click's answer redraws the table first, which is free, and the private
        message follows (free too): the waiting edit then has nothing left to send. The
        message sent."""
        if await self._table_redrawn(interaction, match_id):
            return await interaction.followup.send(ephemeral=True, wait=True, **drawn.sent())
        response = await interaction.response.send_message(ephemeral=True, **drawn.sent())
        return response.resource

    async def _table_redrawn(self, interaction: discord.Interaction, match_id: str) -> bool:
        clicked = interaction.message
        if clicked is None or match_id not in self.shown.waiting or clicked.flags.ephemeral:
            return False
        record = await self.service.current(match_id)
        if record.message_id != clicked.id or record.status != "active":
            return False
        await self.on_table(interaction, match_id, self.service.current(match_id))
        return True

    async def move(
        self, interaction: discord.Interaction, match_id: str, stamp: str, picks: list[int]
    ) -> None:
        change = await self.service.act(match_id, interaction.user.id, stamp=stamp, picks=picks)
        seen = await self.service.seat_view(match_id, interaction.user.id)
        note = latest_lines(change, seen.seat)
        language = await personal(interaction)
        drawn = await self.drawing.hand_message(
            seen, note, language=language, then=self.picture_follows(seen, note, language)
        )
        await self.answer_in_hand(interaction, match_id, drawn)

    async def grab(
        self, interaction: discord.Interaction, match_id: str, race: str, action: str
    ) -> None:
        """A click on a card in a race, in the player's own hand view: the view is redrawn
        at once with what is left to grab now, so the next click is made on current counts."""
        private = interaction.message is not None and interaction.message.flags.ephemeral
        try:
            change = await self.service.grab(
                match_id, interaction.user.id, race=race, action=Action.decode(action)
            )
        except (UserError, IllegalAction) as exc:
            lost: list[str] = [exc.text, *self.drawing.who_got_it(match_id, race)]
            if not private:
                await self.tell_lines(interaction, lost)
                return
            note: Note = [t("⚠️ {why}", why=lost[0]), *lost[1:]]
        else:
            seat = change.match.seat_of(interaction.user.id)
            said = [e.text for e in change.events if e.visible_for(seat)]
            note = said or [t("✋ Got it.")]  # the lines carry their ✋
        seen = await self.service.seat_view(match_id, interaction.user.id)
        if private:
            language = await personal(interaction)
            drawn = await self.drawing.hand_message(
                seen, note, language=language, then=self.picture_follows(seen, note, language)
            )
            await self.answer_in_hand(interaction, match_id, drawn)
        else:  # a grab button on an older public table: the answer is a private hand view
            await self.send_hand(interaction, seen, note)

    async def answer_in_hand(
        self, interaction: discord.Interaction, match_id: str, drawn: Drawn
    ) -> None:
        """The clicked hand view redrawn. Answered late (the click was acknowledged first),
        the view may have been replaced or deleted meanwhile (a newer Show hand): the move
        stands, and the answer goes to the player's current view, if Discord still lets us
        edit it; nothing is wrong."""
        try:
            await interaction.response.edit_message(**drawn.edited())
        except discord.NotFound as gone:
            if not message_gone(gone):
                raise
            await self.hands.follow(match_id, interaction.user.id, drawn.edited())
            if not interaction.response.is_done():  # the click was on the gone view
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.defer()
            return
        self.hands.touched(match_id, interaction)

    async def tell_lines(self, interaction: discord.Interaction, lines: list[str]) -> None:
        """Sentences said together, privately, each in the clicker's language."""
        language = await personal(interaction)
        text = " ".join(say(line, language) for line in lines)
        await interaction.response.send_message(text, ephemeral=True)

    def picture_follows(
        self, seen: SeatView, note: Note = (), language: str = "en"
    ) -> Callable[[], None]:
        """When the picture a hand view went without (the drawers were busy) is drawn: the
        player's open hand view is redrawn with it once it has stayed as answered for
        PICTURE_FOLLOWS_AFTER; not if a click was answered there meanwhile (that answer
        had its picture, or its own follows)."""
        match_id, user_id = seen.match.match_id, seen.match.seats[seen.seat or 0].user_id

        def drawn() -> None:
            if user_id is not None:
                self.bot.spawn(
                    self._show_picture(match_id, user_id, note, language), f"picture:{match_id}"
                )

        return drawn

    async def _show_picture(self, match_id: str, user_id: int, note: Note, language: str) -> None:
        mark = self.hands.mark(match_id, user_id)
        if mark is None:
            return
        await asyncio.sleep(PICTURE_FOLLOWS_AFTER)
        if self.hands.mark(match_id, user_id) != mark or not self.hands.is_open(match_id, user_id):
            self.passed_over += 1
            return
        seen = await self.service.seat_view(match_id, user_id)
        drawn = await self.drawing.hand_message(seen, note, language=language, answer=False)
        if drawn.picture is not None and self.hands.mark(match_id, user_id) == mark:
            self.followed += await self.hands.follow(match_id, user_id, drawn.edited())

    async def spectate(self, interaction: discord.Interaction, match_id: str) -> None:
        """The public table, fresh, just for the asker: nothing hidden is in it."""
        record = await self.service.get(match_id)
        # The table as everyone sees it, in the server's language: what they will read.
        drawn = await self.drawing.table_message(record, answer=True)
        drawn.view = None
        await self.send_private(interaction, match_id, drawn)

    async def details(self, interaction: discord.Interaction, match_id: str) -> None:
        """The game's longer public panel (a whole discard pile), just for the asker."""
        seen = await self.service.seat_view(match_id, None)
        if seen.panels.details is None:
            raise UserError(t("There is nothing more to show for this game."))
        embed = render.embed_from_panel(seen.panels.details, await personal(interaction))
        await self.send_private(interaction, match_id, Drawn([embed], None))

    async def im_back(self, interaction: discord.Interaction, match_id: str) -> None:
        await self.service.im_back(match_id, interaction.user.id)
        seen = await self.service.seat_view(match_id, interaction.user.id)
        await self.send_hand(interaction, seen, note=[t("👋 Welcome back: your seat is yours.")])

    async def rematch(self, interaction: discord.Interaction, match_id: str) -> None:
        pictures = await draws_pictures(self.bot, interaction.guild_id or 0)
        require_permissions(interaction, IN_CHANNEL, pictures=pictures)
        who = person(interaction)
        try:
            record = await self.service.rematch(match_id, who)
        except ChannelTaken as taken:
            # Pressed after another player: their rematch's lobby holds this seat already.
            existing = await self.service.get(taken.match_id)
            raise UserError(channel_taken(existing, who)) from None
        with self.shown.answering(record.match_id):
            drawn = await self.drawing.table_message(record)  # a lobby: no picture
            showing = self.shown.showing(drawn)
            response = await interaction.response.send_message(**drawn.sent())
            await self.remember_message(record, response, interaction, showing)

    async def remember_message(
        self,
        record: MatchRecord,
        response: discord.InteractionCallbackResponse,
        interaction: discord.Interaction,
        showing: Showing | None = None,
    ) -> None:
        """The lobby a command or a click posted as its answer: the match's message, which
        its token reaches (``Shown.reach``), showing ``showing`` (then the presenter's
        edit for the changes it was drawn after has nothing to send)."""
        message = response.resource
        if isinstance(message, discord.Message):  # late answers send WebhookMessages
            await self.service.set_message(record.match_id, message.id)
            self.shown.reached_by(record.match_id, interaction, message.id)
            if showing is not None:
                self.shown.remember(record, message, showing)

    async def explain(self, interaction: discord.Interaction, text: str, error: Exception) -> None:
        """A short ephemeral sentence; after a stale click, the current hand with it."""
        if isinstance(error, StaleClick) and not interaction.response.is_done():
            match_id = getattr(error, "match_id", None) or match_id_of(interaction)
            if match_id:
                try:
                    seen = await self.service.seat_view(match_id, interaction.user.id)
                except UserError:
                    seen = None
                if seen is not None and seen.seat is not None:
                    await self.send_hand(interaction, seen, note=[t("⏩ {why}", why=text)])
                    return
        await tell(interaction, text)


# Lines of what a move led to that the mover's hand view tells: a hand that changed on the
# click (a pass all have now made, a round someone won meanwhile) says why.
MOVE_NEWS = 2


def latest_lines(change: Change, seat: int | None) -> Note:
    """The latest lines of ``change`` the seat may read, as one note (none: empty)."""
    said = [e.text for e in change.events if e.visible_for(seat)]
    return said[-MOVE_NEWS:]
