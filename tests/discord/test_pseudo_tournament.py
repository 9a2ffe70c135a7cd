"""Issue 38: a whole tournament played in the pseudo-locale leaves no English on screen,
in Discord, in its pictures (read at the drawing calls) and on its web pages.

A server set to the pseudo-locale runs a Swiss of two rounds with a top cut of two: its
organiser 하나 and ゆき sign up (with check-in), bots fill the field, both play every
table they are seated at by clicking their hand's first move, and the organiser's tools
and the players' buttons are pressed along the way (a refusal among them). Then the event's
page, its bracket picture, the front page and a player's page are read as the server's
web page serves them. Names are in Hangul and Kana, so any ASCII word can only be a leak.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import ManualClock
from bot.service.tournaments import FORFEIT_AFTER
from bot.web.app import make_app
from bot.web.paths import site_root
from bot.web.reader import Reader
from games import GAMES
from games.core.translations import PSEUDO
from games.core.words import BOT_NAMES
from tests.discord.conftest import make_bot, move_components
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser
from tests.discord.test_toss_your_cookies import enough_rows
from tests.discord.test_tournaments import (
    PatientDiscord,
    move_on,
    settle_all,
    the_event,
    use_manual_clock,
)
from tests.discord.untranslated import (
    ABBREVIATIONS,
    record_lettering,
    report,
    untranslated,
    words_in,
)

GAME = "cookie_chomper"


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


def has_verb(message: FakeMessage, name: str) -> bool:
    return any((b.custom_id or "").endswith(f":{name}") for b in message.buttons())


def verb(message: FakeMessage, name: str) -> str:
    """An event button's custom id, found by its verb (the labels are pseudo)."""
    found = [b.custom_id for b in message.buttons() if (b.custom_id or "").endswith(f":{name}")]
    assert found, (name, message.text())
    return found[0]


async def move_at(fake: FakeDiscord, user: FakeUser, thread: Any) -> bool:
    """From the table in ``thread``: open the hand, take its first move (or as many cards
    as a pick wants). True if a move was made."""
    shown = [m for m in fake.public_messages(thread) if not m.deleted]
    table = next(m for m in shown if hand_button(m) is not None)
    await fake.click(user, table, hand_button(table))
    hand = fake.last_reply(user)
    buttons, selects = move_components(hand)
    if buttons:
        await fake.click(user, hand, buttons[0])
    elif selects:
        await fake.select(user, hand, selects[0]["custom_id"], enough_rows(selects[0]))
    return bool(buttons or selects)


def hand_button(message: FakeMessage) -> str | None:
    found = [b.custom_id for b in message.buttons() if (b.custom_id or "").startswith("cj:hand:")]
    return found[0] if found else None


async def play_the_round(  # type: ignore[no-untyped-def]
    fake: FakeDiscord, bot, users: list[FakeUser], clock: ManualClock | None = None
) -> None:  # type: ignore[no-untyped-def]
    """Play each table of this round that seats one of ``users`` to its end, each of them
    taking their first move whenever they have one; bots play their own, and on a live
    event's ``clock`` the clock of anyone else runs out."""
    event = await the_event(bot)
    view = await bot.tournaments.view(event.tournament_id)
    seated = {e.entrant: u for u in users if (e := view.of_user(u.id)) is not None}
    for table in view.tables:
        people = [seated[p] for p in table.seats if p in seated]
        if table.round != event.round or table.status != "playing" or not people:
            continue
        thread = fake.channels[table.thread_id]  # type: ignore[index]
        for _ in range(1500):
            if (await bot.service.get(table.match_id)).status == "finished":  # type: ignore[arg-type]
                break
            moved = [await move_at(fake, user, thread) for user in people]
            if any(moved):
                continue
            if clock is None:
                await fake.settle()
            else:  # waiting on someone who is not there: their clock runs
                await move_on(fake, bot, clock, 5)
        else:
            raise AssertionError("the table did not end")
    await settle_all(fake, bot)


