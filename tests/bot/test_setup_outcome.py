"""A deal that already decides the match: the match starts and ends at once."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from pydantic import BaseModel

from bot.errors import NotRunning
from bot.service import Change, MatchService
from bot.store import SQLiteStore
from games import GAMES
from games.core.protocol import Game, GameState
from games.toss import TossYourCookies
from games.toss.cards import MILK
from games.toss.state import TossState

from .conftest import ANA, BEN, CLEO, DEV


class DealtAWin(TossYourCookies):
    """The first deal hands Ben five of his table's first cookie and the milk."""

    def deal(self, state: TossState, rng: random.Random) -> list:  # type: ignore[override]
        events = super().deal(state, rng)
        if state.round == 1:
            rest = [card for hand in state.hands for card in hand]
            win = [state.cookies[0]] * 5 + [MILK]
            for card in win:
                rest.remove(card)
            size = self.cards.hand_size
            hands = [rest[i * size : (i + 1) * size] for i in range(len(state.hands) - 1)]
            extra = hands[0].pop()  # one hand gives a card up to complete Ben's seven
            hands.insert(1, [*win, extra])
            state.hands = [self.cards.sort(hand) for hand in hands]
        return events


def finished_state(game: Game, state: GameState) -> GameState:
    """A state the game itself reached and called over: bots play a real deal to its end."""
    while game.outcome(state) is None:
        seat = game.decisions(state)[0].seat
        state, _ = game.apply(state, seat, game.bot_action(state, seat))
    return state


async def start_four(service: MatchService, key: str) -> str:
    record = await service.open_lobby(guild_id=1, channel_id=10, host=ANA, game_key=key)
    for who in (BEN, CLEO, DEV):
        await service.join(record.match_id, who)
    await service.start(record.match_id, ANA)
    return record.match_id


async def assert_started_finished(service: MatchService, match_id: str, heard: list[Change]):  # type: ignore[no-untyped-def]
    record = await service.get(match_id)
    game = service.game_of(record)
    state = service.load_state(record)
    assert record.status == "finished" and game.outcome(state) is not None
    assert game.decisions(state) == []
    assert await service.store.timers_of(match_id) == []
    # Announced like any end: one "finished" change, no "started" one to ping anybody.
    assert [c.kind for c in heard if c.kind != "lobby"] == ["finished"]
    # The channel is free again, and a rematch can be opened from it.
    assert await service.store.open_in_channel(10) is None
    with pytest.raises(NotRunning):
        await service.act(match_id, ANA.user_id, stamp="x", picks=[0])
    assert match_id not in service._cache  # the cache holds running matches only
    rematch = await service.rematch(match_id, ANA)
    assert rematch.status == "lobby" and rematch.rematch_of == match_id


async def test_a_toss_deal_with_five_of_a_cookie_and_the_milk_starts_and_ends_at_once(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(GAMES, "toss_your_cookies", DealtAWin())
    service = MatchService(store, GAMES, new_seed=lambda: 5)
    heard: list[Change] = []

    async def listen(change: Change) -> None:
        heard.append(change)

    service.listeners.append(listen)
    match_id = await start_four(service, "toss_your_cookies")
    await assert_started_finished(service, match_id, heard)
    state = service.load_state(await service.get(match_id))
    assert state.winners == [1] and state.round_wins == [0, 1, 0, 0]
    outcome = service.game_of(await service.get(match_id)).outcome(state)
    assert outcome is not None and outcome.reason == "Ben collected five of a cookie and the milk."
    finished = next(c for c in heard if c.kind == "finished")
    assert any("Snickerdoodle! Ben wins round 1" in e.text for e in finished.events)


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_every_game_whose_set_up_is_already_decided_starts_and_ends_at_once(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    game = GAMES[key]
    deal = game.setup

    def decided(options: BaseModel, players: Sequence[str], seed: int) -> GameState:
        return finished_state(game, deal(options, players, seed))

    monkeypatch.setattr(game, "setup", decided)
    service = MatchService(store, GAMES, new_seed=lambda: 11)
    heard: list[Change] = []

    async def listen(change: Change) -> None:
        heard.append(change)

    service.listeners.append(listen)
    match_id = await start_four(service, key)
    await assert_started_finished(service, match_id, heard)
