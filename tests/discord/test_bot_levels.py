"""Bot levels people pick (issue 30): /play level:, the lobby's and the tournament's Add bot,
/settings bot_level:, the level on the table, each level's rating beside the leaderboard,
and a hard bot thinking in a worker process while the loop answers clicks."""

from __future__ import annotations

import asyncio
import time

from bot import bots as bot_driver
from bot import thinking
from bot.ratings import BOT_IDS
from bot.thinking import Thinker
from tests.bot.thinking_work import RELEASE, hang, slow
from tests.discord.conftest import (
    click_first_move,
    make_a_move,
    make_bot,
    mover_and_hand,
    open_game,
    table_of,
)
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_ratings import play_out
from tests.discord.test_tournaments import create_event, settle_all


async def seats_of(bot, fake: FakeDiscord) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    record = await bot.service.store.open_in_channel(fake.general.id)
    return [(s.name, s.level) for s in record.seats if s.is_bot]


async def thinking_starts(thinker: Thinker, within: float = 5.0) -> bool:
    """Whether a thought goes out to the workers within ``within`` seconds of real time."""
    until = time.perf_counter() + within
    while time.perf_counter() < until:
        if thinker.thinking:
            return True
        await asyncio.sleep(0.002)
    return False


async def bot_moves(fake: FakeDiscord, bot) -> int:  # type: ignore[no-untyped-def]
    record = await bot.service.store.open_in_channel(fake.general.id)
    return sum(1 for entry in await bot.store.actions(record.match_id) if entry.seat != 0)


async def play_until_bots_moved(fake: FakeDiscord, bot, host: FakeUser, moves: int) -> None:  # type: ignore[no-untyped-def]
    """The host plays their first option on each turn until the bots made ``moves`` moves."""
    for _ in range(60):
        if await bot_moves(fake, bot) >= moves:
            return
        if not await make_a_move(fake, host):
            await fake.advance(5)
    raise AssertionError("the bots did not move")


async def test_play_with_hard_bots_seats_them_says_so_and_thinks_in_a_worker(fake, db) -> None:
    host = fake.add_user("host")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(host, "play", game="cover_your_assets", bots=2, level="hard")
        lobby = table_of(fake)
        assert "🤖 Abe (Hard)" in lobby.text() and "🤖 Bea (Hard)" in lobby.text()
        assert await seats_of(bot, fake) == [("🤖 Abe", "hard"), ("🤖 Bea", "hard")]
        # The hard bots in the lobby started the workers; the first move need not wait.
        assert await bot.bots.thinker.ready()
        await fake.click(host, lobby, lobby.find_button("Start"))
        table = table_of(fake)
        assert "🤖 Bots" in table.text() and "🤖 Abe (Hard), 🤖 Bea (Hard)" in table.text()
        await play_until_bots_moved(fake, bot, host, 2)
        # Their moves came from the worker processes (in time: a machine slowed by other
        # work may push one past its deadline, which the fallback test covers).
        assert bot.bots.thinker.answered >= 1
    fake.assert_clean()


