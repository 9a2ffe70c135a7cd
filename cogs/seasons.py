"""/season (a game's season table: the reader's division, their place, past seasons),
/seasons setup and /seasons stop (the organiser's), and what a season's end shows in
Discord: the final table posted where seasons were set up, and the season's role moved
from last season's holders to this season's top places (bot/service/seasons.py)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.season_picture import season_picture
from bot.seasons import SeasonLine
from bot.service.seasons import SeasonEnd, Seasons, SeasonTable
from bot.store.seasons import SeasonRecord
from cogs import render
from cogs.components import guarded
from cogs.pictures import attach, pictures_on, with_files
from cogs.ratings import GAME_CHOICES, PRIVATE_LOOK_UPS
from cogs.speech import label, languages, personal, say
from cogs.table import presenter_of
from cogs.tournaments.buttons import with_roles
from games import GAMES
from games.core.text import Names, Text, t, tc, tn
from games.core.words import place

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)

PICTURE = "season.png"
SHOWN_LINES = 25  # a division's lines in the text; the picture has them all
PAST_SHOWN = 5
POSTED_LINES = 10  # a division's lines in the end's post (/season shows them all)


def seasons_of(client: discord.Client) -> Seasons:
    return client.seasons  # type: ignore[attr-defined]


def table_line(line: SeasonLine) -> Text:
    return tn(
        "{rank} <@{user}> · **{points}** · {n} match · {wins} won",
        "{rank} <@{user}> · **{points}** · {n} matches · {wins} won",
        n=line.played,
        rank=render.MEDALS.get(line.rank, f"`{line.rank:>3}.`"),
        user=line.user_id,
        points=line.points,
        wins=line.wins,
    )


def when_line(season: SeasonRecord) -> Text:
    """Times as Discord timestamps: each reader sees them in their own zone."""
    start, end = int(season.starts_at), int(season.ends_at)
    if season.status == "running":
        return t("Began <t:{start}:d> · ends <t:{end}:f> (<t:{end}:R>)", start=start, end=end)
    return t("<t:{start}:d> to <t:{end}:d>", start=start, end=end)


def division_title(game: str, season: SeasonRecord, division: int, divisions: int) -> Text:
    if divisions == 1:
        return t("🏅 {game} · season {number}", game=GAMES[game].name, number=season.number)
    return t(
        "🏅 {game} · season {number} · division {division} of {divisions}",
        game=GAMES[game].name,
        number=season.number,
        division=division,
        divisions=divisions,
    )


def division_text(table: list[SeasonLine], language: str, most: int = SHOWN_LINES) -> str:
    if not table:
        return say(t("Nobody in this division yet."), language)
    return render.clip(
        render.lines([table_line(line) for line in table[:most]], language),
        render.DESCRIPTION,
    )


def past_lines(past: list[SeasonTable]) -> list[Text]:
    lines = []
    for kept in past[:PAST_SHOWN]:
        top = kept.tables[0][0] if kept.tables and kept.tables[0] else None
        when = when_line(kept.season)
        if top is not None and top.played:
            lines.append(
                t(
                    "Season {number} · {when} · 🏆 <@{user}>",
                    number=kept.season.number,
                    when=when,
                    user=top.user_id,
                )
            )
        else:
            lines.append(t("Season {number} · {when}", number=kept.season.number, when=when))
    return lines


async def picture_files(
    bot: CookieJar,
    found: SeasonTable,
    division: int,
    embed: discord.Embed,
    language: str,
) -> list[discord.File]:
    """The division's table as the embed's picture, unless the server turned them off."""
    season = found.season
    table = found.tables[division - 1]
    if not table or not await pictures_on(bot, season.guild_id):
        return []
    names = await bot.store.player_names(season.guild_id, [line.user_id for line in table])
    # The picture draws no emoji: the title without its medal.
    title = label(division_title(season.game, season, division, len(found.tables)), language)
    title = title.removeprefix("🏅").strip()
    subtitle = label(
        tn(
            "{n} player · points by place: 100 for the first, 0 for the last",
            "{n} players · points by place: 100 for the first, 0 for the last",
            n=len(table),
        ),
        language,
    )
    columns = (
        label(tc("season column", "Wins"), language),
        label(tc("season column", "Avg"), language),
        label(tc("season column", "Rating"), language),
    )
    png = await asyncio.to_thread(season_picture, table, names, title, subtitle, columns)
    return attach(embed, png, PICTURE, language)


class SeasonsCog(commands.Cog, name="Seasons"):
    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot
        bot.seasons.listeners.append(self.on_end)

    @property
    def seasons(self) -> Seasons:
        return self.bot.seasons

    # --- /season ---------------------------------------------------------------------------
    @app_commands.command(
        name="season", description="A game's season here: your division, your place, past seasons."
    )
    @app_commands.describe(
        game="The game whose season to show",
        division="Which division (yours, if left out)",
        number="A past season's number",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def season(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        division: int | None = None,
        number: int | None = None,
    ) -> None:
        async def run() -> None:
            guild = interaction.guild_id or 0
            language = await personal(interaction)
            found = await self.seasons.table(guild, game.value, number)
            mine = found.place_of(interaction.user.id)
            count = len(found.tables)
            if division is not None and not 1 <= division <= count:
                raise UserError(
                    tn(
                        "This season has {n} division.",
                        "This season has {n} divisions: pick 1 to {n}.",
                        n=count,
                    )
                )
            shown = division or (mine[0] if mine is not None else count)
            lines = [when_line(found.season)]
            if mine is None:
                lines.append(
                    t(
                        "You have no place in this season yet: a rated match of {game} puts "
                        "you in the lowest division.",
                        game=GAMES[game.value].name,
                    )
                )
            else:
                lines.append(
                    tn(
                        "You are **{place}** in division {division} with **{points}** point.",
                        "You are **{place}** in division {division} with **{points}** points.",
                        n=mine[1].points,
                        place=place(mine[1].rank),
                        division=mine[0],
                        points=mine[1].points,
                    )
                )
            embed = discord.Embed(
                title=render.clip(
                    say(division_title(game.value, found.season, shown, count), language),
                    render.TITLE,
                ),
                description=render.clip(
                    render.lines(lines, language)
                    + "\n\n"
                    + division_text(found.tables[shown - 1], language),
                    render.DESCRIPTION,
                ),
                colour=render.COLOURS["done"],
            )
            past = [
                await self.seasons.table(guild, game.value, kept.number)
                for kept in (await self.seasons.past(guild, game.value))[:PAST_SHOWN]
            ]
            if past:
                embed.add_field(
                    name=say(t("Past seasons"), language),
                    value=render.clip(render.lines(past_lines(past), language), render.FIELD_VALUE),
                    inline=False,
                )
            embed.set_footer(
                text=say(
                    t(
                        "Ties: wins, then points a match, then rating · /season number: for a "
                        "past season"
                    ),
                    language,
                )
            )
            files = await picture_files(self.bot, found, shown, embed, language)
            await interaction.response.send_message(
                embed=embed,
                ephemeral=PRIVATE_LOOK_UPS,
                allowed_mentions=discord.AllowedMentions.none(),
                **with_files(files),
            )

        await guarded(interaction, run())

    # --- the organiser's -------------------------------------------------------------------
    group = app_commands.Group(
        name="seasons", description="Run seasons of a game here (organisers).", guild_only=True
    )

    @group.command(name="setup", description="Turn seasons on for a game, or change how they run.")
    @app_commands.describe(
        game="The game",
        length="How long a season lasts: month (the default), 2 months, 4 weeks, 10 days",
        divisions="How many divisions",
        size="Places in each division (the lowest also takes newcomers)",
        role="A role for the top places of division 1 at each season's end",
        places="How many top places get the role",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def setup(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        divisions: int,
        size: int,
        length: str | None = None,
        role: discord.Role | None = None,
        places: int = 3,
    ) -> None:
        async def run() -> None:
            guild = interaction.guild_id or 0
            actor = with_roles(interaction)
            await self.seasons.require_organiser(guild, actor)
            if role is not None:
                check_role(interaction, role)
            season = await self.seasons.set_up(
                guild,
                game.value,
                actor,
                length=length,
                divisions=divisions,
                size=size,
                role_id=role.id if role is not None else None,
                role_places=places,
                channel_id=interaction.channel_id or 0,
            )
            said = t(
                "🏅 Seasons of **{game}** are on: season {number} ends <t:{end}:f> "
                "(<t:{end}:R>). Its final table is posted here. /season shows the table.",
                game=GAMES[game.value].name,
                number=season.number,
                end=int(season.ends_at),
            )
            await interaction.response.send_message(
                say(said, await personal(interaction)), ephemeral=True
            )

        await guarded(interaction, run())

    @group.command(name="stop", description="Turn a game's seasons off (the running one stops).")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=GAME_CHOICES)
    async def stop(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async def run() -> None:
            await self.seasons.stop(interaction.guild_id or 0, game.value, with_roles(interaction))
            said = t("Seasons of **{game}** are off.", game=GAMES[game.value].name)
            await interaction.response.send_message(
                say(said, await personal(interaction)), ephemeral=True
            )

        await guarded(interaction, run())

    # --- a season's end --------------------------------------------------------------------
    async def on_end(self, end: SeasonEnd) -> None:
        """Post the final tables where seasons were set up, then move the role. Called
        again after a restart if it did not finish: a role given twice is given once."""
        season = end.ended.season
        language = await languages(self.bot).public(season.guild_id)
        name = GAMES[season.game].name if season.game in GAMES else season.game
        count = len(end.ended.tables)
        lines: list[Text] = [when_line(season)]
        if end.holders and end.setup.role_id is not None:
            lines.append(
                t(
                    "<@&{role}> goes to {holders}.",
                    role=end.setup.role_id,
                    holders=Names(t("<@{user}>", user=user) for user in end.holders),
                )
            )
        if end.following is not None:
            lines.append(
                t(
                    "Season {number} has begun: it ends <t:{end}:f>.",
                    number=end.following.number,
                    end=int(end.following.ends_at),
                )
            )
        if count > 1:
            lines.append(t("Divisions move: the best go up, the last go down."))
        embeds = []
        for division, table in enumerate(end.ended.tables[:4], 1):
            embeds.append(
                discord.Embed(
                    title=render.clip(
                        say(division_title(season.game, season, division, count), language),
                        render.TITLE,
                    ),
                    # Four divisions of ten lines stay within an embed's total.
                    description=division_text(table, language, POSTED_LINES),
                    colour=render.COLOURS["done"],
                )
            )
        files = await picture_files(self.bot, end.ended, 1, embeds[0], language)
        text = say(
            t("🏁 Season {number} of **{game}** is over!", number=season.number, game=name),
            language,
        )
        text += "\n" + render.lines(lines, language)
        try:
            await presenter_of(self.bot).post(
                end.setup.channel_id,
                render.clip(text, 2000),
                embeds=embeds,
                allowed_mentions=discord.AllowedMentions(
                    users=list(map(discord.Object, end.holders))
                ),
                **with_files(files),
            )
        except (discord.Forbidden, discord.NotFound) as exc:
            # The channel is gone or closed to the bot since the set-up: the season's end
            # stands, /season shows it, and the role still moves.
            log.warning("season end not posted in %s: %s", end.setup.channel_id, exc)
        await self.move_role(end)

    async def move_role(self, end: SeasonEnd) -> None:
        role = end.setup.role_id
        if role is None:
            return
        guild = end.setup.guild_id
        reason = f"Season {end.ended.season.number} of {end.ended.season.game} ended"
        for user in end.former_holders:
            if user not in end.holders:
                await self._role(self.bot.http.remove_role, guild, user, role, reason)
        for user in end.holders:
            await self._role(self.bot.http.add_role, guild, user, role, reason)

    @staticmethod
    async def _role(change, guild: int, user: int, role: int, reason: str) -> None:  # type: ignore[no-untyped-def]
        try:
            await change(guild, user, role, reason=reason)
        except (discord.Forbidden, discord.NotFound) as exc:
            # Someone took the bot's Manage Roles or raised the role since the set-up, or
            # the member left: the rest of the end stands.
            log.warning("season role %s for %s in %s not changed: %s", role, user, guild, exc)


def check_role(interaction: discord.Interaction, role: discord.Role) -> None:
    """The bot can give ``role``: it has Manage Roles and its own top role is above it."""
    guild = interaction.guild
    me = guild.me if guild is not None else None
    if not interaction.app_permissions.manage_roles or me is None:
        raise UserError(
            t(
                "I need **Manage Roles** to give the season's role: a server admin can grant "
                "it to my role in Server Settings → Roles."
            )
        )
    if role.is_default() or role.managed:
        raise UserError(t("That role can't be given to people: pick another one."))
    if role >= me.top_role:
        raise UserError(
            t(
                "<@&{role}> is above my own role, so I can't give it: move my role above it in "
                "Server Settings → Roles, or pick a lower one.",
                role=role.id,
            )
        )


async def setup(bot: CookieJar) -> None:
    await bot.add_cog(SeasonsCog(bot))
