"""Turn pings: off the click's path, a real mention, swept away later, within the rate."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import Change
from cogs.table import presenter_of
from cogs.table.pings import RECENT
from cogs.table.posting import ChannelPace
from cogs.table.sweeps import SWEEP_AFTER
from tests.discord.conftest import make_bot, move_components, open_game, show_hand
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_toss_your_cookies import play_to_the_end


def pings_for(fake: FakeDiscord, user: FakeUser) -> list:  # type: ignore[type-arg]
    return [m for m in fake.public_messages() if user.mention in m.content]


async def first_mover(fake: FakeDiscord, users: list[FakeUser]) -> FakeUser:
    for user in users:
        buttons, selects = move_components(await show_hand(fake, user))
        if buttons or selects:
            return user
    raise AssertionError("nobody can move")


async def test_the_click_is_answered_before_the_next_player_is_pinged(fake: FakeDiscord, db):  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cover_your_assets", ana, ben)
        mover = await first_mover(fake, [ana, ben])
        other = ben if mover is ana else ana
        # Both just clicked (Join, Start, Show hand): nobody is mentioned while they look.
        assert not pings_for(fake, mover) and not pings_for(fake, other)
        await fake.advance(RECENT + 1)  # they look away
        old_pings = pings_for(fake, mover)
        assert len(old_pings) == 1  # the match's first ping
        hand = fake.last_reply(mover)
        buttons, selects = move_components(hand)
        fake.requests.clear()
        if buttons:
            record = await fake.click(mover, hand, buttons[0])
        else:
            values = [selects[0]["options"][0]["value"]]
            record = await fake.select(mover, hand, selects[0]["custom_id"], values)
        paths = [r.path for r in fake.requests]
        answer = paths.index(f"/interactions/{record.id}/{record.token}/callback")
        ping = next(
            i
            for i, r in enumerate(fake.requests)
            if r.method == "POST"
            and r.path.endswith("/messages")
            and other.mention in (r.body or {}).get("content", "")
        )
        assert answer < ping
        # A new message whose content mentions the player (an edit would not notify), and
        # the old ping was swept away once the new one was out.
        assert len(pings_for(fake, other)) == 1 and not pings_for(fake, mover)
        assert old_pings[0].deleted
    fake.assert_clean()


async def test_a_burst_of_moves_pings_once_for_the_person_who_must_act(fake: FakeDiscord, db):  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        await fake.advance(RECENT + 1)  # they look away: the start's ping is posted
        record = await bot.service.store.open_in_channel(fake.general.id)
        record, state = await bot.service._running(record.match_id)
        before = len(fake.requests)
        # Twelve changes in one burst, each making the same player newly wait (as bots'
        # moves in a row would): the ping of the start, not yet answered, is kept and
        # edited; not twelve new ones.
        for _ in range(12):
            change = Change(kind="action", match=record, state=state, previous=None)
            await presenter_of(bot).on_change(change)
        await fake.settle()
        posts = [r for r in fake.requests[before:] if r.method == "POST" and "/messages" in r.path]
        assert not posts
        pings = [m for m in fake.public_messages() if "your move" in m.content]
        assert len(pings) == 1 and not pings[0].deleted
    fake.assert_clean()


async def test_channel_pace_lets_four_messages_through_per_five_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1000.0]
    loop = asyncio.get_running_loop()
    monkeypatch.setattr(loop, "time", lambda: now[0])

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    monkeypatch.setattr(asyncio, "sleep", sleep)
    pace = ChannelPace()
    sent: list[float] = []
    for _ in range(10):
        await pace.wait(42)
        sent.append(now[0])
    await pace.wait(43)  # another channel has its own budget
    assert now[0] == sent[-1]
    assert sent == [1000.0] * 4 + [1005.0] * 4 + [1010.0] * 2
    assert all(sum(1 for t in sent if s <= t < s + 5) <= 4 for s in sent)


async def test_old_pings_go_in_one_call_or_one_by_one_without_manage_messages(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        channel = fake.general.id
        presenter = presenter_of(bot)
        sweeps = presenter.sweeps
        pings = [await presenter.post(channel, f"ping {i}") for i in range(3)]
        for message in pings[:2]:
            sweeps._stale_pings.setdefault(channel, []).append(message.id)
            sweeps._posted[message.id] = asyncio.get_running_loop().time()
        sweeps._sweepers[channel] = bot.spawn(sweeps._sweep(channel), "sweep")
        await asyncio.sleep(0)  # the sweeper starts its wait
        await fake.advance(SWEEP_AFTER + 1)
        bulk = [r for r in fake.requests if r.path.endswith("/bulk-delete")]
        assert len(bulk) == 1 and all(fake.messages[m.id].deleted for m in pings[:2])
        # Without Manage Messages the bulk call is refused: each goes on its own.
        refused = fake.fail("POST", r"/channels/\d+/messages/bulk-delete", 403, 50013, "no")
        more = [await presenter.post(channel, f"again {i}") for i in range(2)]
        sweeps._stale_pings[channel] = [m.id for m in more]
        sweeps._posted.update({m.id: asyncio.get_running_loop().time() for m in more})
        sweeps._sweepers[channel] = bot.spawn(sweeps._sweep(channel), "sweep")
        await asyncio.sleep(0)  # the sweeper starts its wait
        await fake.advance(SWEEP_AFTER + 1)
        assert refused.struck and all(fake.messages[m.id].deleted for m in more)
        assert not fake.messages[pings[2].id].deleted
    assert not fake.error_logs


async def test_no_call_on_anyone_is_left_standing_once_a_match_is_over(fake: FakeDiscord, db):  # type: ignore[no-untyped-def]
    """Ana and Ben play Cookie Chomper to its end. Their turn pings go with it: what stays
    is the table and the result, which names everyone at once."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cookie_chomper", ana, ben, always_ask=False)
        await play_to_the_end(fake, [ana, ben])
        await fake.advance(SWEEP_AFTER + 1)
        calls = [
            m.content
            for m in fake.public_messages()
            if ana.mention in m.content or ben.mention in m.content
        ]
        (result,) = calls
        assert result.startswith("🏁 **Cookie Chomper** is over: 🏆 **")
    fake.assert_clean()


async def test_a_waited_mention_of_someone_who_answered_while_it_came_due_is_dropped(
    fake: FakeDiscord, db
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover = await first_mover(fake, [ana, ben])
        record = await bot.service.store.open_in_channel(fake.general.id)
        match_id = record.match_id
        pings = presenter_of(bot).pings
        waiting = pings._waiters[match_id]  # the mover just clicked: their mention waits
        seat = next(s.seat for s in record.seats if s.user_id == mover.id)
        read = bot.service.get

        async def answered_meanwhile(wanted: str):  # type: ignore[no-untyped-def]
            # The mover answers while the waiting mention's match is being read.
            found = await read(wanted)
            pings.answered(match_id, {seat})
            return found

        bot.service.get = answered_meanwhile
        await fake.advance(RECENT + 1)
        bot.service.get = read
        assert waiting.done() and waiting.exception() is None
        assert not pings_for(fake, mover)
    fake.assert_clean()
