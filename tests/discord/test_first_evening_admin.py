"""A server admin's first evening: /settings said plainly, the permissions the bot needs
named before a game, and members who press what is not theirs told what they can do."""

from __future__ import annotations

import datetime

import discord

from bot.clock import ManualClock
from bot.permissions import INVITE_PERMISSIONS
from bot.store.models import GONE, SeatRecord
from cogs.table.notices import timeout_text
from tests.discord.conftest import make_bot, table_of
from tests.discord.harness import FakeDiscord
from tests.discord.test_onboarding import README_BEFORE, restrict_bot

FOR_THREADS_GRANTED = discord.Permissions(
    create_public_threads=True, send_messages_in_threads=True, manage_threads=True
)


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


async def test_a_channel_where_pictures_cannot_be_attached_is_named_before_a_lobby(
    fake, db, monkeypatch
) -> None:
    # A server whose @everyone may not attach files: the bot's role had no Attach Files,
    # the table's first edit (with its picture) was refused, and the lobby stayed a lobby.
    restrict_bot(monkeypatch, README_BEFORE | FOR_THREADS_GRANTED)
    ana, mod = fake.add_user("ana"), fake.add_user("mod", manage_guild=True)
    assert INVITE_PERMISSIONS.attach_files  # the invite link asks for it
    async with fake.running(make_bot(db, pictures=True)) as bot:
        await fake.slash(ana, "play", game="toss_your_cookies")
        assert fake.last_reply(ana).text() == (
            f"I can't run a game in <#{fake.general.id}>: I'm missing **Attach Files** there. "
            "A server admin can grant it to my role in Server Settings → Roles, or in this "
            "channel's Edit Channel → Permissions; then try /play again (or turn pictures "
            "off: /settings pictures:False)."
        )
        assert await bot.service.store.open_in_channel(fake.general.id) is None
        await fake.slash(mod, "settings", pictures=False)  # text-only tables need no files
        await fake.slash(ana, "play", game="toss_your_cookies")
        assert "· lobby" in table_of(fake).text()
    fake.assert_clean()


async def test_a_thread_where_the_bot_may_not_talk_is_named_before_a_lobby(
    fake, db, monkeypatch
) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game="toss_your_cookies", thread=True)
        [thread] = [c for c in fake.channels.values() if c.parent_id == fake.general.id]
        await fake.slash(ana, "cancel", channel=thread)
        # Send Messages holds in the channel; inside a thread Discord asks for its own.
        restrict_bot(monkeypatch, README_BEFORE)
        await fake.slash(ana, "play", channel=thread, game="toss_your_cookies")
        said = fake.last_reply(ana).text()
        assert "I'm missing **Send Messages in Threads** there" in said
        assert "/settings pictures" not in said  # pictures are not what it lacks
        assert len(fake.public_messages(thread)) == 1  # the cancelled lobby only
    fake.assert_clean()


async def test_settings_say_when_a_number_waits_for_its_switch(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)):
        # A custom pace alone: said what to add, not that "those settings" clash.
        await fake.slash(mod, "settings", pace="custom")
        assert fake.last_reply(mod).text() == (
            "A custom pace needs its length first: add custom_minutes, for example "
            "/settings pace: Custom custom_minutes: 30."
        )
        # A forfeit count while timeouts play default moves: nobody would forfeit.
        await fake.slash(mod, "settings", forfeit_after=2)
        said = fake.last_reply(mod).text()
        assert (
            "✅ Forfeit after 2 timeouts in a row. It counts only with on_timeout: Default "
            "moves, then forfeit after repeated timeouts; nobody forfeits until then."
        ) in said
        await fake.slash(mod, "settings", on_timeout="forfeit", forfeit_after=4)
        said = fake.last_reply(mod).text()
        assert "✅ Forfeit after 4 timeouts in a row.\n" in said
        assert "nobody forfeits" not in said
    fake.assert_clean()


async def test_away_with_no_date_when_not_away_says_how_to_go_away(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "away")
        assert fake.last_reply(ana).text() == (
            "You are not away, so your clocks already run. To stop them in slow games, give "
            "the date you are back: /away until: YYYY-MM-DD."
        )
    fake.assert_clean()


def test_a_forfeit_at_the_first_timeout_reads_as_one_missed_turn() -> None:
    # /settings forfeit_after:1 is allowed: its notice said "missed 1 turns in a row".
    seat = SeatRecord(seat=0, user_id=1, name="Ana", away=GONE, missed=1)
    assert timeout_text(seat, ["Ana"]) == (
        "🏳️ Ana missed a turn and forfeits; a bot plays their seat to the end."
    )
    assert timeout_text(seat, ["Ben", "Ana"]).startswith("🏳️ Ben and Ana missed a turn and forfeit;")


async def test_a_member_let_into_settings_is_refused_changes_without_a_host(
    fake, db, monkeypatch
) -> None:
    # Discord hides /settings from members, but Server Settings → Integrations may let a
    # role without Manage Server use it: a change is refused, and servers have no "host".
    monkeypatch.setattr(FakeDiscord, "_check_can_use", lambda self, user, root: None)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "settings", pace="live")
        said = fake.last_reply(ana)
        assert said.ephemeral
        assert said.text() == "Only someone with Manage Server can change this server's settings."
        assert (await bot.service.guild_settings(fake.guild_id)).match.pace == "casual"
    fake.assert_clean()


async def test_a_vacation_too_long_is_answered_with_the_latest_date_that_fits(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        evening = datetime.datetime(2026, 11, 27, 19, 0, tzinfo=datetime.UTC).timestamp()
        bot.service.clock = bot.scheduler.clock = ManualClock(start=evening)
        await fake.slash(ana, "away", until="2026-12-30")
        assert fake.last_reply(ana).text() == (
            "Vacations are limited to 14 days a month; you have 14 days left this month. "
            "The latest return date you can pick is 2026-12-11."
        )
        await fake.slash(ana, "away", until="2026-12-11")  # that date is taken
        assert fake.last_reply(ana).text().startswith("🏖️ Enjoy!")
    fake.assert_clean()


async def test_an_empty_leaderboard_says_how_this_server_rates(fake, db) -> None:
    mod, ana = fake.add_user("mod", manage_guild=True), fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "stats")
        assert fake.last_reply(ana).text() == (
            "You have no rated match here yet. A finished match with two or more people "
            "rates its players: start one with /play!"
        )
        await fake.slash(mod, "settings", ratings="events")
        await fake.slash(ana, "leaderboard", game="toss_your_cookies")
        assert (
            "Nobody is rated in Toss Your Cookies here yet. Only tournament matches are rated "
            "here: ask the organisers when the next one is."
        ) in fake.last_reply(ana).text()
    fake.assert_clean()


async def test_a_tournament_is_refused_where_its_tables_could_not_open(
    fake, db, monkeypatch
) -> None:
    """Every table of an event opens a thread of its channel: without Create Public
    Threads the event would sign everyone up and then stall at round 1. It is refused at
    once instead, naming what to grant and the command to try again."""
    restrict_bot(monkeypatch, README_BEFORE)
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(mod, "tournament create", game="toss_your_cookies", format="swiss")
        said = fake.last_reply(mod).text()
        assert said.startswith(f"I can't run a game in <#{fake.general.id}>: I'm missing ")
        assert "**Create Public Threads**" in said and "**Send Messages in Threads**" in said
        assert said.endswith("then try /tournament create again.")
        assert fake.last_reply(mod).ephemeral
        assert await bot.tournaments.store.tournaments(None, open_only=False) == []
    fake.assert_clean()
