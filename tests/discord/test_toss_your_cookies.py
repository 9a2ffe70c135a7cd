"""Toss Your Cookies through the real discord.py code: simultaneous picks, the scramble on
the public table, bots racing, and full matches to the final embed."""

from __future__ import annotations

import asyncio
from collections import Counter

from games import GAMES
from games.toss.state import Roll
from tests.bot.test_setup_outcome import DealtAWin
from tests.discord.conftest import make_bot, move_components, open_game, show_hand, table_of
from tests.discord.harness import FakeDiscord, FakeUser
from tests.games.toss.conftest import FixedDice


async def open_toss_lobby(  # type: ignore[no-untyped-def]
    fake: FakeDiscord, host: FakeUser, *joiners: FakeUser, bots: int = 0, rounds: str = "1"
):
    choices = {"rounds": [rounds]} if rounds != "1" else {}
    await open_game(fake, "toss_your_cookies", host, *joiners, bots=bots, choices=choices)


async def move_in_hand(fake: FakeDiscord, user: FakeUser) -> bool:
    """Open the hand and answer what it asks: a button, or exactly as many cards as the
    select wants. True if a move was made."""
    hand = await show_hand(fake, user)
    buttons, selects = move_components(hand)
    buttons = buttons or [  # in a scramble: the grab buttons of the player's own hand view
        b.custom_id
        for b in hand.buttons()
        if (b.custom_id or "").startswith("cj:grab:") and not b.disabled
    ]
    if buttons:
        await fake.click(user, hand, buttons[0])
        return True
    if selects:
        select = selects[0]
        await fake.select(user, hand, select["custom_id"], enough_rows(select))
        return True
    return False


def enough_rows(select: dict) -> list[str]:  # type: ignore[type-arg]
    """Rows naming as many cards as the select wants (its most): a row may stand for
    several identical cards ("3.4"), so each kind gives its biggest row that still fits."""
    need = select.get("max_values", 1)
    kinds: dict[str, dict[int, str]] = {}  # first card of a kind -> {cards in row: value}
    for row in select["options"]:
        cards = row["value"].split(".")
        kinds.setdefault(cards[0], {})[len(cards)] = row["value"]
    chosen, taken = [], 0
    for sizes in kinds.values():
        fits = [n for n in sizes if n <= need - taken]
        if fits:
            chosen.append(sizes[max(fits)])
            taken += max(fits)
    return chosen


async def play_to_the_end(fake: FakeDiscord, humans: list[FakeUser], limit: int = 1500) -> None:
    for _ in range(limit):
        if "Game over" in table_of(fake).text():
            return
        moved = False
        for user in humans:
            moved = await move_in_hand(fake, user) or moved
        if not moved:
            await fake.settle()
    raise AssertionError("the match did not end")


