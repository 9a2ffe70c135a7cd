"""Reminders of one simultaneous decision: one message for every seat still owing, not
one each, naming fewer as they answer and kept until the last of them has."""

from __future__ import annotations

from bot.clock import ManualClock
from cogs.table.sweeps import SWEEP_AFTER
from games.toss.state import Roll
from tests.discord.conftest import make_bot, move_components, open_game, show_hand
from tests.discord.harness import FakeDiscord, FakeMessage
from tests.discord.test_pings_absent import HOUR, tick
from tests.discord.test_toss_your_cookies import enough_rows, rigged_table, roller_of


def calls(fake: FakeDiscord, lead: str) -> list[FakeMessage]:
    """Every public message that starts with ``lead``, kept or swept since."""
    return [m for m in fake.messages.values() if m.content.startswith(lead)]


async def test_a_pass_everyone_owes_is_reminded_in_one_message_swept_when_all_answered(
    fake, db, monkeypatch
) -> None:
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo", "dan")]
    await rigged_table(fake, db, monkeypatch, people, Roll(action="left", number="2"))
    async with fake.running(make_bot(db)) as bot:
        clock = ManualClock(start=bot.service.clock.now())
        bot.service.clock = bot.scheduler.clock = clock
        await open_game(fake, "toss_your_cookies", *people, choices={"_pace": ["async"]})
        roller = await roller_of(bot, fake, people)
        hand = await show_hand(fake, roller)
        await fake.click(roller, hand, move_components(hand)[0][0])  # Roll: all four pass 2
        match_id = (await bot.service.store.open_in_channel(fake.general.id)).match_id
        due = int(min((await bot.service.deadlines(match_id)).values()))
        everyone = " ".join(p.mention for p in people)
        await tick(fake, bot, 12 * HOUR + 1)
        assert [m.content for m in calls(fake, "⏳ Reminder")] == [
            f"⏳ Reminder: {everyone}, your move in **Toss Your Cookies**. "
            f"Time runs out <t:{due}:R>."
        ]
        await tick(fake, bot, 10 * HOUR)
        (last_call,) = calls(fake, "⌛ Last call")
        assert last_call.content == (
            f"⌛ Last call: {everyone}, your move in **Toss Your Cookies**. "
            f"Time runs out <t:{due}:R>."
        )
        await fake.advance(SWEEP_AFTER + 1)
        assert all(m.deleted for m in calls(fake, "⏳ Reminder"))  # the last call took its place

        async def pick(index: int) -> None:
            hand = await show_hand(fake, people[index])
            select = move_components(hand)[1][0]
            await fake.select(people[index], hand, select["custom_id"], enough_rows(select))
            await fake.advance(SWEEP_AFTER + 1)

        await pick(0)
        await pick(1)
        # Two still owe the pass: the last call stays for them, and names only them.
        assert not last_call.deleted
        rest = " ".join(p.mention for p in people[2:])
        assert last_call.content == (
            f"⌛ Last call: {rest}, your move in **Toss Your Cookies**. Time runs out <t:{due}:R>."
        )
        await pick(2)
        assert last_call.content.startswith(f"⌛ Last call: {people[3].mention}, your move")
        await pick(3)  # the last to pass rolls next: the call on the pass is stale all the same
        assert last_call.deleted
        assert len(calls(fake, "⌛ Last call")) == 1 and len(calls(fake, "⏳ Reminder")) == 1
    fake.assert_clean()
