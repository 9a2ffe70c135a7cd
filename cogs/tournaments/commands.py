"""/tournament's commands: create, standings, drop, export, log, and the organiser's tools
(result, player, add, repair, extend, pause, resume, end, cancel). Thin: every change is
one call to ``bot.service.tournaments``, which also decides who may make it."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.permissions import FOR_THREADS
from bot.service import Person
from bot.service.tournaments import Tournaments
from bot.store.tournament_records import TournamentRecord
from bot.when import parse_moment
from cogs import render
from cogs.components import (
    LEVEL_CHOICES,
    add_web_link,
    components_view,
    guarded,
    level_of,
    links_of,
    person,
    tell,
)
from cogs.permissions import require_permissions
from cogs.pictures import attach, draws_pictures, pictures_on
from cogs.speech import personal, public, say
from cogs.tournaments.buttons import signup_buttons, with_roles
from cogs.tournaments.embeds import (
    log_line,
    signup_embed,
    standings_embed,
    standings_title,
)
from cogs.tournaments.options import (
    EVENT_OPTIONS,
    FORMAT_CHOICES,
    GAME_CHOICES,
    PACE_CHOICES,
    SCHEDULE,
    TOURNAMENT,
    event_config,
)
from cogs.tournaments.pictures import STANDINGS, standings_png
from cogs.tournaments.schedule_commands import ScheduleCommands
from games.core.text import Text, joined, t, tn

if TYPE_CHECKING:
    from bot.client import CookieJar


def player_done(state: str, name: str) -> Text:
    """What /tournament player answers, by the state it set."""
    if state == "dropped":
        return t("✍️ Dropped: {name}. It is in the log.", name=name)
    if state == "disqualified":
        return t("✍️ Disqualified: {name}. It is in the log.", name=name)
    return t("✍️ Undropped: {name}. It is in the log.", name=name)


class TournamentCog(ScheduleCommands, commands.Cog):
    """/tournament: creating an event, the standings, dropping out, the organiser's tools."""

    group = TOURNAMENT
    schedule = SCHEDULE

    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @property
    def events(self) -> Tournaments:
        return self.bot.tournaments

    # --- finding the event ------------------------------------------------------------------
    async def tournament_here(self, interaction: discord.Interaction) -> TournamentRecord:
        """The event of this channel (or of the table thread the command is used in): its
        open one (a channel holds one at a time) before any that is over; else the
        server's newest open one."""
        found = await self.events.store.tournaments(interaction.guild_id or 0, open_only=False)
        if not found:
            raise UserError(
                t("There is no tournament on this server. Create one with /tournament create.")
            )
        channel = interaction.channel
        here = {interaction.channel_id, getattr(channel, "parent_id", None)}
        # Open first: one made in the same second as an old one must not lose to it.
        for event in sorted(found, key=lambda e: not e.is_open):
            if event.channel_id in here:
                return event
        return next((e for e in found if e.is_open), found[0])

    # --- commands -------------------------------------------------------------------------
    @group.command(name="create", description="Open sign-up for a tournament in this channel.")
    @app_commands.describe(
        **EVENT_OPTIONS,
        starts="Starts by itself then: in 2h, 18:00 or 2026-12-24 18:00 (UTC); Start is sooner",
        checkin="Players must check in; the unchecked drop at the start",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, pace=PACE_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 30] | None = None,
        pace: app_commands.Choice[str] | None = None,
        max_players: app_commands.Range[int, 2, 512] | None = None,
        starts: str | None = None,
        pod_size: app_commands.Range[int, 3, 8] | None = None,
        top_cut: app_commands.Range[int, 2, 16] | None = None,
        checkin: bool = False,
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
            # Every table opens a thread of this channel, and the brackets and standings
            # come as pictures: refused now, not at round 1 with everyone waiting.
            require_permissions(
                interaction,
                FOR_THREADS,
                pictures=await draws_pictures(self.bot, interaction.guild_id or 0),
                again="/tournament create",
            )
            config = event_config(
                format.value,
                rounds=rounds,
                pace=pace,
                max_players=max_players,
                starts_at=parse_moment(starts, self.events.clock.now()) if starts else None,
                pod_size=pod_size,
                top_cut=top_cut,
                checkin=checkin,
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
            event = await self.events.create(
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                organiser=with_roles(interaction),
                game_key=game.value,
                config=config,
            )
            view = await self.events.view(event.tournament_id)
            language = await public(interaction)  # the sign-up is everyone's
            response = await interaction.response.send_message(
                embed=signup_embed(view, language), view=signup_buttons(view, language)
            )
            message = response.resource
            if isinstance(message, discord.Message):  # late answers send WebhookMessages
                await self.events.set_message(event.tournament_id, message.id)

        await guarded(interaction, run())

    @group.command(name="standings", description="The standings of this channel's tournament.")
    async def standings(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            event = await self.tournament_here(interaction)
            view = await self.events.view(event.tournament_id)
            final = event.status == "finished"
            during = not final and view.round_under_way
            language = await personal(interaction)
            embed = standings_embed(
                view, view.event.round, final=final, during=during, language=language
            )
            files: list[discord.File] = []
            if await pictures_on(self.bot, event.guild_id):
                title = standings_title(view, view.event.round, final=final, during=during)
                picture = await standings_png(view, title, language)
                files = attach(embed, picture, STANDINGS)
            links = components_view()
            await add_web_link(
                links,
                links_of(interaction),
                event.guild_id,
                "event",
                event.tournament_id,
                language=language,
            )
            await interaction.response.send_message(
                embed=embed, files=files, view=links, ephemeral=True
            )

        await guarded(interaction, run())

    @group.command(name="drop", description="Leave the tournament: no more pairings for you.")
    async def drop(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            event = await self.tournament_here(interaction)
            await self.events.drop(event.tournament_id, person(interaction))
            await tell(
                interaction,
                t("🚪 You dropped from the tournament; your results so far stay in the standings."),
            )

        await guarded(interaction, run())

    @group.command(name="export", description="Standings, results and audit log as CSV files.")
    async def export(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            event = await self.tournament_here(interaction)
            await self.events.require_organiser(
                event, with_roles(interaction), "export the tournament"
            )
            files = await self.events.export(event.tournament_id)
            said = t("📄 The tournament's standings, results (a row per seat) and audit log.")
            await interaction.response.send_message(
                say(said, await personal(interaction)),
                files=[
                    discord.File(io.BytesIO(text.encode("utf-8")), filename=name)
                    for name, text in files.items()
                ],
                ephemeral=True,
            )

        await guarded(interaction, run())

    @group.command(name="log", description="What the organisers changed, and when.")
    async def log_(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            event = await self.tournament_here(interaction)
            rows = await self.events.store.audit(event.tournament_id)
            lines = [log_line(row) for row in rows[-20:]]
            language = await personal(interaction)
            embed = discord.Embed(
                title=say(t("📜 Tournament log"), language),
                description=render.clip(
                    say(joined(lines) if lines else t("Nothing yet."), language),
                    render.DESCRIPTION,
                ),
                colour=render.COLOURS["neutral"],
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    # --- organiser tools ------------------------------------------------------------------
    async def _organiser_tool(self, interaction: discord.Interaction, work, done: str) -> None:  # type: ignore[no-untyped-def]
        async def run() -> None:
            event = await self.tournament_here(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await work(event.tournament_id, with_roles(interaction))
            await tell(interaction, done)

        await guarded(interaction, run())

    @group.command(name="result", description="Organiser: set a table's result.")
    @app_commands.describe(order="Best first, ties with =, e.g. Ana > Ben = Cleo > Dev")
    async def result(self, interaction: discord.Interaction, order: str) -> None:
        await self._organiser_tool(
            interaction,
            lambda tid, who: self.events.set_result(tid, who, order),
            t("✍️ Result set: {order}. It is in the log.", order=render.clip(order, 200)),
        )

    @group.command(name="player", description="Organiser: drop, undrop or disqualify a player.")
    @app_commands.describe(name="The player's name in the event", action="What to do")
    @app_commands.choices(
        action=[
            app_commands.Choice(name="Drop", value="dropped"),
            app_commands.Choice(name="Undrop", value="entered"),
            app_commands.Choice(name="Disqualify", value="disqualified"),
        ]
    )
    async def player(
        self, interaction: discord.Interaction, name: str, action: app_commands.Choice[str]
    ) -> None:
        await self._organiser_tool(
            interaction,
            lambda tid, who: self.events.set_state(tid, who, name, action.value),  # type: ignore[arg-type]
            player_done(action.value, render.clip(name, 100)),
        )

    @group.command(name="add", description="Organiser: add a player (late entry) or a bot.")
    @app_commands.describe(
        member="Who to add; leave out to add a bot",
        level="A bot's level (default: the server's choice)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        async def work(tid: str, who: Person) -> None:
            if member is None:
                await self.events.add_bot(tid, who, level_of(level))
            else:
                await self.events.add_player(
                    tid, who, Person(user_id=member.id, name=member.display_name)
                )

        await self._organiser_tool(interaction, work, t("✍️ Added. It is in the log."))

    @group.command(name="repair", description="Organiser: pair this round again (no move made).")
    async def repair(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(
            interaction, self.events.repair, t("✍️ The round is paired again. It is in the log.")
        )

    @group.command(name="extend", description="Organiser: give one table more time.")
    @app_commands.describe(table="The table's number this round", hours="Hours more")
    async def extend(
        self,
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1, 512],
        hours: app_commands.Range[int, 1, 720],
    ) -> None:
        await self._organiser_tool(
            interaction,
            lambda tid, who: self.events.extend(tid, who, table, hours),
            tn(
                "✍️ Table {table} has {n} more hour. It is in the log.",
                "✍️ Table {table} has {n} more hours. It is in the log.",
                n=hours,
                table=table,
            ),
        )

    @group.command(name="pause", description="Organiser: hold the tournament (clocks stop).")
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(interaction, self.events.pause, t("⏸️ The tournament is paused."))

    @group.command(name="resume", description="Organiser: go on after a pause.")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(interaction, self.events.resume, t("▶️ The tournament goes on."))

    @group.command(name="end", description="Organiser: end now; the standings are final.")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(interaction, self.events.end, t("🏁 The tournament is over."))

    @group.command(name="cancel", description="Organiser: cancel the tournament.")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(
            interaction, self.events.cancel, t("✖️ The tournament is cancelled.")
        )

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await tell(interaction, t("That command could not run. Please try again in a moment."))
