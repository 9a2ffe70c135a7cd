"""How the bot spends Discord's request budget (bot/outbox.py): clicks are answered through
their interaction whatever waits for the budget, a table edit waiting for its slot sends
the newest state only, posts keep their order through a refusal, sweeps go last, and a
process spends only its share."""

from __future__ import annotations

import asyncio
import logging
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.outbox import Lane
from cogs.table import presenter_of
from cogs.table.reach import EDITABLE
from tests.discord.budget import budgeted, edits_of, every_edit_of
from tests.discord.conftest import (
    click_first_move,
    make_bot,
    mover_and_hand,
    open_game,
    show_hand,
    table_of,
)
from tests.discord.harness import FakeDiscord, RateLimits

UPDATE_MESSAGE = 7


@asynccontextmanager
async def budget_spent_elsewhere(fake: FakeDiscord, bot: Any) -> AsyncIterator[None]:
    """With a budget of one request a second, its one slot is held by someone else for the
    block: every budgeted request of the bot waits meanwhile; on leaving, the slot is
    given back and what waited goes (settled in fake time)."""
    assert bot.outbox.most == 1
    await fake.advance(2)  # the window empty: the slot is given at once
    given, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with bot.outbox.turn(Lane.POST):
            given.set()
            await release.wait()

    holder = asyncio.ensure_future(hold())
    await given.wait()
    try:
        yield
    finally:
        release.set()
        await holder
        await fake.settle()


async def test_moves_while_the_tables_edit_waits_for_its_slot_send_only_the_newest_state(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db, request_budget=1)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        table = table_of(fake)
        await fake.advance(EDITABLE)  # Start's token no longer reaches the table
        version = (await bot.store.open_matches())[0].version
        async with budget_spent_elsewhere(fake, bot):
            since = len(fake.requests)
            for _ in range(3):
                mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
                click = await click_first_move(fake, mover, hand, buttons, selects)
                # Answered through the interaction at once: nothing budgeted went meanwhile.
                assert click.response_type == UPDATE_MESSAGE
            assert budgeted(fake, since) == []
            assert (await bot.store.open_matches())[0].version >= version + 3
        # One edit at most when its slot came, of the newest state (through the token of a
        # Show hand that redrew the table meanwhile, else budgeted): a redraw sends nothing.
        edits = every_edit_of(fake, table, since)
        assert len(edits) <= 1
        match_id = (await bot.store.open_matches())[0].match_id
        await presenter_of(bot).refresh(match_id)
        assert every_edit_of(fake, table, since) == edits
    fake.assert_clean()


