"""Bots play their seats on their own, through the service like everyone else; and any
decision with nothing to choose (a lone Pass) is answered for its person the same way."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Iterable

from bot.service import Change, MatchService, settings_of
from bot.store import MatchRecord
from bot.thinking import GRACE, Thinker, Thought, think_seconds
from games.core.protocol import Action, Decision, GameState

log = logging.getLogger(__name__)


class BotDriver:
    """After every change, bots that must decide play after a short, human pause.

    Ordinary decisions: one task per match; after the pause it answers every bot decision
    pending then (simultaneous choices are made together), and the change that causes
    schedules the next. Races (a scramble): each bot seat grabs on its own task after a
    human-like, random pause, one card at a time, so people can compete.

    Forced decisions of people (``Decision.forced``: one possible answer) are answered for
    them after a pause of random length within ``forced_pause``, the span of a quick
    click, so nobody can tell an automatic pass from a fast one. One mechanism for every
    game, driven by the decision alone; ``/always_ask`` turns it off for a player.
    """

    FORCED_PAUSE = (1.0, 4.0)
    # Seconds: no bot grabs faster than a quick person who sees the ping and taps, about
    # two seconds (the pause is this or the configured delay, whichever is longer, times
    # 1 to 3, counted from the race opening).
    QUICK_GRAB = 2.0

    def __init__(
        self,
        service: MatchService,
        *,
        delay: float = 1.5,
        rng: random.Random | None = None,
        forced_pause: tuple[float, float] = FORCED_PAUSE,
        thinker: Thinker | None = None,
        think_cap: float | None = None,
    ) -> None:
        self.service = service
        self.delay = delay
        self.rng = rng or random.Random()
        self.forced_pause = forced_pause
        # Hard seats think in worker processes (bot/thinking.py), for at most ``think_cap``
        # seconds a decision besides what the pace allows (None: the pace decides).
        self.thinker = thinker or Thinker()
        self.think_cap = think_cap
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._grabbers: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._racing: dict[tuple[str, int], str | None] = {}  # the race each grabber waits in
        self._forced: dict[tuple[str, int, str], asyncio.Task[None]] = {}
        service.listeners.append(self.on_change)

    async def on_change(self, change: Change) -> None:
        if _has_hard_bot(change.match):
            self.thinker.warm()  # a lobby with a hard bot: workers ready by its first move
        if change.match.status != "active" or change.state is None:
            return
        await self.answer_forced(change.match, change.state)
        bots = {s.seat for s in change.match.seats if s.played_by_bot}
        game = self.service.game_of(change.match)
        decisions = [d for d in self.service.decisions(game, change.state) if d.seat in bots]
        if any(d.window is None for d in decisions):
            self.poke(change.match.match_id)
        for decision in decisions:
            if decision.window is not None:
                self.race(change.match.match_id, decision.seat, decision.race_stamp)

    def poke(self, match_id: str) -> None:
        task = self._tasks.get(match_id)
        if task is not None and not task.done():
            return
        self._tasks[match_id] = asyncio.create_task(self._play(match_id), name=f"bots:{match_id}")

    def race(self, match_id: str, seat: int, stamp: str | None = None) -> None:
        """A bot seat grabs after its own pause, counted from when this race opened: a
        pause begun in an earlier race would grab the moment a new one opens."""
        key = (match_id, seat)
        task = self._grabbers.get(key)
        if task is not None and not task.done():
            if self._racing.get(key) == stamp or stamp is None:
                return
            task.cancel()
        self._racing[key] = stamp
        self._grabbers[key] = asyncio.create_task(
            self._grab(match_id, seat), name=f"grab:{match_id}:{seat}"
        )

    async def answer_forced(self, record: MatchRecord, state: GameState) -> None:
        for seat, decision in (await self.service.forced_for(record, state)).items():
            key = (record.match_id, seat, decision.stamp)
            if key not in self._forced:
                self._forced[key] = asyncio.create_task(
                    self._answer(key), name=f"forced:{record.match_id}:{seat}"
                )

    async def _answer(self, key: tuple[str, int, str]) -> None:
        match_id, seat, stamp = key
        try:
            await asyncio.sleep(self.rng.uniform(*self.forced_pause))
        finally:
            # Done waiting (or cancelled): the change the answer causes may schedule anew.
            if self._forced.get(key) is asyncio.current_task():
                del self._forced[key]
        try:
            # Shielded: a process that stops lets a move already begun end (``close``).
            await asyncio.shield(self.service.answer_forced(match_id, seat, stamp))
        except Exception:
            log.exception("forced answer failed in match %s", match_id)

    async def _play(self, match_id: str) -> None:
        try:
            await asyncio.sleep(self.delay)
            # The task is finished before the moves so that the changes they cause can
            # schedule the next bot move.
            self._tasks.pop(match_id, None)
            await asyncio.shield(self._play_now(match_id))
        except Exception:
            log.exception("bot move failed in match %s", match_id)

    async def _play_now(self, match_id: str) -> None:
        for seat in await self.service.bot_seats_deciding(match_id, race=False):
            await self.service.play_bot(match_id, seat=seat, think=self.think, rng=self.rng)

    async def think(self, record: MatchRecord, decision: Decision) -> Action | None:
        """A hard seat's move, thought out in a worker within the pace's time, or None."""
        if record.state is None:
            return None
        seconds = think_seconds(settings_of(record), self.think_cap)
        thought = Thought(
            game=record.game,
            state=record.state,
            seat=decision.seat,
            stamp=decision.stamp,
            level=record.seats[decision.seat].bot_level,
            seconds=seconds,
            seed=self.rng.getrandbits(32),
            not_after=time.time() + seconds + GRACE,
        )
        return await self.thinker.move(thought)

    async def _grab(self, match_id: str, seat: int) -> None:
        try:
            await asyncio.sleep(self.grab_pause())
            self._grabbers.pop((match_id, seat), None)
            await asyncio.shield(
                self.service.play_bot(match_id, seat=seat, race=True, rng=self.rng)
            )
        except Exception:
            log.exception("bot grab failed in match %s", match_id)

    def grab_pause(self) -> float:
        """Human speed, with spread; none when bots are set to move at once (tests)."""
        if not self.delay:
            return 0.0
        return max(self.delay, self.QUICK_GRAB) * self.rng.uniform(1.0, 3.0)

    async def resume(self) -> None:
        """After a restart: give every running match a poke."""
        for record in await self.service.store.open_matches():
            await self._resume(record)

    async def take_over(self, match_ids: Iterable[str]) -> None:
        """Matches whose bots or forced answers another process left pending when it
        stopped (``Store.on_handover``): this process plays them now."""
        for match_id in match_ids:
            record = await self.service.store.get(match_id)
            if record is not None and record.is_open:
                await self._resume(record)

    async def _resume(self, record: MatchRecord) -> None:
        if _has_hard_bot(record):
            self.thinker.warm()
        if record.status == "active" and record.state is not None:
            await self.answer_forced(record, self.service.load_state(record))
        if record.status == "active" and any(s.played_by_bot for s in record.seats):
            self.poke(record.match_id)
            for seat in await self.service.bot_seats_deciding(record.match_id, race=True):
                self.race(record.match_id, seat)

    def pending(self) -> set[str]:
        """Matches with a bot move or a forced answer still to come."""
        return {
            *(m for m, t in self._tasks.items() if not t.done()),
            *(m for (m, _), t in self._grabbers.items() if not t.done()),
            *(m for (m, _, _), t in self._forced.items() if not t.done()),
        }

    async def close(self) -> None:
        # A move already begun ends (the service counts it, see ``MatchService.moving``);
        # only the pauses before moves are cut short.
        tasks = [*self._tasks.values(), *self._grabbers.values(), *self._forced.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self._grabbers.clear()
        self._racing.clear()
        self._forced.clear()
        self.thinker.close()


def _has_hard_bot(record: MatchRecord) -> bool:
    return record.is_open and any(s.bot_level == "hard" for s in record.seats if s.is_bot)
