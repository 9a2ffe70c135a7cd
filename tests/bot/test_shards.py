"""SHARD_COUNT and SHARD_IDS: which client runs, and which guilds a process owns."""

from __future__ import annotations

import pytest
from discord.ext import commands
from pydantic import ValidationError

from bot.client import CookieJar, ShardedCookieJar, make_client
from bot.config import Settings, parse_shard_ids
from bot.store import Shards


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, discord_token="t", **values)  # type: ignore[arg-type]


def test_shard_ids_take_ranges_and_lists() -> None:
    assert parse_shard_ids("0-3,8") == {0, 1, 2, 3, 8}
    assert settings(shard_count=4).shards == Shards(4, frozenset({0, 1, 2, 3}))


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"shard_ids": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"shard_count": 2, "shard_ids": "1-2"}, "SHARD_IDS must lie in 0-1"),
        ({"shard_count": 2, "shard_ids": "one"}, "SHARD_IDS must look like"),
        ({"shard_count": 2, "shard_ids": "0"}, "use postgresql://"),  # SQLite: one process
    ],
)
def test_inconsistent_shard_settings_are_refused(values: dict, problem: str) -> None:
    with pytest.raises(ValidationError, match=problem):
        settings(**values)


def test_one_process_without_shards_and_an_auto_sharded_bot_with_them() -> None:
    plain = make_client(settings())
    assert type(plain) is CookieJar and not isinstance(plain, commands.AutoShardedBot)
    sharded = make_client(
        settings(database_url="postgresql://x@/y", shard_count=4, shard_ids="2-3")
    )
    assert isinstance(sharded, ShardedCookieJar) and isinstance(sharded, commands.AutoShardedBot)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])


def test_a_guild_belongs_to_the_shard_discord_sends_its_events_through() -> None:
    shards = Shards(2, frozenset({1}))
    assert shards.owns(1 << 22) and not shards.owns(2 << 22)
