"""Issue 27's smaller findings, each as the first evening met it: Toss results that give
every loser silver, Chomper's Stack as a line of 40 emoji, /stats and /leaderboard, the
/export answer, /card by part of a name, /remind with nothing to remind, the README."""

from __future__ import annotations

import re
from pathlib import Path

from bot.permissions import INVITE_PERMISSIONS
from games import GAMES
from tests.bot.test_setup_outcome import DealtAWin
from tests.discord.conftest import looked_away, make_bot, open_game, table_of
from tests.discord.harness import FakeDiscord, FakeUser
from tests.discord.test_ratings import play_out
from tests.discord.test_toss_your_cookies import open_toss_lobby


def toss_won_at_the_deal(fake: FakeDiscord, monkeypatch) -> list[FakeUser]:  # type: ignore[no-untyped-def]
    """Three people at a one-round Toss that Ben wins as it is dealt: a finished match at
    once."""
    monkeypatch.setitem(GAMES, "toss_your_cookies", DealtAWin())
    return [fake.add_user(n) for n in ("ana", "ben", "cleo")]


async def test_toss_results_rank_the_winner_and_let_the_losers_share_a_place(
    fake: FakeDiscord, db, monkeypatch
) -> None:
    """One round, Ben wins at the deal: Ana and Cleo are not second, they tie below him."""
    people = toss_won_at_the_deal(fake, monkeypatch)
    async with fake.running(make_bot(db)):
        await open_toss_lobby(fake, *people)
        final = fake.public_messages(fake.general)[-1]
        ranking = final.embeds[0]["description"].split("\n\n")[1]
        assert ranking.splitlines() == ["🥇 **Ben**", "2. **Ana**, **Cleo**"]
        await fake.slash(people[0], "history")
        listed = fake.last_reply(people[0]).text()
        # One round: the place says it all, no score beside it.
        assert "🥇 Ben · 2. Ana · 2. Cleo\n" in listed and "🥈" not in listed
        assert table_of(fake).id != final.id
    fake.assert_clean()


