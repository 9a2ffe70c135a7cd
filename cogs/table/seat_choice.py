"""The lobby's **Choose deck** select for a player's own seat, and the private select of
their saved decks it opens (a public message cannot list anyone's own decks)."""

from __future__ import annotations

import re

import discord

from bot.errors import UserError
from bot.service import MatchService
from bot.service.decks import MINE
from bot.store import DeckRecord
from cogs import render
from cogs.components import (
    MID,
    GuardedClick,
    components_view,
    person,
    service_of,
)
from cogs.table.buttons import clicks_of
from games.core.protocol import SeatChoosing

MY_LISTS = "mine"  # the Choose deck entry that opens the player's own decks


class SeatChoiceSelect(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"cj:seatpick:{MID}",
):
    """The lobby's select for a player's own seat: a ready list, or one of their saved ones
    (which opens a private select, since a public message cannot list anyone's own decks)."""

    def __init__(self, match_id: str, select: discord.ui.Select) -> None:
        super().__init__(select)
        self.match_id = match_id

    @classmethod
    def build(cls, match_id: str, game: SeatChoosing) -> SeatChoiceSelect:
        choice = game.seat_choice
        options = [
            discord.SelectOption(label=render.clip(f"{label} (ready {choice.noun})", 100), value=v)
            for v, label in choice.ready
        ]
        options.append(discord.SelectOption(label=f"One of my {choice.noun}s…", value=MY_LISTS))
        return cls(
            match_id,
            discord.ui.Select(
                custom_id=f"cj:seatpick:{match_id}",
                placeholder=f"{choice.title} (for your own seat)",
                options=options[: render.SELECT_OPTIONS],
            ),
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> SeatChoiceSelect:
        return cls(match["mid"], item)

    async def _run(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # type: ignore[attr-defined]
        if not values:
            raise UserError("Pick one of the decks.")
        service = service_of(interaction)
        if values[0] != MY_LISTS:
            # The answer shows the pick at once.
            chosen = service.choose(self.match_id, person(interaction), values[0])
            await clicks_of(interaction).on_table(interaction, self.match_id, chosen)
            return
        record = await service.get(self.match_id)
        game = service.game_of(record)
        if not isinstance(game, SeatChoosing):
            raise UserError(f"{game.name} has nothing to choose per player.")
        if record.seat_of(interaction.user.id) is None:
            raise UserError("Press **Join** first, then choose your deck.")
        mine = [
            d
            for d in await service.decks(interaction.user.id)
            if d.catalogue == game.seat_choice.catalogue
        ]
        if not mine:
            raise UserError(
                "You have no saved decks yet: /deck copy or /deck import makes one. "
                "A ready deck needs no set-up."
            )
        view = components_view()
        view.add_item(MyListSelect.build(self.match_id, service, mine))
        await interaction.response.send_message(
            "Which of your decks do you play at this table?", view=view, ephemeral=True
        )


class MyListSelect(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"cj:mypick:{MID}",
):
    """A private select of the player's own decks, from the lobby's Choose deck."""

    def __init__(self, match_id: str, select: discord.ui.Select) -> None:
        super().__init__(select)
        self.match_id = match_id

    @classmethod
    def build(cls, match_id: str, service: MatchService, decks: list[DeckRecord]) -> MyListSelect:
        options = []
        for deck in decks[: render.SELECT_OPTIONS]:
            draft = " (draft: cannot be played)" if service.deck_problems(deck) else ""
            options.append(
                discord.SelectOption(label=f"{deck.name}{draft}"[:100], value=MINE + deck.name)
            )
        return cls(
            match_id,
            discord.ui.Select(
                custom_id=f"cj:mypick:{match_id}", placeholder="Your decks", options=options
            ),
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> MyListSelect:
        return cls(match["mid"], item)

    async def _run(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # type: ignore[attr-defined]
        if not values or not values[0].startswith(MINE):
            raise UserError("Pick one of your decks.")
        service = service_of(interaction)
        deck = await service.deck(interaction.user.id, values[0].removeprefix(MINE))
        await service.choose(self.match_id, person(interaction), MINE + deck.name)
        text = render.deck_picked(deck.name, service.deck_problems(deck))
        await interaction.response.edit_message(content=text, view=None)
