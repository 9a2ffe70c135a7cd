"""A rolling restart runs an older process beside a newer one on one database: settings and
events a newer version wrote, with fields this version does not know, are read here and
written back with those fields kept (docs/operations.md, "Rolling restart")."""

from __future__ import annotations

import json

from bot.clock import ManualClock
from bot.service import MatchService
from bot.service.tournaments import TournamentConfig, Tournaments
from bot.store import Store
from bot.timing import GuildSettings
from games import GAMES
from tests.bot.conftest import ANA, BEN, MOD

GUILD = 1
NEWER = {"from_a_newer_version": {"kept": True}}


async def test_a_servers_settings_from_a_newer_version_are_read_and_keep_its_fields(
    store: Store, service: MatchService
) -> None:
    newer = GuildSettings().model_dump(mode="json") | NEWER
    newer["match"] |= NEWER
    await store.save_guild_settings(GUILD, json.dumps(newer))

    settings = await service.set_guild_defaults(GUILD, MOD, {"language": "ko", "pace": "async"})
    assert (settings.language, settings.match.pace) == ("ko", "async")
    await service.note_preferred_locale(GUILD, "ja")

    stored = json.loads(await store.guild_settings(GUILD))
    assert stored["from_a_newer_version"] == {"kept": True}
    assert stored["match"]["from_a_newer_version"] == {"kept": True}
    assert (stored["language"], stored["preferred_locale"], stored["match"]["pace"]) == (
        "ko",
        "ja",
        "async",
    )


async def test_a_persons_settings_from_a_newer_version_keep_its_fields(
    store: Store, service: MatchService
) -> None:
    await store.save_user_settings(ANA.user_id, json.dumps(NEWER | {"notify": True}))

    assert (await service.set_language(ANA.user_id, "es")).notify is True

    stored = json.loads(await store.user_settings(ANA.user_id))
    assert (stored["language"], stored["notify"]) == ("es", True)
    assert stored["from_a_newer_version"] == {"kept": True}


async def test_an_event_a_newer_version_made_is_paused_and_resumed_here_with_its_fields(
    store: Store,
) -> None:
    clock = ManualClock()
    seeds = iter(range(1000, 100_000))
    events = Tournaments(MatchService(store, GAMES, new_seed=lambda: next(seeds), clock=clock))
    event = await events.create(
        guild_id=GUILD,
        channel_id=5,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(format="swiss", pace="casual"),
    )
    tid = event.tournament_id
    record = await store.get_tournament(tid)
    assert record is not None
    await store.save_tournament(
        record.model_copy(update={"config": json.dumps(json.loads(record.config) | NEWER)})
    )
    for who in (ANA, BEN):
        await events.join(tid, who)
    await events.start(tid, MOD)

    await events.pause(tid, MOD)
    await clock.advance(60)
    await events.resume(tid, MOD)

    after = await store.get_tournament(tid)
    assert after is not None and after.status == "running"
    assert json.loads(after.config)["from_a_newer_version"] == {"kept": True}
