"""Ratings of finished matches: rated when the service says a match finished, replayed by
``python -m bot ratings rebuild``, read by /leaderboard and /stats.

A match is rated once: its ``rating_events`` rows and its players' new ratings are one
transaction, and a second attempt finds the rows and changes nothing. Which matches are
rated follows the server's ``/settings ratings:`` at the time each one ends; the rows keep
that record, so a rebuild replays exactly the matches that were rated, from the matches
themselves (seats, final state), in (``finished_at``, id) order.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.errors import UserError
from bot.ratings import (
    BOT_IDS,
    Rating,
    RatingChange,
    SeatResult,
    rate_bots,
    rate_match,
    shared_ranks,
)
from bot.service.base import Change, match_outcome, seat_place, settings_of
from bot.service.lobbies import Lobbies
from bot.store import MatchRecord, Store
from bot.store.models import GONE
from bot.store.ratings import RatingChangeRecord, RatingConflict, RatingRecord
from games.core.levels import Level
from games.core.protocol import Game
from games.core.text import t

log = logging.getLogger(__name__)

LEADERBOARD_PAGE = 10
SWEEP_WITHIN = 86_400.0  # start-up looks back a day for matches left unrated
RETRIES = 3  # another process rating a match of the same player: read again and retry


def seat_results(record: MatchRecord, game: Game) -> list[SeatResult] | None:
    """The match's placements as the rating sees them, or None when the game itself did not
    end it (a match closed by a deadline or an organiser is adjudicated: not rated)."""
    if record.status != "finished" or record.state is None:
        return None
    outcome = match_outcome(record, game, game.load_state(record.state))
    if outcome is None:
        return None
    places = {p.seat: p.place for p in outcome.placements}
    return [
        SeatResult(
            user_id=seat.user_id, place=places[seat.seat], gone=seat.away == GONE, level=seat.level
        )
        for seat in record.seats
        if seat.seat in places
    ]


def as_rating(record: RatingRecord | None) -> Rating:
    return Rating() if record is None else Rating(record.mu, record.sigma, record.games)


def match_changes(
    record: MatchRecord, seats: Sequence[SeatResult], before: Mapping[int, Rating]
) -> list[RatingChangeRecord]:
    """Everything a finished match changes: its people's ratings (among people only), and
    its bot levels' (against everyone at the table). ``before`` holds both, by user id and
    ``BOT_IDS``."""
    bots = rate_bots(record.match_id, seats, before)
    return [
        *rating_changes_of_match(record, rate_match(record.match_id, seats, before)),
        *rating_changes_of_match(record, bots, players=len(seats)),
    ]


def rating_changes_of_match(
    record: MatchRecord, changes: Sequence[RatingChange], players: int | None = None
) -> list[RatingChangeRecord]:
    return [
        RatingChangeRecord(
            match_id=record.match_id,
            user_id=change.user_id,
            guild_id=record.guild_id,
            game=record.game,
            at=record.finished_at or 0.0,
            place=change.place,
            players=players or len(changes),
            mu_before=change.before.mu,
            sigma_before=change.before.sigma,
            mu_after=change.after.mu,
            sigma_after=change.after.sigma,
            games_after=change.after.games,
            display_after=change.after.display,
        )
        for change in changes
    ]


@dataclass(frozen=True)
class LeaderboardPage:
    game: str
    entries: list[tuple[int, RatingRecord]]  # (rank, rating)
    page: int
    pages: int
    total: int
    # Each bot level's rating here: a reference beside the people, never ranked among them.
    bots: Mapping[Level, RatingRecord] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    game: str
    rating: RatingRecord
    wins: int
    places: dict[int, int]  # place at the table (bots counted) -> how many times
    history: list[int]  # display ratings: 1500 before the first game, then after each
    times: list[float] = field(default_factory=list)  # when each of ``history`` was reached


@dataclass(frozen=True)
class Rebuilt:
    matches: int
    ratings: int
    changed: int  # ratings or rating rows that differ from what was stored


class Ratings:
    """Rates finished matches for a ``MatchService`` (as one of its listeners) and reads
    ratings for the Discord layer."""

    def __init__(self, service: Lobbies) -> None:
        self.service = service
        self.store: Store = service.store
        # One rating at a time in this process: each reads ratings another may be writing.
        self._lock = asyncio.Lock()
        # Matches finished and not yet rated, oldest first, and the one task rating them.
        self._finished: deque[MatchRecord] = deque()
        self._rater: asyncio.Task[None] | None = None
        service.listeners.append(self.on_change)

    async def on_change(self, change: Change) -> None:
        """A finish is rated after the click that ended the match is answered: its five
        reads and one transaction would wait in the store's queue while the player does.
        One task rates them in the order they ended, so a rebuild finds the same ratings;
        a stop before it gets there is made good by ``sweep`` at the next start-up."""
        if change.kind != "finished":
            return
        self._finished.append(change.match)
        if self._rater is None or self._rater.done():
            self._rater = asyncio.create_task(self._rate_finished(), name="ratings")

    async def _rate_finished(self) -> None:
        while self._finished:
            record = self._finished.popleft()
            try:
                await self.rate(record)
            except Exception:
                log.exception("could not rate match %s", record.match_id)

    async def idle(self) -> None:
        """Wait until every finished match handed over so far is rated (tests, shutdown)."""
        while self._rater is not None and not self._rater.done():
            await asyncio.wait({self._rater})

    async def rate(self, record: MatchRecord) -> list[RatingChangeRecord]:
        """Rate a finished match, if the server rates it; the rows written (none when it is
        not rated, or was rated already)."""
        if record.finished_at is None:
            # The service's copy of a match it just finished lacks the store's end time.
            record = await self.service.get(record.match_id)
        mode = (await self.service.guild_settings(record.guild_id)).ratings
        if mode == "off" or (mode == "events" and settings_of(record).event is None):
            return []
        seats = seat_results(record, self.service.games[record.game])
        if seats is None:
            return []
        async with self._lock:
            for attempt in range(RETRIES):
                if await self.store.match_rated(record.match_id):
                    return []
                events = await self._events(record, seats)
                if not events:
                    return []
                try:
                    saved = await self.store.save_match_ratings(events)
                except RatingConflict:
                    if attempt == RETRIES - 1:
                        raise
                    continue
                return events if saved else []
        return []

    async def sweep(self, within: float = SWEEP_WITHIN) -> int:
        """At start-up: rate the matches that finished after the last rated one (within
        ``within`` seconds) and were not rated, as the process may have stopped between a
        match's end and its rating. Later than every rated match, so the order holds."""
        found = await self.store.unrated_since(self.service.clock.now() - within)
        rated = 0
        for match_id in found:
            record = await self.store.get(match_id)
            if record is not None and record.game in self.service.games:
                rated += bool(await self.rate(record))
        return rated

    async def _events(
        self, record: MatchRecord, seats: Sequence[SeatResult]
    ) -> list[RatingChangeRecord]:
        users = [s.user_id for s in seats if s.user_id is not None]
        stored = await self.store.ratings_of(
            record.guild_id, record.game, [*users, *BOT_IDS.values()]
        )
        before = {user: as_rating(found) for user, found in stored.items()}
        return match_changes(record, seats, before)

    # --- reads -----------------------------------------------------------------------------
    def _game(self, game: str) -> Game:
        if game not in self.service.games:
            raise UserError(t("There is no such game here; pick one from the list."))
        return self.service.games[game]

    async def leaderboard(self, guild_id: int, game: str, page: int = 0) -> LeaderboardPage:
        self._game(game)
        total = await self.store.count_rated(guild_id, game)
        pages = max(1, -(-total // LEADERBOARD_PAGE))
        page = max(0, min(page, pages - 1))
        found = await self.store.leaderboard(
            guild_id, game, limit=LEADERBOARD_PAGE, offset=page * LEADERBOARD_PAGE
        )
        # Equal ratings share the better rank, across pages too: a page's first rank is
        # one below the people rated higher than its first rating.
        above = 0
        if page and found:
            above = await self.store.count_rated(guild_id, game, found[0].display)
        ranks = shared_ranks([r.display for r in found], 1 + above)
        return LeaderboardPage(
            game=game,
            entries=list(zip(ranks, found, strict=True)),
            page=page,
            pages=pages,
            total=total,
            bots=await self.bot_ratings(guild_id, game),
        )

    async def bot_ratings(self, guild_id: int, game: str) -> dict[Level, RatingRecord]:
        """Each bot level's rating in the game here, for the levels that played people."""
        self._game(game)
        found = await self.store.ratings_of(guild_id, game, list(BOT_IDS.values()))
        return {level: found[bot] for level, bot in BOT_IDS.items() if bot in found}

    async def stats(self, guild_id: int, user_id: int, game: str) -> PlayerStats | None:
        """A player's record in one game here; None if they have no rated match in it."""
        self._game(game)
        found = await self.store.ratings_of(guild_id, game, [user_id])
        if user_id not in found:
            return None
        events = await self.store.rating_changes_of(guild_id, game, user_id)
        places = await self._places(guild_id, game, user_id, {e.match_id for e in events})
        return PlayerStats(
            user_id=user_id,
            game=game,
            rating=found[user_id],
            wins=places.get(1, 0),
            places=dict(sorted(places.items())),
            history=[Rating().display, *(e.display_after for e in events)],
            times=[events[0].at, *(e.at for e in events)] if events else [],
        )

    async def _places(
        self, guild_id: int, game: str, user_id: int, rated: set[str]
    ) -> dict[int, int]:
        """How often the player finished each place of their rated matches, bots counted:
        a rating's own place is among people only, and a second place behind a bot that
        won is no win. Place -> times, best first."""
        total = await self.store.count_finished(guild_id, game=game, user_id=user_id)
        records = await self.store.finished_matches(
            guild_id, game=game, user_id=user_id, limit=total
        )
        played = [r for r in records if r.match_id in rated]
        # Reading every final state takes a while for a regular: off the event loop.
        return await asyncio.to_thread(_places_of, played, self._game(game), user_id)

    async def rated_games(self, guild_id: int, user_id: int) -> list[RatingRecord]:
        """The player's ratings here, one per game they have a rated match in."""
        games = sorted(
            {e.game for e in await self.store.rating_changes_of(guild_id, None, user_id)}
        )
        found = []
        for game in games:
            found += (await self.store.ratings_of(guild_id, game, [user_id])).values()
        return found


def _places_of(records: Sequence[MatchRecord], game: Game, user_id: int) -> dict[int, int]:
    found = Counter(seat_place(r, game, r.seat_of(user_id)) for r in records)
    return {place: found[place] for place in sorted(p for p in found if p is not None)}


async def rebuild(store: Store, games: Mapping[str, Game]) -> Rebuilt:
    """Replay every rated match in (finished_at, id) order from fresh ratings, and replace
    both tables with the result in one transaction."""
    current: dict[tuple[int, str, int], Rating] = {}
    events: list[RatingChangeRecord] = []
    order = await store.rated_matches()
    for match_id in order:
        record = await store.get(match_id)
        if record is None or record.game not in games:
            continue
        seats = seat_results(record, games[record.game])
        if seats is None:
            continue
        ids = [*(s.user_id for s in seats if s.user_id is not None), *BOT_IDS.values()]
        before = {
            user: current[key]
            for user in ids
            if (key := (record.guild_id, record.game, user)) in current
        }
        changes = match_changes(record, seats, before)
        for change in changes:
            current[(record.guild_id, record.game, change.user_id)] = Rating(
                change.mu_after, change.sigma_after, change.games_after
            )
        events += changes
    ratings = [
        RatingRecord(
            guild_id=guild,
            game=game,
            user_id=user,
            mu=rating.mu,
            sigma=rating.sigma,
            games=rating.games,
            display=rating.display,
        )
        for (guild, game, user), rating in sorted(current.items())
    ]
    changed = _differing(
        {(r.guild_id, r.game, r.user_id): r for r in await store.all_ratings()},
        {(r.guild_id, r.game, r.user_id): r for r in ratings},
    ) + _differing(
        {(e.match_id, e.user_id): e for e in await store.all_rating_changes()},
        {(e.match_id, e.user_id): e for e in events},
    )
    await store.replace_ratings(ratings, events)
    return Rebuilt(matches=len(order), ratings=len(ratings), changed=changed)


def _differing(old: Mapping[object, object], new: Mapping[object, object]) -> int:
    """Rows missing on either side or holding other values."""
    return sum(old.get(key) != new.get(key) for key in old.keys() | new.keys())
