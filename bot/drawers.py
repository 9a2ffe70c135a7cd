"""Processes that draw pictures, each on a pipe the event loop itself reads.

``concurrent.futures.ProcessPoolExecutor`` hands every task through two threads of the
bot's process (one that manages the pool, one that feeds its queue), and each hop takes
the GIL from the event loop: under load, a one-byte write to wake the manager cost the
loop a millisecond, and the answers to clicks waited in turn. Here the loop pickles a
drawing, writes it to an idle process's pipe and is called back (``add_reader``) when the
answer can be read: no thread of the bot's process takes part.

A process takes a few drawings at a time (``UNDER_WAY``, and no more bytes than the pipe's
buffer holds, so a write never waits for a busy process) and answers them in turn. A
process that dies fails its drawings with ``BrokenExecutor``; the caller starts new ones.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from bot.children import ignore_interrupts, starting_children

Drawing = Callable[[], bytes | None]
NICENESS = 10  # a drawing process's priority below the bot's (the nice value it adds)
UNDER_WAY = 4  # drawings sent to one process and not answered yet, at most
PIPE_BYTES = 48 * 1024  # their pickled bytes, at most: less than the pipe's buffer holds


def end_with_the_bot() -> None:
    """A drawing process ends when the bot's does, however it ends: killed (SIGKILL), it
    tells nobody, and an orphan would keep its memory and the bot's stdout open."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="end-with-the-bot", daemon=True).start()


def serve(pipe: Connection) -> None:
    """A drawing process: load the games, then draw what comes down the pipe, in turn,
    answering each with (True, PNG or None) or (False, the exception)."""
    ignore_interrupts()
    end_with_the_bot()
    # Pictures are a nicety: when the machine is short of CPU the moves go first, and a
    # hand that waits too long for its picture goes as text (bot/pictures.py).
    os.nice(NICENESS)
    import games  # noqa: F401  # loaded before the first table waits for it

    while True:
        try:
            drawing: Drawing = pickle.loads(pipe.recv_bytes())
        except (EOFError, OSError):
            return  # the bot closed the pipe: done
        try:
            answer: tuple[bool, Any] = (True, drawing())
        except Exception as exc:  # the bot logs it and sends the message without a picture
            answer = (False, exc)
        try:
            pipe.send_bytes(pickle.dumps(answer))
        except (OSError, pickle.PicklingError):
            return


class Drawer:
    """One drawing process and its end of the pipe. Several drawings may be under way: the
    process draws them in turn and answers in the same order, so the next one waits in the
    pipe rather than for a trip through the event loop (which, under load, took longer
    than the drawing)."""

    def __init__(self) -> None:
        # Spawned, not forked: the bot's threads (the database's) hold locks a fork would
        # copy held.
        context = multiprocessing.get_context("spawn")
        self.pipe, theirs = context.Pipe(duplex=True)
        self.process = context.Process(target=serve, args=(theirs,), daemon=True)
        with starting_children():
            self.process.start()
        theirs.close()
        self.waiting: collections.deque[tuple[asyncio.Future[bytes | None], int]] = (
            collections.deque()
        )
        self.sent = 0  # bytes of the drawings under way

    def takes(self, size: int) -> bool:
        """Whether a drawing of ``size`` pickled bytes may go now: the pipe's buffer holds
        every drawing under way, so a write never waits for the process."""
        if not self.waiting:
            return True
        return len(self.waiting) < UNDER_WAY and self.sent + size <= PIPE_BYTES

    def draw(self, data: bytes) -> asyncio.Future[bytes | None]:
        """Send a pickled drawing; its answer, in turn."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes | None] = loop.create_future()
        try:
            self.pipe.send_bytes(data)
        except (OSError, ValueError) as exc:  # the process is gone
            raise BrokenExecutor("a drawing process is gone") from exc
        if not self.waiting:
            loop.add_reader(self.pipe.fileno(), self._answered)
        self.waiting.append((future, len(data)))
        self.sent += len(data)
        return future

    def _answered(self) -> None:
        future, size = self.waiting.popleft()
        self.sent -= size
        if not self.waiting:
            asyncio.get_running_loop().remove_reader(self.pipe.fileno())
        try:
            ok, value = pickle.loads(self.pipe.recv_bytes())
        except (EOFError, OSError):
            if not future.done():
                future.set_exception(BrokenExecutor("a drawing process died"))
            self.close()
            return
        if future.done():  # cancelled meanwhile (the bot is closing)
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def close(self) -> None:
        if self.waiting:
            # No loop any more, or the pipe is closed already: nothing to stop reading.
            with contextlib.suppress(RuntimeError, ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self.pipe.fileno())
            for future, _ in self.waiting:
                if not future.done():
                    future.set_exception(BrokenExecutor("a drawing process died"))
            self.waiting.clear()
        self.pipe.close()
        if self.process.is_alive():
            self.process.terminate()


class Drawers:
    """``count`` drawing processes, started on first need."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.slots = count * UNDER_WAY
        self._drawers: list[Drawer] = []
        self.closed = False

    @property
    def pids(self) -> list[int]:
        return [d.process.pid for d in self._drawers if d.process.pid is not None]

    def start(self) -> None:
        """Start the processes now, so the first table waits for no interpreter to start
        and load the games (a second or two)."""
        while len(self._drawers) < self.count and not self.closed:
            self._drawers.append(Drawer())

    def draw(self, drawing: Drawing) -> asyncio.Future[bytes | None] | None:
        """``drawing``'s answer from the least busy process that takes it now; None when
        none does (the caller keeps it waiting and asks again as answers come)."""
        if self.closed:
            raise BrokenExecutor("the drawing processes are closed")
        self.start()
        data = pickle.dumps(drawing)
        able = [d for d in self._drawers if d.takes(len(data))]
        if not able:
            return None
        return min(able, key=lambda d: len(d.waiting)).draw(data)

    def close(self) -> None:
        self.closed = True
        for drawer in self._drawers:
            drawer.close()
        self._drawers.clear()


class DrawingThreads:
    """Threads of the bot's process that draw (``PICTURE_PROCESSES=0``: tests, which rig
    games in this process): the same calls as ``Drawers``."""

    def __init__(self, count: int) -> None:
        self.slots = count
        # Threads of its own, which end with this object; the loop's default executor
        # stays free for others.
        self._pool = ThreadPoolExecutor(count, thread_name_prefix="pictures")

    def start(self) -> None:
        pass  # threads start with their first drawing, at no cost

    def draw(self, drawing: Drawing) -> asyncio.Future[bytes | None]:
        return asyncio.get_running_loop().run_in_executor(self._pool, drawing)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
