"""/history, /replay and /export through the real discord.py code, across a restart."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

from bot.service import HistoryPage, Person, Replay
from cogs.history import history_message, replay_message
from games import GAMES
from games.cli.main import main
from games.cli.simulate import Job, play_one
from games.core import contract
from games.core.replay import (
    ExportedAction,
    ExportedSeat,
    MatchExport,
    final_state,
    load_export,
    replay,
)
from games.core.translations import ENGLISH, PSEUDO, SELECTABLE
from tests.discord.conftest import make_a_move, make_bot, open_game, table_of
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser, message_errors
from tests.discord.test_cover_your_assets import open_lobby, play_to_the_end
from tests.discord.test_fits_discord import payload, record_for

MOVE = re.compile(r"move (\d+) of (\d+)")


def step_of(message: FakeMessage) -> tuple[int, int]:
    found = MOVE.search(message.content)
    assert found, message.content
    return int(found[1]), int(found[2])


async def finished_cover_match(fake: FakeDiscord, ana: FakeUser) -> str:
    match_id = await open_lobby(fake, ana, bots=3)
    await fake.click(ana, table_of(fake), table_of(fake).find_button("Start"))
    await play_to_the_end(fake, [ana])
    return match_id


def button(message: FakeMessage, emoji_or_label: str) -> str:
    for raw in message.components[0]["components"]:
        shown = (raw.get("emoji") or {}).get("name", "") + (raw.get("label") or "")
        if emoji_or_label in shown:
            return raw["custom_id"]
    raise LookupError(emoji_or_label)


async def test_a_finished_match_is_listed_replayed_to_its_last_move_and_exported(
    fake, db, tmp_path
) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        match_id = await finished_cover_match(fake, ana)
        record = await bot.service.get(match_id)
        assert record.status == "finished" and record.finished_at is not None

        await fake.slash(ana, "history")
        listing = fake.last_reply(ana)
        assert listing.ephemeral
        text = listing.text()
        assert f"Cover Your Assets · {match_id}" in text and "🥇" in text
        # Each score as the game counts it (Assets in dollars), not a bare number.
        game = GAMES["cover_your_assets"]
        final = game.load_state(record.state)
        outcome = game.outcome(final)
        assert outcome is not None
        best = min(outcome.placements, key=lambda p: p.place)
        winner = record.seats[best.seat].name
        assert f"🥇 {winner} {game.score_text(final, best)}" in text
        assert game.score_text(final, best).startswith("$")
        assert f"{record.version} moves" in text and "Page 1 of 1" in text
        assert str(record.seed) not in text

        offered = await fake.autocomplete(ana, "replay", "match", "ana")
        assert [c["value"] for c in offered] == [match_id]
        assert "Cover Your Assets" in offered[0]["name"]

        await fake.slash(ana, "replay", match=match_id)
        page = fake.last_reply(ana)
        assert not page.ephemeral  # a replay is public: the match is over
        assert step_of(page) == (0, record.version) and "the deal" in page.content
        await fake.click(ana, page, button(page, "▶"))
        assert step_of(page) == (1, record.version)
        await fake.click(ana, page, button(page, "▶"))
        assert step_of(page) == (2, record.version)
        await fake.click(ana, page, button(page, "◀"))
        assert step_of(page) == (1, record.version)
        # With All hands, every seat's hand is on the page.
        await fake.click(ana, page, button(page, "All hands"))
        assert step_of(page) == (1, record.version)
        names = [s.name for s in record.seats]
        assert all(f"🃏 {name}'s hand" in page.text() for name in names)
        # ⏩ goes on by rounds (or ten moves) and stops at the last move.
        for _ in range(record.version):
            if step_of(page)[0] == record.version:
                break
            await fake.click(ana, page, button(page, "⏩"))
        assert step_of(page) == (record.version, record.version)
        assert "Game over" in page.text()
        assert next(b for b in page.buttons() if b.label == "Next").disabled
        # The last page shows the table as the match left it: the final table's panel.
        game = GAMES["cover_your_assets"]
        final = game.load_state(record.state)
        assert page.embeds[0]["title"] == game.panels(game.view(final, None)).table.title

        await fake.slash(ana, "export", match=match_id)
        answer = fake.last_reply(ana)
        assert answer.ephemeral and answer.attachments
        exported = load_export(answer.attachments[0].data)
        assert exported.seed == record.seed and exported.game == "cover_your_assets"
        assert len(exported.actions) == record.version
        assert all(a.at is not None for a in exported.actions)
        assert [s.name for s in exported.seats] == names
        assert final_state(game, exported).model_dump_json() == record.state
        assert json.loads(answer.attachments[0].data)["options"]["end_mode"] == "quick"
        # The file steps in the terminal replayer to the same last move.
        saved = tmp_path / answer.attachments[0].filename
        saved.write_bytes(answer.attachments[0].data)
        keys = iter([str(record.version), "q"])
        screen = io.StringIO()
        code = main(
            ["replay", str(saved)],
            console=Console(file=screen, width=100),
            ask=lambda _: next(keys),
        )
        assert code == 0 and f"Move {record.version} of {record.version}" in screen.getvalue()
    fake.assert_clean()


async def test_the_replay_keeps_working_after_a_restart(fake, db) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        match_id = await finished_cover_match(fake, ana)
        await fake.slash(ana, "replay", match=match_id)
        page = fake.last_reply(ana)
        await fake.click(ana, page, button(page, "⏩"))
        here, last = step_of(page)
    async with fake.running(make_bot(db)):  # a new process: nothing in memory
        await fake.click(ana, page, button(page, "◀"))
        assert step_of(page) == (here - 1, last)
        jump = next(s for s in page.selects() if s["custom_id"].startswith("cj:rps:"))
        await fake.select(ana, page, jump["custom_id"], [jump["options"][-1]["value"]])
        assert step_of(page)[0] == int(jump["options"][-1]["value"])
        # The last move through the buttons, after the restart too.
        while step_of(page)[0] < last:
            await fake.click(ana, page, button(page, "▶"))
        assert step_of(page) == (last, last)
    fake.assert_clean()


async def test_a_posted_replay_is_stepped_by_its_asker_and_others_get_their_own_copy(
    fake, db
) -> None:
    """Two people reading one match never turn each other's page: Ben's click on Ana's
    replay opens his own copy at the move he asked for, which he steps alone."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        match_id = await finished_cover_match(fake, ana)
        await fake.slash(ana, "replay", match=match_id)
        shared = fake.last_reply(ana)
        assert not shared.ephemeral and step_of(shared)[0] == 0
        await fake.click(ana, shared, button(shared, "▶"))
        assert step_of(shared)[0] == 1

        await fake.click(ben, shared, button(shared, "▶"))
        assert step_of(shared)[0] == 1  # Ana's page stayed where she left it
        mine = fake.last_reply(ben)
        assert mine.ephemeral and mine.visible_to == ben.id and mine.id != shared.id
        assert step_of(mine)[0] == 2
        assert f"Your own copy of <@{ana.id}>'s replay" in mine.content
        # Ben's copy turns in place, and only for him.
        await fake.click(ben, mine, button(mine, "▶"))
        assert fake.last_reply(ben).id == mine.id and step_of(mine)[0] == 3
        assert "Your own copy" not in mine.content
        assert step_of(shared)[0] == 1
        # Ben's jump on the shared page opens a copy too; Ana's own jump turns it.
        jump = next(s for s in shared.selects() if s["custom_id"].startswith("cj:rps:"))
        last = jump["options"][-1]["value"]
        await fake.select(ben, shared, jump["custom_id"], [last])
        assert fake.last_reply(ben).ephemeral and step_of(fake.last_reply(ben))[0] == int(last)
        assert step_of(shared)[0] == 1
        await fake.select(ana, shared, jump["custom_id"], [last])
        assert step_of(shared)[0] == int(last)
        assert len(fake.ephemerals(ben)) == 2
        assert not any("replay of" in m.content for m in fake.ephemerals(ana))
    fake.assert_clean()


