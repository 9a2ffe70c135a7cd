"""Tables: a match of the event ended, was cancelled or lost a seat, and what that
records (a result, a forfeit, a best-of-three table's next game); and, after a restart,
the results a stopped process left unrecorded."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Sequence
from typing import Literal

from bot.errors import NotRunning
from bot.service import Change
from bot.service.base import match_outcome, settings_of
from bot.service.tournaments.base import TournamentsBase
from bot.service.tournaments.models import TournamentChange, gone_last
from bot.store.models import GONE
from bot.store.tournament_records import ResultRecord, TableGame, TournamentRecord, TournamentTable
from bot.tournaments import best_of as bo
from bot.tournaments.config import TournamentConfig

log = logging.getLogger(__name__)


class Tables(TournamentsBase):
    """What a table's match tells the event."""

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
        table = await self.store.tournament_table_of(change.match.match_id)
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
        table = await self.store.tournament_table_of(match_id)
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
                    TournamentChange(
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
            await self.store.save_tournament_table(table)
            await self.notify(
                TournamentChange(
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
        table: TournamentTable,
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
        await self.store.save_tournament_table(table)
        await self.notify(
            TournamentChange(kind="result", event=event, round=table.round, tables=[table])
        )
        if complete:
            await self._maybe_complete(await self.get(event.tournament_id))
        return True

    # --- best of three ---------------------------------------------------------------------
    @staticmethod
    def seated(table: TournamentTable) -> tuple[int, ...]:
        """The table's entrants in the seat order of its match: the games of a best-of-three
        table alternate who sits first (``best_of.game_seats``)."""
        played = [game.match_id for game in table.games]
        number = played.index(table.match_id) if table.match_id in played else len(played)
        return bo.game_seats(table.seats, number + 1)

    @staticmethod
    def _game_points(
        config: TournamentConfig, table: TournamentTable, gone: Sequence[int]
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
        self, event: TournamentRecord, table: TournamentTable, places: list[int]
    ) -> tuple[TournamentTable, list[int]] | None:
        """A game of a best-of-three table ended with ``places`` (in table seat order). It
        is kept with the table; if that decides the table, (table, places by game points)
        for the result. Otherwise the next game starts in the same thread, or a player who
        dropped meanwhile forfeits the table (None: nothing more to record)."""
        config = self.config_of(event)
        if table.match_id and all(game.match_id != table.match_id for game in table.games):
            # Kept before the next game opens: a restart in between opens it, and no more.
            game = TableGame(match_id=table.match_id, winner=bo.game_winner(table.seats, places))
            table = table.model_copy(update={"games": [*table.games, game]})
            await self.store.save_tournament_table(table)
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
            TournamentChange(
                kind="table",
                event=event,
                round=table.round,
                tables=[table],
                match=await self.matches.get(table.match_id),
            )
        )
        return None

    async def sweep(self) -> int:
        """After a restart: record finished tables missing a result (the process may have
        stopped between a match's end and its result), and close rounds that are done."""
        recorded = 0
        for event in await self.store.tournaments(None, open_only=True):
            if event.status == "signup":
                continue
            for table in await self.store.tournament_tables(event.tournament_id):
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
