"""Link buttons to the server's web page: on the table and /replay once an admin turned the
page on (``/settings web:on``), gone once it is off, and a renewed address at once."""

from __future__ import annotations

import re

import aiohttp
from aiohttp.test_utils import unused_port

from tests.discord.conftest import make_a_move, make_bot, table_of
from tests.discord.test_cover_your_assets import open_lobby, play_to_the_end
from tests.discord.test_tournaments import bots_only_event, the_event

SITE = "https://cookies.example.org"
PAGE = re.compile(rf"{re.escape(SITE)}/s/(\d+)/([A-Za-z0-9_-]+)/")


async def test_link_buttons_appear_with_web_on_and_not_without(fake, db) -> None:
    ana = fake.add_user("ana")
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db, public_url=SITE)):
        match_id = await open_lobby(fake, ana, bots=3)
        await fake.click(ana, table_of(fake), table_of(fake).find_button("Start"))
        assert table_of(fake).links() == []

        await fake.slash(mod, "settings", web=True)
        said = fake.last_reply(mod)
        assert said.ephemeral and "Web page: on" in said.text()
        guild, token = PAGE.search(said.text()).groups()  # the address, to the admin alone
        await make_a_move(fake, ana)
        assert table_of(fake).links() == [f"{SITE}/s/{guild}/{token}/table/{match_id}"]

        await fake.slash(mod, "settings", web_renew=True)
        renewed = PAGE.search(fake.last_reply(mod).text())[2]
        assert renewed != token
        await play_to_the_end(fake, [ana])
        assert table_of(fake).links() == [f"{SITE}/s/{guild}/{renewed}/table/{match_id}"]
        await fake.slash(ana, "replay", match=match_id)
        replay = fake.last_reply(ana)
        assert replay.links() == [f"{SITE}/s/{guild}/{renewed}/replay/{match_id}"]
        await fake.click(ana, replay, replay.find_button("Next"))
        assert len(replay.links()) == 1  # turning the page keeps the link

        await fake.slash(mod, "settings", web=False)
        assert "Web page: off" in fake.last_reply(mod).text()
        await fake.slash(ana, "replay", match=match_id)
        assert fake.last_reply(ana).links() == []
    fake.assert_clean()


async def test_without_a_public_address_no_link_is_made(fake, db) -> None:
    ana = fake.add_user("ana")
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)):
        await fake.slash(mod, "settings", web=True)
        # Said to a server's admin, who cannot set it: who can, and what.
        said = fake.last_reply(mod).text()
        assert "serves no web pages: whoever runs it must set WEB_PORT" in said
        await open_lobby(fake, ana, bots=3)
        await fake.click(ana, table_of(fake), table_of(fake).find_button("Start"))
        await make_a_move(fake, ana)
        assert table_of(fake).links() == []
    fake.assert_clean()


async def test_pairings_and_standings_link_the_event_page(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db, public_url=SITE)) as bot:
        await fake.slash(mod, "settings", web=True)
        guild, token = PAGE.search(fake.last_reply(mod).text()).groups()
        await bots_only_event(fake, bot, mod, 3, format="single_elimination", pace="casual")
        event = await the_event(bot)
        assert event.status == "finished"
        page = f"{SITE}/s/{guild}/{token}/event/{event.tournament_id}"
        posts = fake.public_messages()
        pairings = [m for m in posts if "pairings" in m.text()]
        final = [m for m in posts if "final standings" in m.text()]
        assert pairings and final
        for message in pairings + final:
            assert message.links() == [page], message.text()
        await fake.slash(mod, "tournament standings")
        assert fake.last_reply(mod).links() == [page]
    fake.assert_clean()


async def test_pairings_and_standings_carry_no_link_without_the_page(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db, public_url=SITE)) as bot:
        await bots_only_event(fake, bot, mod, 3, format="single_elimination", pace="casual")
        assert (await the_event(bot)).status == "finished"
        posts = fake.public_messages()
        assert [m for m in posts if "pairings" in m.text()]
        assert all(m.links() == [] for m in posts)
        await fake.slash(mod, "tournament standings")
        standings = fake.last_reply(mod)
        assert "standings" in standings.text().lower() and standings.links() == []
    fake.assert_clean()


async def test_the_bot_serves_its_pages_on_web_port_and_its_table_link_opens(fake, db) -> None:
    """WEB_PORT: the bot's own process serves the pages (fed by its service's changes),
    and the table's link button opens the table's page."""
    ana = fake.add_user("ana")
    mod = fake.add_user("mod", manage_guild=True)
    port = unused_port()
    async with fake.running(make_bot(db, web_port=port)):
        await fake.slash(mod, "settings", web=True)
        await open_lobby(fake, ana, bots=3)
        await fake.click(ana, table_of(fake), table_of(fake).find_button("Start"))
        await make_a_move(fake, ana)
        [link] = table_of(fake).links()
        assert link.startswith(f"http://localhost:{port}/s/")
        async with aiohttp.ClientSession() as session:
            page = await session.get(link.replace("localhost", "127.0.0.1"))
            assert page.status == 200 and "Cover Your Assets" in await page.text()
    fake.assert_clean()
