"""Fixtures for driving the real Cookie Jar bot through the offline Discord harness."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.client import CookieJar
from bot.config import Settings
from cogs.table.pings import RECENT
from games import GAMES
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser
from tests.replay_check import check_replays


def make_bot(db: Path | str, *, pictures: bool = False, **values: object) -> CookieJar:
    """A bot on ``db``: a SQLite file, or a database URL (``database_url`` runs a test on
    both backends); ``values``: other settings (``public_url``...). It draws no pictures
    unless asked: drawing every state of every match would triple the suite's time, and
    tests/discord/test_pictures.py covers them."""
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="fake-token",
        database_url=db if isinstance(db, str) else f"sqlite:///{db}",
        bot_delay=0,
        bot_think_seconds=0.05,  # hard bots think briefly: the tests play, not measure
        table_edit_interval=0,
        gc_freeze=False,  # a test process starts many bots; frozen objects never go
        gc_threshold="",  # the collector is the test process's, not one bot's
        pictures=pictures,
        picture_processes=0,  # threads: a test may rig a game in this process
        **values,  # type: ignore[arg-type]
    )
    return CookieJar(settings)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The test's database. When the test ends, every match it finished is replayed from
    seed and actions and compared with its saved state (``monkeypatch`` is a dependency so
    that a game a test rigged is still in place for that replay)."""
    path = tmp_path / "cookie.db"
    yield path
    check_replays(path, GAMES)


@pytest.fixture
def fake(request: pytest.FixtureRequest) -> FakeDiscord:
    """The offline Discord keeping Discord's request budget (50 a second, the per-route
    buckets), so every test also checks that the bot works within it: discord.py waits out
    what Discord refuses, in fake time. A test marked ``discord_unlimited`` runs without:
    it reads a state in passing that Discord's pacing may rightly skip (the marker says
    which)."""
    if request.node.get_closest_marker("discord_unlimited") is not None:
        return FakeDiscord(rate_limits=None)
    return FakeDiscord()


def table_of(fake: FakeDiscord) -> FakeMessage:
    """The match's public message: the /play lobby, later the table."""
    return fake.public_messages(fake.general)[0]


async def show_hand(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    table = table_of(fake)
    # "Show hand", "Grab cards" in a scramble, "My last hand" once it is over.
    button = next(b for b in table.buttons() if (b.custom_id or "").startswith("cj:hand:"))
    await fake.click(user, table, button)
    return fake.last_reply(user)


def move_components(message: FakeMessage) -> tuple[list[str], list[dict]]:
    buttons = [
        b.custom_id for b in message.buttons() if b.custom_id and b.custom_id.startswith("cj:do:")
    ]
    selects = [s for s in message.selects() if s["custom_id"].startswith("cj:pick:")]
    return buttons, selects


async def make_a_move(fake: FakeDiscord, user: FakeUser) -> bool:
    """Open the hand; if a move is offered, take the first one. True if a move was made."""
    hand = await show_hand(fake, user)
    buttons, selects = move_components(hand)
    if buttons:
        await fake.click(user, hand, buttons[0])
        return True
    if selects:
        select = selects[0]
        await fake.select(user, hand, select["custom_id"], [select["options"][0]["value"]])
        return True
    return False


async def looked_away(fake: FakeDiscord) -> None:
    """Everyone looked away from the match: nobody clicked in it for ``RECENT`` seconds,
    so a mention owed to them goes at once (and one that waited while they looked, now)."""
    await fake.advance(RECENT + 1)


async def open_game(
    fake: FakeDiscord,
    game: str,
    host: FakeUser,
    *joiners: FakeUser,
    bots: int = 0,
    choices: dict[str, list[str]] | None = None,
    always_ask: bool = True,
) -> None:
    """/play ``game``; the host picks ``choices`` (select name -> values), people join,
    bots are added, and the host starts. With ``always_ask`` every person turns on "always
    ask me" in their Join answer (the host presses Join again for it), so a test clicks
    its lone Pass itself instead of seeing it played after the pause."""
    await fake.slash(host, "play", game=game)
    lobby = table_of(fake)
    assert "· lobby" in lobby.text()
    for name, values in (choices or {}).items():
        select = next(s for s in lobby.selects() if s["custom_id"].endswith(f":{name}"))
        await fake.select(host, lobby, select["custom_id"], values)
    for user in (host, *joiners) if always_ask else joiners:
        await fake.click(user, lobby, lobby.find_button("Join"))
        if always_ask:
            answer = fake.last_reply(user)
            await fake.click(user, answer, answer.find_button("Always ask me"))
            assert "Always ask me: on" in fake.last_reply(user).text()
    for _ in range(bots):
        await fake.click(host, lobby, lobby.find_button("Add bot"))
    await fake.click(host, lobby, lobby.find_button("Start"))


async def mover_and_hand(fake: FakeDiscord, users: list[FakeUser]):  # type: ignore[no-untyped-def]
    for user in users:
        hand = await show_hand(fake, user)
        buttons, selects = move_components(hand)
        if buttons or selects:
            return user, hand, buttons, selects
    raise AssertionError("nobody can move")


async def click_first_move(fake: FakeDiscord, user: FakeUser, hand, buttons, selects, **kw):  # type: ignore[no-untyped-def]
    if buttons:
        return await fake.click(user, hand, buttons[0], **kw)
    values = [selects[0]["options"][0]["value"]]
    return await fake.select(user, hand, selects[0]["custom_id"], values, **kw)


async def leave_for_good(fake: FakeDiscord, user: FakeUser, **where: object) -> FakeMessage:
    """/leave in a running match, and yes on its question: the seat is a bot's for good."""
    await fake.slash(user, "leave", **where)
    question = fake.last_reply(user)
    assert "for good" in question.text()
    await fake.click(user, question, question.find_button("Leave for good"))
    return fake.last_reply(user)
