"""Moves: a person's click, a bot's move, through one locked, version-checked path."""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.errors import (
    Busy,
    Held,
    MatchNotFound,
    NotRunning,
    NotSeated,
    StaleClick,
    UserError,
)
from bot.service.base import (
    Change,
    Choice,
    ServiceBase,
    _NothingToDo,
    default_answer,
    pick_options,
)
from bot.store import MatchRecord, SeatRecord, Status, StoreBusy, Timer, VersionConflict
from bot.store.models import GONE, PRESENT
from games.core.protocol import Action, Decision, Game, GameState, IllegalAction
from games.core.text import t

log = logging.getLogger(__name__)

# How a hard bot's move is thought out (bot/thinking.py, by the bot driver): the match as
# loaded and the seat's decision, to the move, or None when no thought came in time.
Think = Callable[[MatchRecord, Decision], Awaitable[Action | None]]
# The most steps of one seat's turn a timeout plays by default in one move: turns end in
# far fewer, and a game whose defaults never ended one must not hold the lock for long.
REST_OF_TURN_MOST = 50


class Play(ServiceBase):
    # --- play --------------------------------------------------------------------------
    async def act(
        self,
        match_id: str,
        user_id: int,
        *,
        stamp: str,
        picks: Sequence[int] | None = None,
        action: Action | None = None,
    ) -> Change:
        """A person's move: option indexes of the decision they saw (named by its stamp),
        or an action. A click stays good while that decision stands, so simultaneous
        choices do not spoil each other; once it is answered or changed, it is stale."""

        def choose(record: MatchRecord, game: Game, state: GameState) -> Choice:
            seat = self._seat_for(record, user_id)
            # No decision with that stamp: the click was made on a view that is gone.
            decision = next(
                (d for d in self.decisions(game, state) if d.seat == seat and d.stamp == stamp),
                None,
            )
            if decision is None:
                raise StaleClick()
            chosen = action if action is not None else pick_options(decision, picks or ())
            return Choice(seat, chosen, decision, _present(record.seats[seat]))

        return await self._apply(match_id, choose)

    async def grab(self, match_id: str, user_id: int, *, race: str, action: Action) -> Change:
        """A click in a race (a card in the scramble): first come, first served. The lock
        orders simultaneous clicks; the engine refuses a card already taken."""

        def choose(record: MatchRecord, game: Game, state: GameState) -> Choice:
            seat = self._seat_for(record, user_id)
            deciding = [d for d in self.decisions(game, state) if d.window is not None]
            if not any(d.race_stamp == race for d in deciding):
                raise UserError(t("Too late: that scramble is over."))
            decision = next((d for d in deciding if d.seat == seat), None)
            if decision is None:
                raise UserError(t("You have nothing to grab in this scramble."))
            if action == decision.default:
                raise UserError(t("Only the clock closes a scramble."))
            return Choice(seat, action, decision, _present(record.seats[seat]))

        return await self._apply(match_id, choose)

    @staticmethod
    def _seat_for(record: MatchRecord, user_id: int) -> int:
        seat = record.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        if record.seats[seat].away == GONE:
            raise UserError(t("You left this match; a bot plays your seat now."))
        return seat

    async def play_bot(
        self,
        match_id: str,
        *,
        seat: int | None = None,
        race: bool = False,
        think: Think | None = None,
        rng: random.Random | None = None,
    ) -> Change | None:
        """One move for a bot seat that must decide (``seat``, or the first), through the
        same path; ``race``: a grab in a race rather than an ordinary decision.

        Each seat plays at its level (``SeatRecord.bot_level``). A hard seat's move is
        thought out by ``think`` before the match is locked, so a search never holds up
        anyone's click; it is then played if its decision still stands (else the change
        that replaced it asks the bots again). No thought, or none in time: the normal
        move. A race is a grab for speed: no level thinks there (``Engine.race_action``)."""
        with self.moving():
            try:
                thought = await self._hard_thought(match_id, seat, think) if not race else None
            except _NothingToDo:
                return None

            def choose(record: MatchRecord, game: Game, state: GameState) -> Choice:
                decision = _bot_decision(record, self.decisions(game, state), seat, race)
                if decision is None:
                    raise _NothingToDo()
                level = record.seats[decision.seat].bot_level
                if thought is not None:
                    stamp, action = thought
                    if stamp != decision.stamp:
                        raise _NothingToDo()  # thought out for a decision gone meanwhile
                elif race:
                    action = game.race_action(
                        state, decision.seat, level, decision=decision, rng=rng
                    )
                else:
                    action = game.level_action(
                        state,
                        decision.seat,
                        "normal" if level == "hard" else level,
                        decision=decision,
                        rng=rng,
                    )
                return Choice(decision.seat, action, decision)

            try:
                return await self._apply(match_id, choose)
            except (_NothingToDo, NotRunning, MatchNotFound, Held):
                return None  # a held match: the change that releases it asks the bots again

    async def _hard_thought(
        self, match_id: str, seat: int | None, think: Think | None
    ) -> tuple[str, Action] | None:
        """(the decision's stamp, the move) a hard seat thought out, or None: no hard seat
        decides, or the thought came to nothing (the seat plays the normal move). Raises
        ``_NothingToDo`` when that decision is being thought about already (another bot
        task, poked by a change meanwhile): that thought plays it."""
        if think is None:
            return None
        try:
            record, state = await self._running(match_id)
        except UserError:
            return None
        if record.status != "active":
            return None
        game = self.game_of(record)
        decision = _bot_decision(record, self.decisions(game, state), seat, False)
        if decision is None or record.seats[decision.seat].bot_level != "hard":
            return None
        key = (match_id, decision.stamp)
        if key in self._thinking:
            raise _NothingToDo()
        self._thinking.add(key)
        try:
            action = await think(record, decision)
        finally:
            self._thinking.discard(key)
        return None if action is None else (decision.stamp, action)

    async def bot_seats_deciding(self, match_id: str, *, race: bool) -> list[int]:
        """Bot seats with a decision now (ordinary ones, or grabs in a race)."""
        try:
            record, state = await self._running(match_id)
        except UserError:
            return []
        if record.status != "active":
            return []
        bots = {s.seat for s in record.seats if s.played_by_bot}
        decisions = self.decisions(self.game_of(record), state)
        return sorted(
            {d.seat for d in decisions if d.seat in bots and (d.window is not None) == race}
        )

    async def _apply(
        self,
        match_id: str,
        choose: Callable[[MatchRecord, Game, GameState], Choice],
    ) -> Change:
        with self.moving():
            return await self._apply_locked(match_id, choose)

    async def held(self, record: MatchRecord) -> str | None:
        """Why play at the match is held now (its event is paused), or None."""
        for hold in self.holds:
            reason = await hold(record)
            if reason is not None:
                return reason
        return None

    async def _apply_locked(
        self,
        match_id: str,
        choose: Callable[[MatchRecord, Game, GameState], Choice],
    ) -> Change:
        async with self.lock(match_id):
            record, state = await self._running(match_id)
            if record.status != "active":
                raise NotRunning()
            reason = await self.held(record)
            if reason is not None:
                raise Held(reason)
            game = self.game_of(record)
            chosen = choose(record, game, state)
            seat, action, decision = chosen.seat, chosen.action, chosen.decision
            timed_out = chosen.timed_out
            # IllegalAction carries a sentence for the player; nothing has been written yet.
            new_state, events = game.apply(state, seat, action, decision=decision)
            before = state
            for steps in range(1, REST_OF_TURN_MOST + 1):
                status = "finished" if game.outcome(new_state) is not None else "active"
                follow = None
                if chosen.rest_of_turn and status == "active" and steps < REST_OF_TURN_MOST:
                    follow = self._next_of_turn(game, before, new_state, seat)
                state_json = new_state.model_dump_json()
                # A finished match has no clocks (timers_after says so of a record not
                # active). Each step of a turn played on is saved with its own action row
                # and clocks: the log replays, and a crash between steps leaves a clock.
                timers = (
                    await self.timers_after(record, before, new_state) if status == "active" else []
                )
                step = Step(before, new_state, state_json, seat, action, status, timers)
                await self._save_step(record, game, step, shown=follow is None)
                record = record.model_copy(
                    update={"state": state_json, "status": status, "version": new_state.version}
                )
                if follow is None:
                    break
                answer = default_answer(follow)
                try:
                    after, said = game.apply(new_state, seat, answer, decision=follow)
                except IllegalAction:
                    # An engine refusing its own default is its bug: what is saved stands,
                    # and that decision waits for the clock just saved with it.
                    log.exception("the default of %s was refused in %s", follow.key, match_id)
                    break
                before, new_state, action = new_state, after, answer
                events += said
            if chosen.seat_after is not None:
                record = await self._save_seat(record, chosen.seat_after)
            if status == "active":
                self._remember(record, new_state, timers)
            else:
                self._forget(match_id)  # the cache is for running matches
        # A move only replaces its match's timers: nothing to wake for unless one is due
        # sooner than whatever the scheduler waits for (none left: nothing new to wait for).
        self.timers_changed(min((t.due_at for t in timers), default=math.inf))
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

    async def _save_step(self, record: MatchRecord, game: Game, step: Step, *, shown: bool) -> None:
        """One move written (snapshot, action row, clocks), under the match's lock;
        ``shown``: the table a change ends on, drawn while the commit is on its way."""

        def table() -> object:
            # The table every change redraws, drawn while the commit is on its way to
            # disk (``Engine.public_table``: the front end's edit takes it from there).
            return game.public_table(step.after)

        try:
            await self.store.save_action(
                record.match_id,
                expected_version=step.before.version,
                state=step.state_json,
                version=step.after.version,
                seat=step.seat,
                action=step.action.encode(),
                status=step.status,
                timers=step.timers,
                meanwhile=table if step.status == "active" and shown else None,
            )
        except VersionConflict:
            self._forget(record.match_id)  # another process moved first: reload
            raise StaleClick() from None
        except StoreBusy:
            self._forget(record.match_id)
            raise Busy() from None
        except BaseException:
            self._forget(record.match_id)
            raise

    def _next_of_turn(
        self, game: Game, before: GameState, after: GameState, seat: int
    ) -> Decision | None:
        """The seat's own decision that follows its move at once, in the same turn (whose
        turn, and which, as the engine marks them, unchanged); or None. Races, chances
        and answers to another's move are never a step of one's turn."""
        if _turn_of(before) != _turn_of(after):
            return None
        return next(
            (
                d
                for d in self.decisions(game, after)
                if d.seat == seat and not d.optional and d.window is None and not d.reaction
            ),
            None,
        )

    async def _save_seat(self, record: MatchRecord, seat: SeatRecord) -> MatchRecord:
        await self.store.save_seat(record.match_id, seat)
        seats = [seat if s.seat == seat.seat else s for s in record.seats]
        return record.model_copy(update={"seats": seats})


