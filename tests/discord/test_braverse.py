"""CookieRun: Braverse through the real discord.py code: full matches with ready decks,
user against bot and user against user, to the final embed."""

from __future__ import annotations

from tests.discord.conftest import make_bot, open_game, show_hand, table_of
from tests.discord.test_toss_your_cookies import play_to_the_end


async def test_a_player_and_a_bot_play_a_full_match_with_ready_decks(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await open_game(fake, "braverse", ana, bots=1)
        table = table_of(fake).text()
        assert "CookieRun: Braverse" in table and "Break Area LV 0/10" in table
        await play_to_the_end(fake, [ana])
        final = table_of(fake).text()
        assert "Game over" in final and "wins." in final
        said = fake.all_public_text()
        assert any("faints" in t for t in said) or any("refreshes" in t for t in said)
    fake.assert_clean()


async def test_two_players_play_a_full_match_and_hands_stay_private(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "braverse", ana, ben)
        record = await bot.service.store.open_in_channel(fake.general.id)
        state = bot.service.load_state(record)
        hand = await show_hand(fake, ana)
        assert "Your hand (6 cards)" in hand.text()
        names = {bot.service.games["braverse"].pool[c].name for c in state.sides[1].hand}
        mine = {bot.service.games["braverse"].pool[c].name for c in state.sides[0].hand}
        for name in names - mine:
            assert name not in hand.text()  # Ben's cards are not in Ana's hand view
        await play_to_the_end(fake, [ana, ben])
        assert "Game over" in table_of(fake).text()
        for text in fake.all_public_text():
            assert "You draw" not in text  # a drawn card is told to its drawer only
    fake.assert_clean()


async def test_a_replay_steps_by_turn_as_the_game_counts_them(fake, db) -> None:
    """Braverse counts turns ("Turn 3: Ana.", "Ana's turn 3"); its replay offered
    "Round 3", "Next round" and "Jump to a round" for the same stretches, and "Round 0"
    for the set-up."""
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await open_game(fake, "braverse", ana, bots=1)
        await play_to_the_end(fake, [ana])
        match_id = table_of(fake).find_button("Rematch").custom_id.split(":")[2]
        await fake.slash(ana, "replay", match=match_id)
        page = fake.last_reply(ana)
        labels = [b.label for b in page.buttons()]
        assert labels[:4] == ["Last turn", "Back", "Next", "Next turn"]
        jump = page.selects()[0]
        assert jump["placeholder"] == "Jump to a turn"
        marks = [o["label"] for o in jump["options"]]
        assert marks[0] == "Set-up · from move 0" and marks[1].startswith("Turn 1 · from move ")
        assert not any("Round" in m for m in marks)
    fake.assert_clean()
