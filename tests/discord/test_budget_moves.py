"""Fewer budgeted calls a move where it costs the player nothing (issue 39): no mention for
someone looking at the match (it waits, and comes if they went away), and the table's
edits through the token of the interaction whose answer it is, which is free."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from cogs.table import presenter_of
from cogs.table.reach import EDITABLE
from tests.discord.budget import budgeted, edits_of, every_edit_of, free_edits_of
from tests.discord.conftest import (
    click_first_move,
    looked_away,
    make_bot,
    mover_and_hand,
    open_game,
    table_of,
)
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_pings_absent import mentions_posted


def posts(fake: FakeDiscord, since: int = 0) -> list[str]:
    """The budgeted messages posted since the ``since``-th request."""
    return [r.path for r in budgeted(fake, since) if r.method == "POST"]


async def test_who_just_pressed_join_or_start_is_not_mentioned_until_they_look_away(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        since = len(fake.requests)
        await open_game(fake, "cover_your_assets", ana, ben)
        await fake.settle()
        # Both are looking at the table they just started: no mention, no post at all.
        assert mentions_posted(fake, ana) == mentions_posted(fake, ben) == []
        assert posts(fake, since) == []
        # Nobody clicks for RECENT seconds: the mention that waited is owed, and goes.
        await looked_away(fake)
        first = mentions_posted(fake, ana) + mentions_posted(fake, ben)
        assert len(first) == 1 and "your move" in first[0]
        assert len(posts(fake, since)) == 1
    fake.assert_clean()


async def test_a_move_mentions_the_next_player_only_if_they_have_not_clicked_lately(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cover_your_assets", ana, ben)
        await looked_away(fake)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        other: FakeUser = ben if mover is ana else ana
        # The other looked at their hand moments ago (mover_and_hand asks the first
        # seat first): then the move mentions nobody; otherwise it mentions them.
        looking = other is ana
        since = len(fake.requests)
        await click_first_move(fake, mover, hand, buttons, selects)
        await fake.settle()
        assert len(mentions_posted(fake, other, since)) == (0 if looking else 1)
    fake.assert_clean()


async def test_the_table_is_edited_through_starts_token_then_budgeted_once_it_expired(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cover_your_assets", ana, ben)
        table = table_of(fake)
        since = len(fake.requests)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        await click_first_move(fake, mover, hand, buttons, selects)
        await fake.settle()
        # The move shows on the table through Start's token: free.
        assert len(free_edits_of(fake, table, since)) == 1
        assert edits_of(fake, table, since) == []
        # Fifteen minutes on, Discord no longer lets that token edit: a budgeted edit.
        await fake.advance(EDITABLE)
        since = len(fake.requests)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        await click_first_move(fake, mover, hand, buttons, selects)
        await fake.settle()
        assert free_edits_of(fake, table, since) == []
        assert len(edits_of(fake, table, since)) == 1
    fake.assert_clean()


async def test_a_bots_level_picked_in_add_bots_answer_changes_the_lobby_for_free(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    host = fake.add_user("host")
    async with fake.running(make_bot(db)):
        await fake.slash(host, "play", game="cover_your_assets")
        lobby = table_of(fake)
        await fake.click(host, lobby, lobby.find_button("Add bot"))
        answer = fake.last_reply(host)
        since = len(fake.requests)
        await fake.click(host, answer, answer.find_button("Hard"))
        await fake.settle()
        assert "🤖 Abe (Hard)" in table_of(fake).text()
        # Through Add bot's token, whose answer the lobby is: no budgeted call at all.
        assert budgeted(fake, since) == []
        assert len(free_edits_of(fake, lobby, since)) == 1
    fake.assert_clean()


async def test_play_in_a_thread_full_of_bots_posts_the_table_and_never_edits_it_into_one(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        since = len(fake.requests)
        await fake.slash(ana, "play", game="cover_your_assets", thread=True, bots=5)
        await fake.settle()
        record = (await bot.store.open_matches())[0]
        table = fake.messages[record.message_id or 0]
        assert table.channel_id == record.channel_id != fake.general.id
        assert "· lobby" not in table.text() and table.find_button("Show hand")
        # The thread's first message was the table: no lobby posted and then edited into
        # the table by a budgeted edit (the thread's message is no interaction's answer).
        posted = [
            r
            for r in budgeted(fake, since)
            if r.method == "POST" and r.path == f"/channels/{table.channel_id}/messages"
        ]
        assert posted and "· lobby" not in str(posted[0].body)
        assert "Show hand" in str(posted[0].body)
    fake.assert_clean()


async def test_play_posts_its_lobby_and_sends_no_edit_after_it(fake: FakeDiscord, db) -> None:  # type: ignore[no-untyped-def]
    """The lobby /play answers with shows every change made before it (bots, the host's
    deck): the presenter's edit for them has nothing to send."""
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        since = len(fake.requests)
        await fake.slash(ana, "play", game="cover_your_assets", bots=2)
        await fake.settle()
        lobby = table_of(fake)
        assert "🤖" in lobby.text()
        assert every_edit_of(fake, lobby, since) == []
        assert budgeted(fake, since) == []
    fake.assert_clean()


async def test_a_budgeted_table_edit_waits_for_its_late_picture_and_goes_once(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    """Past Start's token, the table's edit is budgeted: when its picture is late, the edit
    waits for it (``PICTURE_PATIENCE`` at most) and carries it, one call instead of the
    text now and the picture in a second edit."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db, pictures=True)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        table = table_of(fake)
        await fake.advance(EDITABLE)  # budgeted edits from now on
        drawing = presenter_of(bot).drawing
        real = drawing.table_message
        late_once: list[object] = []

        async def drawn_late(record, *, answer=False, late=None):  # type: ignore[no-untyped-def]
            drawn = await real(record, answer=answer)
            if late is None or late_once:
                return drawn
            late_once.append(late)  # the drawers are busy: drawn two seconds on
            asyncio.get_running_loop().call_later(2.0, late)
            return replace(drawn, picture=None, late=True)

        drawing.table_message = drawn_late  # type: ignore[method-assign]
        since = len(fake.requests)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        await click_first_move(fake, mover, hand, buttons, selects)
        await fake.settle()
        assert late_once  # the move's edit found its picture late
        (edit,) = edits_of(fake, table, since)
        assert "attachments" in str(edit.body) and fake.messages[table.id].attachments
    fake.assert_clean()


async def test_a_waiting_mention_whose_seat_answered_while_the_match_was_read_is_dropped(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    """The mention that waited while its player looked comes due, and the player answers
    in the moment its match is read: nothing is owed, and nothing fails (a KeyError in
    the waiting task, seen under load in bench load --processes 2)."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        pings = presenter_of(bot).pings
        (match_id,) = pings._later
        waiter = pings._waiters[match_id]
        service, read = bot.service, bot.service.get
        armed = [True]

        async def get(wanted: str, *args: object, **kwargs: object) -> object:
            record = await read(wanted, *args, **kwargs)
            if wanted == match_id and armed:
                armed.pop()
                pings.answered(match_id, set(pings._later.get(match_id, {})))
            return record

        service.get = get
        try:
            await looked_away(fake)
            await fake.settle()
        finally:
            del service.get
        assert not armed and waiter.done() and waiter.exception() is None
    fake.assert_clean()
