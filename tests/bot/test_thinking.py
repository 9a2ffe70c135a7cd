"""The hard bots' thinking (bot/thinking.py), in this process: what a worker runs, the
pace's bounds and the fallbacks. The worker processes themselves are driven in
tests/discord/test_bot_levels.py."""

from __future__ import annotations

import time

from bot.thinking import GRACE, Thinker, Thought, think, think_seconds
from bot.timing import MatchSettings
from games import GAMES
from games.core.protocol import Action


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
