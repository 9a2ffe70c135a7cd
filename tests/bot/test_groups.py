"""Group stages: how a field is dealt into groups, each group's tables, and what the
format refuses."""

from __future__ import annotations

import io
from collections import Counter

import pytest

from bot.errors import UserError
from bot.store.tournament_records import EntrantRecord, ResultRecord, TournamentTable
from bot.tournaments.config import TournamentConfig
from bot.tournaments.formats import format_of
from bot.tournaments.groups import (
    MOST_IN_GROUP,
    MOST_IN_TWO_PLAYER_GROUP,
    GroupRounds,
    deal,
    group_sizes,
    group_tables,
    most_in_group,
    pair_counts,
)
from bot.tournaments.pictures import bracket_picture
from bot.tournaments.pictures.groups import group_bands
from bot.tournaments.progress import Progress
from games import GAMES
from tests.bot.test_tournament_pictures import snapshot


@pytest.mark.parametrize(
    ("players", "size", "least", "sizes"),
    [
        (9, 6, 2, [5, 4]),
        (12, 6, 2, [6, 6]),
        (13, 6, 2, [7, 6]),  # nearer 6 than three groups of 4 or 5 would be
        (15, 6, 2, [5, 5, 5]),
        (8, 6, 2, [8]),
        (7, 4, 3, [4, 3]),
        (5, 3, 3, [5]),  # two groups would leave one of two, below a table of three
        (30, 20, 2, [10, 10, 10]),  # two groups of 15 would be too big to play at once
        (2, 4, 2, [2]),
    ],
)
def test_groups_are_as_even_as_possible_near_the_size_and_never_below_a_table(
    players: int, size: int, least: int, sizes: list[int]
) -> None:
    assert group_sizes(players, size, least) == sizes


def test_the_seeds_are_snaked_so_each_group_gets_a_fair_spread() -> None:
    assert deal(list(range(1, 10)), 6, 2) == [[1, 4, 5, 8, 9], [2, 3, 6, 7]]
    assert deal(list(range(1, 13)), 4, 2) == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]


def test_a_two_player_group_plays_a_round_robin_seat_zero_shared() -> None:
    members = [10, 11, 12, 13, 14]
    tables = group_tables(members, 2)
    assert sorted(tuple(sorted(t)) for t in tables) == [
        (a, b) for i, a in enumerate(members) for b in members[i + 1 :]
    ]
    first = Counter(t[0] for t in tables)
    assert max(first.values()) - min(first.values()) <= 1


@pytest.mark.parametrize("seats", range(3, 9))
def test_every_group_size_meets_each_pair_equally_often_within_one(seats: int) -> None:
    """For every group the format may play, each member sits at the same number of tables
    (as many as a table has seats), sits first at exactly one, and the pair-meeting counts
    differ by at most 1 (0 where the design allows it: a group of a table and one more
    meets every pair a table less than the seats)."""
    for size in range(seats + 1, MOST_IN_GROUP + 1):
        members = list(range(100, 100 + size))
        tables = group_tables(members, seats)
        assert len(tables) == size and all(len(set(t)) == seats for t in tables)
        sat = Counter(q for t in tables for q in t)
        assert set(sat.values()) == {seats}
        assert sorted(t[0] for t in tables) == members
        met = pair_counts(tables, members).values()
        assert max(met) - min(met) <= 1, (size, seats)
        if size == seats + 1:
            assert set(met) == {seats - 1}


def test_a_group_no_larger_than_a_table_sits_at_one_table() -> None:
    assert group_tables([1, 2, 3, 4], 4) == [(1, 2, 3, 4)]
    assert group_tables([1, 2, 3], 4) == [(1, 2, 3)]


def test_a_group_of_one_table_plays_tables_of_one_fewer_where_the_game_seats_them() -> None:
    """A group of four of a four-seat game plays four tables of three (each member at
    three, every pair twice) rather than one game; three of a game for three or more sit
    at one table, as do two."""
    four = format_of(TournamentConfig(format="groups", pace="async"), GAMES["cover_your_assets"])
    assert [four.seats_in(n) for n in (2, 3, 4, 5, 9)] == [2, 3, 3, 4, 4]
    toss = format_of(TournamentConfig(format="groups", pace="async"), GAMES["toss_your_cookies"])
    assert [toss.seats_in(n) for n in (3, 4)] == [3, 3]
    two = format_of(TournamentConfig(format="groups", pace="async"), GAMES["braverse"])
    assert [two.seats_in(n) for n in (2, 3, 4)] == [2, 2, 2]


