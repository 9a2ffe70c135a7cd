"""What every game's view shares: whose turn it is, and the viewer's own hand.

Whose turn is said one way for every game: the seats ``decisions(state)`` waits on. Every
table view carries ``to_move`` and its panel draws turn markers and "waiting for" lines
from it alone, so the table can never disagree with the decisions the service acts on; a
finished table has nobody to move, and a front end closes a cancelled one with ``closed``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from games.core.protocol import Decision
from games.core.text import Words


class TableView(BaseModel):
    """The part of every view a front end may rely on."""

    to_move: tuple[int, ...] = ()  # who must decide now (public: it is on every table)
    hand: list[str] | None = None  # the viewer's own cards; None for a spectator
    # The viewer is out of the game while the others play on, said in the game's words
    # ("☠️ You took the poison cookie: you are out."): no move will come to them.
    out: Words = ""

    @property
    def empty_handed(self) -> bool:
        return self.hand is not None and not self.hand


V = TypeVar("V", bound=TableView)


def to_move(decisions: Sequence[Decision], *, over: bool = False) -> tuple[int, ...]:
    """The seats the table waits on: optional chances hold nobody up; an ended match none."""
    if over:
        return ()
    return tuple(sorted({d.seat for d in decisions if not d.optional}))


def closed(view: V) -> V:
    """The same view with nobody to move: a table that will see no more moves."""
    return view.model_copy(update={"to_move": ()})
