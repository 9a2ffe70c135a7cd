"""Simultaneous choices and races through the service, on a hand-moved clock: a choice
does not restart anyone else's clock, a race window closes on its own and blames nobody."""

from __future__ import annotations

import pytest

from bot.clock import ManualClock
from bot.errors import UserError
from bot.service import MatchService
from bot.store import Store
from games import GAMES
from games.core.protocol import Action
from games.toss.search import TossSearch
from games.toss.state import Roll
from tests.games.toss.conftest import FixedDice

from .conftest import ANA, BEN, CLEO, stamp_of


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def dice() -> FixedDice:
    return FixedDice()


@pytest.fixture
def racing(store: Store, clock: ManualClock, dice: FixedDice) -> MatchService:
    games = {**GAMES, "toss_your_cookies": dice}
    return MatchService(store, games, new_seed=lambda: 42, clock=clock)


async def toss_table(service: MatchService, pace: str) -> str:
    record = await service.open_lobby(
        guild_id=1, channel_id=30, host=ANA, game_key="toss_your_cookies"
    )
    await service.set_pace(record.match_id, ANA, pace)
    await service.join(record.match_id, BEN)
    await service.join(record.match_id, CLEO)
    await service.start(record.match_id, ANA)
    return record.match_id


async def roll(service: MatchService, match_id: str) -> None:
    state = service.load_state(await service.get(match_id))
    roller = (await service.get(match_id)).seats[state.turn].user_id
    await service.act(match_id, roller, stamp=await stamp_of(service, match_id, roller), picks=[0])


async def choose(service: MatchService, match_id: str, user_id: int, count: int) -> None:
    stamp = await stamp_of(service, match_id, user_id)
    await service.act(match_id, user_id, stamp=stamp, picks=list(range(count)))


async def timeouts(service: MatchService, match_id: str) -> dict[int, float]:
    return {
        t.seat: t.due_at for t in await service.store.timers_of(match_id) if t.kind == "timeout"
    }


async def test_one_players_choice_does_not_restart_the_others_clocks(racing, clock, dice) -> None:
    dice.rolls.append(Roll(action="left", number="2"))
    match_id = await toss_table(racing, "live")
    await roll(racing, match_id)
    opened = clock.now()
    assert await timeouts(racing, match_id) == {0: opened + 60, 1: opened + 60, 2: opened + 60}
    await clock.advance(30)
    await choose(racing, match_id, BEN.user_id, 2)
    # Ben has chosen: his clock is gone; Ana's and Cleo's still run out when they would have.
    assert await timeouts(racing, match_id) == {0: opened + 60, 2: opened + 60}
    # A hand opened before Ben chose still works for Cleo: her decision stands unchanged.
    await choose(racing, match_id, CLEO.user_id, 2)
    assert await timeouts(racing, match_id) == {0: opened + 60}


async def test_the_scramble_closes_after_its_window_and_blames_nobody(racing, clock, dice) -> None:
    dice.rolls.append(Roll(action="toss", number="2"))
    match_id = await toss_table(racing, "live")
    await roll(racing, match_id)
    for person in (ANA, BEN, CLEO):
        await choose(racing, match_id, person.user_id, 2)
    opened = clock.now()
    state = racing.load_state(await racing.get(match_id))
    assert state.phase == "scramble"
    # The race window (20 seconds by default) replaces the live pace's minute.
    assert set((await timeouts(racing, match_id)).values()) == {opened + 20}
    middle = list(state.scramble.middle)
    await racing.grab(
        match_id, BEN.user_id, race=racing_stamp(racing, state), action=grab(middle[0])
    )
    await clock.advance(10)
    # Grabbing does not restart the window.
    assert set((await timeouts(racing, match_id)).values()) == {opened + 20}
    await clock.advance(10)
    changes = [await racing.on_timer(t) for t in await racing.store.due_timers(clock.now())]
    record = await racing.get(match_id)
    state = racing.load_state(record)
    assert state.phase == "roll" and [len(h) for h in state.hands] == [7, 7, 7]
    assert [s.missed for s in record.seats] == [0, 0, 0] and [s.away for s in record.seats] == [
        0,
        0,
        0,
    ]
    logged = [a.action for a in await racing.store.actions(match_id)]
    assert logged.count("close") == 1  # one close, whichever timer fired first
    assert changes  # the timers fired


