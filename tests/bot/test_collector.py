"""The collector's work bounded (bot/collector.py): after a full collection its survivors are
frozen, so the next full pass walks only what came since; frozen objects still go when
nothing holds them."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.client import CookieJar
from bot.collector import FULL_EVERY, MIDDLE_EVERY, YOUNG_EVERY, FreezeSurvivors, collect_if_due
from bot.config import Settings
from tests.discord.harness import FakeDiscord


class Holder:
    """A tracked object a weak reference can watch."""

    def __init__(self) -> None:
        self.parts: list[object] = [[], {}]


def in_the_collectors_sight(thing: object) -> bool:
    return any(other is thing for generation in range(3) for other in gc.get_objects(generation))


@pytest.fixture
def survivors() -> Iterator[FreezeSurvivors]:
    hook = FreezeSurvivors()
    hook.install()
    try:
        yield hook
    finally:
        hook.remove()
        gc.unfreeze()  # the test process's other objects back where they were


def test_what_survives_a_full_collection_is_frozen(survivors: FreezeSurvivors) -> None:
    kept = Holder()
    assert in_the_collectors_sight(kept)
    gc.collect()
    assert survivors.freezes >= 1
    assert not in_the_collectors_sight(kept) and not in_the_collectors_sight(kept.parts)
    # What comes after is walked until the next full pass.
    later = Holder()
    assert in_the_collectors_sight(later)


def test_a_young_collection_freezes_nothing(survivors: FreezeSurvivors) -> None:
    kept = Holder()
    gc.collect(0)
    gc.collect(1)
    assert survivors.freezes == 0
    assert in_the_collectors_sight(kept)


def test_a_frozen_object_is_still_freed_when_nothing_holds_it(
    survivors: FreezeSurvivors,
) -> None:
    kept = Holder()
    gone: list[bool] = []
    watch = weakref.ref(kept, lambda _: gone.append(True))
    gc.collect()
    assert not in_the_collectors_sight(kept)
    del kept
    assert gone == [True] and watch() is None


async def test_the_bot_freezes_survivors_while_it_runs_and_stops_at_close(tmp_path: Path) -> None:
    before = gc.get_threshold()
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="fake-token",
        database_url=f"sqlite:///{tmp_path / 'cookie.db'}",
        gc_freeze=True,
        gc_threshold="",
    )
    try:
        async with FakeDiscord().running(CookieJar(settings)) as bot:
            assert [c for c in gc.callbacks if isinstance(c, FreezeSurvivors)]
            assert "collector" in {task.get_name() for task in bot._background}  # pace
            kept = Holder()
            gc.collect()
            assert not in_the_collectors_sight(kept)
        assert not [c for c in gc.callbacks if isinstance(c, FreezeSurvivors)]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


async def test_the_running_bot_never_lists_a_generation_to_pace_its_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing the old generation after each middle pass, to ask for a full one by its
    size, cost 5.7 ms a look at 300 tables: a tenth of the process's time."""
    before = gc.get_threshold()
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="fake-token",
        database_url=f"sqlite:///{tmp_path / 'cookie.db'}",
        gc_freeze=True,
        gc_threshold="",
    )
    listed: list[int] = []
    listing = gc.get_objects
    try:
        async with FakeDiscord().running(CookieJar(settings)) as bot:
            hook = bot._collector
            assert hook is not None
            monkeypatch.setattr(gc, "get_objects", lambda *a: listed.append(1) or listing(*a))
            for generation in (0, 1, 1, 2):
                gc.collect(generation)
            assert collect_if_due(hook, time.monotonic() + FULL_EVERY) == 2
            monkeypatch.setattr(gc, "get_objects", listing)
            assert not listed
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def in_generation(thing: object, generation: int) -> bool:
    return any(other is thing for other in gc.get_objects(generation))


def test_young_and_middle_passes_start_by_the_clock_too(survivors: FreezeSurvivors) -> None:
    """Python counts allocations less deallocations; where every move frees an old state
    for the one it makes, the count stalls while the young generation grows. ``pace``
    starts a pass of a generation that went too long without one."""
    gc.disable()  # only the passes asked for here
    try:
        gc.collect()
        now = time.monotonic()
        kept = Holder()
        assert collect_if_due(survivors, now) is None  # both were just walked
        assert in_generation(kept, 0)
        assert collect_if_due(survivors, now + YOUNG_EVERY) == 0
        assert in_generation(kept, 1)
        assert collect_if_due(survivors, time.monotonic() + YOUNG_EVERY) == 0
        assert collect_if_due(survivors, time.monotonic() + MIDDLE_EVERY) == 1
        assert in_generation(kept, 2)
    finally:
        gc.enable()


def test_a_full_pass_starts_by_the_clock_and_freezes_what_it_found(
    survivors: FreezeSurvivors,
) -> None:
    """Python's own rule waits for a quarter of everything the last full pass found alive
    (and this hook froze); ``pace`` starts one once a second went without."""
    gc.disable()
    try:
        gc.collect()
        kept = Holder()
        gc.collect(1)
        gc.collect(1)  # promoted to the old generation, where it waits
        assert in_generation(kept, 2)
        assert collect_if_due(survivors, time.monotonic() + MIDDLE_EVERY) == 1
        assert collect_if_due(survivors, time.monotonic() + FULL_EVERY) == 2
        assert not in_the_collectors_sight(kept)  # frozen
    finally:
        gc.enable()
