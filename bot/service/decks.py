"""Players' saved lists (Braverse decks) and the lobby's per-seat choice of one.

A deck belongs to its user, not to a server. An illegal deck is kept as a draft: it can be
shown, exported, fixed by importing again, but a lobby refuses to start with it. Every
check is the game's (``SeatChoosing``): the service only keeps the lists and the limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from pydantic import BaseModel

from bot.errors import UnknownGame, UserError
from bot.service.base import _MARKDOWN, Person, clean_name, settings_of
from bot.service.lobbies import Lobbies
from bot.store import DeckRecord, MatchRecord
from games.core.protocol import Game, SeatChoosing
from games.core.text import Names, joined, t, tn

MOST_DECKS = 25
NAME_LONGEST = 32
UNREAD_SHOWN = 10  # lines naming no card told one by one in an import's report
MINE = "mine:"  # a pick naming one of the player's own decks; other picks are ready values


def few_unread(unread: Sequence[str]) -> list[str]:
    """The lines that named no card, the first few of them and a count of the rest: a
    pasted list from elsewhere may have hundreds, which would push the deck's own
    problems out of the message."""
    shown = list(unread[:UNREAD_SHOWN])
    if rest := len(unread) - len(shown):
        shown.append(
            tn(
                "…and {n} more line that names no card.",
                "…and {n} more lines that name no card.",
                n=rest,
            )
        )
    return shown


def ready_named(game: SeatChoosing, name: str) -> tuple[str, str] | None:
    """The ready list (value, label) that ``name`` names by key or label, whatever its case."""
    wanted = " ".join(name.split()).casefold()
    found = (r for r in game.seat_choice.ready if wanted in (r[0].casefold(), r[1].casefold()))
    return next(found, None)


def deck_name(text: str) -> str:
    """A deck's name as typed, or a sentence saying why it cannot be one."""
    name = " ".join(text.split())
    if not name:
        raise UserError(t("Give the deck a name."))
    if len(name) > NAME_LONGEST:
        raise UserError(
            t(
                "A deck name is at most {most} characters; that one has {n}.",
                most=NAME_LONGEST,
                n=len(name),
            )
        )
    if _MARKDOWN.search(name):
        raise UserError(
            t("A deck name cannot hold formatting characters such as * _ ` | < > @ # : ( ).")
        )
    return name


