"""/leaderboard, /stats and /settings ratings: through the real discord.py code."""

from __future__ import annotations

import re

from bot.service.base import seat_place
from bot.store.ratings import RatingRecord
from games import GAMES
from games.core.words import ordinal
from tests.discord.conftest import make_bot, open_game
from tests.discord.harness import FakeDiscord, FakeUser

SPARK = re.compile(r"`[▁▂▃▄▅▆▇█]{2,}`")


async def play_out(fake: FakeDiscord, bot, people: list[FakeUser], channel=None) -> str:  # type: ignore[no-untyped-def]
    """The match open in ``channel`` (#general by default), played to its end: each person
    takes their first option(s) whenever they must decide; bots play their own seats."""
    record = await bot.service.store.open_in_channel((channel or fake.general).id)
    match_id = record.match_id
    for _ in range(5000):
        await fake.settle()
        if (await bot.service.get(match_id)).status != "active":
            return match_id
        for user in people:
            seen = await bot.service.seat_view(match_id, user.id)
            decision = seen.decision or (seen.chances[0] if seen.chances else None)
            if decision is not None and decision.window is None:
                picks = list(range(decision.min_picks))
                await bot.service.act(match_id, user.id, stamp=decision.stamp, picks=picks)
                break
        else:
            await fake.advance(60)  # a race or a bot's turn: let time pass
    raise AssertionError("the match did not end")


async def test_a_finished_match_of_two_people_moves_the_leaderboard_and_stats(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        lounge = fake.add_channel("lounge")  # #general's first message is the table
        await fake.slash(ana, "leaderboard", channel=lounge, game="cookie_chomper")
        assert "Nobody is rated in Cookie Chomper here yet" in fake.last_reply(ana).text()

        await open_game(fake, "cookie_chomper", ana, ben, bots=1)
        match_id = await play_out(fake, bot, [ana, ben])
        record = await bot.service.get(match_id)
        assert record.status == "finished"
        # The better placed person (the bot's level keeps a rating of its own, and may win).
        people = [r for r in await bot.store.all_rating_changes() if r.user_id in (ana.id, ben.id)]
        first = min(people, key=lambda r: r.place)
        winner, loser = (ana, ben) if first.user_id == ana.id else (ben, ana)

        await fake.slash(ben, "leaderboard", game="cookie_chomper")
        board = fake.last_reply(ben)
        assert board.ephemeral  # a look-up, like /stats: for the one who asked
        text = board.text()
        assert text.index(winner.mention) < text.index(loser.mention)
        assert "🥇" in text and "🥈" in text and "2 rated" in text
        assert text.count("ᴾ") >= 2  # one game each: provisional
        shown = await bot.store.ratings_of(fake.guild_id, "cookie_chomper", [winner.id])
        assert f"**{shown[winner.id].display}ᴾ**" in text

        await fake.slash(ana, "stats", game="cookie_chomper", options={"user": winner})
        stats = fake.last_reply(ana)
        assert stats.ephemeral
        # Places at the table, the bot counted (the rating's place is among people only).
        place = seat_place(record, GAMES["cookie_chomper"], record.seat_of(winner.id))
        assert f"**Games:** 1 · **Wins:** {int(place == 1)}" in stats.text()
        assert f"{ordinal(place)} ×1" in stats.text() and SPARK.search(stats.text())
        assert "4 more games to settle" in stats.text()

        await fake.slash(loser, "stats")  # every game, for oneself
        assert "Cookie Chomper" in fake.last_reply(loser).text()
    fake.assert_clean()


async def test_ratings_off_rates_nothing_and_bad_asks_get_a_sentence(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        try:
            await fake.slash(ana, "settings", ratings="off")
        except PermissionError:
            pass  # Discord hides the command from members without Manage Server
        else:
            assert "Only someone with Manage Server" in fake.last_reply(ana).text()
        assert (await bot.service.guild_settings(fake.guild_id)).ratings == "all"
        await fake.slash(mod, "settings", ratings="off")
        assert "**Rated:** No match is rated" in fake.last_reply(mod).text()

        await open_game(fake, "cookie_chomper", ana, ben)
        match_id = await play_out(fake, bot, [ana, ben])
        assert (await bot.service.get(match_id)).status == "finished"
        assert await bot.store.all_ratings() == []

        # Said how matches are rated here, never sent off to /play for a rating.
        off = "This server rates no matches: its admins turned ratings off in /settings."
        await fake.slash(ana, "leaderboard", game="cookie_chomper")
        said = fake.last_reply(ana).text()
        assert f"Nobody is rated in Cookie Chomper here yet. {off}" in said
        assert "/play" not in said
        await fake.slash(ana, "stats")
        reply = fake.last_reply(ana)
        assert reply.ephemeral and reply.text() == f"You have no rated match here yet. {off}"
        await fake.slash(ana, "stats", game="toss_your_cookies", options={"user": ben})
        reply = fake.last_reply(ana)
        assert reply.ephemeral
        assert f"{ben.mention} has no rated match of Toss Your Cookies here yet" in reply.text()

        await fake.slash(mod, "settings", ratings="all")
        assert "**Rated:** Every finished match" in fake.last_reply(mod).text()
    fake.assert_clean()


async def test_the_leaderboard_pages_with_its_buttons_after_a_restart(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await bot.store.replace_ratings(
            [
                RatingRecord(
                    guild_id=fake.guild_id,
                    game="cover_your_assets",
                    user_id=1000 + n,
                    mu=25.0 + n,
                    sigma=3.0,
                    games=n,
                    display=1500 + 10 * n,
                )
                for n in range(23)
            ],
            [],
        )
        await fake.slash(ana, "leaderboard", game="cover_your_assets")
        board = fake.last_reply(ana)
    async with fake.running(make_bot(db)):  # the buttons keep working after a restart
        text = board.text()
        assert "Page 1 of 3" in text and "23 rated" in text
        assert "<@1022> · **1720**" in text and "<@1002> · **1520ᴾ**" not in text
        assert board.find_button("Higher").disabled
        await fake.click(ana, board, board.find_button("Lower"))
        board = fake.messages[board.id]
        assert "Page 2 of 3" in board.text() and "` 11.` <@1012> · **1620**" in board.text()
        await fake.click(ana, board, board.find_button("Lower"))
        board = fake.messages[board.id]
        assert "Page 3 of 3" in board.text() and "<@1000> · **1500ᴾ** · 0 games" in board.text()
        assert board.find_button("Lower").disabled
    fake.assert_clean()


async def test_equal_ratings_share_a_rank_across_pages(fake, db) -> None:
    """Three people at 1600 are all first, and the nine at 1550 all fourth, on the second
    page too: ranked one below another, equals read as better and worse."""
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await bot.store.replace_ratings(
            [
                RatingRecord(
                    guild_id=fake.guild_id,
                    game="toss_your_cookies",
                    user_id=1000 + n,
                    mu=25.0,
                    sigma=3.0,
                    games=5,
                    display=1600 if n < 3 else 1550,
                )
                for n in range(12)
            ],
            [],
        )
        await fake.slash(ana, "leaderboard", game="toss_your_cookies")
        board = fake.last_reply(ana)
        lines = board.text().splitlines()
        assert [line.split(" <@")[0] for line in lines[1:11]] == ["🥇"] * 3 + ["`  4.`"] * 7
        await fake.click(ana, board, board.find_button("Lower"))
        lines = fake.messages[board.id].text().splitlines()
        assert [line.split(" <@")[0] for line in lines[1:3]] == ["`  4.`"] * 2
    fake.assert_clean()
