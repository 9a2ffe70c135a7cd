"""Slash commands: /play, /games, /cancel (/rules: cogs/rules.py). Thin: one service call each."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ChannelTaken, NotSeated, UserError
from bot.permissions import FOR_THREADS, IN_CHANNEL
from bot.service import MatchService
from bot.service.decks import MINE
from bot.store import MatchRecord
from cogs import render
from cogs.components import LEVEL_CHOICES, components_view, guarded, level_of, person, tell
from cogs.decks import any_deck
from cogs.permissions import require_permissions
from cogs.pictures import draws_pictures
from cogs.speech import label, languages, personal, say
from cogs.table import Presenter, presenter_of
from cogs.table.buttons import LeaveButton
from cogs.taken import can_cancel, channel_taken
from games import GAMES
from games.core.levels import Level
from games.core.protocol import Game, SeatChoosing
from games.core.text import Names, Text, t, tn

if TYPE_CHECKING:
    from bot.client import CookieJar
    from bot.service import MyMatch

GAME_CHOICES = [app_commands.Choice(name=game.name, value=key) for key, game in GAMES.items()]


def nobody_to_remind(mine: list[MyMatch]) -> Text:
    """Why /remind pinged nobody, from the asker's open matches here."""
    if not mine:
        return t("Nothing to remind: you are in no match here. /play starts one.")
    if any(m.my_turn for m in mine):
        return t("Nobody to remind: it is your move. /games shows where.")
    return t(
        "Nobody to remind: your matches wait on bots or have not started, or their players "
        "were reminded less than an hour ago."
    )