async def test_the_lobbys_add_bot_picks_a_level_and_stale_picks_get_a_sentence(fake, db) -> None:
    host, ben = fake.add_user("host"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(host, "play", game="cover_your_assets")
        lobby = table_of(fake)
        await fake.click(host, lobby, lobby.find_button("Add bot"))
        answer = fake.last_reply(host)
        assert answer.ephemeral and "🤖 Abe (Normal) takes seat 2." in answer.text()
        assert [b.label for b in answer.buttons()] == ["Easy", "Normal", "Hard"]
        await fake.click(host, answer, answer.find_button("Hard"))
        assert "🤖 Abe plays at Hard." in fake.last_reply(host).text()
        assert "🤖 Abe (Hard)" in table_of(fake).text()
        assert await seats_of(bot, fake) == [("🤖 Abe", "hard")]

        # Only the host adds bots: anyone else gets a sentence and nothing changes.
        await fake.click(ben, lobby, lobby.find_button("Join"))
        await fake.click(ben, lobby, lobby.find_button("Add bot"))
        refused = fake.last_reply(ben)
        assert refused.ephemeral and "host" in refused.text().lower(), refused.text()
        assert await seats_of(bot, fake) == [("🤖 Abe", "hard")]

        await fake.click(host, lobby, lobby.find_button("Start"))
        await fake.click(host, answer, answer.find_button("Easy"))  # the lobby is gone
        stale = fake.last_reply(host)
        assert stale.ephemeral and "lobby" in stale.text().lower()
        record = await bot.service.store.get((await bot.store.open_matches())[0].match_id)
        assert [(s.name, s.level) for s in record.seats if s.is_bot] == [("🤖 Abe", "hard")]
        assert "🤖 Abe (Hard)" in table_of(fake).text()
    fake.assert_clean()


async def test_the_servers_default_level_applies_to_play_and_add_bot(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(mod, "settings", bot_level="easy")
        said = fake.last_reply(mod).text()
        assert "New bots play at Easy" in said and "**Bots play at:** Easy" in said
        await fake.slash(mod, "play", game="cover_your_assets", bots=1)
        lobby = table_of(fake)
        await fake.click(mod, lobby, lobby.find_button("Add bot"))
        assert "🤖 Bea (Easy) takes seat 3." in fake.last_reply(mod).text()
        assert await seats_of(bot, fake) == [("🤖 Abe", "easy"), ("🤖 Bea", "easy")]
        await fake.slash(mod, "settings")
        assert "**Bots play at:** Easy" in fake.last_reply(mod).text()
    fake.assert_clean()


async def test_tournament_add_bot_picks_a_level_its_tables_play_at(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(fake, mod, game="cover_your_assets", format="swiss")
        await fake.click(mod, signup, signup.find_button("Join"))
        await fake.click(mod, signup, signup.find_button("Add bot"))
        answer = fake.last_reply(mod)
        assert answer.ephemeral and "🤖 Abe (Normal) joins the tournament." in answer.text()
        await fake.click(mod, answer, answer.find_button("Hard"))
        assert "🤖 Abe plays its tables at Hard." in fake.last_reply(mod).text()
        assert "🤖 Abe (Hard)" in signup.text()
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        [match] = await bot.store.open_matches()
        assert [(s.name, s.level) for s in match.seats if s.is_bot] == [("🤖 Abe", "hard")]
        assert match.message_id is not None
        assert "🤖 Abe (Hard)" in fake.messages[match.message_id].text()
    fake.assert_clean()


async def test_the_leaderboard_shows_each_levels_rating_apart_from_people(fake, db) -> None:
    mod, ben = fake.add_user("mod", manage_guild=True), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(mod, "settings", bot_level="easy")
        await open_game(fake, "cookie_chomper", mod, ben, bots=1)
        await play_out(fake, bot, [mod, ben])
        await bot.ratings.idle()
        easy = (await bot.store.ratings_of(fake.guild_id, "cookie_chomper", [BOT_IDS["easy"]]))[
            BOT_IDS["easy"]
        ]
        await fake.slash(ben, "leaderboard", game="cookie_chomper")
        text = fake.last_reply(ben).text()
        # People are ranked among themselves; the bots are a line of their own below.
        assert "2 rated" in text and "🥇" in text and "🥈" in text and "🥉" not in text
        assert f"🤖 **Bots** (a reference, not ranked): Easy {easy.display}ᴾ" in text
        assert "<@-" not in text
    fake.assert_clean()


async def test_a_hard_bot_thinks_off_the_loop_which_keeps_answering_clicks(
    fake, db, tmp_path, monkeypatch
) -> None:
    host, watcher = fake.add_user("host"), fake.add_user("watcher")
    # The worker holds its thought until the file exists, and the loop waits for it as long
    # as need be: the click below meets the thought out however slow the machine is.
    release = tmp_path / "release"
    monkeypatch.setenv(RELEASE, str(release))
    monkeypatch.setattr(thinking, "GRACE", 60.0)
    monkeypatch.setattr(bot_driver, "GRACE", 60.0)
    async with fake.running(make_bot(db)) as bot:
        bot.bots.thinker = thinker = Thinker(1, work=slow)
        bot.bots.think_cap = None  # the pace's time: a second at casual
        assert await thinker.ready()
        await fake.slash(host, "play", game="cover_your_assets", bots=1, level="hard")
        lobby = table_of(fake)
        release.touch()  # a bot that opens the match thinks without being held
        await fake.click(host, lobby, lobby.find_button("Start"))
        match_id = (await bot.store.open_matches())[0].match_id
        thought_before = thinker.answered + thinker.fell_back
        # The host moves; the bot then thinks (held in its worker, then its search). A
        # click on the table is answered meanwhile, while the thought is out.
        baseline = set(asyncio.all_tasks())
        for _ in range(10):  # the host's moves until one hands the turn to the bot
            user, hand, buttons, selects = await mover_and_hand(fake, [host])
            baseline = set(asyncio.all_tasks())
            release.unlink(missing_ok=True)  # the thought this move may cause is held
            await click_first_move(fake, user, hand, buttons, selects, dispatch_only=True)
            if await thinking_starts(thinker):
                break
            release.touch()
            await fake.settle(baseline=baseline)
        assert thinker.thinking == 1
        click = await fake.click(
            watcher, table_of(fake), f"cj:watch:{match_id}", dispatch_only=True
        )
        while not click.acknowledged:
            await asyncio.sleep(0.001)
        assert thinker.thinking == 1, "the click waited for the thought"
        release.touch()
        await fake.settle(baseline=baseline)
        # The thought came back and the bot moved with it (and with its next ones, if its
        # move left it to decide again).
        assert thinker.answered > thought_before and thinker.fell_back == 0
    fake.assert_clean()


async def test_a_thought_past_its_deadline_falls_back_to_a_move_and_a_hung_worker_goes(
    fake, db, caplog
) -> None:
    host = fake.add_user("host")
    async with fake.running(make_bot(db)) as bot:
        bot.bots.thinker = thinker = Thinker(1, work=hang)
        assert await thinker.ready()
        await fake.slash(host, "play", game="cover_your_assets", bots=1, level="hard")
        lobby = table_of(fake)
        await fake.click(host, lobby, lobby.find_button("Start"))
        await play_until_bots_moved(fake, bot, host, 1)
        # The worker never answered: past the deadline the bot played the normal move.
        assert thinker.fell_back >= 1 and thinker.answered == 0
        assert "ran past its" in caplog.text
        [stuck] = list(thinker._pool._processes.values())  # type: ignore[union-attr]
        # Long past the deadline the worker counts as hung: the next thought replaces it.
        await fake.advance(60)
        # One more bot move than so far (the first stretch may have brought several).
        await play_until_bots_moved(fake, bot, host, await bot_moves(fake, bot) + 1)
        stuck.join(30)  # a loaded machine may take its time to end a process
        assert not stuck.is_alive() and "a thinking worker hangs" in caplog.text
    fake.assert_clean()
