"""Shows matches in Discord: the table message kept current, turn pings, hand views.

It listens to the service: whatever changed a match (a click, a bot, later a timer), the
table is re-rendered from the stored state. Edits are coalesced per match so a burst of
moves costs one edit per interval, well inside Discord's rate limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord

from bot.errors import NotSeated, StaleClick, UserError
from bot.permissions import IN_CHANNEL
from bot.service import Change, MatchService, SeatView, settings_of
from bot.service.base import match_outcome, waiting_on
from bot.store import MatchRecord
from bot.store.models import GONE, STANDING_IN
from bot.timing import PAUSED_FROM
from cogs import render
from cogs.components import (
    LobbyButton,
    LobbyOption,
    MoveButton,
    MoveSelect,
    RaceButton,
    TableButton,
    components_view,
    match_id_of,
    person,
    tell,
)
from cogs.decks import SeatChoiceSelect
from cogs.permissions import require_permissions
from games.core.panels import PanelField
from games.core.protocol import Action, Decision, Game, GameState, IllegalAction, SeatChoosing

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)

T = TypeVar("T")
THREAD_ARCHIVED = 50083  # Discord's error code for writing to an archived thread
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


SWEEP_AFTER = 3.0  # seconds an old ping stays, so that pings of a burst go in one call
BULK_AGE = (14 * 24 - 1) * 3600.0  # seconds: bulk delete refuses older messages


class Presenter:
    def __init__(self, bot: CookieJar, *, edit_interval: float = 1.0) -> None:
        self.bot = bot
        self.edit_interval = edit_interval
        self._dirty: set[str] = set()
        self._flushers: dict[str, asyncio.Task[object]] = {}
        self._last_ping: dict[str, discord.Message] = {}
        # Turn pings are sent off the click's path, one task per match: seats that newly
        # must decide gather here until it sends (a burst of moves pings once).
        self._ping_seats: dict[str, set[int]] = {}
        self._ping_news: dict[str, list[str]] = {}  # the public lines the next ping tells of
        self._pingers: dict[str, asyncio.Task[object]] = {}
        # Old pings wait here to be deleted together, a few seconds later.
        self._stale_pings: dict[int, list[int]] = {}
        self._posted: dict[int, float] = {}  # ping message id -> loop time it was posted
        self._sweepers: dict[int, asyncio.Task[object]] = {}
        self._enders: dict[str, asyncio.Task[object]] = {}  # a match's closing message
        self._notices: dict[str, asyncio.Future[None]] = {}  # a timeout notice being posted
        self.pace = ChannelPace()
        # Per match: the race on the table and its cards in first-seen order, so buttons
        # keep their places while people click, and taken cards show greyed out.
        self._race_cards: dict[str, tuple[str, dict[str, str]]] = {}
        # Per (match, user): their newest hand message, so the next one can replace it.
        # Oldest first, so that dropping those past their 15 minutes stops at the first
        # younger one: a sweep of the whole dict on every hand grew with the hands kept.
        self._hands: OrderedDict[tuple[str, int], _HandMessage] = OrderedDict()

    @property
    def service(self) -> MatchService:
        return self.bot.service

    # --- building messages -------------------------------------------------------------
    def lobby_view(self, record: MatchRecord) -> discord.ui.View:
        view = components_view()
        for verb in ("join", "leave", "bot", "start", "cancel"):
            view.add_item(LobbyButton(record.match_id, verb))
        game = self.service.game_of(record)
        rows = render.LOBBY_SELECTS
        if isinstance(game, SeatChoosing):
            view.add_item(SeatChoiceSelect.build(record.match_id, game))
            rows -= 1
        for name, choices in render.option_select_choices(record, game, rows):
            view.add_item(LobbyOption.build(record.match_id, name, choices))
        return view

    async def table_message(
        self, record: MatchRecord
    ) -> tuple[list[discord.Embed], discord.ui.View | None]:
        game = self.service.game_of(record)
        if record.status == "lobby":
            return [render.lobby_embed(record, game)], self.lobby_view(record)
        if record.state is None:
            return [render.closed_embed(record, game)], None
        spectator = await self.service.seat_view(record.match_id, None)
        table = spectator.panels.table
        if record.status == "active":
            # The match's own lines go first, inside the same size budget as the game's.
            extra = await self.match_fields(record)
            table = table.model_copy(update={"fields": (*extra, *table.fields)})
        embed = render.embed_from_panel(table)
        view = components_view()
        if not spectator.races:
            self._race_cards.pop(record.match_id, None)
        if record.status == "active":
            # In a race the grab buttons are in each player's own hand view, current for
            # them at every click; the table shows the pile.
            label = "Grab cards" if spectator.races else None
            view.add_item(TableButton("hand", record.match_id, label=label))
            view.add_item(TableButton("watch", record.match_id))
            if spectator.panels.details is not None:
                label = render.clip(spectator.panels.details.title, render.LABEL)
                view.add_item(TableButton("more", record.match_id, label=label))
        elif record.status == "finished":
            view.add_item(TableButton("hand", record.match_id, label="My last hand"))
            view.add_item(TableButton("watch", record.match_id))
            view.add_item(TableButton("rematch", record.match_id))
        else:
            embed.description = "**This match was cancelled.**\n" + (embed.description or "")
            embed.description = render.clip(embed.description, render.DESCRIPTION)
            view = None
        return [embed], view

    def add_race(self, view: discord.ui.View, match_id: str, race: Decision) -> None:
        """One button per kind of card in the seat's race, above the hand view's last row."""
        stamp = race.race_stamp
        known = self._race_cards.get(match_id)
        cards = dict(known[1]) if known and known[0] == stamp else {}
        offered: dict[str, str] = {}
        for option in race.options:
            offered.setdefault(option.action.encode(), option.label)
        for action, label in offered.items():
            cards.setdefault(action, label)
        self._race_cards[match_id] = (stamp, cards)
        slots = render.BUTTONS_PER_ROW * (render.ROWS - 1)
        for index, (action, label) in enumerate(list(cards.items())[:slots]):
            taken = action not in offered
            view.add_item(
                RaceButton(
                    match_id,
                    stamp,
                    action,
                    f"{label} (taken)" if taken else offered[action],
                    disabled=taken,
                    row=index // render.BUTTONS_PER_ROW,
                )
            )

    async def match_fields(self, record: MatchRecord) -> list[PanelField]:
        """Deadlines, bots standing in, vacations: how the match is run, not the game."""
        fields = []
        deadlines = await self.service.deadlines(record.match_id)
        racing = await self.service.racing(record.match_id)
        if racing and deadlines:
            closes = min(deadlines[seat] for seat in racing if seat in deadlines)
            fields.append(PanelField(name="🏃 Grab now!", value=f"Closes <t:{int(closes)}:R>"))
            deadlines = {s: due for s, due in deadlines.items() if s not in racing}
        if deadlines:
            fields.append(
                PanelField(
                    name=f"⏰ Time to move · {render.pace_line(record)}",
                    value=render.deadline_lines(record, deadlines),
                )
            )
        away = [s.name for s in record.seats if s.user_id is not None and s.away]
        if away:
            fields.append(PanelField(name="🤖 Bots standing in", value=", ".join(away)))
        vacations = await self.vacations(record)
        if vacations:
            fields.append(PanelField(name="🏖️ On vacation", value=vacations))
        return fields

    def hand_message(self, seen: SeatView, note: str | None = None) -> dict[str, object]:
        """The ephemeral hand view: the hand, what to decide, and the moves as components."""
        embeds = []
        if seen.panels.hand is not None:
            embeds.append(render.embed_from_panel(seen.panels.hand))
        lines = [note] if note else []
        view = components_view()
        decision = seen.decision
        mine = seen.match.seats[seen.seat] if seen.seat is not None else None
        if mine is not None and mine.away == STANDING_IN:
            lines.append("🤖 A bot is playing your seat. Press **I'm back** to play again.")
            view.add_item(TableButton("back", seen.match.match_id))
        if seen.match.status != "active":
            lines.append(
                "This match is over."
                if seen.match.status == "finished"
                else "This match was cancelled."
            )
        elif decision is None:
            names = [s.name for s in seen.match.seats if s.seat in seen.waiting_on]
            lines.append(f"Waiting for **{', '.join(names)}**. You'll be pinged on your turn.")
        elif decision.window is not None:
            lines.append(f"**{decision.prompt}**")
            self.add_race(view, seen.match.match_id, decision)
        else:
            lines.append(f"**{decision.prompt}**")
            for row, (kind, title, options) in enumerate(render.layout(decision)):
                if kind == "button":
                    for index, option in options:
                        view.add_item(
                            MoveButton(
                                seen.match.match_id,
                                decision.stamp,
                                index,
                                option.label,
                                render.button_style(option.style),
                                row=row,
                            )
                        )
                else:
                    multi = kind == "multi"
                    view.add_item(
                        MoveSelect.build(
                            seen.match.match_id,
                            decision.stamp,
                            row,
                            title,
                            render.select_choices(options, decision.max_picks if multi else 1),
                            picks=(decision.min_picks, decision.max_picks) if multi else (1, 1),
                        )
                    )
        if seen.match.status == "active":
            for chance in seen.chances:  # a shout: on the last row, beside Refresh
                for index, option in enumerate(chance.options[: render.BUTTONS_PER_ROW - 2]):
                    view.add_item(
                        MoveButton(
                            seen.match.match_id,
                            chance.stamp,
                            index,
                            option.label,
                            render.button_style(option.style),
                            row=render.ROWS - 1,
                        )
                    )
        refresh = TableButton(
            "hand", seen.match.match_id, label="Refresh", style=discord.ButtonStyle.secondary
        )
        refresh.item.row = render.ROWS - 1  # the plan leaves the last row for it
        view.add_item(refresh)
        return {"content": "\n".join(lines), "embeds": embeds, "view": view}

    # --- answering people --------------------------------------------------------------
    async def show_hand(self, interaction: discord.Interaction, match_id: str) -> None:
        seen = await self.service.seat_view(match_id, interaction.user.id)
        if seen.seat is None:
            raise NotSeated()
        if seen.match.status == "finished":
            await self.send_last_hand(interaction, seen)
            return
        await self.send_hand(interaction, seen)

    async def send_last_hand(self, interaction: discord.Interaction, seen: SeatView) -> None:
        """My last hand: the cards the player ended with, or, when the end left them
        empty-handed, the last cards they held (a replay: answered after a defer)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        held = await self.service.last_held(seen)
        note = "🃏 The last cards you held in this match." if held is not seen else None
        message = await interaction.followup.send(
            ephemeral=True, wait=True, **self.hand_message(held, note)
        )
        await self.replace_hand(seen.match.match_id, interaction, message.id)

    async def send_hand(
        self, interaction: discord.Interaction, seen: SeatView, note: str | None = None
    ) -> None:
        """A fresh hand view, which takes the place of the player's previous one."""
        response = await interaction.response.send_message(
            ephemeral=True, **self.hand_message(seen, note)
        )
        message = response.resource
        if isinstance(message, discord.InteractionMessage):
            await self.replace_hand(seen.match.match_id, interaction, message.id)

    async def replace_hand(
        self, match_id: str, interaction: discord.Interaction, message_id: int
    ) -> None:
        """Remember the player's newest hand message; delete the one it replaces while
        Discord still lets us (an interaction's token can edit its messages for 15 minutes)."""
        key = (match_id, interaction.user.id)
        previous, hand = self._hands.get(key), _hand_of(interaction, message_id)
        self._keep_hand(key, hand)
        if previous is None or hand[_AT] - previous[_AT] >= HAND_EDITABLE:
            return  # none, or too old to touch: Discord keeps it
        application_id, token, old_message, _ = previous
        if old_message != message_id:
            # Dismissed, or already gone: either way it no longer piles up. The endpoint
            # of the token's followup webhook, as interaction.followup would reach it.
            webhook = discord.Webhook.partial(application_id, token, client=self.bot)
            with contextlib.suppress(discord.HTTPException):
                await webhook.delete_message(old_message)

    def forget_hands(self, match_id: str) -> None:
        """An ended match's hands are not replaced by moves any more."""
        for key in [k for k in self._hands if k[0] == match_id]:
            del self._hands[key]

    def touched_hand(self, match_id: str, interaction: discord.Interaction) -> None:
        """A click answered in the player's newest hand message renews its 15 minutes."""
        key = (match_id, interaction.user.id)
        hand = self._hands.get(key)
        if hand is not None and interaction.message and interaction.message.id == hand[_MESSAGE]:
            self._keep_hand(key, _hand_of(interaction, hand[_MESSAGE]))

    def _keep_hand(self, key: tuple[str, int], hand: _HandMessage) -> None:
        self._hands[key] = hand
        self._hands.move_to_end(key)
        while True:
            oldest = next(iter(self._hands))
            if hand[_AT] - self._hands[oldest][_AT] < HAND_EDITABLE:
                break
            del self._hands[oldest]  # too old to touch: Discord keeps it, and so do we not

    async def move(
        self, interaction: discord.Interaction, match_id: str, stamp: str, picks: list[int]
    ) -> None:
        await self.service.act(match_id, interaction.user.id, stamp=stamp, picks=picks)
        seen = await self.service.seat_view(match_id, interaction.user.id)
        await interaction.response.edit_message(**self.hand_message(seen))
        self.touched_hand(match_id, interaction)

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
            if not private:
                raise
            note = f"⚠️ {exc}"
        else:
            seat = change.match.seat_of(interaction.user.id)
            said = [e.text for e in change.events if e.visible_for(seat)]
            note = " ".join(said) or "✋ Got it."  # the lines carry their ✋
        seen = await self.service.seat_view(match_id, interaction.user.id)
        if private:
            await interaction.response.edit_message(**self.hand_message(seen, note))
            self.touched_hand(match_id, interaction)
        else:  # a grab button on an older public table: the answer is a private hand view
            await self.send_hand(interaction, seen, note)

    async def spectate(self, interaction: discord.Interaction, match_id: str) -> None:
        """The public table, fresh, just for the asker: nothing hidden is in it."""
        record = await self.service.get(match_id)
        embeds, _ = await self.table_message(record)
        await interaction.response.send_message(embeds=embeds, ephemeral=True)

    async def details(self, interaction: discord.Interaction, match_id: str) -> None:
        """The game's longer public panel (a whole discard pile), just for the asker."""
        seen = await self.service.seat_view(match_id, None)
        if seen.panels.details is None:
            raise UserError("There is nothing more to show for this game.")
        embed = render.embed_from_panel(seen.panels.details)
        await interaction.response.send_message(embeds=[embed], ephemeral=True)

    async def im_back(self, interaction: discord.Interaction, match_id: str) -> None:
        await self.service.im_back(match_id, interaction.user.id)
        seen = await self.service.seat_view(match_id, interaction.user.id)
        await self.send_hand(interaction, seen, note="👋 Welcome back: your seat is yours.")

    async def rematch(self, interaction: discord.Interaction, match_id: str) -> None:
        require_permissions(interaction, IN_CHANNEL)
        record = await self.service.rematch(match_id, person(interaction))
        embeds, view = await self.table_message(record)
        response = await interaction.response.send_message(embeds=embeds, view=view)
        await self.remember_message(record, response)

    async def remember_message(
        self, record: MatchRecord, response: discord.InteractionCallbackResponse
    ) -> None:
        message = response.resource
        if isinstance(message, discord.InteractionMessage):
            await self.service.set_message(record.match_id, message.id)

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
                    await self.send_hand(interaction, seen, note=f"⏩ {text}")
                    return
        await tell(interaction, text)

    # --- talking in a match's channel or thread -----------------------------------------
    async def unarchived(self, channel_id: int, send: Callable[[], Awaitable[T]]) -> T:
        """Run ``send``; if the match's thread was archived for inactivity, reopen it first."""
        try:
            return await send()
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
            await self.bot.http.edit_channel(channel_id, archived=False)
            return await send()

    async def post(
        self, channel_id: int, content: str | None = None, *, paced: bool = False, **kwargs: Any
    ) -> discord.Message:
        """A new message in the channel, within its message rate (``paced``: the caller
        already waited for its turn)."""
        if not paced:
            await self.pace.wait(channel_id)
        channel = self.bot.get_partial_messageable(channel_id)
        return await self.unarchived(channel_id, lambda: channel.send(content, **kwargs))

    # --- keeping the table current -----------------------------------------------------
    async def on_change(self, change: Change) -> None:
        if change.kind == "reminder":
            await self.remind(change)
            return
        self.request_refresh(change.match.match_id)
        if change.timed_out is not None:
            # ``flushed`` waits for it too: while the notice waits for its turn to post,
            # the bots may finish a multiplayer table and its event archive the thread.
            match_id = change.match.match_id
            notice = self._notices[match_id] = asyncio.ensure_future(self.say_timed_out(change))
            try:
                await notice
            finally:
                if self._notices.get(match_id) is notice:
                    del self._notices[match_id]
        if change.kind == "started" or (change.kind == "finished" and change.previous is None):
            # A match whose deal decided it is started and finished by one change.
            await self.name_thread(change.match)
        if change.kind in ("started", "action"):
            await self.ping_new_deciders(change)
        elif change.kind in ("finished", "cancelled"):
            self._ping_seats.pop(change.match.match_id, None)
            self._ping_news.pop(change.match.match_id, None)
            self.forget_hands(change.match.match_id)
            self.clear_ping(change.match.match_id)
            # Off the click's path; ``flushed`` waits for it (a thread is not archived first).
            match_id = change.match.match_id
            ender = self._enders[match_id] = self.bot.spawn(
                self.say_the_end(change), f"end:{match_id}"
            )
            ender.add_done_callback(lambda done: self._forget_ender(match_id, done))

    def request_refresh(self, match_id: str) -> None:
        self._dirty.add(match_id)
        task = self._flushers.get(match_id)
        if task is None or task.done():
            self._flushers[match_id] = self.bot.spawn(self._flush(match_id), f"table:{match_id}")

    async def flushed(self, match_id: str) -> None:
        """Wait for the table's pending edits and its closing message (before its thread
        is archived, say)."""
        for tasks in (self._flushers, self._enders, self._notices):
            task = tasks.get(match_id)
            if task is not None and not task.done():
                await asyncio.wait({task})

    def _forget_ender(self, match_id: str, done: asyncio.Task[object]) -> None:
        if self._enders.get(match_id) is done:
            del self._enders[match_id]

    async def _flush(self, match_id: str) -> None:
        while match_id in self._dirty:
            self._dirty.discard(match_id)
            try:
                await with_retries(
                    lambda: self.refresh(match_id), f"the table edit of match {match_id}"
                )
            except Exception as exc:
                if retry_delay(exc, 0) is None:
                    log.exception("could not refresh the table of match %s", match_id)
                else:  # Discord is unwell: the next change redraws the table
                    log.warning("gave up on the table of match %s: %s", match_id, exc)
            await asyncio.sleep(self.edit_interval)
        self._flushers.pop(match_id, None)

    async def refresh(self, match_id: str) -> None:
        record = await self.service.current(match_id)
        if record.message_id is None:
            return  # the lobby's message is not known yet; /play will store it
        embeds, view = await self.table_message(record)
        channel = self.bot.get_partial_messageable(record.channel_id)
        table = channel.get_partial_message(record.message_id)
        try:
            await self.unarchived(record.channel_id, lambda: table.edit(embeds=embeds, view=view))
        except discord.NotFound:
            # Someone deleted the table: post a fresh one rather than leave the match stuck.
            message = await self.post(record.channel_id, embeds=embeds, view=view)
            await self.service.set_message(match_id, message.id)

    async def ping_new_deciders(self, change: Change) -> None:
        """Seats that must now decide and did not before get a ping, sent after the click
        is answered (see ``_send_pings``)."""
        if change.state is None:
            return
        game = self.service.game_of(change.match)
        decide = self.service.decisions
        earlier = decide(game, change.previous) if change.previous else ()
        before = set(waiting_on(earlier))
        if change.previous is not None:  # a seat whose move was played for it was not pinged
            before -= set(await self.service.forced_for(change.match, change.previous))
        races = {d.race_stamp for d in earlier if d.window is not None}
        deciding = decide(game, change.state)
        forced = await self.service.forced_for(change.match, change.state)  # no ping: auto
        # A race that opens is news even to a seat that was already deciding (the last
        # toss ends the choosing and starts the scramble).
        racing = {d.seat for d in deciding if d.window is not None and d.race_stamp not in races}
        new = {s for s in waiting_on(deciding) if (s not in before or s in racing)} - set(forced)
        humans = {s.seat for s in change.match.seats if s.seat in new and s.user_id}
        match_id = change.match.match_id
        said = [e.text for e in change.events if e.visible_to is None]
        if said:  # what happened, for the ping that tells of it (the latest lines win)
            self._ping_news[match_id] = (self._ping_news.get(match_id, []) + said)[-3:]
        if not humans:
            return
        self._ping_seats.setdefault(match_id, set()).update(humans)
        task = self._pingers.get(match_id)
        if task is None or task.done():
            self._pingers[match_id] = self.bot.spawn(self._send_pings(match_id), f"ping:{match_id}")

    async def _send_pings(self, match_id: str) -> None:
        """Post the match's pending ping, then sweep the previous one away.

        A new message with a real mention (an edited mention does not notify), within the
        channel's message rate; whoever answered meanwhile is left out of it."""
        try:
            while seats := self._ping_seats.pop(match_id, None):
                record, _ = await self.service.deciding_now(match_id)
                if record.status != "active":
                    return
                await self.pace.wait(record.channel_id)
                seats |= self._ping_seats.pop(match_id, set())  # gathered while waiting
                record, deciding = await self.service.deciding_now(match_id)
                pinged = sorted(seats & waiting_on(deciding))
                if not pinged or record.status != "active":
                    continue
                if not any(record.seats[s].user_id for s in pinged):
                    continue
                game = self.service.game_of(record)
                deadlines = await self.service.deadlines(match_id)
                said = self._ping_news.pop(match_id, [])
                text, view = turn_ping(record, game, deciding, pinged, deadlines, said)
                try:
                    message = await with_retries(
                        partial(self.post, record.channel_id, text, view=view, paced=True),
                        f"the ping in match {match_id}",
                    )
                except (discord.HTTPException, TimeoutError, OSError):
                    log.warning("could not ping in channel %s", record.channel_id)
                    continue
                self.clear_ping(match_id)
                self._last_ping[match_id] = message
                self._posted[message.id] = asyncio.get_running_loop().time()
                await self.dm_turns(record, game, pinged, deadlines)
        except UserError:
            return  # the match is gone
        finally:
            self._pingers.pop(match_id, None)

    async def dm_turns(
        self, record: MatchRecord, game: Game, seats: list[int], deadlines: dict[int, float]
    ) -> None:
        """In games of a day or more a move, a turn may come while its player is away from
        the channel: those who asked (/notify) also hear of it by direct message."""
        if settings_of(record).budget() < PAUSED_FROM:
            return
        link = render.jump_link(record) or f"<#{record.channel_id}>"
        for seat in record.seats:
            if seat.seat not in seats or seat.user_id is None or seat.played_by_bot:
                continue
            due = deadlines.get(seat.seat)
            when = f" Answer <t:{int(due)}:R>." if due else ""
            await self.direct_message(
                seat.user_id, f"🎯 It's your move in **{game.name}**: {link}{when}"
            )

    async def say_the_end(self, change: Change) -> None:
        """The end of a match, posted at the bottom where people look: who won, the
        ranking, everyone mentioned so it notifies them; or who cancelled, quietly."""
        if change.kind == "finished" and change.state is not None:
            game = self.service.game_of(change.match)
            text, embed = final_message(change.match, game, change.state)
            mentions = discord.AllowedMentions(users=True, roles=False, everyone=False)
        elif change.kind == "cancelled" and change.match.state is not None:
            text, embed = cancelled_message(change, self.service.game_of(change.match)), None
            mentions = discord.AllowedMentions.none()
        else:
            return  # a lobby that never started: its own message says it was cancelled
        view = components_view()
        view.add_item(TableButton("rematch", change.match.match_id))
        link = render.jump_link(change.match)
        if link:
            view.add_item(discord.ui.Button(label="Jump to table", url=link, emoji="⬆️"))
        try:
            await with_retries(
                partial(
                    self.post,
                    change.match.channel_id,
                    text,
                    embeds=[embed] if embed else [],
                    view=view,
                    allowed_mentions=mentions,
                    paced=True,
                ),
                f"the end of match {change.match.match_id}",
            )
        except (discord.HTTPException, TimeoutError, OSError):
            log.warning("could not post the end of match %s", change.match.match_id)

    async def vacations(self, record: MatchRecord) -> str:
        now = self.service.clock.now()
        lines = []
        for seat in record.seats:
            if seat.user_id is None:
                continue
            person = await self.service.known_settings(seat.user_id)
            if person.away_at(now) and person.away_until is not None:
                lines.append(f"{seat.name} until <t:{int(person.away_until)}:D>")
        return "\n".join(lines)

    async def direct_message(self, user_id: int, text: str) -> None:
        """A DM for people who asked for them; a closed inbox is not an error."""
        if not (await self.service.user_settings(user_id)).notify:
            return
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.info("could not DM user %s; they keep the channel reminder", user_id)

    async def name_thread(self, record: MatchRecord) -> None:
        """A match's thread is named after the game and its players once it starts."""
        if not settings_of(record).thread:
            return
        game = self.service.game_of(record)
        name = render.clip(f"🍪 {game.name} · {', '.join(s.name for s in record.seats)}", 100)
        try:
            await self.bot.http.edit_channel(record.channel_id, name=name, archived=False)
        except discord.HTTPException:
            log.warning("could not rename the thread of match %s", record.match_id)

    async def remind(self, change: Change) -> None:
        timer = change.timer
        seat = next((s for s in change.match.seats if timer and s.seat == timer.seat), None)
        if timer is None or seat is None or seat.user_id is None:
            return
        game = self.service.game_of(change.match)
        lead = {"remind_final": "⌛ Last call", "remind_asked": "👋 Nudge from the table"}.get(
            timer.kind, "⏳ Reminder"
        )
        deadline = await self.service.deadlines(change.match.match_id)
        due = deadline.get(timer.seat)
        when = f" Time runs out <t:{int(due)}:R>." if due else ""
        view = components_view()
        view.add_item(TableButton("hand", change.match.match_id))
        try:
            await self.post(
                change.match.channel_id,
                f"{lead}: <@{seat.user_id}>, your move in **{game.name}**.{when}",
                view=view,
            )
        except discord.HTTPException:
            log.warning("could not remind in channel %s", change.match.channel_id)
        link = render.jump_link(change.match) or f"<#{change.match.channel_id}>"
        await self.direct_message(
            seat.user_id, f"{lead}: your move in **{game.name}** is waiting: {link}.{when}"
        )

    async def say_timed_out(self, change: Change) -> None:
        if (await self.service.current(change.match.match_id)).status != "active":
            # Ended meanwhile (a tournament ends a forfeited table at once, and may have
            # archived its thread): "a bot plays their seat" would no longer be true.
            return
        seat = next(s for s in change.match.seats if s.seat == change.timed_out)
        view = None
        if seat.away == GONE:
            text = (
                f"🏳️ {seat.name} missed {seat.missed} turns in a row and forfeits; a bot "
                "plays their seat to the end."
            )
        elif seat.away == STANDING_IN:
            text = (
                f"⏰ {seat.name} ran out of time; a bot plays for them until they press "
                "**I'm back**."
            )
            view = components_view()
            view.add_item(TableButton("back", change.match.match_id))
        else:
            text = f"⏰ {seat.name} ran out of time, so the default move was played for them."
        try:
            await self.post(
                change.match.channel_id,
                text,
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("could not post a timeout in channel %s", change.match.channel_id)

    def clear_ping(self, match_id: str) -> None:
        """The match's last ping is deleted a little later, with others of its channel."""
        message = self._last_ping.pop(match_id, None)
        if message is None:
            return
        channel_id = message.channel.id
        self._stale_pings.setdefault(channel_id, []).append(message.id)
        task = self._sweepers.get(channel_id)
        if task is None or task.done():
            self._sweepers[channel_id] = self.bot.spawn(
                self._sweep(channel_id), f"sweep:{channel_id}"
            )

    async def _sweep(self, channel_id: int) -> None:
        """Delete a channel's old pings: one call for all of them (bulk delete takes 2-100
        messages younger than 14 days); a stale ping that is already gone is harmless."""
        try:
            await asyncio.sleep(SWEEP_AFTER)
            while ids := self._stale_pings.pop(channel_id, None):
                since = asyncio.get_running_loop().time() - BULK_AGE
                young = [i for i in ids if self._posted.pop(i, since) > since]
                batch, rest = young[:100], [i for i in ids if i not in young] + young[100:]
                if len(batch) == 1:
                    rest.append(batch.pop())
                try:
                    if batch:
                        await self.bot.http.delete_messages(channel_id, batch)
                except discord.Forbidden:
                    rest += batch  # bulk delete needs Manage Messages; one by one does not
                except discord.HTTPException:
                    log.info("could not sweep old pings in channel %s", channel_id)
                for message_id in rest:
                    with contextlib.suppress(discord.HTTPException):
                        await self.bot.http.delete_message(channel_id, message_id)
        finally:
            self._sweepers.pop(channel_id, None)


def turn_ping(
    record: MatchRecord,
    game: Game,
    deciding: Sequence[Decision],
    seats: list[int],
    deadlines: dict[int, float],
    said: Sequence[str] = (),
) -> tuple[str, discord.ui.View]:
    """What a ping says: the situation and the deadline, with Show hand and a jump link.

    A reaction's prompt answers a public move (a challenge) and names nothing hidden, so it
    is quoted; a turn's prompt may name the player's own cards, so the situation of a turn
    is told by the last public lines of the moves that led to it (``said``) instead."""
    users = {s.seat: s.user_id for s in record.seats if s.seat in seats and s.user_id}
    mine = [d for d in deciding if d.seat in users and not d.optional]

    def when(group: list[Decision]) -> str:
        due = [deadlines[d.seat] for d in group if d.seat in deadlines]
        return f"<t:{int(min(due))}:R>" if due else ""

    def mention(group: list[Decision]) -> str:
        return " ".join(f"<@{users[seat]}>" for seat in dict.fromkeys(d.seat for d in group))

    lines = []
    races = [d for d in mine if d.window is not None]
    reactions = [d for d in mine if d.window is None and d.reaction]
    turns = [d for d in mine if d.window is None and not d.reaction]
    if races:
        closes = when(races)
        lines.append(
            f"🏃 {mention(races)}, the scramble is on: press **Grab cards** for your buttons"
            + (f" — it closes {closes}" if closes else "")
            + "."
        )
    for decision in reactions:
        due = when([decision])
        lines.append(
            f"⚔️ {mention([decision])} {decision.prompt}" + (f" — answer {due}" if due else "")
        )
    if turns:
        due = when(turns)
        lines.append(
            f"🎯 {mention(turns)}, your move in **{game.name}**"
            + (f" — {due}" if due else "")
            + "."
            + (f"\n> {' '.join(said[-3:])}" if said else "")
        )
    view = components_view()
    view.add_item(TableButton("hand", record.match_id, label="Grab cards" if races else None))
    link = render.jump_link(record)
    if link:
        view.add_item(discord.ui.Button(label="Jump to table", url=link, emoji="⬆️"))
    return render.clip("\n".join(lines), render.CONTENT), view


def final_message(record: MatchRecord, game: Game, state: GameState) -> tuple[str, discord.Embed]:
    """The result at the bottom of the channel: the winners, then every player ranked."""
    outcome = match_outcome(record, game, state)
    assert outcome is not None
    # A match ended by a forfeit has no score to show: the game itself did not finish.
    scored = game.outcome(state) is not None
    names = {s.seat: s.name for s in record.seats}
    winners = " and ".join(f"**{names[s]}**" for s in outcome.winners)
    verb = "win" if len(outcome.winners) > 1 else "wins"
    people = " ".join(f"<@{s.user_id}>" for s in record.seats if s.user_id is not None)
    text = f"🏁 **{game.name}** is over: 🏆 {winners} {verb}! {people}"
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = []
    for placement in outcome.placements:
        score = game.score_text(state, placement) if scored else ""
        lines.append(
            f"{medals.get(placement.place, f'{placement.place}.')} **{names[placement.seat]}**"
            + (f" — {score}" if score else "")
        )
    embed = discord.Embed(
        title=render.clip(f"🏁 {game.name} · final result", render.TITLE),
        description=render.clip(f"{outcome.reason}\n\n" + "\n".join(lines), render.DESCRIPTION),
        colour=render.COLOURS["done"],
    )
    embed.set_footer(text="Rematch opens a new lobby with the same seats.")
    return render.clip(text, render.CONTENT), embed


def cancelled_message(change: Change, game: Game) -> str:
    who = f"by **{change.by}**" if change.by else "as every player left"
    return f"✖️ The **{game.name}** match was cancelled {who}."


def _match_id_of(interaction: discord.Interaction) -> str | None:
    custom_id = (interaction.data or {}).get("custom_id", "")  # type: ignore[union-attr]
    parts = str(custom_id).split(":")
    return parts[2] if len(parts) > 2 else None


async def with_retries(send: Callable[[], Awaitable[T]], what: str, attempts: int = 4) -> T:
    """``send()``, again after Discord's retry-after (429) or a short backoff (5xx, a
    timeout, a dropped connection); any other failure, or the last one, is raised."""
    for attempt in range(attempts):
        try:
            return await send()
        except Exception as exc:
            wait = retry_delay(exc, attempt)
            if wait is None or attempt == attempts - 1:
                raise
            log.warning("%s failed (%s); trying again in %.1f s", what, exc, wait)
            await asyncio.sleep(wait)
    raise AssertionError("unreachable")


def retry_delay(error: BaseException, attempt: int) -> float | None:
    """Seconds to wait before trying again, or None if trying again will not help."""
    if isinstance(error, discord.RateLimited):
        return error.retry_after
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            return float(getattr(error.response, "headers", {}).get("Retry-After", 1.0))
        return 2.0**attempt if error.status >= 500 else None
    if isinstance(error, TimeoutError | aiohttp.ClientError | OSError):
        return 2.0**attempt
    return None


class ChannelPace:
    """Discord lets a bot post about 5 messages per 5 seconds in a channel; pings keep
    one of them free for everything else (timeouts, reminders, a rematch)."""

    def __init__(self, most: int = 4, per: float = 5.0) -> None:
        self.most, self.per = most, per
        self._sent: dict[int, deque[float]] = {}

    async def wait(self, channel_id: int) -> None:
        loop = asyncio.get_running_loop()
        if len(self._sent) > 256:
            self.forget_idle()
        sent = self._sent.setdefault(channel_id, deque())
        while True:
            now = loop.time()
            while sent and sent[0] <= now - self.per:
                sent.popleft()
            if len(sent) < self.most:
                sent.append(now)
                return
            await asyncio.sleep(sent[0] + self.per - now)

    def forget_idle(self) -> None:
        now = asyncio.get_running_loop().time()
        for channel_id in [c for c, s in self._sent.items() if not s or s[-1] <= now - self.per]:
            del self._sent[channel_id]
