"""The service: lobby rules, who may act, stale clicks, races, bots, replays."""

from __future__ import annotations

import asyncio

import pytest

from bot.bots import BotDriver
from bot.errors import (
    AlreadySeated,
    ChannelTaken,
    LobbyFull,
    NotHost,
    NotInLobby,
    NotSeated,
    StaleClick,
    UserError,
)
from bot.service import MatchService, Person
from bot.store import open_store
from games import GAMES
from games.core.protocol import Action

from .conftest import ANA, BEN, CLEO, DEV, MOD, STRANGER, four_player_match, stamp_of


async def test_lobby_seats_people_and_bots_up_to_the_maximum(service: MatchService) -> None:
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cover_your_assets"
    )
    await service.join(record.match_id, BEN)
    with pytest.raises(AlreadySeated):
        await service.join(record.match_id, BEN)
    with pytest.raises(NotHost):
        await service.add_bot(record.match_id, BEN)
    for _ in range(4):
        record = await service.add_bot(record.match_id, ANA)
    assert [s.name for s in record.seats] == ["Ana", "Ben", "🤖 Abe", "🤖 Bea", "🤖 Cal", "🤖 Dot"]
    with pytest.raises(LobbyFull):
        await service.add_bot(record.match_id, ANA)
    # A person outranks a bot: the last bot added gives its seat up, one bot a person.
    for person in (CLEO, DEV, MOD, STRANGER):
        record = await service.join(record.match_id, person)
    assert [s.name for s in record.seats] == ["Ana", "Ben", "Cleo", "Dev", "Mod", "Stranger"]
    assert [s.seat for s in record.seats] == list(range(6))
    with pytest.raises(LobbyFull, match="full"):
        await service.join(record.match_id, Person(user_id=99, name="Late"))


async def test_only_the_host_or_a_manager_starts_and_needs_enough_seats(
    service: MatchService,
) -> None:
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cover_your_assets"
    )
    with pytest.raises(UserError, match="needs 2 to 6 players; there is 1"):
        await service.start(record.match_id, ANA)
    await service.join(record.match_id, BEN)
    await service.join(record.match_id, CLEO)
    await service.join(record.match_id, DEV)
    with pytest.raises(NotHost):
        await service.start(record.match_id, BEN)
    record = await service.start(record.match_id, MOD)
    assert record.status == "active"
    with pytest.raises(NotInLobby):
        await service.join(record.match_id, STRANGER)


async def test_one_open_match_per_channel(service: MatchService) -> None:
    first = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cover_your_assets"
    )
    with pytest.raises(ChannelTaken) as taken:
        await service.open_lobby(guild_id=1, channel_id=10, host=BEN, game_key="cover_your_assets")
    assert taken.value.match_id == first.match_id


async def test_the_host_leaving_hands_the_lobby_on_and_the_last_leaving_closes_it(
    service: MatchService,
) -> None:
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cover_your_assets"
    )
    await service.join(record.match_id, BEN)
    record = await service.leave(record.match_id, ANA)
    assert record.host_id == BEN.user_id and [s.name for s in record.seats] == ["Ben"]
    record = await service.leave(record.match_id, BEN)
    assert record.status == "cancelled"


async def test_options_can_be_changed_by_the_host_only(service: MatchService) -> None:
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cover_your_assets"
    )
    await service.join(record.match_id, BEN)
    with pytest.raises(NotHost):
        await service.set_option(record.match_id, BEN, "end_mode", "quick")
    with pytest.raises(UserError, match="not available"):
        await service.set_option(record.match_id, ANA, "end_mode", "forever")
    record = await service.set_option(record.match_id, ANA, "end_mode", "quick")
    assert '"end_mode":"quick"' in record.options


