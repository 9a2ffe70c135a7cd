"""discord.py's rate-limit buckets swept for idle ones by the clock (bot/rate_buckets.py),
not on every new bucket past 256: at 1,000 tables that walk found nothing and cost 3 s of a
profiled 106 s run."""

from __future__ import annotations

import asyncio

from discord.http import HTTPClient

from bot.rate_buckets import SWEEP_EVERY, sweep_by_the_clock


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_new_buckets_past_256_walk_the_others_once_a_minute_at_most() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    walks: list[int] = []
    sweep = http._try_clear_expired_ratelimits

    def counted() -> None:
        walks.append(len(http._buckets))
        sweep()

    http._try_clear_expired_ratelimits = counted  # type: ignore[method-assign]
    clock = Clock()
    sweep_by_the_clock(http, clock=clock)
    for channel in range(1000):
        http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}")
    assert len(walks) == 1  # discord.py's own: one walk per new bucket, 1,000 of them
    clock.now += SWEEP_EVERY
    http.get_ratelimit("PATCH /channels/{channel_id}/messages/{message_id}:1")
    assert len(walks) == 2


async def test_an_idle_bucket_still_goes_when_the_walk_comes() -> None:
    http = HTTPClient(asyncio.get_running_loop())
    clock = Clock()
    sweep_by_the_clock(http, clock=clock)
    for channel in range(300):
        http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}")
    for bucket in http._buckets.values():
        bucket._last_request -= 301  # five minutes without a request: idle
    clock.now += SWEEP_EVERY
    http.get_ratelimit("POST /channels/{channel_id}/messages:new")
    assert list(http._buckets) == ["POST /channels/{channel_id}/messages:new"]
