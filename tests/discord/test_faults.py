"""Faults from Discord and the database: nothing acknowledged is lost."""

from __future__ import annotations

import logging

import pytest

from tests.discord.conftest import make_bot, move_components, open_game, show_hand, table_of
from tests.discord.harness import FakeDiscord, FakeUser


async def mover_and_hand(fake: FakeDiscord, users: list[FakeUser]):  # type: ignore[no-untyped-def]
    for user in users:
        hand = await show_hand(fake, user)
        buttons, selects = move_components(hand)
        if buttons or selects:
            return user, hand, buttons, selects
    raise AssertionError("nobody can move")


async def click_first_move(fake: FakeDiscord, user: FakeUser, hand, buttons, selects, **kw):  # type: ignore[no-untyped-def]
    if buttons:
        return await fake.click(user, hand, buttons[0], **kw)
    values = [selects[0]["options"][0]["value"]]
    return await fake.select(user, hand, selects[0]["custom_id"], values, **kw)


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
    embeds, _ = await bot.presenter.table_message(await bot.service.get(match_id))
    want, shown = embeds[0].to_dict(), table_of(fake).embeds[0]
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
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        match_id, version = await match_of(bot, fake)
        injected = fake.fail("PATCH", TABLE_EDIT, **fault)
        edits = len(table_of(fake).history)
        await click_first_move(fake, mover, hand, buttons, selects)
        assert injected.struck and (await bot.service.get(match_id)).version == version + 1
        assert len(table_of(fake).history) > edits
        assert await table_is_current(bot, fake, match_id)
    fake.assert_clean()


async def test_a_failed_ping_is_sent_again(fake: FakeDiscord, db) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        other = ben if mover is ana else ana
        failed = fake.fail("POST", SEND, 503, 0, "Service Unavailable")
        timed_out = fake.fail("POST", SEND, 0, timeout=True)
        await click_first_move(fake, mover, hand, buttons, selects)
        assert failed.struck and timed_out.struck
        assert [m for m in fake.public_messages() if other.mention in m.content]
    fake.assert_clean()
