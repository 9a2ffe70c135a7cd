"""Paces, deadlines, reminders and timeouts, seen in Discord, on a simulated clock."""

from __future__ import annotations

import pytest

from bot.clock import ManualClock
from bot.store.models import GONE, PRESENT, STANDING_IN, SeatRecord
from cogs.table import presenter_of
from cogs.table.notices import timeout_text
from games import GAMES
from games.toss.state import Roll
from tests.discord.conftest import (
    leave_for_good,
    make_a_move,
    make_bot,
    move_components,
    open_game,
    table_of,
)
from tests.discord.harness import FakeDiscord
from tests.discord.test_toss_your_cookies import move_in_hand, rigged_table

SEED = 7  # a Toss deal in which the rigged turns below win nobody a round


async def start_with_bots(fake: FakeDiscord, bot, host, pace: str, *people) -> str:  # type: ignore[no-untyped-def]
    clock = ManualClock(start=bot.service.clock.now())
    bot.service.clock = bot.scheduler.clock = clock
    await fake.slash(host, "play", game="cover_your_assets")
    lobby = table_of(fake)
    pace_select = next(s for s in lobby.selects() if s["custom_id"].endswith(":_pace"))
    await fake.select(host, lobby, pace_select["custom_id"], [pace])
    assert "Pace" in lobby.text()
    for person in people:
        await fake.click(person, lobby, lobby.find_button("Join"))
    for _ in range(3 - len(people)):
        await fake.click(host, lobby, lobby.find_button("Add bot"))
    await fake.click(host, lobby, lobby.find_button("Start"))
    return lobby.find_button("hand").custom_id.split(":")[2]


async def until_my_turn(fake: FakeDiscord, bot, match_id: str, seat: int, *others) -> None:  # type: ignore[no-untyped-def]
    """Bots and the other people play until ``seat`` must decide."""
    for _ in range(50):
        state = bot.service.load_state(await bot.service.get(match_id))
        if any(d.seat == seat for d in GAMES["cover_your_assets"].decisions(state)):
            return
        for person in others:
            await make_a_move(fake, person)
        await fake.settle()
    raise AssertionError("never my turn")


