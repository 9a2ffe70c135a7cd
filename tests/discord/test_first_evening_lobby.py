"""Issue 27, what a new community meets first: a quick start that lets friends in, /help
naming every command, lobbies that say things once and show a pick at once, /cancel from
a channel whose tables live in threads, and /leave that asks first."""

from __future__ import annotations

from tests.discord.conftest import make_bot, open_game, show_hand, table_of
from tests.discord.harness import FakeDiscord, FakeMessage

COMMANDS = (
    "/play",
    "/rules",
    "/games",
    "/remind",
    "/leave",
    "/cancel",
    "/tournament",
    "/leaderboard",
    "/stats",
    "/history",
    "/replay",
    "/export",
    "/deck",
    "/card",
    "/away",
    "/notify",
    "/always_ask",
    "/settings",
)


def lobby_select(lobby: FakeMessage, name: str) -> dict:
    return next(s for s in lobby.selects() if s["custom_id"].endswith(f":{name}"))


async def test_help_names_every_command_in_groups_and_a_short_quick_start(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "help")
        help_ = fake.last_reply(ana)
        text = help_.text()
        for command in COMMANDS:
            assert command in text, command
        # Every /deck subcommand is named on its line.
        from cogs.decks import Decks

        deck_line = next(line for line in text.splitlines() if "/deck " in line)
        for sub in Decks.deck.commands:
            assert sub.name in deck_line, sub.name
        names = [f["name"] for f in help_.embeds[0]["fields"]]
        for group in ("Play", "Compete", "Look back", "Decks"):
            assert any(group in name for name in names), group
        assert "CookieRun: Braverse** · 2 players" in text and "2–2" not in text
        # The quick start is the shortest game at its defaults (Toss: one round).
        assert "Quick start: /play game: Toss Your Cookies bots:2" in text
    fake.assert_clean()


async def test_a_friends_play_in_a_taken_channel_offers_only_what_they_can_do(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game="toss_your_cookies", bots=2)
        await fake.slash(ben, "play", game="toss_your_cookies")
        said = fake.last_reply(ben).text()
        assert said.startswith("A [Toss Your Cookies](https://discord.com/channels/")
        assert "lobby is open here: press **Join** on it to play." in said
        assert "/cancel" not in said  # not his to cancel
        lobby = table_of(fake)
        await fake.click(ben, lobby, lobby.find_button("Join"))
        assert fake.last_reply(ben).text().startswith("🙋 You're in (seat 4).")
    fake.assert_clean()


async def test_join_answers_with_the_seat_and_join_again_changes_nothing(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "play", game="braverse")
        lobby = table_of(fake)
        # Said once, privately, to whoever joins: not in every public lobby.
        assert "lone Pass" not in lobby.text() and "Always ask" not in lobby.text()
        assert "Start** with 2 players." in lobby.text()
        await fake.click(ben, lobby, lobby.find_button("Join"))
        answer = fake.last_reply(ben)
        assert answer.ephemeral and answer.text().startswith("🙋 You're in (seat 2).")
        assert "Always ask me: off" in answer.text()
        await fake.click(ben, lobby, lobby.find_button("Join"))
        again = fake.last_reply(ben)
        assert again.text().startswith("🙋 You're already in (seat 2).")
        assert "Always ask me: off" in again.text()
        assert not (await bot.service.user_settings(ben.id)).always_ask
        assert "Seats (2/2)" in table_of(fake).text()
    fake.assert_clean()


async def test_a_lobby_pick_shows_in_the_answer_to_the_pick(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game="cover_your_assets")
        lobby = table_of(fake)
        picked = await fake.select(
            ana, lobby, lobby_select(lobby, "end_mode")["custom_id"], ["quick"]
        )
        # The answer itself is the redrawn lobby (an update, not a bare acknowledgement
        # waiting for the coalesced table edit).
        assert picked.response_type == 7
        assert picked.original_message_id == lobby.id
        assert "Quick: one round" in lobby.text()
    fake.assert_clean()


