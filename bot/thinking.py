"""Where hard bots think: a pool of worker processes, so a search never holds the event loop.

The search is CPU-bound pure Python: in a thread it would hold the GIL and stall every
click of the process while it runs, so it runs in other processes, started with "spawn"
(never fork: a forked copy of a running event loop, its sockets and locks is unsafe). The
worker gets the state as the JSON the store already holds, and answers the move as its
text, so nothing big is pickled on the loop.

Every thought has a deadline: the pace's thinking time (``think_seconds``) plus ``GRACE``
for the trip. The worker shortens its search to what is left of it when it starts late
(a queue behind other tables' thoughts) and gives up at once when nothing is left; past
the deadline the loop stops waiting and the bot plays the heuristic's move. A worker that
fails, or a pool that cannot start, costs the same: a normal move and a log line. A
worker still busy ``HUNG_AFTER`` seconds past its deadline is taken to hang: the pool is
replaced, its processes ended.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bot.children import ignore_interrupts, starting_children
from bot.timing import MatchSettings
from games.core.levels import Level
from games.core.protocol import Action

log = logging.getLogger(__name__)

# Seconds of search a hard bot gets per decision, by pace: a live table waits the bot's
# pause and this, never much more; slower tables can afford more, still bounded.
THINK_SECONDS: dict[str, float] = {"live": 0.5, "casual": 1.0}
SLOW_THINK = 2.0  # async, correspondence and custom paces
GRACE = 0.5  # seconds beyond the budget for the trip: the worker loads the state, answers
HUNG_AFTER = 30.0  # seconds past its deadline after which a busy worker is taken to hang
MAX_WORKERS = 4


def think_seconds(settings: MatchSettings, cap: float | None = None) -> float:
    """How long a hard bot may search at this match's pace (``cap``: the process's limit)."""
    seconds = THINK_SECONDS.get(settings.pace, SLOW_THINK)
    return seconds if cap is None else min(seconds, cap)


def default_workers() -> int:
    """One worker per core but one, which the event loop keeps; at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores - 1))


@dataclass(frozen=True)
class Thought:
    """What a worker is asked: one seat's decision (named by its stamp) in a saved state."""

    game: str
    state: str  # the state's JSON, as stored
    seat: int
    stamp: str
    level: Level
    seconds: float
    seed: int
    not_after: float  # wall-clock time (time.time()) past which the answer is useless


def think(thought: Thought) -> str | None:
    """In a worker: the move's text, or None when the thought came too late to be of use."""
    left = thought.not_after - time.time() - GRACE / 2
    if left <= 0:
        return None
    from games import GAMES  # the worker imports the games once, on its first thought

    game = GAMES[thought.game]
    state = game.load_state(thought.state)
    decision = next(
        (d for d in game.decisions(state) if d.seat == thought.seat and d.stamp == thought.stamp),
        None,
    )
    if decision is None:
        return None
    action = game.level_action(
        state,
        thought.seat,
        thought.level,
        decision=decision,
        seconds=min(thought.seconds, left),
        rng=random.Random(thought.seed),
    )
    return action.encode()


def warm() -> None:
    """A worker's first task: import the games before a table waits on it."""
    import games  # noqa: F401


Work = Callable[[Thought], str | None]