async def test_three_players_two_people_and_a_bot_play_a_full_match_to_the_final_embed(
    fake, db
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_toss_lobby(fake, ana, ben, bots=1, rounds="3")
        table = table_of(fake)
        assert "(best of 3)" in table.text()
        # Whoever rolls first (a bot may have rolled already), both dice show on the table.
        assert "rolls the dice" in table.text() or "🎲 **" in table.text()
        await play_to_the_end(fake, [ana, ben])
        match_id = table_of(fake).find_button("Rematch").custom_id.split(":")[2]
        state = bot.service.load_state(await bot.service.get(match_id))
        # First to a majority (two) wins: with three players each may win one round
        # first, and a fourth round decides.
        assert max(state.round_wins) == 2 and 2 <= len(state.winners) <= 4
        assert match_id not in bot.service._cache  # finished: out of the running cache
        final = table_of(fake).text()
        assert "Game over" in final and "wins!" in final
        played = len(state.winners)
        assert ("won 2 of 3 rounds" if played <= 3 else "in round 4 (best of 3)") in final
        assert any("Snickerdoodle!" in t for t in fake.all_public_text())
    fake.assert_clean()


async def test_eight_players_two_people_and_six_bots_play_to_the_final_embed(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_toss_lobby(fake, ana, ben, bots=6)
        record = await bot.service.store.open_in_channel(fake.general.id)
        assert record is not None, table_of(fake).text()  # what ended it, if anything did
        assert len(record.seats) == 8
        await play_to_the_end(fake, [ana, ben])
        assert "Game over" in table_of(fake).text()
        # What only one player may know (their picks, what they passed, got or took
        # blindly) never reaches a public message.
        for text in fake.all_public_text():
            assert not any(w in text for w in ("You chose", "You passed", "You took", "You got"))
    fake.assert_clean()


async def rigged_table(
    fake: FakeDiscord,
    db,
    monkeypatch,
    people: list[FakeUser],
    *rolls: Roll,
    first: int | None = None,
):  # type: ignore[no-untyped-def]
    """Toss with these dice; ``first``: the seat that rolls first (else as dealt)."""
    game = FixedDice()
    game.rolls.extend(rolls)
    if first is not None:
        real_setup = game.setup

        def setup(options, players, seed):  # type: ignore[no-untyped-def]
            dealt = real_setup(options, players, seed)
            return dealt.model_copy(update={"turn": first, "first": first})

        monkeypatch.setattr(game, "setup", setup)
    monkeypatch.setitem(GAMES, "toss_your_cookies", game)
    return game


async def roller_of(bot, fake: FakeDiscord, people: list[FakeUser]) -> FakeUser:  # type: ignore[no-untyped-def]
    record = await bot.service.store.open_in_channel(fake.general.id)
    state = bot.service.load_state(record)
    return next(p for p in people if p.id == record.seats[state.turn].user_id)


async def test_pass_choices_are_secret_and_simultaneous(fake, db, monkeypatch) -> None:
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo")]
    await rigged_table(fake, db, monkeypatch, people, Roll(action="left", number="2"))
    async with fake.running(make_bot(db)) as bot:
        await open_toss_lobby(fake, people[0], *people[1:])
        roller = await roller_of(bot, fake, people)
        await move_in_hand(fake, roller)  # Roll
        assert "Pass Left · 2" in table_of(fake).text()
        # Everyone's hand holds a select of exactly two cards; hands opened before anybody
        # chose stay good while the others choose.
        hands = {p.id: await show_hand(fake, p) for p in people}
        for person in people:
            _, selects = move_components(hands[person.id])
            assert selects[0]["max_values"] == 2
        first, second, last = people
        for person in (first, second):
            select = move_components(hands[person.id])[1][0]
            await fake.select(person, hands[person.id], select["custom_id"], enough_rows(select))
            assert "Your pick" in fake.last_reply(person).text()
        text = table_of(fake).text()
        assert text.count("✅ chosen") == 2 and text.count("⏳ choosing") == 1
        record = await bot.service.store.open_in_channel(fake.general.id)
        before = bot.service.load_state(record)
        select = move_components(hands[last.id])[1][0]
        await fake.select(last, hands[last.id], select["custom_id"], enough_rows(select))
        after = bot.service.load_state(await bot.service.get(record.match_id))
        # The turn moved on (or the pass handed someone five of a cookie and the milk).
        assert before.phase == "choose" and (after.phase == "roll" or after.winners)
        assert [len(h) for h in after.hands] == [7, 7, 7]
        assert "Everyone passes 2 cards to the left" in table_of(fake).text()
    fake.assert_clean()


async def test_many_simultaneous_clicks_on_the_tossed_milk_make_exactly_one_winner(
    fake, db, monkeypatch
) -> None:
    people = [fake.add_user(f"p{i}") for i in range(8)]
    await rigged_table(fake, db, monkeypatch, people, Roll(action="toss", number="milk"))
    async with fake.running(make_bot(db)) as bot:
        await open_toss_lobby(fake, people[0], *people[1:])
        roller = await roller_of(bot, fake, people)
        await move_in_hand(fake, roller)  # Roll: Toss + Milk
        table = table_of(fake)
        assert "Grab the milk!" in table.text()
        assert any("the scramble is on" in t for t in fake.all_public_text())
        record = await bot.service.store.open_in_channel(fake.general.id)
        state = bot.service.load_state(record)
        tosser = state.scramble.tosser
        racers = [p for p in people if p.id != record.seats[tosser].user_id]
        assert len(racers) == 7
        # Each racer opens their own grab buttons; then all click Milk in the same instant.
        hands = {p.id: await show_hand(fake, p) for p in racers}
        baseline = asyncio.all_tasks()
        clicks = [
            await fake.click(p, hands[p.id], hands[p.id].find_button("Milk"), dispatch_only=True)
            for p in racers
        ]
        await fake.settle(baseline=baseline)
        assert all(c.acknowledged for c in clicks)  # every click was answered
        replies = [fake.last_reply(p) for p in racers]
        # Every answer is the racer's own hand view, redrawn where they clicked.
        assert all(
            r.ephemeral and r.id == hands[p.id].id for r, p in zip(replies, racers, strict=True)
        )
        after = bot.service.load_state(await bot.service.get(record.match_id))
        # Everyone's hand says who caught it, the losers' too (their race ended).
        winner = record.seats[after.blind.source].name
        assert all(f"{winner} grabs the milk" in r.text() for r in replies)
        # The milk is gone for everyone: no one is left with a button for it.
        assert not any(b.label and "Milk" in b.label for r in replies for b in r.buttons())
        assert after.phase == "milk_take" and after.blind.taker == tosser
        actions = await bot.service.store.actions(record.match_id)
        assert [a.action for a in actions].count("grab.milk") == 1
    fake.assert_clean()


async def test_the_scramble_grab_buttons_are_private_and_current_after_each_click(
    fake, db, monkeypatch
) -> None:
    ana = fake.add_user("ana")
    game = await rigged_table(fake, db, monkeypatch, [ana], Roll(action="toss", number="2"))
    async with fake.running(make_bot(db)) as bot:
        bot.service.new_seed = lambda: 8  # a deal where no bot's grab wins the round
        await open_toss_lobby(fake, ana, bots=3)
        record = await bot.service.store.open_in_channel(fake.general.id)
        state = bot.service.load_state(record)
        if state.turn == 0:
            await move_in_hand(fake, ana)  # Ana rolls
        await fake.settle()
        await move_in_hand(fake, ana)  # Ana's toss: two cards
        await fake.settle()
        state = bot.service.load_state(await bot.service.get(record.match_id))
        # The bots grabbed their two each at once (no delay in tests); Ana's two remain.
        assert state.phase == "scramble" and state.scramble.quota == [2, 0, 0, 0]
        # The public table shows the pile and the clock, and no grab button of anyone's.
        table = table_of(fake)
        assert "In the middle" in table.text() and "Grab now!" in table.text()
        assert not [b for b in table.buttons() if (b.custom_id or "").startswith("cj:grab:")]
        (ping,) = [m for m in fake.public_messages() if "scramble is on" in m.content]
        assert ana.mention in ping.content and "<t:" in ping.content
        hand = await fake.click(ana, ping, ping.find_button("My hand"))
        mine = fake.last_reply(ana)
        assert mine.ephemeral and "Your hand" in mine.text()

        def offered(message) -> list[str]:  # type: ignore[no-untyped-def]
            return [
                b.label
                for b in message.buttons()
                if (b.custom_id or "").startswith("cj:grab:") and not b.disabled
            ]

        async def in_the_middle() -> list[str]:
            now = bot.service.load_state(await bot.service.get(record.match_id))
            (race,) = [d for d in game.decisions(now) if d.seat == 0]
            return sorted(o.label for o in race.options)

        assert sorted(offered(mine)) == await in_the_middle()
        await fake.click(ana, mine, next(b for b in mine.buttons() if b.label == offered(mine)[0]))
        again = fake.last_reply(ana)
        # The same private message, redrawn: what she took, and exactly what is left now.
        assert again.id == mine.id and "grabs" in again.text()
        assert offered(again) and sorted(offered(again)) == await in_the_middle()
        assert hand.acknowledged
    fake.assert_clean()


async def test_the_toss_rules_explain_dice_passing_scramble_milk_and_the_win(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "rules", game="toss_your_cookies")
        quick = fake.last_reply(ana)
        await fake.click(ana, quick, quick.find_button("Full rules"))
        text = "\n".join(page.text() for page in fake.ephemerals(ana))
        for words in ("Roll", "Pass Left", "scramble", "Toss + milk", "five of one cookie"):
            assert words in text, words
    fake.assert_clean()


async def test_must_shout_shows_the_snickerdoodle_button_only_to_its_holder(
    fake, db, monkeypatch
) -> None:
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo")]
    game = await rigged_table(fake, db, monkeypatch, people, Roll(action="left", number="1"))
    winning = ["chip"] * 4 + ["wild", "milk", "half"]
    real_setup = game.setup

    def setup(options, players, seed):  # type: ignore[no-untyped-def]
        """The real deal, then the milk holder's hand swapped for a winning one."""
        state = real_setup(options, players, seed)
        holder = next(s for s, hand in enumerate(state.hands) if "milk" in hand)
        if "chip" not in state.cookies:
            state.cookies[0] = "chip"
        everything = Counter(game.cards.deck(len(players), state.cookies))
        rest = list((everything - Counter(winning)).elements())
        others = [s for s in range(len(players)) if s != holder]
        state.hands[holder] = game.cards.sort(winning)
        for i, seat in enumerate(others):
            state.hands[seat] = game.cards.sort(rest[i * 7 : i * 7 + 7])
        game.settle(state, [], None)  # the must-shout rule: the holder may shout
        return state

    monkeypatch.setattr(game, "setup", setup)
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "toss_your_cookies", *people, choices={"_switches": ["must_shout"]})
        record = await bot.service.store.open_in_channel(fake.general.id)
        state = bot.service.load_state(record)
        assert state.options.must_shout and state.shouter is not None
        holder = next(p for p in people if p.id == record.seats[state.shouter].user_id)
        for person in people:
            hand = await show_hand(fake, person)
            shout = [b for b in hand.buttons() if b.label == "Snickerdoodle!"]
            assert bool(shout) == (person is holder)
        assert "Snickerdoodle" not in table_of(fake).text()  # nobody else can tell
        hand = await show_hand(fake, holder)
        await fake.click(holder, hand, hand.find_button("Snickerdoodle!"))
        assert "Game over" in table_of(fake).text()
        assert f"{holder.display_name} wins" in table_of(fake).text()
    fake.assert_clean()


async def test_a_deal_that_is_already_won_ends_the_match_at_start_with_a_rematch(
    fake, db, monkeypatch
) -> None:
    monkeypatch.setitem(GAMES, "toss_your_cookies", DealtAWin())
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo")]
    async with fake.running(make_bot(db)) as bot:
        await open_toss_lobby(fake, people[0], *people[1:])
        table = table_of(fake)
        assert "Game over" in table.text() and "Ben collected five of a cookie" in table.text()
        labels = [b.label for b in table.buttons()]
        assert "Rematch" in " ".join(labels) and not any(
            b.custom_id.startswith("cj:grab:") for b in table.buttons()
        )
        # Nobody is pinged for a move that will never come: below the table there is only
        # the end of the match, and the channel is free.
        table_msg, final = fake.public_messages(fake.general)
        assert table_msg.id == table.id and "is over" in final.content
        assert await bot.service.store.open_in_channel(fake.general.id) is None
        await fake.click(people[1], table, table.find_button("Rematch"))
        assert "· lobby" in table_of(fake).text() or "· lobby" in fake.last_reply(people[1]).text()
    fake.assert_clean()


async def test_cards_that_change_hands_unseen_are_told_in_their_holders_hand_view(
    fake, db, monkeypatch
) -> None:
    """A swap's target reads which cards were taken from them and which they were given,
    and after a pass everyone reads what they passed and got: their hand alone does not
    say which cards are new. Nobody else reads it."""
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo", "dev")]
    ana, ben, cleo, dev = people
    rolls = (Roll(action="swap", number="2"), Roll(action="left", number="1"))
    game = await rigged_table(fake, db, monkeypatch, people, *rolls, first=0)
    async with fake.running(make_bot(db)) as bot:
        await open_toss_lobby(fake, ana, ben, cleo, dev)
        record = await bot.service.store.open_in_channel(fake.general.id)
        before = bot.service.load_state(record)
        hand = await show_hand(fake, ana)
        await fake.click(ana, hand, hand.find_button("Roll the dice"))
        hand = fake.last_reply(ana)
        await fake.click(ana, hand, hand.find_button("Swap with Ben"))
        await move_in_hand(fake, ana)  # two cards to give
        await move_in_hand(fake, ana)  # two face-down cards of Ben's
        given = before.hands[0][:2]  # the first two rows of Ana's select
        labels = game.cards.labels
        seen = (await show_hand(fake, ben)).text()
        assert "🤫 Only you saw" in seen and f"Ana gave you {labels(given)}." in seen
        assert "Ana took " in seen and " from your hand." in seen
        assert "You took " in (await show_hand(fake, ana)).text()
        for person in (cleo, dev):
            assert "Only you saw" not in (await show_hand(fake, person)).text()
        await move_in_hand(fake, ben)  # Pass Left · 1
        for person in people:
            await move_in_hand(fake, person)
        for person in people:
            seen = (await show_hand(fake, person)).text()
            assert "You passed " in seen and " and got " in seen, person.name
        for text in fake.all_public_text():
            assert not any(w in text for w in ("You passed", "You took", "gave you", "your hand"))
    fake.assert_clean()


async def test_a_round_won_on_anothers_turn_is_told_in_every_followed_hand_view(
    fake, db, monkeypatch
) -> None:
    """Ana passes Ben his fifth Chocolate Chip: he wins round 1 in the middle of the pass
    and a new round is dealt. Everyone's open hand view turns to the new hand and says who
    won: those who had picked earlier kept the old hand and its pick, waiting for players
    who had all passed."""
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo", "dev")]
    rolls = [Roll(action="left", number="1")] + [Roll(action="right", number="1")] * 3
    game = await rigged_table(fake, db, monkeypatch, people, *rolls, first=0)
    real_setup = game.setup

    def setup(options, players, seed):  # type: ignore[no-untyped-def]
        """Ben one Chocolate Chip short of winning; Ana holds one to pass him."""
        state = real_setup(options, players, seed)
        if "chip" not in state.cookies:
            state.cookies[0] = "chip"
        everything = Counter(game.cards.deck(len(players), state.cookies))
        ben = ["chip"] * 3 + ["wild", "milk", "half", "half"]
        rest = list((everything - Counter(ben) - Counter(["chip"])).elements())
        state.hands = [game.cards.sort(["chip", *rest[:6]]), game.cards.sort(ben)] + [
            game.cards.sort(rest[6 + i * 7 : 13 + i * 7]) for i in range(2)
        ]
        return state

    monkeypatch.setattr(game, "setup", setup)
    async with fake.running(make_bot(db)) as bot:
        # Round 2 is dealt from the match's seed, and about one seed in fifty (55, 130...)
        # deals a hand that has already won: round 2 ends at once and the table shows round
        # 3. Seed 1 deals round 2 with no winner.
        bot.service.new_seed = lambda: 1
        await open_toss_lobby(fake, *people, rounds="3")
        hand = await show_hand(fake, people[0])
        await fake.click(people[0], hand, hand.find_button("Roll the dice"))  # Pass Left · 1
        hands = {p.id: await show_hand(fake, p) for p in people}
        for person, card in zip(people, ("Chocolate Chip", "Half-eaten", "", ""), strict=True):
            (select,) = move_components(hands[person.id])[1]
            row = next(o for o in select["options"] if card in o["label"])
            await fake.select(person, hands[person.id], select["custom_id"], [row["value"]])
        await fake.settle()
        assert "round 2 (best of 3)" in table_of(fake).text()
        for person in people:
            seen = fake.ephemerals(person)[-1].text()
            assert "Snickerdoodle! Ben wins round 1" in seen, person.name
            assert "Your hand (7 cards)" in seen and "Your pick" not in seen, person.name
    fake.assert_clean()


async def test_a_shout_that_opens_on_anothers_move_shows_in_the_open_hand_view(
    fake, db, monkeypatch
) -> None:
    """Must shout: Ana swaps her whole (winning) hand with Cleo's, and Ben rolls next.
    Cleo may shout now, and nobody is pinged for it (that would tell the table): her open
    hand view turns to the new hand with its Snickerdoodle! button, or she would find it
    only by pressing Refresh."""
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo")]
    ana, _, cleo = people
    game = await rigged_table(fake, db, monkeypatch, people, Roll(action="swap", number="all"))
    winning = ["chip"] * 4 + ["wild", "milk", "half"]
    real_setup = game.setup

    def setup(options, players, seed):  # type: ignore[no-untyped-def]
        """Ana rolls first, holding five Chocolate Chips (a wild among them) and the milk."""
        state = real_setup(options, players, seed)
        if "chip" not in state.cookies:
            state.cookies[0] = "chip"
        everything = Counter(game.cards.deck(len(players), state.cookies))
        rest = list((everything - Counter(winning)).elements())
        state.hands = [game.cards.sort(winning)] + [
            game.cards.sort(rest[i * 7 : i * 7 + 7]) for i in range(2)
        ]
        game.settle(state, [], None)  # the must-shout rule: Ana may shout
        return state.model_copy(update={"turn": 0, "first": 0})

    monkeypatch.setattr(game, "setup", setup)
    async with fake.running(make_bot(db)):
        await open_game(fake, "toss_your_cookies", *people, choices={"_switches": ["must_shout"]})
        before = len(fake.public_messages())
        await show_hand(fake, cleo)
        hand = await show_hand(fake, ana)
        await fake.click(ana, hand, hand.find_button("Roll the dice"))
        await fake.click(ana, fake.last_reply(ana), fake.last_reply(ana).find_button("Cleo"))
        await fake.settle()
        opened = fake.ephemerals(cleo)[-1]
        assert [b.label for b in opened.buttons() if b.label == "Snickerdoodle!"]
        assert "Your hand (7 cards)" in opened.text()
        new = fake.public_messages()[before:]
        assert not any(cleo.mention in m.content for m in new)  # nobody learns she may shout
    fake.assert_clean()


async def test_a_hand_swapped_whole_turns_in_its_holders_open_hand_view(
    fake, db, monkeypatch
) -> None:
    """Ana rolls Swap · All and swaps with Cleo (Ben rolls next): Cleo's open hand view
    turns to the hand she now holds, not the one Ana took away."""
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo", "dev")]
    ana, _, cleo, _ = people
    await rigged_table(fake, db, monkeypatch, people, Roll(action="swap", number="all"), first=0)
    async with fake.running(make_bot(db)) as bot:
        await open_toss_lobby(fake, *people)
        record = await bot.service.store.open_in_channel(fake.general.id)
        anas = bot.service.load_state(record).hands[0]
        await show_hand(fake, cleo)
        hand = await show_hand(fake, ana)
        await fake.click(ana, hand, hand.find_button("Roll the dice"))
        await fake.click(ana, fake.last_reply(ana), fake.last_reply(ana).find_button("Cleo"))
        await fake.settle()
        after = bot.service.load_state(await bot.service.get(record.match_id))
        assert after.hands[2] == anas
        opened = fake.ephemerals(cleo)[-1].text()
        assert hand_lines(opened) == hand_lines((await show_hand(fake, cleo)).text())
    fake.assert_clean()


def hand_lines(text: str) -> list[str]:
    """The cards a hand view lists, between its title and its goal."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Your hand ("))
    return lines[start : lines.index("Goal")]
