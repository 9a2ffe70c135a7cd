"""The pictures a process sends: kept by what they show within a byte budget, drawn off the
event loop once however many ask, and a drawing that fails is a message without one."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.pictures import (
    BACKLOG,
    FOLLOW,
    HAND,
    PictureCache,
    PictureLate,
    Pictures,
    draw_by_key,
    table_of,
)
from bot.timing import GuildSettings
from games import GAMES
from games.core import contract
from games.core.pictures import hand_picture

BRAVERSE = GAMES["braverse"]


def key(
    version: int, seat: int | None = None, match: str = "m1"
) -> tuple[str, int, int | None, str]:
    return (match, version, seat, "active")


def test_the_cache_keeps_what_fits_its_budget_and_lets_the_least_used_go_first() -> None:
    cache = PictureCache(budget=100)
    cache.put(key(1), b"a" * 40)
    cache.put(key(2), b"b" * 40)
    assert cache.get(key(1)) == b"a" * 40  # now the most recently used
    cache.put(key(3), b"c" * 40)
    assert cache.get(key(2)) is None and cache.get(key(1)) is not None
    assert cache.size == 80 and len(cache) == 2
    cache.put(key(4), b"d" * 101)  # larger than the whole budget: not kept, nothing lost
    assert cache.get(key(4)) is None and len(cache) == 2
    cache.put(key(1), b"e" * 10)  # drawn again: counted once
    assert cache.size == 50


def test_an_old_servers_settings_row_loads_with_pictures_on() -> None:
    old = '{"match": {"pace": "live"}, "threads": true, "ratings": "all"}'
    assert GuildSettings.model_validate_json(old).pictures is True


def braverse_view() -> object:
    state = BRAVERSE.setup(BRAVERSE.options_model(), contract.NAMES[:2], 7)
    return BRAVERSE.view(state, None)


class Drawings:
    """Named drawings that record the order they start in; a ``held`` one waits for
    ``release`` (a drawer busy with it)."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.release = threading.Event()

    def __call__(self, name: str, *, held: bool = False) -> Callable[[], bytes]:
        def draw() -> bytes:
            self.started.append(name)
            if held:
                self.release.wait(10)
            return b"\x89PNG " + name.encode()

        return draw


def held(png: bytes) -> tuple[threading.Event, Callable[[], bytes]]:
    """A drawing that waits for its release: a drawer short of CPU."""
    release = threading.Event()

    def draw() -> bytes:
        release.wait(10)
        return png

    return release, draw


async def told_of(told: list[str]) -> None:
    while not told:
        await asyncio.sleep(0.01)


async def settings_with(pictures: bool) -> GuildSettings:
    return GuildSettings(pictures=pictures)


async def test_a_picture_is_drawn_once_in_a_worker_thread_and_then_kept() -> None:
    threads: list[threading.Thread] = []

    class Counting(type(BRAVERSE)):  # type: ignore[misc]
        def table_picture(self, view, language="en"):  # type: ignore[no-untyped-def]
            threads.append(threading.current_thread())
            return super().table_picture(view, language)

    game = Counting.__new__(Counting)
    game.__dict__.update(BRAVERSE.__dict__)
    pictures = Pictures(lambda guild: settings_with(True))
    view = braverse_view()
    drawn = await asyncio.gather(*(pictures.picture(1, game, view, key(1)) for _ in range(3)))
    assert drawn[0] is not None and drawn[0].startswith(b"\x89PNG")
    assert drawn[0] == drawn[1] == drawn[2]
    assert await pictures.picture(1, game, view, key(1)) == drawn[0]
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    assert pictures.cache.size == len(drawn[0])


async def test_a_table_picture_is_drawn_and_kept_in_each_language_apart() -> None:
    pictures = Pictures(lambda guild: settings_with(True))
    view = braverse_view()
    english = await pictures.picture(1, BRAVERSE, view, key(1))
    # An English-only server's pictures are kept as they always were: one each, by its key.
    assert len(pictures.cache) == 1 and pictures.cache.get(key(1)) == english
    korean = await pictures.picture(1, BRAVERSE, view, key(1), language="ko")
    assert english == BRAVERSE.table_picture(view)
    assert korean == BRAVERSE.table_picture(view, "ko") and korean != english
    assert await pictures.picture(1, BRAVERSE, view, key(1)) == english  # each kept apart
    assert len(pictures.cache) == 2


