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
from cogs.speech import languages, personal, say
from cogs.table.buttons import always_ask_message
from games import GAMES
from games.core.text import Text, slash, t

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)

# Every command, grouped by what a player wants to do: nothing the bot can do stays hidden.
# Each line: how it is typed (Discord's syntax, its names shown as the reader's app lists
# them), and what it does.
COMMAND_GROUPS: tuple[tuple[Text, tuple[tuple[str, Text], ...]], ...] = (
    (
        t("🎲 Play"),
        (
            (
                "/play game: [bots:N]",
                t("open a table here; bots take seats, friends can still join"),
            ),
            ("/rules game:", t("how a game is played, and our rulings")),
            ("/games · /remind", t("your matches here · nudge whoever holds them up")),
            ("/leave · /cancel", t("give your seat to a bot · end the match (its host)")),
        ),
    ),
    (
        t("🏆 Compete"),
        (
            ("/tournament create", t("a Swiss, round-robin or knockout event")),
            ("/leaderboard game:", t("this server's best players of a game")),
            ("/stats", t("a player's rated games, places and rating")),
            ("/season game:", t("your division and place in this season's table")),
        ),
    ),
    (
        t("📜 Look back"),
        (
            ("/history", t("this server's finished matches")),
            ("/replay", t("watch a finished match move by move")),
            ("/export", t("a finished match as a file")),
        ),
    ),
    (
        t("🃏 Decks"),
        (
            ("/deck list · show · import · export · copy · delete", t("your Braverse decks")),
            ("/card name:", t("what a card says and does")),
        ),
    ),
    (
        t("⚙️ You and your server"),
        (
            ("/away · /notify", t("stop your slow clocks · reminders by DM")),
            ("/always_ask on:", t("be asked even when passing is your only move")),
            ("/language", t("the language I answer you in")),
            ("/settings", t("the server's pace, timeouts, threads, language (Manage Server)")),
        ),
    ),
)

# The shortest game at its defaults (Toss, one round): a first evening's first table.
QUICK_START = t("Quick start: /play game: Toss Your Cookies bots:2, then Start")


def help_embed(language: str) -> discord.Embed:
    games = render.lines(
        [
            t("• **{game}** · {players}", game=game.name, players=render.player_count(game))
            for game in GAMES.values()
        ],
        language,
    )
    embed = discord.Embed(
        title="🍪 Cookie Jar",
        description=say(
            t(
                "Card games for your server, played right here in the channel, with the rules "
                "kept for you. Play live, or slowly across time zones; bots fill empty seats."
            ),
            language,
        ),
        colour=render.COLOURS["neutral"],
    )
    embed.add_field(name=say(t("The games"), language), value=games, inline=False)
    embed.add_field(
        name=say(t("How a turn works"), language),
        value=say(
            t(
                "1. `/play` opens a table; people press **Join**, the host presses **Start**.\n"
                "2. Press **Show hand** on the table: your cards and your moves appear, just "
                "for you.\n"
                "3. Pick your move there. You are pinged when it is your turn; a move with "
                "nothing to choose (a lone Pass) is played for you after a moment."
            ),
            language,
        ),
        inline=False,
    )
    for group, commands_ in COMMAND_GROUPS:
        embed.add_field(
            name=say(group, language),
            value="\n".join(
                # The syntax is Discord's, not a sentence: its names follow the reader's app.
                f"`{say(slash(syntax), language)}` — {say(what, language)}"
                for syntax, what in commands_
            ),
            inline=False,
        )
    embed.set_footer(text=say(QUICK_START, language))
    return embed


class Onboarding(commands.Cog):
    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Cookie Jar is, its games and commands.")
    async def help(self, interaction: discord.Interaction) -> None:
        language = await personal(interaction)
        await interaction.response.send_message(embed=help_embed(language), ephemeral=True)

    @app_commands.command(
        name="always_ask", description="Be asked even when passing is your only move."
    )
    @app_commands.describe(
        on="On: always asked (you can bluff a pause); off: a lone Pass is played for you"
    )
    async def always_ask(self, interaction: discord.Interaction, on: bool) -> None:
        async def run() -> None:
            await self.bot.service.set_always_ask(interaction.user.id, on)
            language = await personal(interaction)
            await interaction.response.send_message(
                ephemeral=True, **always_ask_message(on, language)
            )

        await guarded(interaction, run())

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Say hello where the server's welcome messages go, if the bot may post there."""
        channel = guild.system_channel
        if channel is None or missing(channel.permissions_for(guild.me), IN_CHANNEL):
            return
        try:
            # For everyone on the server: in its language.
            language = await languages(self.bot).public(guild.id)
            await channel.send(embed=help_embed(language))
        except discord.HTTPException:
            log.info("could not post /help in the system channel of guild %s", guild.id)


async def setup(bot: CookieJar) -> None:
    await bot.add_cog(Onboarding(bot))
