"""Shared parts of the match service: its value types and its plumbing."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel

from bot.clock import Clock, SystemClock
from bot.errors import (
    MatchNotFound,
    NotHost,
    NotRunning,
    StaleClick,
    UserError,
)
from bot.store import MatchRecord, SeatRecord, Store, Timer
from bot.store.models import GONE, mark_of
from bot.timing import (
    MatchSettings,
    UserSettings,
)
from bot.under_way import UnderWay
from games.core.panels import Panels
from games.core.protocol import (
    Action,
    Decision,
    Event,
    Game,
    GameState,
    IllegalAction,
    Outcome,
    final_outcome,
)
from games.core.text import t
from games.core.views import TableView, closed
from games.core.words import BOT_NAMES

log = logging.getLogger(__name__)

# Default memory for running matches kept parsed (see ServiceBase._remember): room for the
# 1,000 busy tables one process is held to (issue 39). A four-player Cover Your Assets
# match in play is about 4 KB of JSON, half of it its last log lines as translatable Texts
# (ids and arguments, where they were English sentences), so about 90 KB kept: 64 MB held
# 709 of 1,000 tables and a click in 14 read and parsed its match again.
CACHE_MB = 128.0
# Memory of a cache entry per byte of its state JSON, measured with tracemalloc: the parsed
# state takes 7-9x its JSON, its decisions up to 12x more, the record's copy of the JSON 1x.
BYTES_PER_STATE_BYTE = 20
ENTRY_BYTES = 4096  # the record, its seats and the bookkeeping around them
PEOPLE_KEPT = 4096  # user settings kept in memory (tables show vacations on every edit)
REMIND_EVERY = 3600.0  # /remind pings a match's laggards at most once an hour
LAST_HELD_KEPT = 256  # finished matches' last hands kept replayed in memory
_MARKDOWN = re.compile(r"[\\*_~`|>#\[\]()@<:]")


@dataclass(frozen=True)
class Person:
    """Who clicked: the id Discord vouches for, never one taken from a custom_id."""

    user_id: int
    name: str
    can_manage: bool = False
    roles: frozenset[int] = frozenset()  # the server roles they hold, where a rule asks


@dataclass(frozen=True)
class Choice:
    """A move about to be applied: who, what, the decision it answers, and any change to
    the seat's absence state that goes with it (saved under the same lock)."""

    seat: int
    action: Action
    decision: Decision
    seat_after: SeatRecord | None = None
    timed_out: bool = False  # a clock ran out on the seat (not a race window closing)
    # The seat is absent for its whole turn, not for one step of it: the decisions of its
    # own that follow at once (a Swap's cards after its player) are answered by their
    # defaults in the same move, under the one clock and the one miss already counted.
    rest_of_turn: bool = False


# "released": a hold on the match was lifted (see ``ServiceBase.holds``): whoever must move
# may move again, so bots and forced answers are due. "held": a hold began (its clocks
# stopped): the table is shown again, and nothing is due (the change carries no state).
ChangeKind = Literal[
    "lobby",
    "started",
    "action",
    "finished",
    "cancelled",
    "reminder",
    "seats",
    "released",
    "held",
]


@dataclass
class Change:
    kind: ChangeKind
    match: MatchRecord
    events: list[Event] = field(default_factory=list)
    state: GameState | None = None
    previous: GameState | None = None
    timed_out: int | None = None  # the seat whose clock ran out, when a timer moved for it
    timer: Timer | None = None  # the reminder, for kind "reminder"
    by: str | None = None  # who cancelled, for kind "cancelled" (None: nobody was left)


Listener = Callable[[Change], Awaitable[None]]
# Asked before every move of a running match (a click, a bot, a timeout): a sentence saying
# why play is held (the match's tournament is paused), or None to let the move go on.
Hold = Callable[[MatchRecord], Awaitable[str | None]]


