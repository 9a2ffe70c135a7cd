"""Decks, a user's saved lists, the same on every server: both backends' reads and writes."""

from __future__ import annotations

import json

from bot.store.models import DeckRecord
from bot.store.sql import Executor, Step

# A new name only under the limit; the same name is replaced (its created_at kept).
_SAVE = (
    "INSERT INTO decks (user_id, name, catalogue, cards, created_at, updated_at) "
    "SELECT :user_id, :name, :catalogue, :cards, :created_at, :updated_at WHERE "
    "(SELECT count(*) FROM decks WHERE user_id = :user_id) < :most OR EXISTS "
    "(SELECT 1 FROM decks WHERE user_id = :user_id AND name = :name) "
    "ON CONFLICT (user_id, name) DO UPDATE SET catalogue = excluded.catalogue, "
    "cards = excluded.cards, updated_at = excluded.updated_at"
)


class DeckSQL(Executor):
    async def decks(self, user_id: int) -> list[DeckRecord]:
        rows = await self._fetch(
            "SELECT user_id, name, catalogue, cards, created_at, updated_at FROM decks "
            "WHERE user_id = :user ORDER BY name",
            {"user": user_id},
        )
        return [DeckRecord(**{**dict(row), "cards": json.loads(row["cards"])}) for row in rows]

    async def save_deck(self, deck: DeckRecord, most: int) -> bool:
        # Serialisable: two new names saved at once may not both count under the limit.
        (saved,) = await self._write(
            Step(_SAVE, {**deck.model_dump(), "cards": json.dumps(deck.cards), "most": most}),
            serializable=True,
        )
        return saved == 1

    async def delete_deck(self, user_id: int, name: str) -> bool:
        (gone,) = await self._write(
            Step(
                "DELETE FROM decks WHERE user_id = :user AND name = :name",
                {"user": user_id, "name": name},
            )
        )
        return gone == 1
