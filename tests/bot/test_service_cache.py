"""The service's cache of running matches is sized by memory, not by a count."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.service import MatchService
from bot.service.base import BYTES_PER_STATE_BYTE, CACHE_MB, ENTRY_BYTES
from bot.store import SQLiteStore
from games import GAMES

from .conftest import four_player_match, stamp_of


def entry_bytes(service: MatchService, match_id: str) -> int:
    record, _ = service._cache[match_id]
    return ENTRY_BYTES + BYTES_PER_STATE_BYTE * len(record.state or "")


async def test_the_cache_keeps_running_matches_within_its_memory_budget(
    store: SQLiteStore,
) -> None:
    roomy = MatchService(store, GAMES, new_seed=lambda: 3)
    matches = [await four_player_match(roomy, channel_id=10 + i) for i in range(6)]
    one = entry_bytes(roomy, matches[0])
    assert list(roomy._cache) == matches and roomy._cache_bytes >= 6 * one * 0.9
    # A budget of about two and a half matches keeps the two most recently used.
    tight = MatchService(store, GAMES, new_seed=lambda: 3, cache_mb=2.5 * one / 2**20)
    for match_id in matches:
        await tight.seat_view(match_id, None)
    assert list(tight._cache) == matches[-2:]
    assert tight._cache_bytes <= tight._cache_budget
    # A match that left the cache is read again, and plays on.
    seen = await tight.seat_view(matches[0], None)
    assert seen.decision is None and seen.waiting_on
    seat = min(seen.waiting_on)
    record = await tight.get(matches[0])
    user = record.seats[seat].user_id
    assert user is not None
    stamp = await stamp_of(tight, matches[0], user)
    change = await tight.act(matches[0], user, stamp=stamp, picks=[0])
    assert change.match.version == record.version + 1
    assert matches[0] in tight._cache and tight._cache_bytes <= tight._cache_budget


async def test_the_table_after_a_move_is_drawn_with_its_commit_and_shown_from_there(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = await four_player_match(service)
    game = GAMES["cover_your_assets"]
    drawn: list[int] = []
    view = type(game).view

    def counted(self, state, seat):  # type: ignore[no-untyped-def]
        if seat is None:
            drawn.append(state.version)
        return view(self, state, seat)

    monkeypatch.setattr(type(game), "view", counted)
    record, state = await service._running(match_id)
    seat = game.decided(state)[0].seat
    user = record.seats[seat].user_id
    assert user is not None
    change = await service.act(
        match_id, user, stamp=await stamp_of(service, match_id, user), picks=[0]
    )
    assert change.state is not None and drawn == [change.state.version]
    seen = await service.seat_view(match_id, None)
    assert drawn == [change.state.version]  # the table edit drew nothing again
    assert seen.panels == game.panels(view(game, change.state, None))


async def test_the_service_counts_running_matches_asked_for_and_read_from_the_store(
    store: SQLiteStore,
) -> None:
    """What ``bench load`` reports of the cache's fit: a match found parsed is not read."""
    roomy = MatchService(store, GAMES, new_seed=lambda: 3)
    matches = [await four_player_match(roomy, channel_id=10 + i) for i in range(3)]
    one = entry_bytes(roomy, matches[0])
    asked, read = roomy.asked, roomy.read
    for match_id in matches:
        await roomy.seat_view(match_id, None)
    assert (roomy.asked - asked, roomy.read - read) == (3, 0)
    assert roomy.cache_fill == (3, roomy._cache_bytes, roomy._cache_budget)
    # Two matches' room for three, asked for in turn: every one is read again.
    tight = MatchService(store, GAMES, new_seed=lambda: 3, cache_mb=2.5 * one / 2**20)
    for match_id in matches * 2:
        await tight.seat_view(match_id, None)
    assert (tight.asked, tight.read) == (6, 6)


def test_the_default_budget_keeps_a_thousand_busy_tables() -> None:
    """One process is held to 1,000 busy tables (issue 39): their matches in play fit the
    default budget, or every click reads and parses its match again (64 MB held 709)."""
    game = GAMES["cover_your_assets"]
    state = game.setup(game.options_model(), ["Ana", "Ben", "Cleo", "Dee"], 7)
    for _ in range(40):  # well into the first round: a full log, sets on the table
        decision = next(d for d in game.decided(state) if not d.optional)
        action = game.bot_action(state, decision.seat, decision=decision)
        state, _ = game.apply(state, decision.seat, action, decision=decision)
    kept = ENTRY_BYTES + BYTES_PER_STATE_BYTE * len(state.model_dump_json())
    assert 1000 * kept <= CACHE_MB * 2**20
    assert Settings.model_fields["match_cache_mb"].default == CACHE_MB