@dataclass(frozen=True)
class SeatView:
    """What one person may see of a match, and what they must decide now."""

    match: MatchRecord
    game: Game
    seat: int | None
    version: int
    view: BaseModel
    panels: Panels
    decision: Decision | None
    waiting_on: frozenset[int] = frozenset()  # every seat that must decide now
    chances: tuple[Decision, ...] = ()  # optional decisions of this seat (a shout)
    races: tuple[Decision, ...] = ()  # every seat's part in a race now (a scramble)

    @classmethod
    def of(
        cls,
        record: MatchRecord,
        game: Game,
        state: GameState,
        seat: int | None,
        deciding: Sequence[Decision] | None = None,
    ) -> SeatView:
        deciding = game.decisions(state) if deciding is None else deciding
        if seat is None and record.status == "active":
            view, panels = game.public_table(state)  # built once per state (the move built it)
        else:
            view = game.view(state, seat)
            if record.status != "active":
                # A cancelled match's state may still hold a pending decision: nobody is to
                # move on a table that will see no more moves, and no panel may say otherwise.
                deciding = []
                if isinstance(view, TableView):
                    view = closed(view)
            panels = game.panels(view)
        return cls(
            match=record,
            game=game,
            seat=seat,
            version=state.version,
            view=view,
            panels=panels,
            decision=next((d for d in deciding if d.seat == seat and not d.optional), None),
            waiting_on=waiting_on(deciding),
            chances=tuple(d for d in deciding if d.seat == seat and d.optional),
            races=tuple(d for d in deciding if d.window is not None),
        )


def waiting_on(decisions: Sequence[Decision]) -> frozenset[int]:
    """The seats the match waits for: optional chances hold nobody up."""
    return frozenset(d.seat for d in decisions if not d.optional)


def settings_of(record: MatchRecord) -> MatchSettings:
    return _parsed_settings(record.settings or "{}")


@lru_cache(maxsize=256)
def _parsed_settings(text: str) -> MatchSettings:
    # Every move reads its match's settings; most matches of a server share the same few.
    # Callers treat the result as read-only (changes go through copies).
    return MatchSettings.model_validate_json(text)


def match_outcome(record: MatchRecord, game: Game, state: GameState) -> Outcome | None:
    """How a match ended: the game's outcome, or a forfeit's (``end_by_forfeit``): the
    seats still in first, the gone last."""
    gone = {s.seat for s in record.seats if s.away == GONE}
    names = [s.name for s in record.seats]
    return final_outcome(game, state, names, gone, record.status == "finished")


def seat_place(record: MatchRecord, game: Game, seat: int | None) -> int | None:
    """Where a player finished their match, every seat counted (bots too), for /stats and
    the player's web page; None for no seat or a match with no result. A player who left
    for good ranks last, tied with the others who left, as their rating counts it: what a
    bot made of the seat after them is not theirs."""
    if seat is None or record.state is None:
        return None
    outcome = match_outcome(record, game, game.load_state(record.state))
    places = {p.seat: p.place for p in outcome.placements} if outcome is not None else {}
    if seat not in places:
        return None
    gone = {s.seat for s in record.seats if s.away == GONE}
    still_in = [place for other, place in places.items() if other not in gone]
    if seat in gone:
        return len(still_in) + 1
    return sum(place < places[seat] for place in still_in) + 1


def new_match_id() -> str:
    # 10 hex characters (40 bits): short enough for custom_ids, ample against collisions.
    return secrets.token_hex(5)


NAME_LENGTH = 32  # Discord's longest display name
_UNPRINTED = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")  # control characters, line breaks


def clean_name(name: str) -> str:
    """A player's name as Discord gives it, kept as they wrote it (markdown characters,
    brackets, emoji and all): made safe where it is shown instead (escaped for Discord's
    markdown and mentions at the Discord edge, by the templates on web pages, drawn as
    written in pictures). Only what would break a line becomes a space; Discord's own
    limit of 32 characters holds."""
    cleaned = _UNPRINTED.sub(" ", name).strip() or "Player"
    return cleaned[:NAME_LENGTH]


