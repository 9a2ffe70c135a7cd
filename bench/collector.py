"""The collector's pauses in a load run, through ``gc.callbacks``: the longest, per
generation, how many young objects each pass found, and what code was running when the
longest began (the allocation that set it off: which part of the bot, or of the harness
sharing its process, fills the young generation).

The hook reads only counters. It once listed each generation (``gc.get_objects``) at a
pass's start, and that is not safe there: the pass begins inside whatever allocation set
it off, and the list took a reference to objects still being built. In a ten-minute soak a
tuple being grown by ``tuple(generator)`` in discord.py found a second reference to itself
and raised ``SystemError: bad argument to internal function``."""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Mapping
from pathlib import Path

FRAMES = 8  # of the code a pause interrupted, kept for the longest


def where() -> str:
    """The innermost frames of the running code, outside this module."""
    frame = sys._getframe(2)
    names = []
    while frame is not None and len(names) < FRAMES:
        names.append(f"{frame.f_code.co_name} ({Path(frame.f_code.co_filename).name})")
        frame = frame.f_back
    return " < ".join(names)


class GcWatch:
    """The longest stop-the-world collection, through ``gc.callbacks``."""

    def __init__(self) -> None:
        self._started = self._cpu = 0.0
        self._young = 0
        self._where = ""
        self.longest = self.longest_ever = 0.0
        # The same pauses in the thread's CPU time: on a shared machine the wall time of a
        # collection includes waiting for a core.
        self.longest_cpu = self.longest_cpu_ever = 0.0
        self.full = 0
        self.collections = 0
        self.total = self.total_cpu = 0.0  # all pauses, summed
        self.worst = ""  # the young objects the longest pause found, and where it began
        # Per generation: passes, CPU seconds, longest pause (wall), young objects found,
        # most found by one pass.
        self.by_generation = [[0, 0.0, 0.0, 0, 0] for _ in range(3)]
        self.frozen_at_start = 0

    def __call__(self, phase: str, info: Mapping[str, int]) -> None:
        generation = info.get("generation", 2)
        if phase == "start":
            # Allocations less deallocations since the last young pass: the young
            # generation's size, read without touching any object.
            self._young = gc.get_count()[0]
            self._where = where()
            self._started, self._cpu = time.perf_counter(), time.thread_time()
            return
        pause, cpu = time.perf_counter() - self._started, time.thread_time() - self._cpu
        self.longest = max(self.longest, pause)
        if pause > self.longest_ever:
            self.longest_ever = pause
            self.worst = (
                f"generation {generation}, {self._young:,} young objects, "
                f"{info.get('collected')} freed; begun in {self._where}"
            )
        self.longest_cpu = max(self.longest_cpu, cpu)
        self.longest_cpu_ever = max(self.longest_cpu_ever, cpu)
        self.full += generation == 2
        figures = self.by_generation[generation]
        figures[0] += 1
        figures[1] += cpu
        figures[2] = max(figures[2], pause)
        figures[3] += self._young
        figures[4] = max(figures[4], self._young)
        self.total += pause
        self.total_cpu += cpu
        self.collections += 1

    def by_generation_line(self, moves: int) -> str:
        return "; ".join(
            f"{g}: {n} passes, {cpu:.1f} s CPU, longest {longest * 1e3:.0f} ms, "
            f"{count / max(1, moves):,.0f} young objects a move, at most {most:,} a pass"
            for g, (n, cpu, longest, count, most) in enumerate(self.by_generation)
        )

    def frozen_line(self) -> str:
        """Objects moved out of the collector's sight since the run began: what the bot's
        full passes froze (bot/collector.py) and still holds. Growth here that RSS shows
        too would be frozen reference cycles, which only ``gc.unfreeze()`` frees."""
        now = gc.get_freeze_count()
        return f"frozen objects: {self.frozen_at_start:,} at the start, {now:,} at the end"

    def __enter__(self) -> GcWatch:
        self.frozen_at_start = gc.get_freeze_count()
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)
