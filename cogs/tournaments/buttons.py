"""The tournament's buttons: the sign-up's (Join, Leave, Check in, Add bot, Start,
Cancel), My table, My standing, Stay in, and the pairings message's pages."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

import discord

from bot.errors import UserError
from bot.service import Person
from bot.service.tournaments import Tournaments, TournamentView
from bot.store.tournament_records import TournamentTable
from bot.tournaments.tiebreakers import tiebreak_figures
from cogs import render
from cogs.components import (
    LEVEL,
    SIGNUP_LOOK,
    GuardedClick,
    PicksLevel,
    VerbButton,
    add_web_link,
    components_view,
    level_picker,
    links_of,
    page_button,
    person,
    tell,
)
from cogs.pictures import keep
from cogs.speech import personal, public, say
from cogs.tournaments.embeds import pairings_pages, tiebreak_words
from cogs.tournaments.pictures import BRACKET
from games.core.levels import LEVEL_NAMES, Level
from games.core.text import Names, Text, joined, t, tc, tn
from games.core.translations import ENGLISH

EID = r"(?P<tid>[0-9a-f]{8})"


# What a bye is in the format (``Format.bye``), said to the player who has it.
def bye_line(bye: str, round_no: int) -> Text:
    if bye == "rest":
        return t(
            "☕ You rest in round {round}: everyone rests once in an odd field.", round=round_no
        )
    if bye == "pass":
        return t("☕ You pass round {round} unplayed: you go on to the next round.", round=round_no)
    return t("☕ You have the bye in round {round}: it counts as a win.", round=round_no)


def tournaments_of(interaction: discord.Interaction) -> Tournaments:
    return interaction.client.tournaments  # type: ignore[attr-defined]


def with_roles(interaction: discord.Interaction) -> Person:
    """Who clicked, with their roles: the server's organiser role may run events."""
    found = person(interaction)
    roles = getattr(interaction.user, "roles", ())
    return dataclasses.replace(found, roles=frozenset(role.id for role in roles))


class TournamentButton(
    VerbButton,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:ev:{EID}:(?P<verb>join|leave|checkin|bot|start|cancel|mytable|standing|stay|next)",
):
    """Every button of an event: the sign-up's, My table, My standing, Stay in."""

    PREFIX, KEY = "ev", "tid"
    LOOK = {
        **SIGNUP_LOOK,
        "checkin": (tc("button", "Check in"), discord.ButtonStyle.primary, "✅"),
        "mytable": (tc("button", "My table"), discord.ButtonStyle.primary, "🪑"),
        "standing": (tc("button", "My standing"), discord.ButtonStyle.secondary, "📊"),
        "stay": (tc("button", "Stay in"), discord.ButtonStyle.success, "💪"),
        "next": (tc("button", "Start now"), discord.ButtonStyle.primary, "⏭️"),
    }

    async def _run(self, interaction: discord.Interaction) -> None:
        events, who, tid = tournaments_of(interaction), with_roles(interaction), self.key
        if self.verb == "join":
            entrant = await events.join(tid, who)
            event = await events.get(tid)
            if event.status != "signup":
                said = t(
                    "🙋 You are in from round {round}, with a loss for each round played, "
                    "as **{name}**.",
                    round=event.round + 1,
                    name=entrant.name,
                )
            elif entrant.state == "waitlist":
                said = t("🙋 You are on the waitlist, as **{name}**.", name=entrant.name)
            else:
                said = t("🙋 You are in, as **{name}**.", name=entrant.name)
            await tell(interaction, said)
        elif self.verb == "leave":
            await events.leave(tid, who)
            await tell(interaction, t("🚪 You left the tournament."))
        elif self.verb == "checkin":
            await events.check_in(tid, who)
            await tell(interaction, t("✅ You are checked in. The organiser starts the event."))
        elif self.verb == "bot":
            # Added at the server's level; the private answer offers the others.
            entrant = await events.add_bot(tid, who)
            said = t(
                "{bot} joins the tournament.", bot=render.seat_name(entrant)
            )  # "🤖 Abe (Normal)"
            language = await personal(interaction)
            picker = level_picker(
                event_bot_ids(tid, entrant.entrant), entrant.level, said, language
            )
            await interaction.response.send_message(ephemeral=True, **picker)
        elif self.verb == "start":
            # Opening the first round's threads and matches takes several calls to Discord.
            await interaction.response.defer(ephemeral=True, thinking=True)
            await events.start(tid, who)
            await tell(interaction, t("▶️ The tournament is on: round 1 is paired."))
        elif self.verb == "cancel":
            await events.cancel(tid, who)
            await tell(interaction, t("✖️ You cancelled the tournament."))
        elif self.verb == "mytable":
            await tell(interaction, await my_table(events, tid, interaction.user.id))
        elif self.verb == "standing":
            await tell(interaction, await my_standing(events, tid, interaction.user.id))
        elif self.verb == "next":
            await interaction.response.defer(ephemeral=True, thinking=True)
            number = await events.start_now(tid, who)
            await tell(
                interaction, t("⏭️ Round {round} is paired: the pairings are below.", round=number)
            )
        elif self.verb == "stay":
            await events.stay_in(tid, who)
            await tell(interaction, t("💪 You stay in: you will be paired next round."))


