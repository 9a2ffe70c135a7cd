"""Moving a match along through the service, for tests and benchmarks: a bot moves, or
else a person takes their first option."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service import Change, MatchService


async def any_move(service: MatchService, match_id: str, people: Sequence[int]) -> Change | None:
    """One move of whoever may move: a bot, else the first of ``people`` (user ids) with a
    decision or a chance, taking its first option(s). None: nobody could move."""
    change = await service.play_bot(match_id)
    if change is not None:
        return change
    for user_id in people:
        seen = await service.seat_view(match_id, user_id)
        decision = seen.decision or (seen.chances[0] if seen.chances else None)
        if decision is not None:
            picks = list(range(max(1, decision.min_picks)))
            return await service.act(match_id, user_id, stamp=decision.stamp, picks=picks)
    return None
