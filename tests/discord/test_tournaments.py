"""Tournaments through the real discord.py code: sign-up, threads per table, results
recorded from the matches, standings, organiser tools, deadlines on a moved clock."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.store.tournament_records import TournamentRecord
from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser


class PatientDiscord(FakeDiscord):
    """One click may start a round of bot-only tables, played to their end before the
    click settles: on a busy machine that takes more than the default 10 s of real time."""

    async def settle(self, *, timeout: float = 180.0, **options: Any) -> None:
        await super().settle(timeout=timeout, **options)


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


def use_manual_clock(bot) -> ManualClock:  # type: ignore[no-untyped-def]
    clock = ManualClock(start=bot.service.clock.now())
    bot.service.clock = bot.scheduler.clock = clock
    return clock


async def create_event(fake: FakeDiscord, organiser: FakeUser, **options: object) -> FakeMessage:
    await fake.slash(organiser, "tournament create", **options)
    signup = fake.public_messages()[-1]
    assert "tournament" in signup.text() and "Sign-up is open" in signup.text()
    return signup


async def the_event(bot) -> TournamentRecord:  # type: ignore[no-untyped-def]
    found = await bot.tournaments.store.tournaments(None, open_only=False)
    return found[0]


async def settle_all(fake: FakeDiscord, bot) -> None:  # type: ignore[no-untyped-def]
    """Until no result is being recorded and the bots have nothing left to do."""
    for _ in range(50):
        await fake.settle_with(bot.tournaments.idle())
        await fake.settle()
        if not bot.tournaments._tasks:
            return


async def move_on(fake: FakeDiscord, bot, clock: ManualClock, seconds: float) -> None:  # type: ignore[no-untyped-def]
    await clock.advance(seconds)
    await fake.settle_with(bot.scheduler.fire_due())
    await settle_all(fake, bot)


async def until_round(fake: FakeDiscord, bot, clock: ManualClock, target: int) -> None:  # type: ignore[no-untyped-def]
    """Let the simulated clock run, five seconds at a time, until round ``target`` is on or
    the event is over: a scramble among bots closes only when its clock runs out, and a
    live event pauses two minutes between rounds."""
    for _ in range(400):
        event = await the_event(bot)
        if event.round >= target or event.status != "running":
            return
        await move_on(fake, bot, clock, 5)
    view = await bot.tournaments.view(event.tournament_id)
    lines = []
    for t in view.tables:
        if t.round == event.round:
            record = await bot.service.get(t.match_id) if t.match_id else None
            lines.append(
                (
                    t.table_no,
                    t.status,
                    t.bracket_id,
                    record and record.status,
                    [view.entrant(p).name for p in t.seats],
                )
            )
    timers = await bot.tournaments.store.tournament_timers(event.tournament_id)
    raise AssertionError(f"round {target} never started: {event.round} {lines} {timers}")


async def until_standings(fake: FakeDiscord, bot, clock: ManualClock, round_no: int) -> None:  # type: ignore[no-untyped-def]
    """Step the clock until the standings after ``round_no`` are posted (within the grace
    before the next round)."""
    for _ in range(100):
        if any(f"standings after round {round_no}" in m.text() for m in fake.public_messages()):
            return
        await move_on(fake, bot, clock, 5)
    raise AssertionError(f"round {round_no} never ended")


async def decide_human_tables(fake: FakeDiscord, bot, organiser: FakeUser) -> int:  # type: ignore[no-untyped-def]
    """The organiser sets the result of every table of this round that seats a person
    (seat 0 wins): an override, written to the log."""
    event = await the_event(bot)
    view = await bot.tournaments.view(event.tournament_id)
    count = 0
    for table in view.tables:
        if table.round != event.round or table.status != "playing":
            continue
        if all(view.entrant(p).is_bot for p in table.seats):
            continue
        order = " > ".join(view.name(p) for p in table.seats)
        await fake.slash(organiser, "tournament result", order=order)
        assert "Result set" in fake.last_reply(organiser).text()
        count += 1
    await settle_all(fake, bot)
    return count


async def test_an_eight_player_swiss_of_cover_your_assets_runs_to_its_winner(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben, cleo, dev = (fake.add_user(n) for n in ("ana", "ben", "cleo", "dev"))
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", pace="live", checkin=True
        )
        # Sign-up: four people join, three check in; Dev never does (a no-show).
        for user in (ana, ben, cleo, dev):
            await fake.click(user, signup, signup.find_button("Join"))
            assert "You are in" in fake.last_reply(user).text()
        await fake.click(ana, signup, signup.find_button("Join"))
        assert "already signed up" in fake.last_reply(ana).text()
        for user in (ana, ben, cleo):
            await fake.click(user, signup, signup.find_button("Check in"))
        await fake.click(ana, signup, signup.find_button("Start"))
        assert "Only the organiser" in fake.last_reply(ana).text()
        for _ in range(5):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        assert "Entrants (9/64)" in signup.text() and "Ana ✅" in signup.text()
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert view.rounds == 3 and len(view.standings) == 8  # Dev dropped at the start
        assert view.of_user(dev.id).state == "dropped"  # type: ignore[union-attr]

        # Round 1: a pairings message, a thread per table named R1 · Tn · players, the
        # started match in it and its people pinged.
        pairings = next(m for m in fake.public_messages() if "Round 1 pairings" in m.text())
        assert pairings.text().count("**T") == 4
        await fake.click(ana, pairings, pairings.find_button("My table"))
        answer = fake.last_reply(ana)
        assert answer.ephemeral and "Round 1, table" in answer.text()
        ana_table = next(
            t
            for t in view.tables
            if view.of_user(ana.id).entrant in t.seats  # type: ignore[union-attr]
        )
        thread = fake.channels[ana_table.thread_id]  # type: ignore[index]
        assert thread.name.startswith(f"R1 · T{ana_table.table_no} · ") and "Ana" in thread.name
        in_thread = fake.public_messages(thread)
        assert any("Show hand" in m.text() for m in in_thread)
        assert any(ana.mention in m.content and "your match is on" in m.content for m in in_thread)

        for round_no in (1, 2, 3):
            # Asked while the round is played, the standings say so (its results so far).
            await fake.slash(ana, "tournament standings")
            assert f"standings during round {round_no}" in fake.last_reply(ana).text()
            assert await decide_human_tables(fake, bot, mod) >= 2
            if round_no < 3:
                await until_standings(fake, bot, clock, round_no)
                await fake.slash(ana, "tournament standings")
                assert f"standings after round {round_no}" in fake.last_reply(ana).text()
                # Live: two minutes' grace to read the standings, then the next round.
                assert (await the_event(bot)).round == round_no
                await move_on(fake, bot, clock, 121)
                assert (await the_event(bot)).round == round_no + 1
            else:
                await until_round(fake, bot, clock, 4)
        event = await the_event(bot)
        assert event.status == "finished"
        view = await bot.tournaments.view(event.tournament_id)
        # Three rounds of 3/1/0: every result came from a match or the organiser.
        assert sum(r.kind == "table" for r in view.results) == 12
        assert {r.source for r in view.results} == {"match", "organiser"}
        final = fake.public_messages()[-1]
        winner = view.entrant(view.standings[0].player)
        assert "tournament is over" in final.text() and "wins" in final.text()
        assert winner.name in final.text() and "final standings" in final.text()
        assert "🏆 Winner" in signup.text()
        assert fake.channels[ana_table.thread_id].archived  # type: ignore[index]

        # The organiser's overrides are in the log, and the export has every seat.
        await fake.slash(mod, "tournament log")
        assert "set the result of round" in fake.last_reply(mod).text()
        await fake.slash(ana, "tournament export")
        assert "Only the organiser" in fake.last_reply(ana).text()
        await fake.slash(mod, "tournament export")
        files = {a.filename: a.data.decode() for a in fake.last_reply(mod).attachments}
        assert set(files) == {"standings.csv", "results.csv", "audit.csv"}
        standings = list(csv.DictReader(io.StringIO(files["standings.csv"])))
        assert standings[0]["player"] == winner.name and len(standings) == 8
        assert len(list(csv.DictReader(io.StringIO(files["results.csv"])))) == 24
        assert "set result" in files["audit.csv"] and "Mod" in files["audit.csv"]
    fake.assert_clean()


def table_sizes(view, round_no: int) -> list[int]:  # type: ignore[no-untyped-def]
    """Table sizes of a round, largest first (tables are numbered by their best player)."""
    return sorted((len(t.seats) for t in view.tables if t.round == round_no), reverse=True)


async def test_twelve_player_toss_pods_with_a_drop_a_late_entry_and_a_final_table(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben, cleo = (fake.add_user(n) for n in ("ana", "ben", "cleo"))
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        signup = await create_event(
            fake, mod, game="toss_your_cookies", format="pods", pace="live", rounds=5, top_cut=4
        )
        for user in (ana, ben):
            await fake.click(user, signup, signup.find_button("Join"))
        for _ in range(10):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert table_sizes(view, 1) == [4, 4, 4]
        await decide_human_tables(fake, bot, mod)
        await until_standings(fake, bot, clock, 1)

        # Ben drops after round 1: round 2 seats eleven, as 4/4/3.
        await fake.slash(ben, "tournament drop")
        assert "You dropped" in fake.last_reply(ben).text()
        await until_round(fake, bot, clock, 2)
        view = await bot.tournaments.view(event.tournament_id)
        assert table_sizes(view, 2) == [4, 4, 3]
        assert not any(view.of_user(ben.id).entrant in t.seats for t in view.tables if t.round == 2)  # type: ignore[union-attr]

        # During round 2 the organiser enters Cleo late: two lost rounds, then she plays.
        await fake.slash(mod, "tournament add", member=cleo)
        assert "Added" in fake.last_reply(mod).text()
        cleo_entry = (await bot.tournaments.view(event.tournament_id)).of_user(cleo.id)
        assert cleo_entry is not None
        await decide_human_tables(fake, bot, mod)
        await until_round(fake, bot, clock, 3)
        view = await bot.tournaments.view(event.tournament_id)
        assert table_sizes(view, 3) == [4, 4, 4]
        missed = [r for r in view.results if r.kind == "missed"]
        assert [(r.round, r.players) for r in missed] == [
            (1, [cleo_entry.entrant]),
            (2, [cleo_entry.entrant]),
        ]
        for round_no in (3, 4, 5):
            await decide_human_tables(fake, bot, mod)
            await until_round(fake, bot, clock, round_no + 1)
        # After five rounds, the top four meet at one final table, which decides the top.
        view = await bot.tournaments.view(event.tournament_id)
        final = [t for t in view.tables if t.bracket_id == "final"]
        assert len(final) == 1 and len(final[0].seats) == 4 and final[0].round == 6
        assert any("Final 6 pairings" in m.text() for m in fake.public_messages())
        await decide_human_tables(fake, bot, mod)
        await until_round(fake, bot, clock, 7)
        view = await bot.tournaments.view(event.tournament_id)
        assert view.event.status == "finished"
        result = next(r for r in view.results if r.round == 6)
        first = result.players[result.places.index(1)]
        assert view.standings[0].player == first
        assert {s.player for s in view.standings[:4]} == set(final[0].seats)
        assert "tournament is over" in fake.public_messages()[-1].text()
    fake.assert_clean()


async def bots_only_event(fake: FakeDiscord, bot, mod: FakeUser, players: int, **options) -> None:  # type: ignore[no-untyped-def]
    signup = await create_event(fake, mod, game="cover_your_assets", **options)
    for _ in range(players):
        await fake.click(mod, signup, signup.find_button("Add bot"))
    await fake.click(mod, signup, signup.find_button("Start"))
    await settle_all(fake, bot)


def losses(view) -> dict[int, int]:  # type: ignore[no-untyped-def]
    from bot.service.tournaments import to_table_result
    from bot.tournaments.elimination import table_winner

    lost: dict[int, int] = {}
    for result in view.results:
        winner = table_winner(to_table_result(result))
        for player in result.players:
            lost[player] = lost.get(player, 0) + (player != winner)
    return lost


async def test_a_single_elimination_of_five_bots_plays_itself_to_the_end(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        await bots_only_event(fake, bot, mod, 5, format="single_elimination", pace="casual")
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert event.status == "finished"
        # Five players in a bracket of eight: byes to seeds 1-3, so four tables decide it.
        # A match is played as soon as both its sides are known: 4-5 and 2-3 at once, then
        # 1 against the winner of 4-5, then the final.
        assert len(view.results) == 4 and event.round == 3
        assert [len([t for t in view.tables if t.round == r]) for r in (1, 2, 3)] == [2, 1, 1]
        lost = losses(view)
        champion = view.standings[0].player
        assert lost[champion] == 0 and sum(lost.values()) == 4
        assert all(count == 1 for player, count in lost.items() if player != champion)
        assert f"{view.name(champion)}** wins" in fake.public_messages()[-1].text()
    fake.assert_clean()


async def test_a_double_elimination_of_four_puts_everyone_but_the_winner_out_twice(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        await bots_only_event(fake, bot, mod, 4, format="double_elimination", pace="casual")
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert event.status == "finished"
        lost = losses(view)
        champion = view.standings[0].player
        assert lost[champion] <= 1
        assert all(count == 2 for player, count in lost.items() if player != champion)
        # Winners' round 1, then losers' round 1 and winners' final, ... and a grand final
        # (replayed when the unbeaten player lost it).
        assert len(view.results) in (6, 7)
    fake.assert_clean()


async def one_move(bot, match_id: str, user_id: int) -> bool:  # type: ignore[no-untyped-def]
    """The person makes one move at their table (their bot's pick, through the service)."""
    record = await bot.service.get(match_id)
    if record.status != "active":
        return False
    seen = await bot.service.seat_view(match_id, user_id)
    if seen.decision is None or seen.decision.window is not None:
        return False
    state = bot.service.load_state(record)
    action = seen.game.bot_action(state, seen.seat, decision=seen.decision)
    await bot.service.act(match_id, user_id, stamp=seen.decision.stamp, action=action)
    return True


async def test_a_correspondence_round_survives_a_restart_and_its_deadline_draws_tables(
    fake, db
) -> None:
    import sqlite3

    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    people = {ana.id: ana, ben.id: ben}
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", pace="correspondence"
        )
        assert "rounds last 30 days" in signup.text()
        for user in (ana, ben):
            await fake.click(user, signup, signup.find_button("Join"))
        for _ in range(4):  # six players: at least one table of bots alone
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        started = clock.now()
        view = await bot.tournaments.view(event.tournament_id)
        human_tables = [t for t in view.tables if any(not view.entrant(p).is_bot for p in t.seats)]
        # Ten days pass; the people make a move every second day, so nobody forfeits.
        for _ in range(5):
            await move_on(fake, bot, clock, 2 * 86_400)
            for table in human_tables:
                for p in table.seats:
                    user_id = view.entrant(p).user_id
                    if user_id is not None:
                        await one_move(bot, table.match_id, user_id)
            await settle_all(fake, bot)
        before = await bot.tournaments.view(event.tournament_id)
        assert before.event.round == 1
        now = clock.now()
    # The process stops mid-round. A bot-only table had finished; pretend its result was
    # lost in the crash: the start-up sweep must record it again.
    finished = [t for t in before.tables if t not in human_tables]
    assert finished and all(t.status == "done" for t in finished)
    with sqlite3.connect(db) as raw:
        for table in finished:
            raw.execute("DELETE FROM results WHERE match_id = ?", (table.match_id,))
            raw.execute(
                "UPDATE event_tables SET status = 'playing' WHERE match_id = ?", (table.match_id,)
            )
    async with fake.running(make_bot(db)) as bot:
        clock = ManualClock(start=now)
        bot.service.clock = bot.scheduler.clock = clock
        await settle_all(fake, bot)
        after = await bot.tournaments.view(event.tournament_id)
        assert after.event.round == 1 and after.results == before.results
        assert [t.match_id for t in after.tables] == [t.match_id for t in before.tables]
        # Half time came while it was down... the reminders stay in the threads.
        await move_on(fake, bot, clock, started + 15 * 86_400 + 1 - clock.now())
        for table in human_tables:
            assert any(
                "Round 1 ends" in m.text()
                for m in fake.public_messages(fake.channels[table.thread_id])
            )
            # Keep playing, so the deadline (not a forfeit) decides the table.
            for p in table.seats:
                user_id = after.entrant(p).user_id
                if user_id is not None:
                    await one_move(bot, table.match_id, user_id)
        for _ in range(7):
            await move_on(fake, bot, clock, 2 * 86_400)
            for table in human_tables:
                for p in table.seats:
                    user_id = after.entrant(p).user_id
                    if user_id is not None and people.get(user_id):
                        await one_move(bot, table.match_id, user_id)
            await settle_all(fake, bot)
        assert (await the_event(bot)).round == 1
        await move_on(fake, bot, clock, started + 30 * 86_400 + 1 - clock.now())
        view = await bot.tournaments.view(event.tournament_id)
        assert view.event.round == 2  # the deadline closed round 1; round 2 is on
        drawn = [r for r in view.results if r.round == 1 and r.source == "adjudicated"]
        assert len(drawn) == len(human_tables) and all(r.places == [1, 1] for r in drawn)
        for table in human_tables:
            assert (await bot.service.get(table.match_id)).status == "cancelled"
    fake.assert_clean()


