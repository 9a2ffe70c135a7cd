"""The one small protocol every game speaks.

A game is a pure reducer over a pydantic state: ``setup`` deals, ``decisions`` says who must
choose what now, ``apply`` returns a new state and the log lines it produced, ``outcome``
says whether and how the match ended, ``view`` strips what a seat may not know, and
``panels`` turns a view into neutral presentation. Nothing here knows about Discord, the
database or the clock.
"""

from __future__ import annotations

import zlib
from collections.abc import Collection, Hashable, Mapping, Sequence
from functools import cached_property, lru_cache
from typing import Annotated, Any, ClassVar, Protocol, Self, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from games.core.panels import Panels
from games.core.text import Names, Text, Words, t

Token = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]+$")]
MAX_ACTION_CHARS = 80


class IllegalAction(Exception):
    """An action the rules forbid; ``text`` is the sentence a player reads (a ``Text``)."""

    @property
    def text(self) -> str:
        # str(exc) would flatten a Text to its English: the first argument keeps it whole.
        return self.args[0] if self.args and isinstance(self.args[0], str) else str(self)


class UnknownAction(IllegalAction):
    """Text that does not decode to any action."""


class NotYourTurn(IllegalAction):
    """The seat has nothing to decide right now."""


class MatchOver(IllegalAction):
    """The match has already ended."""


class Action(BaseModel):
    """One move, with an exact text form (``kind.arg.arg``) like ``Move.uci()``."""

    model_config = ConfigDict(frozen=True)

    # Tokens are checked by pydantic-core's own regex engine: engines build thousands of
    # actions per second, and a Python validator here cost more than the rules.
    kind: Token
    args: tuple[Token, ...] = ()

    @classmethod
    def of(cls, kind: str, *args: object) -> Action:
        try:
            return _made(cls, kind, *args)
        except TypeError:  # an argument that cannot be a key (never a card or a seat)
            return cls(kind=kind, args=tuple(str(a) for a in args))

    def encode(self) -> str:
        return self._encoded

    @cached_property
    def _encoded(self) -> str:
        # Once per action: a decision's stamp encodes each of its options, and engines hand
        # out the same action objects move after move (``_made``).
        text = ".".join((self.kind, *self.args))
        if len(text) > MAX_ACTION_CHARS:
            raise ValueError(f"encoded action is {len(text)} characters: {text[:40]}...")
        return text

    @classmethod
    def decode(cls, text: str) -> Action:
        if not text or len(text) > MAX_ACTION_CHARS:
            raise UnknownAction(t("That move could not be read."))
        kind, *args = text.split(".")
        try:
            return cls(kind=kind, args=tuple(args))
        except ValidationError as exc:
            raise UnknownAction(t("That move could not be read.")) from exc

    def __str__(self) -> str:
        return self.encode()


@lru_cache(maxsize=8192, typed=True)
def _made(cls: type[Action], kind: str, *args: object) -> Action:
    """Actions are frozen, and engines offer the same ones move after move (each card of a
    hand, each seat to challenge): each is built and checked once, not at every move."""
    return cls(kind=kind, args=tuple(str(a) for a in args))


class Option(BaseModel):
    """An action as a player sees it on a button or in a select."""

    model_config = ConfigDict(frozen=True)

    action: Action
    label: Words
    emoji: str | None = None
    group: Words = ""
    style: str = "secondary"  # primary | secondary | success | danger: a hint, not a rule
    description: Words = ""  # what the card or move does, in a select (at most 100 characters)


def option(
    action: Action,
    label: str,
    *,
    group: str = "",
    style: str = "secondary",
    emoji: str | None = None,
    description: str = "",
) -> Option:
    """Shorthand for engines: the action first, the rest by name. Options are frozen, and
    most come back unchanged at the next move: each is built once (see ``_made``)."""
    # A Text equals its English: the cache also tells one message from a plain string, or
    # from another message that reads the same in English (a card's name, a heading).
    words = (_message(label), _message(group), _message(description))
    return _option(action, label, group, style, emoji, description, words)


