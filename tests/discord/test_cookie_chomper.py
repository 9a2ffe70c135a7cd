"""Cookie Chomper through the real discord.py code: the modifier round in hand views, the
public pile, and full matches of three modes to the final embed."""

from __future__ import annotations

from games import GAMES
from tests.discord.conftest import make_bot, open_game, show_hand, table_of
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_toss_your_cookies import move_in_hand, play_to_the_end


async def open_chomper_lobby(  # type: ignore[no-untyped-def]
    fake: FakeDiscord, host: FakeUser, *joiners: FakeUser, bots: int = 0, mode: str = "standard"
):
    choices = {"mode": [mode]} if mode != "standard" else {}
    await open_game(fake, "cookie_chomper", host, *joiners, bots=bots, choices=choices)


async def test_four_players_play_a_full_standard_match_to_the_final_embed(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_chomper_lobby(fake, ana, ben, bots=2)
        table = table_of(fake)
        assert "🍪 Cookie Chomper · Standard" in table.text()
        assert "40 tokens, top first: 🍪×39 ☠️" in table.text()  # the Stack, poison at the bottom
        # The public pile has a button of its own.
        await fake.click(ana, table, table.find_button("Played Cards Pile"))
        assert "Played Cards Pile (0)" in fake.last_reply(ana).text()
        await play_to_the_end(fake, [ana, ben])
        final = table_of(fake).text()
        assert "Game over" in final and "last player standing" in final
        said = fake.all_public_text()
        assert any("takes the poison cookie and is out" in t for t in said)
        record = await bot.service.store.actions(final_match_id(fake))
        assert any(a.action == "pass" for a in record)  # modifier rounds were played
    fake.assert_clean()


async def test_the_modifier_round_asks_each_player_in_turn_in_the_hand_view(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        bot.service.new_seed = lambda: 3  # a deal whose first card opens a modifier round
        await open_chomper_lobby(fake, ana, ben)
        record = await bot.service.store.open_in_channel(fake.general.id)
        state = bot.service.load_state(record)
        active = (ana, ben)[state.turn]
        other = (ben, ana)[state.turn]
        await move_in_hand(fake, active)  # the main card: a number card's first number
        # The active player opens the modifier round: a Pass button comes first.
        again = fake.last_reply(active)
        assert "Play a modifier or pass" in again.text()
        assert again.find_button("Pass")
        await fake.click(active, again, again.find_button("Pass"))
        table = table_of(fake).text()
        assert f"Modifier round: **{other.display_name}**" in table
        # One truth: the marker sits on whoever must decide now, not on the Active Player.
        assert f"▶️ **{other.display_name}**" in table
        assert f"▶️ **{active.display_name}**" not in table
        assert "This turn:" in table and "Number:" in table
        hand = await show_hand(fake, other)
        assert "Play a modifier or pass" in hand.text()
        # They pressed Join moments ago and look at their hand: no mention buzzes them.
        assert not any(f"<@{other.id}>" in m.content for m in fake.public_messages())
    fake.assert_clean()


async def test_a_cookie_hoarder_match_ends_when_the_stack_is_empty(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await open_chomper_lobby(fake, ana, bots=2, mode="hoarder_plus")
        assert "face-down tokens" in table_of(fake).text()
        await play_to_the_end(fake, [ana])
        final = table_of(fake).text()
        assert "Game over" in final and "hoarded the most" in final
    fake.assert_clean()


async def test_a_number_chain_match_ends_with_an_empty_hand_or_a_dry_deck(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_chomper_lobby(fake, ana, ben, bots=1, mode="chain")
        assert "Chain" in table_of(fake).text()
        await play_to_the_end(fake, [ana, ben])
        final = table_of(fake).text()
        assert "Game over" in final and ("emptied their hand" in final or "fewest" in final)
    fake.assert_clean()


async def test_the_chomper_rules_explain_every_card_and_mode(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "rules", game="cookie_chomper")
        quick = fake.last_reply(ana)
        for part in ("Full rules", "Our rulings"):
            await fake.click(ana, quick, quick.find_button(part))
        text = "\n".join(page.text() for page in fake.ephemerals(ana))
        for words in (
            "Add",
            "Copy",
            "Double",
            "Flip",
            "Mulligan",
            "Multiply",
            "Negate",
            "Opposites",
            "Reverse",
            "Roll",
            "Seek",
            "Skip",
            "Subtract",
            "Think Again!",
            "Veto",
            "Golden Cookie",
            "Cookie Hoarder",
            "Number Chain",
            "Poison in the middle",
            "Our rulings",
        ):
            assert words in text, words
    fake.assert_clean()


def final_match_id(fake: FakeDiscord) -> str:
    return table_of(fake).find_button("Rematch").custom_id.split(":")[2]


async def test_a_shorter_live_modifier_round_is_a_lobby_option(fake, db) -> None:
    """Chomper has more choices than the lobby has rows: its last ones share one select, the
    pace keeps its own; a 5-second modifier round makes each live round clock 5 seconds."""
    from bot.clock import ManualClock
    from tests.discord.conftest import make_a_move

    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        clock = ManualClock(start=bot.service.clock.now())
        bot.service.clock = bot.scheduler.clock = clock
        await fake.slash(ana, "play", game="cookie_chomper")
        lobby = table_of(fake)
        ids = [s["custom_id"].rsplit(":", 1)[1] for s in lobby.selects()]
        assert ids == ["mode", "stack_size", "_more", "_pace"]
        shared = next(s for s in lobby.selects() if s["custom_id"].endswith(":_more"))
        assert "Modifier round: 20 s a player (live)" in shared["placeholder"]
        await fake.select(ana, lobby, shared["custom_id"], ["round_seconds=5"])
        pace = next(s for s in lobby.selects() if s["custom_id"].endswith(":_pace"))
        await fake.select(ana, lobby, pace["custom_id"], ["live"])
        assert "Modifier round: 5 s a player (live)" in table_of(fake).text()
        await fake.click(ben, lobby, lobby.find_button("Join"))
        await fake.click(ana, lobby, lobby.find_button("Start"))
        match_id = table_of(fake).find_button("hand").custom_id.split(":")[2]
        game = bot.service.games["cookie_chomper"]
        # Each one plays its first option until someone opens a modifier round: on about
        # one deal in thirty that takes more than ten moves.
        for _ in range(60):
            state = bot.service.load_state(await bot.service.get(match_id))
            if state.phase == "round":
                break
            mover = game.decisions(state)[0].seat
            await make_a_move(fake, (ana, ben)[mover])
        assert state.phase == "round"
        timers = await bot.service.store.timers_of(match_id)
        assert [t.due_at - clock.now() for t in timers if t.kind == "timeout"] == [5.0]
    fake.assert_clean()


async def test_a_player_out_reads_that_they_are_out_not_that_a_move_will_come(
    fake, db, monkeypatch
) -> None:
    """Ana plays 4 on a Stack of three cookies and the poison: she is out. Her hand view
    says so, instead of "Your moves show here when you have one to make", which never
    comes; the others' views still say whom they wait for."""
    chomper = GAMES["cookie_chomper"]
    real_setup = chomper.setup

    def setup(options, players, seed):  # type: ignore[no-untyped-def]
        dealt = real_setup(options, players, seed)
        hands = [["4", "14", "24"], ["2", "3", "5"], ["23", "12", "13"]]
        return dealt.model_copy(update={"hands": hands, "turn": 0, "stack": ["c"] * 3 + ["p"]})

    monkeypatch.setattr(chomper, "setup", setup)
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo")]
    async with fake.running(make_bot(db)):
        await open_chomper_lobby(fake, *people)
        hand = await show_hand(fake, people[0])
        await fake.click(people[0], hand, hand.find_button("4 from 🔢 4"))
        for person in people:  # nobody holds a modifier: three passes settle it
            await move_in_hand(fake, person)
        assert "☠️ **Ana** — 0 cards · out" in table_of(fake).text()
        seen = (await show_hand(fake, people[0])).text()
        assert "☠️ You took the poison cookie: you are out." in seen
        assert "Your moves show here" not in seen and "Waiting for" not in seen
        assert "Waiting for **Ben**" in (await show_hand(fake, people[2])).text()
    fake.assert_clean()
