"""Issue 38: every game played to its end in the pseudo-locale leaves no English on screen.

One person, named in Hangul so any ASCII word can only be a leak, plays each game to its
end against bots in a server and a client set to the pseudo-locale, then reads /help,
/rules, /stats, /history, /replay (stepped privately) and /settings. The checker
(tests/discord/untranslated.py) reads every message, edit, embed, button, select and
modal the offline Discord recorded, and the words of every table, hand and replay picture
where they are drawn: the server's, the player's and the viewer's language are all the
pseudo-locale here, so a picture drawn in any other leaves English.
"""

from __future__ import annotations

import pytest

from games.core.translations import PSEUDO
from tests.discord.conftest import make_bot, move_components, show_hand, table_of
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_toss_your_cookies import move_in_hand
from tests.discord.untranslated import (
    picture_words,
    record_pictures,
    report,
    untranslated,
)

# Each game with the lobby choices that keep its match short, and the bots that fill it.
SHORT: dict[str, tuple[dict[str, list[str]], int]] = {
    "cover_your_assets": ({"end_mode": ["quick"]}, 2),
    "cover_your_cookies": ({}, 2),
    "toss_your_cookies": ({}, 2),
    "cookie_chomper": ({}, 1),
    "braverse": ({}, 1),
}


async def play_in_pseudo(fake: FakeDiscord, bot, hana: FakeUser, game: str) -> str:  # type: ignore[no-untyped-def]
    """/play ``game`` with bots and click the first legal move until it ends: its id."""
    choices, bots = SHORT[game]
    await fake.slash(hana, "play", game=game)
    lobby = table_of(fake)
    for name, values in choices.items():
        select = next(s for s in lobby.selects() if s["custom_id"].endswith(f":{name}"))
        await fake.select(hana, lobby, select["custom_id"], values)
    join, _, add_bot, start = lobby.buttons()[:4]  # labels are pseudo: found by place
    match_id = join.custom_id.split(":")[2]
    await fake.click(hana, lobby, join)
    answer = fake.last_reply(hana)
    for toggle in answer.buttons():  # "Always ask me" and the like, in the Join answer
        await fake.click(hana, answer, toggle)
    for pick in (s for s in lobby.selects() if s["custom_id"].startswith("cj:seatpick:")):
        for option in (pick["options"][-1], pick["options"][0]):  # "One of my own…", a ready one
            await fake.select(hana, lobby, pick["custom_id"], [option["value"]])
    for _ in range(bots):
        await fake.click(hana, lobby, add_bot)
    await fake.click(hana, lobby, start)
    for _ in range(1500):
        if (await bot.service.get(match_id)).status == "finished":
            return match_id
        if not await move_in_hand(fake, hana):
            await fake.settle()
    raise AssertionError("the match did not end")


async def read_the_pages(
    fake: FakeDiscord, hana: FakeUser, yuki: FakeUser, game: str, match_id: str
) -> None:
    """/help, /rules, /stats, /history, /settings, /games, the last hand, stale buttons,
    and /replay: posted, stepped by its asker, and on a private copy by somebody else."""
    for command in ("help", "stats", "history", "settings", "games"):
        await fake.slash(hana, command)
    await fake.slash(hana, "stats", options={"user": yuki})  # somebody who never played
    await show_hand(fake, hana)  # "My last hand", the match over
    lobby_join = table_of(fake).buttons()[0]
    await fake.click(yuki, table_of(fake), lobby_join)  # a finished table's button
    for stale in [m for m in fake.messages.values() if not m.deleted and move_components(m)[0]]:
        await fake.click(hana, stale, move_components(stale)[0][0])  # a move of a match over
    await fake.slash(hana, "rules", game=game)
    await fake.slash(hana, "replay", match=match_id)
    posted = fake.public_messages(fake.general)[-1]
    await fake.click(hana, posted, posted.buttons()[2])  # Next
    await fake.click(yuki, posted, posted.buttons()[2])
    copy = fake.last_reply(yuki)
    assert copy.ephemeral and copy.id != posted.id
    await fake.click(yuki, copy, copy.buttons()[2])
    if game == "braverse":  # its decks: the list, and the form that imports one
        await fake.slash(hana, "deck list")
        await fake.slash(hana, "deck import")


@pytest.mark.parametrize("game", sorted(SHORT))
async def test_a_match_and_its_pages_read_no_english_in_the_pseudo_locale(
    fake: FakeDiscord, db, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    hana = fake.add_user("hana", display_name="하나", manage_guild=True)
    yuki = fake.add_user("yuki", display_name="ゆき")
    drawn = record_pictures(monkeypatch)
    async with fake.running(make_bot(db, pictures=True)) as bot:
        for user in (hana, yuki):
            await fake.slash(user, "language", language=PSEUDO)
        await fake.slash(hana, "settings", language=PSEUDO)
        match_id = await play_in_pseudo(fake, bot, hana, game)
        await read_the_pages(fake, hana, yuki, game, match_id)
        seats = [seat.name for seat in (await bot.service.get(match_id)).seats]
    names = [*seats, "하나", "ゆき"]
    left = untranslated(fake, names=names)
    assert not left, report(left, most=80)
    # The pictures sent: the table's, the hand's and the replay's (a page of the past).
    sent = {a.filename for m in fake.messages.values() for a in m.attachments}
    assert {"table.png", "hand.png"} <= sent, sent
    assert any(m.attachments for m in fake.messages.values() if "cj:rp:" in str(m.components))
    assert {p.kind for p in drawn} == {"table", "hand"}
    assert {p.language for p in drawn} == {PSEUDO}
    left = picture_words(drawn, names=names)
    assert not left, report(left, most=80)
    fake.assert_clean()