def _bot_decision(
    record: MatchRecord, decisions: Sequence[Decision], seat: int | None, race: bool
) -> Decision | None:
    """The decision of a bot seat (``seat``, or the first) to play now: a grab in a race, or
    an ordinary one."""
    bots = {s.seat for s in record.seats if s.played_by_bot}
    return next(
        (
            d
            for d in decisions
            if d.seat in bots
            and (seat is None or d.seat == seat)
            and (d.window is not None) == race
        ),
        None,
    )


@dataclass(frozen=True)
class Step:
    """One move about to be saved: the state before and after it, and what goes with it."""

    before: GameState
    after: GameState
    state_json: str
    seat: int
    action: Action
    status: Status
    timers: list[Timer]


def _turn_of(state: GameState) -> tuple[object, object]:
    """Whose turn it is and which: the engines' ``turn`` (a seat) and ``round`` fields,
    where a game has them (a game with neither has one turn marker: the seat's next
    decision is still told apart by being its own)."""
    return getattr(state, "turn", None), getattr(state, "round", None)


def _present(seat: SeatRecord) -> SeatRecord | None:
    """Playing for yourself ends a run of timeouts, and sends a stand-in bot home."""
    if seat.away == PRESENT and seat.missed == 0:
        return None  # the usual case, on every click: no copy to build and compare
    return seat.model_copy(update={"away": PRESENT, "missed": 0})
