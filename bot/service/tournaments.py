"""Running tournaments: sign-up, rounds of tables played as ordinary matches, results,
standings, deadlines and the organiser's tools.

Each table is a match created and started through the lobby path (host: the organiser) in
a thread of its own; its result is recorded when the match ends, keyed by the match id, so
nobody reports scores. Standings, pairings and brackets are recomputed from the stored
results by the pure ``bot.tournaments`` modules. One lock per event orders everything that
changes it: a result, a timer, a click, an organiser's correction.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import logging
import math
import re
import secrets
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import count
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.errors import NotRunning, UserError
from bot.ratings import Rating, win_chances
from bot.service import Change, MatchService, Person, clean_name
from bot.service.base import match_outcome, settings_of
from bot.store import MatchRecord, SeatRecord, Timer
from bot.store.events import (
    EVENT_TIMER,
    AuditRecord,
    EntrantRecord,
    EventTable,
    ResultRecord,
    RoundRecord,
    TableGame,
    TournamentRecord,
)
from bot.store.models import GONE
from bot.timing import MatchSettings
from bot.tournaments import best_of as bo
from bot.tournaments import elimination as elim
from bot.tournaments.entries import late_entry, late_entry_open
from bot.tournaments.lots import lot, rated_lot
from bot.tournaments.pods import pair_pods, pod_rounds
from bot.tournaments.results import TableResult, had_bye, meetings
from bot.tournaments.round_robin import MAX_PLAYERS as ROUND_ROBIN_MOST
from bot.tournaments.round_robin import effective_results, round_robin_rounds, schedule
from bot.tournaments.scoring import (
    MATCH_POINTS,
    POD_SCORES,
    MatchPoints,
    Scoring,
    organiser_scores,
    parse_place_scores,
    place_scores_text,
    total_points,
)
from bot.tournaments.seating import seat_tables
from bot.tournaments.standings import (
    Standing,
    pairing_order,
    pod_standings,
    round_robin_standings,
    swiss_standings,
)
from bot.tournaments.swiss import pair_swiss, swiss_rounds
from bot.tournaments.tiebreakers import percent
from bot.tournaments.top_cut import cut, default_cut, semi_final_tables
from games.core.protocol import Game
from games.core.words import BOT_NAMES

log = logging.getLogger(__name__)

Format = Literal[
    "swiss",
    "pods",
    "single_elimination",
    "double_elimination",
    "round_robin",
    "double_round_robin",
    "multiplayer_elimination",
]
EventPace = Literal["live", "casual", "async", "correspondence"]
Seeding = Literal["lot", "rating"]
FORMAT_LABELS = {
    "swiss": "Swiss (2 players a table)",
    "pods": "Pod Swiss (3–8 players a table)",
    "single_elimination": "Single elimination",
    "double_elimination": "Double elimination",
    "round_robin": "Round robin (2 a table, up to 16: everyone meets once)",
    "double_round_robin": "Double round robin (2 a table, up to 16: everyone meets twice)",
    "multiplayer_elimination": "Multiplayer elimination (3–8 a table, the top go on)",
}
ROUND_ROBINS = ("round_robin", "double_round_robin")
MULTIPLAYER_FORMATS = ("pods", "multiplayer_elimination")  # the rest seat two a table
# Players may join these late by themselves; brackets and round robins are fixed at the start.
LATE_ENTRY_FORMATS = ("swiss", "pods")
# Brackets fixed by round 1's seeds: a rating-seeded one keeps the ratings read at the start,
# as the event's own matches move them and the bracket is rebuilt from its seeds each time.
SEEDED_AT_START = ("single_elimination", "double_elimination", "multiplayer_elimination")
UNRATED = Rating().display  # a bot, or a player never rated in the game here
# Pods are for tables of 3 to 8: a game that two can play still seats three at least.
POD_LEAST = 3
# A round robin's rest round scores nothing: everyone has one in an odd field, and a bye
# worth a win would count for the leaver's opponents when a drop voids a result.
ROUND_ROBIN_POINTS = MatchPoints(bye=0)
SEMI_FINAL_CUT = 16  # pods: four snaked semi-final tables of four, then a final table
DAY = 86_400.0
# How long a round may last before its unfinished tables are drawn (live: no deadline).
ROUND_DEADLINES: dict[str, float | None] = {
    "live": None,
    "casual": DAY,
    "async": 14 * DAY,
    "correspondence": 30 * DAY,
}
# Pause between rounds, so players can read the standings (async events go straight on).
GRACE: dict[str, float] = {"live": 120.0, "casual": 0.0, "async": 0.0, "correspondence": 0.0}
# Timeouts in a row before a seat forfeits: the slower the pace, the fewer it takes.
FORFEIT_AFTER: dict[str, int] = {"live": 3, "casual": 3, "async": 2, "correspondence": 2}
HELD = 100 * 365 * DAY  # a paused event's clocks are set this far ahead until it resumes
PAUSED = "The event is paused by the organiser; play resumes when they press Resume."


class EventConfig(BaseModel):
    """How an event is run: fixed at creation (the organiser may end, pause or extend)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Format = "swiss"
    rounds: int | None = Field(default=None, ge=1, le=30)  # None: the format's default
    pace: EventPace = "casual"
    max_players: int = Field(default=64, ge=2, le=512)
    # The event starts by itself then (as if the organiser pressed Start, which they may
    # do sooner); shown on the sign-up embed.
    starts_at: float | None = None
    pod_size: int | None = Field(default=None, ge=3, le=8)
    # Swiss: a single-elimination bracket of the top N (2, 4 or 8); pods: a final table.
    top_cut: int = Field(default=0, ge=0, le=16)
    checkin: bool = False
    reset: bool = True  # double elimination: a grand final lost by the unbeaten is replayed
    best_of: Literal[1, 3] = 1  # 3: two-player tables go to the first to win two games
    paused_at: float | None = None  # set while the organiser holds the event
    # Multiplayer elimination: how many of each table go on (None: half the table size).
    advance: int | None = Field(default=None, ge=1, le=7)
    # Pods: the organiser's place scores per table size, as ``3:6/3/0, 4:6/4/2/0``.
    scores: str | None = None
    # Swiss: the top cut sized by the field at the start (``default_cut``: top 4 from 9
    # players, 8 from 17, none below); ``top_cut`` is set then.
    default_cut: bool = False
    # Pods: ⌊N/s⌋ larger tables instead of ⌈N/s⌉ smaller ones (17 → 5/4/4/4).
    larger_tables: bool = False
    # The organiser's round length in hours (None: the pace's, ``ROUND_DEADLINES``).
    round_hours: int | None = Field(default=None, ge=1, le=720)
    # How ties are ordered for pairing and seeding: the seeded lot, or the entrants' ratings
    # (then the lot): round 1 by rating, rating neighbours within a score group, brackets
    # seeded by rating.
    seeding: Seeding = "lot"
    # A rating-seeded bracket (``SEEDED_AT_START``): each entrant's rating at the start.
    seed_ratings: dict[int, int] | None = None

    @property
    def two_player(self) -> bool:
        return self.format not in MULTIPLAYER_FORMATS

    @property
    def round_length(self) -> float | None:
        """Seconds a round lasts before its unfinished tables are drawn (None: no end)."""
        if self.round_hours is not None:
            return self.round_hours * 3600.0
        return ROUND_DEADLINES[self.pace]


@dataclass
class EventChange:
    """What changed in an event, for the Discord layer to show."""

    kind: Literal[
        "signup",
        "round",
        "table",
        "result",
        "standings",
        "finished",
        "cancelled",
        "forfeit",
        "reminder",
        "paused",
        "resumed",
        "repaired",
    ]
    event: TournamentRecord
    round: int = 0
    tables: list[EventTable] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    # Swiss: the tables of this round whose players met before (no pairing avoided them).
    rematches: list[tuple[int, ...]] = field(default_factory=list)
    match: MatchRecord | None = None
    entrant: EntrantRecord | None = None
    text: str = ""


EventListener = Callable[[EventChange], Awaitable[None]]
OpenThread = Callable[[TournamentRecord, int, int, list[str]], Awaitable[int]]


@dataclass(frozen=True)
class EventView:
    """Everything shown about an event: its record, config, entrants and standings."""

    event: TournamentRecord
    config: EventConfig
    game: Game
    entrants: list[EntrantRecord]
    results: list[ResultRecord]
    tables: list[EventTable]
    standings: list[Standing]
    rounds: int | None  # planned rounds (None: a bracket's, decided as it goes)

    @property
    def late_entry_open(self) -> bool:
        """Whether a player may still join the running event (Swiss and pods, until
        round ⌈R/2⌉, with a loss for each round played)."""
        if self.event.status != "running" or self.config.format not in LATE_ENTRY_FORMATS:
            return False
        return self.rounds is not None and late_entry_open(self.event.round + 1, self.rounds)

    def entrant(self, number: int) -> EntrantRecord:
        return next(e for e in self.entrants if e.entrant == number)

    def name(self, number: int) -> str:
        return self.entrant(number).name

    def of_user(self, user_id: int) -> EntrantRecord | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def entered(self) -> list[EntrantRecord]:
        return [e for e in self.entrants if e.state == "entered"]

    @property
    def waitlist(self) -> list[EntrantRecord]:
        return [e for e in self.entrants if e.state == "waitlist"]

    def champion(self) -> EntrantRecord | None:
        if self.event.status != "finished" or not self.standings:
            return None
        return self.entrant(self.standings[0].player)


def signed_up(entrants: Sequence[EntrantRecord], user_id: int) -> EntrantRecord | None:
    """The user's entry while it counts: entered or waiting for a place."""
    return next(
        (e for e in entrants if e.user_id == user_id and e.state in ("entered", "waitlist")),
        None,
    )


def participants(entrants: Sequence[EntrantRecord], status: str) -> list[int]:
    """Who is in the event's standings: everyone who played or is playing (dropped and
    disqualified players stay listed), not the waitlist, not those gone before round 1."""
    if status == "signup":
        return [e.entrant for e in entrants if e.state == "entered"]
    return [
        e.entrant
        for e in entrants
        if e.state in ("entered", "disqualified") or (e.state == "dropped" and e.dropped_round)
    ]


def to_table_result(result: ResultRecord) -> TableResult:
    return TableResult(
        round=result.round,
        players=tuple(result.players),
        places=tuple(result.places),
        kind=result.kind,
        gone=frozenset(result.gone),
        game_wins=None if result.game_wins is None else tuple(result.game_wins),
        game_draws=result.game_draws,
    )


