"""Migration 020: Braverse matches begun before a hand leaving one choice or none was asked
all the same keep the old rule in their options and in their state's, written as a dump of the
model would write them, so that their logs replay to the state they saved; lobbies and
other games untouched."""

from __future__ import annotations

from bot.service import MatchService
from bot.store import Store
from tests.bot.conftest import ANA, BEN
from tests.bot.old_rules import as_old_code_wrote_it, assert_kept_on_the_old_rule, run_migration
from tests.bot.test_migration_ask_unanswerable import a_match

NEW = ',"ask_lone_choice":true'


async def braverse_match(service: MatchService, channel: int, *, start: bool) -> str:
    record = await service.open_lobby(guild_id=1, channel_id=channel, host=ANA, game_key="braverse")
    await service.join(record.match_id, BEN)
    if start:
        await service.start(record.match_id, ANA)
    return record.match_id


async def test_begun_braverse_matches_keep_the_old_rule_as_a_dump_would_write_it(
    store: Store, service: MatchService
) -> None:
    begun = await braverse_match(service, 10, start=True)
    lobby = await braverse_match(service, 11, start=False)
    cover = await a_match(service, "cover_your_assets", 12, start=True)
    before = {m: await as_old_code_wrote_it(store, m, NEW) for m in (begun, lobby)}
    cover_before = await store.get(cover)
    await run_migration(store, 20)
    await assert_kept_on_the_old_rule(store, begun, "ask_lone_choice", before[begun])
    untouched = await store.get(lobby)
    assert untouched is not None and untouched.options == before[lobby][0]
    assert await store.get(cover) == cover_before
