"""Shows matches in Discord: the table message kept current, turn pings, hand views.

It listens to the service: whatever changed a match (a click, a bot, later a timer), the
table is re-rendered from the stored state. Edits are coalesced per match so a burst of
moves costs one edit per interval, well inside Discord's rate limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord

from bot.errors import NotSeated, StaleClick, UserError
from bot.service import Change, MatchService, SeatView, settings_of
from bot.service.base import waiting_on
from bot.store import MatchRecord
from bot.store.models import GONE, STANDING_IN
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
from games.core.panels import PanelField
from games.core.protocol import Action, Decision, Game

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)

T = TypeVar("T")
THREAD_ARCHIVED = 50083  # Discord's error code for writing to an archived thread
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
        self._pingers: dict[str, asyncio.Task[object]] = {}
        # Old pings wait here to be deleted together, a few seconds later.
        self._stale_pings: dict[int, list[int]] = {}
        self._posted: dict[int, float] = {}  # ping message id -> loop time it was posted
        self._sweepers: dict[int, asyncio.Task[object]] = {}
        self.pace = ChannelPace()
        # Per match: the race on the table and its cards in first-seen order, so buttons
        # keep their places while people click, and taken cards show greyed out.
        self._race_cards: dict[str, tuple[str, dict[str, str]]] = {}

    @property
    def service(self) -> MatchService:
        return self.bot.service

    # --- building messages -------------------------------------------------------------
    def lobby_view(self, record: MatchRecord) -> discord.ui.View:
        view = components_view()
        for verb in ("join", "leave", "bot", "start", "cancel"):
            view.add_item(LobbyButton(record.match_id, verb))
        game = self.service.game_of(record)
        for name, choices in render.option_select_choices(record, game)[:4]:
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
        if record.status == "active" and spectator.races:
            self.add_race(view, record.match_id, spectator.races)
        else:
            self._race_cards.pop(record.match_id, None)
        if record.status == "active":
            view.add_item(TableButton("hand", record.match_id))
            view.add_item(TableButton("watch", record.match_id))
            if spectator.panels.details is not None:
                label = render.clip(spectator.panels.details.title, render.LABEL)
                view.add_item(TableButton("more", record.match_id, label=label))
        elif record.status == "finished":
            view.add_item(TableButton("hand", record.match_id, label="My last hand"))
            view.add_item(TableButton("rematch", record.match_id))
        else:
            embed.description = "**This match was cancelled.**\n" + (embed.description or "")
            embed.description = render.clip(embed.description, render.DESCRIPTION)
            view = None
        return [embed], view

    def add_race(self, view: discord.ui.View, match_id: str, races: tuple[Decision, ...]) -> None:
        """One button per kind of card in the race, in the rows above the table's own."""
        stamp = races[0].race_stamp
        known = self._race_cards.get(match_id)
        cards = dict(known[1]) if known and known[0] == stamp else {}
        offered: dict[str, str] = {}
        for decision in races:
            for option in decision.options:
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
                            [(index, option.label) for index, option in options],
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
        await interaction.response.send_message(ephemeral=True, **self.hand_message(seen))

    async def move(
        self, interaction: discord.Interaction, match_id: str, stamp: str, picks: list[int]
    ) -> None:
        await self.service.act(match_id, interaction.user.id, stamp=stamp, picks=picks)
        seen = await self.service.seat_view(match_id, interaction.user.id)
        await interaction.response.edit_message(**self.hand_message(seen))

    async def grab(
        self, interaction: discord.Interaction, match_id: str, race: str, action: str
    ) -> None:
        """A click on a card in a race, on the public table: one short private answer."""
        change = await self.service.grab(
            match_id, interaction.user.id, race=race, action=Action.decode(action)
        )
        seat = change.match.seat_of(interaction.user.id)
        said = [e.text for e in change.events if e.visible_for(seat)]
        await tell(interaction, "✋ " + (" ".join(said) or "Got it."))

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
        await interaction.response.send_message(
            ephemeral=True, **self.hand_message(seen, note="👋 Welcome back: your seat is yours.")
        )

    async def rematch(self, interaction: discord.Interaction, match_id: str) -> None:
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
                    await interaction.response.send_message(
                        ephemeral=True, **self.hand_message(seen, note=f"⏩ {text}")
                    )
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
            await self.say_timed_out(change)
        if change.kind == "started" or (change.kind == "finished" and change.previous is None):
            # A match whose deal decided it is started and finished by one change.
            await self.name_thread(change.match)
        if change.kind in ("started", "action"):
            self.ping_new_deciders(change)
        elif change.kind in ("finished", "cancelled"):
            self._ping_seats.pop(change.match.match_id, None)
            self.clear_ping(change.match.match_id)

    def request_refresh(self, match_id: str) -> None:
        self._dirty.add(match_id)
        task = self._flushers.get(match_id)
        if task is None or task.done():
            self._flushers[match_id] = self.bot.spawn(self._flush(match_id), f"table:{match_id}")

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

    def ping_new_deciders(self, change: Change) -> None:
        """Seats that must now decide and did not before get a ping, sent after the click
        is answered (see ``_send_pings``)."""
        if change.state is None:
            return
        game = self.service.game_of(change.match)
        decide = self.service.decisions
        before = waiting_on(decide(game, change.previous)) if change.previous else set()
        new = waiting_on(decide(game, change.state)) - before
        humans = {s.seat for s in change.match.seats if s.seat in new and s.user_id}
        if not humans:
            return
        match_id = change.match.match_id
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
                now = waiting_on(deciding)
                users = [s.user_id for s in record.seats if s.seat in seats & now and s.user_id]
                if not users or record.status != "active":
                    continue
                game = self.service.game_of(record)
                text = ping_text(game, deciding, [f"<@{u}>" for u in users])
                view = components_view()
                view.add_item(TableButton("hand", match_id))
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
        except UserError:
            return  # the match is gone
        finally:
            self._pingers.pop(match_id, None)

    async def vacations(self, record: MatchRecord) -> str:
        now = self.service.clock.now()
        lines = []
        for seat in record.seats:
            if seat.user_id is None:
                continue
            person = await self.service.user_settings(seat.user_id)
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


def ping_text(game: Game, deciding: Sequence[Decision], mentions: list[str]) -> str:
    """What a turn ping says: who is pinged, and what for."""
    who = " ".join(mentions)
    if any(d.window is not None for d in deciding):
        return f"🏃 {who}, the scramble is on: grab cards on the table above!"
    return f"🎯 {who}, your move in **{game.name}**."


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