def event_bot_ids(tournament_id: str, entrant: int) -> Callable[[Level], str]:
    """The custom ids of the level buttons for the event's bot entrant ``entrant``."""
    return lambda level: f"cj:evbot:{tournament_id}:{entrant}:{level}"


class EventBotButton(
    PicksLevel,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:evbot:{EID}:(?P<entrant>\d{{1,4}}):{LEVEL}",
):
    """A level in the event's Add bot answer: the bot entrant plays its tables at it."""

    def __init__(self, tournament_id: str, entrant: int, level: Level) -> None:
        self.tournament_id, self.entrant, self.level = tournament_id, entrant, level
        super().__init__(self.button())

    def ids(self) -> Callable[[Level], str]:
        return event_bot_ids(self.tournament_id, self.entrant)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> EventBotButton:
        return cls(match["tid"], int(match["entrant"]), match["level"])

    async def pick(self, interaction: discord.Interaction) -> str:
        events = tournaments_of(interaction)
        entrant = await events.set_bot_level(
            self.tournament_id, with_roles(interaction), self.entrant, self.level
        )
        return t(
            "{bot} plays its tables at {level}.", bot=entrant.name, level=LEVEL_NAMES[self.level]
        )


async def my_table(events: Tournaments, tournament_id: str, user_id: int) -> Text:
    view = await events.view(tournament_id)
    mine = view.of_user(user_id)
    if mine is None:
        return t("You are not playing in this tournament.")
    round_no = view.event.round
    # A group event seats a player at several tables of a round at once: a line each.
    mine_now = [x for x in view.tables if x.round == round_no and mine.entrant in x.seats]
    if mine_now:
        return joined((table_line(view, x, mine.entrant) for x in mine_now), "\n")
    if any(
        r.round == round_no and r.kind == "bye" and mine.entrant in r.players for r in view.results
    ):
        return bye_line(view.format.bye, round_no)
    if mine.entrant in view.format.waiting(view.progress, round_no):
        return t(
            "⏳ You have no match in round {round}: you are still in, and wait for an "
            "opponent to come through. The pairings show the bracket.",
            round=round_no,
        )
    return t("You have no table in round {round}.", round=round_no)


def table_line(view: TournamentView, table: TournamentTable, entrant: int) -> Text:
    """Where one of a player's tables is played, and with whom."""
    others = Names(view.name(p) for p in table.seats if p != entrant)
    if table.thread_id:
        return t(
            "🪑 Round {round}, table {table} with {others}: <#{thread}>.",
            round=table.round,
            table=table.table_no,
            others=others,
            thread=table.thread_id,
        )
    return t(
        "🪑 Round {round}, table {table} with {others}: its thread.",
        round=table.round,
        table=table.table_no,
        others=others,
    )


async def my_standing(events: Tournaments, tournament_id: str, user_id: int) -> Text:
    view = await events.view(tournament_id)
    mine = view.of_user(user_id)
    line = next((s for s in view.standings if mine and s.player == mine.entrant), None)
    if line is None:
        return t("You are not in this tournament's standings.")
    breakers = tiebreak_figures(line.tiebreakers)
    pts, of = float(line.points), len(view.standings)
    where = view.standing_notes().get(line.player)
    if where is not None:
        # A group event: the round and group reached place a player, that round's points
        # are theirs there.
        return tn(
            "📊 You are **#{rank}** of {of}: {where}, with **{n}** point in that round.",
            "📊 You are **#{rank}** of {of}: {where}, with **{n}** points in that round.",
            n=pts,
            rank=line.rank,
            of=of,
            where=where,
        )
    if breakers:
        said = tn(
            "📊 You are **#{rank}** of {of} with **{n}** point ({breakers}).",
            "📊 You are **#{rank}** of {of} with **{n}** points ({breakers}).",
            n=pts,
            rank=line.rank,
            of=of,
            breakers=breakers,
        )
    else:
        said = tn(
            "📊 You are **#{rank}** of {of} with **{n}** point.",
            "📊 You are **#{rank}** of {of} with **{n}** points.",
            n=pts,
            rank=line.rank,
            of=of,
        )
    words = tiebreak_words([name for name, _ in line.tiebreakers])
    return joined((said, words), "\n-# ") if words else said  # the small print under it


