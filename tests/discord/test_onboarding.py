"""What a new server and new players meet: /help (and on joining a server), /play with
bots, missing permissions named, /settings saying what it set, the start-up line."""

from __future__ import annotations

import logging
import re

import discord
import pytest

from tests.discord.conftest import make_bot, table_of
from tests.discord.harness import FakeDiscord, FakeUser

README_BEFORE = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, read_message_history=True
)


def restrict_bot(monkeypatch: pytest.MonkeyPatch, granted: discord.Permissions) -> None:
    """The bot holds only ``granted`` in every channel (what the interaction reports)."""
    everyone = FakeDiscord.user_permissions

    def permissions(fake: FakeDiscord, user: FakeUser) -> discord.Permissions:
        return granted if user.bot else everyone(fake, user)

    monkeypatch.setattr(FakeDiscord, "user_permissions", permissions)


async def test_help_says_what_cookie_jar_is_the_games_a_turn_and_the_commands(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "help")
        reply = fake.last_reply(ana)
        text = reply.text()
        assert reply.ephemeral
        for words in (
            "Cookie Jar",
            "Cover Your Assets",
            "Cover Your Cookies",
            "Toss Your Cookies",
            "Cookie Chomper",
            "Show hand",
            "/play",
            "/rules",
            "/always_ask",
        ):
            assert words in text, words
    fake.assert_clean()


async def test_help_is_posted_in_the_system_channel_when_the_bot_joins(fake, db) -> None:
    async with fake.running(make_bot(db)) as bot:
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None
        guild._system_channel_id = fake.general.id  # where the server's welcomes go
        bot.dispatch("guild_join", guild)
        await fake.settle()
        posted = [m.text() for m in fake.public_messages(fake.general)]
        assert any("How a turn works" in t and "Show hand" in t for t in posted)
    fake.assert_clean()


async def test_play_with_bots_seats_them_and_still_lets_a_friend_join(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "play", game="cookie_chomper", bots=3)
        lobby = table_of(fake)
        assert "· lobby" in lobby.text() and "Seats (4/6)" in lobby.text()
        await fake.click(ben, lobby, lobby.find_button("Join"))
        assert "You're in (seat 5)" in fake.last_reply(ben).text()
        await fake.click(ana, lobby, lobby.find_button("Start"))
        assert table_of(fake).find_button("Show hand")
        record = await bot.service.store.open_in_channel(fake.general.id)
        assert record is not None and record.status == "active"
        assert [s.user_id is None for s in record.seats] == [False, True, True, True, False]
    fake.assert_clean()


async def test_play_with_bots_in_every_seat_starts_at_once(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "play", game="cookie_chomper", bots=5)  # nobody could join
        assert table_of(fake).find_button("Show hand")
        record = await bot.service.store.open_in_channel(fake.general.id)
        assert record is not None and record.status == "active"
    fake.assert_clean()


async def test_play_with_too_many_bots_says_how_many_fit(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game="cookie_chomper", bots=6)
        assert "bots: 5 at most" in fake.last_reply(ana).text()
        assert not fake.public_messages(fake.general)
    fake.assert_clean()


async def test_a_missing_thread_permission_is_named_with_how_to_grant_it(
    fake, db, monkeypatch
) -> None:
    # Only the README's old list: Discord would answer the thread's creation with a 403.
    restrict_bot(monkeypatch, README_BEFORE)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game="cover_your_assets", thread=True)
        text = fake.last_reply(ana).text()
        assert "**Create Public Threads** and **Send Messages in Threads**" in text
        assert "Server Settings → Roles" in text
        assert not fake.public_messages(fake.general)
        assert all(c.parent_id is None for c in fake.channels.values())  # no thread made
    fake.assert_clean()


async def test_a_missing_channel_permission_is_named_before_a_lobby_opens(
    fake, db, monkeypatch
) -> None:
    restrict_bot(monkeypatch, discord.Permissions(view_channel=True, send_messages=True))
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "play", game="cover_your_assets")
        text = fake.last_reply(ana).text()
        assert "**Embed Links** and **Read Message History**" in text
        assert await bot.service.store.open_in_channel(fake.general.id) is None
    fake.assert_clean()


async def test_settings_custom_minutes_says_what_it_set(fake: FakeDiscord, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)):
        await fake.slash(mod, "settings", custom_minutes=5)
        text = fake.last_reply(mod).text()
        assert "Custom pace set to 5 minutes a move" in text
        assert "pace: Custom" in text
        command = next(c for c in fake.commands[None] if c["name"] == "settings")
        options = {o["name"]: o for o in command["options"]}
        labels = [c["name"] for c in options["pace"]["choices"]]
        assert "pace: Custom" in options["custom_minutes"]["description"]
        assert any(label.startswith("Custom") for label in labels)
    fake.assert_clean()


async def test_start_up_logs_one_line_with_the_invite_link(fake, db, caplog) -> None:
    caplog.set_level(logging.INFO, logger="bot.client")
    async with fake.running(make_bot(db)):
        pass
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Logged in")]
    assert len(lines) == 1
    assert "in 1 server; invite: https://discord.com/oauth2/authorize?" in lines[0]
    permissions = int(lines[0].split("permissions=")[1].split("&")[0])
    granted = discord.Permissions(permissions)
    assert granted.create_public_threads and granted.send_messages_in_threads
    assert granted.manage_threads  # tournaments archive their tables' threads


@pytest.mark.parametrize("level", ["debug", "Info", "WARNING"])
def test_log_level_is_read_in_any_case(level: str) -> None:
    from bot.config import Settings

    settings = Settings(_env_file=None, discord_token="x", log_level=level)  # type: ignore[call-arg]
    assert settings.log_level == level.upper()


async def test_every_full_rules_page_opens_with_three_lines_of_how_to_play_here(fake, db) -> None:
    from games import GAMES

    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        for key in GAMES:
            await fake.slash(ana, "rules", game=key)
            quick = fake.last_reply(ana)
            assert "Show hand" in quick.text()  # the quick start says where your moves are
            before = len(fake.ephemerals(ana))
            await fake.click(ana, quick, quick.find_button("Full rules"))
            pages = fake.ephemerals(ana)[before:]
            lines = pages[0].text().split("\n")
            opening = lines[lines.index("**How to play here**") + 1 :][:3]
            assert [line[:3] for line in opening] == ["1. ", "2. ", "3. "]
            assert "Show hand" in opening[0]
            assert "data/" not in "\n".join(p.text() for p in pages)  # no file names
    fake.assert_clean()


async def test_away_counts_whole_vacation_days_left(fake, db) -> None:
    import datetime

    ana = fake.add_user("ana")
    back = (datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=3)).date()
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "away", until=back.isoformat())
        text = fake.last_reply(ana).text()
        assert re.search(r"You have 1[01] vacation days left this month\.", text), text
    fake.assert_clean()