async def test_a_hand_picture_is_drawn_and_kept_in_each_language_apart() -> None:
    pictures = Pictures(lambda guild: settings_with(True), hand_wait=None)  # however busy
    view = BRAVERSE.view(BRAVERSE.setup(BRAVERSE.options_model(), contract.NAMES[:2], 7), 0)
    english = await pictures.hand(1, BRAVERSE, view)
    japanese = await pictures.hand(1, BRAVERSE, view, language="ja")
    assert english == hand_picture(BRAVERSE, view)
    assert japanese == hand_picture(BRAVERSE, view, "ja") != english
    assert await pictures.hand(1, BRAVERSE, view) == english and len(pictures.cache) == 2


def test_a_drawing_process_draws_in_the_language_it_is_handed() -> None:
    view = braverse_view()
    hand = BRAVERSE.view(BRAVERSE.setup(BRAVERSE.options_model(), contract.NAMES[:2], 7), 0)
    scene = BRAVERSE.hand_scene(hand)
    assert draw_by_key("braverse", True, view, "ko") == BRAVERSE.table_picture(view, "ko")
    assert draw_by_key("braverse", False, scene, "ja") == hand_picture(BRAVERSE, hand, "ja")
    assert draw_by_key("braverse", True, view) == BRAVERSE.table_picture(view)


def test_a_table_picture_in_another_language_is_still_its_tables() -> None:
    """A table's waiting drawing gives way to its newer one (``table_of``) in any language."""
    assert table_of(key(3)) == table_of((key(3), "ko")) == "m1"
    assert table_of(("braverse", ("a hand's scene",))) is None
    assert table_of(("braverse", ("a hand's scene",), "ko")) is None


async def test_a_server_with_pictures_off_gets_none_and_nothing_is_drawn() -> None:
    pictures = Pictures(lambda guild: settings_with(False))
    assert await pictures.picture(1, BRAVERSE, braverse_view(), key(1)) is None
    assert len(pictures.cache) == 0


async def test_a_game_that_does_not_draw_gets_no_picture() -> None:
    pictures = Pictures(lambda guild: settings_with(True))
    plain = SimpleNamespace(key="plain")  # a game without table_picture and draw_hand
    assert await pictures.picture(1, plain, braverse_view(), key(1)) is None  # type: ignore[arg-type]
    assert await pictures.hand(1, plain, braverse_view()) is None  # type: ignore[arg-type]


