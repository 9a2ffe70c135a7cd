"""What one bot process runs on its own, apart from Discord: the match service, its bots,
ratings, tournaments, seasons and the one scheduler serving their timers; and how it hands
all of it over when it stops beside a process that goes on (a rolling restart)."""

from __future__ import annotations

import asyncio
import logging
from contextlib import AbstractAsyncContextManager, AbstractContextManager

from bot.bots import BotDriver
from bot.click_turns import ClickTurns
from bot.clock import Clock
from bot.scheduler import Scheduler, WithSchedules
from bot.service import MatchService
from bot.service.ratings import Ratings
from bot.service.schedules import Schedules
from bot.service.seasons import Seasons
from bot.service.tournaments import Tournaments
from bot.store import Store, Timer
from bot.store.schedule_records import SCHEDULE_TIMER
from bot.store.seasons import SEASON_TIMER
from bot.store.tournament_records import TOURNAMENT_TIMER
from bot.thinking import Thinker
from bot.under_way import UnderWay
from games import GAMES

log = logging.getLogger(__name__)

# Seconds a draining process waits for the moves under way.
DRAIN_WAIT = 10.0
# Clicks handled at once; the others wait their turn, acknowledged already (see
# cogs/acknowledge.py), the urgent first (bot/click_turns.py). Every handler
# at work adds its steps to the event loop's queue, and a new click's acknowledgement is
# its first step: a thousand handlers at once at 1,000 tables put it seconds behind them,
# past Discord's 3.
CLICKS_AT_ONCE = 32


class Runtime:
    def __init__(
        self,
        store: Store,
        *,
        cache_mb: float,
        bot_delay: float,
        clock: Clock | None = None,
        thinkers: int | None = None,
        think_cap: float | None = None,
    ) -> None:
        self.store = store
        self.service = MatchService(store, GAMES, cache_mb=cache_mb, clock=clock)
        self.bots = BotDriver(
            self.service, delay=bot_delay, thinker=Thinker(thinkers), think_cap=think_cap
        )
        self.ratings = Ratings(self.service)  # rates each match as it finishes
        self.tournaments = Tournaments(self.service)
        self.schedules = Schedules(self.tournaments)  # recurring events
        self.seasons = Seasons(self.service, self.tournaments)
        self.scheduler = Scheduler(WithSchedules(store), self.service.clock, self.fire)
        self.seasons.wake = self.scheduler.wake
        self.service.timers_changed = self.scheduler.wake
        self.draining = False
        self._taking_over: set[asyncio.Task[None]] = set()
        # Clicks and commands being answered (``answering``): a drain waits for them too,
        # since a click may await a while before its move begins.
        self._answering = UnderWay()
        self.click_turns = ClickTurns(CLICKS_AT_ONCE)

    def answering(self) -> AbstractContextManager[None]:
        """Counts an interaction as being answered (the front end wraps each handler)."""
        return self._answering.one()

    def click_turn(self, urgent: bool = False) -> AbstractAsyncContextManager[None]:
        """Held while a click's handler works (``async with``): CLICKS_AT_ONCE at most, the
        ``urgent`` first (bot/click_turns.py)."""
        return self.click_turns.turn(urgent)

    @property
    def answers_under_way(self) -> int:
        """Interactions begun and not yet answered, the one asking included."""
        return self._answering.count

    async def quiet(self, timeout: float) -> bool:
        """Wait until no interaction is being answered and no move is under way."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if not await self._answering.none(timeout):
            return False
        return await self.service.moves_done(max(0.0, deadline - loop.time()))

    async def fire(self, timer: Timer) -> None:
        """One scheduler serves matches', events', schedules' and seasons' timers."""
        if timer.match_id.startswith(TOURNAMENT_TIMER):
            await self.tournaments.on_timer(timer)
        elif timer.match_id.startswith(SCHEDULE_TIMER):
            await self.schedules.on_timer(timer)
        elif timer.match_id.startswith(SEASON_TIMER):
            await self.seasons.on_timer(timer)
        else:
            await self.service.on_timer(timer)

    async def resume(self) -> None:
        """At start-up: bots of running matches, ratings and tournament results of matches
        that ended while no process ran, and the matches a stopping process hands over."""
        await self.bots.resume()
        await self.ratings.sweep()
        await self.tournaments.sweep()
        await self.store.on_handover(self.take_over)

    def take_over(self, match_ids: list[str]) -> None:
        if self.draining:
            return
        task = asyncio.create_task(self.bots.take_over(match_ids), name="take over")
        self._taking_over.add(task)
        task.add_done_callback(self._taking_over.discard)

    async def drain(self, moves_wait: float = DRAIN_WAIT) -> None:
        """Stop without dropping anything: claim no more timers, let the clicks being
        answered and the moves under way end, and name the matches whose bots were still
        to move for a process that goes on (``Store.hand_over``). What is left is in the
        database for whoever serves these shards next."""
        self.draining = True
        await self.scheduler.stop()
        pending = self.bots.pending()
        await self.bots.close()
        if not await self.quiet(moves_wait):
            log.warning("draining: clicks or moves still under way after %.0f s", moves_wait)
        records = [await self.store.get(match_id) for match_id in sorted(pending)]
        await self.store.hand_over([(r.match_id, r.guild_id) for r in records if r is not None])
