"""Tournament behaviour through the real discord.py code that the other event tests leave
out: the paged pairings message, threads archived when a round is paired again or the
event is cancelled, the waitlist, the standings cut and My standing."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser
from tests.discord.test_tournaments import (
    PatientDiscord,
    create_event,
    move_on,
    settle_all,
    the_event,
    use_manual_clock,
)


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


def pairings_of(fake: FakeDiscord, round_no: int) -> list[FakeMessage]:
    return [m for m in fake.public_messages() if f"Round {round_no} pairings" in m.text()]


async def test_a_big_round_pages_one_message_and_repair_and_cancel_archive_threads(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    # 42 people: 21 tables, a page more than the 20 lines one page holds. People make no
    # move here, so nothing plays while the test pages through.
    people = [fake.add_user(f"p{n:02d}") for n in range(42)]
    async with fake.running(make_bot(db)) as bot:
        use_manual_clock(bot)
        signup = await create_event(fake, mod, game="cover_your_assets", format="swiss")
        for user in people:
            await fake.click(user, signup, signup.find_button("Join"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        [pairings] = pairings_of(fake, 1)  # one message, not one per page
        labels = [b.label for b in pairings.buttons()]
        assert labels == ["Previous", "Next", "My table"]
        assert pairings.find_button("Previous").disabled
        assert "**T1** " in pairings.text() and "**T20** " in pairings.text()
        assert "**T21** " not in pairings.text() and "Page 1/2" in pairings.text()
        # No hidden information in the custom_ids: the event, the round and the page only.
        assert pairings.find_button("Next").custom_id == f"cj:evp:{event.tournament_id}:1:1:b"

        await fake.click(people[0], pairings, pairings.find_button("Next"))
        assert "**T21** " in pairings.text() and "**T1** " not in pairings.text()
        assert "Page 2/2" in pairings.text() and pairings.find_button("Next").disabled
        assert len(pairings_of(fake, 1)) == 1  # the click edited the message
        await fake.click(people[1], pairings, pairings.find_button("Previous"))
        assert "**T20** " in pairings.text() and "Page 1/2" in pairings.text()
        await fake.click(people[2], pairings, pairings.find_button("My table"))
        assert fake.last_reply(people[2]).ephemeral
        assert "Round 1, table" in fake.last_reply(people[2]).text()

        # Two drop and the round is paired again: 20 tables, one page. The replaced
        # tables' threads are archived, the new ones are open.
        view = await bot.tournaments.view(event.tournament_id)
        old = [t.thread_id for t in view.tables if t.round == 1]
        assert len(old) == 21 and not any(fake.channels[t].archived for t in old)  # type: ignore[index]
        for user in people[-2:]:
            await fake.slash(user, "tournament drop")
        await fake.slash(mod, "tournament repair")
        assert "paired again" in fake.last_reply(mod).text()
        await settle_all(fake, bot)
        assert all(fake.channels[t].archived for t in old)  # type: ignore[index]
        view = await bot.tournaments.view(event.tournament_id)
        new = [t for t in view.tables if t.round == 1]
        assert len(new) == 20 and not {t.thread_id for t in new} & set(old)
        assert not any(fake.channels[t.thread_id].archived for t in new)  # type: ignore[index]
        first, again = pairings_of(fake, 1)  # the new pairing has its own message
        assert [b.label for b in again.buttons()] == ["My table"] and "**T20** " in again.text()

        # The old message's Next leads to a page the round no longer has: a sentence, and
        # the message stays as it was.
        before = first.text()
        await fake.click(people[3], first, first.find_button("Next"))
        reply = fake.last_reply(people[3])
        assert reply.ephemeral and "That page of the pairings is gone" in reply.text()
        assert first.text() == before

        # Cancel: the event and its open matches are cancelled, an audit row, threads closed.
        await fake.slash(people[0], "tournament cancel")
        assert "Only the organiser" in fake.last_reply(people[0]).text()
        await fake.slash(mod, "tournament cancel")
        assert "cancelled" in fake.last_reply(mod).text()
        await settle_all(fake, bot)
        assert (await the_event(bot)).status == "cancelled"
        for table in new:
            assert (await bot.service.get(table.match_id)).status == "cancelled"  # type: ignore[arg-type]
            assert fake.channels[table.thread_id].archived  # type: ignore[index]
        audit = await bot.tournaments.store.audit(event.tournament_id)
        assert [a.action for a in audit][-2:] == ["re-pair", "cancel"]
        assert json.loads(audit[-1].before) == {"status": "running"}
        assert json.loads(audit[-1].after) == {"status": "cancelled"}
        assert audit[-1].actor_id == mod.id
        assert "tournament was cancelled" in fake.public_messages()[-1].text()
        assert "This tournament was cancelled" in signup.text() and not signup.buttons()
    fake.assert_clean()


async def test_the_cancel_button_calls_off_a_sign_up_with_an_audit_row(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(fake, mod, game="cover_your_assets", format="swiss")
        await fake.click(ana, signup, signup.find_button("Join"))
        await fake.click(ana, signup, signup.find_button("Cancel"))
        assert "Only the organiser" in fake.last_reply(ana).text()
        assert (await the_event(bot)).status == "signup"
        await fake.click(mod, signup, signup.find_button("Cancel"))
        assert "You cancelled the tournament" in fake.last_reply(mod).text()
        event = await the_event(bot)
        assert event.status == "cancelled"
        row = (await bot.tournaments.store.audit(event.tournament_id))[-1]
        assert row.action == "cancel" and json.loads(row.before) == {"status": "signup"}
        assert "This tournament was cancelled" in signup.text() and not signup.buttons()
    fake.assert_clean()


async def join_all(fake: FakeDiscord, signup: FakeMessage, users: list[FakeUser]) -> None:
    for user in users:
        await fake.click(user, signup, signup.find_button("Join"))


async def test_the_waitlist_fills_places_in_sign_up_order_on_leave_and_at_the_start(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben, cleo, dev, eve, fay = (
        fake.add_user(n) for n in ("ana", "ben", "cleo", "dev", "eve", "fay")
    )
    async with fake.running(make_bot(db)) as bot:
        use_manual_clock(bot)
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", max_players=3, checkin=True
        )
        await join_all(fake, signup, [ana, ben, cleo])
        await fake.click(dev, signup, signup.find_button("Join"))
        assert "on the waitlist" in fake.last_reply(dev).text()
        await join_all(fake, signup, [eve, fay])
        assert "Entrants (3/3)" in signup.text()
        assert "Waitlist (3)" in signup.text() and "Dev, Eve, Fay" in signup.text()

        # Ben leaves: Dev, the first to wait, takes his place; Eve and Fay still wait.
        await fake.click(ben, signup, signup.find_button("Leave"))
        assert "You left" in fake.last_reply(ben).text()
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert [e.name for e in view.entered] == ["Ana", "Cleo", "Dev"]
        assert [e.name for e in view.waitlist] == ["Eve", "Fay"]
        assert "Waitlist (2)" in signup.text() and "Eve, Fay" in signup.text()

        # Ana and Dev check in, Cleo never does; Eve and Fay, waiting, check in too: at the
        # start Cleo drops and the waitlist fills her place in sign-up order (Eve).
        for user in (ana, dev, eve, fay):
            await fake.click(user, signup, signup.find_button("Check in"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        view = await bot.tournaments.view(event.tournament_id)
        playing = sorted(view.name(p) for t in view.tables if t.round == 1 for p in t.seats)
        byes = [view.name(r.players[0]) for r in view.results if r.kind == "bye"]
        assert sorted(playing + byes) == ["Ana", "Dev", "Eve"]
        assert view.of_user(cleo.id).state == "dropped"  # type: ignore[union-attr]
        assert view.of_user(fay.id).state == "waitlist"  # type: ignore[union-attr]
    fake.assert_clean()


async def test_standings_show_the_top_25_and_my_standing_finds_anyone_further_down(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        use_manual_clock(bot)
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", rounds=1, pace="live"
        )
        await fake.click(ana, signup, signup.find_button("Join"))
        for _ in range(25):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        # Ana's table is the one a person sits at: the organiser decides it, Ana last.
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        [table] = [t for t in view.tables if view.of_user(ana.id).entrant in t.seats]  # type: ignore[union-attr]
        order = " > ".join(sorted((view.name(p) for p in table.seats), key=lambda n: n == "Ana"))
        await fake.slash(mod, "tournament result", order=order)
        await settle_all(fake, bot)
        assert (await the_event(bot)).status == "finished"
        view = await bot.tournaments.view(event.tournament_id)
        assert len(view.standings) == 26

        final = fake.public_messages()[-1]
        assert "final standings" in final.text()
        assert "… and 1 more: My standing shows yours." in final.text()
        shown = [line for line in final.text().splitlines() if line.startswith("**")]
        assert f"**25.** {view.name(view.standings[24].player)}" in final.text()
        assert "**26.**" not in final.text() and len(shown) >= 25

        await fake.click(ana, final, final.find_button("My standing"))
        mine = next(s for s in view.standings if s.player == view.of_user(ana.id).entrant)  # type: ignore[union-attr]
        reply = fake.last_reply(ana)
        assert reply.ephemeral
        assert f"You are **#{mine.rank}** of 26 with **0** points" in reply.text()
        await fake.click(mod, final, final.find_button("My standing"))
        assert "not in this tournament's standings" in fake.last_reply(mod).text()

        await fake.slash(ana, "tournament standings")
        reply = fake.last_reply(ana)
        assert reply.ephemeral and "final standings" in reply.text()
        assert "… and 1 more" in reply.text() and "**25.** " in reply.text()
    fake.assert_clean()


async def test_away_players_get_both_reminders_and_the_deadline_still_draws_their_table(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    day = 86_400
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", pace="async"
        )
        assert "rounds last 14 days" in signup.text()
        await join_all(fake, signup, [ana, ben])
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        start = clock.now()
        # Both go /away until the last day of the round (back 13–14 days from now).
        back = datetime.fromtimestamp(start + 14 * day, UTC).strftime("%Y-%m-%d")
        for user in (ana, ben):
            await fake.slash(user, "away", until=back)
            assert "Enjoy!" in fake.last_reply(user).text()
        event = await the_event(bot)
        [table] = (await bot.tournaments.view(event.tournament_id)).tables
        thread = fake.channels[table.thread_id]  # type: ignore[index]

        def reminders() -> list[str]:
            return [m.content for m in fake.public_messages(thread) if "Round 1 ends" in m.text()]

        await move_on(fake, bot, clock, 7 * day - 60)
        assert reminders() == []
        await move_on(fake, bot, clock, 61)
        assert len(reminders()) == 1  # half time
        await move_on(fake, bot, clock, 6 * day - 61)
        assert len(reminders()) == 1
        await move_on(fake, bot, clock, 61)
        assert len(reminders()) == 2  # 24 hours before the end
        assert all(ana.mention in text and ben.mention in text for text in reminders())
        # Thirteen days and not one move clock ran out: they stopped while both were away.
        record = await bot.service.get(table.match_id)  # type: ignore[arg-type]
        assert record.status == "active" and [s.missed for s in record.seats] == [0, 0]

        # The round's deadline did not stop: the table is drawn on time and the event ends.
        await move_on(fake, bot, clock, start + 14 * day + 1 - clock.now())
        view = await bot.tournaments.view(event.tournament_id)
        [result] = view.results
        assert result.source == "adjudicated" and result.places == [1, 1]
        assert view.event.status == "finished"
    fake.assert_clean()
