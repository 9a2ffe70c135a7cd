"""/tournament schedule: create, skip, edit, list and end recurring events. Thin: every
change is one call to ``bot.service.schedules``, which decides who may make it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands

from bot.errors import UserError
from bot.permissions import FOR_THREADS
from bot.recurrence import days_text
from bot.service.schedules import Schedules
from bot.store.schedule_records import ScheduleRecord
from cogs import render
from cogs.components import guarded, tell
from cogs.permissions import require_permissions
from cogs.pictures import draws_pictures
from cogs.speech import personal, say
from cogs.tournaments.buttons import with_roles
from cogs.tournaments.options import (
    EVENT_OPTIONS,
    FORMAT_CHOICES,
    GAME_CHOICES,
    PACE_CHOICES,
    SCHEDULE,
    event_config,
)
from games import GAMES
from games.core.text import Text, t

if TYPE_CHECKING:
    from bot.client import CookieJar

RULE_OPTIONS = {
    "days": "Weekdays, like fri or mon, thu; or one date, like 2027-01-15",  # any language
    "time": "Local time of the start, like 20:00",
    "zone": "IANA time zone, like Europe/Berlin (default: the server's, /settings time_zone)",
    "signup_hours": "Sign-up opens this many hours before the start (default 24)",
    "checkin_minutes": "Check-in opens this many minutes before; the unchecked drop (0: none)",
}
WHICH = {"schedule": "The schedule's id (/tournament schedule list); default: this channel's"}


def schedule_line(schedule: ScheduleRecord) -> Text:
    return t(
        "**{id}** · **{game}** in <#{channel}> · {days}, {time} {zone} · next <t:{at}:F>",
        id=schedule.schedule_id,
        game=GAMES[schedule.game].name,
        channel=schedule.channel_id,
        days=days_text(schedule.weekdays),
        at=int(schedule.occurrence),
        time=schedule.at_time,
        zone=schedule.zone,
    )


def require_manage_events(interaction: discord.Interaction) -> None:
    """Each occurrence is published in the server's Events: the bot needs Manage Events."""
    if not interaction.app_permissions.manage_events:
        raise UserError(
            t(
                "I can't publish events here: I'm missing **Manage Events**. A server admin can "
                "grant it to my role in Server Settings → Roles; then try /tournament schedule "
                "create again."
            )
        )


class ScheduleCommands:
    """The /tournament schedule subcommands, mixed into the tournament cog."""

    bot: CookieJar
    schedule = SCHEDULE

    @property
    def schedules(self) -> Schedules:
        return self.bot.schedules

    async def _which(
        self, interaction: discord.Interaction, schedule: str | None
    ) -> ScheduleRecord:
        return await self.schedules.find(
            interaction.guild_id or 0, interaction.channel_id or 0, schedule
        )

    @schedule.command(name="create", description="Make a tournament in this channel on a schedule.")
    @app_commands.describe(**EVENT_OPTIONS, **RULE_OPTIONS)
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, pace=PACE_CHOICES)
    async def schedule_create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        days: str,
        time: str,
        zone: str | None = None,
        signup_hours: app_commands.Range[int, 1, 168] = 24,
        checkin_minutes: app_commands.Range[int, 0, 1440] = 0,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        pace: app_commands.Choice[str] | None = None,
        max_players: app_commands.Range[int, 2, 512] | None = None,
        pod_size: app_commands.Range[int, 3, 8] | None = None,
        top_cut: app_commands.Range[int, 2, 16] | None = None,
        best_of: Literal[1, 3] = 1,
        advance: app_commands.Range[int, 1, 7] | None = None,
        group_size: app_commands.Range[int, 2, 64] | None = None,
        scores: str | None = None,
        default_cut: bool = False,
        larger_tables: bool = False,
        reset: bool = True,
        round_hours: app_commands.Range[int, 1, 720] | None = None,
        seeding: Literal["lot", "rating"] = "lot",
    ) -> None:
        async def run() -> None:
            require_manage_events(interaction)
            require_permissions(
                interaction,
                FOR_THREADS,
                pictures=await draws_pictures(self.bot, interaction.guild_id or 0),
                again="/tournament schedule create",
            )
            config = event_config(
                format.value,
                rounds=rounds,
                pace=pace,
                max_players=max_players,
                pod_size=pod_size,
                top_cut=top_cut,
                best_of=best_of,
                advance=advance,
                group_size=group_size,
                scores=scores,
                default_cut=default_cut,
                larger_tables=larger_tables,
                reset=reset,
                round_hours=round_hours,
                seeding=seeding,
            )
            made = await self.schedules.create(
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                organiser=with_roles(interaction),
                game_key=game.value,
                config=config,
                days=days,
                at=time,
                zone=zone,
                signup_hours=signup_hours,
                checkin_minutes=checkin_minutes,
            )
            await tell(
                interaction,
                t(
                    "📅 Scheduled ({id}): the first is <t:{at}:F> (<t:{at}:R>); it is announced "
                    "here and in the server's Events.",
                    id=made.schedule_id,
                    at=int(made.occurrence),
                ),
            )

        await guarded(interaction, run())

    @schedule.command(
        name="skip", description="Organiser: the next occurrence will not take place."
    )
    @app_commands.describe(**WHICH)
    async def schedule_skip(
        self, interaction: discord.Interaction, schedule: str | None = None
    ) -> None:
        async def run() -> None:
            found = await self._which(interaction, schedule)
            skipped = await self.schedules.skip(found, with_roles(interaction))
            await tell(
                interaction,
                t("⏭️ Skipped: the one of <t:{at}:F> will not take place.", at=int(skipped)),
            )

        await guarded(interaction, run())

    @schedule.command(name="edit", description="Organiser: change a schedule's days or times.")
    @app_commands.describe(**WHICH, **RULE_OPTIONS)
    async def schedule_edit(
        self,
        interaction: discord.Interaction,
        schedule: str | None = None,
        days: str | None = None,
        time: str | None = None,
        zone: str | None = None,
        signup_hours: app_commands.Range[int, 1, 168] | None = None,
        checkin_minutes: app_commands.Range[int, 0, 1440] | None = None,
    ) -> None:
        async def run() -> None:
            found = await self._which(interaction, schedule)
            changed = await self.schedules.change(
                found,
                with_roles(interaction),
                days=days,
                at=time,
                zone=zone,
                signup_hours=signup_hours,
                checkin_minutes=checkin_minutes,
            )
            await tell(interaction, t("✍️ Schedule changed: {line}", line=schedule_line(changed)))

        await guarded(interaction, run())

    @schedule.command(name="list", description="This server's recurring tournaments.")
    async def schedule_list(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            found = await self.schedules.running(interaction.guild_id or 0)
            language = await personal(interaction)
            lines = [schedule_line(s) for s in found] or [t("None yet.")]
            embed = discord.Embed(
                title=say(t("📅 Recurring tournaments"), language),
                description=render.clip(render.lines(lines, language), render.DESCRIPTION),
                colour=render.COLOURS["neutral"],
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    @schedule.command(name="end", description="Organiser: make no more occurrences.")
    @app_commands.describe(**WHICH)
    async def schedule_end(
        self, interaction: discord.Interaction, schedule: str | None = None
    ) -> None:
        async def run() -> None:
            found = await self._which(interaction, schedule)
            await self.schedules.end(found, with_roles(interaction))
            await tell(
                interaction,
                t("🛑 Schedule {id} ended: no more tournaments are made.", id=found.schedule_id),
            )

        await guarded(interaction, run())
