"""Migration 019: Cover matches begun before a side with no answer was asked keep the old
rule in their options and in their state's, written as a dump of the model would write
them, so that their logs replay to the state they saved; lobbies and other games untouched."""

from __future__ import annotations

from bot.service import MatchService
from bot.store import Store
from games import GAMES
from tests.bot.conftest import ANA, BEN
from tests.bot.old_rules import as_old_code_wrote_it, assert_kept_on_the_old_rule, run_migration

NEW = ',"ask_unanswerable":true'
# Fields later migrations append after it (021): old code wrote neither.
LATER = (',"one_move_for_two_sets":true',)


async def a_match(service: MatchService, game: str, channel: int, *, start: bool) -> str:
    record = await service.open_lobby(guild_id=1, channel_id=channel, host=ANA, game_key=game)
    await service.join(record.match_id, BEN)
    await service.add_bot(record.match_id, ANA)
    if start:
        await service.start(record.match_id, ANA)
    return record.match_id


async def test_begun_cover_matches_keep_the_old_rule_as_a_dump_would_write_it(
    store: Store, service: MatchService
) -> None:
    assets = await a_match(service, "cover_your_assets", 10, start=True)
    cookies = await a_match(service, "cover_your_cookies", 11, start=True)
    lobby = await a_match(service, "cover_your_assets", 12, start=False)
    toss = await a_match(service, "toss_your_cookies", 13, start=True)
    before = {
        m: await as_old_code_wrote_it(store, m, NEW, *LATER) for m in (assets, cookies, lobby)
    }
    toss_before = await store.get(toss)
    await run_migration(store, 19, 21)  # and the later one that appends after it, in order
    for match_id in (assets, cookies):
        await assert_kept_on_the_old_rule(
            store, match_id, "ask_unanswerable", before[match_id], "one_move_for_two_sets"
        )
    untouched = await store.get(lobby)
    assert untouched is not None and untouched.options == before[lobby][0]
    assert GAMES["cover_your_assets"].load_options(untouched.options).ask_unanswerable  # type: ignore[attr-defined]
    assert await store.get(toss) == toss_before
