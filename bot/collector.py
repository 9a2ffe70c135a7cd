"""The garbage collector's work in a long-lived process, bounded.

CPython's full collection walks every tracked object the process holds. At 1,000 busy
tables that is the states, tables and views of every match, 700,000 objects: a pause of
0.6-0.9 s, with nothing found to free (bench/load.py). Four things keep passes small:

* ``gc.freeze()`` at the end of start-up: modules, card catalogues, commands live as long
  as the process; no collection walks them again.
* ``FreezeSurvivors``: after every full collection, what survived it is frozen too. A full
  pass then walks only what was promoted since the last one, never the whole heap again.
  Frozen objects are still freed by their reference counts the moment nothing holds them
  (a match's replaced state, a finished table), which is how nearly everything here dies;
  so the frozen count falls as tables move on, nothing unfreezes them. Only a reference
  cycle among frozen objects would wait for ``gc.unfreeze()``, and the soak
  (``bench load --minutes 10``) shows no growth from it.
* Young and middle passes started by the clock too (``pace``), not only by Python's count
  of allocations less deallocations: at 1,000 tables a move frees an older state for each
  it makes, the count hardly grows while the young generation does, and the pass that
  came at last walked up to 400,000 objects (0.6 s). A young pass at least every
  ``YOUNG_EVERY`` seconds walks what a quarter of a second made.
* A full pass at least every ``FULL_EVERY`` seconds, by the clock as well. Python's own
  rule waits until the old generation grew by a quarter of what the last full pass found
  alive: everything this hook then froze, so at 1,000 tables the next pass waited for
  225,000 new objects and walked up to 930,000 (0.9 s). Every second, a full pass walks
  what a second promoted (about 16,000 objects at 1,000 tables). Asking for it by the old
  generation's size instead meant listing that generation (``gc.get_objects(2)``) after
  every middle pass: 5.7 ms a look, a tenth of the process's time at 300 tables
  (cProfile), and inside the pause it followed.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Mapping

# The longest each generation goes without a pass (``pace``): young, middle, old. Measuring
# their sizes instead (``gc.get_objects``) cost 4-6 ms a look at 300 tables, busy machine.
YOUNG_EVERY = 0.25
MIDDLE_EVERY = 0.5
FULL_EVERY = 1.0


class FreezeSurvivors:
    """A ``gc.callbacks`` hook: after each full collection, freeze its survivors; and note
    when each generation was last walked, for ``pace``."""

    def __init__(self) -> None:
        self.freezes = 0
        # When each generation was last walked (a pass walks the younger ones too).
        self.walked_at = [time.monotonic()] * 3

    def __call__(self, phase: str, info: Mapping[str, int]) -> None:
        if phase != "stop":
            return
        generation = info.get("generation", 2)
        now = time.monotonic()
        for younger in range(generation + 1):
            self.walked_at[younger] = now
        if generation == 2:
            # At "stop" of a full pass every younger generation was merged into it and what
            # is left is alive: moving it out of the collector's sight allocates nothing.
            gc.freeze()
            self.freezes += 1

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)


def collect_if_due(hook: FreezeSurvivors, now: float) -> int | None:
    """Start the pass of the oldest generation that went too long without one (which it
    returns)."""
    for generation, every in ((2, FULL_EVERY), (1, MIDDLE_EVERY), (0, YOUNG_EVERY)):
        if now - hook.walked_at[generation] >= every:
            gc.collect(generation)
            return generation
    return None


async def pace(hook: FreezeSurvivors) -> None:
    """Keep every pass short for as long as the process runs."""
    while True:
        await asyncio.sleep(YOUNG_EVERY)
        collect_if_due(hook, time.monotonic())


def settle(*, freeze: bool, thresholds: tuple[int, int, int] | None) -> FreezeSurvivors | None:
    """The end of start-up: freeze what start-up built and, with ``freeze``, every full
    collection's survivors from now on (the hook returned, to remove at close, and to
    ``pace``); set the thresholds."""
    hook = None
    if freeze:
        gc.collect()
        gc.freeze()
        hook = FreezeSurvivors()
        hook.install()
    if thresholds is not None:
        gc.set_threshold(*thresholds)
    return hook