def groups_of(game: str, **options: object):  # type: ignore[no-untyped-def]
    config = TournamentConfig(format="groups", pace="async", **options)  # type: ignore[arg-type]
    kind = format_of(config, GAMES[game])
    kind.check_game()
    return kind.checked()


@pytest.mark.parametrize(
    ("game", "options", "sentence"),
    [
        (
            "cover_your_assets",
            {"pace": "casual"},
            "Group events are played slowly, several tables at once: pick the async or "
            "correspondence pace.",
        ),
        (
            "cover_your_assets",
            {"pace": "live"},
            "Group events are played slowly, several tables at once: pick the async or "
            "correspondence pace.",
        ),
        (
            "toss_your_cookies",
            {"group_size": 2},
            "Toss Your Cookies needs 3 or more at a table, so a group needs 3 or more players.",
        ),
        (
            "cover_your_assets",
            {"group_size": 13},
            "A group holds 12 players at most: every table of a group is played at once.",
        ),
        (
            "braverse",
            {"group_size": 7},
            "A group of a two-player game holds 6 players at most: its 15 games all start at "
            "once, each in a thread of its own.",
        ),
        (
            "cover_your_assets",
            {"group_size": 3, "pod_size": 4},
            "Groups of 3 cannot fill tables of 4: make the groups 4 or larger, or the tables "
            "smaller.",
        ),
        (
            "cover_your_assets",
            {"group_size": 5, "advance": 5},
            "Fewer than a whole group must go on: with groups of 5, advance 1 to 4.",
        ),
        (
            "cover_your_assets",
            {"rounds": 3},
            "A group event plays until one group is left: leave rounds out.",
        ),
        (
            "cover_your_assets",
            {"format": "pods", "group_size": 5},
            "A group size is for group events: leave group_size out.",
        ),
    ],
)
def test_what_an_organiser_can_get_wrong_is_one_sentence(
    game: str, options: dict[str, object], sentence: str
) -> None:
    kind = options.pop("format", "groups")
    pace = options.pop("pace", "async")
    config = TournamentConfig(format=kind, pace=pace, **options)  # type: ignore[arg-type]
    chosen = format_of(config, GAMES[game])
    with pytest.raises(UserError) as refused:
        chosen.check_game()
        chosen.checked()
    assert str(refused.value) == sentence


def test_a_two_player_field_is_dealt_into_groups_of_six_at_most() -> None:
    """A round robin of 6 opens 15 tables (threads) at once; a field of 13 at a group size
    of 6 is dealt 5, 4 and 4 rather than 7 and 6 (21 and 15 tables)."""
    assert most_in_group(2) == MOST_IN_TWO_PLAYER_GROUP == 6
    assert most_in_group(4) == MOST_IN_GROUP == 12
    two = format_of(groups_of("braverse", group_size=6), GAMES["braverse"])
    assert two.sizes(13) == [5, 4, 4] and group_sizes(13, 6, 2) == [7, 6]
    assert two.sizes(12) == [6, 6]
    tables = two.pair(Progress(two.config, two.game, 1, 0, "running", THIRTEEN, [], []), 1)
    assert len(tables.tables) == 10 + 6 + 6


def test_defaults_suit_the_game() -> None:
    two = format_of(TournamentConfig(format="groups", pace="async"), GAMES["braverse"])
    assert (two.table_size, two.group_size, two.advance) == (2, 4, 2)
    four = format_of(TournamentConfig(format="groups", pace="async"), GAMES["cover_your_assets"])
    assert (four.table_size, four.group_size, four.advance) == (4, 6, 2)
    six = format_of(
        TournamentConfig(format="groups", pace="correspondence", pod_size=6),
        GAMES["toss_your_cookies"],
    )
    assert (six.table_size, six.group_size, six.advance) == (6, 8, 2)
    assert groups_of("cover_your_assets", group_size=5, advance=1).advance == 1


CONFIG = TournamentConfig(format="groups", pace="async", rounds=2)
THIRTEEN = [
    EntrantRecord(tournament_id="t", entrant=n, user_id=100 + n, name=f"P{n}", joined_at=n)
    for n in range(1, 14)
]
NINE = [
    EntrantRecord(tournament_id="t", entrant=n, user_id=100 + n, name=f"P{n}", joined_at=n)
    for n in range(1, 10)
]


