"""Moves: a person's click, a bot's move, through one locked, version-checked path."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.errors import (
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
    pick_options,
)
from bot.store import MatchRecord, SeatRecord, VersionConflict
from bot.store.models import GONE, PRESENT
from games.core.protocol import Action, Game, GameState


class Play(ServiceBase):
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

    async def _save_seat(self, record: MatchRecord, seat: SeatRecord) -> MatchRecord:
        await self.store.save_seat(record.match_id, seat)
        seats = [seat if s.seat == seat.seat else s for s in record.seats]
        return record.model_copy(update={"seats": seats})
