"""The collector's work bounded (bot/collector.py): after a full collection its survivors are
frozen, so the next full pass walks only what came since; frozen objects still go when
nothing holds them."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.client import CookieJar
from bot.collector import FreezeSurvivors
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
        async with FakeDiscord().running(CookieJar(settings)):
            assert [c for c in gc.callbacks if isinstance(c, FreezeSurvivors)]
            kept = Holder()
            gc.collect()
            assert not in_the_collectors_sight(kept)
        assert not [c for c in gc.callbacks if isinstance(c, FreezeSurvivors)]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
