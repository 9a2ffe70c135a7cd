"""Who is pinged: never a seat a bot plays (a stand-in, a forfeit), never twice for one
turn by /remind, never someone away; and what is left of reminders once answered."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.store.models import GONE, PRESENT, STANDING_IN
from cogs.table.pings import RECENT
from cogs.table.sweeps import SWEEP_AFTER
from tests.discord.conftest import make_a_move, make_bot
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_clocks import start_with_bots, until_my_turn

HOUR = 3600.0


def mentions_posted(fake: FakeDiscord, user: FakeUser, since: int = 0) -> list[str]:
    """Every message posted (kept or swept since) that mentions ``user``: a mention
    notifies when it is posted, whatever happens to the message later."""
    return [
        content
        for r in fake.requests[since:]
        if r.method == "POST"
        and r.path.endswith("/messages")
        and user.mention in (content := (r.body or {}).get("content") or "")
    ]


async def tick(fake: FakeDiscord, bot, seconds: float) -> None:  # type: ignore[no-untyped-def]
    await bot.service.clock.advance(seconds)
    await fake.settle_with(bot.scheduler.fire_due())


async def seat_actions(bot, match_id: str, seat: int) -> list:  # type: ignore[no-untyped-def,type-arg]
    return [a for a in await bot.service.store.actions(match_id) if a.seat == seat]


@pytest.mark.parametrize(("policy", "away"), [("bot", STANDING_IN), ("forfeit", GONE)])
async def test_a_seat_a_bot_plays_is_never_pinged_or_reminded(fake, db, policy, away) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(mod, "settings", on_timeout=policy, forfeit_after=1)
        match_id = await start_with_bots(fake, bot, ana, "async", ben)
        await until_my_turn(fake, bot, match_id, 0, ben)
        await tick(fake, bot, 25 * HOUR)
        assert (await bot.service.get(match_id)).seats[0].away == away
        since = len(fake.requests)
        hers = len(await seat_actions(bot, match_id, 0))
        for _ in range(12):
            if (await bot.service.get(match_id)).status != "active":
                break
            if not await make_a_move(fake, ben):
                await tick(fake, bot, 25 * HOUR)
            await fake.settle()
        record = await bot.service.get(match_id)
        # Her seat went on playing (the bot answered for it), and nobody called on her.
        assert len(await seat_actions(bot, match_id, 0)) > hers + 1
        assert mentions_posted(fake, ana, since) == []
        assert record.seats[0].away == away and record.seats[1].away == PRESENT
    fake.assert_clean()


async def test_reminders_are_swept_like_turn_pings_once_answered(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        match_id = await start_with_bots(fake, bot, ana, "async")
        await until_my_turn(fake, bot, match_id, 0)
        await tick(fake, bot, 12 * HOUR)
        await tick(fake, bot, 10 * HOUR)
        await fake.advance(SWEEP_AFTER + 1)

        def calls() -> list[str]:
            return [
                m.content
                for m in fake.public_messages()
                if m.content.startswith(("🎯", "⏳ Reminder", "⌛ Last call"))
            ]

        # Still unanswered: only the latest call on her stays (the last call).
        assert [c[:12] for c in calls()] == ["⌛ Last call:"]
        assert len([t for t in fake.all_public_text() if t.startswith("⏳ Reminder")]) == 1
        await make_a_move(fake, ana)
        await until_my_turn(fake, bot, match_id, 0)
        await fake.advance(SWEEP_AFTER + 1)
        # Answered: the reminders went (her open hand shows her new turn: no new ping).
        assert calls() == []
        assert all(m.deleted for m in fake.messages.values() if "Last call" in m.content)
    fake.assert_clean()


async def test_remind_leaves_alone_who_was_just_pinged_or_is_away(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        match_id = await start_with_bots(fake, bot, ana, "async", ben)
        await until_my_turn(fake, bot, match_id, 1, ana)
        # He pressed Join moments ago: his turn ping waits until he has looked away.
        assert mentions_posted(fake, ben) == []
        await tick(fake, bot, RECENT)
        await tick(fake, bot, 120)
        assert len(mentions_posted(fake, ben)) == 1  # his turn ping
        since = len(fake.requests)
        await fake.slash(ana, "remind")
        assert fake.last_reply(ana).text() == "Nobody reminded. Ben was pinged 2 minutes ago."
        await tick(fake, bot, HOUR)
        await fake.slash(ana, "remind")  # an hour on, a nudge is due
        assert fake.last_reply(ana).text() == "Reminded 1 player in 1 match."
        assert [m[:13] for m in mentions_posted(fake, ben, since)] == ["👋 Nudge from "]
        await tick(fake, bot, HOUR)
        await fake.slash(ben, "away", until=day_after(bot.service.clock.now(), 3))
        until = (await bot.service.user_settings(ben.id)).away_until
        since = len(fake.requests)
        await fake.slash(ana, "remind")
        assert fake.last_reply(ana).text() == (
            f"Nobody reminded. Ben is away until <t:{int(until)}:f>."
        )
        assert mentions_posted(fake, ben, since) == []
    fake.assert_clean()


def day_after(now: float, days: int) -> str:
    return datetime.fromtimestamp(now + days * 86400, UTC).strftime("%Y-%m-%d")
