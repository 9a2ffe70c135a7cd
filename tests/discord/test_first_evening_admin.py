"""A server admin's first evening: /settings said plainly, the permissions the bot needs
named before a game, and members who press what is not theirs told what they can do."""

from __future__ import annotations

from tests.discord.conftest import make_bot, table_of


async def test_leaving_a_lobby_you_are_not_in_offers_a_seat_not_spectate(fake, db) -> None:
    ana, carl = fake.add_user("ana"), fake.add_user("carl")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game="cookie_chomper")
        lobby = table_of(fake)
        assert "Spectate" not in [b.label for b in lobby.buttons()]  # a lobby has none
        joining = "You are not in this lobby. Press **Join** to take a seat."
        await fake.click(carl, lobby, lobby.find_button("Leave"))
        assert fake.last_reply(carl).text() == joining
        await fake.slash(carl, "leave")
        assert fake.last_reply(carl).text() == joining
    fake.assert_clean()
