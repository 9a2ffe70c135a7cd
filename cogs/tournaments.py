"""/tournament: community events the bot runs by itself, shown in Discord.

The sign-up embed (Join, Leave, Check in, Add bot, Start, Cancel), a pairings message a
round (one message, paged by ◀ ▶) with a private My table button, one public thread per
table holding its match (archived when its round ends, is paired again or is cancelled),
standings after every round (My standing), the final standings. Thin: every change is one
call to ``bot.service.tournaments``, which also decides who may make it.
"""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import math
import re
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.service import Person
from bot.service.tournaments import (
    FORMAT_LABELS,
    ROUND_DEADLINES,
    ROUND_ROBINS,
    SEMI_FINAL_CUT,
    EventChange,
    EventConfig,
    EventView,
    Tournaments,
    points_text,
    rematches_in,
)
from bot.store.events import EventTable, TournamentRecord
from bot.timing import PACE_LABELS, duration
from bot.tournaments import best_of as bo
from bot.tournaments.round_robin import MAX_PLAYERS as ROUND_ROBIN_MOST
from bot.tournaments.standings import Standing
from bot.tournaments.tiebreakers import percent
from bot.when import parse_moment
from cogs import render
from cogs.components import FreesClickedView, components_view, guarded, page_button, person, tell
from cogs.table import presenter_of
from games import GAMES

if TYPE_CHECKING:
    from bot.client import CookieJar
    from cogs.table import Presenter

log = logging.getLogger(__name__)

EID = r"(?P<tid>[0-9a-f]{8})"
STANDINGS_SHOWN = 25
PAIRINGS_A_PAGE = 20  # lines (tables, byes) a page of the pairings message
GAME_CHOICES = [app_commands.Choice(name=game.name, value=key) for key, game in GAMES.items()]
FORMAT_CHOICES = [
    app_commands.Choice(name=label, value=key) for key, label in FORMAT_LABELS.items()
]
PACE_CHOICES = [app_commands.Choice(name=PACE_LABELS[key], value=key) for key in ROUND_DEADLINES]


def tournaments_of(interaction: discord.Interaction) -> Tournaments:
    return interaction.client.tournaments  # type: ignore[attr-defined]


def with_roles(interaction: discord.Interaction) -> Person:
    """Who clicked, with their roles: the server's organiser role may run events."""
    found = person(interaction)
    roles = getattr(interaction.user, "roles", ())
    return dataclasses.replace(found, roles=frozenset(role.id for role in roles))


