"""Work for the thinking workers in tests, importable by a spawned process: a thought that
takes its time, and one that never ends."""

from __future__ import annotations

import os
import time
from pathlib import Path

from bot.thinking import Thought, think

RELEASE = "COOKIE_JAR_TEST_RELEASE"  # a file whose creation lets a held thought end


def slow(thought: Thought) -> str | None:
    """The real thought, after a pause the loop must not notice: until the test creates the
    file named by ``RELEASE`` (in the environment the worker was spawned with), else 0.6 s."""
    release = os.environ.get(RELEASE)
    if release is None:
        time.sleep(0.6)
    else:
        until = time.monotonic() + 60
        while not Path(release).exists() and time.monotonic() < until:
            time.sleep(0.01)
    return think(thought)


def hang(thought: Thought) -> str | None:
    """A worker stuck for good (a bug, a machine out of memory)."""
    time.sleep(600)
    return None