async def test_a_drawing_that_fails_is_logged_and_gives_no_picture(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Broken(type(BRAVERSE)):  # type: ignore[misc]
        def table_picture(self, view, language="en"):  # type: ignore[no-untyped-def]
            raise ValueError("a drawing bug")

    game = Broken.__new__(Broken)
    game.__dict__.update(BRAVERSE.__dict__)
    pictures = Pictures(lambda guild: settings_with(True))
    with caplog.at_level(logging.WARNING, logger="bot.pictures"):
        assert await pictures.picture(1, game, braverse_view(), key(1)) is None
    assert "could not draw the picture" in caplog.text and "a drawing bug" in caplog.text
    assert len(pictures.cache) == 0  # tried again next time


async def test_a_hand_is_drawn_before_waiting_tables_and_goes_without_behind_other_hands() -> None:
    pictures = Pictures(lambda guild: settings_with(True))
    pictures._drawers.slots = 1  # one drawer: the order in which drawings start is the queue's
    drawing = Drawings()
    tables = [  # three tables' (one table's newer drawing would replace its waiting one)
        asyncio.ensure_future(
            pictures.drawn(key(v, match=f"m{v}"), drawing(f"table{v}", held=True))
        )
        for v in range(3)
    ]
    await asyncio.sleep(0)
    hands = [
        asyncio.ensure_future(pictures.drawn(key(10 + n, seat=0), drawing(f"hand{n}"), order=HAND))
        for n in range(BACKLOG)
    ]
    await asyncio.sleep(0)
    # The drawer is busy: those hands go without, and their drawings wait.
    assert await asyncio.gather(*hands) == [None] * BACKLOG
    assert pictures.skipped == BACKLOG
    # BACKLOG hands wait already: one more is not even drawn.
    assert await pictures.drawn(key(20, seat=0), drawing("late"), order=HAND) is None
    assert pictures.skipped == BACKLOG + 1
    drawing.release.set()
    assert await asyncio.gather(*tables) == [b"\x89PNG table%d" % v for v in range(3)]
    # The hands went to the drawer ahead of the tables that arrived before them.
    assert drawing.started == ["table0", *(f"hand{n}" for n in range(BACKLOG)), "table1", "table2"]
    view = BRAVERSE.view(BRAVERSE.setup(BRAVERSE.options_model(), contract.NAMES[:2], 7), 0)
    # Caught up: drawn. A real drawing process draws it, so the test waits as long as a
    # loaded machine needs, not the 20 ms a click may spare.
    pictures.hand_wait = 30.0
    hand = await pictures.hand(1, BRAVERSE, view)
    assert hand is not None and hand.startswith(b"\x89PNG")


async def test_a_drawing_process_draws_what_the_game_draws_in_place_and_one_that_dies_is_replaced(
    caplog: pytest.LogCaptureFixture,
) -> None:
    view = braverse_view()
    in_process = Pictures(lambda guild: settings_with(True), processes=1)
    try:
        drawn = await in_process.picture(1, BRAVERSE, view, key(1))
        assert drawn == BRAVERSE.table_picture(view)
        for pid in in_process._drawers.pids:  # type: ignore[union-attr]
            os.kill(pid, signal.SIGKILL)
        with caplog.at_level(logging.WARNING, logger="bot.pictures"):
            assert await in_process.picture(1, BRAVERSE, view, key(2)) is None
        assert "a picture process died" in caplog.text
        assert await in_process.picture(1, BRAVERSE, view, key(3)) == drawn
    finally:
        in_process.close()


ORPHAN = """
import asyncio, time
from bot.pictures import Pictures
from bot.timing import GuildSettings

async def settings(guild):
    return GuildSettings()

async def main():
    pictures = Pictures(settings, processes=1)
    pictures.start()
    while not pictures._drawers.pids:
        await asyncio.sleep(0.01)
    print(*pictures._drawers.pids, flush=True)
    await asyncio.sleep(60)

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_a_drawing_process_ends_when_the_bot_is_killed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "bot_that_dies.py"
    script.write_text(ORPHAN)
    bot = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=Path.cwd()
    )
    try:
        assert bot.stdout is not None
        (drawer,) = (int(pid) for pid in bot.stdout.readline().split())
    finally:
        bot.kill()
        bot.wait()
    for _ in range(500):  # it notices its parent gone at once; allow a slow machine 10 s
        try:
            os.kill(drawer, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)
    os.kill(drawer, signal.SIGKILL)
    raise AssertionError("the drawing process outlived the bot")


async def test_a_hand_that_others_moves_left_alone_is_not_drawn_again() -> None:
    assets = GAMES["cover_your_assets"]
    drawn: list[object] = []

    class Counting(type(assets)):  # type: ignore[misc]
        def draw_hand(self, scene, language="en"):  # type: ignore[no-untyped-def]
            drawn.append(scene)
            return super().draw_hand(scene, language)

    game = Counting.__new__(Counting)
    game.__dict__.update(assets.__dict__)
    # Each hand waits for its drawing however busy the machine: with HAND_WAIT's 20 ms, a
    # drawing slowed by other work went without, and the test failed on what it does not test.
    pictures = Pictures(lambda guild: settings_with(True), hand_wait=None)
    state = game.setup(game.options_model(), contract.NAMES[:3], 11)
    before = game.view(state, 0)
    # Another seat moves until one of its moves leaves seat 0's hand and stack as they were.
    rng = random.Random(3)
    for _ in range(50):
        decision = next(d for d in game.decisions(state))
        moved, _ = game.apply(state, decision.seat, contract.next_move(game, state, decision, rng))
        if decision.seat != 0 and game.hand_scene(game.view(moved, 0)) == game.hand_scene(before):
            break
        state, before = moved, game.view(moved, 0)
    else:
        raise AssertionError("no move left seat 0's hand alone")
    after = game.view(moved, 0)
    assert after != before  # the view changed (the table did), the hand picture did not
    first = await pictures.hand(1, game, before)
    assert first is not None and await pictures.hand(1, game, after) == first
    assert len(drawn) == 1
    # A hand that changed is drawn anew.
    other = game.view(game.setup(game.options_model(), contract.NAMES[:3], 12), 0)
    assert await pictures.hand(1, game, other) not in (None, first) and len(drawn) == 2


async def test_a_hand_waits_for_its_picture_at_most_hand_wait_and_the_drawing_is_kept() -> None:
    pictures = Pictures(lambda guild: settings_with(True), hand_wait=0.05)
    release, slow = held(b"\x89PNG slow")
    # A drawer short of CPU: the view goes without its picture rather than wait.
    assert await pictures.drawn(("hand", 1), slow, order=HAND) is None
    assert pictures.skipped == 1
    release.set()
    while pictures._drawing:  # the drawing went on
        await asyncio.sleep(0.01)
    assert await pictures.drawn(("hand", 1), slow, order=HAND) == b"\x89PNG slow"


async def test_a_hand_followed_for_a_ping_is_drawn_only_when_nothing_waits() -> None:
    pictures = Pictures(lambda guild: settings_with(True), hand_wait=None)
    pictures._drawers.slots = 1
    drawing = Drawings()
    busy = asyncio.ensure_future(pictures.drawn(key(1), drawing("table1", held=True)))
    await asyncio.sleep(0)
    # The drawer is busy but nothing waits: the followed hand takes its turn...
    followed = asyncio.ensure_future(pictures.drawn(("f", 1), drawing("f1"), order=FOLLOW))
    await asyncio.sleep(0)
    # ...and, once something waits, another goes without.
    assert await pictures.drawn(("f", 2), drawing("f2"), order=FOLLOW) is None
    drawing.release.set()
    assert await busy == b"\x89PNG table1" and await followed == b"\x89PNG f1"
    assert drawing.started == ["table1", "f1"]


async def test_a_table_picture_past_table_wait_is_late_and_tells_when_drawn() -> None:
    pictures = Pictures(lambda guild: settings_with(True), table_wait=0.05)
    release, slow = held(b"\x89PNG table")
    told: list[str] = []

    with pytest.raises(PictureLate):
        await pictures.drawn(key(1), slow, late=lambda: told.append("drawn"))
    assert told == []  # the edit goes now, with the picture its message shows
    release.set()
    await told_of(told)
    # The next edit finds it drawn, at once.
    assert await pictures.drawn(key(1), slow, late=lambda: None) == b"\x89PNG table"


async def test_one_drawing_process_takes_several_drawings_and_answers_each_its_own() -> None:
    game = GAMES["cover_your_assets"]
    views = [
        game.view(game.setup(game.options_model(), contract.NAMES[:4], seed), None)
        for seed in range(6)
    ]
    pictures = Pictures(lambda guild: settings_with(True), processes=1, table_wait=None)
    try:
        drawn = await asyncio.gather(
            *(  # six tables (a table's newer drawing would replace its waiting one)
                pictures.picture(1, game, view, key(n, match=f"m{n}"))
                for n, view in enumerate(views)
            )
        )
        # Sent to the one process together (under way at once), each answer is its own.
        assert drawn == [game.table_picture(view) for view in views]
        assert len(set(drawn)) == len(views)
    finally:
        pictures.close()


async def test_a_hand_that_went_without_its_picture_is_told_when_it_is_drawn() -> None:
    pictures = Pictures(lambda guild: settings_with(True), hand_wait=0.0)
    release, slow = held(b"\x89PNG hand")
    told: list[str] = []

    assert await pictures.drawn(("h", 1), slow, order=HAND, late=lambda: told.append("x")) is None
    release.set()
    await told_of(told)
    assert told == ["x"] and await pictures.drawn(("h", 1), slow, order=HAND) == b"\x89PNG hand"


async def test_a_hand_waits_for_its_picture_only_when_the_drawers_are_idle() -> None:
    pictures = Pictures(lambda guild: settings_with(True), hand_wait=5.0)
    release, busy = held(b"\x89PNG table")
    table = asyncio.ensure_future(pictures.drawn(key(1), busy))
    await asyncio.sleep(0)
    told: list[str] = []
    # A drawer is busy: the answer goes at once without its picture, which follows.
    assert (
        await pictures.drawn(
            ("h", 1), lambda: b"\x89PNG hand", order=HAND, late=lambda: told.append("x")
        )
        is None
    )
    release.set()
    await table
    await told_of(told)
    # Idle drawers: the answer waits for its picture (here up to five seconds).
    assert await pictures.drawn(("h", 2), lambda: b"\x89PNG two", order=HAND) == b"\x89PNG two"


async def test_a_hand_that_does_not_wait_goes_without_even_a_turn_of_the_event_loop() -> None:
    pictures = Pictures(lambda guild: settings_with(True))
    pictures._drawers.slots = 1
    drawing = Drawings()
    table = asyncio.ensure_future(pictures.drawn(key(1), drawing("table", held=True)))
    await asyncio.sleep(0)
    ask = pictures.drawn(key(2, seat=0), drawing("hand"), order=HAND)
    try:
        # Stepped by hand: an answer that gave up the loop, if only for a zero wait, would
        # suspend here; under load that turn took milliseconds.
        with pytest.raises(StopIteration) as answered:
            ask.send(None)
        assert answered.value.value is None
    finally:
        ask.close()
    drawing.release.set()
    await table
    while pictures._drawing:
        await asyncio.sleep(0.001)
    assert drawing.started == ["table", "hand"]  # its drawing went on, for the cache


async def test_a_tables_drawing_still_waiting_is_replaced_by_its_newer_one() -> None:
    """Drawers short of CPU let every table's drawings pile up, each holding its view: the
    bot's memory grew by the minute. Only a table's newest drawing waits."""
    pictures = Pictures(lambda guild: settings_with(True))
    pictures._drawers.slots = 1
    drawing = Drawings()
    busy = asyncio.ensure_future(pictures.drawn(key(0, match="other"), drawing("other", held=True)))
    await asyncio.sleep(0)
    versions = [
        asyncio.ensure_future(pictures.drawn(key(v), drawing(f"table{v}", held=True)))
        for v in range(1, 5)
    ]
    await asyncio.sleep(0)
    assert len(pictures._waiting) == 1  # table 4 alone waits for the drawer
    assert await asyncio.gather(*versions[:-1]) == [None, None, None]  # shown by the newer
    drawing.release.set()
    assert await versions[-1] == b"\x89PNG table4"
    assert await busy == b"\x89PNG other"
    assert drawing.started == ["other", "table4"]
    # A superseded drawing's key is not kept: drawn again if asked for again.
    assert pictures.cache.get(key(1)) is None


async def test_a_late_table_picture_superseded_asks_for_no_edit_of_its_own() -> None:
    """A table edit that went without its picture (``late``) is told when it is drawn, so
    the next edit shows it; superseded, the newer drawing tells its own edit instead."""
    pictures = Pictures(lambda guild: settings_with(True), table_wait=0.0)
    pictures._drawers.slots = 1
    drawing = Drawings()
    busy = asyncio.ensure_future(pictures.drawn(key(0, match="other"), drawing("other", held=True)))
    await asyncio.sleep(0)
    told: list[int] = []
    with pytest.raises(PictureLate):
        await pictures.drawn(key(1), drawing("table1"), late=lambda: told.append(1))
    with pytest.raises(PictureLate):
        await pictures.drawn(key(2), drawing("table2"), late=lambda: told.append(2))
    drawing.release.set()
    await busy
    while pictures._drawing:
        await asyncio.sleep(0.01)
    assert told == [2]
