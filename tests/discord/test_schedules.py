"""Recurring events through the real discord.py code on a moved clock: a weekly event made
four times across a summer-time change and a restart, published in the server's Events
through Discord's scheduled-event routes, its Interested pinged, check-in dropping a
no-show; the organiser's skip, edit, list and end; and every refusal, nothing made."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import discord
import pytest

from bot.clock import ManualClock
from games.core.translations import language_for, weekday_name
from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord
from tests.discord.test_onboarding import restrict_bot
from tests.discord.test_tournaments import PatientDiscord, settle_all

BERLIN = ZoneInfo("Europe/Berlin")
# Monday 11 October 2027: Fridays at 20:00 in Berlin are 18:00 UTC until the clocks go
# back on Sunday 31 October, then 19:00 UTC.
MONDAY = datetime(2027, 10, 11, 10, 0, tzinfo=UTC).timestamp()
WEEKLY = {
    "game": "cover_your_assets",
    "format": "swiss",
    "days": "fri",
    "time": "20:00",
    "zone": "Europe/Berlin",
    "signup_hours": 24,
    "checkin_minutes": 15,
}


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


def on_clock(fake: FakeDiscord, bot, start: float) -> ManualClock:  # type: ignore[no-untyped-def]
    clock = ManualClock(start=start)
    bot.service.clock = bot.scheduler.clock = clock
    fake.scheduled_now = clock.now
    return clock


async def advance_to(fake: FakeDiscord, bot, clock: ManualClock, when: float) -> None:  # type: ignore[no-untyped-def]
    await clock.advance(when - clock.now())
    await fake.settle_with(bot.scheduler.fire_due())
    await settle_all(fake, bot)


def local(moment: float) -> datetime:
    return datetime.fromtimestamp(moment, BERLIN)


def only_event(fake: FakeDiscord) -> dict:  # type: ignore[type-arg]
    [event] = fake.scheduled_events.values()
    return event


def starts(event: dict) -> float:  # type: ignore[type-arg]
    return datetime.fromisoformat(event["scheduled_start_time"]).timestamp()


async def tournaments(bot) -> list:  # type: ignore[no-untyped-def,type-arg]
    found = await bot.tournaments.store.tournaments(None, open_only=False)
    return sorted(found, key=lambda e: e.created_at)


def requests_to(fake: FakeDiscord, method: str) -> list:  # type: ignore[type-arg]
    return [r for r in fake.requests if r.method == method and "/scheduled-events" in r.path]


async def test_a_weekly_event_is_made_four_times_across_summer_time_and_a_restart(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben, cleo, dev = (fake.add_user(n) for n in ("ana", "ben", "cleo", "dev"))
    async with fake.running(make_bot(db)) as bot:
        clock = on_clock(fake, bot, MONDAY)
        await fake.slash(mod, "tournament schedule create", **WEEKLY)
        answer = fake.last_reply(mod)
        assert answer.ephemeral and "📅 Scheduled" in answer.text()
        await advance_to(fake, bot, clock, clock.now())
        # Announced: a Discord scheduled event at Friday 20:00 Berlin, and a line here.
        first = only_event(fake)
        assert local(starts(first)).strftime("%a %H:%M") == "Fri 20:00"
        assert first["entity_type"] == 3 and first["status"] == 1
        assert first["entity_metadata"]["location"] == "#general"
        announced = fake.public_messages()[-1]
        assert f"<t:{int(starts(first))}:F>" in announced.content
        assert "Interested" in announced.content
        fake.press_interested(ana, int(first["id"]))
        fake.press_interested(ben, int(first["id"]))

        # Sign-up opens 24 hours before: the event exists, the Interested are pinged.
        friday = starts(first)
        await advance_to(fake, bot, clock, friday - 24 * 3600)
        [event] = await tournaments(bot)
        assert event.status == "signup"
        ping = fake.public_messages()[-1]
        assert "Sign-up is open" in ping.content
        assert ana.mention in ping.content and ben.mention in ping.content
        assert dev.mention not in ping.content
        signup = fake.public_messages()[-2]
        assert "Sign-up is open" in signup.text() and "Check-in:" in signup.text()
        for user in (ana, ben, cleo):
            await fake.click(user, signup, signup.find_button("Join"))
        # Check-in opens 15 minutes before, not sooner.
        await fake.click(ana, signup, signup.find_button("Check in"))
        assert "Check-in opens" in fake.last_reply(ana).text()
        await advance_to(fake, bot, clock, friday - 15 * 60)
        call = fake.public_messages()[-1]
        assert "Check-in is open" in call.content
        assert all(u.mention in call.content for u in (ana, ben, cleo))
        for user in (ana, ben):
            await fake.click(user, signup, signup.find_button("Check in"))
            assert "checked in" in fake.last_reply(user).text().lower()

        # The start: Cleo, who never checked in, is dropped; the scheduled event is active.
        await advance_to(fake, bot, clock, friday)
        event = (await tournaments(bot))[0]
        assert event.status == "running"
        entrants = await bot.tournaments.store.entrants(event.tournament_id)
        assert {e.name: e.state for e in entrants} == {
            "Ana": "entered",
            "Ben": "entered",
            "Cleo": "dropped",
        }
        assert fake.scheduled_events[int(first["id"])]["status"] == 2
        # The next Friday is announced as the first starts.
        second = next(e for e in fake.scheduled_events.values() if e["id"] != first["id"])
        assert starts(second) == friday + 7 * 86_400
        await fake.slash(mod, "tournament end", channel=fake.general)
        await settle_all(fake, bot)
        assert fake.scheduled_events[int(first["id"])]["status"] == 3  # completed
        saturday = friday + 86_400

    # The bot is down from Saturday to after the second sign-up was due: at start it
    # opens that sign-up, once.
    async with fake.running(make_bot(db)) as bot:
        clock = on_clock(fake, bot, second_signup := starts(second) - 20 * 3600)
        assert second_signup > saturday
        await advance_to(fake, bot, clock, clock.now())
        await advance_to(fake, bot, clock, clock.now() + 60)
        made = await tournaments(bot)
        assert len(made) == 2 and made[1].status == "signup"
        assert sum("Sign-up is open for" in m.content for m in fake.public_messages()) == 2
        # Nobody joins: at its start the event is called off and its scheduled event goes.
        await advance_to(fake, bot, clock, starts(second))
        assert (await tournaments(bot))[1].status == "cancelled"
        assert int(second["id"]) not in fake.scheduled_events
        assert requests_to(fake, "DELETE")
        third = next(e for e in fake.scheduled_events.values() if e["status"] == 1)
        assert local(starts(third)).strftime("%a %d %H:%M") == "Fri 29 20:00"

        # The organiser moves the series to 21:00: the announced one moves with it.
        await fake.slash(mod, "tournament schedule edit", time="21:00")
        assert "Schedule changed" in fake.last_reply(mod).text()
        moved = fake.scheduled_events[int(third["id"])]
        assert local(starts(moved)).strftime("%a %d %H:%M") == "Fri 29 21:00"
        assert requests_to(fake, "PATCH")
        await fake.slash(mod, "tournament schedule list")
        listed = fake.last_reply(mod).text()
        assert "Cover Your Assets" in listed and "21:00 Europe/Berlin" in listed

        # The third and, after the clocks went back, the fourth: 21:00 in Berlin both.
        for _ in range(2):  # the third and the fourth
            current = next(e for e in fake.scheduled_events.values() if e["status"] == 1)
            await advance_to(fake, bot, clock, starts(current) - 24 * 3600)
            event = (await tournaments(bot))[-1]
            signup = next(m for m in fake.public_messages() if m.id == event.message_id)
            for user in (ana, dev):
                await fake.click(user, signup, signup.find_button("Join"))
            await advance_to(fake, bot, clock, starts(current) - 15 * 60)
            for user in (ana, dev):
                await fake.click(user, signup, signup.find_button("Check in"))
            await advance_to(fake, bot, clock, starts(current))
            assert (await tournaments(bot))[-1].status == "running"
            await fake.slash(mod, "tournament end", channel=fake.general)
            await settle_all(fake, bot)
            assert fake.scheduled_events[int(current["id"])]["status"] == 3
        made = await tournaments(bot)
        assert len(made) == 4
        at = [bot.tournaments.config_of(e).starts_at for e in made]
        begun = [local(moment) for moment in at]
        assert [b.strftime("%d %H:%M") for b in begun] == [
            "15 20:00",
            "22 20:00",
            "29 21:00",
            "05 21:00",
        ]
        # Summer time, then winter time: the same local hour, an hour apart in UTC.
        utc = [datetime.fromtimestamp(moment, UTC).hour for moment in at[2:]]
        assert utc == [19, 20]
        await fake.slash(mod, "tournament schedule end")
        assert "ended" in fake.last_reply(mod).text()
        # The fifth was announced when the fourth started; ending the series removes it.
        assert all(e["status"] == 3 for e in fake.scheduled_events.values())
    fake.assert_clean()


async def test_the_organiser_skips_one_and_ends_the_series(fake, db) -> None:
    mod, ana = fake.add_user("mod", manage_guild=True), fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        clock = on_clock(fake, bot, MONDAY)
        await fake.slash(mod, "tournament schedule create", **{**WEEKLY, "days": "tue, fri"})
        await advance_to(fake, bot, clock, clock.now())
        tuesday = only_event(fake)
        assert local(starts(tuesday)).strftime("%a %H:%M") == "Tue 20:00"
        await fake.slash(ana, "tournament schedule skip")
        assert "Only someone with Manage Server" in fake.last_reply(ana).text()
        await fake.slash(mod, "tournament schedule skip")
        assert "Skipped" in fake.last_reply(mod).text()
        await advance_to(fake, bot, clock, clock.now())
        friday = only_event(fake)  # Tuesday's is gone, Friday's announced
        assert local(starts(friday)).strftime("%a %H:%M") == "Fri 20:00"
        assert "will not take place" in fake.public_messages()[-2].content
        # Skipped while its sign-up is open: the event is cancelled, the next announced.
        await advance_to(fake, bot, clock, starts(friday) - 3600)
        assert (await tournaments(bot))[-1].status == "signup"
        await fake.slash(mod, "tournament schedule skip")
        await advance_to(fake, bot, clock, clock.now())
        assert (await tournaments(bot))[-1].status == "cancelled"
        assert int(friday["id"]) not in fake.scheduled_events
        following = only_event(fake)
        assert local(starts(following)).strftime("%a %H:%M") == "Tue 20:00"
        await fake.slash(mod, "tournament schedule end")
        assert fake.scheduled_events == {}
        await advance_to(fake, bot, clock, clock.now() + 14 * 86_400)
        assert len(await tournaments(bot)) == 1  # nothing more made
        await fake.slash(mod, "tournament schedule list")
        assert "None yet." in fake.last_reply(mod).text()
    fake.assert_clean()


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"days": "2027-10-01"}, "That date and time have passed"),
        ({"zone": "Mars/Olympus"}, "There is no time zone called 'Mars/Olympus'"),
        ({"time": "25:00"}, "Write the time of day as `20:00`"),
        ({"days": "someday"}, "Write the days as weekdays"),
        ({"checkin_minutes": 1440, "signup_hours": 2}, "Check-in must open after sign-up"),
    ],
)
async def test_a_bad_schedule_is_refused_in_one_sentence_and_nothing_is_made(
    fake, db, changes, said
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        clock = on_clock(fake, bot, MONDAY)
        await fake.slash(mod, "tournament schedule create", **{**WEEKLY, **changes})
        answer = fake.last_reply(mod)
        assert answer.ephemeral and said in answer.text() and answer.text().count("\n") == 0
        await advance_to(fake, bot, clock, clock.now() + 8 * 86_400)
        assert await bot.store.schedules(fake.guild_id) == []
        assert fake.scheduled_events == {} and await tournaments(bot) == []
    fake.assert_clean()


async def test_a_schedule_is_refused_to_a_member_and_without_manage_events(
    fake, db, monkeypatch
) -> None:
    mod, ana = fake.add_user("mod", manage_guild=True), fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        on_clock(fake, bot, MONDAY)
        await fake.slash(ana, "tournament schedule create", **WEEKLY)
        assert fake.last_reply(ana).text() == (
            "Only someone with Manage Server can schedule tournaments here."
        )
        granted = discord.Permissions.text() | discord.Permissions(view_channel=True)
        restrict_bot(monkeypatch, granted)
        await fake.slash(mod, "tournament schedule create", **WEEKLY)
        said = fake.last_reply(mod).text()
        assert said.startswith("I can't publish events here: I'm missing **Manage Events**.")
        assert await bot.store.schedules(fake.guild_id) == []
    fake.assert_clean()


def test_the_offline_discord_refuses_what_discord_refuses_of_a_scheduled_event() -> None:
    """The routes' own checks, called as discord.py would call them."""
    import asyncio

    async def run() -> None:
        fake = FakeDiscord()
        fake.scheduled_now = lambda: MONDAY
        start = datetime.fromtimestamp(MONDAY + 3600, UTC).isoformat()
        end = datetime.fromtimestamp(MONDAY + 7200, UTC).isoformat()
        good = {
            "name": "Game night",
            "privacy_level": 2,
            "entity_type": 3,
            "entity_metadata": {"location": "#general"},
            "scheduled_start_time": start,
            "scheduled_end_time": end,
        }
        path = f"https://discord.com/api/v10/guilds/{fake.guild_id}/scheduled-events"
        made = await fake._answer("POST", path, good, None, [])
        assert made.status == 200
        event_id = made.payload["id"]
        no_end = {k: v for k, v in good.items() if k != "scheduled_end_time"}
        refused = await fake._answer("POST", path, no_end, None, [])
        assert refused.status == 400
        past = {
            **good,
            "scheduled_start_time": datetime.fromtimestamp(MONDAY - 60, UTC).isoformat(),
        }
        assert (await fake._answer("POST", path, past, None, [])).status == 400
        back = await fake._answer("PATCH", f"{path}/{event_id}", {"status": 3}, None, [])
        assert back.status == 400  # SCHEDULED cannot go straight to COMPLETED
        assert (
            await fake._answer("PATCH", f"{path}/{event_id}", {"status": 2}, None, [])
        ).status == 200
        assert (
            await fake._answer("PATCH", f"{path}/{event_id}", {"status": 3}, None, [])
        ).status == 200
        assert (await fake._answer("DELETE", f"{path}/{event_id}", None, None, [])).status == 204

    asyncio.run(run())


