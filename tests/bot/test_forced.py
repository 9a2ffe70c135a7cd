"""The service's half of forced moves: which decisions are answered for people, and when a
pending answer is dropped."""

from __future__ import annotations

from bot.service import MatchService
from games import GAMES
from tests.bot.conftest import ANA, BEN


async def chomper_at_a_lone_pass(service: MatchService) -> tuple[str, int]:
    """Two people at Cookie Chomper (seed 3): the first player's main card opens a
    modifier round in which their only move is Pass."""
    service.new_seed = lambda: 3
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cookie_chomper"
    )
    await service.join(record.match_id, BEN)
    record = await service.start(record.match_id, ANA)
    state = service.load_state(await service.get(record.match_id))
    mover = GAMES["cookie_chomper"].decisions(state)[0].seat
    user = (ANA, BEN)[mover]
    seen = await service.seat_view(record.match_id, user.user_id)
    assert seen.decision is not None
    await service.act(record.match_id, user.user_id, stamp=seen.decision.stamp, picks=[0])
    return record.match_id, mover


async def test_a_lone_pass_of_a_person_is_forced_and_answered(service: MatchService) -> None:
    match_id, mover = await chomper_at_a_lone_pass(service)
    record = await service.get(match_id)
    forced = await service.forced_for(record, service.load_state(record))
    assert list(forced) == [mover] and forced[mover].forced is not None
    change = await service.answer_forced(match_id, mover, forced[mover].stamp)
    assert change is not None
    last = (await service.store.actions(match_id))[-1]
    assert (last.seat, last.action) == (mover, "pass")
    assert change.match.seats[mover].missed == 0 and change.timed_out is None
    again = await service.answer_forced(match_id, mover, forced[mover].stamp)
    assert again is None  # answered already: a second pause's answer changes nothing


async def test_always_ask_during_the_pause_keeps_the_decision_for_the_player(
    service: MatchService,
) -> None:
    match_id, mover = await chomper_at_a_lone_pass(service)
    record = await service.get(match_id)
    forced = await service.forced_for(record, service.load_state(record))
    await service.set_always_ask((ANA, BEN)[mover].user_id, True)
    assert await service.forced_for(record, service.load_state(record)) == {}
    assert await service.answer_forced(match_id, mover, forced[mover].stamp) is None
    assert (await service.get(match_id)).version == record.version
