"""The organiser's tools: set a result, drop or disqualify a player, pair a round again,
give a table more time, pause and resume, end, cancel. Each is audited."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from bot.errors import UserError
from bot.service import Person
from bot.service.tournaments.base import TournamentsBase
from bot.service.tournaments.models import HELD, TournamentChange, places_from_groups
from bot.store import Timer
from bot.store.models import GONE
from bot.store.tournament_records import EntrantRecord, ResultRecord, TournamentRecord
from games.core.text import t


class Organiser(TournamentsBase):
    """Corrections and control, for the organiser (or Manage Server, or their role)."""

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
                    for t in await self.store.tournament_tables(tournament_id)
                    if t.round == event.round and set(t.seats) == set(named)
                ),
                None,
            )
            if table is None or len(named) != len(set(named)):
                raise UserError(
                    t(
                        "Name every player of one table of this round once, best first, like "
                        "`Ana > Ben = Cleo > Dev`."
                    )
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
            await self.store.save_tournament_table(table.model_copy(update={"status": "done"}))
            if table.match_id is not None:
                record = await self.matches.get(table.match_id)
                if record.is_open:
                    await self.close_match(table.match_id, actor)
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
        """Drop, undrop or disqualify an entrant (from the next pairing on). A dropped or
        disqualified player also loses the table they are playing (``_drop_from_table``)."""
        verb = {"entered": "undrop", "dropped": "drop", "disqualified": "disqualify"}[state]
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, f"{verb} players")
            entrant = self._find_entrant(await self.store.entrants(tournament_id), name)
            if entrant.state == state:
                already = {
                    "entered": t("{name} is already entered.", name=entrant.name),
                    "dropped": t("{name} is already dropped.", name=entrant.name),
                    "disqualified": t("{name} is already disqualified.", name=entrant.name),
                }
                raise UserError(already[state])
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
        elif state in ("dropped", "disqualified"):
            await self._drop_from_table(event, after)
        return after

    async def _drop_from_table(self, event: TournamentRecord, dropped: EntrantRecord) -> None:
        """The dropped player leaves the tables they are playing (several at once in a
        group event), as a /leave would: a two-player table is decided at once with them
        last, a bigger one plays on with a bot in their seat and them last. Left waiting,
        they would be reminded and timed out, and their opponents held up, for days.
        Called outside the event's lock: the leave's forfeit takes it
        (``on_match_change``)."""
        if dropped.user_id is None:
            return  # a bot entrant: it plays its tables out
        for table in await self.store.tournament_tables(event.tournament_id):
            if (
                table.status != "playing"
                or not table.match_id
                or dropped.entrant not in table.seats
            ):
                continue
            record = await self.matches.current(table.match_id)
            seat = record.seat_of(dropped.user_id)
            if record.status != "active" or seat is None or record.seats[seat].away == GONE:
                continue
            await self.notify(
                TournamentChange(kind="dropped", event=event, tables=[table], entrant=dropped)
            )
            await self.matches.leave_match(table.match_id, dropped.user_id)

    async def repair(self, tournament_id: str, actor: Person) -> None:
        """Pair the current round again (after a drop or a late entry), while no table has
        seen a move."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "re-pair a round")
            refuse_if_paused(event)
            if event.status != "running" or event.round == 0:
                raise UserError(t("There is no round to re-pair."))
            tables = [
                t
                for t in await self.store.tournament_tables(tournament_id)
                if t.round == event.round
            ]
            records = [await self.matches.get(t.match_id) for t in tables if t.match_id]
            for record in records:
                if record.status != "active" or await self.store.actions(record.match_id):
                    raise UserError(
                        t("A table of this round has already moved: it cannot be re-paired.")
                    )
            for table in tables:
                await self.store.save_tournament_table(table.model_copy(update={"status": "done"}))
            for record in records:
                await self.close_match(record.match_id, actor)
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
                TournamentChange(kind="repaired", event=event, round=event.round, tables=tables)
            )
            await self._start_round(event, event.round)

    async def extend(self, tournament_id: str, actor: Person, table_no: int, hours: float) -> float:
        """Give one table more time past the round's deadline."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "extend a table")
            table = next(
                (
                    t
                    for t in await self.store.tournament_tables(tournament_id)
                    if t.round == event.round and t.table_no == table_no
                ),
                None,
            )
            if table is None or table.status != "playing":
                raise UserError(
                    t(
                        "Table {table} of round {round} is not being played.",
                        table=table_no,
                        round=event.round,
                    )
                )
            if hours <= 0:
                raise UserError(t("Give the table a positive number of hours."))
            rounds = {r.round: r for r in await self.store.rounds(tournament_id)}
            start = max(rounds[event.round].deadline or self.clock.now(), self.clock.now())
            timers = await self.store.tournament_timers(tournament_id)
            kind = f"table:{table_no}"
            old = next((t for t in timers if t.kind == kind), None)
            due = (old.due_at if old else start) + hours * 3600
            timers = [t for t in timers if t.kind != kind]
            timers.append(self._timer(event, kind, event.round, due))
            await self.store.replace_tournament_timers(tournament_id, timers)
            self.matches.timers_changed()
            await self.audit(
                event,
                actor,
                "extend",
                {"table": table_no, "until": old.due_at if old else None},
                {"table": table_no, "until": due},
            )
            return due

    async def start_now(self, tournament_id: str, actor: Person) -> int:
        """Start now: the next round at once, not after the pause between rounds that lets
        players read the standings. The round's number."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "start the next round")
            refuse_if_paused(event)
            timers = await self.store.tournament_timers(tournament_id)
            if not any(t.kind == "next_round" and t.version == event.round for t in timers):
                raise UserError(t("Round {round} is under way already.", round=event.round))
            number = event.round + 1
            await self.audit(event, actor, "start now", {"round": event.round}, {"round": number})
            await self._start_round(event, number)
        return number

    async def pause(self, tournament_id: str, actor: Person) -> None:
        """Hold the event: no next round, no deadline; the tables' clocks stop too."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "pause the tournament")
            if event.status != "running":
                raise UserError(t("Only a running tournament can be paused."))
            config = self.config_of(event).model_copy(update={"paused_at": self.clock.now()})
            event = event.model_copy(
                update={"status": "paused", "config": config.model_dump_json()}
            )
            await self.store.save_tournament(event)
            playing = await self._shift_clocks(event, HELD, lambda t: True)
            await self.audit(event, actor, "pause", {"status": "running"}, {"status": "paused"})
        await self.notify(TournamentChange(kind="paused", event=event, round=event.round))
        # Each table says it is paused instead of showing a clock that no longer runs.
        for match_id in playing:
            await self.matches.hold_began(match_id)

    async def resume(self, tournament_id: str, actor: Person) -> None:
        """Go on: every clock of the event (deadline, tables' move clocks) is moved on by
        the time it was held."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "resume the tournament")
            config = self.config_of(event)
            if event.status != "paused" or config.paused_at is None:
                raise UserError(t("This tournament is not paused."))
            now = self.clock.now()
            held = now - config.paused_at
            # Only the clocks set aside at the pause move; a move made meanwhile set its
            # clock from then, which is right as it is.
            playing = await self._shift_clocks(
                event, held - HELD, lambda t: t.due_at > now + HELD / 2
            )
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
            await self.notify(TournamentChange(kind="resumed", event=event, round=event.round))
            await self._maybe_complete(event)
        # The bots and forced answers the pause refused are due again.
        for match_id in playing:
            await self.matches.release(match_id)

    async def _shift_clocks(
        self, event: TournamentRecord, by: float, which: Callable[[Timer], bool]
    ) -> list[str]:
        """Move the event's timers and its playing tables' move clocks by ``by`` seconds.
        A pause sets them aside (far in the future) and the resume brings them back,
        later by the time the event was held. Returns the playing tables' matches."""
        timers = await self.store.tournament_timers(event.tournament_id)
        await self.store.replace_tournament_timers(
            event.tournament_id,
            [t.model_copy(update={"due_at": t.due_at + by}) if which(t) else t for t in timers],
        )
        playing = [
            t.match_id
            for t in await self.store.tournament_tables(event.tournament_id)
            if t.status == "playing" and t.match_id
        ]
        for match_id in playing:
            # Through the match service: what it remembers of the clocks moves with them.
            await self.matches.shift_timers(match_id, by, which)
        self.matches.timers_changed()
        return playing

    async def end(self, tournament_id: str, actor: Person) -> None:
        """End now: open tables are drawn, the standings as they are are final."""
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "end the tournament")
            if event.status == "signup":
                raise UserError(t("This tournament has not started: cancel it instead."))
            # Finished first, so the tables drawn below start no further round.
            event = event.model_copy(update={"status": "finished"})
            await self.store.save_tournament(event)
            for table in await self.store.tournament_tables(tournament_id):
                if table.status == "playing" and table.round == event.round:
                    await self._adjudicate(event, table.table_no, actor)
            await self.audit(event, actor, "end", {"round": event.round}, {"status": "finished"})
            await self._finish(event)

    async def cancel(self, tournament_id: str, actor: Person) -> None:
        async with self.lock(tournament_id):
            event = await self._organise(tournament_id, actor, "cancel the tournament")
            before = event.status
            event = event.model_copy(update={"status": "cancelled"})
            await self.store.save_tournament(event)
            await self.store.replace_tournament_timers(tournament_id, [])
            for table in await self.store.tournament_tables(tournament_id):
                if table.status == "playing":
                    await self.store.save_tournament_table(
                        table.model_copy(update={"status": "done"})
                    )
                    if table.match_id:
                        record = await self.matches.get(table.match_id)
                        if record.is_open:
                            await self.close_match(table.match_id, actor)
            await self.audit(event, actor, "cancel", {"status": before}, {"status": "cancelled"})
        await self.notify(TournamentChange(kind="cancelled", event=event, round=event.round))


def refuse_if_paused(event: TournamentRecord) -> None:
    """A paused event's round stands still: the organiser is told the way on, not that
    there is no round."""
    if event.status == "paused":
        raise UserError(t("The tournament is paused: /tournament resume first."))
