"""Cover Your Cookies through the real discord.py code, from /play to the final embed."""

from __future__ import annotations

from tests.discord.conftest import make_bot, table_of
from tests.discord.test_cover_your_assets import play_to_the_end


async def open_cookies_lobby(fake, host, *joiners, bots: int = 0, switches=None) -> None:  # type: ignore[no-untyped-def]
    await fake.slash(host, "play", game="cover_your_cookies")
    lobby = table_of(fake)
    assert "Cover Your Cookies · lobby" in lobby.text()
    for user in joiners:
        await fake.click(user, lobby, lobby.find_button("Join"))
    for _ in range(bots):
        await fake.click(host, lobby, lobby.find_button("Add bot"))
    if switches is not None:
        rules = next(s for s in lobby.selects() if s["custom_id"].endswith(":_switches"))
        await fake.select(host, lobby, rules["custom_id"], switches)
    await fake.click(host, lobby, lobby.find_button("Start"))


async def test_four_players_with_mixers_play_to_the_final_embed(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_cookies_lobby(fake, ana, ben, bots=2)
        table = table_of(fake)
        assert "🍪 Cover Your Cookies · Round 1" in table.text() and "crumbs 0/6" in table.text()
        record = await bot.service.store.open_in_channel(fake.general.id)
        assert bot.service.load_state(record).options.mixers
        await play_to_the_end(fake, [ana, ben])
        final = table_of(fake).text()
        assert "Game over" in final and "Dough" in final
        said = fake.all_public_text()
        assert any("drew a Mixer" in t for t in said)  # the Mixers acted, in public
    fake.assert_clean()


async def test_three_players_with_the_advanced_options_and_a_discard_row(fake, db) -> None:
    ana, ben, cleo = fake.add_user("ana"), fake.add_user("ben"), fake.add_user("cleo")
    async with fake.running(make_bot(db)) as bot:
        await open_cookies_lobby(
            fake, ana, ben, cleo, switches=["mixers", "extra_strength", "two_actions"]
        )
        assert "Discard: row " in table_of(fake).text()
        record = await bot.service.store.open_in_channel(fake.general.id)
        options = bot.service.load_state(record).options
        assert options.extra_strength and options.two_actions
        await play_to_the_end(fake, [ana, ben, cleo])
        assert "Game over" in table_of(fake).text()
    fake.assert_clean()


async def test_the_cookies_rules_name_the_assumed_figures(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "rules", game="cover_your_cookies")
        quick = fake.last_reply(ana)
        await fake.click(ana, quick, quick.find_button("Full rules"))
        text = "\n".join(page.text() for page in fake.ephemerals(ana))
        assert "Card figures are assumed" in text and "data/" not in text
        assert "Rotate" in text and "Crumb Collector" in text and "Extra Strength" in text
    fake.assert_clean()