async def test_a_deck_pick_shows_at_once_and_the_hint_goes_when_everyone_chose(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game="braverse")
        lobby = table_of(fake)
        await fake.click(ben, lobby, lobby.find_button("Join"))
        picker = next(s for s in lobby.selects() if s["custom_id"].startswith("cj:seatpick:"))
        ready = [o["value"] for o in picker["options"] if o["value"] != "mine"]
        assert "Pick yours with **Choose deck**" in lobby.text()
        picked = await fake.select(ana, lobby, picker["custom_id"], [ready[1]])
        assert picked.response_type == 7
        assert "Pick yours with **Choose deck**" in lobby.text()  # Ben has not chosen
        await fake.select(ben, lobby, picker["custom_id"], [ready[0]])
        assert "none chosen" not in lobby.text()
        assert "Pick yours" not in lobby.text()
    fake.assert_clean()


async def test_the_chomper_lobby_names_the_modifier_round_once(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game="cookie_chomper")
        text = table_of(fake).text()
        assert "Modifier round: 20 s a player (live)" in text
        assert "Modifier round (live): Modifier round" not in text
    fake.assert_clean()


async def test_cancel_in_the_parent_channel_ends_the_match_in_its_thread(
    fake: FakeDiscord, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(mod, "settings", threads=True)
        await fake.slash(ana, "play", game="cover_your_assets")
        [thread] = [c for c in fake.channels.values() if c.parent_id == fake.general.id]
        await fake.slash(ben, "cancel")  # not his: nothing to cancel, nothing changes
        assert "no match in this channel to cancel" in fake.last_reply(ben).text()
        assert (await bot.service.store.open_in_channel(thread.id)) is not None
        await fake.slash(ana, "cancel")
        said = fake.last_reply(ana).text()
        assert said == f"✖️ You cancelled the Cover Your Assets match in <#{thread.id}>."
        assert (await bot.service.store.open_in_channel(thread.id)) is None
    fake.assert_clean()


async def test_leave_asks_first_then_the_seat_is_the_bots_for_good(fake, db) -> None:
    ana, ben, dev = fake.add_user("ana"), fake.add_user("ben"), fake.add_user("dev")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben, bots=1, always_ask=False)
        # Someone with no seat is asked nothing: there is no seat of theirs to give away.
        await fake.slash(dev, "leave")
        said = fake.last_reply(dev)
        assert said.ephemeral and not said.buttons()
        assert said.text() == "You are not seated at this table. Use **Spectate** to watch it."
        await fake.slash(ben, "leave")
        question = fake.last_reply(ben)
        assert question.ephemeral
        assert question.text().startswith("Leave this match? A bot takes your seat for good")
        record = await bot.service.store.open_in_channel(fake.general.id)
        assert record is not None and not record.seats[1].played_by_bot  # asked, not done
        await fake.click(ben, question, question.find_button("Leave for good"))
        done = fake.last_reply(ben).text()
        assert done == "You left the match. A bot plays your seat to the end, for good."
        hand = await show_hand(fake, ben)
        assert "You left this match: a bot plays your seat to the end." in hand.text()
        assert "pinged" not in hand.text()
    fake.assert_clean()


async def test_join_pressed_on_a_lobby_that_has_just_started_gets_a_sentence(fake, db) -> None:
    """Discord sends a click with the message as it is now. Ben's client still showed the
    lobby when Ana pressed Start: his Join is on no component of the table any more, which
    discord.py drops without a word ("This interaction failed"). It gets its answer."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(ana, "play", game="cover_your_assets", bots=1)
        lobby = table_of(fake)
        await fake.click(ana, lobby, lobby.find_button("Add bot"))
        join = lobby.find_button("Join").custom_id
        assert join is not None
        await fake.click(ana, lobby, lobby.find_button("Start"))
        table = table_of(fake)
        assert table.id == lobby.id and join not in {b.custom_id for b in table.buttons()}
        match = await bot.service.store.open_in_channel(table.channel_id)
        assert match is not None
        before = match.version, [s.user_id for s in match.seats]
        late = await fake._use_component(
            ben, table, {"custom_id": join, "component_type": 2}, True, False
        )
        assert late.acknowledged
        said = fake.last_reply(ben)
        assert said.ephemeral and "started" in said.text().lower(), said.text()
        after = await bot.service.store.open_in_channel(table.channel_id)
        assert after is not None and (after.version, [s.user_id for s in after.seats]) == before
    fake.assert_clean()
