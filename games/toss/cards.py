"""The Toss Your Cookies deck and dice, from ``data/toss_your_cookies.toml``."""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable
from functools import cache, cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core.cards import DATA_DIR
from games.core.text import Text, joined, t, tc

WILD, HALF, MILK = "wild", "half", "milk"
ActionFace = Literal["swap", "left", "right", "toss"]
NumberFace = Literal["1", "2", "3", "all", "milk"]


class CardLook(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    emoji: str = ""

    @property
    def title(self) -> Text:
        """The card's name in the reader's language (the data's names are in the catalog)."""
        return Text(self.name, context="card")

    @property
    def label(self) -> Text:
        if not self.emoji:
            return self.title
        return tc("card", "{emoji} {name}", emoji=self.emoji, name=self.title)


class Cookie(CardLook):
    key: str = Field(pattern=r"^[a-z]+$", max_length=12)


class Dice(BaseModel):
    model_config = ConfigDict(frozen=True)

    action: tuple[ActionFace, ...]
    number: tuple[NumberFace, ...]


class TossCards(BaseModel):
    model_config = ConfigDict(frozen=True)

    hand_size: int = Field(ge=1)
    set_size: int = Field(ge=1)
    win_count: int = Field(ge=1)
    cookies: tuple[Cookie, ...]
    specials: dict[Literal["wild", "half", "milk"], CardLook]
    per_players: dict[Literal["wild", "half"], tuple[int, ...]]
    dice: Dice

    MIN_PLAYERS: int = 3

    @model_validator(mode="after")
    def _deals_evenly(self) -> TossCards:
        for players in range(self.MIN_PLAYERS, self.max_players + 1):
            if len(self.deck(players)) != players * self.hand_size:
                raise ValueError(f"the deck for {players} players does not deal evenly")
        return self

    @property
    def max_players(self) -> int:
        return min(len(self.cookies), self.MIN_PLAYERS + len(self.per_players["wild"]) - 1)

    @cached_property
    def looks(self) -> dict[str, CardLook]:
        return {**{c.key: c for c in self.cookies}, **self.specials}

    @cached_property
    def _order(self) -> dict[str, int]:
        return {key: i for i, key in enumerate(self.looks)}

    def label(self, card: str) -> Text:
        return self.looks[card].label

    def counted(self, card: str, n: int) -> Text:
        """A card and how many of it: "🌟 Wild ×2" (one: the label alone)."""
        return t("{card} ×{n}", card=self.label(card), n=n) if n > 1 else self.label(card)

    def labels(self, cards: Iterable[str]) -> Text:
        """ "🧁 Iced Sugar, 🌟 Wild ×2": the cards by kind, in the deck's order."""
        counted = Counter(cards)
        return joined(
            (
                self.counted(c, n)
                for c, n in sorted(counted.items(), key=lambda item: self._order[item[0]])
            ),
            ", ",
        )

    def rank(self, card: str) -> int:
        return self._order[card]

    def sort(self, cards: Iterable[str]) -> list[str]:
        return sorted(cards, key=self._order.__getitem__)

    def deck(self, players: int, cookies: Iterable[str] | None = None) -> list[str]:
        """One set of cookies per player, the milk, and the printed wilds and half-eaten."""
        index = players - self.MIN_PLAYERS
        chosen = list(cookies) if cookies is not None else [c.key for c in self.cookies]
        return [
            *(c for c in chosen[:players] for _ in range(self.set_size)),
            MILK,
            *[WILD] * self.per_players["wild"][index],
            *[HALF] * self.per_players["half"][index],
        ]

    def best_cookie(self, hand: Iterable[str]) -> tuple[str | None, int]:
        """The cookie a hand has most of, counting wilds, and how many."""
        counted = Counter(hand)
        natural = [(counted[c.key], -self._order[c.key], c.key) for c in self.cookies]
        count, _, best = max(natural)
        if count == 0:
            return None, counted[WILD]
        return best, count + counted[WILD]

    def wins(self, hand: Iterable[str]) -> bool:
        """Five of one cookie (wilds count) and the milk: Snickerdoodle!"""
        cards = list(hand)
        return MILK in cards and self.best_cookie(cards)[1] >= self.win_count


@cache
def toss_cards() -> TossCards:
    with (DATA_DIR / "toss_your_cookies.toml").open("rb") as handle:
        raw = tomllib.load(handle)
    raw.pop("source", None)
    return TossCards.model_validate(raw)
