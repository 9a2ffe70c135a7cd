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
from cogs.speech import label, personal, say
from games import GAMES
from games.core.protocol import Game
from games.core.text import Text, t, tc

if TYPE_CHECKING:
    from bot.client import CookieJar

# The parts a quick start's buttons open: (label, emoji).
PARTS = {
    "full": (tc("button", "Full rules"), "📖"),
    "rulings": (tc("button", "Our rulings"), "⚖️"),
}


def part_title(game: Game, part: str) -> Text:
    if part == "full":
        return t("📖 {game} · rules", game=game.name)
    return t("⚖️ {game} · our rulings", game=game.name)


def footer(game: Game) -> Text:
    return t("{players} · /play to start", players=render.player_count(game))


def quick_start_message(key: str, language: str) -> tuple[discord.Embed, discord.ui.View]:
    game = GAMES[key]
    embed = discord.Embed(
        title=say(t("📖 {game} · quick start", game=game.name), language),
        description=say(game.quick_start, language),
        colour=render.COLOURS["neutral"],
    )
    embed.set_footer(text=say(footer(game), language))
    view = components_view()
    for part in PARTS:
        view.add_item(RulesButton(key, part, language))
    return embed, view


def part_text(game: Game, part: str) -> str:
    return game.rules_text() if part == "full" else game.rulings_text()


class RulesButton(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cj:rules:(?P<game>[a-z_]{1,40}):(?P<part>full|rulings)",
):
    """Full rules / Our rulings under a /rules quick start."""

    def __init__(self, game: str, part: str, language: str = "en") -> None:
        words, emoji = PARTS[part]
        super().__init__(
            discord.ui.Button(
                label=label(words, language),
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
            await tell(interaction, t("That game is no longer here: see /rules."))
            return
        language = await personal(interaction)
        messages = render.paged(
            say(part_text(game, self.part), language),
            title=say(part_title(game, self.part), language),
            footer=say(footer(game), language),
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
        embed, view = quick_start_message(game.value, await personal(interaction))
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: CookieJar) -> None:
    bot.add_dynamic_items(RulesButton)
    await bot.add_cog(Rules(bot))
