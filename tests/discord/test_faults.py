"""Faults from Discord and the database: nothing acknowledged is lost."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading

import pytest

from cogs.table import presenter_of
from cogs.table.reach import EDITABLE
from tests.discord.conftest import (
    click_first_move,
    looked_away,
    make_bot,
    move_components,
    mover_and_hand,
    open_game,
    show_hand,
    table_of,
)
from tests.discord.harness import FakeDiscord


async def match_of(bot, fake: FakeDiscord):  # type: ignore[no-untyped-def]
    record = await bot.service.store.open_in_channel(fake.general.id)
    return record.match_id, record.version


async def test_an_answer_discord_refuses_as_late_is_one_warning_and_the_move_stands(
    fake: FakeDiscord, db, caplog: pytest.LogCaptureFixture
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:  # fails on any ERROR logged
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        match_id, version = await match_of(bot, fake)
        late = fake.fail(
            "POST", r"/interactions/\d+/[^/]+/callback", 404, 10062, "Unknown interaction"
        )
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            record = await click_first_move(fake, mover, hand, buttons, selects, expect_ack=False)
        assert len(late.struck) == 1 and not record.acknowledged
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
        assert str(record.id) in warnings[0].getMessage()
        assert match_id in warnings[0].getMessage() and warnings[0].exc_info is None
        # The move was saved; the player's next look shows the new state.
        saved = await bot.service.get(match_id)
        assert saved.version == version + 1
        await show_hand(fake, mover)
        assert fake.last_interaction(mover).acknowledged
        assert "Refresh" in fake.last_reply(mover).text()
    assert not fake.error_logs


async def table_is_current(bot, fake: FakeDiscord, match_id: str) -> bool:  # type: ignore[no-untyped-def]
    """The public table shows exactly what the saved match renders to now."""
    drawn = await presenter_of(bot).table_message(await bot.service.get(match_id))
    want, shown = drawn.embeds[0].to_dict(), table_of(fake).embeds[0]
    return all(shown.get(key) == want.get(key) for key in ("title", "description", "fields"))


TABLE_EDIT = r"/channels/\d+/messages/\d+"
SEND = r"/channels/\d+/messages"


@pytest.mark.parametrize(
    "fault",
    [
        {"status": 429, "code": 0, "message": "You are being rate limited.", "retry_after": 2.5},
        {"status": 500, "code": 0, "message": "Internal Server Error", "times": 2},
        {"status": 0, "timeout": True},
    ],
    ids=["429-retry-after", "500-twice", "timeout"],
)
async def test_a_failed_table_edit_is_tried_again_until_the_table_is_current(
    fake: FakeDiscord, db, fault: dict
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        await fake.advance(EDITABLE)  # Start's token no longer reaches the table: budgeted
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        match_id, version = await match_of(bot, fake)
        injected = fake.fail("PATCH", TABLE_EDIT, **fault)
        edits = len(table_of(fake).history)
        await click_first_move(fake, mover, hand, buttons, selects)
        assert injected.struck and (await bot.service.get(match_id)).version == version + 1
        assert len(table_of(fake).history) > edits
        assert await table_is_current(bot, fake, match_id)
    fake.assert_clean()


async def test_a_table_edit_refused_through_a_token_goes_the_budgeted_way(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        match_id, version = await match_of(bot, fake)
        table = table_of(fake)
        refused = fake.fail("PATCH", rf"/webhooks/\d+/[^/]+/messages/{table.id}", 404, 10015, "no")
        await click_first_move(fake, mover, hand, buttons, selects)
        await fake.settle()
        assert refused.struck and (await bot.service.get(match_id)).version == version + 1
        assert any(r.method == "PATCH" and r.path.startswith("/channels/") for r in fake.requests)
        assert await table_is_current(bot, fake, match_id)
    fake.assert_clean()


async def test_a_failed_ping_is_sent_again(fake: FakeDiscord, db) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        await looked_away(fake)  # the other is not looking: the move pings them
        other = ben if mover is ana else ana
        failed = fake.fail("POST", SEND, 503, 0, "Service Unavailable")
        timed_out = fake.fail("POST", SEND, 0, timeout=True)
        await click_first_move(fake, mover, hand, buttons, selects)
        assert failed.struck and timed_out.struck
        assert [m for m in fake.public_messages() if other.mention in m.content]
    fake.assert_clean()


async def test_a_second_writer_holding_the_database_delays_a_move_or_refuses_it_cleanly(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        match_id, version = await match_of(bot, fake)
        other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        # Held past the store's busy timeout: the move is refused, with a sentence.
        other.execute("BEGIN IMMEDIATE")
        try:
            await click_first_move(fake, mover, hand, buttons, selects)
        finally:
            other.execute("ROLLBACK")
        assert "busy for a moment" in fake.last_reply(mover).text()
        assert (await bot.service.get(match_id)).version == version
        # Held for a moment only: the move waits for it, and is saved.
        other.execute("BEGIN IMMEDIATE")
        threading.Timer(0.3, lambda: other.execute("COMMIT")).start()
        hand = await show_hand(fake, mover)
        buttons, selects = move_components(hand)
        await click_first_move(fake, mover, hand, buttons, selects)
        other.close()
        assert (await bot.service.get(match_id)).version == version + 1
        with sqlite3.connect(db) as raw:
            saved = raw.execute("SELECT version FROM matches WHERE id = ?", (match_id,))
            assert saved.fetchone()[0] == version + 1
    fake.assert_clean()


async def test_a_kill_between_the_save_and_the_answer_loses_nothing(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        match_id, version = await match_of(bot, fake)
        saved = asyncio.Event()
        act = bot.service.act

        async def act_then_die(*args: object, **kwargs: object) -> None:
            await act(*args, **kwargs)  # type: ignore[arg-type]
            saved.set()
            await asyncio.Event().wait()  # the process is killed here: no answer goes out

        monkeypatch.setattr(bot.service, "act", act_then_die)
        shown = hand.text()
        record = await click_first_move(fake, mover, hand, buttons, selects, expect_ack=False)
        # Saved; the click was at most acknowledged while it waited, never answered.
        assert saved.is_set() and record.response_type in (None, 6)
        assert fake.messages[hand.id].text() == shown
    # The restarted bot has the move; the player's next click is answered from it.
    async with fake.running(make_bot(db)) as bot:
        assert (await bot.service.get(match_id)).version == version + 1
        again = await click_first_move(fake, mover, hand, buttons, selects)
        assert again.acknowledged and "moved on" in fake.last_reply(mover).text()
        assert (await bot.service.get(match_id)).version == version + 1  # not played twice
        replayed = await bot.service.store.actions(match_id)
        assert len(replayed) == version + 1
    assert not fake.error_logs


async def test_a_gateway_closed_mid_match_reconnects_and_play_carries_on(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        match_id, version = await match_of(bot, fake)
        ready = asyncio.Event()

        async def on_ready() -> None:
            ready.set()

        bot.add_listener(on_ready)
        # Tasks from here on are waited for: discord.py's new session waits for more guilds
        # (``guild_ready_timeout``) before it says ready, on a task the READY below starts.
        # Counted as idle background, its timer was fast-forwarded only when some other
        # timer happened to carry the fake clock past it.
        baseline = set(asyncio.all_tasks())
        # A click is on its way when the gateway closes; Discord opens a new session
        # (READY, then the guild again), which clears discord.py's caches but for views.
        if buttons:
            record = await fake.click(mover, hand, buttons[0], dispatch_only=True)
        else:
            value = [selects[0]["options"][0]["value"]]
            record = await fake.select(mover, hand, selects[0]["custom_id"], value)
        bot._connection.dispatch("disconnect")
        fake._parse(
            "READY",
            {
                "v": 10,
                "user": fake._user_json(fake.bot_user),
                "guilds": [{"id": str(fake.guild_id), "unavailable": True}],
                "session_id": "second-session",
                "resume_gateway_url": "wss://gateway.discord.gg",
                "application": {"id": str(fake.application_id), "flags": 0},
            },
        )
        fake._parse("GUILD_CREATE", fake._guild_json())
        await fake.settle(baseline=baseline)
        assert ready.is_set() and bot.get_guild(fake.guild_id) is not None
        assert record.acknowledged
        assert (await bot.service.get(match_id)).version == version + 1
        # Everyone carries on through the new session: moves, pings, the table.
        for _ in range(3):
            player, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
            await click_first_move(fake, player, hand, buttons, selects)
        assert (await bot.service.get(match_id)).version >= version + 4
        assert await table_is_current(bot, fake, match_id)
    fake.assert_clean()
