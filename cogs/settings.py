"""/settings: a server's defaults for new matches (pace, what a timeout does), and whether
its tables carry pictures."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.recurrence import zone_of
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
from cogs.speech import CatalogTranslator, chosen, languages, locale_code, personal, say
from games.core.levels import LEVEL_NAMES
from games.core.text import Text, plain, t, tn
from games.core.translations import NATIVE_NAMES, SELECTABLE

if TYPE_CHECKING:
    from bot.client import CookieJar

# The languages on offer, each named as it names itself; "auto" follows Discord's locale.
AUTO = "auto"
LANGUAGE_CHOICES = [
    app_commands.Choice(name=t("Automatic: the server's Discord language"), value=AUTO),
    *(app_commands.Choice(name=plain(NATIVE_NAMES[code]), value=code) for code in SELECTABLE),
]
MY_LANGUAGE_CHOICES = [
    app_commands.Choice(name=t("Automatic: my Discord app's language"), value=AUTO),
    *LANGUAGE_CHOICES[1:],
]


def choices(labels: dict[str, Text]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=label, value=key) for key, label in labels.items()]


def days_left(used: float) -> int:
    """Whole days of this month's allowance still free (a part-day booked counts)."""
    return max(0, int(VACATION_DAYS_A_MONTH - used + 1e-9))


def custom_line(minutes: int | None) -> Text:
    if not minutes:
        return t("not set (set it with custom_minutes)")
    return t("{duration} a move", duration=duration(minutes * 60.0))


def organisers_line(current: GuildSettings) -> Text:
    role = current.organiser_role
    if role is None:
        return t("Manage Server only")
    return t("Manage Server and the <@&{role}> role", role=role)


def pictures_line(current: GuildSettings) -> Text:
    if current.pictures:
        return t("on (tables, hands and replays carry a picture above their text)")
    return t("off (text only)")


def yes_no(value: bool) -> Text:
    return t("yes") if value else t("no")


def on_off(value: bool) -> Text:
    return t("on") if value else t("off")


def zone_line(current: GuildSettings) -> Text:
    """The recurring events' time zone: its IANA name (data), or the default said so."""
    if current.time_zone == "UTC":
        return t("UTC (the default)")
    return plain(current.time_zone)


def language_line(current: GuildSettings, default: str) -> Text:
    """The public messages' language: the one set, or the server's own, said so."""
    own = chosen(current.language)
    if own is not None:
        return plain(NATIVE_NAMES[own])
    return t("{language} (the server's Discord language)", language=plain(NATIVE_NAMES[default]))


def set_lines(changes: dict[str, object], current: GuildSettings, default: str) -> list[Text]:
    """What this command changed, said first, so an admin sees their change took."""
    lines: list[Text] = []
    match = current.match
    if "custom_minutes" in changes:
        line = custom_line(match.custom_minutes)
        if match.pace == "custom":
            lines.append(t("✅ Custom pace set to {pace}.", pace=line))
        else:
            lines.append(
                t(
                    "✅ Custom pace set to {pace}. Pick it with pace: Custom, here or per lobby.",
                    pace=line,
                )
            )
    if "pace" in changes:
        lines.append(t("✅ Pace set to {pace}.", pace=match.pace_label))
    if "on_timeout" in changes:
        lines.append(t("✅ On timeout: {policy}.", policy=POLICY_LABELS[match.on_timeout]))
    if "forfeit_after" in changes:
        # Said as the custom pace is: a number that does nothing yet says so.
        if match.on_timeout == "forfeit":
            lines.append(
                tn(
                    "✅ Forfeit after {n} timeout in a row.",
                    "✅ Forfeit after {n} timeouts in a row.",
                    n=match.forfeit_after,
                )
            )
        else:
            lines.append(
                tn(
                    "✅ Forfeit after {n} timeout in a row. It counts only with on_timeout: "
                    "{policy}; nobody forfeits until then.",
                    "✅ Forfeit after {n} timeouts in a row. It counts only with on_timeout: "
                    "{policy}; nobody forfeits until then.",
                    n=match.forfeit_after,
                    policy=POLICY_LABELS["forfeit"],
                )
            )
    if "threads" in changes:
        lines.append(t("✅ Each match in its own thread: {yes}.", yes=yes_no(current.threads)))
    if "ratings" in changes:
        lines.append(t("✅ Rated: {ratings}.", ratings=RATINGS_LABELS[current.ratings]))
    if "organiser_role" in changes:
        lines.append(t("✅ Tournament organisers: {who}.", who=organisers_line(current)))
    if "bot_level" in changes:
        level = LEVEL_NAMES[current.bot_level]
        lines.append(t("✅ New bots play at {level} unless picked.", level=level))
    if "web" in changes:
        lines.append(t("✅ Web page: {on}.", on=on_off(current.web)))
    if "web_renew" in changes:
        lines.append(t("✅ Web page: a new address; the old one no longer opens."))
    if "pictures" in changes:
        lines.append(t("✅ Pictures: {pictures}.", pictures=pictures_line(current)))
    if "time_zone" in changes:
        lines.append(t("✅ Time zone: {zone}.", zone=zone_line(current)))
    if "language" in changes:
        language = language_line(current, default)
        lines.append(t("✅ Tables, pings and results here speak {language}.", language=language))
    return lines


