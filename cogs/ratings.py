"""/leaderboard and /stats: the server's ratings per game (bot/service/ratings.py).

The leaderboard's page buttons are DynamicItems whose custom_id names the game and the
page: any copy of the bot, started at any time, answers them, and they grant nothing.
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.rating_curve import rating_curve
from bot.ratings import PROVISIONAL_GAMES
from bot.service.ratings import LeaderboardPage, PlayerStats, Ratings
from bot.store.ratings import RatingRecord
from cogs import render
from cogs.components import GuardedClick, components_view, guarded, page_button
from cogs.pictures import attach, pictures_on
from cogs.speech import label, personal, say
from games import GAMES
from games.core.levels import LEVEL_NAMES, LEVELS
from games.core.text import Num, Text, t, tc, tn

if TYPE_CHECKING:
    from bot.client import CookieJar

GAME_CHOICES = [app_commands.Choice(name=game.name, value=key) for key, game in GAMES.items()]
BLOCKS = "▁▂▃▄▅▆▇█"
SPARK_POINTS = 40  # the latest ratings drawn in the sparkline
PROVISIONAL = "ᴾ"
CURVE = "rating.png"
# One rule for /leaderboard and /stats: a look-up answers only the one who asked, like
# /history, /card and /rules. The channel is for tables, pairings and results; ratings are
# no secret, but a look-up posted there would bury the table people are playing at.
PRIVATE_LOOK_UPS = True


def ratings_of(interaction: discord.Interaction) -> Ratings:
    return interaction.client.ratings  # type: ignore[attr-defined]


def shown(rating: RatingRecord) -> str:
    """The display rating, marked while it rests on fewer than five games."""
    return f"{rating.display}{PROVISIONAL if rating.games < PROVISIONAL_GAMES else ''}"


def sparkline(values: list[int]) -> str:
    """Ratings over time as unicode blocks, lowest to highest of the span drawn."""
    values = values[-SPARK_POINTS:]
    low, high = min(values), max(values)
    if high == low:
        return BLOCKS[3] * len(values)
    steps = len(BLOCKS) - 1
    return "".join(BLOCKS[round((v - low) * steps / (high - low))] for v in values)


# How a match comes to be rated on a server (/settings ratings), said where nothing is rated
# yet: a server that rates no match must not send people off to /play for a rating.
HOW_RATED = {
    "all": t("A finished match with two or more people rates its players: start one with /play!"),
    "events": t("Only tournament matches are rated here: ask the organisers when the next one is."),
    "off": t("This server rates no matches: its admins turned ratings off in /settings."),
}


def ordinal(place: int) -> Text:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st: each language writes its own."""
    if 10 <= place % 100 <= 20 or place % 10 not in (1, 2, 3):
        return tc("place", "{n}th", n=place)
    if place % 10 == 1:
        return tc("place", "{n}st", n=place)
    if place % 10 == 2:
        return tc("place", "{n}nd", n=place)
    return tc("place", "{n}rd", n=place)


def games_played(count: int) -> Text:
    # Counts reach the thousands: grouped as the reader's language does (1,234 / 1.234).
    return tn("{n} game", "{n} games", n=Num(count))


async def how_rated(client: discord.Client, guild_id: int) -> Text:
    return HOW_RATED[(await client.known_settings.get(guild_id)).ratings]  # type: ignore[attr-defined]


# --- /leaderboard ------------------------------------------------------------------------------
def leaderboard_message(
    found: LeaderboardPage, how: Text, language: str
) -> tuple[discord.Embed, discord.ui.View]:
    """A page of the leaderboard; ``how`` says how a match is rated here, when nobody is."""
    name = GAMES[found.game].name
    if found.entries:
        lines = [
            # The rank's mark is code: a column of aligned numbers.
            render.MEDALS.get(rank, f"`{rank:>3}.`")
            + " "
            + say(
                t(
                    "<@{user}> · **{rating}** · {games}",
                    user=rating.user_id,
                    rating=shown(rating),
                    games=games_played(rating.games),
                ),
                language,
            )
            for rank, rating in found.entries
        ]
        text = "\n".join(lines)
    else:
        text = say(t("Nobody is rated in {game} here yet. {how}", game=name, how=how), language)
    if found.bots:
        levels = render.dotted(
            [
                t("{level} {rating}", level=LEVEL_NAMES[level], rating=shown(rating))
                for level in LEVELS
                if (rating := found.bots.get(level)) is not None
            ]
        )
        bots = t("🤖 **Bots** (a reference, not ranked): {levels}", levels=levels)
        text += "\n\n" + say(bots, language)
    embed = discord.Embed(
        title=render.clip(say(t("🏆 {game} leaderboard", game=name), language), render.TITLE),
        description=render.clip(text, render.DESCRIPTION),
        colour=render.COLOURS["done"],
    )
    footer = t(
        "Page {page} of {pages} · {total} rated · {mark} provisional: fewer than {least} "
        "games · /stats for one player",
        page=found.page + 1,
        pages=found.pages,
        total=Num(found.total),
        mark=PROVISIONAL,
        least=PROVISIONAL_GAMES,
    )
    embed.set_footer(text=say(footer, language))
    view = components_view()
    if found.pages > 1:
        view.add_item(LeaderboardButton(found.game, found.page - 1, "a", found.page == 0, language))
        view.add_item(
            LeaderboardButton(
                found.game, found.page + 1, "b", found.page >= found.pages - 1, language
            )
        )
    return embed, view