async def test_a_schedule_without_a_zone_takes_the_servers_from_settings(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        clock = on_clock(fake, bot, MONDAY)
        await fake.slash(mod, "settings")
        assert "**Time zone:** UTC (the default)" in fake.last_reply(mod).text()
        await fake.slash(mod, "settings", time_zone="Nowhere/Atlantis")
        assert "There is no time zone called 'Nowhere/Atlantis'" in fake.last_reply(mod).text()
        await fake.slash(mod, "settings", time_zone="Asia/Seoul")
        assert "✅ Time zone: Asia/Seoul." in fake.last_reply(mod).text()
        weekly = {k: v for k, v in WEEKLY.items() if k != "zone"}
        await fake.slash(mod, "tournament schedule create", **weekly)
        await advance_to(fake, bot, clock, clock.now())
        seoul = datetime.fromtimestamp(starts(only_event(fake)), ZoneInfo("Asia/Seoul"))
        assert seoul.strftime("%a %H:%M") == "Fri 20:00"
    fake.assert_clean()


async def test_an_edit_turns_check_in_on_and_a_started_one_is_not_skipped(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        clock = on_clock(fake, bot, MONDAY)
        await fake.slash(mod, "tournament schedule create", **{**WEEKLY, "checkin_minutes": 0})
        await advance_to(fake, bot, clock, clock.now())
        await fake.slash(mod, "tournament schedule edit", checkin_minutes=10)
        friday = starts(only_event(fake))
        await advance_to(fake, bot, clock, friday - 24 * 3600)
        [event] = await tournaments(bot)
        config = bot.tournaments.config_of(event)
        assert config.checkin and config.checkin_opens == friday - 600
        # The organiser starts it early with two bots: it can no longer be skipped.
        signup = next(m for m in fake.public_messages() if m.id == event.message_id)
        for _ in range(2):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        # Active as soon as it started (and completed once the bots played it out).
        statuses = [r.body["status"] for r in requests_to(fake, "PATCH") if "status" in r.body]
        assert statuses[0] == 2 and only_event(fake)["status"] in (2, 3)
        await fake.slash(mod, "tournament schedule skip")
        assert fake.last_reply(mod).text() == (
            "The next one has already started: /tournament end or cancel stops it."
        )
        assert (await tournaments(bot))[0].status in ("running", "finished")
    fake.assert_clean()


async def test_an_occurrence_missed_while_the_bot_was_down_is_called_off_once(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        clock = on_clock(fake, bot, MONDAY)
        await fake.slash(mod, "tournament schedule create", **WEEKLY)
        await advance_to(fake, bot, clock, clock.now())
        missed = only_event(fake)
    # Down from Monday to Saturday: the Friday's sign-up and start both passed meanwhile.
    async with fake.running(make_bot(db)) as bot:
        clock = on_clock(fake, bot, starts(missed) + 86_400)
        for _ in range(2):  # a second pass finds nothing more to do
            await advance_to(fake, bot, clock, clock.now())
        said = [m.content for m in fake.public_messages() if "will not take place" in m.content]
        assert said == [
            f"✖️ The **Cover Your Assets** tournament of <t:{int(starts(missed))}:F> will not "
            "take place: the bot was offline when its sign-up was due."
        ]
        assert await tournaments(bot) == []
        following = only_event(fake)  # the missed one deleted, the next Friday announced
        assert starts(following) == starts(missed) + 7 * 86_400
    fake.assert_clean()


async def test_a_sign_up_discord_refuses_to_post_leaves_the_event_standing(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        clock = on_clock(fake, bot, MONDAY)
        await fake.slash(mod, "tournament schedule create", **WEEKLY)
        await advance_to(fake, bot, clock, clock.now())
        friday = starts(only_event(fake))
        path = rf"/channels/{fake.general.id}/messages"
        fault = fake.fail("POST", path, 403, 50013, "Missing Permissions", times=1)
        await advance_to(fake, bot, clock, friday - 24 * 3600)
        assert len(fault.struck) == 1
        [event] = await tournaments(bot)
        assert event.status == "signup" and event.message_id is None
        # Nobody could join: at its start it is called off, and the series goes on, with
        # no error logged on the way.
        await advance_to(fake, bot, clock, friday)
        assert (await tournaments(bot))[0].status == "cancelled"
        assert starts(only_event(fake)) == friday + 7 * 86_400
    fake.assert_clean()


# --- an organiser's own language ------------------------------------------------------------
# The days each language's organiser types for Monday and Thursday, and how the schedule's
# line names them back in that language.
TYPED_DAYS = [
    ("ko", "월, 목", "매주 월요일 및 목요일"),
    ("ko", "월요일과 목요일", "매주 월요일 및 목요일"),
    ("ja", "月曜日、木曜日", "毎週月曜日、木曜日"),
    ("ja", "月・木", "毎週月曜日、木曜日"),
    ("es", "Lunes y Jueves", "cada lunes y jueves"),
    ("es", "lun, JUÉ", "cada lunes y jueves"),
    ("pt-BR", "segunda, quinta", "segunda-feira e quinta-feira, toda semana"),
    ("pt-BR", "seg., QUI.", "segunda-feira e quinta-feira, toda semana"),
    ("en-GB", "mon, thu", "every Monday and Thursday"),
]


@pytest.mark.parametrize(("locale", "typed", "shown"), TYPED_DAYS)
async def test_an_organiser_types_days_in_their_language_and_reads_them_back_in_it(
    fake, db, locale, typed, shown
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    mod.locale = locale
    async with fake.running(make_bot(db)) as bot:
        on_clock(fake, bot, MONDAY)
        await fake.slash(mod, "tournament schedule create", **{**WEEKLY, "days": typed})
        [made] = await bot.store.schedules(fake.guild_id)
        assert made.days == [0, 3]
        await fake.slash(mod, "tournament schedule list")
        assert shown in fake.last_reply(mod).text()
        await fake.slash(mod, "tournament schedule edit", days="fri")
        assert weekday_name(4, language_for(locale)) in fake.last_reply(mod).text()
        [changed] = await bot.store.schedules(fake.guild_id)
        assert changed.days == [4]
    fake.assert_clean()