class Rigged:
    """Nine players of a four-seat game, every table finished in entrant order (lower
    numbers place higher), round by round."""

    def __init__(self) -> None:
        self.kind = format_of(CONFIG, GAMES["cover_your_assets"])
        self.tables: list[TournamentTable] = []
        self.results: list[ResultRecord] = []

    def progress(self, number: int, status: str = "running") -> Progress:
        return Progress(CONFIG, self.kind.game, 7, number, status, NINE, self.results, self.tables)

    def play(self, number: int, *, decide: bool = True, only: int = 0) -> list[tuple[int, ...]]:
        """``only``: results for the first ``only`` tables of the round alone."""
        paired = self.kind.pair(self.progress(number - 1), number)
        for index, (seats, bracket) in enumerate(
            zip(paired.tables, paired.brackets, strict=True), start=1
        ):
            self.tables.append(
                TournamentTable(
                    tournament_id="t",
                    round=number,
                    table_no=index,
                    seats=list(seats),
                    bracket_id=bracket,
                )
            )
            order = sorted(seats)
            if decide and (not only or index <= only):
                self.results.append(
                    ResultRecord(
                        tournament_id="t",
                        round=number,
                        table_no=index,
                        players=list(seats),
                        places=[order.index(q) + 1 for q in seats],
                    )
                )
        return paired.tables


def test_the_best_of_each_group_go_on_and_the_last_group_decides_the_winner() -> None:
    """Groups of 5 (five tables of four) and 4 (four tables of three), the best two of
    each go on to one last group (four tables of three)."""
    rig = Rigged()
    first = rig.play(1)
    members = [set() for _ in range(2)]
    for table, record in zip(first, rig.tables, strict=True):
        members[int(record.bracket_id.removeprefix("group-")) - 1] |= set(table)  # type: ignore[union-attr]
    assert sorted(len(m) for m in members) == [4, 5]
    assert sorted(len(t) for t in first) == [3] * 4 + [4] * 5
    assert not rig.kind.is_over(rig.progress(1))
    going = {q for m in members for q in sorted(m)[:2]}
    final = rig.play(2)
    assert len(final) == 4 and {q for t in final for q in t} == going
    done = rig.progress(2, "finished")
    assert rig.kind.is_over(done)
    standings = rig.kind.standings(done)
    assert [s.player for s in standings[:4]] == sorted(going)
    assert standings[0].player == min(going) == 1


def test_the_group_picture_lists_each_group_by_standing_and_marks_who_goes_on() -> None:
    rig = Rigged()
    rig.play(1)
    rig.play(2, decide=False)
    names = {e.entrant: e.name for e in NINE}
    drawn = rig.kind.drawn_bracket(rig.progress(2))
    assert isinstance(drawn, GroupRounds)
    (first_title, first), (last_title, last) = group_bands(drawn, names)
    assert first_title == "Round 1 · 2 groups, the best 2 of each go on"
    assert last_title == "Round 2 · the last group"
    title, rows, playing = first[0]
    assert title == "Group 1" and not playing and len(rows) == 5
    assert [r.lead for r in rows] == ["1st", "2nd", "3rd", "4th", "5th"]
    assert [r.state for r in rows] == ["won", "won", "lost", "lost", "lost"]
    assert rows[0].tail.endswith("→") and "→" not in rows[2].tail
    assert [r.name for r in rows] == sorted(r.name for r in rows)  # rigged: P1 first
    title, rows, playing = last[0]
    # None of its tables has a result: it has no order yet, so no places and no points,
    # its members by name, and it says it has not started.
    assert title == "Last group · not started" and playing
    assert [(r.lead, r.tail, r.state) for r in rows] == [("", "", "playing")] * 4
    assert [r.name for r in rows] == sorted(r.name for r in rows)
    png = bracket_picture(drawn, names, "Cover Your Assets tournament", "Group stages")
    snapshot("groups-9", png)


def test_a_group_has_places_once_one_of_its_tables_has_a_result() -> None:
    rig = Rigged()
    rig.play(1)
    rig.play(2, only=1)
    names = {e.entrant: e.name for e in NINE}
    drawn = rig.kind.drawn_bracket(rig.progress(2))
    assert isinstance(drawn, GroupRounds)
    [(title, rows, playing)] = group_bands(drawn, names)[1][1]
    assert title == "Last group" and playing
    assert [r.lead for r in rows] == ["1st", "2nd", "3rd", "4th"]
    assert {r.state for r in rows} == {"playing"} and all(r.tail for r in rows)
    png = bracket_picture(drawn, names, "Cover Your Assets tournament", "Group stages")
    snapshot("groups-9-started", png)


