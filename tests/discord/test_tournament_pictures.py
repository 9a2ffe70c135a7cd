"""Tournament and rating pictures through the real discord.py code: the bracket on a
round's pairings follows each result, standings embeds carry their picture, /stats its
rating curve, and a server with pictures off gets none of them."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.rating_curve import rating_curve
from bot.service import Person
from bot.store.ratings import RatingChangeRecord
from bot.tournaments.pictures.tree import match_boxes
from cogs.pictures import keep
from cogs.tournaments.pictures import bracket_png, names_of
from games.core.pictures import difference
from games.core.translations import ENGLISH
from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser
from tests.discord.test_ratings import SPARK
from tests.discord.test_tournaments import (
    PatientDiscord,
    bots_only_event,
    create_event,
    settle_all,
    the_event,
)


@pytest.fixture
def fake() -> FakeDiscord:
    """Events of bots play out inside one click: patient on a busy machine."""
    return PatientDiscord()


def picture(message: FakeMessage, filename: str) -> bytes:
    """The message's one attachment, shown as its embed's image."""
    assert [a.filename for a in message.attachments] == [filename]
    assert message.embeds[0]["image"]["url"] == f"attachment://{filename}"
    return message.attachments[0].data


def pairings(fake: FakeDiscord, words: str) -> FakeMessage:
    return next(m for m in fake.public_messages() if words in m.text())


async def test_the_bracket_picture_follows_an_elimination_result(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo", "dev")]
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="single_elimination"
        )
        for user in people:
            await fake.click(user, signup, signup.find_button("Join"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        message = pairings(fake, "Round 1 pairings")
        before = picture(message, "bracket.png")
        view = await bot.tournaments.view(event.tournament_id)
        table = min((t for t in view.tables if t.round == 1), key=lambda t: t.table_no)
        winner, loser = (view.name(p) for p in table.seats)
        await fake.slash(mod, "tournament result", order=f"{winner} > {loser}")
        await settle_all(fake, bot)
        assert (await the_event(bot)).round == 1  # the other table still plays
        after = picture(message, "bracket.png")  # the same message, edited
        assert difference(before, after) > 0.1
        view = await bot.tournaments.view(event.tournament_id)
        assert after == await bracket_png(view, ENGLISH)  # drawn from the event as it is now
        drawn = view.drawn_bracket()
        (final,) = (b for b in match_boxes(drawn, names_of(view)) if b.match.id == "W2-1")  # type: ignore[arg-type]
        assert winner in [r.name for r in final.rows]  # the winner went on to the final
    fake.assert_clean()


async def test_a_multiplayer_elimination_redraws_each_rounds_bracket(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        await bots_only_event(
            fake, bot, mod, 9, format="multiplayer_elimination", advance=1, pace="casual"
        )
        event = await the_event(bot)
        assert event.status == "finished"
        first, final = pairings(fake, "Round 1 pairings"), pairings(fake, "Final 2 pairings")
        # Each of round 1's three tables redrew its bracket as its result came in.
        assert len(first.history) >= 3
        view = await bot.tournaments.view(event.tournament_id)
        assert picture(final, "bracket.png") == await bracket_png(view, ENGLISH)  # the champion's
        assert difference(picture(first, "bracket.png"), picture(final, "bracket.png")) > 0.1
    fake.assert_clean()


async def test_standings_carry_their_picture(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        await bots_only_event(fake, bot, mod, 4, format="swiss", pace="casual", rounds=2)
        standings = [
            m
            for m in fake.public_messages()
            if m.embeds
            and (
                "standings after" in m.embeds[0]["title"]
                or "final standings" in m.embeds[0]["title"]
            )
        ]
        assert len(standings) == 2  # after round 1, and the final standings
        pictures = [picture(m, "standings.png") for m in standings]
        assert difference(*pictures) > 0.1
        await fake.slash(mod, "tournament standings")
        reply = fake.last_reply(mod)
        assert reply.ephemeral and picture(reply, "standings.png") == pictures[-1]
    fake.assert_clean()


async def rate(fake: FakeDiscord, bot, user: FakeUser, ratings: list[int]) -> None:  # type: ignore[no-untyped-def]
    """Rated matches of Cookie Chomper for one player, a day apart, ending at ``ratings``
    (each change stored against a match of its own, as the store requires)."""
    host = Person(user_id=user.id, name=user.name)
    for number, display in enumerate(ratings, start=1):
        record = await bot.service.open_lobby(
            guild_id=fake.guild_id,
            channel_id=fake.add_channel(f"room-{number}").id,
            host=host,
            game_key="cookie_chomper",
        )
        change = RatingChangeRecord(
            match_id=record.match_id,
            user_id=user.id,
            guild_id=fake.guild_id,
            game="cookie_chomper",
            at=1_700_000_000.0 + number * 86_400,
            place=1,
            players=2,
            mu_before=25.0,
            sigma_before=8.0,
            mu_after=25.0,
            sigma_after=8.0,
            games_after=number,
            display_after=display,
        )
        assert await bot.store.save_match_ratings([change])


async def test_stats_carries_the_rating_curve_and_keeps_the_text(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await rate(fake, bot, ana, [1480, 1530, 1575])
        await fake.slash(ana, "stats", game="cookie_chomper")
        reply = fake.last_reply(ana)
        curve = picture(reply, "rating.png")
        assert SPARK.search(reply.text()) and "**Games:** 3" in reply.text()
        stats = await bot.ratings.stats(fake.guild_id, ana.id, "cookie_chomper")
        assert stats.history == [1500, 1480, 1530, 1575]
        expected = rating_curve(
            stats.times,
            stats.history,
            "Cookie Chomper rating",
            "3 rated games · now 1575 · best 1575",
        )
        assert curve == expected
        # The menu's pick shows the same curve on the edited answer.
        await fake.slash(ana, "stats")
        summary = fake.last_reply(ana)
        assert summary.attachments == []  # every game in a line each: no curve
        await fake.select(ana, summary, f"cj:stats:{ana.id}", ["cookie_chomper"])
        assert picture(fake.last_reply(ana), "rating.png") == curve
    fake.assert_clean()


async def test_pictures_off_sends_none(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(mod, "settings", pictures=False)
        await bots_only_event(fake, bot, mod, 4, format="single_elimination", pace="casual")
        assert (await the_event(bot)).status == "finished"
        await rate(fake, bot, mod, [1510])
        await fake.slash(mod, "stats", game="cookie_chomper")
        await fake.slash(mod, "tournament standings")
        messages = [*fake.public_messages(), *fake.ephemerals(mod)]
        assert any("pairings" in m.text() for m in messages)
        assert any("final standings" in m.text() for m in messages)
        assert all(m.attachments == [] for m in messages)
        assert all("image" not in e for m in messages for e in m.embeds)
        # Turned on again, the same asks carry their pictures at once.
        await fake.slash(mod, "settings", pictures=True)
        await fake.slash(mod, "stats", game="cookie_chomper")
        picture(fake.last_reply(mod), "rating.png")
        await fake.slash(mod, "tournament standings")
        picture(fake.last_reply(mod), "standings.png")
    fake.assert_clean()


def test_an_edit_without_new_files_keeps_the_picture_it_has() -> None:
    """A pairings page click edits the embed only: it points at the bracket it carries."""
    carrying = SimpleNamespace(attachments=[SimpleNamespace(filename="bracket.png")])
    bare = SimpleNamespace(attachments=[])
    kept, plain = discord.Embed(title="Round 1"), discord.Embed(title="Round 1")
    keep(kept, carrying, "bracket.png")  # type: ignore[arg-type]
    keep(plain, bare, "bracket.png")  # type: ignore[arg-type]
    assert kept.image.url == "attachment://bracket.png" and plain.image.url is None
