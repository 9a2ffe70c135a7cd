"""Group events (slow group stages) through the real discord.py code on a moved clock: a
field dealt into groups whose tables all start at once, players absent for good handled
by the clocks and the timeout policy, the best of each group going on, and a winner."""

from __future__ import annotations

import csv
import io
from collections import Counter
from fractions import Fraction

import pytest

from bot.tournaments.scoring import POD_SCORES
from games.core.words import points_word
from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord
from tests.discord.test_tournaments import (
    PatientDiscord,
    create_event,
    move_on,
    settle_all,
    the_event,
    use_manual_clock,
)

HOUR = 3600.0


@pytest.fixture
def fake() -> FakeDiscord:
    return PatientDiscord()


def group_points(view, number: int) -> dict[str, dict[int, Fraction]]:  # type: ignore[no-untyped-def]
    """Each group's members and their place points in round ``number``, summed here from
    the stored results (6/4/2/0 at a table of four), apart from the format's own code."""
    groups: dict[str, dict[int, Fraction]] = {}
    by_table = {(t.round, t.table_no): t.bracket_id for t in view.tables}
    for table in view.tables:
        if table.round == number:
            for player in table.seats:
                groups.setdefault(table.bracket_id, {})[player] = Fraction(0)
    for result in view.results:
        if result.round != number:
            continue
        group = groups[by_table[(result.round, result.table_no)]]
        size = len(result.players)
        for player, place in zip(result.players, result.places, strict=True):
            tied = result.places.count(place)
            scores = [POD_SCORES.table(size)[place - 1 + k] for k in range(tied)]
            group[player] += sum(scores, Fraction(0)) / tied
    return groups


def whose(view, members, line: str) -> int:  # type: ignore[no-untyped-def]
    """The member a standings line ("**2.** Ana *(dropped)* — 3 pts") is about."""
    said = line.split(".** ", 1)[1].split(" — ")[0].removesuffix(" *(dropped)*")
    return next(q for q in members if view.name(q) == said)


def pts(value: Fraction) -> str:
    """Points as the standings write them: "1 pt", "4.5 pts"."""
    return f"{float(value):g} {points_word(float(value), short=True)}"


