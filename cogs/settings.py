"""/settings: a server's defaults for new matches (pace, what a timeout does), and whether
its tables carry pictures."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.timing import (
    PACE_LABELS,
    POLICY_LABELS,
    RATINGS_LABELS,
    VACATION_DAYS_A_MONTH,
    GuildSettings,
    duration,
)
from bot.web.paths import page_link
from cogs import render
from cogs.components import LEVEL_CHOICES, guarded, level_of, person, tell
from games.core.levels import LEVEL_NAMES
from games.core.words import plural

if TYPE_CHECKING:
    from bot.client import CookieJar


def choices(labels: dict[str, str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=label, value=key) for key, label in labels.items()]


def days_left(used: float) -> int:
    """Whole days of this month's allowance still free (a part-day booked counts)."""
    return max(0, int(VACATION_DAYS_A_MONTH - used + 1e-9))


def custom_line(minutes: int | None) -> str:
    if not minutes:
        return "not set (set it with custom_minutes)"
    return f"{duration(minutes * 60.0)} a move"


def organisers_line(current: GuildSettings) -> str:
    role = current.organiser_role
    return "Manage Server" + (f" and the <@&{role}> role" if role is not None else " only")


def pictures_line(current: GuildSettings) -> str:
    if current.pictures:
        return "on (tables, hands and replays carry a picture above their text)"
    return "off (text only)"


FORFEITS_OFF = (
    f" It counts only with on_timeout: {POLICY_LABELS['forfeit']}; nobody forfeits until then."
)


def set_lines(changes: dict[str, object], current: GuildSettings) -> str:
    """What this command changed, said first, so an admin sees their change took."""
    lines = []
    match = current.match
    if "custom_minutes" in changes:
        pick = "" if match.pace == "custom" else " Pick it with pace: Custom, here or per lobby."
        lines.append(f"✅ Custom pace set to {custom_line(match.custom_minutes)}.{pick}")
    if "pace" in changes:
        lines.append(f"✅ Pace set to {match.pace_label}.")
    if "on_timeout" in changes:
        lines.append(f"✅ On timeout: {POLICY_LABELS[match.on_timeout]}.")
    if "forfeit_after" in changes:
        # Said as the custom pace is: a number that does nothing yet says so.
        pick = "" if match.on_timeout == "forfeit" else FORFEITS_OFF
        lines.append(f"✅ Forfeit after {plural(match.forfeit_after, 'timeout')} in a row.{pick}")
    if "threads" in changes:
        lines.append(f"✅ Each match in its own thread: {'yes' if current.threads else 'no'}.")
    if "ratings" in changes:
        lines.append(f"✅ Rated: {RATINGS_LABELS[current.ratings]}.")
    if "organiser_role" in changes:
        lines.append(f"✅ Tournament organisers: {organisers_line(current)}.")
    if "bot_level" in changes:
        lines.append(f"✅ New bots play at {LEVEL_NAMES[current.bot_level]} unless picked.")
    if "web" in changes:
        lines.append(f"✅ Web page: {'on' if current.web else 'off'}.")
    if "web_renew" in changes:
        lines.append("✅ Web page: a new address; the old one no longer opens.")
    if "pictures" in changes:
        lines.append(f"✅ Pictures: {pictures_line(current)}.")
    return "\n".join(lines) + "\n\n" if lines else ""


def web_line(site_url: str | None, guild_id: int, current: GuildSettings) -> str:
    if not current.web:
        return "off (turn it on with web)"
    link = page_link(site_url, guild_id, current)
    # The address is the key to the page: said only to admins, in this ephemeral answer.
    if link is None:
        # Neither WEB_PORT nor PUBLIC_URL is set: a server's admin cannot change that, so
        # name who can.
        return "on, but this bot serves no web pages: whoever runs it must set WEB_PORT"
    return f"on, at {link}"


