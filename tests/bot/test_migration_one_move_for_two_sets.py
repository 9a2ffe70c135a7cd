"""Migration 021: Cover Your Assets matches begun before a stack of two sets had one Move
keep the old rule in their options and in their state's, written as a dump of the model
would write them, so that their logs replay to the state they saved; lobbies and other
games untouched."""

from __future__ import annotations

from bot.store import Store
from games import GAMES
from tests.bot.old_rules import as_old_code_wrote_it, run_migration
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
    record = await store.get(assets)
    assert record is not None and record.state is not None
    game = GAMES["cover_your_assets"]
    options = game.load_options(record.options)
    state = game.load_state(record.state)
    assert options.one_move_for_two_sets is False  # type: ignore[attr-defined]
    assert state.options.one_move_for_two_sets is False  # type: ignore[attr-defined]
    # Byte for byte what the model dumps: a replay compares the saved text.
    assert record.options == options.model_dump_json()
    assert record.state == state.model_dump_json()
    old_options, old_state = before[assets]
    assert record.options.replace(',"one_move_for_two_sets":false', "") == old_options
    assert record.state.replace(',"one_move_for_two_sets":false', "") == old_state
    untouched = await store.get(lobby)
    assert untouched is not None and untouched.options == before[lobby][0]
    assert game.load_options(untouched.options).one_move_for_two_sets  # type: ignore[attr-defined]
    assert await store.get(cookies) == cookies_before