async def test_a_no_show_forfeits_their_table_at_once_and_stay_in_keeps_them_in(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        # Four rounds: the event is still on when she comes back after round 3 is paired.
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", pace="live", rounds=4
        )
        await fake.click(ana, signup, signup.find_button("Join"))
        for _ in range(3):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)

        async def sit_out(round_no: int) -> tuple[int, object]:
            """Ana never moves: after three live timeouts in a row her 2-player table ends
            at once, with her last."""
            view = await bot.tournaments.view(event.tournament_id)
            mine = view.of_user(ana.id)
            table = next(t for t in view.tables if t.round == round_no and mine.entrant in t.seats)  # type: ignore[union-attr]
            key = (round_no, table.table_no)
            for _ in range(60):
                view = await bot.tournaments.view(event.tournament_id)
                result = next((r for r in view.results if (r.round, r.table_no) == key), None)
                if result is not None:
                    break
                await move_on(fake, bot, clock, 61)
            assert result is not None
            assert result.source == "match" and result.gone == [mine.entrant]  # type: ignore[union-attr]
            assert result.places[result.players.index(mine.entrant)] == 2  # type: ignore[union-attr]
            record = await bot.service.get(table.match_id)  # type: ignore[arg-type]
            # Ended at once by the event, finished with her forfeit last, unless the move
            # her timeout played or the opponent's very next one ended the game first (she
            # may even have had the most money then): either way the event's result above
            # puts her last.
            assert record.status == "finished"
            return table.thread_id, mine  # type: ignore[return-value]

        thread_id, _ = await sit_out(1)
        notice = next(
            m for m in fake.public_messages(fake.channels[thread_id]) if "Stay in" in m.text()
        )
        assert ana.mention in notice.content and "forfeited" in notice.content
        await fake.click(ana, notice, notice.find_button("Stay in"))
        assert "You stay in" in fake.last_reply(ana).text()
        await until_round(fake, bot, clock, 2)
        view = await bot.tournaments.view(event.tournament_id)
        assert view.event.round == 2
        assert any(view.of_user(ana.id).entrant in t.seats for t in view.tables if t.round == 2)  # type: ignore[union-attr]
        # Round 2: she sits out again and does not press Stay in: dropped before round 3.
        await sit_out(2)
        await until_round(fake, bot, clock, 3)
        view = await bot.tournaments.view(event.tournament_id)
        mine = view.of_user(ana.id)
        assert mine.state == "dropped" and mine.dropped_round == 2  # type: ignore[union-attr]
        assert not any(mine.entrant in t.seats for t in view.tables if t.round == 3)  # type: ignore[union-attr]
        assert next(s for s in view.standings if s.player == mine.entrant).dropped  # type: ignore[union-attr]
        # Back too late, she presses Stay in after all: told the way back, not just "no".
        late = next(
            m
            for t in view.tables
            if t.round == 2 and t.thread_id
            for m in fake.public_messages(fake.channels[t.thread_id])
            if "Stay in" in m.text() and ana.mention in m.content
        )
        await fake.click(ana, late, late.find_button("Stay in"))
        assert fake.last_reply(ana).text() == (
            "Too late: round 3 was paired without you after your forfeit. The organiser can "
            "put you back in with /tournament player (Undrop)."
        )
    fake.assert_clean()