async def test_a_live_deadline_shows_on_the_table_and_plays_the_default_move(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        match_id = await start_with_bots(fake, bot, ana, "live")
        await until_my_turn(fake, bot, match_id, 0)
        table = table_of(fake)
        assert "Time to move" in table.text() and "Ana — <t:" in table.text()
        version = (await bot.service.get(match_id)).version
        await bot.service.clock.advance(61)
        await fake.settle_with(bot.scheduler.fire_due())
        assert (await bot.service.get(match_id)).version > version
        assert any("Ana ran out of time" in t for t in fake.all_public_text())
    fake.assert_clean()


async def test_async_players_are_reminded_at_half_time_and_near_the_end(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        match_id = await start_with_bots(fake, bot, ana, "async")
        await until_my_turn(fake, bot, match_id, 0)
        await bot.service.clock.advance(12 * 3600)
        await fake.settle_with(bot.scheduler.fire_due())
        reminders = [t for t in fake.all_public_text() if "Reminder" in t]
        assert reminders and ana.mention in reminders[-1] and "<t:" in reminders[-1]
        await bot.service.clock.advance(10 * 3600)
        await fake.settle_with(bot.scheduler.fire_due())
        assert any("Last call" in t and ana.mention in t for t in fake.all_public_text())
        assert (await bot.service.get(match_id)).status == "active"  # not timed out yet
    fake.assert_clean()


async def test_a_bot_stands_in_for_an_absent_live_player_until_they_are_back(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(mod, "settings", on_timeout="bot")
        assert "A bot takes the seat" in fake.last_reply(mod).text()
        match_id = await start_with_bots(fake, bot, ana, "live", ben)
        await until_my_turn(fake, bot, match_id, 0, ben)
        await bot.service.clock.advance(61)
        await fake.settle_with(bot.scheduler.fire_due())
        notice = next(m for m in fake.public_messages() if "plays for them" in m.content)
        assert "Bots standing in" in table_of(fake).text()
        assert (await bot.service.get(match_id)).seats[0].away == 1
        # Midway, Ana comes back and plays her own seat to the end.
        await fake.click(ana, notice, notice.find_button("I'm back"))
        assert "Welcome back" in fake.last_reply(ana).text()
        assert "Bots standing in" not in table_of(fake).text()
        from tests.discord.test_cover_your_assets import play_to_the_end

        await play_to_the_end(fake, [ana, ben])
        assert "Game over" in table_of(fake).text()
        assert (await bot.service.get(match_id)).seats[0].away == 0
    fake.assert_clean()


async def test_settings_are_for_managers_and_spectators_get_a_private_table(fake, db) -> None:
    ana, eve = fake.add_user("ana"), fake.add_user("eve")
    async with fake.running(make_bot(db)) as bot:
        try:
            await fake.slash(ana, "settings", pace="live")
        except PermissionError:
            pass  # Discord hides the command from members without Manage Server
        else:
            assert "Only the host or someone with Manage Server" in fake.last_reply(ana).text()
        match_id = await start_with_bots(fake, bot, ana, "casual")
        table = table_of(fake)
        await fake.click(eve, table, table.find_button("Spectate"))
        private = fake.last_reply(eve)
        assert private.ephemeral and "Cover Your Assets" in private.text()
        assert "nobody is left to play" in (await leave_for_good(fake, ana)).text()
        assert (await bot.service.get(match_id)).status == "cancelled"  # only bots were left
    fake.assert_clean()


async def test_a_match_in_a_thread_of_its_own_reopens_it_when_archived(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "play", game="cover_your_assets", thread=True)
        assert "Your lobby is open in" in fake.last_reply(ana).text()
        assert fake.last_reply(ana).ephemeral
        assert any("join it there" in m.content for m in fake.public_messages())
        thread = fake.channel("🍪 Cover Your Assets · Ana")
        lobby = fake.public_messages(thread)[0]
        await fake.click(ben, lobby, lobby.find_button("Join"))
        await fake.click(ana, lobby, lobby.find_button("Start"))
        assert thread.name == "🍪 Cover Your Assets · Ana, Ben"
        record = await bot.service.store.open_in_channel(thread.id)
        assert record is not None and record.status == "active"
        # Discord archives the idle thread; the next move must reopen it to update the table.
        fake.archive(thread)
        state = bot.service.load_state(record)
        mover = (ana, ben)[GAMES["cover_your_assets"].decisions(state)[0].seat]
        version = record.version
        table = fake.public_messages(thread)[0]
        await fake.click(mover, table, table.find_button("hand"))
        hand = fake.last_reply(mover)
        buttons, selects = move_components(hand)  # a crowded hand shows its moves as selects
        if buttons:
            await fake.click(mover, hand, buttons[0])
        else:
            options = selects[0]["options"]
            await fake.select(mover, hand, selects[0]["custom_id"], [options[0]["value"]])
        assert not thread.archived
        assert (await bot.service.get(record.match_id)).version > version  # (and a forced reply)
        assert "Round 1" in fake.public_messages(thread)[0].text()
        archived = [r for r in fake.rejections if r.code == 50083]
        assert archived  # the first attempt met the archived thread
        for rejection in archived:
            fake.rejections.remove(rejection)
    fake.assert_clean()


async def test_reminders_come_by_dm_for_those_who_ask_and_vacations_show(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "notify", on=True)
        assert "direct message" in fake.last_reply(ana).text()
        match_id = await start_with_bots(fake, bot, ana, "async")
        await until_my_turn(fake, bot, match_id, 0)
        await bot.service.clock.advance(12 * 3600)
        await fake.settle_with(bot.scheduler.fire_due())
        turn, reminder = fake.dms(ana)
        # An async turn comes by DM too, with the way to the table and its deadline.
        assert "It's your move in **Cover Your Assets**" in turn.content
        assert "https://discord.com/channels/" in turn.content and ":R>" in turn.content
        assert "your move in **Cover Your Assets** is waiting" in reminder.content
        await fake.slash(ana, "away", until="2099-01-01")
        assert "limited to 14 days" in fake.last_reply(ana).text()
        back = bot.service.clock.now() + 3 * 86400
        from datetime import UTC, datetime

        day = datetime.fromtimestamp(back, UTC).strftime("%Y-%m-%d")
        await fake.slash(ana, "away", until=day)
        assert "Enjoy" in fake.last_reply(ana).text()
        await fake.slash(ana, "away", until="next tuesday")
        assert "YYYY-MM-DD" in fake.last_reply(ana).text()
        presenter_of(bot).request_refresh(match_id)
        await fake.settle()
        assert "On vacation" in table_of(fake).text()
        await fake.slash(ana, "away")
        assert "Welcome back" in fake.last_reply(ana).text()
    fake.assert_clean()


@pytest.mark.parametrize(
    ("policy", "line"),
    [
        ("default_move", "the default move was played for them"),
        ("bot", "a bot plays for them until they press"),
        ("forfeit", "forfeits; a bot plays their seat to the end"),
    ],
)
async def test_an_async_match_with_an_absent_player_finishes_on_its_own(
    fake, db, policy, line
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(mod, "settings", on_timeout=policy, forfeit_after=2)
        match_id = await start_with_bots(fake, bot, ana, "async")
        # Her first reminder and last call come due before her clock runs out (a last call
        # that comes due with its timeout is never posted: its deadline has passed).
        await bot.service.clock.advance(22 * 3600)
        await fake.settle_with(bot.scheduler.fire_due())
        for _ in range(300):
            if (await bot.service.get(match_id)).status == "finished":
                break
            await bot.service.clock.advance(6 * 3600)
            await fake.settle_with(bot.scheduler.fire_due())
        assert "Game over" in table_of(fake).text()
        said = fake.all_public_text()
        assert any(t.startswith("⏳ Reminder") and ana.mention in t for t in said)
        assert any(t.startswith("⌛ Last call") and ana.mention in t for t in said)
        assert any(line in t for t in said)
    fake.assert_clean()


async def test_a_closed_inbox_never_stops_the_channel_reminder(fake, db) -> None:
    ana = fake.add_user("ana")
    ana.dms_open = False
    async with fake.running(make_bot(db), check_errors=True) as bot:
        await fake.slash(ana, "notify", on=True)
        match_id = await start_with_bots(fake, bot, ana, "async")
        await until_my_turn(fake, bot, match_id, 0)
        await bot.service.clock.advance(12 * 3600)
        await fake.settle_with(bot.scheduler.fire_due())
        assert fake.dms(ana) == []
        assert any(t.startswith("⏳ Reminder") for t in fake.all_public_text())
        refused = [r for r in fake.rejections if r.code == 50007]
        assert refused
        for rejection in refused:
            fake.rejections.remove(rejection)
    fake.assert_clean()


async def test_one_absence_from_a_toss_swap_is_one_missed_turn(fake, db, monkeypatch) -> None:
    """A Swap is three decisions of one seat (a player, the cards to give, the cards to
    take): when Ana's clock runs out on the first, the rest of her turn is played for her
    at once, under one clock, one notice and one missed turn."""
    mod = fake.add_user("mod", manage_guild=True)
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo")]
    ana = people[0]
    later = [Roll(action="left", number="1")] * 5  # the next turns' rolls
    await rigged_table(
        fake, db, monkeypatch, people, Roll(action="swap", number="2"), *later, first=0
    )
    async with fake.running(make_bot(db)) as bot:
        clock = ManualClock(start=bot.service.clock.now())
        bot.service.clock = bot.scheduler.clock = clock
        # A deal her default swap does not make a winning hand of: a won round would end
        # the match, and no timeout is told of a match that is over.
        bot.service.new_seed = lambda: SEED
        await fake.slash(mod, "settings", on_timeout="forfeit", forfeit_after=2)
        await open_game(fake, "toss_your_cookies", *people, choices={"_pace": ["async"]})
        match_id = table_of(fake).find_button("hand").custom_id.split(":")[2]
        assert await move_in_hand(fake, ana)  # she rolls Swap · 2, and is gone
        state = bot.service.load_state(await bot.service.get(match_id))
        assert (state.phase, state.turn) == ("swap_target", 0)
        await clock.advance(25 * 3600)  # one clock of a day, and an hour
        await fake.settle_with(bot.scheduler.fire_due())
        record = await bot.service.get(match_id)
        state = bot.service.load_state(record)
        hers = [a.action.split(".")[0] for a in await bot.service.store.actions(match_id)]
        assert hers[-3:] == ["swap_with", "give", "take"]  # her whole swap, by default
        assert (state.phase, state.turn) == ("roll", 1)  # Ben's turn began
        assert (record.seats[0].missed, record.seats[0].away) == (1, PRESENT)  # not forfeited
        said = [t for t in fake.all_public_text() if "ran out of time" in t]
        assert said == ["⏰ Ana ran out of time, so the default move was played for them."]
        assert "Ana — <t:" not in table_of(fake).text()  # no fresh clock of hers
        calls = [m for m in fake.messages.values() if ana.mention in m.content]
        assert calls and all(m.deleted for m in calls)  # no call on her left up, overdue
        # A day on (Ben's clock ran out meanwhile): a second clock on her Swap would
        # have been her second miss, and the forfeit.
        await clock.advance(24 * 3600)
        await fake.settle_with(bot.scheduler.fire_due())
        ana_seat = (await bot.service.get(match_id)).seats[0]
        assert (ana_seat.missed, ana_seat.away) == (1, PRESENT)
        assert not any("forfeits" in t for t in fake.all_public_text())
    fake.assert_clean()


async def test_seats_timing_out_on_one_pass_share_one_notice(fake, db, monkeypatch) -> None:
    """Ana rolls Pass Left · 1 and passes; Ben, Cleo and Dev let the pass run out together.
    The channel gets one line naming the three, not a line a seat; a timeout a day later,
    of another decision, is a line of its own."""
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo", "dev")]
    ana, ben = people[0], people[1]
    rolls = [Roll(action="left", number="1")] * 6
    await rigged_table(fake, db, monkeypatch, people, *rolls, first=0)
    async with fake.running(make_bot(db)) as bot:
        clock = ManualClock(start=bot.service.clock.now())
        bot.service.clock = bot.scheduler.clock = clock
        bot.service.new_seed = lambda: SEED  # no pass of this deal wins a round
        await open_game(fake, "toss_your_cookies", *people, choices={"_pace": ["async"]})
        match_id = table_of(fake).find_button("hand").custom_id.split(":")[2]
        assert await move_in_hand(fake, ana)  # she rolls
        assert await move_in_hand(fake, ana)  # and passes her card
        await clock.advance(25 * 3600)
        await fake.settle_with(bot.scheduler.fire_due())
        said = [m.content for m in fake.public_messages() if "ran out of time" in m.content]
        assert said == [
            "⏰ Ben, Cleo and Dev ran out of time, so the default move was played for them."
        ]
        state = bot.service.load_state(await bot.service.get(match_id))
        assert (state.phase, state.turn) == ("roll", 1)  # the pass is done: Ben's turn
        # Ben lets his own roll run out a day later: that is news of its own.
        await clock.advance(25 * 3600)
        await fake.settle_with(bot.scheduler.fire_due())
        said = [m.content for m in fake.public_messages() if "ran out of time" in m.content]
        assert said[-1] == "⏰ Ben ran out of time, so the default move was played for them."
        assert len(said) == 2
        assert ben.mention not in " ".join(said)  # told, never pinged
    fake.assert_clean()


@pytest.mark.parametrize(
    ("away", "names", "said"),
    [
        (GONE, ["Ben"], "🏳️ Ben missed 2 turns in a row and forfeits; a bot plays their seat"),
        (
            GONE,
            ["Ben", "Cleo"],
            "🏳️ Ben and Cleo missed 2 turns in a row and forfeit; bots play their seats",
        ),
        (STANDING_IN, ["Ben", "Cleo"], "⏰ Ben and Cleo ran out of time; a bot plays for them"),
    ],
)
def test_a_shared_timeout_notice_reads_for_one_or_many(away: int, names, said: str) -> None:  # type: ignore[no-untyped-def]
    seat = SeatRecord(seat=1, user_id=2, name=names[-1], away=away, missed=2)
    assert timeout_text(seat, names).startswith(said)
