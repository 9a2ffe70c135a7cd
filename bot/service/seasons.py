"""Seasons of a game on a server: turned on by an organiser, read by /season and the web
page, ended by their stored timer (``bot/store/seasons.py``: the row is the timer).

A season's end happens once (one guarded write: the final tables and role holders kept,
the next season and its divisions begun), then is announced (``listeners``: the final
table posted, the role moved) and only then is its timer done. A process that stops in
between finds the timer overdue at its next start and announces it then; a second firing
of an end already written only announces.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass

from bot.clock import Clock
from bot.errors import UserError
from bot.seasons import (
    MOST_DIVISIONS,
    SIZES,
    SeasonLine,
    chunked,
    next_divisions,
    parse_length,
    parse_stored,
    top_places,
)
from bot.service.base import Person
from bot.service.lobbies import Lobbies
from bot.service.season_reads import Tables, kept_tables, season_tables
from bot.service.tournaments import Tournaments
from bot.store import Timer
from bot.store.seasons import SeasonRecord, SeasonSetup, season_of_timer
from games.core.text import t

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeasonTable:
    """A season and its tables, one per division (the top first): live while it runs, as
    kept when it ended."""

    season: SeasonRecord
    tables: Tables
    setup: SeasonSetup | None

    def place_of(self, user_id: int) -> tuple[int, SeasonLine] | None:
        """The player's division (1 is the top) and line, if they are in one."""
        for division, table in enumerate(self.tables, 1):
            for line in table:
                if line.user_id == user_id:
                    return division, line
        return None


@dataclass(frozen=True)
class SeasonEnd:
    """What a season's end announces: its final tables, who takes the role from whom, and
    the season that follows."""

    setup: SeasonSetup
    ended: SeasonTable
    holders: list[int]
    former_holders: list[int]
    following: SeasonRecord | None


Listener = Callable[[SeasonEnd], Awaitable[None]]


