"""A community's first evening (issue 27): pings that neither storm nor vanish, the open
hand view that follows the turn, and a scramble people can win."""

from __future__ import annotations

import asyncio
import re

import pytest

from cogs.table.pings import turn_ping
from games.core.translations import ENGLISH
from games.toss.state import Roll
from tests.discord.conftest import (
    click_first_move,
    make_bot,
    move_components,
    open_game,
    show_hand,
    table_of,
)
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser
from tests.discord.test_cover_your_assets import play_to_the_end
from tests.discord.test_toss_your_cookies import rigged_table

HAND_SEED = 1
SEED = 2  # a bot rolls first: the toss of the milk is its own


def every_ping(fake: FakeDiscord) -> list[FakeMessage]:
    """Every public message with a mention the channel ever had, deleted ones too."""
    return [
        m
        for m in sorted(fake.messages.values(), key=lambda m: m.id)
        if m.channel_id == fake.general.id and m.visible_to is None and "<@" in m.content
    ]


async def test_a_three_seat_cookies_game_mentions_each_person_rarely_and_readably(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        bot.service.new_seed = lambda: HAND_SEED
        await open_game(fake, "cover_your_cookies", ana, ben, bots=1)
        await play_to_the_end(fake, [ana, ben])
        pings = every_ping(fake)
        # Each person is mentioned once, at the end: before each turn they had clicked in
        # the match moments ago (Join and Start before the first), and their open hand or
        # the table showed it (the evening's player got 20 mentions in 38 s).
        counts = {u.name: sum(u.mention in m.content for m in pings) for u in (ana, ben)}
        assert counts == {"ana": 1, "ben": 1}, counts
        # A mention never runs into the next words: a comma or colon follows it.
        for message in pings:
            for after in re.findall(r"<@\d+>(.)", message.content):
                assert after in ",: ", message.content
            assert not re.search(r"<@\d+> [^<]", message.content), message.content
    fake.assert_clean()


async def quick(fake: FakeDiscord, user: FakeUser, message: FakeMessage, custom_id: str):  # type: ignore[no-untyped-def]
    """A click, then only what is due within 0.9 s happens (a quick person's tap)."""
    baseline = asyncio.all_tasks()
    record = await fake.click(user, message, custom_id, dispatch_only=True)
    await fake.settle(baseline=baseline, horizon=0.9)
    return record


@pytest.mark.discord_unlimited(
    "a scramble timed in tenths of a second: the table's edit waits for its channel's bucket"
)
async def test_a_person_can_win_the_milk_from_the_ping_and_a_loser_hears_who_got_it(
    fake: FakeDiscord, db, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    later = [Roll(action="left", number="2")] * 50  # whatever follows
    await rigged_table(
        fake, db, monkeypatch, [ana, ben], Roll(action="toss", number="milk"), *later
    )
    async with fake.running(make_bot(db)) as bot:
        bot.service.new_seed = lambda: SEED
        await fake.slash(ana, "play", game="toss_your_cookies")
        lobby = table_of(fake)
        for user in (ana, ben):
            await fake.click(user, lobby, lobby.find_button("Join"))
            answer = fake.last_reply(user)
            await fake.click(user, answer, answer.find_button("Always ask me"))
        for _ in range(2):
            await fake.click(ana, lobby, lobby.find_button("Add bot"))
        # Bots as a live server runs them, and each at its quickest (the low end of its spread).
        bot.bots.delay = 0.5
        bot.bots.rng.uniform = lambda low, high: low
        await quick(fake, ana, lobby, lobby.find_button("Start"))
        record = await bot.service.store.open_in_channel(fake.general.id)
        state = bot.service.load_state(await bot.service.get(record.match_id))
        # The bot rolled and tossed the milk; 0.9 s on, no bot has grabbed it yet.
        assert state.phase == "scramble" and state.scramble.tosser == 2
        assert state.scramble.middle == ["milk"]
        # The ping carries the grab button: one tap, and the milk is Ana's.
        (ping,) = [m for m in fake.public_messages() if "scramble is on" in m.content]
        assert ana.mention in ping.content and ben.mention in ping.content
        # Posted as a new message, not edited into an earlier ping: only a new mention
        # makes a phone buzz, and the scramble is timed.
        assert ping.history == []
        milk = next(b.custom_id for b in ping.buttons() if b.label and "Milk" in b.label)
        await quick(fake, ana, ping, milk)
        name = record.seats[0].name
        assert any(f"{name} grabs the milk" in t for t in fake.all_public_text())
        assert fake.last_reply(ana).ephemeral  # her answer is her own hand view
        # Ben taps a moment later: he is told who got it.
        await quick(fake, ben, ping, milk)
        lost = fake.last_reply(ben)
        assert (
            lost.ephemeral and "Too late" in lost.text() and f"{name} grabs the milk" in lost.text()
        )


async def test_the_open_hand_follows_the_turn_with_no_new_ping(fake: FakeDiscord, db) -> None:  # type: ignore[no-untyped-def]
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        bot.service.new_seed = lambda: HAND_SEED  # a deal where Ana's first move ends her turn
        await open_game(fake, "cover_your_assets", ana, bots=1)
        await fake.settle()
        hand = await show_hand(fake, ana)
        buttons, selects = move_components(hand)
        assert buttons or selects  # the bot has moved if it was first: Ana's turn
        assert every_ping(fake) == []  # she pressed Start moments ago: she is looking
        record = await bot.service.store.open_in_channel(fake.general.id)
        before = len(await bot.service.store.actions(record.match_id))
        await click_first_move(fake, ana, hand, buttons, selects)
        await fake.settle()
        moves = await bot.service.store.actions(record.match_id)
        assert {m.seat for m in moves[before + 1 :]} == {1}  # the bot answered: Ana's turn again
        # The same hand message now offers Ana's moves: no Show hand, no new mention.
        followed = fake.messages[hand.id]
        assert not followed.deleted and "Waiting for" not in followed.text()
        assert any(move_components(followed))
        assert every_ping(fake) == []
        assert "Your hand" in followed.text()
        # Away from the game a while, she is mentioned again: the bot now thinks 40 s.
        bot.bots.delay = 40.0
        await click_first_move(fake, ana, followed, *move_components(followed))
        assert every_ping(fake) == []
        await fake.advance(41)
        later = every_ping(fake)
        assert len(later) == 1 and ana.mention in later[0].content and not later[0].deleted
    fake.assert_clean()


async def test_a_reaction_ping_puts_a_colon_between_the_mention_and_the_news(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_cookies", ana, ben, bots=1)
        record = await bot.service.store.open_in_channel(fake.general.id)
        record, deciding = await bot.service.deciding_now(record.match_id)
        game = bot.service.game_of(record)
        seat = next(s.seat for s in record.seats if s.user_id == ben.id)
        # The evening's ping: a bot's draft that Ben may challenge.
        challenge = deciding[0].model_copy(
            update={
                "seat": seat,
                "reaction": True,
                "prompt": "🤖 Abe drafted a Jewels set. Challenge it?",
            }
        )
        text, _ = turn_ping(record, game, [challenge], [seat], {}, ENGLISH)
        assert text == f"⚔️ {ben.mention}: 🤖 Abe drafted a Jewels set. Challenge it?"
    fake.assert_clean()


async def test_a_ping_that_must_notify_is_posted_anew_where_another_would_be_edited(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    """One ping per player is kept and edited while it applies, but an edited mention does
    not notify: a timed scramble for the same players gets a new ping, the old one goes."""
    from cogs.components import components_view
    from cogs.table import presenter_of

    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        record = await bot.service.store.open_in_channel(fake.general.id)
        pings = presenter_of(bot).pings
        first = await pings._post_or_edit(record, [0, 1], "turn", components_view())
        edited = await pings._post_or_edit(record, [0, 1], "still", components_view())
        anew = await pings._post_or_edit(record, [0, 1], "scramble", components_view(), notify=True)
        await fake.settle()
        assert (first, edited, anew) == (True, False, True)
        (scramble,) = [m for m in fake.public_messages() if m.content == "scramble"]
        assert scramble.history == []  # a message of its own: its mention notifies
