"""The Discord side of recurring events (``bot.service.schedules.Publisher``): each
occurrence announced in its channel and published as a Discord scheduled event (the
server's Events, where people press "Interested"), its sign-up posted with the Interested
pinged, check-in called, and the scheduled event set active, completed or deleted as the
event goes. Every time shown is a Discord timestamp, in each reader's own zone."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import discord

from bot.service.schedules import HOUR
from bot.store.schedule_records import OccurrenceRecord, ScheduleRecord
from cogs.speech import languages, say
from cogs.table import presenter_of
from cogs.tournaments.buttons import signup_buttons
from cogs.tournaments.embeds import signup_embed
from games import GAMES
from games.core.text import Text, t, tn

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)

# Discord asks an event held outside a voice channel for its end: a guess, shown in the
# Events tab; the bot completes the scheduled event when the tournament really ends.
EVENT_HOURS = 3
STATUS = {"active": 2, "completed": 3}  # Discord's GuildScheduledEventStatus
INTERESTED_PAGE = 100  # Discord's most users a page of "Interested"


def _iso(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat()


class SchedulePosts:
    """Shows each step of a schedule's occurrences in Discord."""

    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    async def _language(self, schedule: ScheduleRecord) -> str:
        return await languages(self.bot).public(schedule.guild_id)

    async def _say(self, schedule: ScheduleRecord, text: Text, people: Sequence[int] = ()) -> None:
        """A line in the schedule's channel; ``people`` mentioned after it (and pinged)."""
        said = say(text, await self._language(schedule))
        if people:
            said += "\n" + " ".join(f"<@{user}>" for user in people)
        try:
            await presenter_of(self.bot).post(
                schedule.channel_id,
                said,
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(user) for user in people]
                ),
            )
        except discord.HTTPException:
            log.warning("could not post in the channel of schedule %s", schedule.schedule_id)

    def _game(self, schedule: ScheduleRecord) -> str:
        return GAMES[schedule.game].name

    async def publish(self, schedule: ScheduleRecord, starts_at: float) -> int | None:
        language = await self._language(schedule)
        channel = self.bot.get_channel(schedule.channel_id)
        where = f"#{getattr(channel, 'name', 'discord')}"[:100]
        name = say(t("🏆 {game} tournament", game=self._game(schedule)), language)
        about = tn(
            "Sign-up opens in <#{channel}> {n} hour before the start.",
            "Sign-up opens in <#{channel}> {n} hours before the start.",
            n=schedule.signup_hours,
            channel=schedule.channel_id,
        )
        event_id = None
        try:
            data = await self.bot.http.create_guild_scheduled_event(
                schedule.guild_id,
                name=name[:100],
                description=say(about, language),
                privacy_level=2,  # GUILD_ONLY, the one level Discord has
                entity_type=3,  # EXTERNAL: held in a text channel, named as its location
                entity_metadata={"location": where},
                scheduled_start_time=_iso(starts_at),
                scheduled_end_time=_iso(starts_at + EVENT_HOURS * HOUR),
            )
            event_id = int(data["id"])
        except discord.HTTPException:
            # Manage Events taken away since: the announcement still goes.
            log.warning("could not publish schedule %s's event", schedule.schedule_id)
        opens = int(starts_at - schedule.signup_hours * HOUR)
        await self._say(
            schedule,
            t(
                "📅 Next **{game}** tournament: <t:{at}:F> (<t:{at}:R>). Sign-up opens here "
                "<t:{opens}:R>; press **Interested** on it in the server's Events to be pinged "
                "then.",
                game=self._game(schedule),
                at=int(starts_at),
                opens=opens,
            ),
        )
        return event_id

    async def moved(self, schedule: ScheduleRecord, occurrence: OccurrenceRecord) -> None:
        starts = occurrence.starts_at
        await self._edit(
            schedule.guild_id,
            occurrence,
            scheduled_start_time=_iso(starts),
            scheduled_end_time=_iso(starts + EVENT_HOURS * HOUR),
        )
        await self._say(
            schedule,
            t(
                "📅 The next **{game}** tournament moved to <t:{at}:F> (<t:{at}:R>).",
                game=self._game(schedule),
                at=int(starts),
            ),
        )

    async def signup_open(
        self, schedule: ScheduleRecord, occurrence: OccurrenceRecord, tournament_id: str
    ) -> None:
        events = self.bot.tournaments
        view = await events.view(tournament_id)
        language = await self._language(schedule)
        try:
            message = await presenter_of(self.bot).post(
                schedule.channel_id,
                embed=signup_embed(view, language),
                view=signup_buttons(view, language),
            )
        except discord.HTTPException:
            # The event stands (it starts on time); /tournament standings still finds it.
            log.warning("could not post the sign-up of schedule %s", schedule.schedule_id)
            return
        await events.set_message(tournament_id, message.id)
        await self._say(
            schedule,
            t(
                "📣 Sign-up is open for the **{game}** tournament of <t:{at}:F>: press **Join** "
                "above.",
                game=self._game(schedule),
                at=int(occurrence.starts_at),
            ),
            await self._interested(schedule.guild_id, occurrence),
        )

    async def _interested(self, guild_id: int, occurrence: OccurrenceRecord) -> list[int]:
        """Who pressed "Interested" on the occurrence's scheduled event, page by page."""
        if occurrence.discord_event_id is None:
            return []
        found: list[int] = []
        after = None
        while True:
            try:
                page = await self.bot.http.get_scheduled_event_users(
                    guild_id, occurrence.discord_event_id, INTERESTED_PAGE, False, after=after
                )
            except discord.HTTPException:
                log.warning("could not read who is interested in %s", occurrence.discord_event_id)
                return found
            users = [int(entry["user"]["id"]) for entry in page if not entry["user"].get("bot")]
            found += users
            if len(page) < INTERESTED_PAGE:
                return found
            after = max(int(entry["user"]["id"]) for entry in page)

    async def checkin_open(self, schedule: ScheduleRecord, occurrence: OccurrenceRecord) -> None:
        if occurrence.tournament_id is None:
            return
        entrants = await self.bot.tournaments.store.entrants(occurrence.tournament_id)
        waiting = [
            e.user_id
            for e in entrants
            if e.user_id is not None and e.state == "entered" and not e.checked_in
        ]
        await self._say(
            schedule,
            t(
                "✅ Check-in is open for the **{game}** tournament: press **Check in** on its "
                "sign-up before <t:{at}:t>, or you drop at the start.",
                game=self._game(schedule),
                at=int(occurrence.starts_at),
            ),
            waiting,
        )

    async def progressed(
        self, occurrence: OccurrenceRecord, status: Literal["active", "completed"]
    ) -> None:
        schedule = await self.bot.tournaments.store.get_schedule(occurrence.schedule_id)
        if schedule is not None:
            await self._edit(schedule.guild_id, occurrence, status=STATUS[status])

    async def withdrawn(
        self, schedule: ScheduleRecord, occurrence: OccurrenceRecord, reason: Text | None
    ) -> None:
        if occurrence.discord_event_id is not None:
            try:
                await self.bot.http.delete_scheduled_event(
                    schedule.guild_id, occurrence.discord_event_id
                )
            except discord.NotFound:
                pass  # deleted by hand in Discord: gone either way
            except discord.HTTPException:
                log.warning("could not delete scheduled event %s", occurrence.discord_event_id)
        if reason is not None:
            await self._say(
                schedule,
                t(
                    "✖️ The **{game}** tournament of <t:{at}:F> will not take place: {reason}",
                    game=self._game(schedule),
                    at=int(occurrence.starts_at),
                    reason=reason,
                ),
            )

    async def _edit(self, guild_id: int, occurrence: OccurrenceRecord, **changes: object) -> None:
        if occurrence.discord_event_id is None:
            return
        try:
            await self.bot.http.edit_scheduled_event(
                guild_id, occurrence.discord_event_id, **changes
            )
        except discord.HTTPException:
            log.warning("could not update scheduled event %s", occurrence.discord_event_id)