def _message(value: str) -> tuple[object, ...] | None:
    return (
        (value.msgid, value.context, tuple(value.args.items())) if isinstance(value, Text) else None
    )


# Smaller than the actions' cache: labels name players, so a busy bot offers many more
# distinct options than actions, and every kept one (with its cache entry) is a handful of
# objects each full garbage collection walks (8,192 of them added 30k to the heap).
@lru_cache(maxsize=1024)
def _option(
    action: Action,
    label: str,
    group: str,
    style: str,
    emoji: str | None,
    description: str,
    words: tuple[object, ...],
) -> Option:
    return Option(
        action=action, label=label, emoji=emoji, group=group, style=style, description=description
    )


class Decision(BaseModel):
    """Who must decide what now. Several decisions at once mean simultaneous choices."""

    model_config = ConfigDict(frozen=True)

    key: str
    seat: int
    prompt: Words
    options: tuple[Option, ...]
    min_picks: int = 1
    max_picks: int = 1
    default: Action | None = None  # what a timer plays when it runs out
    # Answering someone else's move: shorter clocks in live games, and a missed answer
    # plays ``default`` without counting the seat absent. Its prompt speaks of that public
    # move and names no hidden card: the seat's public ping quotes it.
    reaction: bool = False
    # A race (first come, first served): every seat in it holds a decision with the same
    # key, and the race closes on its own after ``window`` seconds of live play; its
    # ``default`` then settles it for everyone, and nobody is to blame for the timeout.
    window: float | None = None
    # A chance, not a duty ("Snickerdoodle!"): nobody waits on it and no clock runs for it.
    optional: bool = False
    # Letting the clock run out is an answer here (passing in a modifier round), not an
    # absence: the default is played and nobody is counted as missing.
    lenient: bool = False
    # In live play, this decision's clock in seconds instead of the pace's (a game option
    # chose it, e.g. a shorter modifier round); other paces keep their own clocks.
    live_seconds: float | None = None
    # Whether this seat has anything to choose is itself a secret (a trap window: does the
    # defender hold an answer?). When it is forced, the lone answer is still played for the
    # person after the pause, but they are pinged as for any decision, so the channel looks
    # the same either way.
    hides_choice: bool = False

    @cached_property
    def stamp(self) -> str:
        """Names this decision exactly as offered (key, seat and options), in a few
        characters: a click made on it stays good while the same decision stands, however
        many other seats move meanwhile. Keys must name one occasion (never reused).

        Computed once per decision: a move asks for it several times (the click, the clocks
        before and after, every button of the table)."""
        text = "|".join((self.key, str(self.seat), *(o.action.encode() for o in self.options)))
        return short_hash(text)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        if update:
            copied.__dict__.pop("stamp", None)  # a changed decision is another decision
        return copied

    @property
    def race_stamp(self) -> str:
        """The same for every seat in a race, whatever is left to grab."""
        return short_hash(self.key)

    def pick(self, chosen: Sequence[Option]) -> Action:
        """Answer a multi-pick decision with one action (``kind.arg.arg...``)."""
        if not self.min_picks <= len(chosen) <= self.max_picks:
            if self.min_picks == self.max_picks:
                raise IllegalAction(
                    t(
                        "Pick exactly {n}: you picked {picked}.",
                        n=self.min_picks,
                        picked=len(chosen),
                    )
                )
            raise IllegalAction(
                t("Pick between {low} and {high}.", low=self.min_picks, high=self.max_picks)
            )
        if self.max_picks == 1:
            return chosen[0].action
        kind = chosen[0].action.kind
        args: list[str] = []
        for option in chosen:
            if option not in self.options:
                raise IllegalAction(t("That choice is not on offer."))
            args.extend(option.action.args)
        return Action(kind=kind, args=tuple(args))

    def allows(self, action: Action) -> bool:
        # Identity first: a clicked option's own action (the usual case) is found without
        # comparing the fields of every option before it (pydantic's __eq__ is slow).
        actions = [option.action for option in self.options]
        return any(a is action for a in actions) or action in actions

    @property
    def forced(self) -> Action | None:
        """The one answer this decision admits (a lone Pass, or every card when all must
        go), if there is nothing to choose; races and optional chances never are."""
        if self.optional or self.window is not None or len(self.options) != self.min_picks:
            return None
        return self.pick(self.options) if self.options else None


