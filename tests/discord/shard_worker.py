"""One bot process of several, for the multi-process tests: a sharded Cookie Jar on a shared
PostgreSQL database, driven through the offline Discord harness in a guild of its shard.

``python -m tests.discord.shard_worker URL SHARD COUNT open N``: open N matches (an idle
person and three bots, live pace, so the person's clock keeps running out) and play them.
``... resume N``: a restarted process: the same guild, people and channels (Discord keeps
them; the fake's ids are deterministic), but it opens nothing and finishes what the
database holds.
Either way simulated time moves a minute at a time until no match of its guild is open.
Every move the service acknowledged is printed as a JSON line the moment it is saved.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.client import make_client
from bot.clock import ManualClock
from bot.config import Settings
from bot.service import Change
from devtools.offline_discord.model import _DISCORD_EPOCH_MS, _FIRST_ID_MS
from tests.discord.harness import FakeChannel, FakeDiscord, FakeUser

GAME = "cover_your_assets"


def fake_in_shard(shard: int, count: int) -> FakeDiscord:
    """A fake whose guild lies in ``shard``; each shard's ids are 10,000 apart."""
    first = 10_000 * shard
    guild_counter = _FIRST_ID_MS - _DISCORD_EPOCH_MS + first + 1
    first += (shard - guild_counter) % count
    fake = FakeDiscord(guild_name=f"Guild {shard}", first_id=first)
    assert (fake.guild_id >> 22) % count == shard
    return fake


async def open_match(fake: FakeDiscord, host: FakeUser, channel: FakeChannel) -> None:
    await fake.slash(host, "play", channel=channel, game=GAME)
    lobby = fake.public_messages(channel)[0]
    for name, value in (("_pace", "live"), ("end_mode", "quick")):
        select = next(s for s in lobby.selects() if s["custom_id"].endswith(f":{name}"))
        await fake.select(host, lobby, select["custom_id"], [value])
    for _ in range(3):
        await fake.click(host, lobby, lobby.find_button("Add bot"))
    await fake.click(host, lobby, lobby.find_button("Start"))


async def threads_of_open_matches(fake: FakeDiscord, url: str, parent: FakeChannel) -> None:
    """Each match plays in a thread the first process opened: Discord still has it."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT channel_id FROM matches WHERE guild_id = $1 AND status = 'active'",
            fake.guild_id,
        )
    finally:
        await conn.close()
    for row in rows:
        thread_id = row["channel_id"]
        fake.channels[thread_id] = FakeChannel(
            thread_id, f"match-{thread_id}", 11, parent_id=parent.id, owner_id=fake.bot_user.id
        )


async def main(url: str, shard: int, count: int, mode: str, matches: int) -> None:
    fake = fake_in_shard(shard, count)
    people = [fake.add_user(f"host{index}") for index in range(matches)]
    channels = [fake.add_channel(f"table-{index}") for index in range(matches)]
    if mode == "resume":
        await threads_of_open_matches(fake, url, channels[0])
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="fake-token",
        database_url=url,
        shard_count=count,
        shard_ids=str(shard),
        bot_delay=0,
        table_edit_interval=0,
        pictures=False,  # a drawing process each would triple the test's time
    )
    async with fake.running(make_client(settings)) as bot:
        clock = ManualClock(start=time.time())
        bot.service.clock = bot.scheduler.clock = clock

        async def acknowledge(change: Change) -> None:
            if change.kind in ("action", "finished"):
                line = {"match": change.match.match_id, "guild": change.match.guild_id}
                print(json.dumps({**line, "version": change.match.version}), flush=True)

        bot.service.listeners.insert(0, acknowledge)
        if mode == "open":
            for host, channel in zip(people, channels, strict=True):
                await open_match(fake, host, channel)
        for _ in range(2_000):
            if not await bot.store.open_matches():
                break
            await clock.advance(61)
            await fake.settle_with(bot.scheduler.fire_due())
        assert not await bot.store.open_matches(), "matches left unfinished"
    print(json.dumps({"done": shard}), flush=True)


if __name__ == "__main__":
    url, shard, count, mode, matches = sys.argv[1:6]
    asyncio.run(main(url, int(shard), int(count), mode, int(matches)))
