"""discord.py's rate-limit buckets, swept for idle ones at most once a minute.

discord.py keeps one bucket per route and channel (``HTTPClient._buckets``: the messages
posted, edited, deleted in each channel) and, once it holds 256 or more, walks all of them
for idle ones every time it makes a new one. A bucket is idle after five minutes without a
request, so at 1,000 busy tables the walk finds nothing to drop and each new bucket costs
a look at thousands: 1,782 walks, 3 s of a profiled 106 s run
(``bench load --channels 1000 --profile``), where at 30 tables there is no walk at all.
Walked at most every ``SWEEP_EVERY`` seconds, the buckets still go when idle (a minute
later at most), and a new one costs a dictionary insert.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from discord.http import HTTPClient

SWEEP_EVERY = 60.0  # seconds


def sweep_by_the_clock(
    http: HTTPClient, every: float = SWEEP_EVERY, clock: Callable[[], float] = time.monotonic
) -> None:
    """Let ``http`` look for idle buckets at most once every ``every`` seconds."""
    sweep = http._try_clear_expired_ratelimits
    last: float | None = None

    def sweep_now_and_then() -> None:
        nonlocal last
        now = clock()
        if last is not None and now - last < every:
            return
        last = now
        sweep()

    http._try_clear_expired_ratelimits = sweep_now_and_then  # type: ignore[method-assign]
