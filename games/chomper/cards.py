"""Cookie Chomper's cards, from ``data/cookie_chomper.toml``: 32 number cards (0, and one
card for every non-empty set of 1-5) and one card of each action."""

from __future__ import annotations

import itertools
import tomllib
from functools import cache, cached_property

from pydantic import BaseModel, ConfigDict, Field

from games.core.cards import DATA_DIR
from games.core.text import Text, tc
from games.core.words import brief

# Cards a turn starts with; everything else is a modifier, played in the modifier round.
MAIN_ACTIONS = ("roll", "seek", "skip", "mulligan")
WITH_NUMBER = ("add", "subtract", "multiply")  # played together with a number card


class ActionSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    emoji: str
    text: str

    # The data's words are in the catalog (devtools/catalog.py reads this file too).
    @property
    def title(self) -> Text:
        return Text(self.name, context="card")

    @property
    def says(self) -> Text:
        """What the card does, in full (for /rules)."""
        return Text(self.text, context="card text")


class ChomperCards(BaseModel):
    model_config = ConfigDict(frozen=True)

    numbers: tuple[int, ...]
    stack: int = Field(ge=1)
    hand: int = Field(ge=1)
    chain_hand: int = Field(ge=1)
    hoarder_cookies: int = Field(ge=1)
    bandits: tuple[int, ...]
    actions: dict[str, ActionSpec]

    def brief(self, key: str) -> Text | str:
        """What an action card does, short enough for a select option's description (each
        translation of the cut English is held to 100 characters too)."""
        spec = self.actions.get(key)
        return Text(brief(spec.text), context="card brief") if spec else ""

    @cached_property
    def number_cards(self) -> tuple[str, ...]:
        subsets = [
            "".join(str(n) for n in combo)
            for size in range(1, len(self.numbers) + 1)
            for combo in itertools.combinations(self.numbers, size)
        ]
        return ("0", *subsets)

    @staticmethod
    def is_number(card: str) -> bool:
        return card.isdigit()  # number cards are keyed by their numbers: "0", "135"

    @staticmethod
    def numbers_on(card: str) -> tuple[int, ...]:
        return tuple(int(d) for d in card)

    def opposites_of(self, card: str) -> tuple[int, ...]:
        """A number card's choices under Opposites: 1-5 not on it; on the 1/2/3/4/5 card, 0."""
        others = tuple(n for n in self.numbers if n not in self.numbers_on(card))
        return others or (0,)

    def label(self, card: str) -> Text | str:
        """ "🔢 1/3/5" (numbers only: no words), or an action card's emoji and name."""
        if self.is_number(card):
            return "🔢 " + "/".join(card)
        spec = self.actions[card]
        return tc("card", "{emoji} {name}", emoji=spec.emoji, name=spec.title)

    def deck(self, *, flip: bool, numbers_only: bool = False) -> list[str]:
        cards = list(self.number_cards)
        if not numbers_only:
            cards += [a for a in self.actions if flip or a != "flip"]
        return cards


@cache
def chomper_cards() -> ChomperCards:
    with (DATA_DIR / "cookie_chomper.toml").open("rb") as handle:
        return ChomperCards.model_validate(tomllib.load(handle))
