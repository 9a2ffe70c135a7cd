"""A community's first tournament night: what the organiser and players read at each step
says what happened and what to do next."""

from __future__ import annotations

import re

import pytest

from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_tournaments import (
    PatientDiscord,
    create_event,
    settle_all,
    use_manual_clock,
)


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


async def a_started_swiss(fake: FakeDiscord, bot, mod: FakeUser, *players: FakeUser) -> None:  # type: ignore[no-untyped-def]
    """A Cover Your Assets Swiss the players signed up to, started by ``mod``, its first
    round's tables open."""
    signup = await create_event(fake, mod, game="cover_your_assets", format="swiss")
    for user in players:
        await fake.click(user, signup, signup.find_button("Join"))
    await fake.click(mod, signup, signup.find_button("Start"))
    await settle_all(fake, bot)


async def test_start_with_players_not_checked_in_says_who_is_missing_and_what_to_do(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", pace="live", checkin=True
        )
        for user in (ana, ben):
            await fake.click(user, signup, signup.find_button("Join"))
        # Two signed up, listed on the embed, but nobody checked in: not "there are 0".
        await fake.click(mod, signup, signup.find_button("Start"))
        assert fake.last_reply(mod).text() == (
            "A tournament needs at least 2 players checked in; there are 0 (2 more players "
            "signed up but have not checked in: they press **Check in**). Add bots or wait."
        )
        await fake.click(ana, signup, signup.find_button("Check in"))
        await fake.click(mod, signup, signup.find_button("Start"))
        assert fake.last_reply(mod).text() == (
            "A tournament needs at least 2 players checked in; there is 1 (1 more player "
            "signed up but has not checked in: they press **Check in**). Add bots or wait."
        )
        await fake.click(ben, signup, signup.find_button("Check in"))
        await fake.click(mod, signup, signup.find_button("Start"))
        assert "round 1 is paired" in fake.last_reply(mod).text()
        await settle_all(fake, bot)
    fake.assert_clean()


async def test_a_two_player_swiss_says_one_round_not_one_rounds(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)):
        signup = await create_event(fake, mod, game="cover_your_assets", format="swiss")
        assert "**Format:** Swiss (2 players a table), 1 round\n" in signup.text()
        assert "1 rounds" not in signup.text()
    fake.assert_clean()


async def test_a_disqualified_player_reads_as_disqualified_in_the_standings(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    cleo, dev = fake.add_user("cleo"), fake.add_user("dev")
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", pace="casual", rounds=3
        )
        for user in (cleo, dev):
            await fake.click(user, signup, signup.find_button("Join"))
        for _ in range(2):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        await fake.slash(mod, "tournament player", name="Cleo", action="disqualified")
        await fake.slash(dev, "tournament player", name="Dev", action="dropped")
        await fake.slash(mod, "tournament player", name="Dev", action="dropped")
        await settle_all(fake, bot)
        await fake.slash(cleo, "tournament standings")
        text = fake.last_reply(cleo).text()
        assert "Cleo *(disqualified)*" in text and "Cleo *(dropped)*" not in text
        assert "Dev *(dropped)*" in text
    fake.assert_clean()