class Seasons:
    def __init__(self, service: Lobbies, tournaments: Tournaments) -> None:
        self.service = service
        self.store = service.store
        self.tournaments = tournaments  # who may organise: the same rule as for events
        self.listeners: list[Listener] = []
        self.wake: Callable[[float | None], None] = lambda earliest: None

    @property
    def clock(self) -> Clock:
        return self.service.clock  # read each time: a test may swap the service's clock

    # --- the organiser's -------------------------------------------------------------------
    async def set_up(
        self,
        guild_id: int,
        game: str,
        actor: Person,
        *,
        length: str | None,
        divisions: int,
        size: int,
        role_id: int | None,
        role_places: int,
        channel_id: int,
    ) -> SeasonRecord:
        """Turn seasons on for a game here, or change how they run (the running season
        keeps its end and divisions). Every refusal is one sentence, and nothing is made."""
        name = self._game_name(game)
        await self.require_organiser(guild_id, actor)
        if (await self.service.guild_settings(guild_id)).ratings == "off":
            raise UserError(
                t(
                    "Seasons need rated matches, and this server rates none: turn ratings on "
                    "with /settings ratings: first."
                )
            )
        span = parse_length(length)
        if span is None:
            raise UserError(
                t(
                    "A season lasts a number of days (1–366), weeks or months (1–12): try "
                    "`month`, `4 weeks` or `10 days`."
                )
            )
        if not 1 <= divisions <= MOST_DIVISIONS:
            raise UserError(t("A season has 1 to {most} divisions.", most=MOST_DIVISIONS))
        if not SIZES[0] <= size <= SIZES[1]:
            raise UserError(
                t(
                    "A division holds {least} to {most} players.",
                    least=SIZES[0],
                    most=SIZES[1],
                )
            )
        if role_id is not None and not 1 <= role_places <= size:
            raise UserError(
                t(
                    "The role goes to the top 1 to {size} places of the first division.",
                    size=size,
                )
            )
        ratings = await self.store.displayed_ratings(guild_id, game)
        if len(ratings) > divisions * size:
            raise UserError(
                t(
                    "{divisions} divisions of {size} can't hold the {players} players rated in "
                    "{game} here: make them bigger or add divisions.",
                    divisions=divisions,
                    size=size,
                    players=len(ratings),
                    game=name,
                )
            )
        setup = SeasonSetup(
            guild_id=guild_id,
            game=game,
            length=str(span),
            divisions=divisions,
            size=size,
            role_id=role_id,
            role_places=role_places if role_id is not None else 0,
            channel_id=channel_id,
        )
        current = await self.current(guild_id, game)
        if current is not None:
            await self.store.save_season_setup(setup)
            return current
        past = await self.store.seasons(guild_id, game)
        # A whole second: a season's bounds are compared with match times kept to the
        # microsecond, and shown as Discord timestamps, which are whole seconds.
        now = float(int(self.clock.now()))
        ends = span.end(now)
        first = SeasonRecord(
            guild_id=guild_id,
            game=game,
            number=past[0].number + 1 if past else 1,
            starts_at=now,
            ends_at=ends,
            status="running",
            due_at=ends,
        )
        # The first divisions by rating, best first; everyone rated later is a newcomer.
        ordered = sorted(ratings, key=lambda user: (-ratings[user], user))
        await self.store.start_seasons(setup, first, chunked(ordered, size, divisions))
        self.wake(ends)
        return first

    async def stop(self, guild_id: int, game: str, actor: Person) -> None:
        name = self._game_name(game)
        await self.require_organiser(guild_id, actor)
        if not await self.store.stop_seasons(guild_id, game):
            raise UserError(t("{game} has no seasons here to stop.", game=name))

    # --- reads -----------------------------------------------------------------------------
    async def current(self, guild_id: int, game: str) -> SeasonRecord | None:
        found = await self.store.seasons(guild_id, game)
        return next((s for s in found if s.status == "running"), None)

    async def past(self, guild_id: int, game: str) -> list[SeasonRecord]:
        """The game's ended seasons here, newest first."""
        return [s for s in await self.store.seasons(guild_id, game) if s.status == "ended"]

    async def table(self, guild_id: int, game: str, number: int | None = None) -> SeasonTable:
        """A season's tables: the running season's (else the latest), or season ``number``."""
        name = self._game_name(game)
        setup = await self.store.season_setup(guild_id, game)
        if number is None:
            found = await self.store.seasons(guild_id, game)
            season = next((s for s in found if s.status == "running"), found[0] if found else None)
            if season is None:
                raise UserError(
                    t(
                        "{game} has no seasons here: an organiser can start them with "
                        "/seasons setup.",
                        game=name,
                    )
                )
        else:
            season = await self.store.season(guild_id, game, number)
            if season is None:
                raise UserError(t("{game} has no season {number} here.", game=name, number=number))
        divisions = setup.divisions if setup is not None else 1
        return SeasonTable(season, await season_tables(self.store, season, divisions), setup)

    # --- the end ---------------------------------------------------------------------------
    async def on_timer(self, timer: Timer) -> None:
        guild, game, number = season_of_timer(timer)
        season = await self.store.season(guild, game, number)
        if season is None or season.due_at is None or season.due_at > self.clock.now():
            return
        if season.status == "running":
            await self._end(season)
            season = await self.store.season(guild, game, number)
        if season is not None and season.status == "ended" and season.due_at is not None:
            await self._announce(season)
            await self.store.season_announced(guild, game, number)

    async def _end(self, season: SeasonRecord) -> None:
        setup = await self.store.season_setup(season.guild_id, season.game)
        if setup is None:
            # Turned off as it fell due (stop_seasons stops the running season in the same
            # write, so only a race gets here): stopped too, or its timer would stand.
            await self.store.stop_seasons(season.guild_id, season.game)
            return
        tables = await season_tables(self.store, season, setup.divisions)
        holders = top_places(tables[0], setup.role_places) if setup.role_id is not None else []
        ended = season.model_copy(
            update={
                "status": "ended",
                "final": json.dumps([[asdict(line) for line in table] for table in tables]),
                "holders": json.dumps(holders),
            }
        )
        starts = season.ends_at
        ends = parse_stored(setup.length).end(starts)
        following = SeasonRecord(
            guild_id=season.guild_id,
            game=season.game,
            number=season.number + 1,
            starts_at=starts,
            ends_at=ends,
            status="running",
            due_at=ends,
        )
        if await self.store.end_season(ended, following, next_divisions(tables, setup.size)):
            log.info("season %s of %s in %s ended", season.number, season.game, season.guild_id)

    async def _announce(self, season: SeasonRecord) -> None:
        setup = await self.store.season_setup(season.guild_id, season.game)
        if setup is None or season.final is None:
            return
        before = await self.store.season(season.guild_id, season.game, season.number - 1)
        end = SeasonEnd(
            setup=setup,
            ended=SeasonTable(season, kept_tables(season.final), setup),
            holders=season.holder_ids(),
            former_holders=before.holder_ids() if before is not None else [],
            following=await self.store.season(season.guild_id, season.game, season.number + 1),
        )
        for listener in self.listeners:
            await listener(end)

    # --- helpers ---------------------------------------------------------------------------
    def _game_name(self, game: str) -> str:
        if game not in self.service.games:
            raise UserError(t("There is no such game here; pick one from the list."))
        return self.service.games[game].name

    async def require_organiser(self, guild_id: int, actor: Person) -> None:
        if await self.tournaments.may_organise(guild_id, actor):
            return
        who = await self.tournaments.organisers(guild_id)
        raise UserError(t("Only someone with {who} can set up seasons.", who=who))