def short_hash(text: str) -> str:
    return base36(zlib.crc32(text.encode()))


def base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


class Event(BaseModel):
    """A line of the game log. ``visible_to`` None means everyone; else only those seats."""

    model_config = ConfigDict(frozen=True)

    text: Words
    visible_to: frozenset[int] | None = None

    def visible_for(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


class Placement(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    place: int  # 1 = first; tied seats share a place
    score: int


class Outcome(BaseModel):
    """How a match ended: placements with ties, and why."""

    model_config = ConfigDict(frozen=True)

    placements: tuple[Placement, ...]
    reason: Words

    @property
    def winners(self) -> list[int]:
        return [p.seat for p in self.placements if p.place == 1]

    @classmethod
    def ranked(cls, scores: Sequence[int], reason: str, keys: Sequence[Any] | None = None) -> Self:
        """Competition ranking (1, 1, 3) by ``keys`` (default: the scores), highest first."""
        keys = list(keys if keys is not None else scores)
        order = sorted(range(len(scores)), key=lambda s: keys[s], reverse=True)
        placements: list[Placement] = []
        for index, seat in enumerate(order):
            tied = index and keys[order[index - 1]] == keys[seat]
            place = placements[-1].place if tied else index + 1
            placements.append(Placement(seat=seat, place=place, score=scores[seat]))
        return cls(placements=tuple(placements), reason=reason)

    @classmethod
    def by_forfeit(cls, names: Sequence[str], gone: Collection[int]) -> Self:
        """A match its players left before the game ended: those still in share first
        place, those gone share last (no score: the game itself was not finished)."""
        staying = [seat for seat in range(len(names)) if seat not in gone]
        last = len(staying) + 1 if staying else 1
        placements = tuple(
            Placement(seat=seat, place=last if seat in gone else 1, score=0)
            for seat in [*staying, *sorted(gone)]
        )
        who = Names(names[seat] for seat in sorted(gone))
        return cls(placements=placements, reason=t("{names} forfeited.", names=who))


def final_outcome(
    game: Game, state: GameState, names: Sequence[str], gone: Collection[int], finished: bool
) -> Outcome | None:
    """How a match ended: the game's own outcome, or, for a match ended (``finished``)
    while the game was still going because every seat but one at most is ``gone``, their
    forfeit. (Any other end without the game's outcome is no result: not rated.)"""
    outcome = game.outcome(state)
    if outcome is None and finished and gone and len(names) - len(gone) <= 1:
        return Outcome.by_forfeit(names, gone)
    return outcome


class GameState(BaseModel):
    """Fields every game state carries. The seed is a secret of the match."""

    seed: int
    version: int = 0
    names: tuple[str, ...]
    log: tuple[Event, ...] = Field(default=(), description="recent log lines, newest last")

    LOG_KEEP: ClassVar[int] = 12


@runtime_checkable
class Game(Protocol):
    key: str
    name: str
    min_players: int
    max_players: int
    quick_start: str  # what /rules opens with: the goal, a turn, how it ends
    round_word: str  # what its state's ``round`` counts: "round", Braverse's "turn"
    options_model: type[BaseModel]
    state_model: type[GameState]

    def setup(self, options: BaseModel, players: Sequence[str], seed: int) -> GameState: ...

    def decisions(self, state: GameState) -> list[Decision]: ...

    def decided(self, state: GameState) -> Sequence[Decision]: ...

    def apply(
        self, state: GameState, seat: int, action: Action
    ) -> tuple[GameState, list[Event]]: ...

    def outcome(self, state: GameState) -> Outcome | None: ...

    def score_text(self, state: GameState, placement: Placement) -> str: ...

    def view(self, state: GameState, seat: int | None) -> BaseModel: ...

    def panels(self, view: BaseModel) -> Panels: ...

    def public_table(self, state: GameState) -> tuple[BaseModel, Panels]: ...

    def hands_changed(self, before: GameState, after: GameState) -> set[int]: ...

    def rules_text(self, options: BaseModel | None = None) -> str: ...

    def rulings_text(self, options: BaseModel | None = None) -> str: ...


class SeatChoice(BaseModel):
    """A choice each player makes for their own seat in a lobby (the deck they play).

    The game offers ready values that need no set-up; a player may also bring a list they
    saved (kept per ``catalogue``). At Start every seat's pick becomes a full list written
    into the options (``with_seat_lists``), so seed + options + log replay the match
    whatever happens to the saved lists later."""

    model_config = ConfigDict(frozen=True)

    title: Words  # the select's name: "Choose deck"
    noun: Words  # "deck"
    catalogue: str  # which saved lists fit this game
    ready: tuple[tuple[str, Words], ...]  # (value, label) of the ready lists


@runtime_checkable
class SeatChoosing(Protocol):
    """Optional, beside ``Game``: a game whose players each choose a list in the lobby."""

    seat_choice: SeatChoice

    def default_choice(self, seat: int) -> str:
        """The ready value a seat plays when its player picks nothing (and a bot's)."""
        ...

    def ready_list(self, value: str) -> list[str] | None: ...

    def read_list(self, text: str) -> tuple[list[str], list[str]]:
        """A pasted list: its entries, and a sentence per line that could not be read."""
        ...

    def write_list(self, entries: Sequence[str]) -> str: ...

    def list_problems(self, entries: Sequence[str]) -> list[str]:
        """Every rule the list breaks, each a sentence; empty means it may be played."""
        ...

    def with_seat_lists(self, options: BaseModel, lists: Sequence[Sequence[str]]) -> BaseModel:
        """The options with every seat's full list (and whatever pins what the lists mean)."""
        ...


@runtime_checkable
class CardLookup(Protocol):
    """Optional, beside ``Game``: a card's text by number or name (a generic ``/card``)."""

    def lookup(self, name: str) -> str | None:
        """The card's text (first line: its name and kind), or None if no card fits."""
        ...

    def lookup_names(self, text: str) -> list[tuple[str, str]]:
        """``(label, name to look up)`` of the cards whose number or name holds ``text``."""
        ...

    def lookup_similar(self, text: str) -> list[tuple[str, str]]:
        """The same for names close to ``text`` (a typo), closest first."""
        ...


@runtime_checkable
class Searching(Protocol):
    """Optional, beside ``Game``: a stronger, slower bot that thinks ahead on worlds dealt
    from what its seat may know (never from the real secrets)."""

    def search_action(
        self,
        state: GameState,
        seat: int,
        *,
        decision: Decision | None = None,
        seconds: float = 1.0,
        worlds: int | None = None,
        seed: int = 0,
    ) -> Action:
        """The seat's move after about ``seconds`` of thought, or after ``worlds`` sampled
        worlds (the same ``worlds`` and ``seed`` give the same move: tests, benchmarks)."""
        ...


@runtime_checkable
class Picturing(Protocol):
    """Optional, beside ``Game``: pictures drawn from a view (never the state), as PNG bytes.
    The table picture uses only what everyone sees, so it is the same for every seat."""

    def table_picture(self, view: BaseModel, language: str = "en") -> bytes:
        """The table as everyone sees it, from any seat's view or a spectator's; its words
        in ``language``."""
        ...

    def hand_scene(self, view: BaseModel) -> Hashable | None:
        """What the viewing seat's hand picture shows, and nothing more, as a small
        hashable value (None for a spectator's view): views with equal scenes draw the same
        picture, so a hand is kept by its scene, and one that others' moves left alone is
        not drawn again."""
        ...

    def draw_hand(self, scene: Any, language: str = "en") -> bytes:
        """The hand picture of a scene ``hand_scene`` gave, its words in ``language``."""
        ...
