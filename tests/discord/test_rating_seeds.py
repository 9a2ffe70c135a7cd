"""A rating-seeded Swiss through the real discord.py code: the sign-up says how it seeds,
round 1 pairs rating neighbours, and each table's thread shows its players' chances."""

from __future__ import annotations

from bot.ratings import Rating
from bot.store.ratings import RatingRecord
from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord

GAME = "cover_your_assets"


async def test_a_rating_seeded_swiss_pairs_by_rating_and_shows_chances(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben, cleo, dev = (fake.add_user(n) for n in ("ana", "ben", "cleo", "dev"))
    # Dev 1884, Ben 1860, Ana 1548, Cleo never rated (1500).
    stored = [(ben, 30.0, 5.0), (dev, 28.0, 4.0), (ana, 20.0, 6.0)]
    async with fake.running(make_bot(db)) as bot:
        await bot.store.replace_ratings(
            [
                RatingRecord(
                    guild_id=fake.guild_id,
                    game=GAME,
                    user_id=who.id,
                    mu=mu,
                    sigma=sigma,
                    games=6,
                    display=Rating(mu, sigma).display,
                )
                for who, mu, sigma in stored
            ],
            [],
        )
        await fake.slash(
            mod, "tournament create", game=GAME, format="swiss", pace="async", seeding="rating"
        )
        signup = fake.public_messages()[-1]
        assert "**Seeding:** by rating" in signup.text()
        for user in (ana, ben, cleo, dev):
            await fake.click(user, signup, signup.find_button("Join"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await fake.settle()
        event = (await bot.tournaments.store.tournaments(None, open_only=False))[0]
        view = await bot.tournaments.view(event.tournament_id)
        # predict_win: Dev 0.41 against Ben, Ana 0.34 against Cleo.
        expected = {
            frozenset({"Dev", "Ben"}): {"Dev": 41, "Ben": 59},
            frozenset({"Ana", "Cleo"}): {"Ana": 34, "Cleo": 66},
        }
        assert {frozenset(view.name(p) for p in t.seats) for t in view.tables} == set(expected)
        for table in view.tables:
            record = await bot.service.get(table.match_id)  # type: ignore[arg-type]
            names = [seat.name for seat in record.seats]  # the line follows the seats
            chances = expected[frozenset(names)]
            line = "Chances: " + " · ".join(f"{n} {chances[n]}%" for n in names)
            thread = fake.channels[table.thread_id]  # type: ignore[index]
            posted = [
                m.content for m in fake.public_messages(thread) if "your match is on" in m.content
            ]
            assert len(posted) == 1 and posted[0].endswith("\n" + line)
    fake.assert_clean()
