"""Decisions with nothing to decide, as players see them: a lone Pass is played for its
player after a short pause of random length; "always ask me" keeps asking. Where whether
the player had a choice is itself a secret (a lone Pass in a modifier round tells the hand
holds no modifier), they are pinged as anyone with a choice is, so the channel shows
nothing of their hand."""

from __future__ import annotations

import pytest

from games import GAMES
from tests.discord.conftest import (
    looked_away,
    make_bot,
    move_components,
    open_game,
    show_hand,
    table_of,
)
from tests.discord.harness import FakeDiscord, FakeUser
from tests.games.cover.conftest import cover_set

PAUSE = (30.0, 40.0)  # longer than the harness fast-forwards, so the pause can be watched


def pings_of(fake: FakeDiscord, user: FakeUser) -> int:
    return sum(user.mention in m.content for m in fake.public_messages())


async def main_card(fake: FakeDiscord, user: FakeUser) -> None:
    hand = await show_hand(fake, user)
    buttons, selects = move_components(hand)
    if buttons:
        await fake.click(user, hand, buttons[0])
    else:
        await fake.select(user, hand, selects[0]["custom_id"], [selects[0]["options"][0]["value"]])


async def test_a_lone_pass_is_played_for_the_player_after_a_pause_and_pinged_as_any_choice(
    fake, db
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        bot.service.new_seed = lambda: 3  # Ben moves first; his modifier round is a lone Pass
        bot.bots.forced_pause = PAUSE
        await open_game(fake, "cookie_chomper", ana, ben, always_ask=False)
        match_id = table_of(fake).find_button("hand").custom_id.split(":")[2]
        await main_card(fake, ben)
        before = await bot.service.store.actions(match_id)
        assert "Modifier round: **Ben**" in table_of(fake).text()  # the pause runs
        # He clicked moments ago: his turn's mention waits while he looks, as it would for
        # a player holding a modifier (a quarter of his clock's time left at most).
        assert pings_of(fake, ben) == 0
        hand = await show_hand(fake, ben)  # Ben may still press Pass himself
        assert hand.find_button("Pass")
        await fake.advance(PAUSE[1])
        actions = await bot.service.store.actions(match_id)
        assert [(a.seat, a.action) for a in actions[len(before) :]][:1] == [(1, "pass")]
        assert "Modifier round: **Ben**" not in table_of(fake).text()
        await fake.advance(60)
        # Answered: a mention posted meanwhile (his clock is short: it waited a quarter
        # of it) is swept, as any ping.
        assert all(m.deleted for m in fake.messages.values() if ben.mention in m.content)
        assert pings_of(fake, ben) == 0
        seat = (await bot.service.get(match_id)).seats[1]
        assert (seat.away, seat.missed) == (0, 0)  # not counted as a missed turn
    fake.assert_clean()


async def test_always_ask_me_in_the_lobby_keeps_the_lone_pass_for_the_player(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        bot.service.new_seed = lambda: 3
        bot.bots.forced_pause = PAUSE
        await fake.slash(ana, "play", game="cookie_chomper")
        lobby = table_of(fake)
        assert "lone Pass" not in lobby.text()  # said once, privately, to who joins
        await fake.click(ben, lobby, lobby.find_button("Join"))
        answer = fake.last_reply(ben)
        assert answer.ephemeral and "Always ask me: off" in answer.text()
        await fake.click(ben, answer, answer.find_button("Always ask me"))
        assert "Always ask me: on" in fake.last_reply(ben).text()
        await fake.click(ana, lobby, lobby.find_button("Join"))  # the seated host reaches it too
        assert "already in (seat 1)" in fake.last_reply(ana).text()
        assert "Always ask me: off" in fake.last_reply(ana).text()
        await fake.click(ana, lobby, lobby.find_button("Start"))
        match_id = table_of(fake).find_button("hand").custom_id.split(":")[2]
        await main_card(fake, ben)
        await fake.advance(PAUSE[1])
        assert "Modifier round: **Ben**" in table_of(fake).text()  # still his to answer
        actions = await bot.service.store.actions(match_id)
        assert (actions[-1].seat, actions[-1].action) != (1, "pass")
        hand = await show_hand(fake, ben)
        await fake.click(ben, hand, hand.find_button("Pass"))
        actions = await bot.service.store.actions(match_id)
        assert (actions[-1].seat, actions[-1].action) == (1, "pass")
    fake.assert_clean()


async def test_who_holds_no_modifier_is_called_on_in_the_round_like_who_does(
    fake, db, monkeypatch
) -> None:
    """Ben plays his number card; the modifier round goes to Cleo, who holds Add, then to
    Ana, who holds no modifier at all. Both are pinged with the round's question: a ping
    missing for Ana would tell everyone her hand is all number cards. Ana's lone Pass is
    still played for her after the pause."""
    chomper = GAMES["cookie_chomper"]
    real_setup = chomper.setup

    def setup(options, players, seed):  # type: ignore[no-untyped-def]
        dealt = real_setup(options, players, seed)
        hands = [["2", "14", "123"], ["23", "124", "145"], ["24", "add", "3"]]
        return dealt.model_copy(update={"hands": hands, "turn": 1})

    monkeypatch.setattr(chomper, "setup", setup)
    ana, ben, cleo = (fake.add_user(n) for n in ("ana", "ben", "cleo"))
    async with fake.running(make_bot(db)) as bot:
        bot.bots.forced_pause = PAUSE
        await open_game(fake, "cookie_chomper", ana, ben, cleo, always_ask=False)
        match_id = table_of(fake).find_button("hand").custom_id.split(":")[2]
        await main_card(fake, ben)
        await fake.advance(PAUSE[1])  # Ben's own lone Pass, opening the round
        assert "Modifier round: **Cleo**" in table_of(fake).text()
        cleos = [m for m in fake.public_messages() if cleo.mention in m.content]
        assert cleos and "Play a modifier or pass" in cleos[-1].content
        hand = await show_hand(fake, cleo)
        await fake.click(cleo, hand, hand.find_button("Pass"))
        assert "Modifier round: **Ana**" in table_of(fake).text()
        anas = [m for m in fake.public_messages() if ana.mention in m.content]
        assert anas and "Play a modifier or pass" in anas[-1].content
        await fake.advance(PAUSE[1])
        actions = await bot.service.store.actions(match_id)
        assert [(a.seat, a.action) for a in actions[-2:]] == [(2, "pass"), (0, "pass")]
        seat = (await bot.service.get(match_id)).seats[0]
        assert (seat.away, seat.missed) == (0, 0)  # not counted as a missed turn
    fake.assert_clean()


@pytest.mark.parametrize("holds_an_answer", [False, True])
async def test_a_defender_whose_turn_follows_the_challenge_is_called_to_it_alike(
    fake, db, monkeypatch, holds_an_answer
) -> None:
    """Ben takes Cleo's Piano set; the turn is Cleo's next. Her ping asked "Defend it, or
    let it go?": once she let go, by her click or (holding no answer) after the pause, the
    same ping calls her to her turn instead of asking what no longer stands, and the
    channel reads the same either way."""
    assets = GAMES["cover_your_assets"]
    real_setup = assets.setup

    def setup(options, players, seed):  # type: ignore[no-untyped-def]
        dealt = real_setup(options, players, seed)
        answer = "piano" if holds_an_answer else "jewels"
        hands = [
            ["jewels"] * 5,
            ["piano", "jewels", "jewels", "scooter", "scooter"],
            ["comic_books", "comic_books", "toy_train", "toy_train", answer],
            ["scooter"] * 5,
        ]
        stacks = [[], [cover_set("cabin", "cabin")], [cover_set("cabin", "cabin")], []]
        stacks[2].append(cover_set("piano", "piano"))
        for player, hand, stack in zip(dealt.players, hands, stacks, strict=True):
            player.hand, player.stack = assets.cards.sort(hand), stack
        dealt.turn = 1
        return dealt

    monkeypatch.setattr(assets, "setup", setup)
    ana, ben, cleo, dev = (fake.add_user(n) for n in ("ana", "ben", "cleo", "dev"))
    async with fake.running(make_bot(db)) as bot:
        bot.bots.forced_pause = PAUSE
        await open_game(fake, "cover_your_assets", ana, ben, cleo, dev, always_ask=False)
        await looked_away(fake)  # Cleo is not looking at the table: she is pinged
        hand = await show_hand(fake, ben)
        await fake.click(ben, hand, hand.find_button("Challenge Cleo's Piano"))
        (asked,) = [m for m in fake.public_messages() if cleo.mention in m.content]
        assert "Defend it, or let it go?" in asked.content
        await fake.advance(60)  # the quiet that shows nobody whether she had a choice
        if holds_an_answer:
            hand = await show_hand(fake, cleo)
            await fake.click(cleo, hand, hand.find_button("Let it go"))
        else:
            await fake.advance(PAUSE[1])
        assert "**Cleo**'s turn" in table_of(fake).text()
        await fake.advance(60)
        (called,) = [m for m in fake.public_messages() if cleo.mention in m.content]
        assert called is asked  # edited, not a second mention
        assert called.content.startswith(f"🎯 {cleo.mention}, your move in **Cover Your Assets**")
        assert "Ben stole the Piano set" in called.content
        assert "Defend it" not in called.content
    fake.assert_clean()


async def test_a_defender_with_an_empty_hand_is_not_called_on_for_nothing(
    fake, db, monkeypatch
) -> None:
    """The deck is gone and Cleo has played every card: the table shows '0 in hand'. Ben
    challenges her Piano set; her lone 'let it go' is played after the pause, but nobody
    learns anything from it, so she is not pinged for it (a Cover endgame pinged every
    empty-handed player whose top set was challenged)."""
    assets = GAMES["cover_your_assets"]
    real_setup = assets.setup

    def setup(options, players, seed):  # type: ignore[no-untyped-def]
        dealt = real_setup(options, players, seed)
        hands = [["jewels"], ["piano", "jewels"], [], ["scooter"]]
        stacks = [[], [cover_set("cabin", "cabin")], [cover_set("cabin", "cabin")], []]
        stacks[2].append(cover_set("piano", "piano"))
        for player, hand, stack in zip(dealt.players, hands, stacks, strict=True):
            player.hand, player.stack = assets.cards.sort(hand), stack
        dealt.deck, dealt.turn = [], 1
        return dealt

    monkeypatch.setattr(assets, "setup", setup)
    ana, ben, cleo, dev = (fake.add_user(n) for n in ("ana", "ben", "cleo", "dev"))
    async with fake.running(make_bot(db)) as bot:
        bot.bots.forced_pause = PAUSE
        await open_game(fake, "cover_your_assets", ana, ben, cleo, dev, always_ask=False)
        assert "Cleo · 0 in hand" in table_of(fake).text()
        hand = await show_hand(fake, ben)
        await fake.click(ben, hand, hand.find_button("Challenge Cleo's Piano"))
        await fake.advance(PAUSE[1] + 60)
        assert "Ben stole the Piano set" in table_of(fake).text()
        ever = [m for m in fake.messages.values() if m.visible_to is None]
        assert not [m for m in ever if cleo.mention in m.content]  # not even swept since
    fake.assert_clean()
