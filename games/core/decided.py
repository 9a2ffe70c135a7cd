"""Decisions built once per handed-out state (see ``DecisionCache``)."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Protocol

from games.core.protocol import Decision, GameState


class _Decides(Protocol):
    def decisions(self, state: GameState) -> Sequence[Decision]: ...


class DecisionCache:
    """Decisions built once per state object, and forgotten with it.

    A move used to rebuild ``decisions(state)`` 8-10 times (the click, the timers, the
    ping, the bots, the hand, the table, and each view's turn markers), each a tree of
    pydantic models. A state ``apply`` handed out is never changed again, so the decisions
    of one object stay true; they are keyed by the object's identity and dropped by a weak
    reference when the state dies (states are not hashable). Never use it on the private
    copy ``play`` is changing."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[weakref.ref[GameState], tuple[Decision, ...]]] = {}

    def get(self, game: _Decides, state: GameState) -> tuple[Decision, ...]:
        key = id(state)
        hit = self._by_id.get(key)
        if hit is not None and hit[0]() is state:
            return hit[1]
        found = tuple(game.decisions(state))
        self._by_id[key] = (weakref.ref(state, lambda _, key=key: self._drop(key)), found)
        return found

    def _drop(self, key: int) -> None:
        self._by_id.pop(key, None)

    def __len__(self) -> int:
        return len(self._by_id)
