"""Pictures in Discord (issue 28): the table message and a hand view carry their picture,
re-sent when what it shows changed; ``/settings pictures:off`` sends none; each replay
page shows the table of its moment. Played with Braverse, the first game that draws."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from PIL import Image

from cogs.table import presenter_of
from games import GAMES
from games.core.panels import PanelField
from games.core.pictures import hand_picture
from tests.discord.conftest import (
    make_a_move,
    make_bot,
    move_components,
    open_game,
    show_hand,
    table_of,
)
from tests.discord.harness import FakeAttachment, FakeDiscord, FakeMessage, FakeUser
from tests.discord.test_toss_your_cookies import play_to_the_end


def picture_of(message: FakeMessage, embed: int = 0) -> FakeAttachment:
    """The attachment the message's embed shows, checked to be a PNG Discord can show."""
    url = message.embeds[embed].get("image", {}).get("url", "")
    assert url.startswith("attachment://"), message.embeds[embed]
    name = url.removeprefix("attachment://")
    (attachment,) = [a for a in message.attachments if a.filename == name]
    with Image.open(io.BytesIO(attachment.data)) as image:
        assert image.format == "PNG" and image.width >= 400
    return attachment


async def against_a_bot(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    """A Braverse match of ``user`` against a bot: its table message."""
    await open_game(fake, "braverse", user, bots=1)
    return table_of(fake)


async def test_the_table_carries_its_picture_and_an_edit_after_a_move_sends_the_new_one(
    fake, db
) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db, pictures=True)):
        table = await against_a_bot(fake, ana)
        first = picture_of(table)
        # The text stays below the picture, shorter: Support's colours are drawn.
        assert "Break Area LV 0/10" in table.text() and "Support 0 of 0" not in table.text()
        assert "Support (pays costs)" not in table.text()
        for _ in range(40):
            if await make_a_move(fake, ana):
                break
            await fake.settle()
        await fake.settle()
        after = picture_of(table)
        assert after.data != first.data and after.id != first.id  # uploaded again
        # Every version of the table message that showed a picture named one it had.
        for version in [*table.history, {"embeds": table.embeds}]:
            for embed in version.get("embeds") or []:
                if "image" in embed:
                    assert embed["image"]["url"].endswith("table.png")
    fake.assert_clean()


async def test_an_edit_that_changes_nothing_pictured_keeps_the_picture_it_has(
    fake, db, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db, pictures=True)) as bot:
        table = await against_a_bot(fake, ana)
        shown = picture_of(table)
        edits = len(table.history)
        record = await bot.service.store.open_in_channel(fake.general.id)
        presenter = presenter_of(bot)
        await presenter.refresh(record.match_id)
        assert len(table.history) == edits  # a redraw of the same state: nothing to send
        # A change of the text beneath alone (a line of how the match is run): the embed
        # names the picture the message keeps.
        fields = presenter.drawing.match_fields

        async def one_more(record):  # type: ignore[no-untyped-def]
            return [*await fields(record), PanelField(name="🏖️ On vacation", value="Abe")]

        monkeypatch.setattr(presenter.drawing, "match_fields", one_more)
        await presenter.refresh(record.match_id)
        assert len(table.history) == edits + 1
        kept = picture_of(table)
        assert (kept.id, kept.data) == (shown.id, shown.data)
    fake.assert_clean()


async def test_a_hand_view_carries_that_seats_hand_picture(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db, pictures=True)) as bot:
        await open_game(fake, "braverse", ana, ben)
        ana_hand, ben_hand = await show_hand(fake, ana), await show_hand(fake, ben)
        assert ana_hand.ephemeral and ben_hand.ephemeral
        mine, theirs = picture_of(ana_hand), picture_of(ben_hand)
        # Beneath the picture each card is named; its costs and attack are drawn.
        assert "Your hand (6 cards)" in ana_hand.text() and "attack:" not in ana_hand.text()
        assert mine.filename == "hand.png" and mine.data != theirs.data
        record = await bot.service.store.open_in_channel(fake.general.id)
        game = bot.service.game_of(record)
        state = bot.service.load_state(record)
        assert mine.data == hand_picture(game, game.view(state, 0))
        # The table's picture is in no hand view, and no hand picture is public.
        hands = {mine.data, theirs.data}
        for message in fake.public_messages(fake.general):
            assert not hands & {a.data for a in message.attachments}
    fake.assert_clean()


async def test_pictures_off_sends_no_picture_anywhere_and_the_full_text(fake, db) -> None:
    ana = fake.add_user("ana")
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db, pictures=True)):
        await fake.slash(mod, "settings", pictures=False)
        assert "Pictures: off" in fake.last_reply(mod).text()
        await against_a_bot(fake, ana)
        hand = await show_hand(fake, ana)
        await make_a_move(fake, ana)
        await fake.settle()
        # The full text: what the picture would have shown is said in words.
        assert "Break Area LV 0/10" in table_of(fake).text()
        assert "Support (pays costs)" in table_of(fake).text() and "attack:" in hand.text()
        for message in fake.messages.values():
            assert not message.attachments, message.text()
            assert all("image" not in e for e in message.embeds)
        assert hand.embeds and "image" not in hand.embeds[0]
        await fake.slash(mod, "settings", pictures=True)
        assert "Pictures: on" in fake.last_reply(mod).text()
        picture_of(await show_hand(fake, ana))  # on again: at the next message
    fake.assert_clean()