def rematches_in(
    earlier: Sequence[ResultRecord], tables: Sequence[EventTable]
) -> list[tuple[int, ...]]:
    """The tables whose players met before: Swiss pairs a rematch only when no pairing
    avoids it (the fewest), and the pairings say so."""
    met = meetings([to_table_result(r) for r in earlier])
    return [tuple(t.seats) for t in tables if met.get(frozenset(t.seats))]


def places_from_groups(groups: Sequence[Sequence[int]]) -> dict[int, int]:
    """Competition ranking of finishing groups, best first: ties share the best place."""
    places: dict[int, int] = {}
    done = 0
    for group in groups:
        for player in group:
            places[player] = done + 1
        done += len(group)
    return places


def gone_last(players: Sequence[int], places: Sequence[int], gone: set[int]) -> list[int]:
    """A seat that forfeited is last, tied with other quitters; the rest keep their order."""
    staying = sorted({p for player, p in zip(players, places, strict=True) if player not in gone})
    groups = [
        [pl for pl, p in zip(players, places, strict=True) if p == place and pl not in gone]
        for place in staying
    ]
    if gone:
        groups.append([p for p in players if p in gone])
    ranked = places_from_groups(groups)
    return [ranked[p] for p in players]


class TooFewPlayers(UserError):
    def __init__(self, needed: int, found: int) -> None:
        self.needed, self.found = needed, found
        super().__init__(
            f"A tournament needs at least {needed} players; there "
            f"{'is' if found == 1 else 'are'} {found}. Add bots or wait."
        )