async def decide_cancelled_tables(fake: FakeDiscord, bot, organiser: FakeUser) -> None:  # type: ignore[no-untyped-def]
    """The organiser sets the result of each table of this round that was cancelled (a
    player dropped from it): seat order."""
    event = await the_event(bot)
    view = await bot.tournaments.view(event.tournament_id)
    for table in view.tables:
        if table.round == event.round and table.status == "cancelled":
            order = " > ".join(view.name(p) for p in table.seats)
            await fake.slash(organiser, "tournament result", order=order)
    await settle_all(fake, bot)


class Shown(HTMLParser):
    """A page's words as a reader sees them: its text, and its alt, aria-label and title
    attributes; scripts and styles aside."""

    def __init__(self) -> None:
        super().__init__()
        self.strings: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hidden += tag in ("script", "style")
        self.strings += [v for k, v in attrs if k in ("alt", "aria-label", "title") and v]

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.strings.append(data)


async def read_the_web_pages(  # type: ignore[no-untyped-def]
    fake: FakeDiscord, bot, tournament_id: str, users: list[FakeUser], *, bracket: bool = True
) -> list[str]:  # type: ignore[no-untyped-def]
    """The server's web pages of the event (its bracket picture too), the front page and
    each player's page, as the bot's own database serves them: their words."""
    settings = await bot.service.guild_settings(fake.guild_id)
    root = site_root(fake.guild_id, settings.web_token)
    client = TestClient(TestServer(make_app(Reader(bot.store, GAMES, bot.service))))
    await client.start_server()
    strings: list[str] = []
    try:
        paths = [f"{root}/", f"{root}/event/{tournament_id}"]
        paths += [f"{root}/player/{user.id}" for user in users]
        for path in paths:
            response = await client.get(path)
            assert response.status == 200, path
            page = await response.text()
            assert '<html lang="en-XA">' in page, path
            parser = Shown()
            parser.feed(page)
            strings += parser.strings
        if bracket:  # drawn in the page's language: its words go through the drawing call
            picture = await client.get(f"{root}/event/{tournament_id}/bracket.png")
            assert picture.status == 200 and picture.content_type == "image/png"
    finally:
        await client.close()
    return strings


def left_in_english(
    fake: FakeDiscord, drawn: list[str], pages: list[str], names: list[str]
) -> list[Any]:
    """Every English word in what Discord showed, the pictures drew and the pages said,
    outside ``names`` (the people's and the bots'), product names, and a tiebreak's short
    name (OMW%: the same in every language, as in Discord)."""
    people = [*names, *BOT_NAMES]
    allowed = [*people, *ABBREVIATIONS, *(game.name for game in GAMES.values()), "UTC"]
    return untranslated(fake, names=allowed) + words_in(drawn, allowed) + words_in(pages, allowed)


async def event_ids(bot) -> list[str]:  # type: ignore[no-untyped-def]
    """Every event's id: shown as it is (a footer's "Event 3fa9c0de"), so one of hex
    letters alone ("cbedafac", about one in 2,500) would read as an English word."""
    return [e.tournament_id for e in await bot.tournaments.store.tournaments(None, open_only=False)]


async def pseudo_server(fake: FakeDiscord, *users: FakeUser) -> None:
    """Each person reads the pseudo-locale, the server speaks it and shows its web page."""
    for user in users:
        await fake.slash(user, "language", language=PSEUDO)
    await fake.slash(users[0], "settings", language=PSEUDO, web=True)


