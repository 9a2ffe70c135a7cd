"""The lobby's buttons change the lobby in their own answer, which Discord's request budget
does not count: no edit of the lobby message is left for the presenter to send."""

from __future__ import annotations

from pathlib import Path

from tests.discord.budget import edits_of
from tests.discord.conftest import make_bot, table_of
from tests.discord.harness import FakeDiscord

UPDATE_MESSAGE = 7  # the click's answer is the clicked message, edited


async def test_the_lobbys_leave_and_cancel_change_the_lobby_in_place(
    fake: FakeDiscord, db: Path
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "play", game="toss_your_cookies")
        lobby = table_of(fake)
        await fake.click(ben, lobby, lobby.find_button("Join"))
        assert "Seats (2/8)\n1. Ana · host\n2. Ben\n" in table_of(fake).text()
        await fake.click(ben, lobby, lobby.find_button("Cancel"))
        refused = fake.last_reply(ben)
        assert refused.ephemeral
        assert refused.text() == "Only the host or someone with Manage Server can cancel the match."
        await fake.click(ben, lobby, lobby.find_button("Leave"))
        assert fake.last_interaction(ben).response_type == UPDATE_MESSAGE
        record = await bot.service.store.open_in_channel(fake.general.id)
        assert record is not None and record.seat_of(ben.id) is None
        assert "Seats (1/8)\n1. Ana · host\nOptions\n" in table_of(fake).text()
        await fake.click(ana, lobby, lobby.find_button("Cancel"))
        assert fake.last_interaction(ana).response_type == UPDATE_MESSAGE
        ended = table_of(fake)
        assert (
            ended.text()
            == "🍪 Toss Your Cookies\nThis match was cancelled. Start a new one with /play."
        )
        assert ended.buttons() == []
        assert (await bot.service.store.open_in_channel(fake.general.id)) is None
        assert edits_of(fake, lobby) == []  # Join, Leave and Cancel all answered in it
    fake.assert_clean()


async def test_add_bot_at_a_full_table_tells_the_host_to_start(fake, db) -> None:
    """The host pressing Add bot at a full Braverse table was told to "Watch, or open
    another with /play", as if they were a stranger to it."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game="braverse")
        lobby = table_of(fake)
        await fake.click(ben, lobby, lobby.find_button("Join"))
        await fake.click(ana, lobby, lobby.find_button("Add bot"))
        assert fake.last_reply(ana).text() == (
            "This table is full (2 seats). Press **Start** to play."
        )
    fake.assert_clean()


async def test_a_friend_joining_a_table_bots_fill_takes_the_last_bots_seat(fake, db) -> None:
    """Ana adds a bot to her Braverse table to play at once; Ben arrives before she
    presses Start. He is seated in the bot's place rather than turned away."""
    ana, ben, cleo = fake.add_user("ana"), fake.add_user("ben"), fake.add_user("cleo")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "play", game="braverse")
        lobby = table_of(fake)
        await fake.click(ana, lobby, lobby.find_button("Add bot"))
        assert "\n2. 🤖 Abe (Normal)" in table_of(fake).text()
        await fake.click(ben, lobby, lobby.find_button("Join"))
        seats = table_of(fake).text().split("Options")[0]
        assert "Seats (2/2)" in seats and "\n2. Ben" in seats and "🤖" not in seats
        record = await bot.service.store.open_in_channel(fake.general.id)
        assert [s.user_id for s in record.seats] == [ana.id, ben.id]
        # Once people fill it, the next is told it is full, as before.
        await fake.click(cleo, lobby, lobby.find_button("Join"))
        assert fake.last_reply(cleo).text() == (
            "This table is full (2 seats). Watch, or open another with /play."
        )
    fake.assert_clean()