async def test_start_turns_the_lobby_into_the_table_in_its_answer_while_the_budget_waits(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    """The lobby became the table by a budgeted edit, queued behind the pings; now Start's
    own answer shows the table, whatever waits for the budget."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db, request_budget=1)) as bot:
        await fake.slash(ana, "play", game="cover_your_assets", thread=True)
        lobby = next(m for m in fake.messages.values() if "· lobby" in m.text())
        await fake.click(ben, lobby, lobby.find_button("Join"))
        async with budget_spent_elsewhere(fake, bot):
            since = len(fake.requests)
            start = await fake.click(ana, lobby, lobby.find_button("Start"))
            assert start.response_type == UPDATE_MESSAGE
            shown = fake.messages[lobby.id]
            assert "· lobby" not in shown.text() and shown.find_button("Show hand")
            assert budgeted(fake, since) == []  # the thread's new name waits its turn
        assert edits_of(fake, lobby, since) == []  # nothing left for the presenter to send
        assert any(r.method == "PATCH" and "/channels/" in r.path for r in budgeted(fake, since))
    fake.assert_clean()


async def test_a_refused_post_holds_its_lane_and_goes_first_so_posts_keep_their_order(
    fake: FakeDiscord, db, caplog: pytest.LogCaptureFixture
) -> None:  # type: ignore[no-untyped-def]
    """Discord refuses the first of five posts (429, Retry-After): none is lost, they
    appear in the order they were asked for, and the refusal is counted, not logged."""
    async with fake.running(make_bot(db)) as bot:
        presenter = presenter_of(bot)
        refusal = fake.fail("POST", r"/channels/\d+/messages", 429, retry_after=2.0)
        caplog.set_level(logging.DEBUG)

        async def five() -> None:  # asked for all at once, as pings and results of a table
            await asyncio.gather(*(presenter.post(fake.general.id, f"post {n}") for n in range(5)))

        await fake.settle_with(five())
        assert len(refusal.struck) == 1
        posted = [m.content for m in fake.public_messages(fake.general)]
        assert posted == [f"post {n}" for n in range(5)]
        assert bot.outbox.refused == 1  # counted, not logged
        ours = ("bot", "cogs", "discord.http")
        assert not [
            r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith(ours)
        ]
    fake.assert_clean()


async def test_old_pings_are_swept_only_when_nothing_else_waits(fake: FakeDiscord, db) -> None:  # type: ignore[no-untyped-def]
    async with fake.running(make_bot(db, request_budget=1)) as bot:
        presenter = presenter_of(bot)
        # Each post waits for the budget's one slot a second: in fake time, as the bot's own.
        old = [
            await fake.settle_with(presenter.post(fake.general.id, f"old ping {n}"))
            for n in range(2)
        ]
        for message in old:
            presenter.sweeps.posted(message)
        await fake.advance(10)
        async with budget_spent_elsewhere(fake, bot):
            since = len(fake.requests)
            for message in old:  # swept after SWEEP_AFTER, in one bulk delete...
                presenter.sweeps.retire(fake.general.id, message.id)
            for n in range(3):  # ...but these were asked for while it waited
                bot.spawn(presenter.post(fake.general.id, f"news {n}"), f"news {n}")
            await fake.advance(5)
        await fake.advance(10)
        went = [(r.method, r.path.rsplit("/", 1)[-1]) for r in budgeted(fake, since)]
        assert went == [("POST", "messages")] * 3 + [("POST", "bulk-delete")]
        assert [m.content for m in fake.public_messages(fake.general)] == [
            f"news {n}" for n in range(3)
        ]
    fake.assert_clean()


@pytest.mark.parametrize(
    ("settings", "share"),
    [
        ({"request_budget": 10}, 10.0),
        ({"request_budget": 10, "request_processes": 2}, 5.0),
        # Two processes serving one shard each of two: half each.
        ({"request_budget": 50, "shard_count": 2, "shard_ids": "1"}, 25.0),
        ({"request_budget": 50, "shard_count": 4, "shard_ids": "0-1"}, 25.0),
    ],
)
def test_each_process_takes_its_share_of_the_budget(settings: dict, share: float) -> None:
    url = "postgresql://x/y" if "shard_count" in settings else "sqlite:///x.db"
    values = {"discord_token": "t", "database_url": url, **settings}
    assert Settings(_env_file=None, **values).request_share == share  # type: ignore[call-arg]


async def test_a_process_of_two_spends_no_more_than_its_share_in_any_second() -> None:
    """Budget 10 a second, two processes: Discord keeping 5 a second for this one refuses
    none of its requests, however many it has to make at once, and serves every one."""
    fake = FakeDiscord(rate_limits=RateLimits(per_second=5, routes=()))
    db = Path(tempfile.mkdtemp()) / "share.db"
    async with fake.running(make_bot(db, request_budget=10, request_processes=2)) as bot:
        posted = [await presenter_of(bot).post(fake.general.id, f"ping {n}") for n in range(2)]
        fake.calls.clear()

        async def twenty() -> None:  # as many as twenty pings, edits, renames ask at once
            reads = (bot.http.get_message(fake.general.id, posted[n % 2].id) for n in range(20))
            await asyncio.gather(*reads)

        await fake.settle_with(twenty())
        assert sum(fake.calls.budgeted.values()) == 20
        assert not fake.calls.refused
    fake.assert_clean()


async def test_a_late_answer_to_a_hand_view_deleted_meanwhile_is_no_error(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    """A move acknowledged first and answered later; meanwhile the player opened a newer
    hand, which deleted the old view: the move stands, the answer goes to the newer view,
    and nothing is logged as an ERROR (the harness fails the test on one)."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        version = (await bot.store.open_matches())[0].version
        match_id = (await bot.store.open_matches())[0].match_id
        async with bot.service.lock(match_id):  # the move waits its turn, as under load
            click = await click_first_move(fake, mover, hand, buttons, selects)
            assert click.response_type == 6  # acknowledged for it
            newer = await show_hand(fake, mover)
            assert fake.messages[hand.id].deleted
            before = newer.text()
        await fake.settle()
        assert (await bot.store.open_matches())[0].version == version + 1
        assert fake.messages[newer.id].text() != before  # the answer went there
    assert [r.code for r in fake.rejections] == [10008]  # Discord's 404, taken calmly


async def test_show_hand_on_a_table_whose_edit_waits_redraws_it_in_the_answer(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    """While the table's edit waits for the budget, Ben presses Show hand on the table: the
    click's answer shows him the table as it now is (free), his hand follows, and the edit
    that waited has nothing left to send."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db, request_budget=1)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        table = table_of(fake)
        await fake.advance(EDITABLE)  # Start's token no longer reaches the table
        async with budget_spent_elsewhere(fake, bot):
            mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
            await click_first_move(fake, mover, hand, buttons, selects)
            before = table.text()
            since = len(fake.requests)
            other = ben if mover is ana else ana
            await fake.click(other, table, table.find_button("Show hand"))
            assert fake.last_interaction(other).response_type == UPDATE_MESSAGE
            assert fake.messages[table.id].text() != before  # the table, as it now is
            assert fake.last_reply(other).ephemeral  # and the hand, as a follow-up
            assert budgeted(fake, since) == []
        assert edits_of(fake, table, since) == []
    fake.assert_clean()