class Thinker:
    """The process's pool of thinking workers, started on first need (``warm``)."""

    def __init__(self, workers: int | None = None, *, work: Work = think) -> None:
        self.workers = default_workers() if workers is None else workers
        self.work = work
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        # Thoughts the loop stopped waiting for: (deadline in loop time, their future).
        self._late: list[tuple[float, concurrent.futures.Future[str | None]]] = []
        self._broken_said = False
        self._closed = False
        self._warming: list[concurrent.futures.Future[None]] = []
        self.thinking = 0  # thoughts the loop waits for now
        self.answered = 0  # thoughts that came back in time
        self.fell_back = 0  # thoughts that did not (late, failed, no pool)

    def _started(self) -> concurrent.futures.ProcessPoolExecutor | None:
        if self._pool is None and self.workers > 0 and not self._closed:
            try:
                # The pool starts a worker at a submit that finds none idle: each submit
                # is in ``starting_children``, so no worker takes the terminal's Ctrl-C.
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=ignore_interrupts,
                )
            except (OSError, ValueError, NotImplementedError):
                self._say_broken("could not start the thinking workers")
        return self._pool

    def warm(self) -> None:
        """Start the workers and have them import the games, so the first hard move does
        not wait for it. Does nothing once started."""
        if self._pool is not None:
            return
        pool = self._started()
        if pool is None:
            return
        try:
            with starting_children():
                self._warming = [pool.submit(warm) for _ in range(self.workers)]
        except RuntimeError:  # the pool broke or shut down meanwhile
            self._replace()

    async def ready(self) -> bool:
        """Start the workers if need be and wait until they have imported the games: True
        when hard bots will think (tests; a start-up that wants the first move thought)."""
        self.warm()
        warming = [asyncio.wrap_future(future) for future in self._warming]
        await asyncio.gather(*warming, return_exceptions=True)
        return self._pool is not None

    async def move(self, thought: Thought) -> Action | None:
        """The worker's move for ``thought`` within its deadline, or None: the caller plays
        the heuristic's move instead (and the reason is logged here)."""
        self._reap_hung()
        pool = self._started()
        if pool is None:
            self.fell_back += 1
            return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + thought.seconds + GRACE
        try:
            with starting_children():
                future = pool.submit(self.work, thought)
        except RuntimeError:
            self._replace()
            self.fell_back += 1
            log.warning("thinking workers unavailable: a normal move instead")
            return None
        self.thinking += 1
        try:
            # ``asyncio.timeout``, not ``wait_for``: the task awaits the worker's future
            # itself, which is how the offline Discord knows the loop waits on a worker.
            async with asyncio.timeout_at(deadline):
                text = await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # this move itself is cancelled, not just the worker's thought
            self.fell_back += 1  # the pool was shut down under it (a drain)
            return None
        except TimeoutError:
            self._late.append((deadline, future))
            self.fell_back += 1
            log.warning(
                "a hard bot in %s ran past its %.1f s deadline: a normal move instead",
                thought.game,
                thought.seconds + GRACE,
            )
            return None
        except Exception as exc:
            if isinstance(exc, BrokenProcessPool):
                self._replace()  # a worker died: the next thought gets a new pool
            self.fell_back += 1
            log.warning(
                "a hard bot's thought failed in %s: a normal move instead",
                thought.game,
                exc_info=True,
            )
            return None
        finally:
            self.thinking -= 1
        if text is None:
            self.fell_back += 1
            return None
        self.answered += 1
        return Action.decode(text)

    def _reap_hung(self) -> None:
        """A thought still running long past its deadline holds a worker for good: replace
        the pool (its processes are ended) rather than queue every later thought behind it."""
        now = asyncio.get_running_loop().time()
        self._late = [(due, f) for due, f in self._late if not f.done()]
        if any(now - due > HUNG_AFTER for due, _ in self._late):
            log.warning("a thinking worker hangs: starting new ones")
            self._replace(kill=True)

    def _replace(self, *, kill: bool = False) -> None:
        pool, self._pool = self._pool, None
        self._late = []
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        if kill:
            for process in processes:
                process.terminate()

    def _say_broken(self, what: str) -> None:
        if not self._broken_said:
            self._broken_said = True
            log.warning("%s: hard bots play normal moves", what, exc_info=True)
        self.workers = 0

    def close(self) -> None:
        """Stop the workers: thoughts under way end (a draining process waits for its moves),
        waiting ones are dropped, and any that hang are ended."""
        self._closed = True
        self._replace(kill=any(not f.done() for _, f in self._late))
