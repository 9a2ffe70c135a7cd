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
from bot.service.base import _MARKDOWN, Person, settings_of
from bot.service.lobbies import Lobbies
from bot.store import DeckRecord, MatchRecord
from games.core.protocol import Game, SeatChoosing
from games.core.words import bullets, join_names, plural

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
        shown.append(f"…and {plural(rest, 'more line')} that name no card.")
    return shown


def ready_named(game: SeatChoosing, name: str) -> tuple[str, str] | None:
    """The ready list (value, label) that ``name`` names by key or label, whatever its case."""
    wanted = " ".join(name.split()).casefold()
    found = (r for r in game.seat_choice.ready if wanted in (r[0].casefold(), r[1].casefold()))
    return next(found, None)


def typed(text: str) -> str:
    """What someone typed, echoed in a sentence: no deck name holds a formatting character,
    so a shown name loses nothing, and a typed mention or markdown is not acted on."""
    return (" ".join(_MARKDOWN.sub("", text).split()) or "?")[:40]


def deck_name(text: str) -> str:
    """A deck's name as typed, or a sentence saying why it cannot be one."""
    name = " ".join(text.split())
    if not name:
        raise UserError("Give the deck a name.")
    if len(name) > NAME_LONGEST:
        raise UserError(
            f"A deck name is at most {NAME_LONGEST} characters; that one has {len(name)}."
        )
    if _MARKDOWN.search(name):
        raise UserError(
            "A deck name cannot hold formatting characters such as * _ ` | < > @ # : ( )."
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
            raise UserError(f"You have no deck called '{typed(name)}'. /deck list shows yours.")
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
                f"'{name}' is taken by the ready {game.seat_choice.noun} {ready[1]}: give "
                "yours another name."
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
                f"You already have {MOST_DECKS} decks, the most one player may keep. "
                "Delete one with /deck delete first."
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
            noun = game.seat_choice.noun
            told = f":\n{bullets(few_unread(unread))}" if unread else "."
            raise UserError(
                f"No line of that text names a card here, so nothing was saved{told}\n"
                f"Write one line per card, as /{noun} export prints them; /{noun} copy "
                f"starts a {noun} from a ready one instead."
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
        labels = join_names([label for _, label in game.seat_choice.ready])
        noun = game.seat_choice.noun
        # A typo of a ready deck's name is the likelier one for a newcomer with no decks.
        raise UserError(
            f"There is no {noun} called '{typed(text)}': the ready {noun}s are "
            f"{labels}; /{noun} list shows your own."
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
            noun = self.deck_game(catalogue).seat_choice.noun
            raise UserError(
                f"You already have a {noun} called **{taken.name}**. Give the copy another "
                f"name, or /{noun} delete {taken.name} first."
            )
        return await self.save_deck(user_id, catalogue, name, cards)

    async def delete_deck(self, user_id: int, name: str) -> DeckRecord:
        if await self.find_deck(user_id, name) is None:
            for game in self.games.values():
                if isinstance(game, SeatChoosing) and (ready := ready_named(game, name)):
                    noun = game.seat_choice.noun
                    raise UserError(
                        f"{ready[1]} is a ready {noun}: it stays for everyone. /{noun} delete "
                        f"removes one of your own (/{noun} list shows them)."
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
            return f"'{value.removeprefix(MINE)}'"
        assert isinstance(game, SeatChoosing)
        return dict(game.seat_choice.ready).get(value, value)

    async def choose(self, match_id: str, actor: Person, value: str) -> MatchRecord:
        """A seated player picks what they play: a ready value or ``mine:<deck name>``."""
        if value.startswith(MINE):
            value = MINE + (await self.deck(actor.user_id, value.removeprefix(MINE))).name

        def edit(record: MatchRecord) -> dict[str, object]:
            game = self.game_of(record)
            if not isinstance(game, SeatChoosing):
                raise UserError(f"{game.name} has nothing to choose per player.")
            if record.seat_of(actor.user_id) is None:
                raise UserError(f"Press **Join** first, then choose your {game.seat_choice.noun}.")
            if not value.startswith(MINE) and value not in dict(game.seat_choice.ready):
                raise UserError(f"That {game.seat_choice.noun} is not on offer; pick another.")
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
        noun = game.seat_choice.noun
        for seat in record.seats:
            value = picks.get(seat.user_id) if seat.user_id is not None else None
            value = value or game.default_choice(seat.seat)
            if value.startswith(MINE) and seat.user_id is not None:
                name = value.removeprefix(MINE)
                own = seat.user_id == actor.user_id
                whose = "Your" if own else f"{seat.name}'s"
                pick = f"**{game.seat_choice.title}**"
                pick = (
                    f"Pick another with {pick}"
                    if own
                    else f"{seat.name} can pick another with {pick}"
                )
                deck = await self.find_deck(seat.user_id, name)
                if deck is None:
                    raise UserError(f"{whose} {noun} '{name}' no longer exists. {pick}.")
                problems = game.list_problems(deck.cards)
                if problems:
                    raise UserError(
                        f"{whose} {noun} '{deck.name}' is a draft and cannot be played: "
                        + " ".join(problems[:4])
                        + f" {pick}, or fix it with /{noun} import."
                    )
                lists.append(list(deck.cards))
            else:
                lists.append(game.ready_list(value) or [])
        return lists