class ServiceBase:
    """The plumbing every part of the service shares: locks, the cache, listeners."""

    def __init__(
        self,
        store: Store,
        games: dict[str, Game],
        *,
        new_seed: Callable[[], int] = lambda: secrets.randbits(63),
        clock: Clock | None = None,
        cache_mb: float = CACHE_MB,
    ) -> None:
        self.store = store
        self.games = games
        self.new_seed = new_seed
        self.clock: Clock = clock or SystemClock()
        # Told whenever timers change, so the scheduler can look at its next deadline: with
        # the earliest of the timers just saved when the caller knows it (see Scheduler.wake).
        self.timers_changed: Callable[..., None] = lambda earliest=None: None
        self.listeners: list[Listener] = []
        self.holds: list[Hold] = []
        # Weak: a lock lives while someone holds or awaits it (their frame keeps it), so
        # every match ever played does not leave one behind.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        # Write-through cache of running matches, so a move costs no read and no JSON
        # parse. Safe because every write goes through this service, and the store's
        # version check still guards each save: a conflict drops the entry.
        self._cache: OrderedDict[str, tuple[MatchRecord, GameState]] = OrderedDict()
        # (match, seat) -> the replayed state of a finished match's last hand (see last_held),
        # kept as its JSON: one string is nothing for the garbage collector to walk, where a
        # parsed state is hundreds of objects (256 of them made every full collection slower).
        self._last_held: OrderedDict[tuple[str, int], str | None] = OrderedDict()
        # Match -> the replay of its last hands under way (see ``History.last_held``).
        self._last_hands_replaying: dict[str, asyncio.Future[None]] = {}
        # (match, decision stamp) a hard bot is thinking about (see ``Play.play_bot``).
        self._thinking: set[tuple[str, str]] = set()
        self._cache_sizes: dict[str, int] = {}
        self._cache_budget = int(cache_mb * 2**20)
        self._cache_bytes = 0
        # Running matches asked for, and those read from the store (not in memory, or
        # moved by another process): the cache's fit, which ``bench load`` reports.
        self.asked = self.read = 0
        # The timers last saved for each cached match: tables show their deadlines on every
        # edit without a query. Only the service writes them (the scheduler deletes fired
        # ones, which a timeout's own move then replaces).
        self._timers: dict[str, list[Timer]] = {}
        self._people: OrderedDict[int, UserSettings] = OrderedDict()
        # Moves under way (``moving``): a process that drains waits for them to end.
        self._moves = UnderWay()

    # --- plumbing ----------------------------------------------------------------------
    def moving(self) -> AbstractContextManager[None]:
        """Counts a move (from its lock to its listeners) as under way."""
        return self._moves.one()

    @property
    def moves_under_way(self) -> int:
        """Moves begun and not yet ended: how many a new click would wait behind."""
        return self._moves.count

    async def moves_done(self, timeout: float) -> bool:
        """Wait until no move is under way (False: some still were after ``timeout``)."""
        return await self._moves.none(timeout)

    def lock(self, match_id: str) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def game_of(self, record: MatchRecord) -> Game:
        return self.games[record.game]

    async def get(self, match_id: str) -> MatchRecord:
        record = await self.store.get(match_id)
        if record is None:
            raise MatchNotFound()
        return record

    def _remember(
        self, record: MatchRecord, state: GameState, timers: list[Timer] | None = None
    ) -> None:
        """Keep a running match parsed, within the cache's memory budget (oldest out)."""
        match_id = record.match_id
        size = ENTRY_BYTES + BYTES_PER_STATE_BYTE * len(record.state or "")
        self._cache_bytes += size - self._cache_sizes.get(match_id, 0)
        self._cache_sizes[match_id] = size
        self._cache[match_id] = (record, state)
        self._cache.move_to_end(match_id)
        if timers is not None:
            self._timers[match_id] = timers
        while self._cache_bytes > self._cache_budget and len(self._cache) > 1:
            self._forget(next(iter(self._cache)))

    @property
    def cache_fill(self) -> tuple[int, int, int]:
        """Running matches kept parsed, their estimated bytes, and the budget's."""
        return len(self._cache), self._cache_bytes, self._cache_budget

    def _forget(self, match_id: str) -> None:
        self._cache.pop(match_id, None)
        self._cache_bytes -= self._cache_sizes.pop(match_id, 0)
        self._timers.pop(match_id, None)

    def decisions(self, game: Game, state: GameState) -> Sequence[Decision]:
        """``game.decisions(state)``, built once per state object (``Engine.decided``)."""
        return game.decided(state)

    async def current(self, match_id: str) -> MatchRecord:
        """The match as the service holds it: no query for a running match in memory,
        but for its proof on a shared database (another process may have reposted its
        table, or ended it)."""
        if match_id not in self._cache:
            return await self.get(match_id)
        if self.store.shared:
            return (await self._running(match_id))[0]
        return self._cache[match_id][0]

    async def _running(self, match_id: str) -> tuple[MatchRecord, GameState]:
        """The running match, parsed: from memory when the memory is current. On a shared
        database another process may have moved it, so the remembered copy is proven
        against the row first (``Store.match_mark``), and read again when it differs."""
        self.asked += 1
        hit = self._cache.get(match_id)
        if hit is not None and self.store.shared:
            mark = await self.store.match_mark(match_id)
            hit = self._cache.get(match_id)  # a move of this process may have ended meanwhile
            if hit is not None and mark != mark_of(hit[0]):
                self._forget(match_id)
                hit = None
        if hit is not None:
            self._cache.move_to_end(match_id)
            return hit
        self.read += 1
        record = await self.get(match_id)
        state = self.load_state(record)
        if record.status == "active":
            # Only running matches are kept: finished ones are read again when asked for
            # (a last hand, a rematch), or every match ever played would fill the cache.
            self._remember(record, state)
        return record, state

    async def set_message(self, match_id: str, message_id: int) -> None:
        """Remember which message shows this match (the lobby, later the table)."""
        await self.store.set_message(match_id, message_id)
        hit = self._cache.get(match_id)
        if hit is not None:
            self._cache[match_id] = (hit[0].model_copy(update={"message_id": message_id}), hit[1])

    async def notify(self, change: Change) -> None:
        for listener in self.listeners:
            try:
                await listener(change)
            except Exception:
                # A failed table edit or ping must never undo or block a saved move.
                log.exception("listener failed for match %s", change.match.match_id)

    async def timers_of(self, match_id: str) -> list[Timer]:
        """The match's pending timers: remembered with the cached match, else read. On a
        shared database they are read every time: another process may have moved them
        without a move (an event it resumed), which no mark of the match's row shows."""
        known = self._timers.get(match_id)
        if known is not None and match_id in self._cache and not self.store.shared:
            return known
        return await self.store.timers_of(match_id)

    def _keep_timers(self, match_id: str, timers: list[Timer]) -> None:
        """Timers just saved without a move: the remembered ones, if any, follow them."""
        if match_id in self._timers:
            self._timers[match_id] = timers

    def load_state(self, record: MatchRecord) -> GameState:
        if record.state is None:
            raise NotRunning()
        return self.game_of(record).load_state(record.state)

    async def timers_after(
        self, record: MatchRecord, before: GameState | None, state: GameState
    ) -> list[Timer]:
        """The timers a state calls for; saved with every move (see ``Deadlines``)."""
        return []

    @staticmethod
    def require_host(record: MatchRecord, actor: Person, refusal: str) -> None:
        """``refusal``: the whole sentence the refused actor reads (a Text)."""
        if actor.user_id != record.host_id and not actor.can_manage:
            raise NotHost(refusal)

    # --- reading -----------------------------------------------------------------------
    async def deciding_now(self, match_id: str) -> tuple[MatchRecord, Sequence[Decision]]:
        """The match and who must decide what now, from memory when it is running."""
        record, state = await self._running(match_id)
        return record, self.decisions(self.game_of(record), state)

    def waits_on_others(self, match_id: str, user_id: int) -> bool:
        """Whether the match is running, as this process holds it in memory, and waits on
        others than this person now (a spectator, or a seat with nothing to do): no read
        (False for a match not in memory: a lobby, an ended one), so that a click can be
        told apart before its turn (``bot/click_turns.py``). A hint, not a proof: on a
        shared database another process may have moved it since."""
        hit = self._cache.get(match_id)
        if hit is None:
            return False
        record, state = hit
        seat = record.seat_of(user_id)
        return seat is None or seat not in waiting_on(self.decisions(self.game_of(record), state))

    async def seat_view(self, match_id: str, user_id: int | None) -> SeatView:
        record, state = await self._running(match_id)
        seat = record.seat_of(user_id) if user_id is not None else None
        game = self.game_of(record)
        return SeatView.of(record, game, state, seat, self.decisions(game, state))


class _NothingToDo(Exception):
    pass


def default_answer(decision: Decision) -> Action:
    """What a clock plays for a seat that did not answer: the decision's default, else its
    first options (a decision without a default still needs an answer)."""
    return decision.default or decision.pick(decision.options[: decision.min_picks])


def pick_options(decision: Decision, picks: Sequence[int]) -> Action:
    """Turn option indexes from a button or select into the decision's action."""
    try:
        chosen = [decision.options[i] for i in dict.fromkeys(picks)]
    except IndexError:
        raise StaleClick() from None
    if not chosen:
        raise UserError(t("Pick something first."))
    try:
        return decision.pick(chosen)
    except IllegalAction as exc:
        raise UserError(exc.text) from None


def bot_name(taken: Collection[str]) -> str | None:
    """The first bot name not taken ("🤖 Abe"); None once every one is."""
    return next((f"🤖 {n}" for n in BOT_NAMES if f"🤖 {n}" not in taken), None)


def unique_name(name: str, seats: Sequence[SeatRecord]) -> str:
    taken = {s.name for s in seats}
    if name not in taken:
        return name
    return next(f"{name} {i}" for i in range(2, 99) if f"{name} {i}" not in taken)
