"""The garbage collector's work in a long-lived process, bounded.

CPython's full collection walks every tracked object the process holds. At 1,000 busy
tables that is the states, tables and views of every match, 700,000 objects: a pause of
0.6-0.8 s, with nothing found to free (bench/load.py). Two things keep the full pass small:

* ``gc.freeze()`` at the end of start-up: modules, card catalogues, commands live as long
  as the process; no collection walks them again.
* ``FreezeSurvivors``: after every full collection, what survived it is frozen too. A full
  pass then walks only what was promoted since the last one, never the whole heap again.
  Frozen objects are still freed by their reference counts the moment nothing holds them
  (a match's replaced state, a finished table), which is how nearly everything here dies;
  only a reference cycle among frozen objects would wait for ``gc.unfreeze()``, and the
  soak (``bench load --minutes 10``) shows no growth from it.
"""

from __future__ import annotations

import gc
from collections.abc import Mapping


class FreezeSurvivors:
    """A ``gc.callbacks`` hook: after each full collection, freeze its survivors."""

    def __init__(self) -> None:
        self.freezes = 0

    def __call__(self, phase: str, info: Mapping[str, int]) -> None:
        # At "stop" of a full pass every younger generation was merged into it and what is
        # left is alive: moving it out of the collector's sight allocates nothing.
        if phase == "stop" and info.get("generation") == 2:
            gc.freeze()
            self.freezes += 1

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)


def settle(*, freeze: bool, thresholds: tuple[int, int, int] | None) -> FreezeSurvivors | None:
    """The end of start-up: freeze what start-up built and, with ``freeze``, every full
    collection's survivors from now on (the hook returned, to remove at close); set the
    thresholds."""
    hook = None
    if freeze:
        gc.collect()
        gc.freeze()
        hook = FreezeSurvivors()
        hook.install()
    if thresholds is not None:
        gc.set_threshold(*thresholds)
    return hook