async def test_strangers_stale_clicks_and_out_of_turn_moves_change_nothing(
    service: MatchService,
) -> None:
    match_id = await four_player_match(service)
    before = await service.get(match_id)
    game = GAMES["cover_your_assets"]
    state = service.load_state(before)
    turn = game.decisions(state)[0].seat
    idle = next(s for s in before.seats if s.seat != turn)
    mover = next(s for s in before.seats if s.seat == turn)
    with pytest.raises(NotSeated):
        await service.act(
            match_id,
            STRANGER.user_id,
            stamp=await stamp_of(service, match_id, STRANGER.user_id),
            picks=[0],
        )
    with pytest.raises(StaleClick):
        await service.act(
            match_id, idle.user_id, stamp=await stamp_of(service, match_id, idle.user_id), picks=[0]
        )
    with pytest.raises(StaleClick):
        await service.act(match_id, mover.user_id, stamp="zz", picks=[0])
    with pytest.raises(StaleClick):
        await service.act(
            match_id,
            mover.user_id,
            stamp=await stamp_of(service, match_id, mover.user_id),
            picks=[999],
        )
    after = await service.get(match_id)
    assert (after.state, after.version) == (before.state, before.version)
    assert await service.store.actions(match_id) == []


async def test_two_clicks_on_the_same_version_apply_exactly_once(service: MatchService) -> None:
    match_id = await four_player_match(service)
    record = await service.get(match_id)
    turn = GAMES["cover_your_assets"].decisions(service.load_state(record))[0].seat
    user = record.seats[turn].user_id
    stamp = await stamp_of(service, match_id, user)
    results = await asyncio.gather(
        *(service.act(match_id, user, stamp=stamp, picks=[0]) for _ in range(5)),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, StaleClick) for r in results if isinstance(r, Exception))
    assert len(await service.store.actions(match_id)) == 1


async def test_bots_play_a_match_to_the_end_and_the_log_replays_to_the_snapshot(
    service: MatchService,
) -> None:
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cover_your_assets"
    )
    await service.set_option(record.match_id, ANA, "end_mode", "quick")
    for _ in range(3):
        await service.add_bot(record.match_id, ANA)
    finished = asyncio.Event()

    async def on_change(change) -> None:  # type: ignore[no-untyped-def]
        if change.kind == "finished":
            finished.set()

    service.listeners.append(on_change)
    driver = BotDriver(service, delay=0)
    await service.start(record.match_id, ANA)
    # Ana plays her own turns by taking her decision's default move.
    game = GAMES["cover_your_assets"]
    while not finished.is_set():
        current = await service.get(record.match_id)
        state = service.load_state(current)
        mine = game.decision_for(state, 0)
        if mine is not None:
            await service.act(record.match_id, ANA.user_id, stamp=mine.stamp, action=mine.default)
        await asyncio.sleep(0)
    await driver.close()
    final = await service.get(record.match_id)
    assert final.status == "finished"
    state = service.load_state(final)
    replayed = game.setup(
        game.load_options(final.options), [s.name for s in final.seats], final.seed
    )
    for logged in await service.store.actions(record.match_id):
        replayed, _ = game.apply(replayed, logged.seat, Action.decode(logged.action))
    assert replayed.model_dump_json() == final.state
    assert state.end_reason


async def test_a_new_service_on_the_same_database_continues_the_match(
    service: MatchService, database_url: str
) -> None:
    match_id = await four_player_match(service)
    record = await service.get(match_id)
    await service.store.close()
    store = open_store(database_url)
    await store.connect()
    again = MatchService(store, GAMES)
    state = again.load_state(await again.get(match_id))
    turn = GAMES["cover_your_assets"].decisions(state)[0].seat
    change = await again.act(
        match_id,
        record.seats[turn].user_id,
        stamp=await stamp_of(again, match_id, record.seats[turn].user_id),
        picks=[0],
    )
    assert change.state.version == 1
    await store.close()


async def test_a_matchs_lock_is_dropped_once_nobody_holds_it(service: MatchService) -> None:
    import gc

    match_id = await four_player_match(service)
    async with service.lock(match_id):
        assert match_id in service._locks
    gc.collect()
    assert match_id not in service._locks  # nobody holds or awaits it: it is gone