async def test_each_replay_page_shows_the_table_of_its_moment(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db, pictures=True)) as bot:
        await against_a_bot(fake, ana)
        await play_to_the_end(fake, [ana])
        match_id = table_of(fake).find_button("Rematch").custom_id.split(":")[2]
        await fake.slash(ana, "replay", match=match_id)
        page = fake.last_reply(ana)
        deal = picture_of(page)
        for _ in range(3):
            await fake.click(ana, page, page.find_button("Next"))
        later = picture_of(page)
        assert later.data != deal.data
        replay = await bot.service.replay(fake.guild_id, match_id)
        game = bot.service.game_of(replay.record)
        assert later.data == game.table_picture(game.view(replay.frames[3].state, None))
    fake.assert_clean()


async def test_a_table_whose_picture_fails_to_draw_plays_on_in_text(
    fake, db, monkeypatch, caplog
) -> None:
    def broken(self, view, language="en"):  # type: ignore[no-untyped-def]
        raise ValueError("a drawing bug")

    monkeypatch.setattr(type(GAMES["braverse"]), "table_picture", broken)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db, pictures=True)):
        table = await against_a_bot(fake, ana)
        assert "Break Area LV 0/10" in table.text() and not table.attachments
        assert "image" not in table.embeds[0]
        assert await make_a_move(fake, ana) or await make_a_move(fake, ana)
        picture_of(fake.last_reply(ana))  # the hand's picture still draws
    assert "could not draw the picture" in caplog.text
    fake.assert_clean()


async def test_a_process_started_with_pictures_false_sends_none_whatever_the_server_says(
    fake, db
) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db, pictures=False)):
        await against_a_bot(fake, ana)
        await show_hand(fake, ana)
        assert fake.messages and not any(m.attachments for m in fake.messages.values())
    fake.assert_clean()


async def test_a_table_edit_whose_picture_is_late_keeps_the_one_shown_then_sends_it(
    fake, db, monkeypatch
) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db, pictures=True)) as bot:
        table = await against_a_bot(fake, ana)
        shown = picture_of(table)
        presenter = presenter_of(bot)
        record = await bot.service.store.open_in_channel(fake.general.id)
        real = presenter.drawing.table_message
        told: list[object] = []

        async def late(record, **kwargs):  # type: ignore[no-untyped-def]
            drawn = await real(record)
            told.append(kwargs["late"])
            drawn.picture, drawn.late = None, True  # as when TABLE_WAIT ran out
            drawn.embeds[0].description = "Newer text"
            return drawn

        monkeypatch.setattr(presenter.drawing, "table_message", late)
        await presenter.refresh(record.match_id)
        # The text changed at once; the embed still shows the picture the message has.
        assert table.embeds[0]["description"] == "Newer text"
        assert picture_of(table).id == shown.id
        monkeypatch.setattr(presenter.drawing, "table_message", real)
        # Once drawn, the picture asks for the next edit, which sends it.
        told[0]()  # type: ignore[operator]
        await fake.settle()
        assert table.embeds[0]["description"] != "Newer text"
        assert picture_of(table).data == shown.data
    fake.assert_clean()


async def hand_without_its_picture(fake: FakeDiscord, bot: Any, user: FakeUser) -> FakeMessage:
    """``user`` presses Show hand while the drawers are busy (no view waits for its
    picture): the answer, sent at once, before the picture is drawn."""
    presenter_of(bot).pictures.hand_wait = 0.0
    table = table_of(fake)
    button = next(b for b in table.buttons() if (b.custom_id or "").startswith("cj:hand:"))
    click = await fake.click(user, table, button, dispatch_only=True)
    while not click.acknowledged:
        await asyncio.sleep(0)
    return fake.last_reply(user)


async def hand_picture_now(fake: FakeDiscord, bot: Any, seat: int) -> bytes:
    """The hand picture of ``seat`` as the match stands."""
    record = await bot.service.store.open_in_channel(fake.general.id)
    game = bot.service.game_of(record)
    return hand_picture(game, game.view(bot.service.load_state(record), seat))


async def test_a_hand_view_that_went_without_its_picture_gets_it_once_drawn(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db, pictures=True)) as bot:
        await open_game(fake, "braverse", ana, ben)
        hand = await hand_without_its_picture(fake, bot, ana)
        # The answer went at once, in text (the full text: no picture says it)...
        assert not hand.attachments and "Your hand (6 cards)" in hand.text()
        await fake.settle()
        # ...and once drawn, the picture came to the same view.
        assert fake.last_reply(ana).id == hand.id
        assert picture_of(hand).data == await hand_picture_now(fake, bot, 0)
    fake.assert_clean()


async def test_a_late_hand_picture_does_not_follow_onto_a_view_clicked_on_meanwhile(
    fake, db
) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db, pictures=True)) as bot:
        await against_a_bot(fake, ana)
        hand = await hand_without_its_picture(fake, bot, ana)
        assert not hand.attachments
        # Drawn in a thread; its edit then waits PICTURE_FOLLOWS_AFTER.
        while presenter_of(bot).pictures._drawing:
            await asyncio.sleep(0.001)
        buttons, _ = move_components(hand)
        await fake.click(ana, hand, buttons[0])  # answered in the same view meanwhile
        await fake.settle()
        assert fake.last_reply(ana).id == hand.id
        # Only the move's answer got its picture, once: the first one never followed.
        versions = [*hand.history, {"embeds": hand.embeds}]
        shown = [v for v in versions if any("image" in e for e in v["embeds"])]
        assert len(shown) == 1 and shown[-1]["embeds"] == hand.embeds
        assert picture_of(hand).data == await hand_picture_now(fake, bot, 0)
    fake.assert_clean()
