"""The one place that changes a match: lock -> load -> apply -> save -> notify.

Clicks, bot moves and (later) timeouts all come through here, so a click racing a bot
move or a timeout applies exactly once: one asyncio lock per match, and the store's
version check behind it.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel

from bot.clock import Clock, SystemClock
from bot.errors import (
    AlreadySeated,
    ChannelTaken,
    LobbyFull,
    MatchNotFound,
    NotHost,
    NotInLobby,
    NotRunning,
    NotSeated,
    StaleClick,
    UnknownGame,
    UserError,
)
from bot.store import ChannelBusy, MatchRecord, SeatRecord, Store, Timer, VersionConflict
from bot.store.models import GONE, PRESENT, STANDING_IN
from bot.timing import (
    DAY,
    PAUSED_FROM,
    VACATION_DAYS_A_MONTH,
    GuildSettings,
    MatchSettings,
    UserSettings,
    paused_due,
    plan,
)
from games.core.options import with_choice, with_switches
from games.core.panels import Panels
from games.core.protocol import Action, Decision, Event, Game, GameState, IllegalAction

log = logging.getLogger(__name__)

CACHE_SIZE = 512  # running matches kept parsed in memory
REMIND_EVERY = 3600.0  # /remind pings a match's laggards at most once an hour
BOT_NAMES = ("Abe", "Bea", "Cal", "Dot", "Eve", "Fin", "Gil", "Hal")
_MARKDOWN = re.compile(r"[\\*_~`|>#\[\]()@<:]")


@dataclass(frozen=True)
class Person:
    """Who clicked: the id Discord vouches for, never one taken from a custom_id."""

    user_id: int
    name: str
    can_manage: bool = False


@dataclass(frozen=True)
class Choice:
    """A move about to be applied: who, what, the decision it answers, and any change to
    the seat's absence state that goes with it (saved under the same lock)."""

    seat: int
    action: Action
    decision: Decision
    seat_after: SeatRecord | None = None


ChangeKind = Literal["lobby", "started", "action", "finished", "cancelled", "reminder", "seats"]


@dataclass
class Change:
    kind: ChangeKind
    match: MatchRecord
    events: list[Event] = field(default_factory=list)
    state: GameState | None = None
    previous: GameState | None = None
    timed_out: int | None = None  # the seat whose clock ran out, when a timer moved for it
    timer: Timer | None = None  # the reminder, for kind "reminder"


Listener = Callable[[Change], Awaitable[None]]


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

    @classmethod
    def of(cls, record: MatchRecord, game: Game, state: GameState, seat: int | None) -> SeatView:
        view = game.view(state, seat)
        deciding = game.decisions(state)
        return cls(
            match=record,
            game=game,
            seat=seat,
            version=state.version,
            view=view,
            panels=game.panels(view),
            decision=next((d for d in deciding if d.seat == seat), None),
            waiting_on=frozenset(d.seat for d in deciding),
        )


def settings_of(record: MatchRecord) -> MatchSettings:
    return MatchSettings.model_validate_json(record.settings or "{}")


def new_match_id() -> str:
    # 10 hex characters (40 bits): short enough for custom_ids, ample against collisions.
    return secrets.token_hex(5)


def clean_name(name: str) -> str:
    """Names go into embeds and logs: no markdown, no mentions, a sane length."""
    cleaned = _MARKDOWN.sub("", name).strip() or "Player"
    return cleaned[:24]


