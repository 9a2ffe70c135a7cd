"""Card catalogues: card data lives in ``data/*.toml`` and is validated here, once."""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable
from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core.text import Text, joined

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


class CardSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str = Field(pattern=r"^[a-z0-9_]+$", max_length=20)
    name: str
    kind: Literal["asset", "wild", "action"]
    count: int = Field(ge=0)
    value: int = Field(ge=0)
    emoji: str = ""
    weight: int = Field(default=1, ge=1)
    advanced: bool = False

    @cached_property
    def title(self) -> Text:
        """The card's name in the reader's language (its English is ``name``; the catalog
        holds every catalogue's names under the context "card")."""
        return Text(self.name, context="card")

    @cached_property
    def label(self) -> Text:
        """Its emoji and name: "🥇 Gold"."""
        return joined((self.emoji, self.title), " ") if self.emoji else self.title


class Catalogue(BaseModel):
    model_config = ConfigDict(frozen=True)

    cards: tuple[CardSpec, ...]

    @model_validator(mode="after")
    def _keys_unique(self) -> Catalogue:
        keys = [c.key for c in self.cards]
        if len(keys) != len(set(keys)):
            raise ValueError("card keys must be unique")
        return self

    def __getitem__(self, key: str) -> CardSpec:
        return self._by_key[key]

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    # Plain dicts, cached on first use: the model is frozen, so they never go stale, and
    # lookups here are the engines' innermost loop.
    @cached_property
    def _by_key(self) -> dict[str, CardSpec]:
        return {c.key: c for c in self.cards}

    @cached_property
    def _order(self) -> dict[str, int]:
        return {c.key: i for i, c in enumerate(self.cards)}

    @cached_property
    def titles(self) -> dict[str, Text]:
        return {c.key: c.title for c in self.cards}

    @cached_property
    def values(self) -> dict[str, int]:
        return {c.key: c.value for c in self.cards}

    @cached_property
    def wilds(self) -> frozenset[str]:
        return frozenset(c.key for c in self.cards if c.kind == "wild")

    @cached_property
    def actions(self) -> frozenset[str]:
        return frozenset(c.key for c in self.cards if c.kind == "action")

    @cached_property
    def labels(self) -> dict[str, Text]:
        return {c.key: c.label for c in self.cards}

    def order(self, key: str) -> int:
        return self._order[key]

    def sort(self, keys: Iterable[str]) -> list[str]:
        return sorted(keys, key=self.order)

    def deck(self, *, advanced: bool = False, remove: Counter[str] | None = None) -> list[str]:
        """Every card of the chosen rules, in catalogue order (shuffle it yourself)."""
        remove = remove or Counter()
        return [
            c.key
            for c in self.cards
            if advanced or not c.advanced
            for _ in range(max(0, c.count - remove[c.key]))
        ]

    def value_of(self, keys: Iterable[str]) -> int:
        values = self.values
        return sum(values[k] for k in keys)


@cache
def load_catalogue(name: str) -> Catalogue:
    with (DATA_DIR / f"{name}.toml").open("rb") as handle:
        raw = tomllib.load(handle)
    return Catalogue.model_validate({"cards": raw["cards"]})
