"""The machine's own speed, sampled while a benchmark runs: ``python -m bench.speed``.

This two-core virtual machine does not run at one speed: on the idle machine a fixed piece
of Python work took from 318 to 575 ms from one second to the next (another guest on the
host takes its share). A benchmark that saturates the bot measures latencies that follow
that speed, so one window set against another compares the host's moods as much as the bot.
This process times a small fixed piece of work twice a second and prints each time (ms), a
line each; ``bench/load.py`` reads it as a same-run baseline per window. It costs about 2%
of one core.

The disk has moods of its own, which the CPU's do not show: each line also gives the time
of a 4 KB write and its fsync in the folder named on the command line (the bot's database
folder: the same disk its commits wait for). In one run the bot's moves/s fell by a third
for minutes while the CPU reference stayed where it was.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

EVERY = 0.5  # seconds between two samples
SIZE = 4_000  # items of work a sample: about 12 ms on this machine


def reference_work(size: int = SIZE) -> None:
    """The kind of work the bot does most: small dicts and lists, JSON text, attribute-free
    Python; always the same."""
    seen: dict[int, str] = {}
    for i in range(size):
        seen[i % 256] = json.dumps([i, "card", {"seat": i % 4}])


def timed_fsync(handle: int) -> float:
    """Seconds to write 4 KB at the start of the file and wait for the disk."""
    started = time.perf_counter()
    os.pwrite(handle, os.urandom(4096), 0)
    os.fsync(handle)
    return time.perf_counter() - started


def main(folder: str) -> None:
    with tempfile.NamedTemporaryFile(dir=folder) as scratch:
        while True:
            started = time.perf_counter()
            reference_work()
            work = time.perf_counter() - started
            disk = timed_fsync(scratch.fileno())
            print(f"{work * 1e3:.3f} {disk * 1e3:.3f}", flush=True)
            time.sleep(EVERY)


if __name__ == "__main__":
    try:
        main(sys.argv[1] if len(sys.argv) > 1 else tempfile.gettempdir())
    except (KeyboardInterrupt, BrokenPipeError):
        sys.exit(0)
