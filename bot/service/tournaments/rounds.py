"""Rounds: pairing one and opening its tables, closing it when every table has a result
(the next round, or the end), and the event's timers: the start, the pause between
rounds, deadlines, reminders."""

from __future__ import annotations

import asyncio
import dataclasses

from bot.service import Person
from bot.service.tournaments.base import TournamentsBase
from bot.service.tournaments.models import (
    FORFEIT_AFTER,
    GRACE,
    TournamentChange,
    gone_last,
    rematches_in,
    undecided_tables,
)
from bot.store import SeatRecord, Timer
from bot.store.models import GONE
from bot.store.tournament_records import (
    TOURNAMENT_TIMER,
    EntrantRecord,
    ResultRecord,
    RoundRecord,
    TournamentRecord,
    TournamentTable,
)
from bot.timing import MatchSettings
from bot.tournaments.config import DAY, TournamentConfig
from bot.tournaments.progress import Pairing


class Rounds(TournamentsBase):
    """A round from its pairing to its last result; the event's timers."""

    async def _start_round(self, event: TournamentRecord, number: int) -> None:
        """Pair round ``number`` and open its tables. Called under the event's lock."""
        config = self.config_of(event)
        entrants = await self.store.entrants(event.tournament_id)
        for e in entrants:
            # A forfeit drops its player before the next pairing, unless they said Stay in.
            if e.forfeited and e.state == "entered":
                await self.store.save_entrant(
                    e.model_copy(update={"state": "dropped", "dropped_round": number - 1})
                )
        entrants = await self.store.entrants(event.tournament_id)
        results = await self.store.results(event.tournament_id)
        tables = await self.store.tournament_tables(event.tournament_id)
        paired = await self._pair(event, config, number, entrants, results, tables)
        event = event.model_copy(update={"round": number})
        await self.store.save_tournament(event)
        deadline_after = config.round_length
        now = self.clock.now()
        deadline = now + deadline_after if deadline_after else None
        await self.store.save_round(
            RoundRecord(
                tournament_id=event.tournament_id,
                round=number,
                stage=paired.stage,
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
        await self.store.replace_tournament_timers(event.tournament_id, timers)
        self.matches.timers_changed()
        for index, player in enumerate(paired.byes):
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
        for index, seats in enumerate(paired.tables, start=1):
            table = TournamentTable(
                tournament_id=event.tournament_id,
                round=number,
                table_no=index,
                seats=list(seats),
                bracket_id=paired.brackets[index - 1],
            )
            opened.append(await self._open_table(event, config, table, names))
        rematches = rematches_in(results, opened) if paired.stage == "swiss" else []
        await self.notify(
            TournamentChange(
                kind="round",
                event=event,
                round=number,
                tables=opened,
                byes=list(paired.byes),
                rematches=rematches,
            )
        )
        for table in opened:
            if table.match_id is not None:
                await self.notify(
                    TournamentChange(
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
        config: TournamentConfig,
        number: int,
        entrants: list[EntrantRecord],
        results: list[ResultRecord],
        tables: list[TournamentTable],
    ) -> Pairing:
        """Round ``number`` as the event's format pairs it (on a thread: pairing a large
        field takes a while)."""
        kind = self.format_of(event, config)
        progress = self.progress(event, config, entrants, results, tables)
        if kind.pairs_by_rating(progress, number):
            # A rating-seeded event reads the ratings once, as the round starts.
            playing = set(progress.active)
            ratings = await self.entrant_ratings(
                event, [e for e in entrants if e.entrant in playing]
            )
            progress = dataclasses.replace(progress, ratings=ratings)
        return await asyncio.to_thread(kind.pair, progress, number)

    async def _open_table(
        self,
        event: TournamentRecord,
        config: TournamentConfig,
        table: TournamentTable,
        entrants: dict[int, EntrantRecord],
    ) -> TournamentTable:
        """One match per table, through the lobby path, started at once. A table whose
        players have left decides itself (the one still in wins)."""
        dropped = [p for p in table.seats if entrants[p].state != "entered"]
        if dropped and table.bracket_id and not table.games:
            staying = [p for p in table.seats if p not in dropped]
            places = [1 if p in staying else 2 for p in table.seats]
            table = table.model_copy(update={"status": "done"})
            await self.store.save_tournament_table(table)
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
            SeatRecord(
                seat=i, user_id=entrants[p].user_id, name=entrants[p].name, level=entrants[p].level
            )
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
        await self.store.save_tournament_table(table)
        await self.matches.start(record.match_id, organiser)
        return table

    async def _maybe_complete(self, event: TournamentRecord) -> None:
        """Every table of the round has a result: standings, then the next round or the end."""
        if event.status != "running":
            return
        tables = await self.store.tournament_tables(event.tournament_id)
        results = await self.store.results(event.tournament_id)
        if undecided_tables(tables, results, event.round):
            return
        await self.store.replace_tournament_timers(event.tournament_id, [])
        view = await self.view(event.tournament_id)
        progress = self.progress(view.event, view.config, view.entrants, view.results, view.tables)
        if view.format.is_over(progress):
            await self._finish(event)
            return
        grace = GRACE[view.config.pace]
        starts_at = self.clock.now() + grace if grace else None
        if starts_at is not None:
            # The timer is set before the standings are shown, so Start now finds it.
            timer = self._timer(event, "next_round", event.round, starts_at)
            await self.store.replace_tournament_timers(event.tournament_id, [timer])
            self.matches.timers_changed()
        await self.notify(
            TournamentChange(
                kind="standings", event=event, round=event.round, next_round_at=starts_at
            )
        )
        if starts_at is None:
            await self._start_round(event, event.round + 1)

    async def _finish(self, event: TournamentRecord) -> None:
        event = event.model_copy(update={"status": "finished"})
        await self.store.save_tournament(event)
        await self.store.replace_tournament_timers(event.tournament_id, [])
        await self.notify(TournamentChange(kind="finished", event=event, round=event.round))

    async def on_timer(self, timer: Timer) -> None:
        """An event's timer: the next round after the grace, a deadline, a reminder."""
        tournament_id = timer.match_id.removeprefix(TOURNAMENT_TIMER)
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
                    for t in await self.store.tournament_tables(tournament_id)
                    if t.round == event.round and t.status == "playing"
                ]
                await self.notify(
                    TournamentChange(
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
            for t in await self.store.tournament_timers(event.tournament_id)
            if t.kind.startswith("table:")
        }
        for table in await self.store.tournament_tables(event.tournament_id):
            playing = table.round == event.round and table.status == "playing"
            if playing and table.table_no not in extended:
                await self._adjudicate(event, table.table_no)

    async def _adjudicate(
        self, event: TournamentRecord, table_no: int, by: Person | None = None
    ) -> None:
        """A draw among the seats still playing; those who forfeited are last. ``by``: who
        closes its match, as its thread is told (the round's deadline unless said)."""
        table = next(
            (
                t
                for t in await self.store.tournament_tables(event.tournament_id)
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
        await self.store.save_tournament_table(table.model_copy(update={"status": "done"}))
        if table.match_id is not None:
            record = await self.matches.get(table.match_id)
            if record.is_open:
                deadline = Person(event.organiser_id, "Round deadline")
                await self.close_match(table.match_id, by or deadline)
        await self._decide(
            event,
            table.model_copy(update={"status": "playing"}),
            places,
            sorted(gone),
            "adjudicated",
            replace=True,
        )