async def test_nine_players_of_cover_your_assets_in_slow_groups_with_two_absent_for_good(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        # No pace given: a group event is played at the async pace.
        signup = await create_event(fake, mod, game="cover_your_assets", format="groups")
        assert "Group stages" in signup.text()
        assert "groups of 6, every table of a group played at once (tables of 4)" in signup.text()
        assert "the best 2 of each group go on" in signup.text()
        for user in (ana, ben):
            await fake.click(user, signup, signup.find_button("Join"))
        for _ in range(7):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        assert view.config.pace == "async" and view.rounds == 2
        absent = {view.of_user(ana.id).entrant, view.of_user(ben.id).entrant}  # type: ignore[union-attr]

        # Round 1: nine players dealt 5 and 4 by the lot; the group of five plays five
        # tables of four at once (everyone at four of them), the group of four four
        # tables of three (everyone at three), all started together.
        first = [t for t in view.tables if t.round == 1]
        groups = {t.bracket_id: set() for t in first}
        for table in first:
            groups[table.bracket_id] |= set(table.seats)
        assert sorted(len(m) for m in groups.values()) == [4, 5]
        assert sorted(len(t.seats) for t in first) == [3] * 4 + [4] * 5
        assert all(t.match_id is not None and t.thread_id for t in first)  # all started
        for members in groups.values():
            at = len(members) - 1
            assert all(sum(q in t.seats for t in first) == at for q in members)
        # My table lists every table of the round a player sits at, each with its thread.
        pairings = next(m for m in fake.public_messages() if "Round 1 pairings" in m.text())
        # The pairings carry the groups' picture, drawn again as results come in.
        assert [a.filename for a in pairings.attachments] == ["bracket.png"]
        assert "Group 1" in pairings.text() and "Group 2" in pairings.text()
        await fake.click(ana, pairings, pairings.find_button("My table"))
        tables_of_ana = [t for t in first if view.of_user(ana.id).entrant in t.seats]  # type: ignore[union-attr]
        answer = fake.last_reply(ana).text()
        assert answer.count("🪑 Round 1, table") == len(tables_of_ana)
        assert all(f"<#{t.thread_id}>" in answer for t in tables_of_ana)

        # Standings asked during round 1: each group as its picture has it, still playing
        # (places and points so far), played out (its best two going on: a group of bots
        # alone plays at once), or with no places before one of its tables has a result.
        await settle_all(fake, bot)  # the bots' moves in hand are made: no result comes in
        await fake.slash(ana, "tournament standings")
        view = await bot.tournaments.view(event.tournament_id)
        everyone = {view.name(q) for q in view.progress.players}
        shown = [
            x
            for x in fake.last_reply(ana).text().splitlines()
            if x.startswith("**") or x in everyone  # a group not started: names alone
        ]
        so_far = group_points(view, 1)
        at = {(t.round, t.table_no): t.bracket_id for t in view.tables}
        decided = Counter(at[(r.round, r.table_no)] for r in view.results)
        tables = Counter(t.bracket_id for t in view.tables)
        expected = []
        for number in (1, 2):
            group = f"group-{number}"
            members = so_far[group]
            if not decided[group]:
                expected += [f"**Group {number} · not started**"]
                expected += sorted(view.name(q) for q in members)
                continue
            done = decided[group] == tables[group]
            expected.append(f"**Group {number}**" if done else f"**Group {number}** · playing")
            block = shown[len(expected) : len(expected) + len(members)]
            order = [whose(view, members, x) for x in block]
            assert [members[q] for q in order] == sorted(members.values(), reverse=True)
            expected += [
                f"**{place}.** {view.name(q)} — {pts(members[q])}"
                + (" · goes on ➡️" if done and place <= 2 else "")
                for place, q in enumerate(order, start=1)
            ]
        assert shown == expected

        # Ana and Ben never click: their move clocks (a day a move) run out twice and
        # their seats are forfeited, the others play on; the round ends with its tables.
        for _ in range(40 * 4):
            if (await the_event(bot)).round > 1 or event.status != "running":
                break
            await move_on(fake, bot, clock, 6 * HOUR)
        view = await bot.tournaments.view(event.tournament_id)
        assert view.event.round == 2
        second = [t for t in view.tables if t.round == 2]
        assert [t.bracket_id for t in second] == ["final"] * 4
        going = {q for t in second for q in t.seats}
        assert not going & absent
        for members in group_points(view, 1).values():
            # The two best of each group go on (points summed here; equal points are the
            # tiebreakers'), never the absent: they forfeited.
            top = going & set(members)
            assert len(top) == 2
            assert min(members[q] for q in top) >= max(members[o] for o in members if o not in top)
        top_points = {
            q: p for members in group_points(view, 1).values() for q, p in members.items()
        }
        assert all(top_points[q] > top_points[a] for q in going for a in absent)
        for player in absent:
            entrant = view.entrant(player)
            assert entrant.forfeited and entrant.state == "dropped"
        gone = {p for r in view.results if r.round == 1 for p in r.gone}
        assert gone == absent

        # The last round is one group of four (four tables of three): its winner, the
        # best of it on place points, wins the event.
        for _ in range(40 * 4):
            if (await the_event(bot)).status != "running":
                break
            await move_on(fake, bot, clock, 6 * HOUR)
        view = await bot.tournaments.view(event.tournament_id)
        assert view.event.status == "finished"
        [last] = group_points(view, 2).values()
        winner = view.standings[0].player
        assert last[winner] == max(last.values())
        order = [s.player for s in view.standings[:4]]
        assert set(order) == going
        assert [last[q] for q in order] == sorted(last.values(), reverse=True)
        assert {s.player for s in view.standings[-2:]} == absent
        # After round 1 the standings are each group's, as its picture has them: place,
        # that round's points, who goes on; never a total across rounds.
        after = next(m for m in fake.public_messages() if "standings after round 1" in m.text())
        first_points = group_points(view, 1)
        expected = []
        for number in (1, 2):
            members = first_points[f"group-{number}"]
            expected.append(f"**Group {number}**")
            shown = [line for line in after.text().splitlines() if line.startswith("**")]
            block = shown[shown.index(f"**Group {number}**") + 1 :][: len(members)]
            order = [whose(view, members, x) for x in block]
            assert [members[q] for q in order] == sorted(members.values(), reverse=True)
            for place, q in enumerate(order, start=1):
                mark = " · goes on ➡️" if q in going else ""
                expected.append(f"**{place}.** {view.name(q)} — {pts(members[q])}{mark}")
        # (The absent are dropped as the next round starts, so this post may not say so yet.)
        posted = [x.replace(" *(dropped)*", "") for x in after.text().splitlines()]
        assert [x for x in posted if x.startswith("**")] == expected
        # The final standings: the last group in its order, then the rest by the round
        # they reached and their place in its group, each with that round's points, so no
        # line's points read as contradicting its place.
        final = next(m for m in fake.public_messages() if "final standings" in m.text())
        rows = [x for x in final.text().splitlines() if x.startswith("**")]
        assert len(rows) == 9
        places = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
        for rank, line in enumerate(view.standings, start=1):
            q, row = line.player, rows[rank - 1]
            who = view.name(q) + (" *(dropped)*" if q in absent else "")
            if rank <= 4:  # the last group: its place is the event's
                where = f"Round 2, last group: {places[rank]}"
                assert row == f"**{rank}.** {who} — {where} · {pts(last[q])}"
                continue
            group = next(g for g, members in first_points.items() if q in members)
            where = f"Round 1, group {group.removeprefix('group-')}: "
            assert row.startswith(f"**{rank}.** {who} — {where}")
            assert row.endswith(f" · {pts(first_points[group][q])}")
        # Those out in round 1 who played it out go by their place in their group (the
        # 3rds, then the 4ths...), whatever their points.
        out_places = [int(r.split(": ")[1][0]) for r in rows[4:7]]
        assert out_places == sorted(out_places) and out_places[0] == 3
        # My standing says the same: the round and group reached, that round's points.
        await fake.click(ana, final, final.find_button("My standing"))
        mine = view.of_user(ana.id).entrant  # type: ignore[union-attr]
        rank = next(s.rank for s in view.standings if s.player == mine)
        group = next(g for g, members in first_points.items() if mine in members)
        said = rows[rank - 1].split(" — ")[1].split(" · ")[0]
        assert said.startswith(f"Round 1, group {group.removeprefix('group-')}: ")
        hers = first_points[group][mine]
        unit = "point" if hers == 1 else "points"
        assert fake.last_reply(ana).text() == (
            f"📊 You are **#{rank}** of 9: {said}, with **{float(hers):g}** {unit} in that round."
        )
        # The organiser's sheet says what the post says: the round and group reached and
        # the place in it, beside that round's points.
        await fake.slash(mod, "tournament export")
        files = {a.filename: a.data.decode() for a in fake.last_reply(mod).attachments}
        sheet = list(csv.DictReader(io.StringIO(files["standings.csv"])))
        assert len(sheet) == 9
        for rank, line in enumerate(sheet, start=1):
            where = rows[rank - 1].split(" — ")[1].split(" · ")[0]  # Round 1, group 2: 3rd
            round_no, group = where.split(": ")[0].removeprefix("Round ").split(", ")
            assert line["rank"] == str(rank)
            assert line["round_reached"] == round_no
            assert line["group"] == ("1" if group == "last group" else group.split()[1])
            assert line["group_place"] == where.split(": ")[1][:-2]
            assert line["dropped"] == ("yes" if rank > 7 else "")
        over = fake.public_messages()[-1].text()
        assert "tournament is over" in over and f"{view.name(winner)}** wins" in over
    fake.assert_clean()


async def test_create_refuses_groups_it_cannot_run_in_one_sentence_and_makes_nothing(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        refusals = [
            (
                {"game": "cover_your_assets", "pace": "casual"},
                "Group events are played slowly, several tables at once: pick the async or "
                "correspondence pace.",
            ),
            (
                {"game": "toss_your_cookies", "group_size": 2},
                "Toss Your Cookies needs 3 or more at a table, so a group needs 3 or more players.",
            ),
            (
                {"game": "cover_your_assets", "group_size": 20},
                "A group holds 12 players at most: every table of a group is played at once.",
            ),
            (
                {"game": "braverse", "group_size": 7},
                "A group of a two-player game holds 6 players at most: its 15 games all start "
                "at once, each in a thread of its own.",
            ),
            (
                {"game": "cover_your_assets", "group_size": 3},
                "Groups of 3 cannot fill tables of 4: make the groups 4 or larger, or the "
                "tables smaller.",
            ),
            (
                {"game": "cover_your_assets", "group_size": 5, "advance": 5},
                "Fewer than a whole group must go on: with groups of 5, advance 1 to 4.",
            ),
        ]
        for options, sentence in refusals:
            await fake.slash(mod, "tournament create", format="groups", **options)
            reply = fake.last_reply(mod)
            assert reply.ephemeral and reply.text() == sentence
        assert fake.public_messages() == []
        assert await bot.tournaments.store.tournaments(None, open_only=False) == []
    fake.assert_clean()


async def test_a_player_the_organiser_drops_leaves_every_table_they_sit_at(fake, db) -> None:
    from bot.store.models import GONE

    mod = fake.add_user("mod", manage_guild=True)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        use_manual_clock(bot)
        signup = await create_event(fake, mod, game="cover_your_assets", format="groups")
        await fake.click(ana, signup, signup.find_button("Join"))
        for _ in range(5):
            await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)
        event = await the_event(bot)
        view = await bot.tournaments.view(event.tournament_id)
        mine = view.of_user(ana.id).entrant  # type: ignore[union-attr]
        # Six players: one group, six tables of four, Ana at four of them at once.
        assert [t.bracket_id for t in view.tables] == ["final"] * 6
        hers = [t for t in view.tables if mine in t.seats]
        assert len(hers) == 4
        await fake.slash(mod, "tournament player", name="Ana", action="dropped")
        await settle_all(fake, bot)
        for table in hers:
            record = await bot.service.get(table.match_id)  # type: ignore[arg-type]
            seat = next(s for s in record.seats if s.user_id == ana.id)
            assert seat.away == GONE, table.table_no
    fake.assert_clean()