async def test_a_tournament_its_pictures_and_pages_read_no_english_in_the_pseudo_locale(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = record_lettering(monkeypatch)
    hana = fake.add_user("hana", display_name="하나", manage_guild=True)
    yuki = fake.add_user("yuki", display_name="ゆき")
    async with fake.running(make_bot(db)) as bot:
        await pseudo_server(fake, hana, yuki)
        await fake.slash(
            hana, "tournament create", game=GAME, format="swiss", rounds=2, top_cut=2, checkin=True
        )
        signup = fake.public_messages()[-1]
        # Sign-up: both join and check in, one asks again, one leaves and comes back, a
        # player may not start it, two bots fill the field.
        for user in (hana, yuki):
            await fake.click(user, signup, verb(signup, "join"))
        await fake.click(yuki, signup, verb(signup, "join"))  # already in
        await fake.click(yuki, signup, verb(signup, "leave"))
        await fake.click(yuki, signup, verb(signup, "join"))
        for user in (hana, yuki):
            await fake.click(user, signup, verb(signup, "checkin"))
        await fake.click(yuki, signup, verb(signup, "start"))  # only the organiser
        for _ in range(2):
            await fake.click(hana, signup, verb(signup, "bot"))
        await fake.click(hana, signup, verb(signup, "start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        tid = event.tournament_id

        for round_no in (1, 2, 3):  # two Swiss rounds, then the top cut's final
            assert (await the_event(bot)).round == round_no
            pairings = fake.public_messages()[-1]
            for user in (hana, yuki):
                await fake.click(user, pairings, verb(pairings, "mytable"))
                await fake.click(user, signup, verb(signup, "standing"))
                await fake.slash(user, "tournament standings")
            if round_no == 1:  # the organiser's tools, and a refusal
                await fake.slash(hana, "tournament result", order="누구 > 아무도")
                await fake.slash(yuki, "tournament pause")
                await fake.slash(hana, "tournament pause")
                await fake.slash(hana, "tournament resume")
                await fake.slash(hana, "tournament extend", table=1, hours=5)
            await play_the_round(fake, bot, [hana, yuki])
            if (await the_event(bot)).status == "finished":
                break
        event = await the_event(bot)
        assert event.status == "finished"
        for user in (hana, yuki):
            await fake.slash(user, "tournament standings")
            await fake.slash(user, "tournament log")
        await fake.click(yuki, signup, verb(signup, "standing"))
        web_words = await read_the_web_pages(fake, bot, tid, [hana, yuki])
        view = await bot.tournaments.view(tid)
        names = [e.name for e in view.entrants] + await event_ids(bot)
    assert drawn, "no picture was drawn"
    left = left_in_english(fake, drawn, web_words, [*names, "하나", "ゆき", "누구", "아무도"])
    assert not left, report(left, most=80)
    fake.assert_clean()


async def test_an_organisers_tools_on_a_live_pod_event_read_no_english_in_the_pseudo_locale(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pod Swiss at a live pace with a final table: a bot added by command, a late entry
    who never plays (a forfeit, Stay in), a drop and an undrop, pairing again, the
    countdown between rounds and its Start now, a disqualification, the organiser ending
    it, the exports; then another event cancelled from its sign-up."""
    drawn = record_lettering(monkeypatch)
    # 소라 forfeits at their first missed turn: after three, the deal (a random seed) had
    # sometimes knocked them out first (their default moves took the poison), and then no
    # forfeit is due. Nobody takes cookies before their own turn, so the first one is sure.
    monkeypatch.setitem(FORFEIT_AFTER, "live", 1)
    hana = fake.add_user("hana", display_name="하나", manage_guild=True)
    yuki = fake.add_user("yuki", display_name="ゆき")
    sora = fake.add_user("sora", display_name="소라")
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        await pseudo_server(fake, hana, yuki, sora)
        await fake.slash(
            hana, "tournament create", game=GAME, format="pods", pace="live", rounds=3, top_cut=4
        )
        signup = fake.public_messages()[-1]
        for user in (hana, yuki):
            await fake.click(user, signup, verb(signup, "join"))
        for _ in range(3):
            await fake.click(hana, signup, verb(signup, "bot"))
        await fake.slash(hana, "tournament add")  # a bot, by command
        await fake.click(hana, signup, verb(signup, "start"))
        await settle_all(fake, bot)
        await fake.slash(hana, "tournament repair")  # no move made yet: paired again
        await fake.slash(hana, "tournament add", member=sora)  # a late entry
        await fake.slash(hana, "tournament player", name="ゆき", action="dropped")
        await fake.slash(hana, "tournament player", name="ゆき", action="entered")
        await fake.slash(yuki, "tournament player", name="하나", action="dropped")  # refused
        await play_the_round(fake, bot, [hana, yuki])
        await decide_cancelled_tables(fake, bot, hana)  # ゆき's, cancelled by the drop
        for _ in range(100):  # round 1's bots finish; the countdown to round 2 is posted
            event = await the_event(bot)
            countdown = [m for m in fake.public_messages() if has_verb(m, "next")]
            if countdown or event.round > 1:
                break
            await move_on(fake, bot, clock, 5)
        assert countdown, "no countdown to round 2"
        await fake.click(yuki, countdown[-1], verb(countdown[-1], "next"))  # only the organiser
        await fake.click(hana, countdown[-1], verb(countdown[-1], "next"))
        await settle_all(fake, bot)
        assert (await the_event(bot)).round == 2
        # 소라 never moves: their table's clock runs out and they forfeit it, and they
        # press Stay in.
        stayed = False
        for _ in range(200):
            stay = [m for m in fake.messages.values() if not m.deleted and has_verb(m, "stay")]
            if stay and not stayed:
                await fake.click(sora, stay[-1], verb(stay[-1], "stay"))
                stayed = True
            await play_the_round(fake, bot, [hana, yuki], clock)
            event = await the_event(bot)
            if event.round > 2 or event.status != "running":
                break
            await move_on(fake, bot, clock, 30)
        assert stayed, "no forfeit was posted"
        view = await bot.tournaments.view((await the_event(bot)).tournament_id)
        assert view.of_user(sora.id) is not None  # in from round 2
        await fake.slash(hana, "tournament player", name="소라", action="disqualified")
        await fake.slash(hana, "tournament end")
        await settle_all(fake, bot)
        assert (await the_event(bot)).status == "finished"
        await fake.slash(hana, "tournament export")
        await fake.slash(yuki, "tournament drop")  # too late: refused
        tid = (await the_event(bot)).tournament_id
        web_words = await read_the_web_pages(fake, bot, tid, [hana, yuki], bracket=False)
        view = await bot.tournaments.view(tid)
        names = [e.name for e in view.entrants]
        # Another event, cancelled from its sign-up, in another channel.
        room = fake.add_channel("room")
        await fake.slash(hana, "tournament create", channel=room, game=GAME, format="swiss")
        other = fake.public_messages(room)[-1]
        await fake.click(hana, other, verb(other, "cancel"))
        names += await event_ids(bot)
    assert drawn, "no picture was drawn"
    left = left_in_english(fake, drawn, web_words, [*names, "하나", "ゆき", "소라"])
    assert not left, report(left, most=80)
    fake.assert_clean()


async def test_a_group_event_its_groups_picture_and_page_read_no_english_in_the_pseudo_locale(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slow group stages: a refusal (a live pace), then nine players in two groups whose
    tables all start at once (My table lists them), the best of each to the last group,
    the groups' picture on the pairings and the event's page."""
    drawn = record_lettering(monkeypatch)
    hana = fake.add_user("hana", display_name="하나", manage_guild=True)
    yuki = fake.add_user("yuki", display_name="ゆき")
    async with fake.running(make_bot(db)) as bot:
        await pseudo_server(fake, hana, yuki)
        await fake.slash(hana, "tournament create", game=GAME, format="groups", pace="live")
        await fake.slash(hana, "tournament create", game=GAME, format="groups")
        signup = fake.public_messages()[-1]
        for user in (hana, yuki):
            await fake.click(user, signup, verb(signup, "join"))
        for _ in range(7):
            await fake.click(hana, signup, verb(signup, "bot"))
        await fake.click(hana, signup, verb(signup, "start"))
        await settle_all(fake, bot)
        tid = (await the_event(bot)).tournament_id
        for round_no in (1, 2):
            event = await the_event(bot)
            if event.status == "finished":
                break
            assert event.round == round_no
            pairings = fake.public_messages()[-1]
            for user in (hana, yuki):
                await fake.click(user, pairings, verb(pairings, "mytable"))
                await fake.slash(user, "tournament standings")
            await play_the_round(fake, bot, [hana, yuki])
        event = await the_event(bot)
        assert event.status == "finished" and event.round == 2  # the groups, the last group
        web_words = await read_the_web_pages(fake, bot, tid, [hana, yuki])
        view = await bot.tournaments.view(tid)
        names = [e.name for e in view.entrants] + await event_ids(bot)
    assert drawn, "no picture was drawn"
    left = left_in_english(fake, drawn, web_words, [*names, "하나", "ゆき"])
    assert not left, report(left, most=80)
    fake.assert_clean()