class Settings(commands.Cog):
    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="This server's defaults for new matches.")
    @app_commands.describe(
        pace="How long each move may take",
        on_timeout="What happens when a player's time runs out",
        forfeit_after="With forfeits: timeouts in a row before a player forfeits",
        threads="Open each new match in a thread of its own",
        custom_minutes="Minutes a move of the Custom pace (then pick pace: Custom)",
        ratings="Which finished matches move players' ratings",
        organiser_role="Members of this role may create and run tournaments, as Manage Server can",
        clear_organiser_role="True: only Manage Server runs tournaments again",
        bot_level="How hard bots play when /play or Add bot names no level",
        web="On: a read-only web page of this server's tables, events and ratings",
        web_renew="True: give the web page a new secret address (the old one stops working)",
        pictures="Tables, hands and replays carry pictures (off: text only)",
    )
    @app_commands.choices(
        pace=choices(PACE_LABELS),
        on_timeout=choices(POLICY_LABELS),
        ratings=choices(RATINGS_LABELS),
        bot_level=LEVEL_CHOICES,
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        pace: app_commands.Choice[str] | None = None,
        on_timeout: app_commands.Choice[str] | None = None,
        forfeit_after: app_commands.Range[int, 1, 10] | None = None,
        threads: bool | None = None,
        custom_minutes: app_commands.Range[int, 1, 20160] | None = None,
        ratings: app_commands.Choice[str] | None = None,
        organiser_role: discord.Role | None = None,
        clear_organiser_role: bool = False,
        bot_level: app_commands.Choice[str] | None = None,
        web: bool | None = None,
        web_renew: bool = False,
        pictures: bool | None = None,
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
            if custom_minutes is not None:
                changes["custom_minutes"] = custom_minutes
            if ratings is not None:
                changes["ratings"] = ratings.value
            if organiser_role is not None and clear_organiser_role:
                raise UserError("Give organiser_role or clear_organiser_role, not both.")
            if organiser_role is not None:
                changes["organiser_role"] = organiser_role.id
            elif clear_organiser_role:
                changes["organiser_role"] = None
            if bot_level is not None:
                changes["bot_level"] = level_of(bot_level)
            if web is not None:
                changes["web"] = web
            if web_renew:
                changes["web_renew"] = True
            if pictures is not None:
                changes["pictures"] = pictures
            service, guild = self.bot.service, interaction.guild_id or 0
            if changes:
                current = await service.set_guild_defaults(guild, person(interaction), changes)
                # The tables' next messages say the change (links, pictures).
                self.bot.known_settings.forget(guild)
            else:
                current = await service.guild_settings(guild)
            match = current.match
            said = set_lines(changes, current)
            embed = discord.Embed(
                title="⚙️ Defaults for new matches here",
                description=(
                    said + f"**Pace:** {match.pace_label}\n"
                    f"**Custom pace:** {custom_line(match.custom_minutes)}\n"
                    f"**On timeout:** {POLICY_LABELS[match.on_timeout]}\n"
                    f"**Timeouts in a row to forfeit:** {match.forfeit_after}\n"
                    f"**Each match in its own thread:** {'yes' if current.threads else 'no'}\n"
                    f"**Rated:** {RATINGS_LABELS[current.ratings]}\n"
                    f"**Tournament organisers:** {organisers_line(current)}\n"
                    f"**Bots play at:** {LEVEL_NAMES[current.bot_level]}\n"
                    f"**Web page:** {web_line(self.bot.settings.site_url, guild, current)}\n"
                    f"**Pictures:** {pictures_line(current)}"
                ),
                colour=render.COLOURS["neutral"],
            )
            embed.set_footer(text="A lobby's host can still pick another pace for their match.")
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    @app_commands.command(
        name="notify", description="Also get your turns and reminders by direct message."
    )
    @app_commands.describe(
        on="On: slow games' turns and reminders come by DM too; off: only in the channel"
    )
    async def notify(self, interaction: discord.Interaction, on: bool) -> None:
        async def run() -> None:
            await self.bot.service.set_notify(interaction.user.id, on)
            text = (
                "🔔 Your turns in async and correspondence games, and reminders, will also "
                "come by direct message (if your DMs are open)."
                if on
                else "🔕 Turns and reminders will only be posted in the game's channel."
            )
            await tell(interaction, text)

        await guarded(interaction, run())

    @app_commands.command(
        name="away", description="Go on vacation: your async and correspondence clocks stop."
    )
    @app_commands.describe(until="The date you are back, as YYYY-MM-DD (UTC); leave out to return")
    async def away(self, interaction: discord.Interaction, until: str | None = None) -> None:
        async def run() -> None:
            service = self.bot.service
            if until is None:
                await service.come_back(interaction.user.id)
                await tell(interaction, "👋 Welcome back: your clocks run again.")
                return
            try:
                back = datetime.strptime(until.strip(), "%Y-%m-%d").replace(tzinfo=UTC)
            except ValueError:
                raise UserError("Write the date as YYYY-MM-DD, for example 2026-12-24.") from None
            person = await service.go_away(interaction.user.id, back.timestamp())
            await tell(
                interaction,
                f"🏖️ Enjoy! Your clocks in async and correspondence games stop until "
                f"<t:{int(back.timestamp())}:D>. You have "
                f"{plural(days_left(person.vacation_days), 'vacation day')} left this month.",
            )

        await guarded(interaction, run())


async def setup(bot: CookieJar) -> None:
    await bot.add_cog(Settings(bot))