async def test_a_scramble_in_a_casual_game_stays_open_as_long_as_a_move(
    racing, clock, dice
) -> None:
    dice.rolls.append(Roll(action="toss", number="1"))
    match_id = await toss_table(racing, "casual")
    await roll(racing, match_id)
    for person in (ANA, BEN, CLEO):
        await choose(racing, match_id, person.user_id, 1)
    assert set((await timeouts(racing, match_id)).values()) == {clock.now() + 600}


async def test_a_click_for_another_race_or_on_a_closed_one_is_refused(racing, clock, dice) -> None:
    dice.rolls.append(Roll(action="toss", number="1"))
    match_id = await toss_table(racing, "live")
    await roll(racing, match_id)
    for person in (ANA, BEN, CLEO):
        await choose(racing, match_id, person.user_id, 1)
    state = racing.load_state(await racing.get(match_id))
    with pytest.raises(UserError, match="Too late"):
        await racing.grab(match_id, ANA.user_id, race="old", action=grab(state.scramble.middle[0]))
    with pytest.raises(UserError, match="Only the clock"):
        await racing.grab(match_id, ANA.user_id, race=racing_stamp(racing, state), action=close())
    assert (await racing.get(match_id)).version == state.version


def racing_stamp(service: MatchService, state) -> str:  # type: ignore[no-untyped-def]
    return service.games["toss_your_cookies"].decisions(state)[0].race_stamp


def grab(card: str) -> Action:
    return Action.of("grab", card)


def close() -> Action:
    return Action.of("close")


async def test_a_silent_player_in_a_chomper_modifier_round_passes_without_blame(
    store, clock
) -> None:
    service = MatchService(store, GAMES, new_seed=lambda: 3, clock=clock)
    record = await service.open_lobby(
        guild_id=1, channel_id=31, host=ANA, game_key="cookie_chomper"
    )
    await service.set_pace(record.match_id, ANA, "live")
    await service.join(record.match_id, BEN)
    await service.start(record.match_id, ANA)
    game = GAMES["cookie_chomper"]
    state = service.load_state(await service.get(record.match_id))
    active = state.turn
    user = (ANA, BEN)[active].user_id
    decision = game.decisions(state)[0]
    main = game.bot_action(state, active, decision=decision)
    await service.act(record.match_id, user, stamp=decision.stamp, action=main)
    state = service.load_state(await service.get(record.match_id))
    assert state.phase == "round"
    # Nobody answers the modifier round: each 20-second reaction clock passes for them.
    for _ in range(2):
        await clock.advance(20)
        for timer in await service.store.due_timers(clock.now()):
            await service.on_timer(timer)
    after = await service.get(record.match_id)
    state = service.load_state(after)
    # The round settled (a number card was played) and the turn passed to the other player.
    assert main.kind == "number" and state.phase == "main" and state.turn != active
    assert [s.missed for s in after.seats] == [0, 0] and [s.away for s in after.seats] == [0, 0]
    logged = [a.action for a in await service.store.actions(record.match_id)]
    assert logged.count("pass") == 2


async def test_a_hard_bot_grabs_in_a_race_by_its_own_rule_at_once(
    racing, clock, dice, monkeypatch
) -> None:
    # hard's rule is stood in for by "the last card in the middle", unlike normal's grab
    monkeypatch.setattr(TossSearch, "lead", lambda self, view, decision: grab(view.middle[-1]))
    dice.rolls.append(Roll(action="toss", number="3"))
    record = await racing.open_lobby(
        guild_id=1, channel_id=32, host=ANA, game_key="toss_your_cookies"
    )
    await racing.set_pace(record.match_id, ANA, "live")
    await racing.join(record.match_id, BEN)
    await racing.add_bot(record.match_id, ANA, "hard")
    match_id = (await racing.start(record.match_id, ANA)).match_id
    if racing.load_state(await racing.get(match_id)).turn == 2:
        await racing.play_bot(match_id, seat=2)  # the bot rolls
    else:
        await roll(racing, match_id)
    for person in (ANA, BEN):
        await choose(racing, match_id, person.user_id, 3)
    await racing.play_bot(match_id, seat=2)  # the bot tosses
    state = racing.load_state(await racing.get(match_id))
    assert state.phase == "scramble"
    middle, hand = list(state.scramble.middle), list(state.hands[2])
    normal = dice.bot_action(state, 2, decision=dice.decision_for(state, 2)).args[0]
    assert middle[-1] != normal  # the two rules differ here
    await racing.play_bot(match_id, seat=2, race=True)
    after = racing.load_state(await racing.get(match_id))
    assert sorted(after.hands[2]) == sorted([*hand, middle[-1]])