class Decks(Lobbies):
    # --- the decks themselves --------------------------------------------------------------
    def deck_game(self, catalogue: str) -> SeatChoosing:
        game = self.games.get(catalogue)
        if not isinstance(game, SeatChoosing):
            raise UnknownGame(catalogue)
        return game

    async def decks(self, user_id: int) -> list[DeckRecord]:
        return await self.store.decks(user_id)

    async def find_deck(self, user_id: int, name: str) -> DeckRecord | None:
        """The user's deck of that name, whatever its case, or None."""
        wanted = " ".join(name.split()).casefold()
        decks = await self.store.decks(user_id)
        return next((deck for deck in decks if deck.name.casefold() == wanted), None)

    async def deck(self, user_id: int, name: str) -> DeckRecord:
        """The user's deck of that name, whatever its case."""
        deck = await self.find_deck(user_id, name)
        if deck is None:
            raise UserError(
                t(
                    "You have no deck called '{name}'. /deck list shows yours.",
                    name=clean_name(name)[:40],
                )
            )
        return deck

    def deck_problems(self, deck: DeckRecord) -> list[str]:
        """Why the deck cannot be played; empty when it can."""
        return self.deck_game(deck.catalogue).list_problems(deck.cards)

    async def save_deck(
        self, user_id: int, catalogue: str, name: str, cards: Sequence[str]
    ) -> DeckRecord:
        """Save (or replace) a deck, legal or not; a new one only under the limit."""
        name = deck_name(name)
        game = self.deck_game(catalogue)
        if (ready := ready_named(game, name)) is not None:
            # Every command reads a ready deck's name (or key) as that deck: one of the
            # player's own under it could never be shown, exported or played by name.
            raise UserError(
                t(
                    "'{name}' is taken by the ready deck {ready}: give yours another name.",
                    name=name,
                    ready=ready[1],
                )
            )
        stamp = datetime.now(UTC)
        created = stamp
        if (existing := await self.find_deck(user_id, name)) is not None:
            name, created = existing.name, existing.created_at  # the same deck, re-imported
        deck = DeckRecord(
            user_id=user_id,
            name=name,
            catalogue=catalogue,
            cards=list(cards),
            created_at=created,
            updated_at=stamp,
        )
        if not await self.store.save_deck(deck, MOST_DECKS):
            raise UserError(
                t(
                    "You already have {most} decks, the most one player may keep. "
                    "Delete one with /deck delete first.",
                    most=MOST_DECKS,
                )
            )
        return deck

    async def import_deck(
        self, user_id: int, catalogue: str, name: str, text: str
    ) -> tuple[DeckRecord, list[str]]:
        """Read a pasted list and save it: the deck and every problem found (lines that
        could not be read, then the rules it breaks); problems mean a draft."""
        game = self.deck_game(catalogue)
        cards, unread = game.read_list(text)
        if not cards:
            if not unread:
                raise UserError(
                    t(
                        "No line of that text names a card here, so nothing was saved.\n"
                        "Write one line per card, as /deck export prints them; /deck copy "
                        "starts a deck from a ready one instead."
                    )
                )
            raise UserError(
                t(
                    "No line of that text names a card here, so nothing was saved:\n"
                    "{lines}\n"
                    "Write one line per card, as /deck export prints them; /deck copy "
                    "starts a deck from a ready one instead.",
                    lines=joined(t("• {line}", line=line) for line in few_unread(unread)),
                )
            )
        deck = await self.save_deck(user_id, catalogue, name, cards)
        return deck, few_unread(unread) + game.list_problems(cards)

    async def pick_value(self, catalogue: str, user_id: int, text: str) -> str:
        """A deck as typed (a ready deck's key or name, or one of the user's own) as a
        lobby pick: the ready value, or ``mine:<name>``."""
        game = self.deck_game(catalogue)
        if (ready := ready_named(game, text)) is not None:
            return ready[0]
        if (deck := await self.find_deck(user_id, text)) is not None:
            return MINE + deck.name
        labels = Names(label for _, label in game.seat_choice.ready)
        # A typo of a ready deck's name is the likelier one for a newcomer with no decks.
        raise UserError(
            t(
                "There is no deck called '{name}': the ready decks are {ready}; /deck list "
                "shows your own.",
                name=clean_name(text)[:40],
                ready=labels,
            )
        )

    async def picked_cards(self, catalogue: str, user_id: int, value: str) -> list[str]:
        if value.startswith(MINE):
            return (await self.deck(user_id, value.removeprefix(MINE))).cards
        return self.deck_game(catalogue).ready_list(value) or []

    async def copy_deck(self, user_id: int, catalogue: str, source: str, name: str) -> DeckRecord:
        """A new deck from a ready deck (by key or name) or from one of the user's own.
        Never over one of the same name: a copy that replaced a deck lost its edits
        without a word (re-importing is the way to replace one, and says so)."""
        value = await self.pick_value(catalogue, user_id, source)
        cards = await self.picked_cards(catalogue, user_id, value)
        taken = await self.find_deck(user_id, deck_name(name))
        if taken is not None:
            raise UserError(
                t(
                    "You already have a deck called **{name}**. Give the copy another name, "
                    "or /deck delete {name} first.",
                    name=taken.name,
                )
            )
        return await self.save_deck(user_id, catalogue, name, cards)

    async def delete_deck(self, user_id: int, name: str) -> DeckRecord:
        if await self.find_deck(user_id, name) is None:
            for game in self.games.values():
                if isinstance(game, SeatChoosing) and (ready := ready_named(game, name)):
                    raise UserError(
                        t(
                            "{ready} is a ready deck: it stays for everyone. /deck delete "
                            "removes one of your own (/deck list shows them).",
                            ready=ready[1],
                        )
                    )
        deck = await self.deck(user_id, name)
        await self.store.delete_deck(user_id, deck.name)
        return deck

    # --- the lobby's per-seat choice -----------------------------------------------------
    async def start_options(self, record: MatchRecord, game: Game, actor: Person) -> BaseModel:
        options = await super().start_options(record, game, actor)
        if not isinstance(game, SeatChoosing):
            return options
        return game.with_seat_lists(options, await self.seat_lists(record, game, actor))

    def pick_label(self, game: Game, value: str) -> str:
        """How a pick reads in a lobby: a ready deck's label, or the player's deck name."""
        if value.startswith(MINE):
            return t("'{name}'", name=value.removeprefix(MINE))
        assert isinstance(game, SeatChoosing)
        return dict(game.seat_choice.ready).get(value, value)

    async def choose(self, match_id: str, actor: Person, value: str) -> MatchRecord:
        """A seated player picks what they play: a ready value or ``mine:<deck name>``."""
        if value.startswith(MINE):
            value = MINE + (await self.deck(actor.user_id, value.removeprefix(MINE))).name

        def edit(record: MatchRecord) -> dict[str, object]:
            game = self.game_of(record)
            if not isinstance(game, SeatChoosing):
                raise UserError(t("{game} has nothing to choose per player.", game=game.name))
            if record.seat_of(actor.user_id) is None:
                raise UserError(t("Press **Join** first, then choose your deck."))
            if not value.startswith(MINE) and value not in dict(game.seat_choice.ready):
                raise UserError(t("That deck is not on offer; pick another."))
            settings = settings_of(record)
            picks = {**settings.picks, actor.user_id: value}
            return {"settings": settings.model_copy(update={"picks": picks}).model_dump_json()}

        return await self._edit_lobby(match_id, edit)

    async def seat_lists(
        self, record: MatchRecord, game: SeatChoosing, actor: Person
    ) -> list[list[str]]:
        """Every seat's full list at Start: its player's pick, else the seat's ready one.
        A pick that cannot be played is refused in words for ``actor``: their own pick is
        theirs to change; someone else's, that player's (the lobby's select is per seat)."""
        picks = settings_of(record).picks
        lists = []
        for seat in record.seats:
            value = picks.get(seat.user_id) if seat.user_id is not None else None
            value = value or game.default_choice(seat.seat)
            if value.startswith(MINE) and seat.user_id is not None:
                name = value.removeprefix(MINE)
                own = seat.user_id == actor.user_id
                title = game.seat_choice.title
                deck = await self.find_deck(seat.user_id, name)
                if deck is None:
                    raise UserError(
                        t(
                            "Your deck '{deck}' no longer exists. Pick another with **{pick}**.",
                            deck=name,
                            pick=title,
                        )
                        if own
                        else t(
                            "{name}'s deck '{deck}' no longer exists. {name} can pick another "
                            "with **{pick}**.",
                            name=seat.name,
                            deck=name,
                            pick=title,
                        )
                    )
                problems = joined(game.list_problems(deck.cards)[:4], " ")
                if problems:
                    raise UserError(
                        t(
                            "Your deck '{deck}' is a draft and cannot be played: {problems} "
                            "Pick another with **{pick}**, or fix it with /deck import.",
                            deck=deck.name,
                            problems=problems,
                            pick=title,
                        )
                        if own
                        else t(
                            "{name}'s deck '{deck}' is a draft and cannot be played: {problems} "
                            "{name} can pick another with **{pick}**, or fix it with /deck "
                            "import.",
                            name=seat.name,
                            deck=deck.name,
                            problems=problems,
                            pick=title,
                        )
                    )
                lists.append(list(deck.cards))
            else:
                lists.append(game.ready_list(value) or [])
        return lists