async def test_a_replay_posted_before_owners_is_stepped_by_whoever_clicks(fake, db) -> None:
    """A message sent by an earlier release names no owner in its buttons: the first
    click turns it, as it always did, and makes the clicker its owner."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        match_id = await finished_cover_match(fake, ana)
        await fake.slash(ana, "replay", match=match_id)
        shared = fake.last_reply(ana)
        owned = button(shared, "▶")
        old = owned.removesuffix(f":{ana.id}")
        assert old != owned and old.count(":") == 5
        shared.components[0]["components"][2]["custom_id"] = old  # as the old release sent it
        await fake.click(ben, shared, old)
        assert fake.last_reply(ben).id == shared.id and step_of(shared)[0] == 1
        assert button(shared, "▶").endswith(f":{ben.id}")
    fake.assert_clean()


async def test_a_running_match_is_refused_with_a_sentence(fake, db) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cookie_chomper", ana, ben)
        assert await make_a_move(fake, ana) or await make_a_move(fake, ben)
        record = await bot.service.store.open_in_channel(fake.general.id)
        assert record is not None and record.status == "active"
        for command in ("replay", "export"):
            await fake.slash(ben, command, match=record.match_id)
            reply = fake.last_reply(ben)
            assert reply.ephemeral
            assert "still being played" in reply.text()
            assert str(record.seed) not in reply.text() and not reply.attachments
        assert await fake.autocomplete(ana, "replay", "match", "") == []
        await fake.slash(ana, "replay", match="0123456789")
        assert "no finished match with that id" in fake.last_reply(ana).text()
        await fake.slash(ana, "replay", match="not an id")
        assert "no finished match with that id" in fake.last_reply(ana).text()
        await fake.slash(ana, "history")
        assert "No finished match here yet" in fake.last_reply(ana).text()
        # Nothing public was said about it, and the match went on untouched.
        assert not any("replay of" in t for t in fake.all_public_text())
        assert (await bot.service.get(record.match_id)).version == record.version
    fake.assert_clean()


async def finish_through_the_service(fake: FakeDiscord, bot, match_id: str, user_id: int) -> None:  # type: ignore[no-untyped-def]
    """The person takes their first option(s) every time; bots play their own seats."""
    for _ in range(3000):
        await fake.settle()
        if (await bot.service.get(match_id)).status != "active":
            return
        seen = await bot.service.seat_view(match_id, user_id)
        decision = seen.decision
        if decision is not None and decision.window is None:
            picks = list(range(decision.min_picks))
            await bot.service.act(match_id, user_id, stamp=decision.stamp, picks=picks)
        else:
            await fake.advance(60)  # a race or someone else's clock: let time pass
    raise AssertionError("the match did not end")


async def test_history_pages_and_filters_by_game_and_player(fake, db, monkeypatch) -> None:
    monkeypatch.setattr("bot.service.history.HISTORY_PAGE", 2)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await finished_cover_match(fake, ana)
        for _ in range(2):
            record = await bot.service.open_lobby(
                guild_id=fake.guild_id,
                channel_id=fake.general.id,
                host=Person(user_id=ben.id, name="Ben"),
                game_key="cookie_chomper",
            )
            await bot.service.add_bot(record.match_id, Person(user_id=ben.id, name="Ben"))
            await bot.service.start(record.match_id, Person(user_id=ben.id, name="Ben"))
            await finish_through_the_service(fake, bot, record.match_id, ben.id)
            assert (await bot.service.get(record.match_id)).status == "finished"

        await fake.slash(ana, "history")
        first = fake.last_reply(ana)
        assert "3 in all" in first.text() and "Page 1 of 2" in first.text()
        assert "Cover Your Assets" not in first.text()  # the newest two are Ben's
        assert first.find_button("Newer").disabled
        await fake.click(ana, first, first.find_button("Older"))
        second = fake.last_reply(ana)
        assert "Page 2 of 2" in second.text() and "Cover Your Assets" in second.text()
        assert second.find_button("Older").disabled
        await fake.click(ana, second, second.find_button("Newer"))
        assert "Page 1 of 2" in fake.last_reply(ana).text()

        await fake.slash(ana, "history", game="cookie_chomper")
        chomper = fake.last_reply(ana).text()
        assert "2 in all" in chomper and "Cover Your Assets ·" not in chomper
        await fake.slash(ana, "history", options={"user": ana})
        mine = fake.last_reply(ana).text()
        assert "1 in all" in mine and "Cover Your Assets" in mine
    fake.assert_clean()


def test_an_empty_filtered_history_says_what_it_looked_for() -> None:
    """A server with matches, none of them this game with this member: not "No finished
    match here yet", which tells a regular their month of matches is gone."""
    empty = HistoryPage(entries=(), page=0, pages=1, total=0)
    embed, _ = history_message(empty, "braverse", 42, ENGLISH)
    assert embed.description == (
        "No finished match of CookieRun: Braverse with <@42> here yet. Play one with /play!"
    )
    assert history_message(empty, None, None, ENGLISH)[0].description == (
        "No finished match here yet. Play one with /play!"
    )


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_replay_page_fits_discord_at_the_largest_table(key: str) -> None:
    """All hands of the largest table beside the table, at every step of a whole match, in
    every language we ship and the pseudo-locale."""
    game = GAMES[key]
    names = tuple(f"{n}-with-a-long-display-name" for n in contract.NAMES[: game.max_players])
    job = Job(0, key, {}, ("heuristic",) * len(names), seed=4, keep_actions=True)
    played = play_one(job)
    export = MatchExport(
        game=key,
        options=game.options_model().model_dump(),  # what it was played with: today's rules
        seed=job.seed,
        seats=[ExportedSeat(seat=s, name=n) for s, n in enumerate(names)],
        actions=[
            ExportedAction(seq=i, seat=seat, action=text)
            for i, (seat, text) in enumerate(played.actions)
        ],
    )
    frames = tuple(replay(game, export))
    assert game.outcome(frames[-1].state) is not None
    found = Replay(record=record_for(key, frames[-1].state), frames=frames)
    for step in range(len(frames)):
        for hands in (False, True):
            # The pseudo-locale (the longest) at every step, each language at every third.
            for language in SELECTABLE[1:] if step % 3 == 0 else (PSEUDO,):
                content, embeds, view = replay_message(game, found, step, hands, language)
                errors = message_errors(payload(embeds, view, content))
                assert errors == {}, (step, hands, language)
            content, embeds, view = replay_message(game, found, step, hands, ENGLISH)
            assert message_errors(payload(embeds, view, content)) == {}, (step, hands)
            # A private log line is worded for its seat ("You drew..."): never on the page.
            for event in frames[step].events:
                if event.visible_to is not None:
                    assert f"> {event.text}" not in content
            if hands and step == len(frames) - 1:
                assert sum(1 for e in embeds if "'s hand" in (e.title or "")) >= 2
