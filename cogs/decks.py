"""Decks in Discord: ``/deck list|show|import|export|copy|delete`` and a generic ``/card``
for games that can look cards up (the lobby's **Choose deck** is in cogs.table).

Deck commands answer privately: a deck list is its owner's business until they play it.
Decks belong to the user, not to the server, so the same ones follow them everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.service import MatchService
from bot.service.decks import MINE, MOST_DECKS, NAME_LONGEST
from bot.store import DeckRecord
from cogs import render
from cogs.components import guarded, service_of, tell
from games import GAMES
from games.core.protocol import CardLookup, SeatChoosing
from games.core.translations import ENGLISH
from games.core.words import plural

if TYPE_CHECKING:
    from bot.client import CookieJar

DECK_GAME = "braverse"  # the one game with decks; the service and the lobby are generic
LIST_LONGEST = 4000  # a pasted list (Discord's limit for a paragraph text input)
LOOKUP_CHOICES = [
    app_commands.Choice(name=game.name, value=key)
    for key, game in GAMES.items()
    if isinstance(game, CardLookup)
]
MATCHES_SHOWN = 8  # the cards named when what /card was given fits several


def deck_game() -> SeatChoosing:
    game = GAMES[DECK_GAME]
    assert isinstance(game, SeatChoosing)
    return game


def status_line(deck: DeckRecord, problems: list[str]) -> str:
    if problems:
        return f"📝 draft ({plural(len(deck.cards), 'card')}): cannot be played yet"
    return f"✅ ready to play ({plural(len(deck.cards), 'card')})"


# --- autocomplete (also /play's deck:) ----------------------------------------------------
async def my_decks(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    typed = current.casefold()
    decks = await service_of(interaction).decks(interaction.user.id)
    return [
        app_commands.Choice(name=d.name, value=d.name) for d in decks if typed in d.name.casefold()
    ][:25]


async def any_deck(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Ready decks first, then the user's own."""
    typed = current.casefold()
    ready = [
        app_commands.Choice(name=f"{label} (ready deck)", value=label)
        for _, label in deck_game().seat_choice.ready
        if typed in label.casefold()
    ]
    return (ready + await my_decks(interaction, current))[:25]


# --- /deck ------------------------------------------------------------------------------------
IMPORT_FORM = "cj:deckimport"
NAME_FIELD, CARDS_FIELD = "deck:name", "deck:cards"


class ImportDeck(discord.ui.Modal, title="Import a deck"):
    """The pasted list: one line per card number (``4 S1-007 Flare Juggler``).

    Every form shares one custom_id and is answered by ``Decks.on_interaction`` from the
    submitted values alone, so a form opened before a restart still works after it (and
    the store holds one form at most, however many are left unsent)."""

    def __init__(self, name: str = "") -> None:
        super().__init__(timeout=None, custom_id=IMPORT_FORM)
        self.add_item(
            discord.ui.TextInput(
                label="Deck name",
                custom_id=NAME_FIELD,
                default=name[:NAME_LONGEST] or None,
                max_length=NAME_LONGEST,
            )
        )
        self.add_item(
            discord.ui.TextInput(
                label="Cards, one line per card number",
                custom_id=CARDS_FIELD,
                style=discord.TextStyle.paragraph,
                placeholder="4 S1-001 Cinder Scout\n4x S1-002\nFlare Juggler x3",
                max_length=LIST_LONGEST,
            )
        )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Answered by ``Decks.on_interaction``, which also sees forms from before a restart."""


def submitted(components: list[dict[str, Any]]) -> dict[str, str]:
    """A modal's text values by custom_id (in action rows or labels)."""
    found: dict[str, str] = {}
    for component in components:
        inner = component.get("components") or (
            [component["component"]] if "component" in component else []
        )
        found.update(submitted(inner))
        if "custom_id" in component and "value" in component:
            found[component["custom_id"]] = component["value"]
    return found


