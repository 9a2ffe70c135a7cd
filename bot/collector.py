"""The garbage collector's work in a long-lived process, bounded.

CPython's full collection walks every tracked object the process holds. At 1,000 busy
tables that is the states, tables and views of every match, 700,000 objects: a pause of
0.6-0.9 s, with nothing found to free (bench/load.py). Three things keep passes small:

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
* A full pass as soon as ``FULL_AFTER`` objects were promoted since the last one. Python's
  own rule waits until the old generation grew by a quarter of what the last full pass
  found alive: everything this hook then froze, so at 1,000 tables the next pass waited
  for 225,000 new objects and walked up to 930,000 (0.9 s). Asked for in time, a full
  pass walks about as many objects as a young one.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Mapping

# Objects promoted to the old generation since the last full pass that call for the next:
# a pass walks them at about a microsecond each on a quiet machine (bench load's census).
FULL_AFTER = 50_000
# The longest the young and the middle generation go without a pass (``pace``). Measuring
# their sizes instead (``gc.get_objects``) cost 4 ms a look at 300 tables, busy machine.
YOUNG_EVERY = 0.25
MIDDLE_EVERY = 0.5


class FreezeSurvivors:
    """A ``gc.callbacks`` hook: after each full collection, freeze its survivors; with a
    ``loop``, ask it for a full collection once ``full_after`` objects reached the old
    generation (a collection cannot start inside another one's callback)."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop | None = None, full_after: int = FULL_AFTER
    ) -> None:
        self.freezes = 0
        self.asked = 0  # full passes asked for before Python's own rule would start one
        self.full_after = full_after
        self._loop = loop
        self._pending = False
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
            self._pending = False
        elif generation == 1 and self._loop is not None and not self._pending:
            # A middle pass just promoted its survivors: the old generation holds what came
            # since the last freeze (a list of pointers, built every few seconds).
            self._ask_if_due(self._loop)

    def _ask_if_due(self, loop: asyncio.AbstractEventLoop) -> None:
        if len(gc.get_objects(2)) <= self.full_after:
            return
        self._pending = True
        try:
            # Thread-safe: a pass may run in a database driver's thread.
            loop.call_soon_threadsafe(self._collect)
        except RuntimeError:  # the loop closed meanwhile: nothing left to serve
            self._pending = False

    def _collect(self) -> None:
        if self._pending and self in gc.callbacks:
            self.asked += 1
            gc.collect()

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)


def collect_if_due(hook: FreezeSurvivors, now: float) -> int | None:
    """Start the pass of the oldest of the young and middle generations that went too long
    without one (which it returns)."""
    if now - hook.walked_at[1] >= MIDDLE_EVERY:
        gc.collect(1)
        return 1
    if now - hook.walked_at[0] >= YOUNG_EVERY:
        gc.collect(0)
        return 0
    return None


async def pace(hook: FreezeSurvivors) -> None:
    """Keep young and middle passes short for as long as the process runs."""
    while True:
        await asyncio.sleep(YOUNG_EVERY)
        collect_if_due(hook, time.monotonic())


def settle(
    *,
    freeze: bool,
    thresholds: tuple[int, int, int] | None,
    loop: asyncio.AbstractEventLoop | None = None,
) -> FreezeSurvivors | None:
    """The end of start-up: freeze what start-up built and, with ``freeze``, every full
    collection's survivors from now on (the hook returned, to remove at close), with full
    passes asked of ``loop`` before they grow long; set the thresholds."""
    hook = None
    if freeze:
        gc.collect()
        gc.freeze()
        hook = FreezeSurvivors(loop)
        hook.install()
    if thresholds is not None:
        gc.set_threshold(*thresholds)
    return hook
