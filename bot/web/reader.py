"""All the web pages read of the bot: the store, the games, and the match service's replays.

Nothing here writes: the pages take these reads and nothing else (the import-linter
contract ``web-reads-only`` keeps the service's writing parts out of ``bot.web``). Running
matches are drawn from the public view only (seat None), like the table in Discord.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel, ValidationError

from bot.errors import UserError
from bot.ratings import shared_ranks
from bot.seasons import SeasonLine
from bot.service.base import SeatView, seat_place, waiting_on
from bot.service.history import History, Replay
from bot.service.season_reads import season_tables
from bot.service.tournaments.models import EventRecords, event_records, view_of
from bot.store import MatchRecord, Store
from bot.store.seasons import SeasonRecord
from bot.store.tournament_records import TournamentRecord
from bot.timing import GuildSettings
from bot.tournaments.config import TournamentConfig
from bot.tournaments.formats import format_class
from bot.web.paths import site_root
from games.core.panels import Panel, Panels
from games.core.protocol import Game, GameState, Picturing
from games.core.translations import ENGLISH, language_for

LEADERS_SHOWN = 10
SEASON_LINES_SHOWN = 10  # a division's lines on the front page
PLAYER_MATCHES = 50  # finished matches listed on a player's page
FINALS_KEPT = 4_096  # finished events whose final places are remembered
PLAYER_EVENTS = 50  # events listed on a player's page


@dataclass(frozen=True)
class Site:
    """A server that opted in, reached through its current path."""

    guild_id: int
    root: str  # /s/<guild>/<token>
    token: str
    language: str = ENGLISH  # the server's ``/settings language:`` (its public messages')


@dataclass(frozen=True)
class TableNow:
    """A match as everyone may see it at one version: its public panels and whose turn."""

    record: MatchRecord
    game: Game
    version: int
    view: BaseModel
    panels: tuple[Panel, ...]
    waiting: tuple[str, ...]  # names of the seats the table waits for

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.record.seats]

    @property
    def pictured(self) -> bool:
        return isinstance(self.game, Picturing)


@dataclass(frozen=True)
class Leader:
    rank: int
    user_id: int
    name: str
    rating: int
    games: int


@dataclass(frozen=True)
class EventCard:
    """An event on the front page: its own row, and the winner of a finished one."""

    record: TournamentRecord
    game: str  # its game's name
    format: str  # its format's name, short ("Swiss", "Single elimination")
    champion: str | None = None  # a finished event's winner, as entered


@dataclass(frozen=True)
class Final:
    """A finished event's standings as they stand for good (a finished event takes no
    change, ``_organise``): its winner's name and each person's place."""

    champion: str | None
    places: dict[int, int]  # user id -> rank (bots have no user id)
    ranked: int  # how many the standings rank


@dataclass(frozen=True)
class EventPlaced:
    """An event on a player's page: where they finished, once it is over."""

    record: TournamentRecord
    game: str
    format: str
    place: int | None  # None while it runs, or if they were not ranked
    ranked: int


@dataclass(frozen=True)
class SeasonCard:
    """A game's season on the front page: the running one (else the last), each division's
    top lines with the players' names."""

    game: str  # its game's name
    season: SeasonRecord
    divisions: list[list[tuple[SeasonLine, str]]]  # the top first; (line, name)


@dataclass(frozen=True)
class Front:
    running: list[TableNow]
    tournaments: list[EventCard]
    leaders: dict[str, list[Leader]]  # by game name, games with no rated player left out
    seasons: list[SeasonCard] = field(default_factory=list)


@dataclass(frozen=True)
class Placed:
    """One finished match on a player's page."""

    match_id: str
    game: str
    place: int | None
    players: int
    finished_at: float | None


@dataclass(frozen=True)
class Curve:
    """A player's rating after each rated match of one game, oldest first."""

    game: str
    points: list[tuple[float, int]]  # (when, display rating)


@dataclass(frozen=True)
class PlayerPage:
    user_id: int
    name: str
    matches: list[Placed]  # the latest PLAYER_MATCHES
    curves: list[Curve]
    events: list[EventPlaced]
    finished: int = 0  # their finished matches in all, however many are listed


