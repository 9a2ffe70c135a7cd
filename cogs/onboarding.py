"""/help, also posted when the bot joins a server; and /always_ask, a player's own switch."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.permissions import IN_CHANNEL, missing
from cogs import render
from cogs.components import guarded
from cogs.table.buttons import always_ask_message
from games import GAMES

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)

# Every command, grouped by what a player wants to do: nothing the bot can do stays hidden.
COMMAND_GROUPS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "🎲 Play",
        (
            ("/play game: [bots:N]", "open a table here; bots take seats, friends can still join"),
            ("/rules game:", "how a game is played, and our rulings"),
            ("/games · /remind", "your matches here · nudge whoever holds them up"),
            ("/leave · /cancel", "give your seat to a bot · end the match (its host)"),
        ),
    ),
    (
        "🏆 Compete",
        (
            ("/tournament create", "a Swiss, round-robin or knockout event"),
            ("/leaderboard game:", "this server's best players of a game"),
            ("/stats", "a player's rated games, places and rating"),
        ),
    ),
    (
        "📜 Look back",
        (
            ("/history", "this server's finished matches"),
            ("/replay", "watch a finished match move by move"),
            ("/export", "a finished match as a file"),
        ),
    ),
    (
        "🃏 Decks",
        (
            ("/deck list · show · import · export · copy · delete", "your Braverse decks"),
            ("/card name:", "what a card says and does"),
        ),
    ),
    (
        "⚙️ You and your server",
        (
            ("/away · /notify", "stop your slow clocks · reminders by DM"),
            ("/always_ask on:", "be asked even when passing is your only move"),
            ("/settings", "the server's pace, timeouts, threads (Manage Server)"),
        ),
    ),
)

# The shortest game at its defaults (Toss, one round): a first evening's first table.
QUICK_START = "Quick start: /play game: Toss Your Cookies bots:2, then Start"


def help_embed() -> discord.Embed:
    games = "\n".join(f"• **{game.name}** · {render.player_count(game)}" for game in GAMES.values())
    embed = discord.Embed(
        title="🍪 Cookie Jar",
        description=(
            "Card games for your server, played right here in the channel, with the rules "
            "kept for you. Play live, or slowly across time zones; bots fill empty seats."
        ),
        colour=render.COLOURS["neutral"],
    )
    embed.add_field(name="The games", value=games, inline=False)
    embed.add_field(
        name="How a turn works",
        value=(
            "1. `/play` opens a table; people press **Join**, the host presses **Start**.\n"
            "2. Press **Show hand** on the table: your cards and your moves appear, just "
            "for you.\n"
            "3. Pick your move there. You are pinged when it is your turn; a move with "
            "nothing to choose (a lone Pass) is played for you after a moment."
        ),
        inline=False,
    )
    for group, commands_ in COMMAND_GROUPS:
        embed.add_field(
            name=group,
            value="\n".join(f"`{name}` — {what}" for name, what in commands_),
            inline=False,
        )
    embed.set_footer(text=QUICK_START)
    return embed


class Onboarding(commands.Cog):
    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Cookie Jar is, its games and commands.")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True)

    @app_commands.command(
        name="always_ask", description="Be asked even when passing is your only move."
    )
    @app_commands.describe(
        on="On: always asked (you can bluff a pause); off: a lone Pass is played for you"
    )
    async def always_ask(self, interaction: discord.Interaction, on: bool) -> None:
        async def run() -> None:
            await self.bot.service.set_always_ask(interaction.user.id, on)
            await interaction.response.send_message(ephemeral=True, **always_ask_message(on))

        await guarded(interaction, run())

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Say hello where the server's welcome messages go, if the bot may post there."""
        channel = guild.system_channel
        if channel is None or missing(channel.permissions_for(guild.me), IN_CHANNEL):
            return
        try:
            await channel.send(embed=help_embed())
        except discord.HTTPException:
            log.info("could not post /help in the system channel of guild %s", guild.id)


async def setup(bot: CookieJar) -> None:
    await bot.add_cog(Onboarding(bot))