async def test_chomper_draws_its_stack_as_runs_with_the_top_first(fake: FakeDiscord, db) -> None:
    """The Stack was 40 emoji in a row; now its runs: the top token and where the poison
    lies, in a line a phone shows whole."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cookie_chomper", ana, ben, choices={"mode": ["middle"]})
        stack = next(f for f in table_of(fake).embeds[0]["fields"] if f["name"] == "Stack")
        assert stack["value"] == "40 tokens, top first: 🍪×19 ☠️ 🍪×20"
        assert "🍪🍪" not in table_of(fake).text()
    fake.assert_clean()


async def test_stats_offers_a_menu_of_the_rated_games_and_answers_privately_like_the_board(
    fake: FakeDiscord, db
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cookie_chomper", ana, ben)
        await play_out(fake, bot, [ana, ben])
        await fake.slash(ben, "stats", options={"user": ana})
        summary = fake.last_reply(ben)
        assert summary.ephemeral
        assert "· 1 game\n" in summary.text() and "1 games" not in summary.text()
        (menu,) = [s for s in summary.selects() if s["custom_id"] == f"cj:stats:{ana.id}"]
        assert [o["value"] for o in menu["options"]] == ["cookie_chomper"]
        await fake.select(ben, summary, menu["custom_id"], ["cookie_chomper"])
        detail = fake.messages[summary.id]  # the same private message, now the game's page
        assert "📈 Cookie Chomper" in detail.text() and "**Games:** 1" in detail.text()
        assert detail.selects()[0]["options"][0].get("default")
        await fake.slash(ben, "leaderboard", game="cookie_chomper")
        assert fake.last_reply(ben).ephemeral  # one rule: a look-up answers the asker
    fake.assert_clean()


async def test_export_points_a_discord_user_to_replay_not_to_a_terminal(
    fake: FakeDiscord, db, monkeypatch
) -> None:
    people = toss_won_at_the_deal(fake, monkeypatch)
    async with fake.running(make_bot(db)) as bot:
        await open_toss_lobby(fake, *people)
        (finished,) = (await bot.service.history(fake.guild_id)).entries
        match_id = finished.record.match_id
        await fake.slash(people[0], "export", match=match_id)
        answer = fake.last_reply(people[0])
        assert answer.ephemeral and answer.attachments
        assert f"`/replay match:{match_id}`" in answer.text()
        assert "python" not in answer.text()
    fake.assert_clean()


async def test_card_finds_a_card_by_a_word_of_its_name_and_names_the_cards_a_word_fits(
    fake: FakeDiscord, db
) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        for typed in ("flare", "JUGGLER", "flare jug"):
            await fake.slash(ana, "card", name=typed)
            answer = fake.last_reply(ana)
            assert answer.ephemeral and answer.embeds, typed
            assert "Flare Juggler" in answer.embeds[0]["title"], typed
        await fake.slash(ana, "card", name="ember")  # Ember Knight and Ember Pup
        answer = fake.last_reply(ana)
        assert answer.ephemeral and not answer.embeds
        assert "'ember' fits 2 cards:" in answer.text()
        assert "Ember Knight" in answer.text() and "Ember Pup" in answer.text()
        await fake.slash(ana, "card", name="uggler")  # inside a word: no card starts so
        assert "No card called 'uggler'" in fake.last_reply(ana).text()
    fake.assert_clean()


async def test_remind_says_why_nobody_was_reminded(fake: FakeDiscord, db) -> None:
    ana, ben, cleo = fake.add_user("ana"), fake.add_user("ben"), fake.add_user("cleo")
    async with fake.running(make_bot(db)) as bot:
        await fake.slash(cleo, "remind")  # no match at all: nothing waits on anybody
        assert fake.last_reply(cleo).text() == (
            "Nothing to remind: you are in no match here. /play starts one."
        )
        await open_game(fake, "cookie_chomper", ana, ben)
        await looked_away(fake)  # the start's turn ping, which waited while they looked
        record = await bot.service.store.open_in_channel(fake.general.id)
        mover, other = (ana, ben) if bot.service.load_state(record).turn == 0 else (ben, ana)
        await fake.slash(mover, "remind")
        assert "Nobody to remind: it is your move." in fake.last_reply(mover).text()
        await fake.slash(other, "remind")  # the start's turn ping called on them just now
        name = mover.name.capitalize()
        assert fake.last_reply(other).text() == f"Nobody reminded. {name} was pinged moments ago."
    fake.assert_clean()


README = Path(__file__).resolve().parents[2] / "README.md"


def quick_start() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Quick start")
    return text[start : text.index("\n## ", start + 1)]


def test_the_readme_opens_with_a_five_step_quick_start_that_finds_the_server_id() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 300
    assert "DISCORD_TOKEN=... make run" in text and "make test" in text
    assert text[: text.index("## Quick start")].count("\n") < 30  # at the top, not line 197
    steps = re.findall(r"^(\d)\. \*\*", quick_start(), flags=re.MULTILINE)
    assert steps == ["1", "2", "3", "4", "5"]
    for needed in ("DEV_GUILD_ID", "Developer Mode", "Copy Server ID", "DISCORD_TOKEN"):
        assert needed in quick_start(), needed
    # The invite link asks for what the bot needs: the permissions it logs itself.
    (asked,) = re.findall(r"permissions=(\d+)", quick_start())
    assert int(asked) == INVITE_PERMISSIONS.value


async def test_the_readme_quick_starts_play_command_opens_a_game(fake: FakeDiscord, db) -> None:
    """The /play of the last step, typed as written: it opens that game in the channel."""
    (typed,) = re.findall(r"`/play ([^`]+)`", quick_start())
    given = dict(re.findall(r"(\w+):(.+?)(?=\s+\w+:|$)", typed))
    name = given.pop("game")
    key = next(k for k, g in GAMES.items() if g.name == name)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "play", game=key, **{k: int(v) for k, v in given.items()})
        assert GAMES[key].name in table_of(fake).text()  # a lobby or a table: no refusal
    fake.assert_clean()
