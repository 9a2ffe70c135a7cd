"""Migration 021: Cover Your Assets matches begun before a stack of two sets had one Move
keep the old rule in their options and in their state's, written as a dump of the model
would write them, so that their logs replay to the state they saved; lobbies and other
games untouched."""

from __future__ import annotations

from bot.store import Store
from games import GAMES
from tests.bot.old_rules import as_old_code_wrote_it, assert_kept_on_the_old_rule, run_migration
from tests.bot.test_migration_ask_unanswerable import a_match

NEW = ',"one_move_for_two_sets":true'


async def test_begun_assets_matches_keep_the_old_rule_as_a_dump_would_write_it(
    store: Store, service
) -> None:  # type: ignore[no-untyped-def]
    assets = await a_match(service, "cover_your_assets", 10, start=True)
    lobby = await a_match(service, "cover_your_assets", 12, start=False)
    cookies = await a_match(service, "cover_your_cookies", 11, start=True)
    before = {m: await as_old_code_wrote_it(store, m, NEW) for m in (assets, lobby)}
    cookies_before = await store.get(cookies)
    await run_migration(store, 21)
    await assert_kept_on_the_old_rule(store, assets, "one_move_for_two_sets", before[assets])
    game = GAMES["cover_your_assets"]
    untouched = await store.get(lobby)
    assert untouched is not None and untouched.options == before[lobby][0]
    assert game.load_options(untouched.options).one_move_for_two_sets  # type: ignore[attr-defined]
    assert await store.get(cookies) == cookies_before
