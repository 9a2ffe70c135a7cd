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
from cogs.table import Presenter, presenter_of
from cogs.table.buttons import LeaveButton
from cogs.taken import can_cancel, channel_taken
from games import GAMES
from games.core.levels import Level
from games.core.protocol import SeatChoosing
from games.core.words import plural

if TYPE_CHECKING:
    from bot.client import CookieJar
    from bot.service import MyMatch

GAME_CHOICES = [app_commands.Choice(name=game.name, value=key) for key, game in GAMES.items()]


def nobody_to_remind(mine: list[MyMatch]) -> str:
    """Why /remind pinged nobody, from the asker's open matches here."""
    if not mine:
        return "Nothing to remind: you are in no match here. /play starts one."
    if any(m.my_turn for m in mine):
        return "Nobody to remind: it is your move. /games shows where."
    return (
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
                    f"{chosen.name} seats {render.player_count(chosen)}: "
                    f"pick bots: {chosen.max_players - 1} at most."
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
            if in_thread:
                assert isinstance(parent, discord.TextChannel)
                record = await self.open_in_thread(interaction, parent, game, bots, pick, bot_level)
            else:
                record = await self.open_lobby(
                    interaction, interaction.channel_id or 0, game, pick=pick
                )
                record = await self.add_bots(interaction, record, bots, bot_level)
                drawn = await self.presenter.table_message(record)  # a lobby: no picture
                response = await interaction.response.send_message(**drawn.sent())
                await self.presenter.remember_message(record, response)
            draft = False
            if pick is not None and pick.startswith(MINE):
                # As the lobby's own deck select says it: a draft is named now, not at Start.
                mine = await self.service.deck(interaction.user.id, pick.removeprefix(MINE))
                draft = bool(self.service.deck_problems(mine))
                said = render.deck_picked(mine.name, self.service.deck_problems(mine))
                await interaction.followup.send(said, ephemeral=True)
            if bots and len(record.seats) >= chosen.max_players and not draft:
                # Bots took every seat: nobody could join, so nothing to wait for. With a
                # seat free the lobby stays open for friends until the host presses Start;
                # with the host's draft, until they fix it or pick another (said above).
                # The lobby message turns into the table: in a thread by the presenter's
                # edit, here in the command's own answer, which showed the lobby (free).
                started = self.service.start(record.match_id, person(interaction))
                if in_thread:
                    await started
                else:
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
            raise UserError(f"{chosen.name} is played without decks; leave deck: empty.")
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
    ) -> MatchRecord:
        """A thread named after the game and its host (renamed with the players at Start).

        Three calls to Discord come first, so the answer is deferred (privately: a refusal
        stays a private sentence) and the public announcement is posted in the channel.
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        name = render.clip(f"🍪 {game.name} · {person(interaction).name}", 100)
        thread = await parent.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        record = await self.open_lobby(interaction, thread.id, game, in_thread=True, pick=pick)
        record = await self.add_bots(interaction, record, bots, level)
        drawn = await self.presenter.table_message(record)  # a lobby: no picture
        lobby = await thread.send(**drawn.sent())
        await self.service.set_message(record.match_id, lobby.id)
        await parent.send(
            f"🍪 {interaction.user.mention} opened a **{game.name}** table in {thread.mention}: "
            "join it there!",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.followup.send(f"Your lobby is open in {thread.mention}.", ephemeral=True)
        return record

    @app_commands.command(name="games", description="Your matches on this server.")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            found = await self.service.open_for_user(interaction.guild_id or 0, interaction.user.id)
            if not found:
                await tell(interaction, "You are not in any match here. Start one with /play.")
                return
            lines = []
            for mine in found[:20]:
                record = mine.match
                name = GAMES[record.game].name if record.game in GAMES else record.game
                link = render.jump_link(record)
                where = (
                    f"[in <#{record.channel_id}>]({link})" if link else f"in <#{record.channel_id}>"
                )
                if record.status == "active" and await self.service.held(record):
                    # Its clocks are parked far ahead while held: a due date would mislead.
                    state = "⏸️ paused by its tournament"
                elif mine.my_turn:
                    due = f", due <t:{int(mine.my_deadline)}:R>" if mine.my_deadline else ""
                    state = f"**your turn**{due}"
                elif record.status == "lobby":
                    state = "in the lobby"
                else:
                    names = [s.name for s in record.seats if s.seat in mine.waiting_on]
                    state = f"waiting for {', '.join(names)}" if names else "playing"
                lines.append(f"• **{name}** {where} · {state}")
            embed = discord.Embed(
                title="🍪 Your matches",
                description="\n".join(lines),
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
                text = f"Reminded {plural(len(sent), 'player')} in {plural(matches, 'match')}."
            elif not nudges.skipped:
                text = nobody_to_remind(await self.service.open_for_user(guild, user))
            else:
                text = "Nobody reminded."
            # Who was left alone and why (pinged just now, away), so the asker knows.
            await tell(interaction, " ".join([text, *nudges.skipped]))

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
            where = "" if here else f" in <#{record.channel_id}>"
            await tell(interaction, f"✖️ You cancelled the {GAMES[record.game].name} match{where}.")

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
                await tell(interaction, "You left the lobby.")
                return
            # Leaving a running match is for good: asked first, done by the button.
            await tell(interaction, **leave_question(record.match_id))

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
            links = ", ".join(f"<#{r.channel_id}>" for r in ours)
            raise UserError(f"You have several matches in threads here ({links}): /{verb} in one.")
        raise UserError(f"There is no match in this channel to {verb}.")

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await tell(interaction, "That command could not run. Please try again in a moment.")


THREADS_LOOKED_AT = 50  # a channel's active threads searched for a match of the person


def leave_question(match_id: str) -> dict[str, Any]:
    """/leave in a running match asks first: a bot takes the seat for good."""
    view = components_view()
    view.add_item(LeaveButton(match_id))
    return {
        "text": "Leave this match? A bot takes your seat for good; you can't come back.",
        "view": view,
    }


async def setup(bot: CookieJar) -> None:
    await bot.add_cog(Play(bot))
