"""/rules: a game's quick start (the goal, a turn, how it ends), with buttons for the full
rules and for our rulings, each just for the player who asks.

The buttons are DynamicItems whose custom_id names the game and the part
(``cj:rules:<game>:<part>``): they keep working after a restart."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import render
from cogs.components import GuardedClick, components_view, tell
from cogs.play import GAME_CHOICES
from games import GAMES
from games.core.protocol import Game

if TYPE_CHECKING:
    from bot.client import CookieJar

# The parts a quick start's buttons open: (label, emoji, title).
PARTS = {
    "full": ("Full rules", "📖", "rules"),
    "rulings": ("Our rulings", "⚖️", "our rulings"),
}


def seats(game: Game) -> str:
    """ "2 players" or "2–6 players": a range only where there is one."""
    low, high = game.min_players, game.max_players
    return f"{low} players" if low == high else f"{low}–{high} players"


def quick_start_message(key: str) -> tuple[discord.Embed, discord.ui.View]:
    game = GAMES[key]
    embed = discord.Embed(
        title=f"📖 {game.name} · quick start",
        description=game.quick_start,
        colour=render.COLOURS["neutral"],
    )
    embed.set_footer(text=f"{seats(game)} · /play to start")
    view = components_view()
    for part in PARTS:
        view.add_item(RulesButton(key, part))
    return embed, view


def part_text(game: Game, part: str) -> str:
    return game.rules_text() if part == "full" else game.rulings_text()


class RulesButton(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cj:rules:(?P<game>[a-z_]{1,40}):(?P<part>full|rulings)",
):
    """Full rules / Our rulings under a /rules quick start."""

    def __init__(self, game: str, part: str) -> None:
        label, emoji, _ = PARTS[part]
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                custom_id=f"cj:rules:{game}:{part}",
            )
        )
        self.game, self.part = game, part

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RulesButton:
        return cls(match["game"], match["part"])

    async def _run(self, interaction: discord.Interaction) -> None:
        game = GAMES.get(self.game)
        if game is None:
            await tell(interaction, "That game is no longer here: see /rules.")
            return
        messages = render.paged(
            part_text(game, self.part),
            title=f"{PARTS[self.part][1]} {game.name} · {PARTS[self.part][2]}",
            footer=f"{seats(game)} · /play to start",
        )
        await interaction.response.send_message(embeds=messages[0], ephemeral=True)
        for embeds in messages[1:]:
            await interaction.followup.send(embeds=embeds, ephemeral=True)


class Rules(commands.Cog):
    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @app_commands.command(
        name="rules", description="How a game is played: a quick start, the full rules, rulings."
    )
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        embed, view = quick_start_message(game.value)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: CookieJar) -> None:
    bot.add_dynamic_items(RulesButton)
    await bot.add_cog(Rules(bot))
