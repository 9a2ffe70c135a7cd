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
from cogs.speech import label, personal, say
from games import GAMES
from games.core.protocol import CardLookup, SeatChoosing
from games.core.text import Text, plain, t, tc, tn

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


def cards(count: int) -> Text:
    return tn("{n} card", "{n} cards", n=count)


def status_line(deck: DeckRecord, problems: list[str]) -> Text:
    if problems:
        return t("📝 draft ({cards}): cannot be played yet", cards=cards(len(deck.cards)))
    return t("✅ ready to play ({cards})", cards=cards(len(deck.cards)))


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
    language = await personal(interaction)
    ready = [
        app_commands.Choice(
            name=label(t("{deck} (ready deck)", deck=name), language)[:100], value=str(name)
        )
        for _, name in deck_game().seat_choice.ready
        if typed in name.casefold() or typed in label(name, language).casefold()
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

    def __init__(self, language: str, name: str = "") -> None:
        title = label(t("Import a deck"), language)[:45]
        super().__init__(timeout=None, custom_id=IMPORT_FORM, title=title)
        self.add_item(
            discord.ui.TextInput(
                label=label(t("Deck name"), language)[:45],
                custom_id=NAME_FIELD,
                default=name[:NAME_LONGEST] or None,
                max_length=NAME_LONGEST,
            )
        )
        self.add_item(
            discord.ui.TextInput(
                label=label(t("Cards, one line per card number"), language)[:45],
                custom_id=CARDS_FIELD,
                style=discord.TextStyle.paragraph,
                placeholder=example_list(language),
                max_length=LIST_LONGEST,
            )
        )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Answered by ``Decks.on_interaction``, which also sees forms from before a restart."""


def example_list(language: str) -> str:
    """The form's example list, in the reader's language: a name after a card number is
    only a reminder (any language reads), while a name alone must be the English one, so
    the example names its cards by number."""
    reminder = label(tc("card", "Cinder Scout"), language)
    return "\n".join((f"4 S1-001 {reminder}", "4x S1-002", "S1-003 x3"))


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
    language = await personal(interaction)
    count = cards(len(deck.cards))
    if problems:
        said = t(
            "{cards}. It cannot be played until these are fixed (import it again under the "
            "same name):",
            cards=count,
        )
        embed = discord.Embed(
            title=render.clip(
                say(t("📝 Saved {deck} as a draft", deck=deck.name), language), render.TITLE
            ),
            description=render.clip(
                say(said, language) + "\n" + render.problem_lines(problems, language),
                render.DESCRIPTION,
            ),
            colour=render.COLOURS["battle"],
        )
    else:
        said = t(
            "{cards}: ready to play. Pick it with **Choose deck** in a lobby, or `/play deck:`.",
            cards=count,
        )
        embed = discord.Embed(
            title=render.clip(say(t("💾 Saved {deck}", deck=deck.name), language), render.TITLE),
            description=say(said, language),
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

    async def find(self, user_id: int, name: str) -> tuple[Text, list[str]]:
        """A deck's name and cards: the user's own, or a ready deck by name."""
        value = await self.service.pick_value(DECK_GAME, user_id, name)
        found = await self.service.picked_cards(DECK_GAME, user_id, value)
        if value.startswith(MINE):
            return plain(value.removeprefix(MINE)), found
        ready = dict(deck_game().seat_choice.ready)
        return t("{deck} (ready deck)", deck=render.game_words(ready[value])), found

    # --- commands --------------------------------------------------------------------------
    @deck.command(name="list", description="Your decks, and whether each can be played.")
    async def list_(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            decks = await self.service.decks(interaction.user.id)
            if not decks:
                await tell(
                    interaction,
                    t(
                        "You have no decks yet. /deck copy starts one from a ready deck; "
                        "/deck import reads a list you paste. Ready decks need no set-up."
                    ),
                )
                return
            language = await personal(interaction)
            lines = [
                t(
                    "• **{deck}** · {status}",
                    deck=d.name,
                    status=status_line(d, self.service.deck_problems(d)),
                )
                for d in decks
            ]
            embed = discord.Embed(
                title=say(t("🃏 Your decks"), language),
                description=render.clip(render.lines(lines, language), render.DESCRIPTION),
                colour=render.COLOURS["neutral"],
            )
            ready = render.commas(
                [render.game_words(name) for _, name in deck_game().seat_choice.ready]
            )
            footer = t(
                "{count}/{most} decks · ready decks: {ready}",
                count=len(decks),
                most=MOST_DECKS,
                ready=ready,
            )
            embed.set_footer(text=label(footer, language))
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    @deck.command(name="show", description="The cards of one of your decks (or a ready deck).")
    @app_commands.describe(name="Which deck")
    @app_commands.autocomplete(name=any_deck)
    async def show(self, interaction: discord.Interaction, name: str) -> None:
        async def run() -> None:
            shown, listed = await self.find(interaction.user.id, name)
            language = await personal(interaction)
            game = deck_game()
            problems = game.list_problems(listed)
            embed = discord.Embed(
                title=render.clip(say(t("🃏 {deck}", deck=shown), language), render.TITLE),
                description=render.clip(game.write_list(listed), render.DESCRIPTION),
                colour=render.COLOURS["battle" if problems else "turn"],
            )
            if problems:
                status = t("📝 Draft: cannot be played yet · {cards}", cards=cards(len(listed)))
            else:
                status = t("✅ Ready to play · {cards}", cards=cards(len(listed)))
            legal = render.problem_lines(problems, language) or say(t("Legal."), language)
            embed.add_field(
                name=render.clip(say(status, language), render.FIELD_NAME),
                value=render.clip(legal, render.FIELD_VALUE),
            )
            footer = t("/card tells what a card does · /deck export to copy it")
            embed.set_footer(text=say(footer, language))
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    @deck.command(name="export", description="A deck as text to copy, share or import again.")
    @app_commands.describe(name="Which deck")
    @app_commands.autocomplete(name=any_deck)
    async def export(self, interaction: discord.Interaction, name: str) -> None:
        async def run() -> None:
            shown, listed = await self.find(interaction.user.id, name)
            language = await personal(interaction)
            embed = discord.Embed(
                title=render.clip(say(t("📤 {deck}", deck=shown), language), render.TITLE),
                description=render.clip(
                    f"```\n{deck_game().write_list(listed)}```", render.DESCRIPTION
                ),
                colour=render.COLOURS["neutral"],
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await guarded(interaction, run())

    @deck.command(name="import", description="Paste a deck list (saved even if not legal yet).")
    @app_commands.describe(name="The deck's name (the same name replaces that deck)")
    @app_commands.autocomplete(name=my_decks)
    async def import_(self, interaction: discord.Interaction, name: str | None = None) -> None:
        async def run() -> None:
            language = await personal(interaction)
            await interaction.response.send_modal(ImportDeck(language, name or ""))

        await guarded(interaction, run())

    @deck.command(name="copy", description="A new deck from a ready deck (or one of yours).")
    @app_commands.describe(source="The deck to start from", name="The new deck's name")
    @app_commands.autocomplete(source=any_deck)
    async def copy(self, interaction: discord.Interaction, source: str, name: str) -> None:
        async def run() -> None:
            deck = await self.service.copy_deck(interaction.user.id, DECK_GAME, source, name)
            await tell(
                interaction,
                t(
                    "💾 Saved **{deck}** ({cards}) from {source}. /deck export gives its list "
                    "to edit and import again.",
                    deck=deck.name,
                    cards=cards(len(deck.cards)),
                    source=source,
                ),
            )

        await guarded(interaction, run())

    @deck.command(name="delete", description="Delete one of your decks.")
    @app_commands.describe(name="Which deck")
    @app_commands.autocomplete(name=my_decks)
    async def delete(self, interaction: discord.Interaction, name: str) -> None:
        async def run() -> None:
            deck = await self.service.delete_deck(interaction.user.id, name)
            await tell(interaction, t("🗑️ Deleted **{deck}**.", deck=deck.name))

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
                    language = await personal(interaction)
                    title, _, body = say(text, language).partition("\n")
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


def not_one_card(name: str, keys: list[str]) -> Text:
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
        shown = render.commas(fits[:MATCHES_SHOWN])
        if len(fits) > MATCHES_SHOWN:
            shown = t("{cards} …", cards=shown)
        return t(
            "'{typed}' fits {n} cards: {cards}. Type more of the name or a number.",
            typed=typed,
            n=len(fits),
            cards=shown,
        )
    close = [
        found
        for key in keys
        if isinstance(looker := GAMES[key], CardLookup)
        for found, _ in looker.lookup_similar(name)
    ]
    if close:
        return t(
            "No card called '{typed}'. Did you mean {cards}?",
            typed=typed,
            cards=_either(close),
        )
    return t(
        "No card called '{typed}'. Type a number like S1-007 or a word of a name.", typed=typed
    )


def _either(names: list[str]) -> Text:
    """ "A or B or C": the names a typo is close to."""
    line = plain(names[-1])
    for before in reversed(names[:-1]):
        line = t("{first} or {rest}", first=before, rest=line)
    return line


async def setup(bot: CookieJar) -> None:
    await bot.add_cog(Decks(bot))