def web_line(site_url: str | None, guild_id: int, current: GuildSettings) -> Text:
    if not current.web:
        return t("off (turn it on with web)")
    link = page_link(site_url, guild_id, current)
    # The address is the key to the page: said only to admins, in this ephemeral answer.
    if link is None:
        # Neither WEB_PORT nor PUBLIC_URL is set: a server's admin cannot change that, so
        # name who can.
        return t("on, but this bot serves no web pages: whoever runs it must set WEB_PORT")
    return t("on, at {link}", link=link)


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
        language="The language of tables, pings and results here (your own: /language)",
        time_zone="The time zone of recurring tournaments here: an IANA name like Europe/Berlin",
    )
    @app_commands.choices(
        pace=choices(PACE_LABELS),
        on_timeout=choices(POLICY_LABELS),
        ratings=choices(RATINGS_LABELS),
        bot_level=LEVEL_CHOICES,
        language=LANGUAGE_CHOICES,
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
        language: app_commands.Choice[str] | None = None,
        time_zone: str | None = None,
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
                raise UserError(t("Give organiser_role or clear_organiser_role, not both."))
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
            if language is not None:
                if language.value != AUTO and language.value not in SELECTABLE:
                    raise UserError(t("Pick a language from the list."))
                changes["language"] = "" if language.value == AUTO else language.value
            if time_zone is not None:
                changes["time_zone"] = zone_of(time_zone).key
            service, guild = self.bot.service, interaction.guild_id or 0
            if changes:
                current = await service.set_guild_defaults(guild, person(interaction), changes)
                # The tables' next messages say the change (links, pictures).
                self.bot.known_settings.forget(guild)
            else:
                current = await service.guild_settings(guild)
            match = current.match
            # This answer is the admin's own: in their language, whatever the server's.
            mine = await personal(interaction)
            default = languages(self.bot).server_default(guild)
            said = set_lines(changes, current, default)
            rows = [
                t("**Pace:** {pace}", pace=match.pace_label),
                t("**Custom pace:** {pace}", pace=custom_line(match.custom_minutes)),
                t("**On timeout:** {policy}", policy=POLICY_LABELS[match.on_timeout]),
                t("**Timeouts in a row to forfeit:** {n}", n=match.forfeit_after),
                t("**Each match in its own thread:** {yes}", yes=yes_no(current.threads)),
                t("**Rated:** {ratings}", ratings=RATINGS_LABELS[current.ratings]),
                t("**Tournament organisers:** {who}", who=organisers_line(current)),
                t("**Bots play at:** {level}", level=LEVEL_NAMES[current.bot_level]),
                t(
                    "**Web page:** {web}",
                    web=web_line(self.bot.settings.site_url, guild, current),
                ),
                t("**Pictures:** {pictures}", pictures=pictures_line(current)),
                t("**Language:** {language}", language=language_line(current, default)),
                t("**Time zone:** {zone}", zone=zone_line(current)),
            ]
            description = render.lines(rows, mine)
            if said:
                description = render.lines(said, mine) + "\n\n" + description
            embed = discord.Embed(
                title=say(t("⚙️ Defaults for new matches here"), mine),
                description=render.clip(description, render.DESCRIPTION),
                colour=render.COLOURS["neutral"],
            )
            footer = t("A lobby's host can still pick another pace for their match.")
            embed.set_footer(text=say(footer, mine))
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
                t(
                    "🔔 Your turns in async and correspondence games, and reminders, will also "
                    "come by direct message (if your DMs are open)."
                )
                if on
                else t("🔕 Turns and reminders will only be posted in the game's channel.")
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
                await tell(interaction, t("👋 Welcome back: your clocks run again."))
                return
            try:
                back = datetime.strptime(until.strip(), "%Y-%m-%d").replace(tzinfo=UTC)
            except ValueError:
                raise UserError(
                    t("Write the date as YYYY-MM-DD, for example 2026-12-24.")
                ) from None
            person = await service.go_away(interaction.user.id, back.timestamp())
            await tell(
                interaction,
                tn(
                    "🏖️ Enjoy! Your clocks in async and correspondence games stop until "
                    "<t:{date}:D>. You have {n} vacation day left this month.",
                    "🏖️ Enjoy! Your clocks in async and correspondence games stop until "
                    "<t:{date}:D>. You have {n} vacation days left this month.",
                    n=days_left(person.vacation_days),
                    date=int(back.timestamp()),
                ),
            )

        await guarded(interaction, run())

    @app_commands.command(
        name="language", description="The language Cookie Jar answers you in, on every server."
    )
    @app_commands.describe(language="Automatic follows your Discord app's language")
    @app_commands.choices(language=MY_LANGUAGE_CHOICES)
    async def language(
        self, interaction: discord.Interaction, language: app_commands.Choice[str]
    ) -> None:
        async def run() -> None:
            if language.value != AUTO and language.value not in SELECTABLE:
                raise UserError(t("Pick a language from the list."))
            code = "" if language.value == AUTO else language.value
            await self.bot.service.set_language(interaction.user.id, code)
            if code:
                said = t(
                    "🌐 I answer you in {language} from now on: your hands, errors, /help, "
                    "/rules, /stats and replays. Tables and pings speak the server's language.",
                    language=plain(NATIVE_NAMES[code]),
                )
            else:
                said = t(
                    "🌐 I answer you in your Discord app's language. Tables and pings speak "
                    "the server's language."
                )
            await tell(interaction, said)

        await guarded(interaction, run())

    # --- the server's preferred locale --------------------------------------------------
    # What "Automatic" follows, as Discord tells it, kept in the server's settings: the web
    # pages (a process of their own, maybe) cannot ask Discord for it.
    async def keep_locale(self, guild_id: int | None, locale: discord.Locale | str | None) -> None:
        code = locale_code(locale)
        if not guild_id or not code:
            return
        if (await self.bot.known_settings.get(guild_id)).preferred_locale == code:
            return  # the common case: one cached read, no write
        await self.bot.service.note_preferred_locale(guild_id, code)
        self.bot.known_settings.forget(guild_id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.keep_locale(guild.id, guild.preferred_locale)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.keep_locale(guild.id, guild.preferred_locale)

    @commands.Cog.listener()
    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        if before.preferred_locale != after.preferred_locale:
            await self.keep_locale(after.id, after.preferred_locale)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # A server whose join or change the bot missed (it was down) is heard at its next
        # click or command.
        await self.keep_locale(interaction.guild_id, interaction.guild_locale)


async def setup(bot: CookieJar) -> None:
    # Slash commands speak the catalogs' languages (Discord shows each client its own).
    await bot.tree.set_translator(CatalogTranslator())
    await bot.add_cog(Settings(bot))
