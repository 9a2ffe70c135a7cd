"""Work for the thinking workers in tests, importable by a spawned process: a thought that
takes its time, and one that never ends."""

from __future__ import annotations

import time

from bot.thinking import Thought, think


def slow(thought: Thought) -> str | None:
    """The real thought, after a pause the loop must not notice."""
    time.sleep(0.6)
    return think(thought)


def hang(thought: Thought) -> str | None:
    """A worker stuck for good (a bug, a machine out of memory)."""
    time.sleep(600)
    return None
