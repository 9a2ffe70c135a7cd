"""The hard bots' thinking (bot/thinking.py), in this process: what a worker runs, the
pace's bounds and the fallbacks. The worker processes themselves are driven in
tests/discord/test_bot_levels.py."""

from __future__ import annotations

import asyncio
import time

from bot.service import MatchService
from bot.store import MatchRecord, SeatRecord
from bot.store.models import STANDING_IN
from bot.thinking import GRACE, Thinker, Thought, think, think_seconds
from bot.timing import MatchSettings
from games import GAMES
from games.core.protocol import Action, Decision
from tests.bot.conftest import ANA, BEN


def a_thought(seconds: float = 0.05, not_after: float | None = None) -> tuple[Thought, list[str]]:
    game = GAMES["toss_your_cookies"]
    state = game.setup(game.options_model(), ["Ana", "Ben", "Cal"], seed=5)
    decision = game.decisions(state)[0]
    thought = Thought(
        game=game.key,
        state=state.model_dump_json(),
        seat=decision.seat,
        stamp=decision.stamp,
        level="hard",
        seconds=seconds,
        seed=3,
        not_after=time.time() + seconds + GRACE if not_after is None else not_after,
    )
    legal = [o.action.encode() for o in decision.options]
    return thought, legal


def test_a_worker_answers_a_legal_move_from_the_stored_state() -> None:
    thought, _ = a_thought()
    first = think(thought)
    assert first is not None
    game = GAMES["toss_your_cookies"]
    state = game.load_state(thought.state)
    game.apply(state, thought.seat, Action.decode(first))  # legal: raises otherwise


def test_a_thought_that_starts_past_its_deadline_is_not_thought() -> None:
    thought, _ = a_thought(not_after=time.time() - 1)
    assert think(thought) is None


def test_a_live_table_thinks_least_and_every_pace_is_bounded() -> None:
    live = think_seconds(MatchSettings(pace="live"))
    casual = think_seconds(MatchSettings(pace="casual"))
    slow = think_seconds(MatchSettings(pace="correspondence"))
    assert live + GRACE <= 1.5 and live < casual <= slow <= 2.0
    assert think_seconds(MatchSettings(pace="correspondence"), cap=0.1) == 0.1


async def test_no_workers_means_a_normal_move_not_a_lost_one() -> None:
    thinker = Thinker(0)
    thought, _ = a_thought()
    assert await thinker.move(thought) is None
    assert thinker.fell_back == 1 and not await thinker.ready()


async def until_a_bot_decides(service: MatchService, match_id: str) -> int:
    """Ana takes her first option(s) until a bot seat has a decision; that seat."""
    for _ in range(50):
        bots = await service.bot_seats_deciding(match_id, race=False)
        if bots:
            return bots[0]
        seen = await service.seat_view(match_id, ANA.user_id)
        assert seen.decision is not None
        picks = list(range(seen.decision.min_picks))
        await service.act(match_id, ANA.user_id, stamp=seen.decision.stamp, picks=picks)
    raise AssertionError("no bot came to decide")


async def test_a_hard_seat_plays_its_thought_and_a_stand_in_plays_normal(
    service: MatchService,
) -> None:
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="toss_your_cookies"
    )
    await service.join(record.match_id, BEN)
    await service.add_bot(record.match_id, ANA, "hard")
    await service.start(record.match_id, ANA)
    asked: list[int] = []

    async def think(found: MatchRecord, decision: Decision) -> Action | None:
        asked.append(decision.seat)
        return decision.options[-1].action if decision.max_picks == 1 else None

    game = GAMES["toss_your_cookies"]
    for _ in range(50):
        before = (await service.get(record.match_id)).version
        state = game.load_state((await service.get(record.match_id)).state or "")
        mine = next((d for d in game.decisions(state) if d.seat == 2 and d.max_picks == 1), None)
        if mine is not None:
            change = await service.play_bot(record.match_id, seat=2, think=think)
            assert change is not None and change.match.version == before + 1
            assert (await service.store.actions(record.match_id))[-1].action == (
                mine.options[-1].action.encode()
            )  # the thought's move, not the heuristic's
            break
        if await service.play_bot(record.match_id, seat=2, think=think) is None:
            seen = await service.seat_view(record.match_id, ANA.user_id)
            person = ANA if seen.decision else BEN
            seen = await service.seat_view(record.match_id, person.user_id)
            assert seen.decision is not None
            picks = list(range(seen.decision.min_picks))
            await service.act(
                record.match_id, person.user_id, stamp=seen.decision.stamp, picks=picks
            )
    assert asked and set(asked) == {2}
    # A bot standing in for someone away plays at normal: it never thinks.
    stand_in = SeatRecord(seat=0, user_id=ANA.user_id, name="Ana", away=STANDING_IN, level="hard")
    assert stand_in.played_by_bot and stand_in.bot_level == "normal"


async def test_a_decision_is_thought_about_once_however_often_the_bots_are_poked(
    service: MatchService,
) -> None:
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="toss_your_cookies"
    )
    await service.add_bot(record.match_id, ANA, "hard")
    await service.add_bot(record.match_id, ANA, "hard")
    await service.start(record.match_id, ANA)
    seat = await until_a_bot_decides(service, record.match_id)
    release, asked = asyncio.Event(), []

    async def think(found: MatchRecord, decision: Decision) -> Action | None:
        asked.append(decision.stamp)
        await release.wait()
        return None  # no thought in time: the normal move

    first = asyncio.create_task(service.play_bot(record.match_id, seat=seat, think=think))
    while not asked:
        await asyncio.sleep(0)
    # A second poke while the first thinks leaves the decision to it: no second thought.
    second = asyncio.create_task(service.play_bot(record.match_id, seat=seat, think=think))
    for _ in range(100):
        await asyncio.sleep(0)
    before = (await service.get(record.match_id)).version
    release.set()
    assert second.done() and second.result() is None and len(asked) == 1
    change = await first
    assert change is not None and change.match.version == before + 1