class LeaderboardButton(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cj:lb:(?P<game>[a-z_]{1,40}):(?P<page>\d{1,5}):(?P<slot>[ab])",
):
    """Higher / lower page of /leaderboard."""

    def __init__(
        self, game: str, page: int, slot: str, disabled: bool = False, language: str = "en"
    ) -> None:
        super().__init__(
            page_button(
                slot,
                (tc("button", "Higher"), tc("button", "Lower")),
                f"cj:lb:{game}:{max(page, 0)}:{slot}",
                language,
                disabled=disabled,
            )
        )
        self.game, self.page = game, max(page, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LeaderboardButton:
        return cls(match["game"], int(match["page"]), match["slot"])

    async def _run(self, interaction: discord.Interaction) -> None:
        guild = interaction.guild_id or 0
        found = await ratings_of(interaction).leaderboard(guild, self.game, self.page)
        how = await how_rated(interaction.client, guild)
        embed, view = leaderboard_message(found, how, await personal(interaction))
        await interaction.response.edit_message(embed=embed, view=view)


# --- /stats ------------------------------------------------------------------------------------
def stats_embed(found: PlayerStats, language: str) -> discord.Embed:
    rating = found.rating
    places = render.dotted(
        [
            t(
                "{medal}{place} ×{times}",
                medal=render.MEDALS.get(place, ""),
                place=ordinal(place),
                times=times,
            )
            for place, times in found.places.items()
        ]
    )
    if rating.games < PROVISIONAL_GAMES:
        head = tn(
            "<@{user}> · rating **{rating}** (provisional: {n} more game to settle)",
            "<@{user}> · rating **{rating}** (provisional: {n} more games to settle)",
            n=PROVISIONAL_GAMES - rating.games,
            user=found.user_id,
            rating=rating.display,
        )
    else:
        head = t("<@{user}> · rating **{rating}**", user=found.user_id, rating=rating.display)
    recent = found.history[-SPARK_POINTS:]
    lines = [
        head,
        t(
            "**Games:** {games} · **Wins:** {wins}",
            games=Num(rating.games),
            wins=Num(found.wins),
        ),
        t("**Places:** {places}", places=places),
        t(
            "**Rating:** `{curve}` {low}–{high}",
            curve=sparkline(found.history),
            low=min(recent),
            high=max(recent),
        ),
    ]
    embed = discord.Embed(
        title=render.clip(f"📈 {GAMES[found.game].name}", render.TITLE),
        description=render.lines(lines, language),
        colour=render.COLOURS["done"],
    )
    embed.set_footer(text=f"μ {rating.mu:.2f} · σ {rating.sigma:.2f} · shown: 1500 + 24·(μ − 3σ)")
    return embed


async def curve_files(
    bot: CookieJar, guild_id: int, found: PlayerStats, embed: discord.Embed, language: str
) -> list[discord.File]:
    """The rating curve as the embed's picture, unless the server turned pictures off."""
    if len(found.times) != len(found.history) or not await pictures_on(bot, guild_id):
        return []
    games = len(found.history) - 1
    # Words drawn in the picture: in the reader's language, as written (no markdown there).
    title = label(t("{game} rating", game=GAMES[found.game].name), language)
    subtitle = label(
        tn(
            "{n} rated game · now {now} · best {best}",
            "{n} rated games · now {now} · best {best}",
            n=games,
            now=found.history[-1],
            best=max(found.history),
        ),
        language,
    )
    png = await asyncio.to_thread(rating_curve, found.times, found.history, title, subtitle)
    return attach(embed, png, CURVE, language)


def summary_embed(user_id: int, ratings: list[RatingRecord], language: str) -> discord.Embed:
    lines = [
        t(
            "**{game}** · {rating} · {games}",
            game=GAMES[r.game].name if r.game in GAMES else r.game,
            rating=shown(r),
            games=games_played(r.games),
        )
        for r in ratings
    ]
    pick = say(t("Pick a game below for places and the curve."), language)
    return discord.Embed(
        title=say(t("📈 Ratings"), language),
        description=render.clip(
            f"<@{user_id}>\n" + render.lines(lines, language) + "\n" + pick,
            render.DESCRIPTION,
        ),
        colour=render.COLOURS["done"],
    )


def games_menu(
    user_id: int, ratings: list[RatingRecord], current: str | None, language: str
) -> discord.ui.View:
    """The player's rated games as a select: what /stats offers to look at in detail."""
    view = components_view()
    rated = [r for r in ratings if r.game in GAMES]
    view.add_item(StatsGame.build(user_id, rated, current, language))
    return view


class StatsGame(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"cj:stats:(?P<user>\d{1,20})",
):
    """/stats's menu of one player's rated games. The custom_id names whose record it
    shows (ratings are no secret: the leaderboard lists them); the clicker comes from
    Discord, and every answer is theirs alone."""

    def __init__(self, user_id: int, select: discord.ui.Select) -> None:
        super().__init__(select)
        self.user_id = user_id

    @classmethod
    def build(
        cls, user_id: int, ratings: list[RatingRecord], current: str | None, language: str
    ) -> StatsGame:
        select = discord.ui.Select(
            custom_id=f"cj:stats:{user_id}",
            placeholder=label(t("Pick a game for places and the curve"), language),
            options=[
                discord.SelectOption(
                    label=f"{GAMES[r.game].name} · {shown(r)}",
                    value=r.game,
                    default=r.game == current,
                )
                for r in ratings[: render.SELECT_OPTIONS]
            ],
        )
        return cls(user_id, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> StatsGame:
        return cls(int(match["user"]), item)

    async def _run(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # type: ignore[attr-defined]
        game = values[0] if values else ""
        if game not in GAMES:
            raise UserError(t("Pick a game from the list."))
        ratings = ratings_of(interaction)
        guild = interaction.guild_id or 0
        found = await ratings.stats(guild, self.user_id, game)
        if found is None:
            raise UserError(t("No rated match of {game} here yet.", game=GAMES[game].name))
        rated = await ratings.rated_games(guild, self.user_id)
        language = await personal(interaction)
        embed = stats_embed(found, language)
        bot = interaction.client
        files = await curve_files(bot, guild, found, embed, language)  # type: ignore[arg-type]
        await interaction.response.edit_message(
            embed=embed,
            view=games_menu(self.user_id, rated, game, language),
            attachments=files,
            allowed_mentions=discord.AllowedMentions.none(),
        )


class RatingsCog(commands.Cog, name="Ratings"):
    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's best players of a game.")
    @app_commands.describe(game="The game to rank")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str]
    ) -> None:
        async def run() -> None:
            guild = interaction.guild_id or 0
            found = await self.bot.ratings.leaderboard(guild, game.value)
            how = await how_rated(self.bot, guild)
            embed, view = leaderboard_message(found, how, await personal(interaction))
            await interaction.response.send_message(
                embed=embed,
                view=view,
                ephemeral=PRIVATE_LOOK_UPS,
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await guarded(interaction, run())

    @app_commands.command(name="stats", description="A player's rated games, places and rating.")
    @app_commands.describe(user="Whose record (you, if left out)", game="One game in detail")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        async def run() -> None:
            files: list[discord.File] = []
            who = user or interaction.user
            guild = interaction.guild_id or 0
            mine = who.id == interaction.user.id
            language = await personal(interaction)
            if game is None:
                found = await self.bot.ratings.rated_games(guild, who.id)
                if not found:
                    how = await how_rated(self.bot, guild)
                    if mine:
                        raise UserError(t("You have no rated match here yet. {how}", how=how))
                    raise UserError(
                        t("<@{user}> has no rated match here yet. {how}", user=who.id, how=how)
                    )
                embed = summary_embed(who.id, found, language)
            else:
                stats = await self.bot.ratings.stats(guild, who.id, game.value)
                if stats is None:
                    name = GAMES[game.value].name if game.value in GAMES else game.value
                    if mine:
                        raise UserError(
                            t(
                                "You have no rated match of {game} here yet; try /stats "
                                "without a game to see every game rated.",
                                game=name,
                            )
                        )
                    raise UserError(
                        t(
                            "<@{user}> has no rated match of {game} here yet; try /stats "
                            "without a game to see every game rated.",
                            user=who.id,
                            game=name,
                        )
                    )
                embed = stats_embed(stats, language)
                files = await curve_files(self.bot, guild, stats, embed, language)
                found = await self.bot.ratings.rated_games(guild, who.id)
            await interaction.response.send_message(
                embed=embed,
                files=files,
                view=games_menu(who.id, found, game.value if game else None, language),
                ephemeral=PRIVATE_LOOK_UPS,
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await guarded(interaction, run())


async def setup(bot: CookieJar) -> None:
    bot.add_dynamic_items(LeaderboardButton, StatsGame)
    await bot.add_cog(RatingsCog(bot))
