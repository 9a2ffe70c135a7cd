"""The tournament service's shared part: the store, one lock per event, the listeners,
and reading an event (its record, its format, the view shown of it). The other parts of
``Tournaments`` (sign-up, rounds, tables, organiser tools, exports) build on it."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import weakref
from collections.abc import Callable, Sequence

from bot.errors import UserError
from bot.ratings import BOT_IDS, Rating, win_chances
from bot.service import MatchService, Person, clean_name
from bot.service.base import settings_of
from bot.service.tournaments.models import (
    PAUSED,
    OpenThread,
    TournamentChange,
    TournamentListener,
    TournamentView,
    progress_of,
    read_view,
)
from bot.store import MatchRecord, Timer
from bot.store.tournament_records import (
    TOURNAMENT_TIMER,
    AuditRecord,
    EntrantRecord,
    ResultRecord,
    TournamentRecord,
    TournamentTable,
)
from bot.tournaments.config import TournamentConfig
from bot.tournaments.formats import Format, format_of
from bot.tournaments.formats.base import UNRATED
from bot.tournaments.formats.swiss import Swiss
from bot.tournaments.progress import Progress
from games.core.text import Text, t

log = logging.getLogger(__name__)


# Each organiser's tool refused to someone else, a whole sentence each; ``who`` says who
# may organise here ("Manage Server or the @Organisers role").
REFUSALS: dict[str, Callable[[Text], Text]] = {
    "set a result": lambda who: t(
        "Only the organiser or someone with {who} can set a result.", who=who
    ),
    "drop players": lambda who: t(
        "Only the organiser or someone with {who} can drop players.", who=who
    ),
    "undrop players": lambda who: t(
        "Only the organiser or someone with {who} can undrop players.", who=who
    ),
    "disqualify players": lambda who: t(
        "Only the organiser or someone with {who} can disqualify players.", who=who
    ),
    "re-pair a round": lambda who: t(
        "Only the organiser or someone with {who} can re-pair a round.", who=who
    ),
    "extend a table": lambda who: t(
        "Only the organiser or someone with {who} can extend a table.", who=who
    ),
    "start the next round": lambda who: t(
        "Only the organiser or someone with {who} can start the next round.", who=who
    ),
    "pause the tournament": lambda who: t(
        "Only the organiser or someone with {who} can pause the tournament.", who=who
    ),
    "resume the tournament": lambda who: t(
        "Only the organiser or someone with {who} can resume the tournament.", who=who
    ),
    "end the tournament": lambda who: t(
        "Only the organiser or someone with {who} can end the tournament.", who=who
    ),
    "cancel the tournament": lambda who: t(
        "Only the organiser or someone with {who} can cancel the tournament.", who=who
    ),
    "export the tournament": lambda who: t(
        "Only the organiser or someone with {who} can export the tournament.", who=who
    ),
    "pick the bots' levels": lambda who: t(
        "Only the organiser or someone with {who} can pick the bots' levels.", who=who
    ),
    "add bots": lambda who: t("Only the organiser or someone with {who} can add bots.", who=who),
    "add players": lambda who: t(
        "Only the organiser or someone with {who} can add players.", who=who
    ),
    "start the tournament": lambda who: t(
        "Only the organiser or someone with {who} can start the tournament.", who=who
    ),
}


class TournamentsBase:
    """What every part of the service shares: the store, the locks, the listeners, and
    reading an event (its record, its format, the view shown of it)."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.store = matches.store
        self.listeners: list[TournamentListener] = []
        # The Discord layer opens each table's thread; without one, a table plays in the
        # event's channel id plus its number (service tests, a terminal front end).
        self.open_thread: OpenThread | None = None
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[None]] = set()
        matches.listeners.append(self.on_match_change)
        matches.holds.append(self.hold)

    @property
    def clock(self):  # type: ignore[no-untyped-def]
        return self.matches.clock  # tests swap the match service's clock: share it

    def lock(self, tournament_id: str) -> asyncio.Lock:
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        return lock

    async def hold(self, record: MatchRecord) -> str | None:
        """Asked before every move: a table of a paused event takes none (a click, a bot,
        a timer), so nothing happens at it until the organiser resumes."""
        event_id = settings_of(record).event
        if event_id is None:
            return None
        event = await self.store.get_tournament(event_id)
        return PAUSED if event is not None and event.status == "paused" else None

    async def notify(self, change: TournamentChange) -> None:
        for listener in self.listeners:
            try:
                await listener(change)
            except Exception:
                log.exception("event listener failed for %s", change.event.tournament_id)

    # --- reading ---------------------------------------------------------------------------
    async def get(self, tournament_id: str) -> TournamentRecord:
        record = await self.store.get_tournament(tournament_id)
        if record is None:
            raise UserError("That tournament no longer exists. See /tournament standings.")
        return record

    @staticmethod
    def config_of(event: TournamentRecord) -> TournamentConfig:
        return TournamentConfig.model_validate_json(event.config)

    def format_of(self, event: TournamentRecord, config: TournamentConfig | None = None) -> Format:
        """The event's format, bound to its choices (as stored, unless given) and game."""
        return format_of(config or self.config_of(event), self.matches.games[event.game])

    def progress(
        self,
        event: TournamentRecord,
        config: TournamentConfig,
        entrants: Sequence[EntrantRecord],
        results: Sequence[ResultRecord],
        tables: Sequence[TournamentTable],
    ) -> Progress:
        """The event as stored, for its format to read."""
        game = self.matches.games[event.game]
        return progress_of(event, config, game, entrants, results, tables)

    def _cut(
        self,
        event: TournamentRecord,
        config: TournamentConfig,
        entrants: Sequence[EntrantRecord],
        results: Sequence[ResultRecord],
        players: Sequence[int],
    ) -> list[int]:
        """A Swiss event's top cut in seed order (``Swiss.cut_seeds``), from these records
        alone (the service's tests pick the field by hand)."""
        progress = self.progress(event, config, entrants, results, [])
        assert sorted(progress.players) == sorted(players), "the field is the participants"
        return Swiss(config, self.matches.games[event.game]).cut_seeds(progress)

    async def view(self, tournament_id: str) -> TournamentView:
        event = await self.get(tournament_id)
        return await read_view(self.store, self.matches.games[event.game], event)

    async def entrant_ratings(
        self, event: TournamentRecord, entrants: Sequence[EntrantRecord]
    ) -> dict[int, int]:
        """Each entrant's rating in the event's game on its server as displayed, read now;
        bots and players never rated there at a new player's."""
        users = [e.user_id for e in entrants if e.user_id is not None]
        found = await self.store.ratings_of(event.guild_id, event.game, users)
        return {
            e.entrant: found[e.user_id].display if e.user_id in found else UNRATED for e in entrants
        }

    async def chances(self, record: MatchRecord) -> list[tuple[str, int]]:
        """Each seat's name and chance to win the table, in whole percent summing to 100,
        from its player's rating (a bot's: its level's; a new player's if never rated);
        none when the server does not rate matches, as every rating would be the default."""
        if (await self.matches.guild_settings(record.guild_id)).ratings == "off":
            return []
        ids = [s.user_id if s.user_id is not None else BOT_IDS[s.level] for s in record.seats]
        found = await self.store.ratings_of(record.guild_id, record.game, sorted(set(ids)))
        ratings = [Rating(found[i].mu, found[i].sigma) if i in found else Rating() for i in ids]
        return [(s.name, c) for s, c in zip(record.seats, win_chances(ratings), strict=True)]

    async def may_organise(self, guild_id: int, actor: Person) -> bool:
        """Manage Server, or the server's organiser role (``/settings organiser_role:``)."""
        if actor.can_manage:
            return True
        role = (await self.matches.guild_settings(guild_id)).organiser_role
        return role is not None and role in actor.roles

    async def organisers(self, guild_id: int) -> Text:
        """Who may organise here, for a refusal: "Manage Server or the @Role role"."""
        role = (await self.matches.guild_settings(guild_id)).organiser_role
        if role is None:
            return t("Manage Server")
        return t("Manage Server or the <@&{role}> role", role=role)

    async def require_organiser(self, event: TournamentRecord, actor: Person, what: str) -> None:
        """``what``: the organiser's tool, a key of ``REFUSALS``."""
        if actor.user_id == event.organiser_id or await self.may_organise(event.guild_id, actor):
            return
        raise UserError(REFUSALS[what](await self.organisers(event.guild_id)))

    async def audit(
        self, event: TournamentRecord, actor: Person, action: str, before: object, after: object
    ) -> None:
        await self.store.add_audit(
            AuditRecord(
                tournament_id=event.tournament_id,
                actor_id=actor.user_id,
                actor_name=clean_name(actor.name),
                action=action,
                before=json.dumps(before, sort_keys=True),
                after=json.dumps(after, sort_keys=True),
                at=self.clock.now(),
            )
        )

    async def _signup_change(self, tournament_id: str) -> None:
        await self.notify(TournamentChange(kind="signup", event=await self.get(tournament_id)))

    def _timer(self, event: TournamentRecord, kind: str, round: int, due: float) -> Timer:
        return Timer(
            match_id=TOURNAMENT_TIMER + event.tournament_id,
            kind=kind,
            seat=0,
            version=round,
            due_at=due,
        )

    # --- organiser tools -------------------------------------------------------------------
    async def close_match(self, match_id: str, by: Person) -> None:
        """Close a table's match for the event. Whoever may run the event may close its
        tables, though an organiser of the role is neither the match's host nor holds
        Manage Server; its thread says who closed it."""
        await self.matches.cancel(match_id, dataclasses.replace(by, can_manage=True))

    async def _organise(self, tournament_id: str, actor: Person, what: str) -> TournamentRecord:
        event = await self.get(tournament_id)
        await self.require_organiser(event, actor, what)
        if not event.is_open:
            raise UserError(t("This tournament is over."))
        return event

    def _find_entrant(self, entrants: Sequence[EntrantRecord], name: str) -> EntrantRecord:
        wanted = name.strip().lstrip("@").casefold()
        for e in entrants:
            if e.name.casefold() == wanted or (e.user_id is not None and str(e.user_id) == wanted):
                return e
        raise UserError(t("Nobody called '{name}' is in this tournament.", name=name.strip()))
