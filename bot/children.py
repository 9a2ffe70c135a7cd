"""What the bot's child processes (the picture drawers, the thinking workers) share: they
leave Ctrl-C to the bot.

A terminal's Ctrl-C sends SIGINT to every process of the foreground group, children
included. A child interrupted while it waited for work printed a KeyboardInterrupt
traceback while the bot itself was stopping cleanly; and the bot ends its children anyway
when it closes (``Drawers.close``, the pool's shutdown, or their watch on the bot's life).
So a child never takes SIGINT: it is started with SIGINT blocked, a mask a new process
inherits and keeps through ``exec``, so an interrupt that lands while the child is still
importing does not reach it either; and its first act ignores it for good. SIGTERM keeps
its default: a child told to stop stops, silently.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


def ignore_interrupts() -> None:
    """A child's first act."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def starting_children() -> Iterator[None]:
    """Processes started inside (by this thread) have SIGINT blocked from their first
    instruction. Blocked, not ignored, in the bot: a Ctrl-C meanwhile waits until the
    block ends and then reaches the bot as usual."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
