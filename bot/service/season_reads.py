"""A season's tables read from the store: what /season (``bot.service.seasons``) and the web
page (``bot.web``, which may only read) both show."""

from __future__ import annotations

import json

from bot.seasons import SeasonLine, division_tables
from bot.store import Store
from bot.store.seasons import SeasonRecord

Tables = list[list[SeasonLine]]


async def season_tables(store: Store, season: SeasonRecord, divisions: int) -> Tables:
    """Each division's table, the top first: as kept at its end, or live while it runs."""
    if season.final is not None:
        return kept_tables(season.final)
    guild, game = season.guild_id, season.game
    tallies = await store.season_tallies(guild, game, season.starts_at, season.ends_at)
    members = await store.season_members(guild, game, season.number)
    ratings = await store.displayed_ratings(guild, game)
    return division_tables(tallies, members, ratings, divisions)


def kept_tables(final: str) -> Tables:
    return [[SeasonLine(**line) for line in table] for table in json.loads(final)]
