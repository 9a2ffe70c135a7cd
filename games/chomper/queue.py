"""The queue of cards played this turn, and the Produced Number they make, in order."""

from __future__ import annotations

from pydantic import BaseModel

from games.chomper.cards import MAIN_ACTIONS, WITH_NUMBER
from games.chomper.state import Entry
from games.core.text import Words, joined, t

ARITHMETIC = {"add": "+", "subtract": "−", "multiply": "×"}
# The trail's two steps in words (made once: the search's playouts settle many turns).
REVERSED, FLIPPED = t("reversed"), t("stack flipped")


class Produced(BaseModel):
    number: int = 0
    reverse: bool = False
    flips: int = 0
    trail: Words = ""

    @property
    def amount(self) -> int:
        """Cookies the Active Player takes (negative: gives back)."""
        return -self.number if self.reverse else self.number


def sets_number(entry: Entry) -> bool:
    return entry.acts_as.isdigit() or entry.acts_as == "roll"


def is_main(entry: Entry) -> bool:
    return sets_number(entry) or entry.acts_as in MAIN_ACTIONS


def produced(queue: list[Entry]) -> Produced:
    """The running calculation: each card acts on the number so far, in the order played."""
    # in locals, the model made once at the end: the search's playouts run this for every
    # option of every move, and each change of a model's field goes through pydantic
    number, reverse, flips = 0, False, 0
    parts: list[str] = []  # sums (no words) and REVERSED, FLIPPED
    for entry in queue:
        if entry.vetoed:
            continue
        kind, n = entry.acts_as, entry.choice
        if sets_number(entry):
            number = n or 0
            parts.append(str(n))
        elif kind in WITH_NUMBER and n is not None:
            number = {"add": number + n, "subtract": number - n, "multiply": number * n}[kind]
            parts.append(f"{ARITHMETIC[kind]}{n} = {number}")
        elif kind == "double":
            number *= 2
            parts.append(f"×2 = {number}")
        elif kind == "negate":
            number = -number
            parts.append(f"×−1 = {number}")
        elif kind == "reverse":
            reverse = not reverse
            parts.append(REVERSED)
        elif kind == "flip":
            flips += 1
            parts.append(FLIPPED)
    trail = joined(parts, " → ") if parts else ""
    return Produced(number=number, reverse=reverse, flips=flips, trail=trail)