def format_name(event: TournamentRecord) -> str:
    """The event's format as the organiser picked it, without the label's details in
    brackets; "" for a format this bot no longer knows."""
    try:
        kind = format_class(TournamentConfig.model_validate_json(event.config).format)
    except (UserError, ValidationError):
        return ""
    return kind.short_label()


def picture(game: Game, view: BaseModel) -> bytes | None:
    """The game's public table picture, where the game draws one (``Picturing``)."""
    return game.table_picture(view) if isinstance(game, Picturing) else None


def table_now(record: MatchRecord, game: Game, state: GameState) -> TableNow:
    """The match now, as a spectator sees it (a table that ended has nobody to move)."""
    deciding = game.decided(state) if record.status == "active" else []
    seen = SeatView.of(record, game, state, None, deciding)
    # The panels the move built once (``Engine.public_table``) while it ran: not again.
    return _shown(record, game, state, seen.view, seen.panels, seen.waiting_on)


def step_now(record: MatchRecord, game: Game, state: GameState) -> TableNow:
    """A step of a finished match's replay, as a spectator saw it then: whose turn it was."""
    view = game.view(state, None)
    return _shown(record, game, state, view, game.panels(view), waiting_on(game.decisions(state)))


def _shown(
    record: MatchRecord,
    game: Game,
    state: GameState,
    view: BaseModel,
    panels: Panels,
    waiting: frozenset[int],
) -> TableNow:
    names = {s.seat: s.name for s in record.seats}
    shown = tuple(p for p in (panels.table, panels.details) if p is not None)
    who = tuple(names.get(seat, "?") for seat in sorted(waiting))
    return TableNow(record, game, state.version, view, shown, who)


