"""Waiting for the bot: settle until the event loop is quiet, timers fast-forwarded."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

import aiosqlite

from devtools.offline_discord.clock import _real_monotonic
from devtools.offline_discord.model import T
from devtools.offline_discord.world import World

_THREAD_BACKED_MODULES = ("aiosqlite", "bot.pictures")
"""Tasks whose innermost awaiting frame is in these packages wait on a worker thread (the
pictures' queue hands its drawings to worker threads in turn, hands first)."""


class SettleTimeout(AssertionError):
    """The bot was still busy when :meth:`FakeDiscord.settle` gave up."""


class Settling(World):
    """Waiting until the bot is idle, in fake time (see the package docstring)."""

    async def settle(
        self,
        *,
        timeout: float = 10.0,
        horizon: float = 5.0,
        budget: float = 60.0,
        baseline: set[asyncio.Task[Any]] | None = None,
        until: asyncio.Future[Any] | None = None,
    ) -> None:
        """Wait until the bot is idle; see the package docstring.

        A timer is fast-forwarded (fake time) when it is due within ``horizon`` seconds of
        "now", is not owned by a task of ``baseline`` (default: the tasks alive when ``settle``
        was called - pre-existing background loops and timeouts are idle) and falls within
        ``budget`` seconds of the fake time settle started at (the safety net against periodic
        loops).  Raises :class:`SettleTimeout` after ``timeout`` seconds of real time.
        With ``until``, it returns as soon as that is done, idle or not.
        """
        loop = asyncio.get_running_loop()
        if baseline is None:
            baseline = set(asyncio.all_tasks())
        deadline = _real_monotonic() + timeout
        limit = loop.time() + budget
        quiet_rounds = 0
        while quiet_rounds < 2:
            await asyncio.sleep(0)
            if until is not None and until.done():
                return
            if _real_monotonic() > deadline:
                raise SettleTimeout(
                    f"the bot did not settle within {timeout}s:\n{_describe_tasks()}"
                )
            if getattr(loop, "_ready", ()):
                quiet_rounds = 0
                continue
            if _thread_backed_tasks() or _DB_CALLS_IN_FLIGHT[0]:
                quiet_rounds = 0
                await asyncio.sleep(0.001)
                continue
            due = _next_pending_timer(loop, baseline, horizon=horizon, limit=limit)
            if due is not None:
                quiet_rounds = 0
                if self._clock is not None:
                    self._clock.advance_to(due)
                else:
                    await asyncio.sleep(max(0.0, due - loop.time()))
                continue
            quiet_rounds += 1

    async def settle_with(self, work: Awaitable[T]) -> T:
        """Run ``work`` (the scheduler firing what is due, say) to its end while settling, so
        that what it waits on (a channel's message rate limit) passes in fake time, not real
        time, as it does for the bot's own tasks."""
        baseline = set(asyncio.all_tasks())
        task = asyncio.ensure_future(work)
        await self.settle(baseline=baseline)
        return await task

    async def advance(self, seconds: float) -> None:
        """Move the fake clock forward (due timers fire, e.g. view timeouts), then settle."""
        if self._clock is None:
            raise RuntimeError("advance() needs a running bot")
        self._clock.offset += seconds
        await self.settle()


def _timer_owner(
    handle: asyncio.TimerHandle, waiters: Mapping[int, asyncio.Task[Any]]
) -> asyncio.Task[Any] | None:
    """The task a timer will wake up, if it can be told.

    ``asyncio.sleep`` and ``wait_for`` schedule ``callback(future, ...)``; ``ext.tasks``
    schedules ``future.set_result``; ``asyncio.timeout`` schedules ``Timeout._on_timeout``.
    """
    callback = getattr(handle, "_callback", None)
    candidates = [*(getattr(handle, "_args", None) or ()), getattr(callback, "__self__", None)]
    for candidate in candidates:
        if candidate is None:
            continue
        if (task := waiters.get(id(candidate))) is not None:
            return task
        if isinstance(owner := getattr(candidate, "_task", None), asyncio.Task):
            return owner
    return None


def _next_pending_timer(
    loop: asyncio.AbstractEventLoop,
    baseline: set[asyncio.Task[Any]],
    *,
    horizon: float,
    limit: float,
) -> float | None:
    """When the earliest timer that ``settle`` should wait for is due (``None``: idle)."""
    now = loop.time()
    waiters = {
        id(waiter): task
        for task in asyncio.all_tasks()
        if (waiter := getattr(task, "_fut_waiter", None)) is not None
    }
    best: float | None = None
    scheduled: Iterable[asyncio.TimerHandle] = getattr(loop, "_scheduled", ())
    for handle in scheduled:
        if handle.cancelled():
            continue
        when = handle.when()
        if when <= now:
            return when  # already due: the loop runs it next
        if when - now > horizon or when > limit or (best is not None and when >= best):
            continue
        owner = _timer_owner(handle, waiters)
        if owner is not None and owner in baseline:
            continue
        best = when
    return best


def _innermost_frame_module(task: asyncio.Task[Any]) -> str:
    coro: Any = task.get_coro()
    while True:
        inner = (
            getattr(coro, "cr_await", None)
            or getattr(coro, "gi_yieldfrom", None)
            or getattr(coro, "ag_await", None)
        )
        if inner is None or not any(
            hasattr(inner, a) for a in ("cr_frame", "gi_frame", "ag_frame")
        ):
            break
        coro = inner
    frame = (
        getattr(coro, "cr_frame", None)
        or getattr(coro, "gi_frame", None)
        or getattr(coro, "ag_frame", None)
    )
    return frame.f_globals.get("__name__", "") if frame is not None else ""


def _waits_on_thread(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` waits for a worker thread (executor future or aiosqlite)."""
    waiter = getattr(task, "_fut_waiter", None)
    if waiter is None:
        return False
    for callback, *_ in getattr(waiter, "_callbacks", None) or ():
        if getattr(callback, "__qualname__", "").startswith("_chain_future."):
            return True
    module = _innermost_frame_module(task)
    return any(module == m or module.startswith(m + ".") for m in _THREAD_BACKED_MODULES)


# aiosqlite calls still waiting for their worker thread. Counted by a wrapper around
# ``aiosqlite.Connection._execute`` (installed by ``running``), because its ``execute``
# returns an awaitable whose frames the task-inspection heuristic cannot see into.
_DB_CALLS_IN_FLIGHT = [0]


def _counting_execute(original: Callable[..., Any]) -> Callable[..., Any]:
    async def _execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        _DB_CALLS_IN_FLIGHT[0] += 1
        try:
            return await original(self, *args, **kwargs)
        finally:
            _DB_CALLS_IN_FLIGHT[0] -= 1

    return _execute


def _db_choke_points() -> list[tuple[type, str]]:
    """The coroutines every database call goes through, counted while in flight: aiosqlite's
    worker-thread hop, and asyncpg's socket round trips (PostgreSQL answers over a socket, so
    a query in flight leaves the loop looking idle)."""
    points: list[tuple[type, str]] = [(aiosqlite.Connection, "_execute")]
    try:
        import asyncpg.connection
        import asyncpg.pool
    except ImportError:
        return points
    points += [
        (asyncpg.connection.Connection, name)
        for name in ("execute", "_execute", "_executemany", "reset")
    ]
    points += [(asyncpg.pool.Pool, "_acquire"), (asyncpg.pool.Pool, "release")]
    return points


def _thread_backed_tasks() -> list[asyncio.Task[Any]]:
    current = asyncio.current_task()
    return [
        t for t in asyncio.all_tasks() if t is not current and not t.done() and _waits_on_thread(t)
    ]


def _describe_tasks() -> str:
    current = asyncio.current_task()
    lines = []
    for task in asyncio.all_tasks():
        if task is current or task.done():
            continue
        stack = task.get_stack(limit=1)
        where = f"{stack[-1].f_code.co_filename}:{stack[-1].f_lineno}" if stack else "?"
        lines.append(f"  {task.get_name()}: {task.get_coro()!r} at {where}")
    return "\n".join(lines)