async def test_a_bye_in_an_elimination_bracket_is_told_in_the_pairings_and_my_table(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    people = [fake.add_user(name) for name in ("ana", "ben", "cleo")]
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="single_elimination", pace="live"
        )
        for user in people:
            await fake.click(user, signup, signup.find_button("Join"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        # Three players: two meet in round 1, the third goes through to the final.
        pairings = next(m for m in fake.public_messages() if "Round 1 pairings" in m.text())
        table = next(x for x in pairings.text().splitlines() if x.startswith("**T1**"))
        seated = [u for u in people if u.display_name in table]
        waiting = next(u for u in people if u not in seated)
        line = f"⏳ {waiting.display_name} waits for an opponent to come through"
        assert line in pairings.text()
        await fake.click(waiting, pairings, pairings.find_button("My table"))
        assert fake.last_reply(waiting).text() == (
            "⏳ You have no match in round 1: you are still in, and wait for an opponent to "
            "come through. The pairings show the bracket."
        )
        await fake.click(seated[0], pairings, pairings.find_button("My table"))
        assert "Round 1, table 1 with" in fake.last_reply(seated[0]).text()
    fake.assert_clean()


async def test_a_second_open_event_in_a_channel_is_refused_so_the_first_stays_in_reach(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await a_started_swiss(fake, bot, mod, ana, ben)
        event = (await bot.tournaments.store.tournaments(None, open_only=True))[0]
        posted = len(fake.public_messages())
        # A second event here would take every /tournament command of this channel.
        await fake.slash(mod, "tournament create", game="toss_your_cookies", format="pods")
        assert fake.last_reply(mod).text() == (
            "This channel already has an open Cover Your Assets tournament (event "
            f"{event.tournament_id}), and /tournament here goes to it. Finish or cancel it "
            "first, or create the new one in another channel."
        )
        assert len(fake.public_messages()) == posted
        assert len(await bot.tournaments.store.tournaments(None, open_only=False)) == 1
        await fake.slash(mod, "tournament pause")
        assert "paused" in fake.last_reply(mod).text()
        # Once it is over, the channel takes a new one.
        await fake.slash(mod, "tournament cancel")
        await settle_all(fake, bot)
        await create_event(fake, mod, game="toss_your_cookies", format="pods")
    fake.assert_clean()


async def test_the_standings_asked_during_sign_up_say_so_not_round_0(fake, db) -> None:
    mod, ana = fake.add_user("mod", manage_guild=True), fake.add_user("ana")
    async with fake.running(make_bot(db)):
        signup = await create_event(fake, mod, game="toss_your_cookies", format="pods")
        await fake.click(ana, signup, signup.find_button("Join"))
        await fake.slash(ana, "tournament standings")
        text = fake.last_reply(ana).text()
        assert "standings before round 1" in text and "round 0" not in text
        assert "Sign-up is open: nothing is played until the organiser presses **Start**." in text
    fake.assert_clean()


async def test_repair_while_paused_says_to_resume_not_that_there_is_no_round(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await a_started_swiss(fake, bot, mod, ana, ben)
        await fake.slash(mod, "tournament pause")
        await fake.slash(mod, "tournament repair")
        assert fake.last_reply(mod).text() == "The tournament is paused: /tournament resume first."
        await fake.slash(mod, "tournament resume")
        await fake.slash(mod, "tournament repair")
        assert "paired again" in fake.last_reply(mod).text()
        await settle_all(fake, bot)
    fake.assert_clean()


def notified(fake: FakeDiscord, channel_id: int) -> list[str]:
    """The user ids each message posted in the channel notifies, in order: its mentions
    that its allowed mentions let through."""
    found = []
    for request in fake.requests:
        if request.method != "POST" or request.path != f"/channels/{channel_id}/messages":
            continue
        body = request.body or {}
        mentioned = re.findall(r"<@!?(\d+)>", str(body.get("content") or ""))
        allowed = body.get("allowed_mentions") or {"parse": ["users"]}
        found += [
            uid
            for uid in mentioned
            if "users" in allowed.get("parse", []) or uid in map(str, allowed.get("users", []))
        ]
    return found


async def test_a_table_opening_notifies_each_player_once(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await a_started_swiss(fake, bot, mod, ana, ben)
        event = (await bot.tournaments.store.tournaments(None, open_only=True))[0]
        (table,) = (await bot.tournaments.view(event.tournament_id)).tables
        thread = fake.channels[table.thread_id]  # type: ignore[index]
        texts = [m.content for m in fake.public_messages(thread)]
        # The first player's turn ping and the announcement both name them...
        assert any("your move in" in t for t in texts)
        announcement = next(t for t in texts if "your match is on" in t)
        assert ana.mention in announcement and ben.mention in announcement
        # ...but each person's phone buzzes once.
        assert sorted(notified(fake, thread.id)) == sorted([str(ana.id), str(ben.id)])
    fake.assert_clean()


async def test_commands_reach_the_open_event_not_one_cancelled_the_same_second(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        use_manual_clock(bot)  # the clock stands still: every event is made the same second
        for _ in range(5):  # the organiser tries options, cancelling each sign-up
            await create_event(fake, mod, game="cover_your_assets", format="swiss")
            await fake.slash(mod, "tournament cancel")
            assert fake.last_reply(mod).text() == "✖️ The tournament is cancelled."
        await create_event(fake, mod, game="toss_your_cookies", format="pods")
        await fake.slash(mod, "tournament standings")
        assert "Toss Your Cookies · standings before round 1" in fake.last_reply(mod).text()
    fake.assert_clean()


@pytest.mark.parametrize("tool", ["cancel", "end", "repair", "result"])
async def test_a_fellow_organiser_of_the_role_closes_tables_they_did_not_open(
    fake, db, tool
) -> None:
    """Cleo runs the evening with Ana (both of the organiser role, neither with Manage
    Server): her cancel, end, re-pair or result closes the matches Ana's event opened."""
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben, cleo = fake.add_user("ana"), fake.add_user("ben"), fake.add_user("cleo")
    role = fake.add_role("Organisers", ana, cleo)
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(mod, "settings", organiser_role=role)
        signup = await create_event(fake, ana, game="cover_your_assets", format="swiss")
        for user in (ana, ben):
            await fake.click(user, signup, signup.find_button("Join"))
        await fake.click(ana, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = (await bot.tournaments.store.tournaments(None, open_only=False))[0]
        (first,) = (await bot.tournaments.view(event.tournament_id)).tables
        options = {"order": "Ana > Ben"} if tool == "result" else {}
        await fake.slash(cleo, f"tournament {tool}", **options)
        await settle_all(fake, bot)
        said = fake.last_reply(cleo).text()
        done = ("✖️ The tournament is cancelled", "🏁", "✍️ The round", "✍️ Result set")
        assert said.startswith(done), said
        record = await bot.service.get(first.match_id)  # type: ignore[arg-type]
        assert record.status == "cancelled"
        thread = fake.channels[first.thread_id]  # type: ignore[index]
        assert any("cancelled by **Cleo**" in m.text() for m in fake.public_messages(thread))
    fake.assert_clean()


async def test_a_table_the_organiser_or_the_round_end_decides_says_how_it_stands(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    people = [fake.add_user(name) for name in ("ana", "ben", "cleo", "dev")]
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(fake, mod, game="cover_your_assets", format="swiss", rounds=2)
        for user in people:
            await fake.click(user, signup, signup.find_button("Join"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = (await bot.tournaments.store.tournaments(None, open_only=True))[0]
        view = await bot.tournaments.view(event.tournament_id)
        first, second = sorted(view.tables, key=lambda t: t.table_no)
        names = [view.name(p) for p in first.seats]
        await fake.slash(mod, "tournament result", order=f"{names[1]} > {names[0]}")
        await fake.slash(mod, "tournament end")  # the other table is drawn, unfinished
        await settle_all(fake, bot)
        thread = fake.channels[first.thread_id]  # type: ignore[index]
        said = [m.text() for m in fake.public_messages(thread)]
        assert f"✍️ The organiser set this table's result: 1st {names[1]} · 2nd {names[0]}." in said
        other = [view.name(p) for p in second.seats]
        drawn = fake.public_messages(fake.channels[second.thread_id])  # type: ignore[index]
        assert (
            "🤝 The round ended before this table did, so it is drawn: "
            f"1st {other[0]} and {other[1]}."
        ) in [m.text() for m in drawn]
        assert thread.archived
    fake.assert_clean()