class Reader:
    def __init__(self, store: Store, games: Mapping[str, Game], history: History) -> None:
        self.store = store
        self.games = games
        self.history = history
        # Computed once per finished event from its standings (``Final``).
        self.finals: dict[str, Final] = {}
        # Each server's language as its last page load read it: a live table's changes
        # render in it without a read of the settings per change.
        self.languages: dict[int, str] = {}

    async def site(self, guild_id: int, token: str) -> Site | None:
        """The server if it opted in and ``token`` is its current one; else None (404)."""
        settings = GuildSettings.model_validate_json(await self.store.guild_settings(guild_id))
        if not settings.web or not settings.web_token:
            return None
        if not secrets.compare_digest(settings.web_token.encode(), token.encode()):
            return None
        # No language set: the server's preferred locale, as its Discord messages speak.
        language = language_for(settings.language or settings.preferred_locale)
        self.languages[guild_id] = language
        return Site(guild_id, site_root(guild_id, token), token, language)

    def language(self, guild_id: int) -> str:
        """A server's page language as last read (English before any page load)."""
        return self.languages.get(guild_id, ENGLISH)

    async def current_token(self, guild_id: int) -> str | None:
        settings = GuildSettings.model_validate_json(await self.store.guild_settings(guild_id))
        return settings.web_token if settings.web else None

    async def front(self, site: Site) -> Front:
        running = [
            table_now(r, self.games[r.game], self.games[r.game].load_state(r.state))
            for r in await self.store.running_in_guild(site.guild_id)
            if r.game in self.games and r.state is not None
        ]
        events = [
            EventCard(e, self.games[e.game].name, format_name(e), await self.champion(e))
            for e in await self.store.tournaments(site.guild_id, open_only=False)
            if e.game in self.games
        ]
        leaders: dict[str, list[Leader]] = {}
        for key, game in self.games.items():
            top = await self.store.leaderboard(site.guild_id, key, limit=LEADERS_SHOWN)
            names = await self.store.player_names(site.guild_id, [r.user_id for r in top])
            if top:
                ranks = shared_ranks([r.display for r in top])
                leaders[game.name] = [
                    Leader(rank, r.user_id, names.get(r.user_id, "Player"), r.display, r.games)
                    for rank, r in zip(ranks, top, strict=True)
                ]
        return Front(running, events, leaders, await self.seasons(site.guild_id))

    async def seasons(self, guild_id: int) -> list[SeasonCard]:
        """Each game's season here (the running one, else the last kept), its divisions'
        top ``SEASON_LINES_SHOWN`` lines."""
        cards = []
        for setup in await self.store.season_setups(guild_id):
            found = await self.store.seasons(guild_id, setup.game)
            if not found or setup.game not in self.games:
                continue
            season = next((s for s in found if s.status == "running"), found[0])
            tables = await season_tables(self.store, season, setup.divisions)
            shown = [table[:SEASON_LINES_SHOWN] for table in tables]
            names = await self.store.player_names(
                guild_id, [line.user_id for table in shown for line in table]
            )
            divisions = [
                [(line, names.get(line.user_id, "Player")) for line in table] for table in shown
            ]
            cards.append(SeasonCard(self.games[setup.game].name, season, divisions))
        return cards

    async def champion(self, event: TournamentRecord) -> str | None:
        """A finished event's winner; None while it runs (or if it ended with nobody)."""
        final = await self.final(event)
        return None if final is None else final.champion

    async def final(self, event: TournamentRecord) -> Final | None:
        """A finished event's final places; None while it runs."""
        if event.status != "finished":
            return None
        if event.tournament_id not in self.finals:
            game, records = self.games[event.game], await self.event_records(event)
            # Off the event loop: a large event's standings take tens of milliseconds.
            view = await asyncio.to_thread(view_of, game, event, records)
            won = view.champion()
            users = {e.entrant: e.user_id for e in view.entrants if e.user_id is not None}
            places = {users[s.player]: s.rank for s in view.standings if s.player in users}
            while len(self.finals) >= FINALS_KEPT:
                self.finals.pop(next(iter(self.finals)))
            self.finals[event.tournament_id] = Final(
                None if won is None else won.name, places, len(view.standings)
            )
        return self.finals[event.tournament_id]

    async def match(self, site: Site, match_id: str) -> MatchRecord | None:
        record = await self.store.get(match_id)
        if record is None or record.guild_id != site.guild_id or record.game not in self.games:
            return None
        return record

    def now(self, record: MatchRecord) -> TableNow | None:
        if record.state is None:
            return None
        game = self.games[record.game]
        return table_now(record, game, game.load_state(record.state))

    async def replay(self, site: Site, match_id: str) -> Replay:
        """Raises the service's ``UserError`` for a match that is not finished here."""
        return await self.history.replay(site.guild_id, match_id)

    async def replay_picture(self, site: Site, match_id: str, step: int) -> bytes | None:
        found = await self.replay(site, match_id)
        if not 0 <= step < len(found.frames):
            return None
        game = self.games[found.record.game]
        view = game.view(found.frames[step].state, None)
        return await asyncio.to_thread(picture, game, view)

    async def event(self, site: Site, tournament_id: str) -> TournamentRecord | None:
        event = await self.store.get_tournament(tournament_id)
        if event is None or event.guild_id != site.guild_id or event.game not in self.games:
            return None
        return event

    async def event_records(self, event: TournamentRecord) -> EventRecords:
        return await event_records(self.store, event)

    async def player(self, site: Site, user_id: int) -> PlayerPage | None:
        names = await self.store.player_names(site.guild_id, [user_id])
        if user_id not in names:
            return None
        records = await self.store.finished_matches(
            site.guild_id, user_id=user_id, limit=PLAYER_MATCHES
        )
        matches = [self._placed(r, user_id) for r in records if r.game in self.games]
        changes = await self.store.rating_changes_of(site.guild_id, None, user_id)
        curves: dict[str, list[tuple[float, int]]] = {}
        for change in changes:
            if change.game in self.games:
                name = self.games[change.game].name
                curves.setdefault(name, []).append((change.at, change.display_after))
        entered = await self.store.tournaments_entered(site.guild_id, user_id)
        events = []
        for event in [e for e in entered if e.game in self.games][:PLAYER_EVENTS]:
            final = await self.final(event)
            place = None if final is None else final.places.get(user_id)
            ranked = 0 if final is None else final.ranked
            game = self.games[event.game].name
            events.append(EventPlaced(event, game, format_name(event), place, ranked))
        return PlayerPage(
            user_id,
            names[user_id],
            matches,
            [Curve(game, points) for game, points in sorted(curves.items())],
            events,
            await self.store.count_finished(site.guild_id, user_id=user_id),
        )

    def _placed(self, record: MatchRecord, user_id: int) -> Placed:
        game = self.games[record.game]
        place = seat_place(record, game, record.seat_of(user_id))
        return Placed(record.match_id, game.name, place, len(record.seats), record.finished_at)
