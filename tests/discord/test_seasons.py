"""Seasons through the real discord.py code, the clock moved by weeks: set-up and its
refusals, weekly events and casual rated matches, the end posted with its tables, the
divisions moved, the role passed from last season's holders to this season's, the table
kept and shown by /season, and the next season running."""

from __future__ import annotations

from datetime import datetime

import pytest

from bot.clock import ManualClock
from bot.seasons import Tally, division_tables, match_points
from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_ratings import play_out
from tests.discord.test_tournaments import (
    PatientDiscord,
    create_event,
    move_on,
    settle_all,
    the_event,
    use_manual_clock,
)

GAME = "cookie_chomper"
WEEK = 7 * 86_400.0


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


async def leave(fake: FakeDiscord, user: FakeUser, channel) -> None:  # type: ignore[no-untyped-def]
    """/leave and its confirmation: the seat goes to a bot for good, its player last."""
    await fake.slash(user, "leave", channel=channel)
    asked = fake.last_reply(user)
    await fake.click(user, asked, asked.find_button("Leave for good"))


async def casual(fake: FakeDiscord, bot, winner: FakeUser, loser: FakeUser) -> None:  # type: ignore[no-untyped-def]
    """A casual rated match of two people, in a channel of its own, that ``winner`` wins:
    ``loser`` leaves (a bot plays their seat to the end; they are rated last) and
    ``winner`` plays it out."""
    channel = fake.add_channel(f"casual-{len(fake.channels)}")
    await fake.slash(winner, "play", channel=channel, game=GAME)
    lobby = fake.public_messages(channel)[0]
    await fake.click(loser, lobby, lobby.find_button("Join"))
    await fake.click(winner, lobby, lobby.find_button("Start"))
    await fake.settle()
    await leave(fake, loser, channel)
    await play_out(fake, bot, [winner], channel)
    await fake.settle_with(bot.ratings.idle())


async def weekly_event(fake: FakeDiscord, bot, mod: FakeUser, order: list[FakeUser]) -> None:  # type: ignore[no-untyped-def]
    """A one-round Swiss of ``order``'s players made by hand with /tournament; at each
    table whoever comes later in ``order`` forfeits (/leave in the table's thread), which
    ends the table at once and rates it like any finished match."""
    signup = await create_event(fake, mod, game=GAME, format="swiss", rounds=1, pace="casual")
    for user in order:
        await fake.click(user, signup, signup.find_button("Join"))
    await fake.click(mod, signup, signup.find_button("Start"))
    await settle_all(fake, bot)
    event = await the_event(bot)
    view = await bot.tournaments.view(event.tournament_id)
    rank = {user.id: index for index, user in enumerate(order)}
    for table in view.tables:
        record = await bot.service.get(table.match_id)
        loser = max((s.user_id for s in record.seats), key=lambda user: rank[user])
        await leave(fake, fake.users[loser], fake.channels[record.channel_id])
        await settle_all(fake, bot)
    await fake.settle_with(bot.ratings.idle())
    assert (await the_event(bot)).status == "finished"


async def expected_tables(bot, guild: int, season, divisions: int):  # type: ignore[no-untyped-def]
    """The season's tables worked out here from the rated matches' rows, by the points
    rule as the docs state it (ties share the average of their places)."""
    rows = [
        r
        for r in await bot.store.all_rating_changes()
        if r.guild_id == guild and season.starts_at <= r.at < season.ends_at and r.user_id >= 0
    ]
    tallies: dict[int, Tally] = {}
    for row in rows:
        tied = sum(1 for o in rows if o.match_id == row.match_id and o.place == row.place)
        was = tallies.get(row.user_id, Tally())
        tallies[row.user_id] = Tally(
            was.points + match_points(row.place, tied, row.players),
            was.played + 1,
            was.wins + (row.place == 1),
        )
    members = await bot.store.season_members(guild, GAME, season.number)
    ratings = await bot.store.displayed_ratings(guild, GAME)
    return division_tables(tallies, members, ratings, divisions)


def store_time_follows(clock: ManualClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store stamps a match's end with the wall clock (rating rows take it as their
    time); here it reads the moved clock, as the bot's own clock does."""

    class Moved(datetime):
        @classmethod
        def now(cls, tz=None):  # type: ignore[no-untyped-def, override]
            return datetime.fromtimestamp(clock.now(), tz)

    for module in ("bot.store.matches", "bot.store.sqlite"):
        monkeypatch.setattr(f"{module}.datetime", Moved)


