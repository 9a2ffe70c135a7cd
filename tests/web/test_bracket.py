"""The bracket as the event page writes it out: the parts, rounds and boxes of the
picture, without the picture's wrapping (the page scrolls sideways). The browser test
reads it from the page."""

from __future__ import annotations

from bot.tournaments.pictures.tree import MOST_COLUMNS
from bot.web.bracket import bracket_parts
from tests.bot import tournament_rigs as rigs


def test_a_large_single_elimination_is_one_part_of_every_round_unnumbered() -> None:
    (part,) = bracket_parts(rigs.single(64, 40), rigs.names(64))
    assert len(part.rounds) == 6 > MOST_COLUMNS  # the picture wraps these in two bands
    assert [r.title for r in part.rounds][-3:] == ["Quarter-finals", "Semi-finals", "Final"]
    assert [len(r.boxes) for r in part.rounds] == [32, 16, 8, 4, 2, 1]
    # The picture numbers a wrapped bracket's matches; the page keeps them, as "Winner of 9"
    # in a row must point at a number people can find.
    assert part.rounds[0].boxes[0].label == "1"
    played = [
        b for r in part.rounds for b in r.boxes if {x.state for x in b.rows} == {"won", "lost"}
    ]
    assert len(played) == 40


def test_a_small_single_elimination_names_no_numbers_and_marks_the_match_being_played() -> None:
    (part,) = bracket_parts(rigs.single(8, 5), rigs.names(8))
    assert {b.label for r in part.rounds for b in r.boxes} == {""}
    semis = part.rounds[1].boxes
    assert [b.current for b in semis] == [False, True]
    assert [(x.name, x.state) for x in semis[0].rows] == [("Ana", "won"), ("Dev", "lost")]


def test_a_double_elimination_is_its_three_parts_numbered() -> None:
    parts = bracket_parts(rigs.double(8, 6), rigs.names(8))
    assert [p.title for p in parts] == ["Winners' bracket", "Losers' bracket", "Grand final"]
    assert all(b.label for p in parts for r in p.rounds for b in r.boxes)
    waiting = [x.name for p in parts for r in p.rounds for b in r.boxes for x in b.rows]
    assert any(name.startswith("Loser of ") for name in waiting)


def test_a_multiplayer_elimination_is_a_grid_of_tables_per_round() -> None:
    parts = bracket_parts(rigs.pods(16), rigs.names(16))
    assert [p.title for p in parts] == [
        "Round 1 · 4 tables, the top 2 of each go on",
        "Round 2 · 2 tables, the top 2 of each go on",
    ]
    assert all(p.tables and len(p.rounds) == 1 for p in parts)
    assert [b.label for b in parts[0].rounds[0].boxes] == [f"Table {n}" for n in range(1, 5)]
    first = parts[0].rounds[0].boxes[0]
    assert [(x.lead, x.state) for x in first.rows][:3] == [
        ("1st", "won"),
        ("2nd", "won"),
        ("3rd", "lost"),
    ]