class Tournaments:
    """Every change to an event, through one locked path per event."""

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.store = matches.store
        self.listeners: list[EventListener] = []
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

    async def notify(self, change: EventChange) -> None:
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
    def config_of(event: TournamentRecord) -> EventConfig:
        return EventConfig.model_validate_json(event.config)

    def planned_rounds(self, config: EventConfig, players: int, game: Game) -> int | None:
        if config.format in ("single_elimination", "double_elimination"):
            return None
        if config.format == "multiplayer_elimination":
            return None
        if config.rounds is not None:
            return config.rounds
        if config.format in ROUND_ROBINS:
            return round_robin_rounds(max(players, 2), double=config.format != "round_robin")
        if config.format == "swiss":
            return swiss_rounds(max(players, 2))
        return pod_rounds(max(players, 2), self.pod_size(config, game))

    @staticmethod
    def pod_size(config: EventConfig, game: Game) -> int:
        preferred = config.pod_size or min(4, game.max_players)
        return max(game.min_players, min(preferred, game.max_players))

    @staticmethod
    def least_at_table(config: EventConfig, game: Game) -> int:
        """The fewest players a table of this event seats: pods at least three (below
        that, byes), multiplayer elimination the game's minimum, the rest two."""
        if config.format == "pods":
            return max(POD_LEAST, game.min_players)
        if config.format == "multiplayer_elimination":
            return max(game.min_players, 2)
        return 2

    @staticmethod
    def scoring_of(config: EventConfig, game: Game) -> Scoring:
        """What a result is worth: place scores (the organiser's, if set) at multiplayer
        tables, 3/1/0 at two-player ones (a round robin's rest round scores nothing)."""
        if config.format in MULTIPLAYER_FORMATS:
            if config.scores is None:
                return POD_SCORES
            sizes = range(game.min_players, game.max_players + 1)
            return organiser_scores(parse_place_scores(config.scores, sizes), sizes)
        return ROUND_ROBIN_POINTS if config.format in ROUND_ROBINS else MATCH_POINTS

    @staticmethod
    def advance_of(config: EventConfig, game: Game) -> int:
        """Multiplayer elimination: how many of each table go on."""
        return config.advance or elim.advance_count(Tournaments.pod_size(config, game))

    async def view(self, tournament_id: str) -> EventView:
        event = await self.get(tournament_id)
        config = self.config_of(event)
        game = self.matches.games[event.game]
        entrants = await self.store.entrants(tournament_id)
        results = await self.store.results(tournament_id)
        tables = await self.store.event_tables(tournament_id)
        players = participants(entrants, event.status)
        standings = self.standings_of(event, config, entrants, results, tables)
        rounds = self.planned_rounds(config, len(players), game)
        return EventView(event, config, game, entrants, results, tables, standings, rounds)

    def standings_of(
        self,
        event: TournamentRecord,
        config: EventConfig,
        entrants: Sequence[EntrantRecord],
        results: Sequence[ResultRecord],
        tables: Sequence[EventTable],
    ) -> list[Standing]:
        """Standings from the stored results. A final table or a bracket decides the top:
        its finishing order goes first, the rest by their points."""
        players = participants(entrants, event.status)
        if not players:
            return []
        dropped = [e.entrant for e in entrants if e.state in ("dropped", "disqualified")]
        # A final table or a cut's bracket decides the top; it scores no points.
        finals = {(t.round, t.table_no) for t in tables if t.bracket_id and config.top_cut}
        scored = [to_table_result(r) for r in results if (r.round, r.table_no) not in finals]
        round_no = max(event.round, 1)
        game = self.matches.games[event.game]
        if config.format in ROUND_ROBINS:
            return self._round_robin_standings(event, config, entrants, results, tables, players)
        if config.format in MULTIPLAYER_FORMATS:
            scoring = self.scoring_of(config, game)
            base = pod_standings(
                players, scored, event.seed, round_no, dropped=dropped, scoring=scoring
            )
        else:
            base = swiss_standings(
                players, scored, event.seed, round_no, best_of=config.best_of, dropped=dropped
            )
        top = self._decided_top(event, config, entrants, results, tables, players)
        if not top:
            return base
        rest = [s for s in base if s.player not in top]
        by_player = {s.player: s for s in base}
        ordered = [by_player[p] for p in top] + rest
        return [
            Standing(i + 1, s.player, s.points, s.tiebreakers, s.dropped)
            for i, s in enumerate(ordered)
        ]

    def _decided_top(
        self,
        event: TournamentRecord,
        config: EventConfig,
        entrants: Sequence[EntrantRecord],
        results: Sequence[ResultRecord],
        tables: Sequence[EventTable],
        players: Sequence[int],
    ) -> list[int]:
        """The order a final table or a finished bracket gives the top of the standings."""
        if config.format == "multiplayer_elimination":
            if event.status == "signup":
                return []
            return list(self._multiplayer_run(event, entrants, results, tables).order)
        final = next((t for t in tables if t.bracket_id == "final"), None)
        if final is not None:
            result = next(
                (r for r in results if (r.round, r.table_no) == (final.round, final.table_no)),
                None,
            )
            if result is None:
                return []
            # Seats tied go in seat order: the better seed sits first.
            top = [p for _, _, p in sorted(zip(result.places, count(), result.players))]
            return top + self._semi_finalists_out(results, tables, top)
        cut_seeds = None
        if config.format == "swiss" and config.top_cut:
            if not any(t.bracket_id for t in tables):
                return []
            cut_seeds = self._cut(event, config, entrants, results, players)
        elif config.format not in ("single_elimination", "double_elimination"):
            return []
        if event.status == "signup" or len(players) < 2:
            return []
        bracket, state = self._bracket(event, config, results, tables, players, cut_seeds)
        if not state.finished or state.champion is None:
            return []
        # Champion first, then by how far each got: the last match each one played.
        last: dict[int, int] = {}
        for index, match in enumerate(bracket.matches):
            for player in state.decided.get(match.id, (None, None)):
                if player is not None:
                    last[player] = index
        return sorted(last, key=lambda p: (p != state.champion, -last[p]))

    def _cut(
        self,
        event: TournamentRecord,
        config: EventConfig,
        entrants: Sequence[EntrantRecord],
        results: Sequence[ResultRecord],
        players: Sequence[int],
    ) -> list[int]:
        """The Swiss top cut, in seed order: the final Swiss standings (their lot fixed at
        the last Swiss round, so the seeds never move), skipping bots and players gone
        before the cut; the best bots fill it only when people are short."""
        rounds = config.rounds or 1
        swiss = [to_table_result(r) for r in results if r.round <= rounds]
        gone = {
            e.entrant
            for e in entrants
            if e.state in ("dropped", "disqualified") and (e.dropped_round or 0) <= rounds
        }
        bots = {e.entrant for e in entrants if e.is_bot}
        # Only bots fill the places people leave: a player gone before the cut never
        # takes a seat in it (their table would be a walkover).
        order = [
            s.player
            for s in swiss_standings(players, swiss, event.seed, rounds, best_of=config.best_of)
        ]
        seeds = self._fill_cut([p for p in order if p not in gone], config.top_cut, bots)
        if len(seeds) < 2:  # a bracket needs two: the last one in wins by walkover
            seeds = self._fill_cut(order, config.top_cut, bots | gone)
        return seeds

    @staticmethod
    def _fill_cut(order: Sequence[int], size: int, excluded: set[int]) -> list[int]:
        chosen = cut(order, size, excluded)
        chosen += [p for p in order if p not in chosen][: size - len(chosen)]
        return sorted(chosen, key=list(order).index)

    def _bracket(
        self,
        event: TournamentRecord,
        config: EventConfig,
        results: Sequence[ResultRecord],
        tables: Sequence[EventTable],
        players: Sequence[int],
        seeds: Sequence[int] | None = None,
    ) -> tuple[elim.Bracket, elim.BracketState]:
        if seeds is None:
            # Seeds: a seeded shuffle of the field (the lot of round 0), so nobody's
            # sign-up order decides their side of the bracket; or by rating.
            drawn = self._seed_draw(event, config, players)
            seeds = sorted(players, key=drawn.__getitem__)
        bracket = (
            elim.double_elimination(seeds, reset=config.reset)
            if config.format == "double_elimination"
            else elim.single_elimination(seeds)
        )
        by_table = {(t.round, t.table_no): t.bracket_id for t in tables if t.bracket_id}
        played = {
            by_table[(r.round, r.table_no)]: to_table_result(r)
            for r in results
            if (r.round, r.table_no) in by_table and r.kind == "table"
        }
        return bracket, elim.progress(bracket, played)

    @staticmethod
    def _seed_draw(
        event: TournamentRecord, config: EventConfig, players: Sequence[int]
    ) -> dict[int, int]:
        """Round 0's draw, which seeds a bracket: the lot, or in a rating-seeded event the
        ratings read at the start (``seed_ratings``), then the lot."""
        if config.seed_ratings is None:
            return lot(players, event.seed, 0)
        ratings = {p: config.seed_ratings.get(p, UNRATED) for p in players}
        return rated_lot(players, ratings, event.seed, 0)

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
        from its player's rating (a bot's: a new player's); none when the server does not
        rate matches, as every rating would be the default."""
        if (await self.matches.guild_settings(record.guild_id)).ratings == "off":
            return []
        users = [s.user_id for s in record.seats if s.user_id is not None]
        found = await self.store.ratings_of(record.guild_id, record.game, users)
        ratings = [
            Rating(found[s.user_id].mu, found[s.user_id].sigma) if s.user_id in found else Rating()
            for s in record.seats
        ]
        return [(s.name, c) for s, c in zip(record.seats, win_chances(ratings), strict=True)]

    # --- round robin, multiplayer elimination, semi-final tables ------------------------------
    @staticmethod
    def _round_robin_order(
        event: TournamentRecord,
        results: Sequence[ResultRecord],
        tables: Sequence[EventTable],
        field: Sequence[int] = (),
    ) -> list[int]:
        """The schedule's players as the circle method takes them: everyone round 1 seated
        (or rested), drawn by the event's lot, so a later drop never reshuffles the
        schedule. Before round 1 is paired: ``field``, the players about to be."""
        first = {p for t in tables if t.round == 1 for p in t.seats}
        first |= {p for r in results if r.round == 1 and r.kind == "bye" for p in r.players}
        first = first or set(field)
        drawn = lot(sorted(first), event.seed, 0)
        return sorted(first, key=drawn.__getitem__)

    def _round_robin_standings(
        self,
        event: TournamentRecord,
        config: EventConfig,
        entrants: Sequence[EntrantRecord],
        stored: Sequence[ResultRecord],
        tables: Sequence[EventTable],
        players: Sequence[int],
    ) -> list[Standing]:
        """Points, head to head, Sonneborn–Berger, lot, over the results a drop leaves:
        before half of one's games every result with the leaver is void, later their
        remaining tables are forfeits (counted as their rounds come)."""
        dropped = [e.entrant for e in entrants if e.state in ("dropped", "disqualified")]
        order = self._round_robin_order(event, stored, tables)
        results = [to_table_result(r) for r in stored]
        if order:
            rounds = schedule(order, double=config.format != "round_robin")
            left = {
                e.entrant: e.dropped_round or 0
                for e in entrants
                if e.entrant in order and e.state in ("dropped", "disqualified")
            }
            results = [
                r for r in effective_results(rounds, results, left) if r.round <= event.round
            ]
        return round_robin_standings(
            players,
            results,
            event.seed,
            max(event.round, 1),
            dropped=dropped,
            scoring=ROUND_ROBIN_POINTS,
        )

    def _multiplayer_run(
        self,
        event: TournamentRecord,
        entrants: Sequence[EntrantRecord],
        results: Sequence[ResultRecord],
        tables: Sequence[EventTable],
        upto: int | None = None,
    ) -> elim.MultiplayerRun:
        """Replay a multiplayer elimination from its stored tables: round 1's field in the
        lot of round 0, then each round's tables, results and byes, up to round ``upto``
        (default: the current one)."""
        config = self.config_of(event)
        game = self.matches.games[event.game]
        decided = {(r.round, r.table_no): to_table_result(r) for r in results}
        played = []
        for number in range(1, (event.round if upto is None else upto) + 1):
            seated = sorted((t for t in tables if t.round == number), key=lambda t: t.table_no)
            byes = sorted(
                (r for r in results if r.round == number and r.kind == "bye"),
                key=lambda r: r.table_no,
            )
            played.append(
                elim.PlayedRound(
                    tables=tuple(tuple(t.seats) for t in seated),
                    results=tuple(decided.get((t.round, t.table_no)) for t in seated),
                    byes=tuple(r.players[0] for r in byes),
                    final=any(t.bracket_id == "final" for t in seated),
                )
            )
        first = [p for t in played[0].tables for p in t] + list(played[0].byes) if played else []
        drawn = self._seed_draw(event, config, sorted(first))
        withdrawn = {e.entrant for e in entrants if e.state in ("dropped", "disqualified")}
        return elim.multiplayer_run(
            sorted(first, key=drawn.__getitem__),
            played,
            self.advance_of(config, game),
            withdrawn,
        )

    def _pair_multiplayer(
        self,
        event: TournamentRecord,
        config: EventConfig,
        game: Game,
        number: int,
        active: list[int],
        entrants: list[EntrantRecord],
        results: list[ResultRecord],
        tables: list[EventTable],
    ) -> tuple[str, list[tuple[int, ...]], list[int], list[str | None]]:
        """The next round of a multiplayer elimination: the field drawn by lot in round 1,
        then who went on, tables snaked by seed (seed 1 in seat 0), the last a final."""
        if number == 1:
            drawn = self._seed_draw(event, config, sorted(active))
            seeds = sorted(active, key=drawn.__getitem__)
        else:
            # Up to the round before: a re-paired round replays without its old tables.
            run = self._multiplayer_run(event, entrants, results, tables, number - 1)
            entered = set(active)
            seeds = [p for p in run.going_on or () if p in entered]
        paired = elim.multiplayer_round(
            seeds,
            preferred=self.pod_size(config, game),
            minimum=game.min_players,
            maximum=game.max_players,
            advance=self.advance_of(config, game),
        )
        brackets: list[str | None] = ["final" if paired.final else None] * len(paired.tables)
        stage = "final" if paired.final else "elimination"
        return stage, list(paired.tables), list(paired.byes), brackets

    def _pair_semi_finals(
        self,
        event: TournamentRecord,
        config: EventConfig,
        game: Game,
        stage: int,
        active: list[int],
        entrants: list[EntrantRecord],
        results: list[ResultRecord],
        tables: list[EventTable],
    ) -> tuple[str, list[tuple[int, ...]], list[int], list[str | None]]:
        """Pods cut to 16: four snaked semi-final tables (seed 1 in seat 0 of table 1),
        then the tables' winners at a final table in seed order. Fewer than 16 left
        after the rounds: the top four go straight to a final table."""
        bots = {e.entrant for e in entrants if e.is_bot}
        if stage == 1:
            standings = self.standings_of(event, config, entrants, results, tables)
            order = [s.player for s in standings if s.player in active]
            if len(order) < SEMI_FINAL_CUT:
                return "final", [tuple(self._fill_cut(order, 4, bots))], [], ["final"]
            seeds = self._fill_cut(order, SEMI_FINAL_CUT, bots)
            semis = semi_final_tables(seeds)
            return "semi-finals", semis, [], [f"semi-{i}" for i in range(1, len(semis) + 1)]
        entered = set(active)
        ranked = [p for p in self._semi_final_order(results, tables) if p[1] in entered]
        winners = [player for place, player, _ in ranked if place == 0]
        # A semi-final whose winner forfeited or left sends nobody; if that leaves fewer
        # than the game needs, the best of the rest fill the final table.
        others = [player for place, player, _ in ranked if place > 0]
        finalists = winners + others[: max(0, game.min_players - len(winners))]
        seed = {player: s for _, player, s in ranked}
        return "final", [tuple(sorted(finalists, key=seed.__getitem__))], [], ["final"]

    @staticmethod
    def _semi_final_order(
        results: Sequence[ResultRecord], tables: Sequence[EventTable]
    ) -> list[tuple[int, int, int]]:
        """Each semi-finalist still standing as (0 for a table's winner else their place,
        player, cut seed), best first; a forfeited seat is left out."""
        # Seed of each seat: the snake of seeds 1–16 over the four tables.
        seeds_at = semi_final_tables(list(range(1, SEMI_FINAL_CUT + 1)))
        decided = {(r.round, r.table_no): to_table_result(r) for r in results}
        ranked = []
        for table in tables:
            if not (table.bracket_id or "").startswith("semi-"):
                continue
            result = decided.get((table.round, table.table_no))
            if result is None:
                continue
            winner = elim.table_winner(result)
            for seat, player in enumerate(table.seats):
                if player in result.gone:
                    continue
                place = 0 if player == winner else result.place_of(player)
                ranked.append((place, player, seeds_at[table.table_no - 1][seat]))
        return sorted(ranked, key=lambda entry: (entry[0], entry[2]))

    def _semi_finalists_out(
        self, results: Sequence[ResultRecord], tables: Sequence[EventTable], top: list[int]
    ) -> list[int]:
        """Below the final table: the semi-finalists who did not reach it, by their place
        at their semi-final, then by seed."""
        semi = [
            p
            for t in tables
            if (t.bracket_id or "").startswith("semi-")
            for p in t.seats
            if p not in top
        ]
        standing = [player for _, player, _ in self._semi_final_order(results, tables)]
        return [p for p in standing if p not in top] + [
            p for p in semi if p not in top and p not in standing
        ]

    # --- sign-up ---------------------------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser: Person,
        game_key: str,
        config: EventConfig,
    ) -> TournamentRecord:
        if not await self.may_organise(guild_id, organiser):
            who = await self._organisers(guild_id)
            raise UserError(f"Only someone with {who} can run a tournament here.")
        if game_key not in self.matches.games:
            raise UserError("There is no such game. Pick one from the list.")
        game = self.matches.games[game_key]
        if config.format in ROUND_ROBINS and game.min_players > 2:
            raise UserError(
                f"A round robin is for two-player tables and {game.name} needs "
                f"{game.min_players} or more: pick the pods format or multiplayer elimination."
            )
        if config.format not in MULTIPLAYER_FORMATS and game.min_players > 2:
            raise UserError(
                f"{game.name} needs {game.min_players} or more at a table: pick the pods "
                "format or multiplayer elimination."
            )
        if config.format in MULTIPLAYER_FORMATS and game.max_players < 3:
            raise UserError(f"{game.name} is played by two: pick Swiss or an elimination.")
        if config.seeding == "rating" and config.format in ROUND_ROBINS:
            raise UserError(
                "In a round robin everyone meets everyone, so seeding by rating changes "
                "nothing: leave seeding at lot."
            )
        if config.best_of > 1 and not config.two_player:
            raise UserError("Best of three is for two-player tables: pick Swiss or a bracket.")
        if config.starts_at is not None and config.starts_at <= self.clock.now():
            raise UserError("That start time has passed: give one in the future.")
        if config.top_cut and config.format not in ("pods", "swiss"):
            raise UserError("A top cut follows Swiss or pod rounds, not a bracket.")
        if config.top_cut and config.format == "swiss" and config.top_cut not in (2, 4, 8):
            raise UserError("A Swiss top cut is a bracket of the top 2, 4 or 8.")
        if config.top_cut == SEMI_FINAL_CUT and config.format == "pods":
            if not game.min_players <= 4 <= game.max_players:
                raise UserError(
                    f"A cut of 16 plays four semi-final tables of four, and {game.name} "
                    f"seats {game.min_players} to {game.max_players}."
                )
        elif (
            config.top_cut
            and config.format == "pods"
            and not self.least_at_table(config, game) <= config.top_cut <= game.max_players
        ):
            least = self.least_at_table(config, game)
            raise UserError(
                f"A final table of {game.name} seats {least} to {game.max_players} "
                "(or cut 16 for four semi-final tables, then a final)."
            )
        config = self._checked_formats(config, game)
        record = TournamentRecord(
            tournament_id=secrets.token_hex(4),
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser.user_id,
            game=game_key,
            config=config.model_dump_json(),
            status="signup",
            seed=self.matches.new_seed(),
            created_at=self.clock.now(),
        )
        await self.store.create_tournament(record)
        await self.audit(record, organiser, "create", {}, config.model_dump(mode="json"))
        if config.starts_at is not None:
            # Stored like every event timer, so a restart before then loses nothing.
            timer = self._timer(record, "start", 0, config.starts_at)
            await self.store.replace_event_timers(record.tournament_id, [timer])
            self.matches.timers_changed()
        return record

    def _checked_formats(self, config: EventConfig, game: Game) -> EventConfig:
        """Round robin, multiplayer elimination and place scores: refuse what cannot run,
        and keep the place scores in their canonical text."""
        if config.format in ROUND_ROBINS:
            if config.max_players > ROUND_ROBIN_MOST:
                raise UserError(
                    f"A round robin takes at most {ROUND_ROBIN_MOST} players: set "
                    f"max_players to {ROUND_ROBIN_MOST} or fewer."
                )
            if config.rounds is not None:
                raise UserError("A round robin plays every pairing: leave rounds out.")
        if config.advance is not None:
            if config.format != "multiplayer_elimination":
                raise UserError(
                    "Advance is for multiplayer elimination: how many of each table go on."
                )
            size = self.pod_size(config, game)
            if config.advance >= size:
                raise UserError(
                    f"Fewer than a whole table must go on: with tables of {size}, "
                    f"advance 1 to {size - 1}."
                )
        if config.default_cut and (config.format != "swiss" or config.top_cut):
            raise UserError(
                "The default cut sizes a Swiss event's bracket by its field: pick Swiss "
                "and leave top_cut out."
            )
        if config.larger_tables and config.format != "pods":
            raise UserError("Larger tables are for pod events: leave larger_tables out.")
        if not config.reset and config.format != "double_elimination":
            raise UserError("The grand-final reset is for double elimination: leave reset out.")
        if config.scores is not None:
            if config.format != "pods":
                raise UserError("Place scores are for pod events: leave scores out.")
            sizes = range(game.min_players, game.max_players + 1)
            try:
                tables = parse_place_scores(config.scores, sizes)
            except ValueError as error:
                raise UserError(f"{error} For example: 4:6/4/2/0, 3:6/3/0.") from None
            config = config.model_copy(update={"scores": place_scores_text(tables)})
        return config

    async def set_message(self, tournament_id: str, message_id: int) -> None:
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            await self.store.save_tournament(event.model_copy(update={"message_id": message_id}))

    async def may_organise(self, guild_id: int, actor: Person) -> bool:
        """Manage Server, or the server's organiser role (``/settings organiser_role:``)."""
        if actor.can_manage:
            return True
        role = (await self.matches.guild_settings(guild_id)).organiser_role
        return role is not None and role in actor.roles

    async def _organisers(self, guild_id: int) -> str:
        """Who may organise here, for a refusal: "Manage Server or the @Role role"."""
        role = (await self.matches.guild_settings(guild_id)).organiser_role
        return "Manage Server" + (f" or the <@&{role}> role" if role is not None else "")

    async def require_organiser(self, event: TournamentRecord, actor: Person, what: str) -> None:
        if actor.user_id == event.organiser_id or await self.may_organise(event.guild_id, actor):
            return
        who = await self._organisers(event.guild_id)
        raise UserError(f"Only the organiser or someone with {who} can {what}.")

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
        await self.notify(EventChange(kind="signup", event=await self.get(tournament_id)))

    async def join(self, tournament_id: str, person: Person) -> EntrantRecord:
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            config = self.config_of(event)
            entrants = await self.store.entrants(tournament_id)
            mine = next((e for e in entrants if e.user_id == person.user_id), None)
            if event.status != "signup":
                entrant = await self._join_late(event, config, person, entrants, mine)
            else:
                entrant = await self._join_signup(tournament_id, config, person, entrants, mine)
        await self._signup_change(tournament_id)
        return entrant

    async def _join_signup(
        self,
        tournament_id: str,
        config: EventConfig,
        person: Person,
        entrants: list[EntrantRecord],
        mine: EntrantRecord | None,
    ) -> EntrantRecord:
        if mine is not None and mine.state in ("entered", "waitlist"):
            raise UserError("You are already signed up for this tournament.")
        if mine is not None and mine.state == "disqualified":
            raise UserError("You were disqualified from this tournament.")
        entered = sum(e.state == "entered" for e in entrants)
        entrant = EntrantRecord(
            tournament_id=tournament_id,
            entrant=mine.entrant if mine else len(entrants) + 1,
            user_id=person.user_id,
            name=self._unique(clean_name(person.name), entrants, mine),
            state="entered" if entered < config.max_players else "waitlist",
            joined_at=self.clock.now(),
        )
        await self.store.save_entrant(entrant)
        return entrant

    async def _join_late(
        self,
        event: TournamentRecord,
        config: EventConfig,
        person: Person,
        entrants: list[EntrantRecord],
        mine: EntrantRecord | None,
    ) -> EntrantRecord:
        """Join a running Swiss or pod event: a late entry until round ⌈R/2⌉, with a loss
        for each round played, as when the organiser adds someone."""
        if config.format not in LATE_ENTRY_FORMATS or event.status != "running":
            raise UserError(
                "Sign-up is closed: this event has started. Ask the organiser to add you."
            )
        if mine is not None and mine.state == "entered":
            raise UserError("You are already playing in this tournament.")
        if mine is not None and mine.state in ("dropped", "disqualified"):
            raise UserError(
                f"You are {mine.state} from this tournament: only the organiser can undo that."
            )
        if sum(e.state == "entered" for e in entrants) >= config.max_players:
            raise UserError(f"The event is full ({config.max_players} players).")
        name = mine.name if mine else self._unique(clean_name(person.name), entrants)
        return await self._add_entrant(event, person, entrants, person.user_id, name, "late entry")

    @staticmethod
    def _unique(
        name: str, entrants: Sequence[EntrantRecord], mine: EntrantRecord | None = None
    ) -> str:
        taken = {e.name for e in entrants if e is not mine}
        if name not in taken:
            return name
        return next(f"{name} {i}" for i in range(2, 999) if f"{name} {i}" not in taken)

    async def leave(self, tournament_id: str, person: Person) -> None:
        """Leave during sign-up: the first on the waitlist takes the place."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            if event.status != "signup":
                raise UserError("This event has started: use /tournament drop to leave it.")
            entrants = await self.store.entrants(tournament_id)
            mine = signed_up(entrants, person.user_id)
            if mine is None:
                raise UserError("You are not signed up for this tournament.")
            await self.store.save_entrant(mine.model_copy(update={"state": "dropped"}))
            await self._fill_place(mine, entrants)
        await self._signup_change(tournament_id)

    async def _fill_place(self, leaving: EntrantRecord, entrants: Sequence[EntrantRecord]) -> None:
        """During sign-up, an entered player who goes makes room for the first waiting."""
        if leaving.state == "entered":
            waiting = [e for e in entrants if e.state == "waitlist"]
            if waiting:
                await self.store.save_entrant(waiting[0].model_copy(update={"state": "entered"}))

    async def check_in(self, tournament_id: str, person: Person) -> EntrantRecord:
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            if event.status != "signup":
                raise UserError("Check-in is over: this event has started.")
            if not self.config_of(event).checkin:
                raise UserError("This event needs no check-in: you are in once you join.")
            mine = signed_up(await self.store.entrants(tournament_id), person.user_id)
            if mine is None:
                raise UserError("Join the tournament first, then check in.")
            if mine.checked_in:
                raise UserError("You are already checked in.")
            mine = mine.model_copy(update={"checked_in": True})
            await self.store.save_entrant(mine)
        await self._signup_change(tournament_id)
        return mine

    async def add_bot(self, tournament_id: str, actor: Person) -> EntrantRecord:
        """A bot entrant: fills odd seats or lets an organiser try an event alone. During
        the event it is a late entry, like a person the organiser adds."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            await self.require_organiser(event, actor, "add bots")
            entrants = await self.store.entrants(tournament_id)
            taken = {e.name for e in entrants}
            name = next((f"🤖 {n}" for n in BOT_NAMES if f"🤖 {n}" not in taken), None)
            if name is None:
                name = self._unique("🤖 Bot", entrants)
            entrant = await self._add_entrant(event, actor, entrants, None, name, "add bot")
        await self._signup_change(tournament_id)
        return entrant

    async def add_player(self, tournament_id: str, actor: Person, player: Person) -> EntrantRecord:
        """The organiser enters someone: at sign-up, or late (until round ⌈R/2⌉, with a
        lost round for each one already played)."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            await self.require_organiser(event, actor, "add players")
            entrants = await self.store.entrants(tournament_id)
            if any(
                e.user_id == player.user_id and e.state in ("entered", "waitlist") for e in entrants
            ):
                raise UserError(f"{clean_name(player.name)} is already in this tournament.")
            name = self._unique(clean_name(player.name), entrants)
            entrant = await self._add_entrant(
                event, actor, entrants, player.user_id, name, "add player"
            )
        await self._signup_change(tournament_id)
        return entrant

    async def _add_entrant(
        self,
        event: TournamentRecord,
        actor: Person,
        entrants: list[EntrantRecord],
        user_id: int | None,
        name: str,
        action: str,
    ) -> EntrantRecord:
        config = self.config_of(event)
        if not event.is_open:
            raise UserError("This tournament is over.")
        number = len(entrants) + 1
        existing = next((e for e in entrants if user_id and e.user_id == user_id), None)
        if existing is not None:
            number = existing.entrant
        entrant = EntrantRecord(
            tournament_id=event.tournament_id,
            entrant=number,
            user_id=user_id,
            name=name,
            state="entered",
            checked_in=True,  # the organiser vouches for them
            joined_at=self.clock.now(),
        )
        if event.status == "signup":
            entered = sum(e.state == "entered" for e in entrants)
            if entered >= config.max_players:
                raise UserError(f"The event is full ({config.max_players} players).")
        else:
            if config.format in ROUND_ROBINS:
                raise UserError("A round robin's schedule is fixed at the start: no late entries.")
            game = self.matches.games[event.game]
            players = sum(e.state != "waitlist" for e in entrants)
            rounds = self.planned_rounds(config, players, game)
            next_round = event.round + 1
            if rounds is None:
                raise UserError("An elimination bracket takes no late entries.")
            if not late_entry_open(next_round, rounds):
                raise UserError(
                    f"Late entry is closed: players could join up to round {math.ceil(rounds / 2)}."
                )
            for missed in late_entry(number, next_round):
                await self.store.add_result(
                    ResultRecord(
                        tournament_id=event.tournament_id,
                        round=missed.round,
                        table_no=1000 + number,
                        players=[number],
                        places=[1],
                        kind="missed",
                        source="organiser",
                    )
                )
        await self.store.save_entrant(entrant)
        await self.audit(event, actor, action, {}, {"entrant": number, "name": name})
        return entrant

    async def start(self, tournament_id: str, actor: Person) -> None:
        """Close sign-up: unchecked entrants drop, the waitlist fills their places in
        sign-up order, and round 1 is paired."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            await self.require_organiser(event, actor, "start the tournament")
            if event.status != "signup":
                raise UserError("This tournament has already started.")
            config = self.config_of(event)
            game = self.matches.games[event.game]
            entrants = await self.store.entrants(tournament_id)
            candidates = [e for e in entrants if e.state in ("entered", "waitlist")]
            # Dropped only once the start is sure: a refused start changes nothing.
            unchecked = [e for e in candidates if config.checkin and not e.checked_in]
            candidates = [e for e in candidates if e not in unchecked]
            candidates.sort(key=lambda e: (e.joined_at, e.entrant))
            playing = candidates[: config.max_players]
            least = self.least_at_table(config, game)
            if len(playing) < least:
                raise TooFewPlayers(least, len(playing))
            for e in unchecked:
                await self.store.save_entrant(e.model_copy(update={"state": "dropped"}))
            for e in candidates:
                state = "entered" if e in playing else "waitlist"
                if e.state != state:
                    await self.store.save_entrant(e.model_copy(update={"state": state}))
            # The number of rounds is fixed now: late entries do not lengthen the event;
            # so is a cut sized by the field.
            fixed: dict[str, object] = {"rounds": self.planned_rounds(config, len(playing), game)}
            if config.default_cut:
                fixed["top_cut"] = default_cut(len(playing))
            if config.seeding == "rating" and config.format in SEEDED_AT_START:
                fixed["seed_ratings"] = await self.entrant_ratings(event, playing)
            config = config.model_copy(update=fixed)
            event = event.model_copy(
                update={"status": "running", "config": config.model_dump_json()}
            )
            await self.store.save_tournament(event)
            await self.audit(event, actor, "start", {}, {"players": len(playing)})
            await self._signup_change(tournament_id)
            await self._start_round(event, 1)

    async def _start_on_time(self, tournament_id: str) -> None:
        """The start time came: start as if the organiser pressed Start (nothing, if they
        did already or cancelled); with too few players, call the event off saying why."""
        event = await self.store.get_tournament(tournament_id)
        if event is None or event.status != "signup":
            return
        clock = Person(event.organiser_id, "Start time", can_manage=True)
        try:
            await self.start(tournament_id, clock)
            return
        except TooFewPlayers as short:
            reason = (
                f"it needed at least {short.needed} players at its start time and had {short.found}"
            )
        except UserError:
            return  # started meanwhile
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            if event.status != "signup":
                return
            event = event.model_copy(update={"status": "cancelled"})
            await self.store.save_tournament(event)
            await self.store.replace_event_timers(tournament_id, [])
            await self.audit(event, clock, "cancel", {"status": "signup"}, {"status": "cancelled"})
        await self.notify(
            EventChange(kind="cancelled", event=event, round=event.round, text=reason)
        )

    # --- rounds ----------------------------------------------------------------------------
    async def _start_round(self, event: TournamentRecord, number: int) -> None:
        """Pair round ``number`` and open its tables. Called under the event's lock."""
        config = self.config_of(event)
        game = self.matches.games[event.game]
        entrants = await self.store.entrants(event.tournament_id)
        for e in entrants:
            # A forfeit drops its player before the next pairing, unless they said Stay in.
            if e.forfeited and e.state == "entered":
                await self.store.save_entrant(
                    e.model_copy(update={"state": "dropped", "dropped_round": number - 1})
                )
        entrants = await self.store.entrants(event.tournament_id)
        results = await self.store.results(event.tournament_id)
        tables = await self.store.event_tables(event.tournament_id)
        active = [e.entrant for e in entrants if e.state == "entered"]
        everyone = participants(entrants, event.status)
        stage, pairing, byes, brackets = await self._pair(
            event, config, game, number, active, everyone, entrants, results, tables
        )
        event = event.model_copy(update={"round": number})
        await self.store.save_tournament(event)
        deadline_after = config.round_length
        now = self.clock.now()
        deadline = now + deadline_after if deadline_after else None
        await self.store.save_round(
            RoundRecord(
                tournament_id=event.tournament_id,
                round=number,
                stage=stage,
                deadline=deadline,
                started_at=now,
            )
        )
        timers = []
        if deadline is not None:
            timers.append(self._timer(event, "deadline", number, deadline))
            timers.append(self._timer(event, "remind_half", number, now + deadline_after / 2))
            if deadline_after > 2 * DAY:
                timers.append(self._timer(event, "remind_day", number, deadline - DAY))
        await self.store.replace_event_timers(event.tournament_id, timers)
        self.matches.timers_changed()
        for index, player in enumerate(byes):
            await self.store.add_result(
                ResultRecord(
                    tournament_id=event.tournament_id,
                    round=number,
                    table_no=900 + index,
                    players=[player],
                    places=[1],
                    kind="bye",
                    source="bye",
                )
            )
        opened = []
        names = {e.entrant: e for e in entrants}
        for index, seats in enumerate(pairing, start=1):
            table = EventTable(
                tournament_id=event.tournament_id,
                round=number,
                table_no=index,
                seats=list(seats),
                bracket_id=brackets[index - 1],
            )
            opened.append(await self._open_table(event, config, table, names))
        rematches = rematches_in(results, opened) if stage == "swiss" else []
        await self.notify(
            EventChange(
                kind="round",
                event=event,
                round=number,
                tables=opened,
                byes=list(byes),
                rematches=rematches,
            )
        )
        for table in opened:
            if table.match_id is not None:
                await self.notify(
                    EventChange(
                        kind="table",
                        event=event,
                        round=number,
                        tables=[table],
                        match=await self.matches.get(table.match_id),
                    )
                )
        await self._maybe_complete(event)

    async def _pair(
        self,
        event: TournamentRecord,
        config: EventConfig,
        game: Game,
        number: int,
        active: list[int],
        everyone: list[int],
        entrants: list[EntrantRecord],
        results: list[ResultRecord],
        tables: list[EventTable],
    ) -> tuple[str, list[tuple[int, ...]], list[int], list[str | None]]:
        """(stage, tables in seat order, byes, each table's bracket match) for a round."""
        scored = [to_table_result(r) for r in results]
        # Seat 0 goes round at Swiss and pod tables (``seating``); the circle method seats
        # a round robin already level (``round_robin.schedule``).
        earlier = [(t.round, t.seats) for t in tables if t.round < number]
        if config.format == "multiplayer_elimination":
            return self._pair_multiplayer(
                event, config, game, number, active, entrants, results, tables
            )
        if config.format in ROUND_ROBINS:
            order = self._round_robin_order(event, results, tables, active)
            rotation = schedule(order, double=config.format != "round_robin")[number - 1]
            entered = set(active)
            # A table with a player who left is not played: the standings count it as
            # their forfeit, or void it (``effective_results``).
            seated = [t for t in rotation if len(t) == 2 and entered.issuperset(t)]
            rest = [t[0] for t in rotation if len(t) == 1 and t[0] in entered]
            return "round_robin", seated, rest, [None] * len(seated)
        if config.format in ("single_elimination", "double_elimination"):
            _, state = self._bracket(event, config, results, tables, everyone)
            return "bracket", [p for _, p in state.ready], [], [m for m, _ in state.ready]
        rounds = self.planned_rounds(config, len(everyone), game) or 1
        if config.format == "swiss" and config.top_cut and number > rounds:
            seeds = self._cut(event, config, entrants, results, everyone)
            _, state = self._bracket(event, config, results, tables, everyone, seeds)
            return "bracket", [p for _, p in state.ready], [], [m for m, _ in state.ready]
        if config.format == "pods" and config.top_cut == SEMI_FINAL_CUT and number > rounds:
            return self._pair_semi_finals(
                event, config, game, number - rounds, active, entrants, results, tables
            )
        if config.format == "pods" and config.top_cut and number > rounds:
            standings = self.standings_of(event, config, entrants, results, tables)
            bots = {e.entrant for e in entrants if e.is_bot}
            order = [s.player for s in standings if s.player in active]
            # Too few people for the final table: the best bots fill it (an event of bots
            # still has its final), every finalist in standings order.
            finalists = self._fill_cut(order, config.top_cut, bots)
            return "final", [tuple(finalists)], [], ["final"]
        # A rating-seeded event reads the ratings once, as the round starts.
        ratings = None
        if config.seeding == "rating":
            playing = set(active)
            ratings = await self.entrant_ratings(
                event, [e for e in entrants if e.entrant in playing]
            )
        order = pairing_order(
            active, scored, self.scoring_of(config, game), event.seed, number, ratings=ratings
        )
        met = meetings(scored)
        byes_had = had_bye(scored)
        if config.format == "pods":
            points = total_points(active, scored, self.scoring_of(config, game))
            size = self.pod_size(config, game)
            pods = await asyncio.to_thread(
                pair_pods,
                order,
                points,
                met,
                byes_had,
                preferred=size,
                minimum=self.least_at_table(config, game),
                maximum=game.max_players,
                larger=config.larger_tables,
            )
            seated = seat_tables(pods.tables, earlier, event.seed, number)
            return "pods", seated, list(pods.byes), [None] * len(seated)
        points = total_points(active, scored, MATCH_POINTS)
        swiss = await asyncio.to_thread(pair_swiss, order, points, met, byes_had)
        seated = seat_tables(swiss.tables, earlier, event.seed, number)
        return "swiss", seated, [swiss.bye] if swiss.bye is not None else [], [None] * len(seated)

    def _timer(self, event: TournamentRecord, kind: str, round: int, due: float) -> Timer:
        return Timer(
            match_id=EVENT_TIMER + event.tournament_id,
            kind=kind,
            seat=0,
            version=round,
            due_at=due,
        )

    async def _open_table(
        self,
        event: TournamentRecord,
        config: EventConfig,
        table: EventTable,
        entrants: dict[int, EntrantRecord],
    ) -> EventTable:
        """One match per table, through the lobby path, started at once. A table whose
        players have left decides itself (the one still in wins)."""
        dropped = [p for p in table.seats if entrants[p].state != "entered"]
        if dropped and table.bracket_id and not table.games:
            staying = [p for p in table.seats if p not in dropped]
            places = [1 if p in staying else 2 for p in table.seats]
            table = table.model_copy(update={"status": "done"})
            await self.store.save_event_table(table)
            await self.store.add_result(
                ResultRecord(
                    tournament_id=event.tournament_id,
                    round=table.round,
                    table_no=table.table_no,
                    players=table.seats,
                    places=places,
                    gone=dropped,
                    source="adjudicated",
                    **self._game_points(config, table, dropped),
                )
            )
            return table
        names = [entrants[p].name for p in table.seats]
        if table.games:  # a best-of-three table's next game: in the same thread
            channel_id = table.thread_id or event.channel_id
        elif self.open_thread is not None:
            channel_id = await self.open_thread(event, table.round, table.table_no, names)
        else:
            channel_id = event.channel_id * 1000 + table.round * 100 + table.table_no
        organiser = Person(user_id=event.organiser_id, name="Organiser", can_manage=True)
        settings = MatchSettings(
            pace=config.pace,
            on_timeout="forfeit",
            forfeit_after=FORFEIT_AFTER[config.pace],
            thread=False,  # the event names its threads itself (R2 · T5 · Ana, Ben)
            event=event.tournament_id,  # rated under the server's ``ratings: events`` too
        )
        seats = [
            SeatRecord(seat=i, user_id=entrants[p].user_id, name=entrants[p].name)
            for i, p in enumerate(self.seated(table))
        ]
        record = await self.matches.open_lobby(
            guild_id=event.guild_id,
            channel_id=channel_id,
            host=organiser,
            game_key=event.game,
            seats=seats,
            settings=settings.model_dump_json(),
        )
        table = table.model_copy(update={"match_id": record.match_id, "thread_id": channel_id})
        await self.store.save_event_table(table)
        await self.matches.start(record.match_id, organiser)
        return table

    # --- results ---------------------------------------------------------------------------
    async def on_match_change(self, change: Change) -> None:
        """A match changed: if it is an event's table, a finish, a forfeit or a
        cancellation may decide it."""
        forfeit = change.kind == "seats" or (
            change.kind == "action" and change.timed_out is not None
        )
        if change.kind not in ("finished", "cancelled") and not forfeit:
            return
        if forfeit and not any(s.away == GONE for s in change.match.seats):
            return
        if settings_of(change.match).event is None:
            return  # every event's table is opened with its event (``_open_table``)
        table = await self.store.event_table_of(change.match.match_id)
        if table is None or table.status != "playing":
            return  # not an event's table, or the event decided it already
        if forfeit:
            # At once, before a bot is asked to play the seat: a forfeit that leaves one
            # player ends the match now. (A move or a /leave never comes from inside the
            # event's lock, so waiting for it here cannot deadlock.)
            async with self.lock(table.tournament_id):
                await self._table_changed(table.tournament_id, change.match.match_id)
            return
        self.spawn(self._locked_table_change(table.tournament_id, change.match.match_id))

    def spawn(self, work: Coroutine[object, object, None]) -> None:
        """Recording a result may open the next round (threads, matches): on a task of
        its own, so it never holds up the answer to the click that ended the match."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _locked_table_change(self, tournament_id: str, match_id: str) -> None:
        try:
            async with self.lock(tournament_id):
                await self._table_changed(tournament_id, match_id)
        except Exception:
            log.exception("could not record table %s of %s", match_id, tournament_id)

    async def _complete_later(self, tournament_id: str) -> None:
        try:
            async with self.lock(tournament_id):
                await self._maybe_complete(await self.get(tournament_id))
        except Exception:
            log.exception("could not close the round of %s", tournament_id)

    async def idle(self) -> None:
        """Wait until every result being recorded is recorded (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _table_changed(self, tournament_id: str, match_id: str) -> None:
        table = await self.store.event_table_of(match_id)
        if table is None or table.status != "playing":
            return
        event = await self.get(tournament_id)
        record = await self.matches.get(match_id)
        seated = self.seated(table)
        gone = {seated[s.seat] for s in record.seats if s.away == GONE}
        entrants = {e.entrant: e for e in await self.store.entrants(tournament_id)}
        for player in gone:
            entrant = entrants[player]
            if not entrant.forfeited and entrant.state == "entered" and not entrant.is_bot:
                entrant = entrant.model_copy(update={"forfeited": True})
                await self.store.save_entrant(entrant)
                await self.notify(
                    EventChange(
                        kind="forfeit", event=event, tables=[table], match=record, entrant=entrant
                    )
                )
        if record.status == "finished":
            state = self.matches.load_state(record)
            outcome = match_outcome(record, self.matches.game_of(record), state)
            assert outcome is not None
            place = {seated[p.seat]: p.place for p in outcome.placements}
            places = gone_last(table.seats, [place[p] for p in table.seats], gone)
            if self.config_of(event).best_of > 1 and not gone:
                decided = await self._game_finished(event, table, places)
                if decided is None:
                    return  # the table's next game is on
                table, places = decided
            await self._decide(event, table, places, sorted(gone), "match")
        elif record.status == "cancelled":
            table = table.model_copy(update={"status": "cancelled"})
            await self.store.save_event_table(table)
            await self.notify(
                EventChange(
                    kind="result",
                    event=event,
                    round=table.round,
                    tables=[table],
                    match=record,
                    text="cancelled",
                )
            )
        elif len(table.seats) - len(gone) <= 1:
            # A forfeit leaves one player: the match ends at once, finished with the
            # forfeit last (so it is rated like any finished match).
            places = gone_last(table.seats, [1] * len(table.seats), gone)
            await self._decide(event, table, places, sorted(gone), "match", complete=False)
            with contextlib.suppress(NotRunning):  # it ended meanwhile: decided anyway
                await self.matches.end_by_forfeit(match_id)
            self.spawn(self._complete_later(tournament_id))

    async def _decide(
        self,
        event: TournamentRecord,
        table: EventTable,
        places: list[int],
        gone: list[int],
        source: Literal["match", "adjudicated", "organiser"],
        *,
        replace: bool = False,
        complete: bool = True,
    ) -> bool:
        """Record a table's result (once, unless ``replace``), then see if the round ends."""
        result = ResultRecord(
            tournament_id=event.tournament_id,
            round=table.round,
            table_no=table.table_no,
            players=table.seats,
            places=places,
            gone=gone,
            source=source,
            match_id=table.match_id,
            **self._game_points(self.config_of(event), table, gone),
        )
        added = await self.store.add_result(result, replace=replace)
        if not added:
            return False
        table = table.model_copy(update={"status": "done"})
        await self.store.save_event_table(table)
        await self.notify(
            EventChange(kind="result", event=event, round=table.round, tables=[table])
        )
        if complete:
            await self._maybe_complete(await self.get(event.tournament_id))
        return True

    async def _maybe_complete(self, event: TournamentRecord) -> None:
        """Every table of the round has a result: standings, then the next round or the end."""
        if event.status != "running":
            return
        tables = [
            t for t in await self.store.event_tables(event.tournament_id) if t.round == event.round
        ]
        decided = {
            (r.round, r.table_no)
            for r in await self.store.results(event.tournament_id)
            if r.round == event.round
        }
        if any((t.round, t.table_no) not in decided for t in tables):
            return
        await self.store.replace_event_timers(event.tournament_id, [])
        view = await self.view(event.tournament_id)
        if self._is_over(view):
            await self._finish(event)
            return
        await self.notify(EventChange(kind="standings", event=event, round=event.round))
        grace = GRACE[view.config.pace]
        if grace:
            timer = self._timer(event, "next_round", event.round, self.clock.now() + grace)
            await self.store.replace_event_timers(event.tournament_id, [timer])
            self.matches.timers_changed()
        else:
            await self._start_round(event, event.round + 1)

    def _is_over(self, view: EventView) -> bool:
        config, event = view.config, view.event
        active = [e for e in view.entrants if e.state == "entered" and not e.forfeited]
        players = participants(view.entrants, event.status)
        if config.format in ("single_elimination", "double_elimination"):
            _, state = self._bracket(event, config, view.results, view.tables, players)
            return state.finished
        if any(t.bracket_id == "final" for t in view.tables):
            return True
        if config.format == "multiplayer_elimination":
            # Over when too few go on to seat a table: the top seed left wins.
            run = self._multiplayer_run(event, view.entrants, view.results, view.tables)
            entered = {e.entrant for e in active}
            going = [p for p in run.going_on or () if p in entered]
            return len(going) < max(view.game.min_players, 2)
        if config.top_cut == SEMI_FINAL_CUT and event.round == (view.rounds or 0) + 1:
            return False  # the semi-finals are done: the final table comes next
        if config.format == "swiss" and config.top_cut and event.round > (view.rounds or 0):
            seeds = self._cut(event, config, view.entrants, view.results, players)
            _, state = self._bracket(event, config, view.results, view.tables, players, seeds)
            return state.finished
        if config.top_cut and event.round == view.rounds:
            return False  # the final table or the cut's bracket comes next
        least = self.least_at_table(config, view.game)
        return event.round >= (view.rounds or 0) or len(active) < least

    async def _finish(self, event: TournamentRecord) -> None:
        event = event.model_copy(update={"status": "finished"})
        await self.store.save_tournament(event)
        await self.store.replace_event_timers(event.tournament_id, [])
        await self.notify(EventChange(kind="finished", event=event, round=event.round))

    # --- best of three ---------------------------------------------------------------------
    @staticmethod
    def seated(table: EventTable) -> tuple[int, ...]:
        """The table's entrants in the seat order of its match: the games of a best-of-three
        table alternate who sits first (``best_of.game_seats``)."""
        played = [game.match_id for game in table.games]
        number = played.index(table.match_id) if table.match_id in played else len(played)
        return bo.game_seats(table.seats, number + 1)

    @staticmethod
    def _game_points(
        config: EventConfig, table: EventTable, gone: Sequence[int]
    ) -> dict[str, list[int] | int]:
        """What a best-of-three table's result keeps for GW%: 0–2 for a forfeit, else the
        games finished so far (a deadline's or an organiser's result included)."""
        if config.best_of == 1 or len(table.seats) != 2:
            return {}
        if gone:
            score = bo.forfeit_score(table.seats, gone, config.best_of)
        else:
            score = bo.score(table.seats, [game.winner for game in table.games])
        return {"game_wins": list(score.wins), "game_draws": score.draws}

    async def _game_finished(
        self, event: TournamentRecord, table: EventTable, places: list[int]
    ) -> tuple[EventTable, list[int]] | None:
        """A game of a best-of-three table ended with ``places`` (in table seat order). It
        is kept with the table; if that decides the table, (table, places by game points)
        for the result. Otherwise the next game starts in the same thread, or a player who
        dropped meanwhile forfeits the table (None: nothing more to record)."""
        config = self.config_of(event)
        if table.match_id and all(game.match_id != table.match_id for game in table.games):
            # Kept before the next game opens: a restart in between opens it, and no more.
            game = TableGame(match_id=table.match_id, winner=bo.game_winner(table.seats, places))
            table = table.model_copy(update={"games": [*table.games, game]})
            await self.store.save_event_table(table)
        score = bo.score(table.seats, [game.winner for game in table.games])
        if bo.decided(score, config.best_of):
            return table, list(score.places())
        entrants = {e.entrant: e for e in await self.store.entrants(event.tournament_id)}
        quitters = [p for p in table.seats if entrants[p].state != "entered"]
        if quitters:
            places = gone_last(table.seats, [1] * len(table.seats), set(quitters))
            await self._decide(event, table, places, quitters, "match")
            return None
        table = await self._open_table(
            event, config, table.model_copy(update={"match_id": None}), entrants
        )
        assert table.match_id is not None
        await self.notify(
            EventChange(
                kind="table",
                event=event,
                round=table.round,
                tables=[table],
                match=await self.matches.get(table.match_id),
            )
        )
        return None

    # --- timers ----------------------------------------------------------------------------
    async def on_timer(self, timer: Timer) -> None:
        """An event's timer: the next round after the grace, a deadline, a reminder."""
        tournament_id = timer.match_id.removeprefix(EVENT_TIMER)
        if timer.kind == "start":
            await self._start_on_time(tournament_id)  # takes the event's lock itself
            return
        async with self.lock(tournament_id):
            event = await self.store.get_tournament(tournament_id)
            if event is None or event.status != "running" or event.round != timer.version:
                return  # stale: the round it was set for is over
            if timer.kind == "next_round":
                await self._start_round(event, event.round + 1)
            elif timer.kind == "deadline":
                await self._deadline(event)
            elif timer.kind.startswith("table:"):
                table_no = int(timer.kind.removeprefix("table:"))
                await self._adjudicate(event, table_no)
            elif timer.kind in ("remind_half", "remind_day"):
                tables = [
                    t
                    for t in await self.store.event_tables(tournament_id)
                    if t.round == event.round and t.status == "playing"
                ]
                await self.notify(
                    EventChange(
                        kind="reminder",
                        event=event,
                        round=event.round,
                        tables=tables,
                        text=timer.kind,
                    )
                )

    async def _deadline(self, event: TournamentRecord) -> None:
        """The round's time is up: unfinished tables (not extended) are drawn."""
        extended = {
            int(t.kind.removeprefix("table:"))
            for t in await self.store.event_timers(event.tournament_id)
            if t.kind.startswith("table:")
        }
        for table in await self.store.event_tables(event.tournament_id):
            playing = table.round == event.round and table.status == "playing"
            if playing and table.table_no not in extended:
                await self._adjudicate(event, table.table_no)

    async def _adjudicate(self, event: TournamentRecord, table_no: int) -> None:
        """A draw among the seats still playing; those who forfeited are last."""
        table = next(
            (
                t
                for t in await self.store.event_tables(event.tournament_id)
                if t.round == event.round and t.table_no == table_no
            ),
            None,
        )
        if table is None or table.status != "playing":
            return
        gone: set[int] = set()
        if table.match_id is not None:
            record = await self.matches.get(table.match_id)
            gone = {self.seated(table)[s.seat] for s in record.seats if s.away == GONE}
        places = gone_last(table.seats, [1] * len(table.seats), gone)
        # The table is marked decided before its match is closed, so the closing is not
        # taken for a cancellation waiting on the organiser.
        await self.store.save_event_table(table.model_copy(update={"status": "done"}))
        if table.match_id is not None:
            record = await self.matches.get(table.match_id)
            if record.is_open:
                await self.matches.cancel(
                    table.match_id, Person(event.organiser_id, "Round deadline", can_manage=True)
                )
        await self._decide(
            event,
            table.model_copy(update={"status": "playing"}),
            places,
            sorted(gone),
            "adjudicated",
            replace=True,
        )

    async def sweep(self) -> int:
        """After a restart: record finished tables missing a result (the process may have
        stopped between a match's end and its result), and close rounds that are done."""
        recorded = 0
        for event in await self.store.tournaments(None, open_only=True):
            if event.status == "signup":
                continue
            for table in await self.store.event_tables(event.tournament_id):
                if table.status != "playing" or table.match_id is None:
                    continue
                record = await self.matches.store.get(table.match_id)
                forfeited = record is not None and any(s.away == GONE for s in record.seats)
                if record is None or (record.is_open and not forfeited):
                    continue
                async with self.lock(event.tournament_id):
                    await self._table_changed(event.tournament_id, table.match_id)
                recorded += 1
        return recorded

    # --- players ---------------------------------------------------------------------------
    async def drop(self, tournament_id: str, person: Person) -> EntrantRecord:
        """Leave the event for good: no more pairings; finished results stay. The table
        being played goes on: the seat forfeits there like any absent player."""
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            if not event.is_open:
                raise UserError("This tournament is over.")
            entrants = await self.store.entrants(tournament_id)
            before = signed_up(entrants, person.user_id)
            if before is None:
                raise UserError("You are not playing in this tournament.")
            mine = before.model_copy(update={"state": "dropped", "dropped_round": event.round})
            await self.store.save_entrant(mine)
            if event.status == "signup":
                await self._fill_place(before, entrants)
        if event.status == "signup":
            await self._signup_change(tournament_id)
        return mine

    async def stay_in(self, tournament_id: str, person: Person) -> EntrantRecord:
        async with self.lock(tournament_id):
            event = await self.get(tournament_id)
            mine = next(
                (
                    e
                    for e in await self.store.entrants(tournament_id)
                    if e.user_id == person.user_id
                ),
                None,
            )
            if mine is None or mine.state != "entered" or not event.is_open:
                raise UserError("You are not playing in this tournament any more.")
            if not mine.forfeited:
                raise UserError("You are in: nothing to confirm.")
            mine = mine.model_copy(update={"forfeited": False})
            await self.store.save_entrant(mine)
            return mine

    # --- organiser tools -------------------------------------------------------------------
    async def _organise(self, tournament_id: str, actor: Person, what: str) -> TournamentRecord:
        event = await self.get(tournament_id)
        await self.require_organiser(event, actor, what)
        if not event.is_open:
            raise UserError("This tournament is over.")
        return event

    def _find_entrant(self, entrants: Sequence[EntrantRecord], name: str) -> EntrantRecord:
        wanted = name.strip().lstrip("@").casefold()
        for e in entrants:
            if e.name.casefold() == wanted or (e.user_id is not None and str(e.user_id) == wanted):
                return e
        raise UserError(f"Nobody called {name.strip()!r} is in this tournament.")

    async def set_result(self, tournament_id: str, actor: Person, text: str) -> ResultRecord:
        """``Ana > Ben = Cleo > Dev``: the finishing order of one table of the current
        round, ties with ``=``. Replaces whatever was recorded; the match is closed."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "set a result")
            entrants = await self.store.entrants(tournament_id)
            groups = [
                [self._find_entrant(entrants, name).entrant for name in group.split("=")]
                for group in re.split(r">", text)
                if group.strip()
            ]
            named = [p for g in groups for p in g]
            table = next(
                (
                    t
                    for t in await self.store.event_tables(tournament_id)
                    if t.round == event.round and set(t.seats) == set(named)
                ),
                None,
            )
            if table is None or len(named) != len(set(named)):
                raise UserError(
                    "Name every player of one table of this round once, best first, like "
                    "`Ana > Ben = Cleo > Dev`."
                )
            before = next(
                (
                    r
                    for r in await self.store.results(tournament_id)
                    if (r.round, r.table_no) == (table.round, table.table_no)
                ),
                None,
            )
            ranked = places_from_groups(groups)
            places = [ranked[p] for p in table.seats]
            await self.store.save_event_table(table.model_copy(update={"status": "done"}))
            if table.match_id is not None:
                record = await self.matches.get(table.match_id)
                if record.is_open:
                    await self.matches.cancel(table.match_id, actor)
            await self.audit(
                event,
                actor,
                "set result",
                before.model_dump(include={"players", "places", "source"}) if before else {},
                {"round": table.round, "table": table.table_no, "result": text.strip()},
            )
            await self._decide(
                event,
                table.model_copy(update={"status": "playing"}),
                places,
                [],
                "organiser",
                replace=True,
            )
            return ResultRecord(
                tournament_id=tournament_id,
                round=table.round,
                table_no=table.table_no,
                players=table.seats,
                places=places,
                source="organiser",
                match_id=table.match_id,
            )

    async def set_state(
        self,
        tournament_id: str,
        actor: Person,
        name: str,
        state: Literal["entered", "dropped", "disqualified"],
    ) -> EntrantRecord:
        """Drop, undrop or disqualify an entrant (from the next pairing on)."""
        verb = {"entered": "undrop", "dropped": "drop", "disqualified": "disqualify"}[state]
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, f"{verb} players")
            entrant = self._find_entrant(await self.store.entrants(tournament_id), name)
            if entrant.state == state:
                raise UserError(f"{entrant.name} is already {state}.")
            after = entrant.model_copy(
                update={
                    "state": state,
                    "forfeited": False,
                    "dropped_round": None if state == "entered" else event.round,
                }
            )
            await self.store.save_entrant(after)
            await self.audit(
                event,
                actor,
                verb,
                {"name": entrant.name, "state": entrant.state},
                {"name": entrant.name, "state": state},
            )
        if event.status == "signup":
            await self._signup_change(tournament_id)
        return after

    async def repair(self, tournament_id: str, actor: Person) -> None:
        """Pair the current round again (after a drop or a late entry), while no table has
        seen a move."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "re-pair a round")
            if event.status != "running" or event.round == 0:
                raise UserError("There is no round to re-pair.")
            tables = [
                t for t in await self.store.event_tables(tournament_id) if t.round == event.round
            ]
            records = [await self.matches.get(t.match_id) for t in tables if t.match_id]
            for record in records:
                if record.status != "active" or await self.store.actions(record.match_id):
                    raise UserError(
                        "A table of this round has already moved: it cannot be re-paired."
                    )
            for table in tables:
                await self.store.save_event_table(table.model_copy(update={"status": "done"}))
            for record in records:
                await self.matches.cancel(record.match_id, actor)
            await self.store.delete_results(tournament_id, event.round)
            await self.audit(
                event,
                actor,
                "re-pair",
                {"round": event.round, "tables": [t.seats for t in tables]},
                {"round": event.round},
            )
            # The new pairing overwrites these tables' rows: their threads are closed now
            # or never (a server holds 1000 active threads).
            await self.notify(
                EventChange(kind="repaired", event=event, round=event.round, tables=tables)
            )
            await self._start_round(event, event.round)

    async def extend(self, tournament_id: str, actor: Person, table_no: int, hours: float) -> float:
        """Give one table more time past the round's deadline."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "extend a table")
            table = next(
                (
                    t
                    for t in await self.store.event_tables(tournament_id)
                    if t.round == event.round and t.table_no == table_no
                ),
                None,
            )
            if table is None or table.status != "playing":
                raise UserError(f"Table {table_no} of round {event.round} is not being played.")
            if hours <= 0:
                raise UserError("Give the table a positive number of hours.")
            rounds = {r.round: r for r in await self.store.rounds(tournament_id)}
            start = max(rounds[event.round].deadline or self.clock.now(), self.clock.now())
            timers = await self.store.event_timers(tournament_id)
            kind = f"table:{table_no}"
            old = next((t for t in timers if t.kind == kind), None)
            due = (old.due_at if old else start) + hours * 3600
            timers = [t for t in timers if t.kind != kind]
            timers.append(self._timer(event, kind, event.round, due))
            await self.store.replace_event_timers(tournament_id, timers)
            self.matches.timers_changed()
            await self.audit(
                event,
                actor,
                "extend",
                {"table": table_no, "until": old.due_at if old else None},
                {"table": table_no, "until": due},
            )
            return due

    async def pause(self, tournament_id: str, actor: Person) -> None:
        """Hold the event: no next round, no deadline; the tables' clocks stop too."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "pause the tournament")
            if event.status != "running":
                raise UserError("Only a running tournament can be paused.")
            config = self.config_of(event).model_copy(update={"paused_at": self.clock.now()})
            event = event.model_copy(
                update={"status": "paused", "config": config.model_dump_json()}
            )
            await self.store.save_tournament(event)
            await self._shift_clocks(event, HELD, lambda t: True)
            await self.audit(event, actor, "pause", {"status": "running"}, {"status": "paused"})
        await self.notify(EventChange(kind="paused", event=event, round=event.round))

    async def resume(self, tournament_id: str, actor: Person) -> None:
        """Go on: every clock of the event (deadline, tables' move clocks) is moved on by
        the time it was held."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "resume the tournament")
            config = self.config_of(event)
            if event.status != "paused" or config.paused_at is None:
                raise UserError("This tournament is not paused.")
            now = self.clock.now()
            held = now - config.paused_at
            # Only the clocks set aside at the pause move; a move made meanwhile set its
            # clock from then, which is right as it is.
            await self._shift_clocks(event, held - HELD, lambda t: t.due_at > now + HELD / 2)
            rounds = {r.round: r for r in await self.store.rounds(tournament_id)}
            current = rounds.get(event.round)
            if current is not None and current.deadline is not None:
                await self.store.save_round(
                    current.model_copy(update={"deadline": current.deadline + held})
                )
            config = config.model_copy(update={"paused_at": None})
            event = event.model_copy(
                update={"status": "running", "config": config.model_dump_json()}
            )
            await self.store.save_tournament(event)
            self.matches.timers_changed()
            await self.audit(event, actor, "resume", {"status": "paused"}, {"status": "running"})
            await self.notify(EventChange(kind="resumed", event=event, round=event.round))
            playing = [
                t.match_id
                for t in await self.store.event_tables(tournament_id)
                if t.status == "playing" and t.match_id
            ]
            await self._maybe_complete(event)
        # The bots and forced answers the pause refused are due again.
        for match_id in playing:
            await self.matches.release(match_id)

    async def _shift_clocks(
        self, event: TournamentRecord, by: float, which: Callable[[Timer], bool]
    ) -> None:
        """Move the event's timers and its playing tables' move clocks by ``by`` seconds.
        A pause sets them aside (far in the future) and the resume brings them back,
        later by the time the event was held."""
        timers = await self.store.event_timers(event.tournament_id)
        await self.store.replace_event_timers(
            event.tournament_id,
            [t.model_copy(update={"due_at": t.due_at + by}) if which(t) else t for t in timers],
        )
        for table in await self.store.event_tables(event.tournament_id):
            if table.status == "playing" and table.match_id:
                moved = [
                    t.model_copy(update={"due_at": t.due_at + by}) if which(t) else t
                    for t in await self.store.timers_of(table.match_id)
                ]
                await self.store.replace_timers(table.match_id, moved)
        self.matches.timers_changed()

    async def end(self, tournament_id: str, actor: Person) -> None:
        """End now: open tables are drawn, the standings as they are are final."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "end the tournament")
            if event.status == "signup":
                raise UserError("This tournament has not started: cancel it instead.")
            # Finished first, so the tables drawn below start no further round.
            event = event.model_copy(update={"status": "finished"})
            await self.store.save_tournament(event)
            for table in await self.store.event_tables(tournament_id):
                if table.status == "playing" and table.round == event.round:
                    await self._adjudicate(event, table.table_no)
            await self.audit(event, actor, "end", {"round": event.round}, {"status": "finished"})
            await self._finish(event)

    async def cancel(self, tournament_id: str, actor: Person) -> None:
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "cancel the tournament")
            before = event.status
            event = event.model_copy(update={"status": "cancelled"})
            await self.store.save_tournament(event)
            await self.store.replace_event_timers(tournament_id, [])
            for table in await self.store.event_tables(tournament_id):
                if table.status == "playing":
                    await self.store.save_event_table(table.model_copy(update={"status": "done"}))
                    if table.match_id:
                        record = await self.matches.get(table.match_id)
                        if record.is_open:
                            await self.matches.cancel(table.match_id, actor)
            await self.audit(event, actor, "cancel", {"status": before}, {"status": "cancelled"})
        await self.notify(EventChange(kind="cancelled", event=event, round=event.round))

    # --- exports ---------------------------------------------------------------------------
    async def export(self, tournament_id: str) -> dict[str, str]:
        """standings.csv, results.csv (a row per seat) and audit.csv."""
        view = await self.view(tournament_id)
        standings = io.StringIO()
        writer = csv.writer(standings)
        names = [name for name, _ in view.standings[0].tiebreakers] if view.standings else []
        writer.writerow(["rank", "player", "user_id", "points", *names, "dropped", "bot"])
        for s in view.standings:
            e = view.entrant(s.player)
            writer.writerow(
                [
                    s.rank,
                    e.name,
                    e.user_id or "",
                    f"{float(s.points):g}",
                    *(percent(v) for _, v in s.tiebreakers),
                    "yes" if s.dropped else "",
                    "yes" if e.is_bot else "",
                ]
            )
        results = io.StringIO()
        writer = csv.writer(results)
        games = ["games_won", "games_drawn"] if view.config.best_of > 1 else []
        writer.writerow(
            ["round", "table", "seat", "player", "place", "kind", "source", "match", *games]
        )
        for r in view.results:
            table = 0 if r.table_no >= 900 else r.table_no
            for seat, (player, place) in enumerate(zip(r.players, r.places, strict=True)):
                # Best of three: the games this seat won at the table (none for a bye).
                won = [r.game_wins[seat], r.game_draws] if r.game_wins is not None else ["", ""]
                writer.writerow(
                    [
                        r.round,
                        table,
                        seat,
                        view.name(player),
                        place if player not in r.gone else f"{place} (forfeit)",
                        r.kind,
                        r.source,
                        r.match_id or "",
                        *(won if games else []),
                    ]
                )
        audit = io.StringIO()
        writer = csv.writer(audit)
        writer.writerow(["at", "who", "action", "before", "after"])
        for row in await self.store.audit(tournament_id):
            writer.writerow([f"{row.at:.0f}", row.actor_name, row.action, row.before, row.after])
        return {
            "standings.csv": standings.getvalue(),
            "results.csv": results.getvalue(),
            "audit.csv": audit.getvalue(),
        }


def points_text(points: Fraction) -> str:
    return f"{float(points):g}"