class EventButton(
    FreesClickedView,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:ev:{EID}:(?P<verb>join|leave|checkin|bot|start|cancel|mytable|standing|stay)",
):
    """Every button of an event: the sign-up's, My table, My standing, Stay in."""

    LOOK = {
        "join": ("Join", discord.ButtonStyle.success, "🙋"),
        "leave": ("Leave", discord.ButtonStyle.secondary, "🚪"),
        "checkin": ("Check in", discord.ButtonStyle.primary, "✅"),
        "bot": ("Add bot", discord.ButtonStyle.secondary, "🤖"),
        "start": ("Start", discord.ButtonStyle.primary, "▶️"),
        "cancel": ("Cancel", discord.ButtonStyle.danger, "✖️"),
        "mytable": ("My table", discord.ButtonStyle.primary, "🪑"),
        "standing": ("My standing", discord.ButtonStyle.secondary, "📊"),
        "stay": ("Stay in", discord.ButtonStyle.success, "💪"),
    }

    def __init__(self, tournament_id: str, verb: str) -> None:
        label, style, emoji = self.LOOK[verb]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, emoji=emoji, custom_id=f"cj:ev:{tournament_id}:{verb}"
            )
        )
        self.tournament_id, self.verb = tournament_id, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> EventButton:
        return cls(match["tid"], match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        events, who, tid = tournaments_of(interaction), with_roles(interaction), self.tournament_id
        if self.verb == "join":
            entrant = await events.join(tid, who)
            where = "on the waitlist" if entrant.state == "waitlist" else "in"
            event = await events.get(tid)
            if event.status != "signup":
                where = f"in from round {event.round + 1}, with a loss for each round played"
            await tell(interaction, f"🙋 You are {where}, as **{entrant.name}**.")
        elif self.verb == "leave":
            await events.leave(tid, who)
            await tell(interaction, "🚪 You left the tournament.")
        elif self.verb == "checkin":
            await events.check_in(tid, who)
            await tell(interaction, "✅ You are checked in. The organiser starts the event.")
        elif self.verb == "bot":
            entrant = await events.add_bot(tid, who)
            await tell(interaction, f"🤖 {entrant.name} joins the tournament.")
        elif self.verb == "start":
            # Opening the first round's threads and matches takes several calls to Discord.
            await interaction.response.defer(ephemeral=True, thinking=True)
            await events.start(tid, who)
            await tell(interaction, "▶️ The tournament is on: round 1 is paired.")
        elif self.verb == "cancel":
            await events.cancel(tid, who)
            await tell(interaction, "✖️ You cancelled the tournament.")
        elif self.verb == "mytable":
            await tell(interaction, await my_table(events, tid, interaction.user.id))
        elif self.verb == "standing":
            await tell(interaction, await my_standing(events, tid, interaction.user.id))
        elif self.verb == "stay":
            await events.stay_in(tid, who)
            await tell(interaction, "💪 You stay in: you will be paired next round.")


async def my_table(events: Tournaments, tournament_id: str, user_id: int) -> str:
    view = await events.view(tournament_id)
    mine = view.of_user(user_id)
    if mine is None:
        return "You are not playing in this tournament."
    round_no = view.event.round
    for table in view.tables:
        if table.round == round_no and mine.entrant in table.seats:
            where = f"<#{table.thread_id}>" if table.thread_id else "its thread"
            others = ", ".join(view.name(p) for p in table.seats if p != mine.entrant)
            return f"🪑 Round {round_no}, table {table.table_no} with {others}: {where}."
    if any(
        r.round == round_no and r.kind == "bye" and mine.entrant in r.players for r in view.results
    ):
        if view.config.format in ROUND_ROBINS:
            return f"☕ You rest in round {round_no}: everyone rests once in an odd field."
        if view.config.format == "multiplayer_elimination":
            return f"☕ You pass round {round_no} unplayed: you go on to the next round."
        return f"☕ You have the bye in round {round_no}: it counts as a win."
    return f"You have no table in round {round_no}."


async def my_standing(events: Tournaments, tournament_id: str, user_id: int) -> str:
    view = await events.view(tournament_id)
    mine = view.of_user(user_id)
    line = next((s for s in view.standings if mine and s.player == mine.entrant), None)
    if line is None:
        return "You are not in this tournament's standings."
    breakers = " · ".join(f"{name} {percent(value)}" for name, value in line.tiebreakers)
    return (
        f"📊 You are **#{line.rank}** of {len(view.standings)} with "
        f"**{points_text(line.points)}** points" + (f" ({breakers})" if breakers else "") + "."
    )


def standing_lines(view: EventView, standings: list[Standing]) -> list[str]:
    lines = []
    shown = 3 if view.config.best_of > 1 else 2  # OMW%, and GW% and OGW% for best of three
    for s in standings[:STANDINGS_SHOWN]:
        breakers = " · ".join(f"{name} {percent(value)}" for name, value in s.tiebreakers[:shown])
        dropped = " *(dropped)*" if s.dropped else ""
        lines.append(
            f"**{s.rank}.** {view.name(s.player)}{dropped} — {points_text(s.points)} pts"
            + (f" · {breakers}" if breakers else "")
        )
    return lines


def signup_embed(view: EventView) -> discord.Embed:
    event, config, game = view.event, view.config, view.game
    title = f"🏆 {game.name} tournament"
    state = {
        "signup": "Sign-up is open: press **Join**.",
        "running": f"Round {event.round} is being played.",
        "paused": f"Paused by the organiser in round {event.round}.",
        "finished": "This tournament is over.",
        "cancelled": "This tournament was cancelled.",
    }[event.status]
    deadline = config.round_length
    lines = [
        state,
        f"**Format:** {FORMAT_LABELS[config.format]}"
        + (f", {view.rounds} rounds" if view.rounds else ""),
        f"**Pace:** {PACE_LABELS[config.pace]} · rounds last "
        + (duration(deadline) if deadline else "until every table is done"),
    ]
    lines += format_lines(view)
    if config.format == "double_elimination":
        lines.append(
            "**Grand final:** "
            + (
                "replayed once if the player from the losers' bracket wins it"
                if config.reset
                else "one match, no reset"
            )
        )
    if view.late_entry_open and view.rounds:
        lines.append(
            f"**Late entry:** press Join until round {math.ceil(view.rounds / 2)}, "
            "with a loss for each round played"
        )
    if config.best_of > 1:
        lines.append(
            f"**Tables:** best of {config.best_of}, the first to win "
            f"{bo.wins_needed(config.best_of)} games takes the table"
        )
    if config.starts_at:
        lines.append(f"**Starts:** <t:{int(config.starts_at)}:F> (<t:{int(config.starts_at)}:R>)")
    if config.checkin:
        lines.append("**Check-in:** required; unchecked players drop at the start.")
    if config.seeding == "rating":
        lines.append(
            "**Seeding:** by rating: round 1 and ties in points pair by the players' "
            "ratings, brackets are seeded by them"
        )
    lines.append(f"**Organiser:** <@{event.organiser_id}>")
    embed = discord.Embed(
        title=title, description="\n".join(lines), colour=render.COLOURS["neutral"]
    )
    entered = view.entered if event.status == "signup" else []
    if event.status == "signup":
        names = [f"{e.name}{' ✅' if config.checkin and e.checked_in else ''}" for e in entered]
        embed.add_field(
            name=f"Entrants ({len(entered)}/{config.max_players})",
            value=render.clip(", ".join(names) or "Nobody yet.", render.FIELD_VALUE),
            inline=False,
        )
        if view.waitlist:
            embed.add_field(
                name=f"Waitlist ({len(view.waitlist)})",
                value=render.clip(", ".join(e.name for e in view.waitlist), render.FIELD_VALUE),
                inline=False,
            )
    elif view.standings:
        champion = view.champion()
        if champion is not None:
            embed.add_field(name="🏆 Winner", value=champion.name, inline=False)
        embed.add_field(
            name="Standings",
            value=render.clip("\n".join(standing_lines(view, view.standings[:10])), 1024),
            inline=False,
        )
    embed.set_footer(text=f"Event {event.tournament_id} · /tournament standings")
    return embed


def format_lines(view: EventView) -> list[str]:
    """What the format means for a player: table sizes, who goes on, what places score."""
    config, game, lines = view.config, view.game, []
    size = Tournaments.pod_size(config, game)
    if config.format == "pods":
        bigger = f", or {size + 1} where the field does not divide" if config.larger_tables else ""
        lines.append(f"**Tables of:** {size} players{bigger}")
    if config.format == "multiplayer_elimination":
        advance = Tournaments.advance_of(config, game)
        lines.append(
            f"**Tables of:** {size} players; the top {advance} of each go on, seeds snaked "
            "across the tables, until one final table"
        )
    if config.format in ROUND_ROBINS:
        times = "once" if config.format == "round_robin" else "twice"
        lines.append(
            f"**Round robin:** everyone plays everyone {times}; up to {ROUND_ROBIN_MOST} "
            "players. Ties: head to head, then Sonneborn–Berger"
        )
    if config.scores:
        tables = " · ".join(
            f"{size} seats {scores}"
            for size, scores in (part.split(":") for part in config.scores.split(", "))
        )
        lines.append(f"**Place scores:** {tables} (other sizes: 6 down to 0 evenly)")
    if config.default_cut and view.event.status == "signup":
        lines.append("**Top cut:** a bracket of the top 4 from 9 players, the top 8 from 17")
    elif config.top_cut and config.format == "swiss":
        lines.append(f"**Top cut:** a bracket of the top {config.top_cut}")
    elif config.top_cut == SEMI_FINAL_CUT:
        lines.append(
            "**Top cut:** the top 16 in four semi-final tables (seeds snaked), their "
            "winners at a final table"
        )
    elif config.top_cut:
        lines.append(f"**Final table:** the top {config.top_cut}")
    return lines


def signup_buttons(view: EventView) -> discord.ui.View | None:
    tid = view.event.tournament_id
    buttons = components_view()
    if view.event.status == "signup":
        verbs = ["join", "leave"]
        if view.config.checkin:
            verbs.append("checkin")
        verbs += ["bot", "start", "cancel"]
    elif view.event.status in ("running", "paused"):
        verbs = ["mytable", "standing"]
        if view.late_entry_open:
            verbs.insert(0, "join")
    elif view.event.status == "finished":
        verbs = ["standing"]
    else:
        return None
    for verb in verbs:
        buttons.add_item(EventButton(tid, verb))
    return buttons


def rematch_line(view: EventView, tables: list[tuple[int, ...]]) -> str:
    """Swiss rematches no pairing could avoid, said with the pairings."""
    pairs = ", ".join(" – ".join(view.name(p) for p in seats) for seats in tables)
    many = len(tables) != 1
    return (
        f"🔁 {len(tables)} rematch{'es' if many else ''} could not be avoided this round: " + pairs
    )


class PairingsPage(
    FreesClickedView,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:evp:{EID}:(?P<round>\d{{1,4}}):(?P<page>\d{{1,4}}):(?P<slot>[ab])",
):
    """The pairings message's ◀ ▶: shows another page of the same message. The custom_id
    names the event, the round and the page it leads to (slot a: back, b: on)."""

    def __init__(
        self, tournament_id: str, round_no: int, page: int, slot: str, disabled: bool
    ) -> None:
        super().__init__(
            page_button(
                slot,
                ("Previous", "Next"),
                f"cj:evp:{tournament_id}:{round_no}:{max(page, 0)}:{slot}",
                disabled=disabled,
            )
        )
        self.tournament_id, self.round_no, self.page = tournament_id, round_no, max(page, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PairingsPage:
        return cls(match["tid"], int(match["round"]), int(match["page"]), match["slot"], False)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            events = tournaments_of(interaction)
            view = await events.view(self.tournament_id)
            pages = pairings_pages(view, self.round_no)
            if not pages or self.page >= len(pages):
                raise UserError(
                    "That page of the pairings is gone (the round was paired again). "
                    "My table shows yours."
                )
            deadline = await round_deadline(events, self.tournament_id, self.round_no)
            embed, buttons = pairings_message(view, self.round_no, self.page, deadline)
            await interaction.response.edit_message(embed=embed, view=buttons)

        await guarded(interaction, run())


def pairings_pages(view: EventView, round_no: int) -> list[str]:
    """A round's tables and byes, a page at most PAIRINGS_A_PAGE lines and within an
    embed's description; rebuilt from the store on every page click."""
    lines = []
    for table in sorted((t for t in view.tables if t.round == round_no), key=lambda t: t.table_no):
        names = " vs ".join(view.name(p) for p in table.seats)
        where = f" · <#{table.thread_id}>" if table.thread_id else ""
        lines.append(render.clip(f"**T{table.table_no}** {names}{where}", 400))
    rest = "rests this round" if view.config.format in ROUND_ROBINS else "has the bye"
    byes = sorted(
        (r for r in view.results if r.round == round_no and r.kind == "bye"),
        key=lambda r: r.table_no,
    )
    lines += [f"☕ {view.name(r.players[0])} {rest}" for r in byes]
    if view.config.format == "swiss":
        earlier = [r for r in view.results if r.round < round_no]
        swiss = [t for t in view.tables if t.round == round_no and t.bracket_id is None]
        if rematches := rematches_in(earlier, swiss):
            lines.append(rematch_line(view, rematches))
    pages: list[list[str]] = []
    for line in lines:
        page = pages[-1] if pages else None
        if (
            page is None
            or len(page) >= PAIRINGS_A_PAGE
            or sum(len(x) + 1 for x in page) + len(line) > render.DESCRIPTION - 200
        ):
            pages.append([line])
        else:
            page.append(line)
    return ["\n".join(page) for page in pages]


async def round_deadline(events: Tournaments, tournament_id: str, round_no: int) -> float | None:
    rounds = await events.store.rounds(tournament_id)
    return next((r.deadline for r in rounds if r.round == round_no), None)


def pairings_message(
    view: EventView, round_no: int, page: int, deadline: float | None
) -> tuple[discord.Embed, discord.ui.View]:
    """One message for a round's pairings: a page of tables, ◀ ▶ and My table."""
    pages = pairings_pages(view, round_no) or ["No tables."]
    page = min(page, len(pages) - 1)
    tables = [t for t in view.tables if t.round == round_no]
    stage = "Final" if any(t.bracket_id == "final" for t in tables) else "Round"
    if any((t.bracket_id or "").startswith("semi-") for t in tables):
        stage = "Semi-final"
    ends = f"Ends <t:{int(deadline)}:R>; unfinished tables are then drawn.\n\n" if deadline else ""
    embed = discord.Embed(
        title=render.clip(f"🏆 {view.game.name} · {stage} {round_no} pairings", render.TITLE),
        description=render.clip(ends + pages[page], render.DESCRIPTION),
        colour=render.COLOURS["neutral"],
    )
    footer = "Each table plays in its own thread. My table shows yours."
    if len(pages) > 1:
        footer = f"Page {page + 1}/{len(pages)} · {footer}"
    embed.set_footer(text=footer)
    tid = view.event.tournament_id
    buttons = components_view()
    if len(pages) > 1:
        buttons.add_item(PairingsPage(tid, round_no, page - 1, "a", page == 0))
        buttons.add_item(PairingsPage(tid, round_no, page + 1, "b", page >= len(pages) - 1))
    buttons.add_item(EventButton(tid, "mytable"))
    return embed, buttons


def thread_name(round_no: int, table_no: int, names: list[str]) -> str:
    return render.clip(f"R{round_no} · T{table_no} · {', '.join(names)}", 100)


class TournamentCog(commands.Cog):
    group = app_commands.Group(
        name="tournament", description="Community tournaments the bot runs.", guild_only=True
    )

    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @property
    def events(self) -> Tournaments:
        return self.bot.tournaments

    @property
    def presenter(self) -> Presenter:
        return presenter_of(self.bot)

    # --- finding the event ------------------------------------------------------------------
    async def event_here(self, interaction: discord.Interaction) -> TournamentRecord:
        """The event of this channel (or of the table thread the command is used in); else
        the server's newest open one."""
        found = await self.events.store.tournaments(interaction.guild_id or 0, open_only=False)
        if not found:
            raise UserError(
                "There is no tournament on this server. Create one with /tournament create."
            )
        channel = interaction.channel
        here = {interaction.channel_id, getattr(channel, "parent_id", None)}
        for event in found:
            if event.channel_id in here:
                return event
        return next((e for e in found if e.is_open), found[0])

    # --- commands -------------------------------------------------------------------------
    @group.command(name="create", description="Open sign-up for a tournament in this channel.")
    @app_commands.describe(
        game="Which game",
        format="Swiss, pods (3–8 a table), round robin, or an elimination (2 or 3–8 a table)",
        rounds="Rounds (default: enough for a clear winner)",
        pace="How long each move may take",
        max_players="Most players (default 64, round robin 16); later sign-ups wait",
        starts="Starts by itself then: in 2h, 18:00 or 2026-12-24 18:00 (UTC); Start is sooner",
        pod_size="Pods and multiplayer elimination: players a table (default 4)",
        top_cut="Swiss: bracket of the top 2, 4 or 8. Pods: final table of N, or 16 (four semis)",
        checkin="Players must check in; the unchecked drop at the start",
        best_of="Two-player tables: one game, or the first to win two of three",
        advance="Multiplayer elimination: how many of each table go on (default half)",
        scores="Pods: place scores per table size, best first, e.g. 4:6/4/2/0, 3:6/3/0",
        default_cut="Swiss: a bracket of the top 4 from 9 players, top 8 from 17, none below",
        larger_tables="Pods: fewer, larger tables when the field does not divide (17: 5/4/4/4)",
        reset="Double elimination: replay the grand final if the unbeaten player loses it",
        round_hours="Hours a round lasts, then unfinished tables are drawn (default: the pace's)",
        seeding="lot: a seeded draw; rating: round 1, ties in points and brackets by rating",
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
        scores: str | None = None,
        default_cut: bool = False,
        larger_tables: bool = False,
        reset: bool = True,
        round_hours: app_commands.Range[int, 1, 720] | None = None,
        seeding: Literal["lot", "rating"] = "lot",
    ) -> None:
        async def run() -> None:
            if max_players is None:
                most = ROUND_ROBIN_MOST if format.value in ROUND_ROBINS else 64
            else:
                most = max_players
            config = EventConfig(
                format=format.value,  # type: ignore[arg-type]
                rounds=rounds,
                pace=(pace.value if pace else "casual"),  # type: ignore[arg-type]
                max_players=most,
                starts_at=parse_moment(starts, self.events.clock.now()) if starts else None,
                pod_size=pod_size,
                top_cut=top_cut or 0,
                checkin=checkin,
                best_of=best_of,
                advance=advance,
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
            response = await interaction.response.send_message(
                embed=signup_embed(view), view=signup_buttons(view)
            )
            message = response.resource
            if isinstance(message, discord.InteractionMessage):
                await self.events.set_message(event.tournament_id, message.id)

        await guarded(interaction, run())

    @group.command(name="standings", description="The standings of this channel's tournament.")
    async def standings(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            event = await self.event_here(interaction)
            view = await self.events.view(event.tournament_id)
            await interaction.response.send_message(
                embed=standings_embed(view, view.event.round, final=event.status == "finished"),
                ephemeral=True,
            )

        await guarded(interaction, run())

    @group.command(name="drop", description="Leave the tournament: no more pairings for you.")
    async def drop(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            event = await self.event_here(interaction)
            await self.events.drop(event.tournament_id, person(interaction))
            await tell(
                interaction,
                "🚪 You dropped from the tournament; your results so far stay in the standings.",
            )

        await guarded(interaction, run())

    @group.command(name="export", description="Standings, results and audit log as CSV files.")
    async def export(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            event = await self.event_here(interaction)
            await self.events.require_organiser(
                event, with_roles(interaction), "export the tournament"
            )
            files = await self.events.export(event.tournament_id)
            await interaction.response.send_message(
                "📄 The tournament's standings, results (a row per seat) and audit log.",
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
            event = await self.event_here(interaction)
            rows = await self.events.store.audit(event.tournament_id)
            lines = []
            for row in rows[-20:]:
                after = json.loads(row.after)
                detail = ", ".join(f"{k}: {v}" for k, v in after.items()) if after else ""
                lines.append(
                    f"<t:{int(row.at)}:f> **{row.actor_name}** {row.action}"
                    + (f" — {detail}" if detail else "")
                )
            embed = discord.Embed(
                title="📜 Tournament log",
                description=render.clip("\n".join(lines) or "Nothing yet.", render.DESCRIPTION),
                colour=render.COLOURS["neutral"],
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    # --- organiser tools ------------------------------------------------------------------
    async def _organiser_tool(self, interaction: discord.Interaction, work, done: str) -> None:  # type: ignore[no-untyped-def]
        async def run() -> None:
            event = await self.event_here(interaction)
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
            f"✍️ Result set: {render.clip(order, 200)}. It is in the log.",
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
            f"✍️ {action.name}: {render.clip(name, 100)}. It is in the log.",
        )

    @group.command(name="add", description="Organiser: add a player (late entry) or a bot.")
    @app_commands.describe(member="Who to add; leave out to add a bot")
    async def add(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        async def work(tid: str, who: Person) -> None:
            if member is None:
                await self.events.add_bot(tid, who)
            else:
                await self.events.add_player(
                    tid, who, Person(user_id=member.id, name=member.display_name)
                )

        await self._organiser_tool(interaction, work, "✍️ Added. It is in the log.")

    @group.command(name="repair", description="Organiser: pair this round again (no move made).")
    async def repair(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(
            interaction, self.events.repair, "✍️ The round is paired again. It is in the log."
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
            f"✍️ Table {table} has {hours} more hours. It is in the log.",
        )

    @group.command(name="pause", description="Organiser: hold the tournament (clocks stop).")
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(interaction, self.events.pause, "⏸️ The tournament is paused.")

    @group.command(name="resume", description="Organiser: go on after a pause.")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(interaction, self.events.resume, "▶️ The tournament goes on.")

    @group.command(name="end", description="Organiser: end now; the standings are final.")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(interaction, self.events.end, "🏁 The tournament is over.")

    @group.command(name="cancel", description="Organiser: cancel the tournament.")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._organiser_tool(
            interaction, self.events.cancel, "✖️ The tournament is cancelled."
        )

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await tell(interaction, "That command could not run. Please try again in a moment.")

    # --- showing what happens ---------------------------------------------------------------
    async def open_thread(
        self, event: TournamentRecord, round_no: int, table_no: int, names: list[str]
    ) -> int:
        """A public thread for one table, named after the round, table and players."""
        data = await self.bot.http.start_thread_without_message(
            event.channel_id,
            name=thread_name(round_no, table_no, names),
            auto_archive_duration=10080 if ROUND_DEADLINES[self._pace(event)] else 1440,
            type=discord.ChannelType.public_thread.value,
        )
        return int(data["id"])

    @staticmethod
    def _pace(event: TournamentRecord) -> str:
        return Tournaments.config_of(event).pace

    async def on_event(self, change: EventChange) -> None:
        handler = {
            "signup": self.refresh_signup,
            "round": self.post_pairings,
            "table": self.post_table,
            "standings": self.post_standings,
            "finished": self.post_final,
            "cancelled": self.post_cancelled,
            "forfeit": self.post_forfeit,
            "reminder": self.post_reminder,
            "result": self.post_result,
            "paused": self.refresh_signup,
            "resumed": self.refresh_signup,
            "repaired": self.archive_repaired,
        }[change.kind]
        await handler(change)

    async def refresh_signup(self, change: EventChange) -> None:
        event = await self.events.get(change.event.tournament_id)
        if event.message_id is None:
            return
        view = await self.events.view(event.tournament_id)
        channel = self.bot.get_partial_messageable(event.channel_id)
        try:
            await channel.get_partial_message(event.message_id).edit(
                embed=signup_embed(view), view=signup_buttons(view)
            )
        except discord.HTTPException:
            log.warning("could not refresh the sign-up of event %s", event.tournament_id)

    async def post_pairings(self, change: EventChange) -> None:
        await self.refresh_signup(change)
        view = await self.events.view(change.event.tournament_id)
        deadline = await round_deadline(self.events, change.event.tournament_id, change.round)
        embed, buttons = pairings_message(view, change.round, 0, deadline)
        await self.presenter.post(change.event.channel_id, embed=embed, view=buttons)

    async def post_table(self, change: EventChange) -> None:
        """The started match's table in its thread, and its players pinged."""
        record, table = change.match, change.tables[0]
        if record is None:
            return
        embeds, view = await self.presenter.table_message(record)
        message = await self.presenter.post(record.channel_id, embeds=embeds, view=view)
        await self.bot.service.set_message(record.match_id, message.id)
        people = " ".join(f"<@{s.user_id}>" for s in record.seats if s.user_id is not None)
        game = GAMES[record.game].name
        best_of = Tournaments.config_of(change.event).best_of
        if table.games:
            view = await self.events.view(change.event.tournament_id)
            what = f"game {len(table.games) + 1} is on ({game_score(view, table)}). {people}"
        elif best_of > 1:
            what = f"your match is on, best of {best_of}: game 1. {people}"
        else:
            what = f"your match is on. {people}"
        chances = await self.events.chances(record)
        odds = " · ".join(f"{name} {chance}%" for name, chance in chances)
        await self.presenter.post(
            record.channel_id,
            f"🏆 Round {table.round}, table {table.table_no} of the **{game}** tournament: "
            + what.strip()
            + (f"\nChances: {odds}" if odds else ""),
        )
        self.presenter.request_refresh(record.match_id)

    async def post_result(self, change: EventChange) -> None:
        table = change.tables[0]
        if change.text == "cancelled" and table.thread_id:
            await self.presenter.post(
                table.thread_id,
                "✖️ This table's match was cancelled: the organiser sets its result with "
                "`/tournament result`.",
                allowed_mentions=discord.AllowedMentions.none(),
            )
        elif Tournaments.config_of(change.event).best_of > 1 and table.thread_id:
            await self.post_table_result(table)

    async def post_table_result(self, table: EventTable) -> None:
        """A best-of-three table is decided: its score in the thread, its games played."""
        view = await self.events.view(table.tournament_id)
        result = next(
            (r for r in view.results if (r.round, r.table_no) == (table.round, table.table_no)),
            None,
        )
        if result is None or result.game_wins is None or table.thread_id is None:
            return
        ordered = sorted(zip(result.places, result.players, result.game_wins, strict=True))
        (_, first, won), (place, second, lost) = ordered
        games = f"{won}–{lost}" + (f" ({result.game_draws} drawn)" if result.game_draws else "")
        if result.gone:
            text = f"🏳️ **{view.name(first)}** wins the table against {view.name(second)}, "
            text += f"{games} by forfeit."
        elif place == 1:
            text = f"🤝 {view.name(first)} and {view.name(second)} draw the table, {games}."
        else:
            text = f"🏁 **{view.name(first)}** wins the table against {view.name(second)}, {games}."
        await self.presenter.post(
            table.thread_id, text, allowed_mentions=discord.AllowedMentions.none()
        )

    async def post_standings(self, change: EventChange) -> None:
        view = await self.events.view(change.event.tournament_id)
        await self.archive_round(view, change.round)
        buttons = components_view()
        buttons.add_item(EventButton(change.event.tournament_id, "standing"))
        await self.presenter.post(
            change.event.channel_id,
            embed=standings_embed(view, change.round, final=False),
            view=buttons,
        )

    async def post_final(self, change: EventChange) -> None:
        view = await self.events.view(change.event.tournament_id)
        await self.archive_round(view, change.round)
        await self.refresh_signup(change)
        champion = view.champion()
        text = f"🏁 The **{view.game.name}** tournament is over!"
        if champion is not None:
            who = f"<@{champion.user_id}>" if champion.user_id else f"**{champion.name}**"
            text += f" 🏆 {who} wins."
        buttons = components_view()
        buttons.add_item(EventButton(change.event.tournament_id, "standing"))
        await self.presenter.post(
            change.event.channel_id,
            text,
            embed=standings_embed(view, change.round, final=True),
            view=buttons,
        )

    async def post_cancelled(self, change: EventChange) -> None:
        await self.refresh_signup(change)
        if change.round:
            await self.archive_round(
                await self.events.view(change.event.tournament_id), change.round
            )
        why = f": {change.text}" if change.text else ""
        await self.presenter.post(
            change.event.channel_id,
            f"✖️ The **{GAMES[change.event.game].name}** tournament was cancelled{why}.",
        )

    async def post_forfeit(self, change: EventChange) -> None:
        entrant, table = change.entrant, change.tables[0]
        if entrant is None or entrant.user_id is None or table.thread_id is None:
            return
        buttons = components_view()
        buttons.add_item(EventButton(change.event.tournament_id, "stay"))
        await self.presenter.post(
            table.thread_id,
            f"🏳️ <@{entrant.user_id}> forfeited this table and will be dropped before the "
            "next round unless they press **Stay in**.",
            view=buttons,
        )

    async def post_reminder(self, change: EventChange) -> None:
        rounds = await self.events.store.rounds(change.event.tournament_id)
        deadline = next((r.deadline for r in rounds if r.round == change.round), None)
        when = f" <t:{int(deadline)}:R>" if deadline else ""
        for table in change.tables:
            if table.thread_id is None or table.match_id is None:
                continue
            record = await self.bot.service.get(table.match_id)
            people = " ".join(f"<@{s.user_id}>" for s in record.seats if s.user_id is not None)
            await self.presenter.post(
                table.thread_id,
                f"⏳ Round {change.round} ends{when}: an unfinished table is then drawn. {people}",
            )

    async def archive_round(self, view: EventView, round_no: int) -> None:
        """A round's threads are archived once it is over (a server holds 1000 active)."""
        for table in view.tables:
            if table.round == round_no:
                await self.archive_table(table)

    async def archive_repaired(self, change: EventChange) -> None:
        """The threads of a round paired again: their tables are replaced, not played."""
        for table in change.tables:
            await self.archive_table(table)

    async def archive_table(self, table: EventTable) -> None:
        if table.thread_id is None:
            return
        # An edit after the archive would reopen the thread (every game of a
        # best-of-three table posted there).
        for match_id in {game.match_id for game in table.games} | {table.match_id}:
            if match_id is not None:
                await self.presenter.flushed(match_id)
        try:
            await self.bot.http.edit_channel(table.thread_id, archived=True)
        except discord.HTTPException:
            log.info("could not archive thread %s", table.thread_id)


def game_score(view: EventView, table: EventTable) -> str:
    """A best-of-three table's games so far: ``Ana 1–0 Ben`` (drawn games after)."""
    score = bo.score(table.seats, [game.winner for game in table.games])
    a, b = table.seats
    text = f"{view.name(a)} {score.wins[0]}–{score.wins[1]} {view.name(b)}"
    return text + (f", {score.draws} drawn" if score.draws else "")


def standings_embed(view: EventView, round_no: int, *, final: bool) -> discord.Embed:
    title = f"🏆 {view.game.name} · " + (
        "final standings" if final else f"standings after round {round_no}"
    )
    lines = standing_lines(view, view.standings)
    if len(view.standings) > STANDINGS_SHOWN:
        lines.append(
            f"… and {len(view.standings) - STANDINGS_SHOWN} more: My standing shows yours."
        )
    embed = discord.Embed(
        title=render.clip(title, render.TITLE),
        description=render.clip("\n".join(lines) or "No results yet.", render.DESCRIPTION),
        colour=render.COLOURS["done" if final else "neutral"],
    )
    return embed


async def setup(bot: CookieJar) -> None:
    cog = TournamentCog(bot)
    bot.tournaments.open_thread = cog.open_thread
    bot.tournaments.listeners.append(cog.on_event)
    bot.add_dynamic_items(EventButton, PairingsPage)
    await bot.add_cog(cog)