async def test_a_four_week_season_moves_divisions_and_passes_the_role_on(
    fake, db, monkeypatch
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben, cleo, dev = (fake.add_user(name) for name in ("ana", "ben", "cleo", "dev"))
    fake.grant_bot(manage_roles=True)
    champion = fake.add_role("Champion", below_bot=True)
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        store_time_follows(clock, monkeypatch)
        league = fake.add_channel("league")
        # Rated before seasons: ana and cleo above ben and dev.
        await casual(fake, bot, ana, ben)
        await casual(fake, bot, cleo, dev)
        await clock.advance(60)  # what follows is in season 1
        await fake.slash(
            mod,
            "seasons setup",
            channel=league,
            game=GAME,
            divisions=2,
            size=2,
            length="4 weeks",
            places=1,
            options={"role": champion},
        )
        said = fake.last_reply(mod)
        assert said.ephemeral and "Seasons of **Cookie Chomper** are on" in said.text()
        first = await bot.seasons.current(fake.guild_id, GAME)
        assert first is not None and first.ends_at == first.starts_at + 4 * WEEK
        assert f"<t:{int(first.ends_at)}:f>" in said.text()
        members = await bot.store.season_members(fake.guild_id, GAME, first.number)
        assert members == {ana.id: 1, cleo.id: 1, ben.id: 2, dev.id: 2}

        # Season 1: ana wins division 1 and takes the role; ben wins division 2.
        await casual(fake, bot, ana, cleo)
        await casual(fake, bot, ben, dev)
        await move_on(fake, bot, clock, 4 * WEEK)
        assert champion.id in ana.roles and champion.id not in cleo.roles
        second = await bot.seasons.current(fake.guild_id, GAME)
        assert second is not None and second.number == 2
        assert second.starts_at == first.ends_at and second.ends_at == first.ends_at + 4 * WEEK
        members = await bot.store.season_members(fake.guild_id, GAME, 2)
        assert members == {ana.id: 1, ben.id: 1, cleo.id: 2, dev.id: 2}

        # Season 2, four weeks: an event each week (Swiss pairs by lot: whoever is paired,
        # ben beats everyone, dev beats ana and cleo, ana beats cleo) and casual matches
        # between them. Ben tops division 1 and ana is last of it; dev tops division 2.
        await casual(fake, bot, ben, ana)
        for week in range(4):
            await weekly_event(fake, bot, mod, [ben, dev, ana, cleo])
            if week % 2 == 0:
                await casual(fake, bot, dev, cleo)
            await move_on(fake, bot, clock, WEEK)
        ended = await bot.store.season(fake.guild_id, GAME, 2)
        assert ended is not None and ended.status == "ended" and ended.due_at is None
        kept = await bot.seasons.table(fake.guild_id, GAME, 2)
        assert kept.tables == await expected_tables(bot, fake.guild_id, second, 2)
        top, bottom = kept.tables
        assert [line.user_id for line in top] == [ben.id, ana.id]
        assert [line.user_id for line in bottom] == [dev.id, cleo.id]
        assert (top[0].played, top[0].wins, top[0].points) == (5, 5, 500)
        assert (bottom[0].played, bottom[1].points) == (6, 0)
        # Promotion and relegation: dev up, ana down.
        assert await bot.store.season_members(fake.guild_id, GAME, 3) == {
            ben.id: 1,
            dev.id: 1,
            ana.id: 2,
            cleo.id: 2,
        }
        # The role moved from last season's holder to this season's.
        assert champion.id in ben.roles and champion.id not in ana.roles
        # The final table was posted where seasons were set up, with times as timestamps.
        post = fake.public_messages(league)[-1]
        assert "Season 2 of **Cookie Chomper** is over!" in post.text()
        assert f"{champion.mention} goes to {ben.mention}" in post.text()
        assert f"<t:{int(ended.ends_at)}:d>" in post.text()
        # Division 1's final table as a picture, like the standings.
        picture = next(a for a in post.attachments if a.filename == "season.png")
        assert picture.data.startswith(b"\x89PNG")
        third = await bot.seasons.current(fake.guild_id, GAME)
        assert third is not None and third.number == 3 and third.status == "running"
        assert f"Season 3 has begun: it ends <t:{int(third.ends_at)}:f>" in post.text()

        # /season: the reader's division of the running season, and the past ones kept.
        await fake.slash(ana, "season", game=GAME)
        shown = fake.last_reply(ana)
        assert shown.ephemeral and "season 3 · division 2 of 2" in shown.text()
        assert "You are **" in shown.text() and "in division 2" in shown.text()
        assert "Season 2 ·" in shown.text() and f"🏆 {ben.mention}" in shown.text()
        assert [a.filename for a in shown.attachments] == ["season.png"]
        await fake.slash(ana, "season", game=GAME, number=2, division=1)
        past = fake.last_reply(ana).text()
        assert "season 2 · division 1 of 2" in past
        assert past.index(ben.mention) < past.index(ana.mention) and "**500**" in past
    fake.assert_clean()


async def test_every_refusal_is_one_sentence_and_makes_nothing(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben, cleo = fake.add_user("ana"), fake.add_user("ben"), fake.add_user("cleo")
    high = fake.add_role("High")  # above the bot's own role
    low = fake.add_role("Low", below_bot=True)
    async with fake.running(make_bot(db)) as bot:
        await casual(fake, bot, ana, ben)
        await casual(fake, bot, ana, cleo)
        base = {"game": GAME, "divisions": 1, "size": 2}

        async def refused(user: FakeUser, expected: str, **options: object) -> None:
            await fake.slash(user, "seasons setup", **{**base, **options})  # type: ignore[arg-type]
            reply = fake.last_reply(user)
            assert reply.ephemeral and expected in reply.text(), reply.text()
            assert reply.text().count("\n") == 0
            assert await bot.store.seasons(fake.guild_id, GAME) == []
            assert await bot.store.season_setup(fake.guild_id, GAME) is None

        await refused(ana, "Only someone with Manage Server can set up seasons.")
        await refused(mod, "I need **Manage Roles**", options={"role": low})
        fake.grant_bot(manage_roles=True)
        await refused(mod, "is above my own role", options={"role": high})
        await refused(mod, "A season lasts a number of days", length="forever")
        await refused(mod, "A division holds 2 to 1000 players.", size=1)
        await refused(mod, "1 divisions of 2 can't hold the 3 players rated in Cookie Chomper")
        await fake.slash(mod, "settings", ratings="off")
        await refused(mod, "this server rates none")
        await fake.slash(ana, "season", game=GAME)
        assert "has no seasons here" in fake.last_reply(ana).text()
    fake.assert_clean()
