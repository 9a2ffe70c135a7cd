"""Event options through discord.py: what /tournament create takes and the sign-up embed
shows, rematches said with the pairings, and a player pressing Join on a running event."""

from __future__ import annotations

import pytest

from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord
from tests.discord.test_tournaments import (
    PatientDiscord,
    bots_only_event,
    create_event,
    settle_all,
    the_event,
)


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


async def test_rounds_no_pairing_could_keep_apart_are_announced_with_the_pairings(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        await bots_only_event(fake, bot, mod, 4, format="swiss", pace="casual", rounds=5)
        event = await the_event(bot)
        assert event.status == "finished" and event.round == 5
        pairings = {
            number: next(
                m.text() for m in fake.public_messages() if f"Round {number} pairings" in m.text()
            )
            for number in range(1, 6)
        }
        # Four players meet everyone in three rounds: rounds 4 and 5 can only repeat.
        assert ["could not be avoided" in pairings[n] for n in range(1, 6)] == [
            False,
            False,
            False,
            True,
            True,
        ]
        assert "2 rematches could not be avoided this round: " in pairings[4]
    fake.assert_clean()


async def test_create_takes_the_reset_the_round_length_and_larger_tables(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)):
        double = await create_event(
            fake, mod, game="braverse", format="double_elimination", reset=False
        )
        assert "Grand final:** one match, no reset" in double.text()
        await fake.click(mod, double, double.find_button("Cancel"))  # one open event a channel
        timed = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", round_hours=6
        )
        assert "rounds last 6 hours" in timed.text()
        before = len(fake.public_messages())
        await fake.slash(mod, "tournament create", game="braverse", format="swiss", reset=False)
        assert "reset is for double elimination" in fake.last_reply(mod).text()
        assert len(fake.public_messages()) == before  # refused: no sign-up posted
    fake.assert_clean()


async def test_a_player_presses_join_on_a_running_swiss_and_enters_late(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        # Live: two minutes between rounds, so round 1 ends and round 2 waits.
        await bots_only_event(fake, bot, mod, 4, format="swiss", pace="live", rounds=4)
        event = await the_event(bot)
        assert event.status == "running" and event.round == 1
        signup = next(m for m in fake.public_messages() if "Late entry:" in m.text())
        await fake.click(ana, signup, signup.find_button("Join"))
        assert "in from round 2, with a loss for each round played" in fake.last_reply(ana).text()
        view = await bot.tournaments.view(event.tournament_id)
        mine = view.of_user(ana.id)
        assert mine is not None and mine.state == "entered"
        await settle_all(fake, bot)
    fake.assert_clean()
