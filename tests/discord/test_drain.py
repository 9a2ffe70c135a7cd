"""SIGTERM drains the bot: no new timers, the moves under way end and are answered, then
the gateway closes. What is left is in the database for the process that takes over."""

from __future__ import annotations

import asyncio

from tests.discord.conftest import click_first_move, make_bot, mover_and_hand, open_game
from tests.discord.harness import FakeDiscord


async def test_a_drain_lets_the_move_under_way_end_and_be_answered_then_closes(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        version = (await bot.store.open_matches())[0].version
        act, began = bot.service.act, asyncio.Event()

        async def slow_act(*args, **kwargs):  # type: ignore[no-untyped-def]
            began.set()
            await asyncio.sleep(1.0)  # the move is under way when SIGTERM comes
            return await act(*args, **kwargs)

        bot.service.act = slow_act
        click = asyncio.ensure_future(
            click_first_move(fake, mover, hand, buttons, selects, dispatch_only=True)
        )
        await began.wait()
        bot.request_drain()  # what SIGTERM calls
        await fake.settle_with(bot._drain)
        record = await click
        assert bot.is_closed()
        assert bot.scheduler._stopped  # it claims no more timers
        # The move was answered before the gateway closed (and saved: below).
        assert record.acknowledged
    fake.assert_clean()
    reopened = make_bot(db)
    async with fake.running(reopened):
        [match] = await reopened.store.open_matches()
        assert match.version == version + 1