async def import_submitted(interaction: discord.Interaction, values: dict[str, str]) -> None:
    service = service_of(interaction)
    deck, problems = await service.import_deck(
        interaction.user.id, DECK_GAME, values.get(NAME_FIELD, ""), values.get(CARDS_FIELD, "")
    )
    if problems:
        embed = discord.Embed(
            title=render.clip(f"📝 Saved {deck.name} as a draft", render.TITLE),
            description=render.clip(
                f"{plural(len(deck.cards), 'card')}. It cannot be played until these are "
                "fixed (import it again under the same name):\n"
                + render.problem_lines(problems, ENGLISH),
                render.DESCRIPTION,
            ),
            colour=render.COLOURS["battle"],
        )
    else:
        embed = discord.Embed(
            title=render.clip(f"💾 Saved {deck.name}", render.TITLE),
            description=f"{plural(len(deck.cards), 'card')}: ready to play. Pick it with "
            "**Choose deck** in a lobby, or `/play deck:`.",
            colour=render.COLOURS["turn"],
        )
    await interaction.response.send_message(embed=embed, ephemeral=True)


class Decks(commands.Cog):
    deck = app_commands.Group(name="deck", description="Your Braverse decks (on every server).")

    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @property
    def service(self) -> MatchService:
        return self.bot.service

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})  # type: ignore[arg-type]
        if data.get("custom_id") != IMPORT_FORM:
            return
        values = submitted(list(data.get("components", [])))
        await guarded(interaction, import_submitted(interaction, values))

    async def find(self, user_id: int, name: str) -> tuple[str, list[str]]:
        """A deck's name and cards: the user's own, or a ready deck by name."""
        value = await self.service.pick_value(DECK_GAME, user_id, name)
        cards = await self.service.picked_cards(DECK_GAME, user_id, value)
        ready = dict(deck_game().seat_choice.ready)
        return value.removeprefix(MINE) if value.startswith(
            MINE
        ) else f"{ready[value]} (ready deck)", cards

    # --- commands --------------------------------------------------------------------------
    @deck.command(name="list", description="Your decks, and whether each can be played.")
    async def list_(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            decks = await self.service.decks(interaction.user.id)
            if not decks:
                await tell(
                    interaction,
                    "You have no decks yet. /deck copy starts one from a ready deck; "
                    "/deck import reads a list you paste. Ready decks need no set-up.",
                )
                return
            lines = [
                f"• **{d.name}** · {status_line(d, self.service.deck_problems(d))}" for d in decks
            ]
            embed = discord.Embed(
                title="🃏 Your decks",
                description=render.clip("\n".join(lines), render.DESCRIPTION),
                colour=render.COLOURS["neutral"],
            )
            ready = ", ".join(label for _, label in deck_game().seat_choice.ready)
            embed.set_footer(text=f"{len(decks)}/{MOST_DECKS} decks · ready decks: {ready}")
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    @deck.command(name="show", description="The cards of one of your decks (or a ready deck).")
    @app_commands.describe(name="Which deck")
    @app_commands.autocomplete(name=any_deck)
    async def show(self, interaction: discord.Interaction, name: str) -> None:
        async def run() -> None:
            shown, cards = await self.find(interaction.user.id, name)
            game = deck_game()
            problems = game.list_problems(cards)
            embed = discord.Embed(
                title=render.clip(f"🃏 {shown}", render.TITLE),
                description=render.clip(game.write_list(cards), render.DESCRIPTION),
                colour=render.COLOURS["battle" if problems else "turn"],
            )
            status = "📝 Draft: cannot be played yet" if problems else "✅ Ready to play"
            embed.add_field(
                name=f"{status} · {plural(len(cards), 'card')}",
                value=render.clip(
                    render.problem_lines(problems, ENGLISH) or "Legal.", render.FIELD_VALUE
                ),
            )
            embed.set_footer(text="/card tells what a card does · /deck export to copy it")
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    @deck.command(name="export", description="A deck as text to copy, share or import again.")
    @app_commands.describe(name="Which deck")
    @app_commands.autocomplete(name=any_deck)
    async def export(self, interaction: discord.Interaction, name: str) -> None:
        async def run() -> None:
            shown, cards = await self.find(interaction.user.id, name)
            embed = discord.Embed(
                title=render.clip(f"📤 {shown}", render.TITLE),
                description=render.clip(
                    f"```\n{deck_game().write_list(cards)}```", render.DESCRIPTION
                ),
                colour=render.COLOURS["neutral"],
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    @deck.command(name="import", description="Paste a deck list (saved even if not legal yet).")
    @app_commands.describe(name="The deck's name (the same name replaces that deck)")
    @app_commands.autocomplete(name=my_decks)
    async def import_(self, interaction: discord.Interaction, name: str | None = None) -> None:
        await guarded(interaction, interaction.response.send_modal(ImportDeck(name or "")))

    @deck.command(name="copy", description="A new deck from a ready deck (or one of yours).")
    @app_commands.describe(source="The deck to start from", name="The new deck's name")
    @app_commands.autocomplete(source=any_deck)
    async def copy(self, interaction: discord.Interaction, source: str, name: str) -> None:
        async def run() -> None:
            deck = await self.service.copy_deck(interaction.user.id, DECK_GAME, source, name)
            await tell(
                interaction,
                f"💾 Saved **{deck.name}** ({plural(len(deck.cards), 'card')}) from {source}. "
                "/deck export gives its list to edit and import again.",
            )

        await guarded(interaction, run())

    @deck.command(name="delete", description="Delete one of your decks.")
    @app_commands.describe(name="Which deck")
    @app_commands.autocomplete(name=my_decks)
    async def delete(self, interaction: discord.Interaction, name: str) -> None:
        async def run() -> None:
            deck = await self.service.delete_deck(interaction.user.id, name)
            await tell(interaction, f"🗑️ Deleted **{deck.name}**.")

        await guarded(interaction, run())

    # --- /card -----------------------------------------------------------------------------
    async def card_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found: list[tuple[str, str]] = []
        for game in GAMES.values():
            if isinstance(game, CardLookup):
                found += game.lookup_names(current)
        if not found and current.strip():  # a typo: offer the names it is close to
            for game in GAMES.values():
                if isinstance(game, CardLookup):
                    found += game.lookup_similar(current)
        return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in found[:25]]

    @app_commands.command(name="card", description="What a card says and does.")
    @app_commands.describe(name="A card's number or name", game="Which game (default: any)")
    @app_commands.autocomplete(name=card_names)
    @app_commands.choices(game=LOOKUP_CHOICES)
    async def card(
        self,
        interaction: discord.Interaction,
        name: str,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        async def run() -> None:
            keys = [game.value] if game else [c.value for c in LOOKUP_CHOICES]
            for key in keys:
                looker = GAMES[key]
                assert isinstance(looker, CardLookup)
                text = looker.lookup(name)
                if text is not None:
                    title, _, body = text.partition("\n")
                    embed = discord.Embed(
                        title=render.clip(title, render.TITLE),
                        description=render.clip(body, render.DESCRIPTION) or None,
                        colour=render.COLOURS["neutral"],
                    )
                    embed.set_footer(text=GAMES[key].name)
                    await interaction.response.send_message(embed=embed, ephemeral=True)
                    return
            raise UserError(not_one_card(name, keys))

        await guarded(interaction, run())


def not_one_card(name: str, keys: list[str]) -> str:
    """Why /card showed no card: none fits what was typed, or several do (named, so the
    next try can be exact)."""
    fits = [
        label
        for key in keys
        if isinstance(looker := GAMES[key], CardLookup)
        for label, _ in looker.lookup_names(name)
    ]
    typed = render.clip(name.strip(), 40)
    if len(fits) > 1:
        shown = ", ".join(fits[:MATCHES_SHOWN]) + (" …" if len(fits) > MATCHES_SHOWN else "")
        return f"'{typed}' fits {len(fits)} cards: {shown}. Type more of the name or a number."
    close = [
        label
        for key in keys
        if isinstance(looker := GAMES[key], CardLookup)
        for label, _ in looker.lookup_similar(name)
    ]
    if close:
        return f"No card called '{typed}'. Did you mean {' or '.join(close)}?"
    return f"No card called '{typed}'. Type a number like S1-007 or a word of a name."


async def setup(bot: CookieJar) -> None:
    await bot.add_cog(Decks(bot))
