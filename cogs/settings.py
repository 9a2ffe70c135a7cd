"""/settings: a server's defaults for new matches (pace, what a timeout does)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.timing import PACE_LABELS, POLICY_LABELS
from cogs import render
from cogs.components import guarded, person

if TYPE_CHECKING:
    from bot.client import CookieJar


def choices(labels: dict[str, str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=label, value=key) for key, label in labels.items()]


class Settings(commands.Cog):
    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="This server's defaults for new matches.")
    @app_commands.describe(
        pace="How long each move may take",
        on_timeout="What happens when a player's time runs out",
        forfeit_after="With forfeits: timeouts in a row before a player forfeits",
        threads="Open each new match in a thread of its own",
    )
    @app_commands.choices(pace=choices(PACE_LABELS), on_timeout=choices(POLICY_LABELS))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        pace: app_commands.Choice[str] | None = None,
        on_timeout: app_commands.Choice[str] | None = None,
        forfeit_after: app_commands.Range[int, 1, 10] | None = None,
        threads: bool | None = None,
    ) -> None:
        async def run() -> None:
            changes: dict[str, object] = {}
            if pace is not None:
                changes["pace"] = pace.value
            if on_timeout is not None:
                changes["on_timeout"] = on_timeout.value
            if forfeit_after is not None:
                changes["forfeit_after"] = forfeit_after
            if threads is not None:
                changes["threads"] = threads
            service, guild = self.bot.service, interaction.guild_id or 0
            if changes:
                current = await service.set_guild_defaults(guild, person(interaction), changes)
            else:
                current = await service.guild_settings(guild)
            match = current.match
            embed = discord.Embed(
                title="⚙️ Defaults for new matches here",
                description=(
                    f"**Pace:** {PACE_LABELS[match.pace]}\n"
                    f"**On timeout:** {POLICY_LABELS[match.on_timeout]}\n"
                    f"**Timeouts in a row to forfeit:** {match.forfeit_after}\n"
                    f"**Each match in its own thread:** {'yes' if current.threads else 'no'}"
                ),
                colour=render.COLOURS["neutral"],
            )
            embed.set_footer(text="A lobby's host can still pick another pace for their match.")
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())


async def setup(bot: CookieJar) -> None:
    await bot.add_cog(Settings(bot))