async def test_organiser_tools_each_leave_an_audit_row_and_bad_input_changes_nothing(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo", "dev")]
    ana, ben = people[0], people[1]
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        signup = await create_event(fake, mod, game="cover_your_assets", format="swiss")
        for user in people:
            await fake.click(user, signup, signup.find_button("Join"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        first = await bot.tournaments.view(event.tournament_id)
        tables = [t for t in first.tables if t.round == 1]

        # Bad input: a sentence, and nothing changes.
        await fake.slash(mod, "tournament result", order="Ana > Nobody")
        assert "Nobody called 'Nobody'" in fake.last_reply(mod).text()
        await fake.slash(ana, "tournament pause")
        assert "Only the organiser" in fake.last_reply(ana).text()
        await fake.slash(mod, "tournament extend", table=9, hours=5)
        assert "Table 9 of round 1 is not being played" in fake.last_reply(mod).text()
        assert (await bot.tournaments.view(event.tournament_id)).results == first.results

        # Re-pair before any move: the old matches are cancelled, new ones open.
        await fake.slash(mod, "tournament repair")
        assert "paired again" in fake.last_reply(mod).text()
        await settle_all(fake, bot)
        view = await bot.tournaments.view(event.tournament_id)
        again = [t for t in view.tables if t.round == 1]
        assert len(again) == 2 and not {t.match_id for t in again} & {t.match_id for t in tables}
        for table in tables:
            assert (await bot.service.get(table.match_id)).status == "cancelled"  # type: ignore[arg-type]
        # Once a table has moved, re-pairing is refused.
        moved = False
        for user in people:
            moved = moved or await one_move(bot, again[0].match_id, user.id)  # type: ignore[arg-type]
        assert moved
        await fake.slash(mod, "tournament repair")
        assert "already moved" in fake.last_reply(mod).text()

        # Pause: a day passes and neither the round's deadline nor a move clock fires.
        await fake.slash(mod, "tournament pause")
        await move_on(fake, bot, clock, 2 * 86_400)
        view = await bot.tournaments.view(event.tournament_id)
        assert view.event.status == "paused" and not [r for r in view.results if r.round == 1]
        await fake.slash(mod, "tournament resume")
        rounds = await bot.tournaments.store.rounds(event.tournament_id)
        assert rounds[0].deadline == rounds[0].started_at + 3 * 86_400  # 1 day + 2 held
        # Table 2 gets five more hours; at the deadline table 1 is drawn, table 2 plays on.
        second = next(t for t in again if t.table_no == 2)
        await fake.slash(mod, "tournament extend", table=2, hours=5)
        view = await bot.tournaments.view(event.tournament_id)
        order = " > ".join(view.name(p) for p in again[0].seats)
        await fake.slash(mod, "tournament result", order=order)
        view = await bot.tournaments.view(event.tournament_id)
        assert view.event.round == 1  # table 2 still plays
        # Drop, undrop, disqualify; a late player and a bot entrant.
        # Dropped and back, and disqualified: the two players of the table decided above
        # (a drop or a disqualification ends a table still being played, and table 2 is
        # to be drawn at the deadline).
        back, out = (view.name(p) for p in again[0].seats)
        await fake.slash(mod, "tournament player", name=back, action="dropped")
        await fake.slash(mod, "tournament player", name=back, action="entered")
        await fake.slash(mod, "tournament player", name=out, action="disqualified")
        eve = fake.add_user("eve")
        await fake.slash(mod, "tournament add", member=eve)
        await fake.slash(mod, "tournament add")
        await move_on(fake, bot, clock, rounds[0].deadline - clock.now() + 5 * 3600 + 1)
        view = await bot.tournaments.view(event.tournament_id)
        decided = {r.table_no: r for r in view.results if r.round == 1}
        assert decided[2].source == "adjudicated" and second.table_no == 2
        assert view.event.round == 2
        names = {view.name(p) for t in view.tables if t.round == 2 for p in t.seats}
        names |= {view.name(r.players[0]) for r in view.results if r.kind == "bye"}
        assert "Eve" in names and out not in names and back in names
        assert any(n.startswith("🤖") for n in names)

        await fake.slash(mod, "tournament end")
        assert (await the_event(bot)).status == "finished"
        audit = [row.action for row in await bot.tournaments.store.audit(event.tournament_id)]
        assert audit == [
            "create",
            "start",
            "re-pair",
            "pause",
            "resume",
            "extend",
            "set result",
            "drop",
            "undrop",
            "disqualify",
            "add player",
            "add bot",
            "end",
        ]
        await fake.slash(ben, "tournament log")
        assert "disqualified" in fake.last_reply(ben).text()
    fake.assert_clean()


async def test_a_cancelled_table_waits_for_the_organisers_result(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    people = [fake.add_user(n) for n in ("ana", "ben", "cleo", "dev")]
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(fake, mod, game="cover_your_assets", format="swiss")
        for user in people:
            await fake.click(user, signup, signup.find_button("Join"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        first, second = (t for t in view.tables if t.round == 1)
        thread = fake.channels[first.thread_id]  # type: ignore[index]
        await fake.slash(mod, "cancel", channel=thread)
        await settle_all(fake, bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert next(t for t in view.tables if t.table_no == first.table_no).status == "cancelled"
        assert any("organiser sets its result" in m.content for m in fake.public_messages(thread))
        # The other table's result is in, but the round waits for the cancelled one.
        await fake.slash(
            mod, "tournament result", order=" > ".join(view.name(p) for p in second.seats)
        )
        await settle_all(fake, bot)
        assert (await the_event(bot)).round == 1
        await fake.slash(
            mod, "tournament result", order=" = ".join(view.name(p) for p in first.seats)
        )
        await settle_all(fake, bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert view.event.round == 2
        tied = next(r for r in view.results if (r.round, r.table_no) == (1, first.table_no))
        assert tied.places == [1, 1] and tied.source == "organiser"
    fake.assert_clean()


async def test_a_swiss_with_a_top_cut_ends_in_a_bracket_of_the_best_two(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        await bots_only_event(fake, bot, mod, 5, format="swiss", pace="casual", top_cut=2)
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert event.status == "finished" and view.rounds == 3 and event.round == 4
        swiss = [r for r in view.results if r.round <= 3]
        from bot.service.tournaments import to_table_result
        from bot.tournaments.standings import swiss_standings

        players = [e.entrant for e in view.entrants]
        after_swiss = swiss_standings(players, [to_table_result(r) for r in swiss], event.seed, 3)
        top_two = [s.player for s in after_swiss[:2]]
        final = next(t for t in view.tables if t.round == 4)
        assert final.bracket_id is not None and sorted(final.seats) == sorted(top_two)
        result = next(r for r in view.results if r.round == 4)
        from bot.tournaments.elimination import table_winner

        champion = table_winner(to_table_result(result))
        assert [s.player for s in view.standings[:2]] == [
            champion,
            next(p for p in top_two if p != champion),
        ]
        # The bracket decides the order, not points: the final scores none.
        points = {s.player: s.points for s in view.standings}
        assert points == {s.player: s.points for s in after_swiss}
    fake.assert_clean()