def test_group_standings_rank_by_the_round_reached_with_that_rounds_points() -> None:
    """The final standings: the last group's order, then the rest by their place in
    their round-1 group; each line's points are the round's, and what explains the
    place is said beside it."""
    rig = Rigged()
    rig.play(1)
    rig.play(2)
    done = rig.progress(2, "finished")
    standings = rig.kind.standings(done)
    notes = rig.kind.standing_notes(done)
    said = [(s.rank, s.player, float(s.points), notes[s.player]) for s in standings]
    # Rigged: lower numbers place higher. Round 1: group 1 {1,3,7,8,9}, group 2 {2,4,5,6};
    # 1, 2, 3, 4 go on to the last group (four tables of three, each at three of them).
    # #4 on 0 is above #5 on 12: a place in the last group beats any in round 1.
    assert said == [
        (1, 1, 18.0, "Round 2, last group: 1st"),
        (2, 2, 12.0, "Round 2, last group: 2nd"),
        (3, 3, 6.0, "Round 2, last group: 3rd"),
        (4, 4, 0.0, "Round 2, last group: 4th"),
        (5, 7, 12.0, "Round 1, group 1: 3rd"),
        (6, 5, 6.0, "Round 1, group 2: 3rd"),
        (7, 8, 6.0, "Round 1, group 1: 4th"),
        (8, 6, 0.0, "Round 1, group 2: 4th"),
        (9, 9, 0.0, "Round 1, group 1: 5th"),
    ]
    assert all(s.tiebreakers == () for s in standings)


def test_the_standings_picture_of_a_group_event_says_the_round_and_group_reached() -> None:
    from bot.tournaments.pictures import standings_picture

    rig = Rigged()
    rig.play(1)
    rig.play(2)
    done = rig.progress(2, "finished")
    names = {e.entrant: e.name for e in NINE}
    standings, notes = rig.kind.standings(done), rig.kind.standing_notes(done)
    png = standings_picture(
        standings, names, "Cover Your Assets · final standings", "Group stages", None, notes=notes
    )
    snapshot("groups-9-standings", png)


def test_a_group_not_started_has_no_order_in_the_standings_either() -> None:
    """During round 2, before any table of the last group has a result: its four share
    the first rank (the lot is no order), said "not started"; round 1's out follow."""
    rig = Rigged()
    rig.play(1)
    rig.play(2, decide=False)
    during = rig.progress(2)
    standings, notes = rig.kind.standings(during), rig.kind.standing_notes(during)
    assert [(s.rank, notes[s.player]) for s in standings[:4]] == [
        (1, "Round 2, last group: not started")
    ] * 4
    assert {s.player for s in standings[:4]} == {1, 2, 3, 4}
    assert all(s.points == 0 for s in standings[:4])
    assert [s.rank for s in standings[4:]] == [5, 6, 7, 8, 9]
    assert [s.undecided for s in standings] == [True] * 4 + [False] * 5


def medal_pixels(png: bytes, colour: tuple[int, int, int]) -> int:
    """Pixels of a medal's colour in the standings picture's rank column."""
    from PIL import Image

    from bot.tournaments.pictures.standings import RANK_WIDTH
    from games.core.pictures import PAD

    picture = Image.open(io.BytesIO(png)).convert("RGB")
    column = picture.crop((PAD, 0, PAD + RANK_WIDTH, picture.height))
    return sum(
        n
        for n, c in column.getcolors(column.width * column.height) or []
        if max(abs(a - b) for a, b in zip(c, colour, strict=True)) <= 8
    )


def test_a_rank_shared_for_want_of_results_wins_no_medal_in_the_picture() -> None:
    """The last group before its first result shares rank 1: no gold disc for any of the
    four, which would say they won; once the event is over its winner's disc is gold."""
    from bot.tournaments.pictures import standings_picture
    from bot.tournaments.pictures.standings import MEDALS

    rig = Rigged()
    names = {e.entrant: e.name for e in NINE}

    def drawn(progress: Progress) -> bytes:
        standings, notes = rig.kind.standings(progress), rig.kind.standing_notes(progress)
        return standings_picture(standings, names, "Standings", "Group stages", None, notes=notes)

    rig.play(1)
    rig.play(2, decide=False)
    during = drawn(rig.progress(2))
    # A disc is about 590 pixels; the white digits' anti-aliased edges brush the silver.
    assert all(medal_pixels(during, medal) < 50 for medal in MEDALS.values())
    rig.play(2)
    done = drawn(rig.progress(2, "finished"))
    assert all(medal_pixels(done, medal) > 500 for medal in MEDALS.values())
