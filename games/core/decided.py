"""Values built once per handed-out state (see ``PerState``): its decisions, its table."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

from games.core.protocol import GameState

T = TypeVar("T")


class PerState(Generic[T]):
    """A value of a state built once per state object, and forgotten with it.

    A move used to rebuild ``decisions(state)`` 8-10 times (the click, the timers, the
    ping, the bots, the hand, the table, and each view's turn markers), each a tree of
    pydantic models. A state ``apply`` handed out is never changed again, so what is
    derived from one object stays true; it is keyed by the object's identity and dropped
    by a weak reference when the state dies (states are not hashable). Never use it on
    the private copy ``play`` is changing. Callers share the value: they must not change it.
    """

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[weakref.ref[GameState], T]] = {}

    def get(self, state: GameState, make: Callable[[], T]) -> T:
        key = id(state)
        hit = self._by_id.get(key)
        if hit is not None and hit[0]() is state:
            return hit[1]
        found = make()
        self._by_id[key] = (weakref.ref(state, lambda _, key=key: self._drop(key)), found)
        return found

    def _drop(self, key: int) -> None:
        self._by_id.pop(key, None)

    def __len__(self) -> int:
        return len(self._by_id)
