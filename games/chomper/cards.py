"""Cookie Chomper's cards, from ``data/cookie_chomper.toml``: 32 number cards (0, and one
card for every non-empty set of 1-5) and one card of each action."""

from __future__ import annotations

import itertools
import tomllib
from functools import cache, cached_property

from pydantic import BaseModel, ConfigDict, Field

from games.core.cards import DATA_DIR
from games.core.words import brief

# Cards a turn starts with; everything else is a modifier, played in the modifier round.
MAIN_ACTIONS = ("roll", "seek", "skip", "mulligan")
WITH_NUMBER = ("add", "subtract", "multiply")  # played together with a number card


class ActionSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    emoji: str
    text: str


class ChomperCards(BaseModel):
    model_config = ConfigDict(frozen=True)

    numbers: tuple[int, ...]
    stack: int = Field(ge=1)
    hand: int = Field(ge=1)
    chain_hand: int = Field(ge=1)
    hoarder_cookies: int = Field(ge=1)
    bandits: tuple[int, ...]
    actions: dict[str, ActionSpec]

    def brief(self, key: str) -> str:
        """What an action card does, short enough for a select option's description."""
        spec = self.actions.get(key)
        return brief(spec.text) if spec else ""

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

    def label(self, card: str) -> str:
        if self.is_number(card):
            return "🔢 " + "/".join(card)
        spec = self.actions[card]
        return f"{spec.emoji} {spec.name}"

    def deck(self, *, flip: bool, numbers_only: bool = False) -> list[str]:
        cards = list(self.number_cards)
        if not numbers_only:
            cards += [a for a in self.actions if flip or a != "flip"]
        return cards


@cache
def chomper_cards() -> ChomperCards:
    with (DATA_DIR / "cookie_chomper.toml").open("rb") as handle:
        return ChomperCards.model_validate(tomllib.load(handle))
