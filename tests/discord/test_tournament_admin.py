"""Running an event through the real discord.py code: the server's organiser role, a
start time that starts the event by itself (across a restart), a click refused while the
event is paused, and a table a player leaves finished and rated with them last."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.service.tournaments import PAUSED
from bot.store.tournament_records import TournamentRecord
from bot.timing import DAY
from tests.discord.conftest import leave_for_good, make_bot, move_components
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser
from tests.discord.test_tournaments import move_on, the_event, use_manual_clock


class PatientDiscord(FakeDiscord):
    async def settle(self, *, timeout: float = 180.0, **options: Any) -> None:
        await super().settle(timeout=timeout, **options)


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


async def settle_all(fake: FakeDiscord, bot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(50):
        await fake.settle()
        await bot.tournaments.idle()
        await fake.settle()
        if not bot.tournaments._tasks:
            return


async def rating_changes_of_match(bot) -> list[TournamentRecord]:  # type: ignore[no-untyped-def]
    return await bot.tournaments.store.tournaments(None, open_only=False)


async def two_people_started(fake: FakeDiscord, bot, mod: FakeUser, *people: FakeUser) -> str:  # type: ignore[no-untyped-def]
    await fake.slash(mod, "tournament create", game="cover_your_assets", format="swiss")
    signup = fake.public_messages()[-1]
    for user in people:
        await fake.click(user, signup, signup.find_button("Join"))
    await fake.click(mod, signup, signup.find_button("Start"))
    await settle_all(fake, bot)
    [event] = await rating_changes_of_match(bot)
    return event.tournament_id


def table_in(fake: FakeDiscord, thread_id: int, button: str = "cj:hand:") -> FakeMessage:
    """The first message of a table's thread with ``button``: the hand button's, or Watch
    for the table message itself (a turn ping has Show hand too)."""
    return next(
        m
        for m in fake.public_messages(fake.channels[thread_id])
        if any((b.custom_id or "").startswith(button) for b in m.buttons())
    )


async def test_the_organiser_role_set_in_settings_runs_events_and_others_are_told(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, cleo, ben = fake.add_user("ana"), fake.add_user("cleo"), fake.add_user("ben")
    role = fake.add_role("Organisers", ana, cleo)
    async with fake.running(make_bot(db)) as bot:
        with pytest.raises(PermissionError):  # Discord hides /settings from Ben
            await fake.slash(ben, "settings", organiser_role=role)
        await fake.slash(mod, "settings", organiser_role=role)
        said = fake.last_reply(mod)
        assert said.ephemeral
        assert f"Tournament organisers: Manage Server and the {role.mention} role" in said.text()

        # Ben holds no such role: one sentence naming it, and no sign-up is posted.
        posted = len(fake.public_messages())
        await fake.slash(ben, "tournament create", game="cover_your_assets", format="swiss")
        refused = fake.last_reply(ben)
        assert refused.ephemeral
        assert refused.text() == (
            f"Only someone with Manage Server or the {role.mention} role can run a tournament here."
        )
        assert len(fake.public_messages()) == posted and await rating_changes_of_match(bot) == []

        # Ana, of the role, runs one; Ben's organiser clicks are refused, Cleo's go.
        await fake.slash(ana, "tournament create", game="cover_your_assets", format="swiss")
        signup = fake.public_messages()[-1]
        assert "Sign-up is open" in signup.text()
        await fake.click(ben, signup, signup.find_button("Join"))
        await fake.click(ben, signup, signup.find_button("Add bot"))
        assert fake.last_reply(ben).ephemeral
        assert f"the {role.mention} role can add bots" in fake.last_reply(ben).text()
        await fake.click(cleo, signup, signup.find_button("Add bot"))
        await fake.click(cleo, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        [event] = await rating_changes_of_match(bot)
        assert event.status == "running" and event.round == 1
        await fake.slash(ben, "tournament pause")
        assert "role can pause the tournament" in fake.last_reply(ben).text()
        await fake.slash(cleo, "tournament pause")
        assert "paused" in fake.last_reply(cleo).text()
        assert (await rating_changes_of_match(bot))[0].status == "paused"
        await fake.slash(cleo, "tournament export")
        assert [a.filename for a in fake.last_reply(cleo).attachments] == [
            "standings.csv",
            "results.csv",
            "audit.csv",
        ]

        # Cleared: the role is nobody special any more.
        await fake.slash(mod, "settings", clear_organiser_role=True)
        assert "Manage Server only" in fake.last_reply(mod).text()
        await fake.slash(cleo, "tournament resume")
        assert "Only the organiser or someone with Manage Server can" in (
            fake.last_reply(cleo).text()
        )
    fake.assert_clean()


async def test_an_event_starts_by_itself_at_its_start_time_after_a_restart(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben, cleo = fake.add_user("ana"), fake.add_user("ben"), fake.add_user("cleo")
    side = fake.add_channel("side")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(
            mod, "tournament create", game="cover_your_assets", format="swiss", starts="soonish"
        )
        assert "Write the start as `in 2h`" in fake.last_reply(mod).text()
        assert await rating_changes_of_match(bot) == []
        await fake.slash(
            mod,
            "tournament create",
            game="cover_your_assets",
            format="swiss",
            starts="in 2h",
            checkin=True,
        )
        signup = fake.public_messages()[-1]
        [event] = await rating_changes_of_match(bot)
        starts = bot.tournaments.config_of(event).starts_at
        assert abs(starts - (time.time() + 7200)) < 600
        assert f"**Starts:** <t:{int(starts)}:F>" in signup.text()
        for user in (ana, ben, cleo):
            await fake.click(user, signup, signup.find_button("Join"))
        for user in (ana, ben):  # Cleo never checks in
            await fake.click(user, signup, signup.find_button("Check in"))
        # A second event, in another channel, that only Ana joins, starting in an hour.
        await fake.slash(
            mod,
            "tournament create",
            game="cover_your_assets",
            format="swiss",
            starts="in 1h",
            channel=side,
        )
        lonely = fake.public_messages(side)[-1]
        await fake.click(ana, lonely, lonely.find_button("Join"))
    # The process stops; it is back two hours later.
    async with fake.running(make_bot(db)) as bot:
        clock = ManualClock(start=starts + 1)
        bot.service.clock = bot.scheduler.clock = clock
        await fake.settle_with(bot.scheduler.fire_due())
        await settle_all(fake, bot)
        found = {e.channel_id: e for e in await rating_changes_of_match(bot)}
        started, called_off = found[fake.general.id], found[side.id]
        assert started.status == "running" and started.round == 1
        assert any("Round 1 pairings" in m.text() for m in fake.public_messages())
        view = await bot.tournaments.view(started.tournament_id)
        assert view.of_user(cleo.id).state == "dropped"  # type: ignore[union-attr]
        assert sorted(view.name(p) for t in view.tables for p in t.seats) == ["Ana", "Ben"]
        assert called_off.status == "cancelled"
        assert fake.public_messages(side)[-1].text() == (
            "✖️ The **Cover Your Assets** tournament was cancelled: it needed at least 2 "
            "players at its start time and had 1."
        )
    fake.assert_clean()


async def test_a_click_at_a_table_of_a_paused_event_is_refused_and_changes_nothing(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        tid = await two_people_started(fake, bot, mod, ana, ben)
        [table] = (await bot.tournaments.view(tid)).tables
        record = await bot.service.get(table.match_id)
        seen = await bot.service.seat_view(table.match_id, None)
        mover = {ana.id: ana, ben.id: ben}[record.seats[min(seen.waiting_on)].user_id]
        await fake.slash(mod, "tournament pause")
        board = table_in(fake, table.thread_id)
        await fake.click(mover, board, board.find_button("hand"))
        hand = fake.last_reply(mover)
        buttons, selects = move_components(hand)
        assert buttons or selects

        async def move() -> None:
            if buttons:
                await fake.click(mover, hand, buttons[0])
            else:
                values = [selects[0]["options"][0]["value"]]
                await fake.select(mover, hand, selects[0]["custom_id"], values)

        await move()
        refused = fake.last_reply(mover)
        assert refused.ephemeral and PAUSED in refused.text()
        assert (await bot.service.get(table.match_id)).version == record.version
        await fake.slash(mod, "tournament resume")
        await move()
        await settle_all(fake, bot)
        assert (await bot.service.get(table.match_id)).version > record.version
    fake.assert_clean()


@pytest.mark.parametrize(
    "dropped",
    [None, "dropped", "disqualified"],
    ids=["leaves", "organiser drops", "organiser disqualifies"],
)
async def test_leaving_a_two_player_table_finishes_it_and_rates_the_leaver_last(
    fake, db, dropped: str | None
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        tid = await two_people_started(fake, bot, mod, ana, ben)
        [table] = (await bot.tournaments.view(tid)).tables
        thread = fake.channels[table.thread_id]
        if dropped:  # by the organiser: Ana loses the table she was playing, at once
            await fake.slash(mod, "tournament player", name="Ana", action=dropped)
            how = "disqualified" if dropped == "disqualified" else "dropped from the tournament"
            said = f"🚪 **Ana** was {how} by the organiser: they lose this table."
            assert said in [m.text() for m in fake.public_messages(thread)]
        else:
            left = await leave_for_good(fake, ana, channel=thread)
            assert "you are last, as a forfeit" in left.text()
        await settle_all(fake, bot)
        assert (await bot.service.get(table.match_id)).status == "finished"
        assert await bot.service.store.timers_of(table.match_id) == []  # no more reminders
        end = next(m for m in fake.public_messages(thread) if "final result" in m.text())
        assert "Ana forfeited." in end.text() and "🏆 **Ben** wins" in end.text()
        view = await bot.tournaments.view(tid)
        [result] = view.results
        assert result.source == "match" and result.gone == [view.of_user(ana.id).entrant]  # type: ignore[union-attr]
        assert view.event.status == "finished" and view.champion().user_id == ben.id  # type: ignore[union-attr]
        rated = await bot.store.ratings_of(fake.guild_id, "cover_your_assets", [ana.id, ben.id])
        assert rated[ben.id].display > 1500 > rated[ana.id].display
        # Its replay ends where play stopped, and says how the match ended.
        await fake.slash(ben, "replay", match=table.match_id)
        page = fake.last_reply(ben)
        for _ in range(100):
            forward = page.buttons()[3]  # ⏩: ten moves or a round on
            if forward.disabled:
                break
            await fake.click(ben, page, forward.custom_id)
            page = fake.last_reply(ben)
        assert "🏳️ Ana forfeited." in page.text()
    fake.assert_clean()


async def test_a_resumed_event_shows_its_tables_deadlines_moved_on_by_the_pause(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        await fake.slash(
            mod, "tournament create", game="cover_your_assets", format="swiss", pace="async"
        )
        signup = fake.public_messages()[-1]
        for user in (ana, ben):
            await fake.click(user, signup, signup.find_button("Join"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        [table] = (await bot.tournaments.view((await the_event(bot)).tournament_id)).tables
        [(seat, due)] = (await bot.service.deadlines(table.match_id)).items()
        record = await bot.service.get(table.match_id)
        mover = {ana.id: ana, ben.id: ben}[record.seats[seat].user_id]
        name = record.seats[seat].name
        assert f"{name} — <t:{int(due)}:R>" in table_in(fake, table.thread_id, "cj:watch:").text()
        await fake.slash(mod, "tournament pause")
        await settle_all(fake, bot)
        paused = table_in(fake, table.thread_id, "cj:watch:").text()
        assert PAUSED in paused and "<t:" not in paused  # no running clock while it is held
        await fake.slash(mover, "games")
        listed = fake.last_reply(mover).text()
        assert "⏸️ paused by its tournament" in listed and "<t:" not in listed
        await move_on(fake, bot, clock, 3 * DAY)
        await fake.slash(mod, "tournament resume")
        await settle_all(fake, bot)
        later = int(due + 3 * DAY)
        assert await bot.service.deadlines(table.match_id) == pytest.approx({seat: due + 3 * DAY})
        shown = table_in(fake, table.thread_id, "cj:watch:").text()
        assert f"{name} — <t:{later}:R>" in shown and PAUSED not in shown
        await fake.slash(mover, "games")
        assert f"**your turn**, due <t:{later}:R>" in fake.last_reply(mover).text()
        # Its reminders, half an hour before the moved clock runs out, name the moved time.
        await move_on(fake, bot, clock, later - clock.now() - 1800)
        thread = fake.channels[table.thread_id]
        said = [m.text() for m in fake.public_messages(thread) if "Time runs out" in m.text()]
        assert said and all(f"Time runs out <t:{later}:R>." in text for text in said)
    fake.assert_clean()
