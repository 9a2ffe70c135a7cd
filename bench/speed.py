"""The machine's own speed, sampled while a benchmark runs: ``python -m bench.speed``.

This two-core virtual machine does not run at one speed: on the idle machine a fixed piece
of Python work took from 318 to 575 ms from one second to the next (another guest on the
host takes its share). A benchmark that saturates the bot measures latencies that follow
that speed, so one window set against another compares the host's moods as much as the bot.
This process times a small fixed piece of work twice a second and prints each time (ms), a
line each; ``bench/load.py`` reads it as a same-run baseline per window. It costs about 2%
of one core.
"""

from __future__ import annotations

import json
import sys
import time

EVERY = 0.5  # seconds between two samples
SIZE = 4_000  # items of work a sample: about 12 ms on this machine


def reference_work(size: int = SIZE) -> None:
    """The kind of work the bot does most: small dicts and lists, JSON text, attribute-free
    Python; always the same."""
    seen: dict[int, str] = {}
    for i in range(size):
        seen[i % 256] = json.dumps([i, "card", {"seat": i % 4}])


def main() -> None:
    while True:
        started = time.perf_counter()
        reference_work()
        print(f"{(time.perf_counter() - started) * 1e3:.3f}", flush=True)
        time.sleep(EVERY)


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, BrokenPipeError):
        sys.exit(0)