def signup_buttons(view: TournamentView, language: str = ENGLISH) -> discord.ui.View | None:
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
        buttons.add_item(TournamentButton(tid, verb, language))
    return buttons


class PairingsPage(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:evp:{EID}:(?P<round>\d{{1,4}}):(?P<page>\d{{1,4}}):(?P<slot>[ab])",
):
    """The pairings message's ◀ ▶: shows another page of the same message. The custom_id
    names the event, the round and the page it leads to (slot a: back, b: on)."""

    def __init__(
        self,
        tournament_id: str,
        round_no: int,
        page: int,
        slot: str,
        disabled: bool,
        language: str = ENGLISH,  # the message's readers'; one rebuilt from a click is unseen
    ) -> None:
        super().__init__(
            page_button(
                slot,
                (tc("button", "Previous"), tc("button", "Next")),
                f"cj:evp:{tournament_id}:{round_no}:{max(page, 0)}:{slot}",
                language,
                disabled=disabled,
            )
        )
        self.tournament_id, self.round_no, self.page = tournament_id, round_no, max(page, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PairingsPage:
        return cls(match["tid"], int(match["round"]), int(match["page"]), match["slot"], False)

    async def _run(self, interaction: discord.Interaction) -> None:
        events = tournaments_of(interaction)
        view = await events.view(self.tournament_id)
        language = await public(interaction)  # the round's one message, for everyone
        pages = pairings_pages(view, self.round_no, language)
        if not pages or self.page >= len(pages):
            raise UserError(
                t(
                    "That page of the pairings is gone (the round was paired again). "
                    "My table shows yours."
                )
            )
        deadline = await round_deadline(events, self.tournament_id, self.round_no)
        embed, buttons = pairings_message(view, self.round_no, self.page, deadline, language)
        keep(embed, interaction.message, BRACKET)
        links = links_of(interaction)
        await add_web_link(
            buttons, links, view.event.guild_id, "event", self.tournament_id, language=language
        )
        await interaction.response.edit_message(embed=embed, view=buttons)


async def round_deadline(events: Tournaments, tournament_id: str, round_no: int) -> float | None:
    rounds = await events.store.rounds(tournament_id)
    return next((r.deadline for r in rounds if r.round == round_no), None)


def pairings_message(
    view: TournamentView,
    round_no: int,
    page: int,
    deadline: float | None,
    language: str = ENGLISH,
) -> tuple[discord.Embed, discord.ui.View]:
    """One message for a round's pairings, in ``language`` (the server's): a page of
    tables, ◀ ▶ and My table."""
    pages = pairings_pages(view, round_no, language) or [say(t("No tables."), language)]
    page = min(page, len(pages) - 1)
    tables = [x for x in view.tables if x.round == round_no]
    game = view.game.name
    if any((x.bracket_id or "").startswith("semi-") for x in tables):
        title = t("🏆 {game} · Semi-final {round} pairings", game=game, round=round_no)
    elif any(x.bracket_id == "final" for x in tables):
        title = t("🏆 {game} · Final {round} pairings", game=game, round=round_no)
    else:
        title = t("🏆 {game} · Round {round} pairings", game=game, round=round_no)
    ends = (
        say(t("Ends <t:{at}:R>; unfinished tables are then drawn.", at=int(deadline)), language)
        + "\n\n"
        if deadline
        else ""
    )
    embed = discord.Embed(
        title=render.clip(say(title, language), render.TITLE),
        description=render.clip(ends + pages[page], render.DESCRIPTION),
        colour=render.COLOURS["neutral"],
    )
    footer = t("Each table plays in its own thread. My table shows yours.")
    if len(pages) > 1:
        footer = t(
            "Page {page}/{pages} · Each table plays in its own thread. My table shows yours.",
            page=page + 1,
            pages=len(pages),
        )
    embed.set_footer(text=say(footer, language))
    tid = view.event.tournament_id
    buttons = components_view()
    if len(pages) > 1:
        buttons.add_item(PairingsPage(tid, round_no, page - 1, "a", page == 0, language))
        buttons.add_item(
            PairingsPage(tid, round_no, page + 1, "b", page >= len(pages) - 1, language)
        )
    buttons.add_item(TournamentButton(tid, "mytable", language))
    return embed, buttons