class Play(commands.Cog):
    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @property
    def service(self) -> MatchService:
        return self.bot.service

    @property
    def presenter(self) -> Presenter:
        return presenter_of(self.bot)

    @app_commands.command(name="play", description="Open a lobby for a game in this channel.")
    @app_commands.describe(
        game="Which game to play",
        bots="Seats for bots; friends can still join until you press Start",
        thread="Play in a thread of its own (default: the server's choice)",
        deck="Braverse: the deck you play (a ready deck or one of yours; default: a ready one)",
        level="How hard the bots play (default: the server's choice)",
    )
    @app_commands.choices(game=GAME_CHOICES, level=LEVEL_CHOICES)
    @app_commands.autocomplete(deck=any_deck)
    @app_commands.guild_only()
    async def play(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        bots: app_commands.Range[int, 0, 7] = 0,
        thread: bool | None = None,
        deck: str | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        async def run() -> None:
            chosen = GAMES[game.value]
            bot_level = level_of(level)
            if bots > chosen.max_players - 1:
                raise UserError(
                    t(
                        "{game} seats {players}: pick bots: {most} at most.",
                        game=chosen.name,
                        players=render.player_count(chosen),
                        most=chosen.max_players - 1,
                    )
                )
            # The deck is checked before any lobby opens, so a typo opens nothing.
            pick = await self.host_pick(interaction, game.value, deck)
            defaults = await self.service.guild_settings(interaction.guild_id or 0)
            wanted = defaults.threads if thread is None else thread
            parent = interaction.channel
            in_thread = wanted and isinstance(parent, discord.TextChannel)
            require_permissions(
                interaction,
                FOR_THREADS if in_thread else IN_CHANNEL,
                pictures=await draws_pictures(self.bot, interaction.guild_id or 0),
            )
            mine = None
            if pick is not None and pick.startswith(MINE):
                mine = await self.service.deck(interaction.user.id, pick.removeprefix(MINE))
            # As the lobby's own deck select says it: a draft is named now, not at Start.
            draft = mine is not None and bool(self.service.deck_problems(mine))
            if in_thread:
                assert isinstance(parent, discord.TextChannel)
                record = await self.open_in_thread(
                    interaction, parent, game, bots, pick, bot_level, start=not draft
                )
            else:
                record = await self.open_lobby(
                    interaction, interaction.channel_id or 0, game, pick=pick
                )
                record = await self.add_bots(interaction, record, bots, bot_level)
                shown = self.presenter.shown
                # The presenter's edit for the lobby's changes waits, and finds it shown.
                with shown.answering(record.match_id):
                    drawn = await self.presenter.table_message(record)  # a lobby: no picture
                    showing = shown.showing(drawn)
                    response = await interaction.response.send_message(**drawn.sent())
                    await self.presenter.remember_message(record, response, interaction, showing)
            if mine is not None:
                language = await personal(interaction)
                said = render.deck_picked(mine.name, self.service.deck_problems(mine), language)
                await interaction.followup.send(said, ephemeral=True)
            if record.status == "lobby" and full(record, bots, chosen) and not draft:
                # Bots took every seat: nobody could join, so nothing to wait for. With a
                # seat free the lobby stays open for friends until the host presses Start;
                # with the host's draft, until they fix it or pick another (said above).
                # The lobby message turns into the table in the command's own answer,
                # which showed the lobby (free); a thread got the table at once.
                started = self.service.start(record.match_id, person(interaction))
                await self.presenter.clicks.on_table(
                    interaction, record.match_id, started, command=True
                )

        await guarded(interaction, run())

    async def add_bots(
        self,
        interaction: discord.Interaction,
        record: MatchRecord,
        bots: int,
        level: Level | None = None,
    ) -> MatchRecord:
        for _ in range(bots):
            record = await self.service.add_bot(record.match_id, person(interaction), level)
        return record

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        channel_id: int,
        game: app_commands.Choice[str],
        *,
        in_thread: bool = False,
        pick: str | None = None,
    ) -> MatchRecord:
        try:
            record = await self.service.open_lobby(
                guild_id=interaction.guild_id or 0,
                channel_id=channel_id,
                host=person(interaction),
                game_key=game.value,
                in_thread=in_thread,
            )
        except ChannelTaken as taken:
            existing = await self.service.get(taken.match_id)
            raise UserError(channel_taken(existing, person(interaction))) from None
        if pick is not None:
            record = await self.service.choose(record.match_id, person(interaction), pick)
        return record

    async def host_pick(
        self, interaction: discord.Interaction, game_key: str, deck: str | None
    ) -> str | None:
        """The host's ``deck:`` as a lobby pick, or None when they gave none."""
        if deck is None:
            return None
        chosen = GAMES[game_key]
        if not isinstance(chosen, SeatChoosing):
            raise UserError(
                t("{game} is played without decks; leave deck: empty.", game=chosen.name)
            )
        return await self.service.pick_value(
            chosen.seat_choice.catalogue, interaction.user.id, deck
        )

    async def open_in_thread(
        self,
        interaction: discord.Interaction,
        parent: discord.TextChannel,
        game: app_commands.Choice[str],
        bots: int = 0,
        pick: str | None = None,
        level: Level | None = None,
        *,
        start: bool = True,
    ) -> MatchRecord:
        """A thread named after the game and its host (renamed with the players at Start).

        Three calls to Discord come first, so the answer is deferred (privately: a refusal
        stays a private sentence) and the public announcement is posted in the channel.
        When bots take every seat (and ``start``), the match starts before anything is
        posted: the thread gets its table at once, not a lobby a budgeted edit turns into
        the table (the thread's message is no interaction's answer: no token reaches it).
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        public = await languages(self.bot).public(interaction.guild_id)
        words = t("🍪 {game} · {host}", game=game.name, host=person(interaction).name)
        name = render.clip(label(words, public), 100)
        thread = await parent.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        record = await self.open_lobby(interaction, thread.id, game, in_thread=True, pick=pick)
        record = await self.add_bots(interaction, record, bots, level)
        shown = self.presenter.shown
        # The presenter's edit for the start waits for the message, and finds it shown.
        with shown.answering(record.match_id):
            if start and full(record, bots, GAMES[game.value]):
                record = await self.service.start(record.match_id, person(interaction))
            drawn = await self.presenter.table_message(record)  # a lobby has no picture
            showing = shown.showing(drawn)
            lobby = await thread.send(**drawn.sent())
            await self.service.set_message(record.match_id, lobby.id)
            shown.remember(record, lobby, showing)
        opened = t(
            "🍪 <@{host}> opened a **{game}** table in <#{thread}>: join it there!",
            host=interaction.user.id,
            game=game.name,
            thread=thread.id,
        )
        await parent.send(say(opened, public), allowed_mentions=discord.AllowedMentions.none())
        await tell(interaction, t("Your lobby is open in <#{thread}>.", thread=thread.id))
        return record

    @app_commands.command(name="games", description="Your matches on this server.")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            found = await self.service.open_for_user(interaction.guild_id or 0, interaction.user.id)
            if not found:
                await tell(interaction, t("You are not in any match here. Start one with /play."))
                return
            language = await personal(interaction)
            lines: list[Text] = []
            for mine in found[:20]:
                record = mine.match
                name = GAMES[record.game].name if record.game in GAMES else record.game
                link = render.jump_link(record)
                channel = record.channel_id
                where = (
                    t("[in <#{channel}>]({link})", channel=channel, link=link)
                    if link
                    else t("in <#{channel}>", channel=channel)
                )
                if record.status == "active" and await self.service.held(record):
                    # Its clocks are parked far ahead while held: a due date would mislead.
                    state = t("⏸️ paused by its tournament")
                elif mine.my_turn and mine.my_deadline:
                    state = t("**your turn**, due <t:{due}:R>", due=int(mine.my_deadline))
                elif mine.my_turn:
                    state = t("**your turn**")
                elif record.status == "lobby":
                    state = t("in the lobby")
                else:
                    names = [s.name for s in record.seats if s.seat in mine.waiting_on]
                    state = (
                        t("waiting for {names}", names=render.commas(names))
                        if names
                        else t("playing")
                    )
                lines.append(
                    t("• **{game}** {where} · {state}", game=name, where=where, state=state)
                )
            embed = discord.Embed(
                title=say(t("🍪 Your matches"), language),
                description=render.lines(lines, language),
                colour=render.COLOURS["neutral"],
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    @app_commands.command(
        name="remind", description="Ping everyone holding up one of your matches here."
    )
    @app_commands.guild_only()
    async def remind(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            guild, user = interaction.guild_id or 0, interaction.user.id
            nudges = await self.service.remind(guild, user, self.presenter.pings.pinged_at)
            sent = nudges.sent
            if sent:
                matches = len({c.match.match_id for c in sent})
                text = t(
                    "Reminded {players} in {matches}.",
                    players=tn("{n} player", "{n} players", n=len(sent)),
                    matches=tn("{n} match", "{n} matches", n=matches),
                )
            elif not nudges.skipped:
                text = nobody_to_remind(await self.service.open_for_user(guild, user))
            else:
                text = t("Nobody reminded.")
            # Who was left alone and why (pinged just now, away), so the asker knows.
            language = await personal(interaction)
            said = " ".join(say(line, language) for line in [text, *nudges.skipped])
            await tell(interaction, said)

        await guarded(interaction, run())

    @app_commands.command(name="cancel", description="End the match in this channel.")
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            who = person(interaction)
            record = await self.match_here(interaction, lambda r: can_cancel(r, who), "cancel")
            await self.service.cancel(record.match_id, who)
            # The channel hears it from the table's own closing message.
            here = record.channel_id == interaction.channel_id
            name = GAMES[record.game].name
            if here:
                said = t("✖️ You cancelled the {game} match.", game=name)
            else:
                said = t(
                    "✖️ You cancelled the {game} match in <#{channel}>.",
                    game=name,
                    channel=record.channel_id,
                )
            await tell(interaction, said)

        await guarded(interaction, run())

    @app_commands.command(name="leave", description="Leave the match in this channel.")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            user_id = interaction.user.id
            record = await self.match_here(
                interaction, lambda r: r.seat_of(user_id) is not None, "leave"
            )
            if record.seat_of(user_id) is None:
                # Asked nothing: there is no seat to give away.
                raise NotSeated(lobby=record.status == "lobby")
            if record.status == "lobby":
                await self.service.leave(record.match_id, person(interaction))
                await tell(interaction, t("You left the lobby."))
                return
            # Leaving a running match is for good: asked first, done by the button.
            language = await personal(interaction)
            await tell(interaction, **leave_question(record.match_id, language))

        await guarded(interaction, run())

    async def match_here(
        self,
        interaction: discord.Interaction,
        mine: Callable[[MatchRecord], bool],
        verb: str,
    ) -> MatchRecord:
        """The match in this channel, or, from a channel whose tables live in threads
        (``threads:true``), the one match of its threads that ``mine`` picks."""
        store = self.service.store
        record = await store.open_in_channel(interaction.channel_id or 0)
        if record is not None:
            return record
        channel = interaction.channel
        threads = channel.threads if isinstance(channel, discord.TextChannel) else []
        found = [r for t in threads[:THREADS_LOOKED_AT] if (r := await store.open_in_channel(t.id))]
        ours = [r for r in found if mine(r)]
        if len(ours) == 1:
            return ours[0]
        if len(ours) > 1:
            links = Names(t("<#{channel}>", channel=r.channel_id) for r in ours)
            raise UserError(
                t(
                    "You have several matches in threads here ({links}): /{command} in one.",
                    links=links,
                    command=verb,
                )
            )
        if verb == "cancel":
            raise UserError(t("There is no match in this channel to cancel."))
        raise UserError(t("There is no match in this channel to leave."))

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await tell(interaction, t("That command could not run. Please try again in a moment."))


def full(record: MatchRecord, bots: int, game: Game) -> bool:
    """/play's bots took every seat of the lobby."""
    return bots > 0 and len(record.seats) >= game.max_players


THREADS_LOOKED_AT = 50  # a channel's active threads searched for a match of the person


def leave_question(match_id: str, language: str) -> dict[str, Any]:
    """/leave in a running match asks first: a bot takes the seat for good."""
    view = components_view()
    view.add_item(LeaveButton(match_id, language))
    return {
        "text": t("Leave this match? A bot takes your seat for good; you can't come back."),
        "view": view,
    }


async def setup(bot: CookieJar) -> None:
    await bot.add_cog(Play(bot))
