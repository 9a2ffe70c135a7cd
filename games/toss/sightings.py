"""What every player at a Toss table saw happen: where the milk went, who grabbed what.

A player at a real table remembers that the milk was handed to Cleo, or that Ben grabbed
two Gingerbread in the last scramble; a bot may too. These are sightings, kept in the
state because all seats share them (nothing here is a secret), never certainties: a card
passed face down may have moved on since. Whole hands that change places (Pass All, Swap
All) carry their sightings with them.
"""

from __future__ import annotations

from games.toss.cards import HALF, MILK, WILD
from games.toss.state import TossState


def forget_all(state: TossState) -> None:
    """A new deal: nobody has seen anything yet."""
    state.milk_seen = None
    state.grabbed = [[] for _ in state.names]


def saw_milk(state: TossState, seat: int | None) -> None:
    """The milk was seen going to ``seat`` (None: it went where not everyone saw)."""
    state.milk_seen = seat


def saw_grab(state: TossState, seat: int, card: str) -> None:
    """``seat`` grabbed ``card`` face up in a scramble."""
    if card == MILK:
        saw_milk(state, seat)
    elif card not in (WILD, HALF):
        if len(state.grabbed) != len(state.names):  # a match saved before sightings
            state.grabbed = [[] for _ in state.names]
        state.grabbed[seat].append(card)


def hands_moved(state: TossState, to: dict[int, int]) -> None:
    """Whole hands changed places (seat -> seat): what was seen of a hand goes with it."""
    if state.milk_seen in to:
        state.milk_seen = to[state.milk_seen]
    if len(state.grabbed) == len(state.names):
        moved = list(state.grabbed)
        for source, target in to.items():
            moved[target] = state.grabbed[source]
        state.grabbed = moved


def collects(grabbed: list[str]) -> str | None:
    """The cookie a seat was seen grabbing most (the latest on a tie): what it likely
    collects; None if it grabbed none."""
    if not grabbed:
        return None
    return max(reversed(grabbed), key=grabbed.count)
