"""A best-of-three Swiss through the real discord.py code: each table's games follow one
another in its thread, the table's result is posted there when it is decided, and the
standings and the export carry GW% and OGW%."""

from __future__ import annotations

import csv
import io

import pytest

from bot.tournaments import best_of as bo
from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord
from tests.discord.test_tournaments import PatientDiscord, create_event, settle_all, the_event


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


async def test_a_best_of_three_swiss_of_four_bots_plays_its_games_in_each_tables_thread(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", pace="casual", rounds=2, best_of=3
        )
        assert "best of 3, the first to win 2 games takes the table" in signup.text()
        for _ in range(4):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert event.status == "finished" and event.round == 2

        results = {(r.round, r.table_no): r for r in view.results}
        assert len(results) == 4
        for table in view.tables:
            result = results[(table.round, table.table_no)]
            score = bo.score(table.seats, [game.winner for game in table.games])
            # Two to three games, each its own match; the table goes to two wins, or to
            # game points after three games.
            assert 2 <= len(table.games) <= 3 and result.match_id == table.games[-1].match_id
            assert result.game_wins == list(score.wins) and result.game_draws == score.draws
            assert result.places == list(score.places()) and bo.decided(score, 3)
            assert max(score.wins) == 2 or len(table.games) == 3
            matches = [await bot.service.get(game.match_id) for game in table.games]
            assert {m.status for m in matches} == {"finished"}
            # One thread holds every game of the table, the seats turning each game.
            assert {m.channel_id for m in matches} == {table.thread_id}
            first = [s.name for s in matches[0].seats]
            assert [s.name for s in matches[1].seats] == first[::-1]

            posted = [m.text() for m in fake.public_messages(fake.channels[table.thread_id])]
            names = [view.name(p) for p in table.seats]
            announced = [t for t in posted if "tournament:" in t]
            assert "best of 3: game 1" in announced[0]
            after_one = bo.score(table.seats, [table.games[0].winner])
            assert (
                f"game 2 is on ({names[0]} {after_one.wins[0]}–{after_one.wins[1]} {names[1]}"
                in announced[1]
            )
            assert len(announced) == len(table.games)
            winner = view.name(result.players[result.places.index(1)])
            verdict = [t for t in posted if "the table" in t]
            assert len(verdict) == 1
            if result.places == [1, 1]:
                assert "draw the table" in verdict[0]
            else:
                assert f"**{winner}** wins the table against" in verdict[0]
                assert f"{max(score.wins)}–{min(score.wins)}" in verdict[0]
            assert fake.channels[table.thread_id].archived

        # The standings show GW% and OGW%; the export carries them and the games.
        final = fake.public_messages()[-1]
        assert "final standings" in final.text() and "GW%" in final.text()
        assert "OGW%" in final.text()
        await fake.slash(mod, "tournament export")
        files = {a.filename: a.data.decode() for a in fake.last_reply(mod).attachments}
        standings = list(csv.DictReader(io.StringIO(files["standings.csv"])))
        assert {"GW%", "OGW%"} <= set(standings[0]) and len(standings) == 4
        seats = list(csv.DictReader(io.StringIO(files["results.csv"])))
        assert sum(int(row["games_won"]) for row in seats) + sum(
            int(row["games_drawn"]) for row in seats
        ) // 2 == sum(len(t.games) for t in view.tables)
    fake.assert_clean()