class MatchService:
    def __init__(
        self,
        store: Store,
        games: dict[str, Game],
        *,
        new_seed: Callable[[], int] = lambda: secrets.randbits(63),
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.new_seed = new_seed
        self.clock: Clock = clock or SystemClock()
        # Told whenever timers change, so the scheduler can look at its next deadline.
        self.timers_changed: Callable[[], None] = lambda: None
        self.listeners: list[Listener] = []
        self._locks: dict[str, asyncio.Lock] = {}
        # Write-through cache of running matches, so a move costs no read and no JSON
        # parse. Safe because every write goes through this service, and the store's
        # version check still guards each save: a conflict drops the entry.
        self._cache: OrderedDict[str, tuple[MatchRecord, GameState]] = OrderedDict()
        self._reminded: dict[str, float] = {}  # match id -> when /remind last pinged it

    # --- plumbing ----------------------------------------------------------------------
    def lock(self, match_id: str) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    def game_of(self, record: MatchRecord) -> Game:
        return self.games[record.game]

    async def get(self, match_id: str) -> MatchRecord:
        record = await self.store.get(match_id)
        if record is None:
            raise MatchNotFound()
        return record

    def _remember(self, record: MatchRecord, state: GameState) -> None:
        self._cache[record.match_id] = (record, state)
        self._cache.move_to_end(record.match_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    async def _running(self, match_id: str) -> tuple[MatchRecord, GameState]:
        hit = self._cache.get(match_id)
        if hit is not None:
            self._cache.move_to_end(match_id)
            return hit
        record = await self.get(match_id)
        state = self.load_state(record)
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

    def load_state(self, record: MatchRecord) -> GameState:
        if record.state is None:
            raise NotRunning()
        return self.game_of(record).load_state(record.state)

    @staticmethod
    def require_host(record: MatchRecord, actor: Person, what: str) -> None:
        if actor.user_id != record.host_id and not actor.can_manage:
            raise NotHost(what)

    # --- server defaults ---------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return GuildSettings.model_validate_json(await self.store.guild_settings(guild_id))

    async def set_guild_defaults(
        self, guild_id: int, actor: Person, changes: dict[str, object]
    ) -> GuildSettings:
        """Defaults for the server's new matches: Manage Server only."""
        if not actor.can_manage:
            raise NotHost("change this server's settings")
        current = await self.guild_settings(guild_id)
        changes = dict(changes)
        threads = changes.pop("threads", current.threads)
        try:
            match = current.match.model_validate({**current.match.model_dump(), **changes})
        except ValueError:
            raise UserError(
                "Those settings do not fit together (a custom pace needs custom_minutes)."
            ) from None
        updated = current.model_copy(update={"match": match, "threads": bool(threads)})
        await self.store.save_guild_settings(guild_id, updated.model_dump_json())
        return updated

    # --- lobby -------------------------------------------------------------------------
    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host: Person,
        game_key: str,
        seats: Sequence[SeatRecord] | None = None,
        options: str | None = None,
        settings: str | None = None,
        rematch_of: str | None = None,
        in_thread: bool = False,
    ) -> MatchRecord:
        if game_key not in self.games:
            raise UnknownGame(game_key)
        game = self.games[game_key]
        stamp = datetime.now(UTC)
        defaults = await self.guild_settings(guild_id)
        if settings is None:
            match_settings = defaults.match.model_copy(update={"thread": in_thread})
            settings = match_settings.model_dump_json()
        record = MatchRecord(
            match_id=new_match_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            game=game_key,
            status="lobby",
            host_id=host.user_id,
            options=options or game.options_model().model_dump_json(),
            settings=settings,
            rematch_of=rematch_of,
            created_at=stamp,
            updated_at=stamp,
            seats=list(seats)
            if seats
            else [SeatRecord(seat=0, user_id=host.user_id, name=clean_name(host.name))],
        )
        try:
            await self.store.create_match(record)
        except ChannelBusy as busy:
            raise ChannelTaken(busy.match_id) from None
        await self.notify(Change(kind="lobby", match=record))
        return record

    async def _edit_lobby(
        self, match_id: str, edit: Callable[[MatchRecord], dict[str, object]]
    ) -> MatchRecord:
        """Apply ``edit`` (which returns the record's changed fields) to a lobby, and save it."""
        async with self.lock(match_id):
            record = await self.get(match_id)
            if record.status != "lobby":
                raise NotInLobby()
            record = record.model_copy(update=edit(record))
            seats = [
                SeatRecord(seat=i, user_id=s.user_id, name=s.name)
                for i, s in enumerate(record.seats)
            ]
            record = record.model_copy(update={"seats": seats})
            await self.store.save_lobby(
                match_id, seats, record.options, record.host_id, record.settings
            )
        await self.notify(Change(kind="lobby", match=record))
        return record

    async def join(self, match_id: str, person: Person) -> MatchRecord:
        def edit(record: MatchRecord) -> dict[str, object]:
            game = self.game_of(record)
            if record.seat_of(person.user_id) is not None:
                raise AlreadySeated()
            if len(record.seats) >= game.max_players:
                raise LobbyFull(game.max_players)
            name = unique_name(clean_name(person.name), record.seats)
            seat = SeatRecord(seat=len(record.seats), user_id=person.user_id, name=name)
            return {"seats": [*record.seats, seat]}

        return await self._edit_lobby(match_id, edit)

    async def leave(self, match_id: str, person: Person) -> MatchRecord:
        def edit(record: MatchRecord) -> dict[str, object]:
            if record.seat_of(person.user_id) is None:
                raise NotSeated()
            seats = [s for s in record.seats if s.user_id != person.user_id]
            host = record.host_id
            if host == person.user_id:
                humans = [s.user_id for s in seats if s.user_id is not None]
                host = humans[0] if humans else host  # hosting passes to the next person
            return {"seats": seats, "host_id": host}

        record = await self._edit_lobby(match_id, edit)
        if not any(s.user_id is not None for s in record.seats):
            return await self.cancel(match_id, None)
        return record

    async def add_bot(self, match_id: str, actor: Person) -> MatchRecord:
        def edit(record: MatchRecord) -> dict[str, object]:
            self.require_host(record, actor, "add bots")
            game = self.game_of(record)
            if len(record.seats) >= game.max_players:
                raise LobbyFull(game.max_players)
            taken = {s.name for s in record.seats}
            name = next(f"🤖 {n}" for n in BOT_NAMES if f"🤖 {n}" not in taken)
            seat = SeatRecord(seat=len(record.seats), user_id=None, name=name)
            return {"seats": [*record.seats, seat]}

        return await self._edit_lobby(match_id, edit)

    async def set_option(self, match_id: str, actor: Person, name: str, value: str) -> MatchRecord:
        def edit(record: MatchRecord) -> dict[str, object]:
            self.require_host(record, actor, "change the options")
            game = self.game_of(record)
            try:
                options = with_choice(game.load_options(record.options), name, value)
            except (ValueError, KeyError):
                raise UserError("That option is not available for this game.") from None
            return {"options": options.model_dump_json()}

        return await self._edit_lobby(match_id, edit)

    async def set_switches(self, match_id: str, actor: Person, on: set[str]) -> MatchRecord:
        """Turn exactly the named on/off rules on (advanced rules and house rules)."""

        def edit(record: MatchRecord) -> dict[str, object]:
            self.require_host(record, actor, "change the options")
            game = self.game_of(record)
            try:
                options = with_switches(game.load_options(record.options), on)
            except ValueError:
                raise UserError("That rule is not available for this game.") from None
            return {"options": options.model_dump_json()}

        return await self._edit_lobby(match_id, edit)

    async def set_pace(self, match_id: str, actor: Person, pace: str) -> MatchRecord:
        """How long each move may take: live, casual, async or correspondence."""

        def edit(record: MatchRecord) -> dict[str, object]:
            self.require_host(record, actor, "change the pace")
            try:
                settings = with_choice(settings_of(record), "pace", pace)
            except ValueError:
                raise UserError("That pace is not available.") from None
            return {"settings": settings.model_dump_json()}

        return await self._edit_lobby(match_id, edit)

    async def start(self, match_id: str, actor: Person) -> MatchRecord:
        async with self.lock(match_id):
            record = await self.get(match_id)
            if record.status != "lobby":
                raise NotInLobby()
            self.require_host(record, actor, "start the match")
            game = self.game_of(record)
            n = len(record.seats)
            if not game.min_players <= n <= game.max_players:
                raise UserError(
                    f"{game.name} needs {game.min_players} to {game.max_players} players; "
                    f"there {'is' if n == 1 else 'are'} {n}. Invite people or add bots."
                )
            seed = self.new_seed()
            try:
                state = game.setup(
                    game.load_options(record.options), [s.name for s in record.seats], seed
                )
            except IllegalAction as exc:
                raise UserError(str(exc)) from None
            started = record.model_copy(update={"status": "active"})
            await self.store.start(
                match_id,
                record.seats,
                seed,
                state.model_dump_json(),
                state.version,
                timers=self.timers_for(started, state),
            )
            record = record.model_copy(
                update={
                    "status": "active",
                    "seed": seed,
                    "state": state.model_dump_json(),
                    "version": state.version,
                }
            )
            self._remember(record, state)
        self.timers_changed()
        await self.notify(Change(kind="started", match=record, state=state, events=[]))
        return record

    async def cancel(self, match_id: str, actor: Person | None) -> MatchRecord:
        """End a lobby or a running match. ``actor`` None: the system (an empty lobby)."""
        async with self.lock(match_id):
            record = await self.get(match_id)
            if not record.is_open:
                raise NotRunning()
            if actor is not None:
                self.require_host(record, actor, "cancel the match")
            await self.store.set_status(match_id, "cancelled")
            await self.store.replace_timers(match_id, [])
            self.timers_changed()
            self._cache.pop(match_id, None)
            record = record.model_copy(update={"status": "cancelled"})
        await self.notify(Change(kind="cancelled", match=record))
        return record

    async def rematch(self, match_id: str, actor: Person) -> MatchRecord:
        record = await self.get(match_id)
        if record.status not in ("finished", "cancelled"):
            raise UserError("This match is still going; a rematch can start when it ends.")
        if record.seat_of(actor.user_id) is None and not actor.can_manage:
            raise NotSeated()
        return await self.open_lobby(
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host=actor,
            game_key=record.game,
            seats=[s.model_copy(update={"away": PRESENT, "missed": 0}) for s in record.seats],
            options=record.options,
            settings=record.settings,
            rematch_of=record.match_id,
        )

    # --- play --------------------------------------------------------------------------
    async def act(
        self,
        match_id: str,
        user_id: int,
        *,
        version: int,
        picks: Sequence[int] | None = None,
        action: Action | None = None,
    ) -> Change:
        """A person's move: option indexes of their current decision, or an action."""

        def choose(record: MatchRecord, game: Game, state: GameState) -> Choice:
            seat = record.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            mine = record.seats[seat]
            if mine.away == GONE:
                raise UserError("You left this match; a bot plays your seat now.")
            if state.version != version:
                raise StaleClick()
            decision = game.decision_for(state, seat)
            if decision is None:
                raise UserError("It is not your turn; you will be pinged when it is.")
            chosen = action if action is not None else pick_options(decision, picks or ())
            # Playing for yourself ends a run of timeouts, and sends a stand-in bot home.
            back = mine.model_copy(update={"away": PRESENT, "missed": 0})
            return Choice(seat, chosen, decision, back if back != mine else None)

        return await self._apply(match_id, choose)

    async def play_bot(self, match_id: str) -> Change | None:
        """One move for the first bot seat that must decide, through the same path."""

        def choose(record: MatchRecord, game: Game, state: GameState) -> Choice:
            bots = {s.seat for s in record.seats if s.played_by_bot}
            for decision in game.decisions(state):
                if decision.seat in bots:
                    return Choice(decision.seat, game.bot_action(state, decision.seat), decision)
            raise _NothingToDo()

        try:
            return await self._apply(match_id, choose)
        except (_NothingToDo, NotRunning, MatchNotFound):
            return None

    async def _apply(
        self,
        match_id: str,
        choose: Callable[[MatchRecord, Game, GameState], Choice],
        *,
        timed_out: bool = False,
    ) -> Change:
        async with self.lock(match_id):
            record, state = await self._running(match_id)
            if record.status != "active":
                raise NotRunning()
            game = self.game_of(record)
            chosen = choose(record, game, state)
            seat, action = chosen.seat, chosen.action
            # IllegalAction carries a sentence for the player; nothing has been written yet.
            new_state, events = game.apply(state, seat, action, decision=chosen.decision)
            status = "finished" if game.outcome(new_state) is not None else "active"
            state_json = new_state.model_dump_json()
            try:
                await self.store.save_action(
                    match_id,
                    expected_version=state.version,
                    state=state_json,
                    version=new_state.version,
                    seat=seat,
                    action=action.encode(),
                    status=status,
                    timers=self.timers_for(record.model_copy(update={"status": status}), new_state),
                )
            except VersionConflict:
                self._cache.pop(match_id, None)  # another process moved first: reload
                raise StaleClick() from None
            except BaseException:
                self._cache.pop(match_id, None)
                raise
            record = record.model_copy(
                update={"state": state_json, "status": status, "version": new_state.version}
            )
            if chosen.seat_after is not None:
                record = await self._save_seat(record, chosen.seat_after)
            self._remember(record, new_state)
        self.timers_changed()
        change = Change(
            kind="finished" if status == "finished" else "action",
            match=record,
            events=events,
            state=new_state,
            previous=state,
            timed_out=seat if timed_out else None,
        )
        await self.notify(change)
        return change

    # --- clocks ------------------------------------------------------------------------
    def timers_for(self, record: MatchRecord, state: GameState) -> list[Timer]:
        """The deadline and reminders of every pending decision, counted from now."""
        if record.status != "active":
            return []
        settings = settings_of(record)
        now = self.clock.now()
        return [
            Timer(
                match_id=record.match_id,
                kind=item.kind,
                seat=item.seat,
                version=state.version,
                due_at=item.due_at,
            )
            for decision in self.game_of(record).decisions(state)
            for item in plan(settings, decision.seat, decision.reaction, now)
        ]

    async def on_timer(self, timer: Timer) -> None:
        """A deadline or a reminder came due: the same locked path as a click."""
        try:
            record, state = await self._running(timer.match_id)
        except UserError:
            return  # the match is gone or over
        if record.status != "active" or state.version != timer.version:
            return  # stale: the match moved on since this timer was set
        if await self.postpone_for_vacation(record, timer):
            return
        if timer.kind == "timeout":
            await self.time_out(timer)
        else:
            await self.notify(Change(kind="reminder", match=record, state=state, timer=timer))

    async def time_out(self, timer: Timer) -> Change | None:
        """A clock ran out: the match's policy decides what happens to the seat.

        default_move: the decision's default move is played. bot: a bot takes the seat until
        its player is back, starting with this move. forfeit: default moves, and after
        ``forfeit_after`` timeouts in a row a bot takes the seat for good.
        """

        def choose(record: MatchRecord, game: Game, state: GameState) -> Choice:
            decision = game.decision_for(state, timer.seat)
            if state.version != timer.version or decision is None:
                raise StaleClick()
            settings = settings_of(record)
            seat = record.seats[timer.seat]
            away, missed = seat.away, seat.missed + 1
            if settings.on_timeout == "bot":
                away = max(away, STANDING_IN)
            elif settings.on_timeout == "forfeit" and missed >= settings.forfeit_after:
                away = GONE
            if away != PRESENT:
                action = game.bot_action(state, timer.seat)
            else:
                action = decision.default or decision.pick(decision.options[: decision.min_picks])
            after = seat.model_copy(update={"away": away, "missed": missed})
            return Choice(timer.seat, action, decision, after)

        try:
            return await self._apply(timer.match_id, choose, timed_out=True)
        except (StaleClick, NotRunning, MatchNotFound):
            return None  # a click got there first: exactly one of them applies

    async def postpone_for_vacation(self, record: MatchRecord, timer: Timer) -> bool:
        """With clocks of a day or more, a player's clock stops while they are away."""
        settings = settings_of(record)
        user_id = record.seats[timer.seat].user_id
        if settings.budget() < PAUSED_FROM or user_id is None:
            return False
        person = await self.user_settings(user_id)
        if not person.away_at(self.clock.now()):
            return False
        assert person.away_from is not None and person.away_until is not None
        later = timer.model_copy(
            update={
                "due_at": paused_due(
                    timer.due_at, settings.budget(), person.away_from, person.away_until
                )
            }
        )
        others = [
            t
            for t in await self.store.timers_of(record.match_id)
            if (t.kind, t.seat) != (timer.kind, timer.seat)
        ]
        await self.store.replace_timers(record.match_id, [*others, later])
        self.timers_changed()
        return True

    # --- people ------------------------------------------------------------------------
    async def user_settings(self, user_id: int) -> UserSettings:
        return UserSettings.model_validate_json(await self.store.user_settings(user_id))

    async def set_notify(self, user_id: int, on: bool) -> UserSettings:
        updated = (await self.user_settings(user_id)).model_copy(update={"notify": on})
        await self.store.save_user_settings(user_id, updated.model_dump_json())
        return updated

    async def go_away(self, user_id: int, until: float) -> UserSettings:
        """A vacation: clocks of async and correspondence games stop until ``until``.

        At most 14 days a calendar month (UTC), counted when booked."""
        now = self.clock.now()
        if until <= now:
            raise UserError("Pick a date in the future for your return.")
        current = await self.user_settings(user_id)
        month = datetime.fromtimestamp(now, UTC).strftime("%Y-%m")
        used = current.vacation_days if current.vacation_month == month else 0.0
        if current.away_at(now) and current.away_until is not None:
            used -= (current.away_until - now) / DAY  # replacing the vacation under way
        days = (until - now) / DAY
        if used + days > VACATION_DAYS_A_MONTH + 1e-9:
            left = max(0.0, VACATION_DAYS_A_MONTH - used)
            raise UserError(
                f"Vacations are limited to {VACATION_DAYS_A_MONTH} days a month; you have "
                f"{left:.1f} left this month."
            )
        updated = current.model_copy(
            update={
                "away_from": now,
                "away_until": until,
                "vacation_month": month,
                "vacation_days": used + days,
            }
        )
        await self.store.save_user_settings(user_id, updated.model_dump_json())
        return updated

    async def come_back(self, user_id: int) -> UserSettings:
        """Back early: the unused days return to this month's allowance."""
        now = self.clock.now()
        current = await self.user_settings(user_id)
        if not current.away_at(now) or current.away_until is None:
            raise UserError("You are not away.")
        refund = (current.away_until - now) / DAY
        updated = current.model_copy(
            update={"away_until": now, "vacation_days": max(0.0, current.vacation_days - refund)}
        )
        await self.store.save_user_settings(user_id, updated.model_dump_json())
        return updated

    async def _save_seat(self, record: MatchRecord, seat: SeatRecord) -> MatchRecord:
        await self.store.save_seat(record.match_id, seat)
        seats = [seat if s.seat == seat.seat else s for s in record.seats]
        return record.model_copy(update={"seats": seats})

    async def _change_seat(
        self, match_id: str, user_id: int, update: Callable[[SeatRecord], SeatRecord]
    ) -> MatchRecord:
        async with self.lock(match_id):
            record, state = await self._running(match_id)
            if record.status != "active":
                raise NotRunning()
            seat = record.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            record = await self._save_seat(record, update(record.seats[seat]))
            self._remember(record, state)
        await self.notify(Change(kind="seats", match=record, state=state, previous=state))
        return record

    async def im_back(self, match_id: str, user_id: int) -> MatchRecord:
        """The player takes their seat back from the bot standing in for them."""

        def back(seat: SeatRecord) -> SeatRecord:
            if seat.away == GONE:
                raise UserError("You left this match; a bot plays your seat to the end.")
            if seat.away == PRESENT:
                raise UserError("You are already playing your own seat.")
            return seat.model_copy(update={"away": PRESENT, "missed": 0})

        return await self._change_seat(match_id, user_id, back)

    async def leave_match(self, match_id: str, user_id: int) -> MatchRecord:
        """Leave a running match: a bot plays the seat to the end; with nobody left, it ends."""

        def gone(seat: SeatRecord) -> SeatRecord:
            if seat.away == GONE:
                raise UserError("You already left this match.")
            return seat.model_copy(update={"away": GONE})

        record = await self._change_seat(match_id, user_id, gone)
        if not any(s.user_id is not None and s.away != GONE for s in record.seats):
            return await self.cancel(match_id, None)
        return record

    async def deadlines(self, match_id: str) -> dict[int, float]:
        """When each seat that must decide runs out of time."""
        return {
            t.seat: t.due_at for t in await self.store.timers_of(match_id) if t.kind == "timeout"
        }

    # --- reading -----------------------------------------------------------------------
    async def seat_view(self, match_id: str, user_id: int | None) -> SeatView:
        record, state = await self._running(match_id)
        seat = record.seat_of(user_id) if user_id is not None else None
        return SeatView.of(record, self.game_of(record), state, seat)

    async def open_for_user(self, guild_id: int, user_id: int) -> list[MyMatch]:
        """The user's open matches here: the ones waiting on them first, soonest deadline
        first; then the ones waiting on others."""
        found = []
        for record in await self.store.open_for_user(guild_id, user_id):
            waiting_on: frozenset[int] = frozenset()
            if record.status == "active" and record.state:
                state = self.load_state(record)
                waiting_on = frozenset(d.seat for d in self.game_of(record).decisions(state))
            seat = record.seat_of(user_id)
            deadlines = await self.deadlines(record.match_id) if waiting_on else {}
            found.append(
                MyMatch(
                    match=record,
                    my_turn=seat in waiting_on,
                    waiting_on=waiting_on,
                    my_deadline=deadlines.get(seat) if seat is not None else None,
                )
            )
        found.sort(key=lambda m: (not m.my_turn, m.my_deadline or float("inf")))
        return found

    async def remind(self, guild_id: int, user_id: int) -> list[Change]:
        """Ping whoever holds up the user's matches; at most once an hour per match."""
        sent = []
        now = self.clock.now()
        for mine in await self.open_for_user(guild_id, user_id):
            record = mine.match
            others = [
                s
                for s in record.seats
                if s.seat in mine.waiting_on
                and s.user_id not in (None, user_id)
                and not s.played_by_bot
            ]
            if (
                not others
                or now - self._reminded.get(record.match_id, -REMIND_EVERY) < REMIND_EVERY
            ):
                continue
            self._reminded[record.match_id] = now
            for seat in others:
                timer = Timer(
                    match_id=record.match_id,
                    kind="remind_asked",
                    seat=seat.seat,
                    version=record.version,
                    due_at=now,
                )
                change = Change(kind="reminder", match=record, timer=timer)
                await self.notify(change)
                sent.append(change)
        return sent


@dataclass(frozen=True)
class MyMatch:
    match: MatchRecord
    my_turn: bool
    waiting_on: frozenset[int]
    my_deadline: float | None


class _NothingToDo(Exception):
    pass


def pick_options(decision: Decision, picks: Sequence[int]) -> Action:
    """Turn option indexes from a button or select into the decision's action."""
    try:
        chosen = [decision.options[i] for i in dict.fromkeys(picks)]
    except IndexError:
        raise StaleClick() from None
    if not chosen:
        raise UserError("Pick something first.")
    try:
        return decision.pick(chosen)
    except IllegalAction as exc:
        raise UserError(str(exc)) from None


def unique_name(name: str, seats: Sequence[SeatRecord]) -> str:
    taken = {s.name for s in seats}
    if name not in taken:
        return name
    return next(f"{name} {i}" for i in range(2, 99) if f"{name} {i}" not in taken)
