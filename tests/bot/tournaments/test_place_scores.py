"""An organiser's place scores per table size (bot/tournaments/scoring.py): the text form,
what is refused with which sentence, and what the tables are worth."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from bot.tournaments.results import TableResult
from bot.tournaments.scoring import organiser_scores, parse_place_scores, place_scores_text

SIZES = range(3, 9)


def test_the_text_form_reads_back_canonical_and_scores_the_tables() -> None:
    tables = parse_place_scores(" 4:6/4/2/0 ; 3:5/2.5/0,", SIZES)
    assert tables == {4: (6, 4, 2, 0), 3: (5, F(5, 2), 0)}
    assert place_scores_text(tables) == "3:5/2.5/0, 4:6/4/2/0"
    scoring = organiser_scores(tables, SIZES)
    three = TableResult.ranked(1, [7], [8, 9])
    assert [scoring.points(three, p) for p in (7, 8, 9)] == [5, F(5, 4), F(5, 4)]
    five = TableResult.ranked(1, [1], [2], [3], [4], [5])  # not set: 6·(n − k)/(n − 1)
    assert [scoring.points(five, p) for p in (1, 2, 3, 4, 5)] == [6, F(9, 2), 3, F(3, 2), 0]
    # A bye is a win at the best-paying table, and the full score of a round (OPP%).
    richer = organiser_scores({4: (10, 5, 2, 0)}, SIZES)
    assert richer.points(TableResult.bye(1, 3), 3) == 10 and richer.full == 10
    assert scoring.bye == 6


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("4:6/4/2", "A table of 4 needs 4 scores, one a place; 4:6/4/2 has 3."),
        ("4:6/2/4/0", "Scores go from first place down and never rise (4:6/2/4/0)."),
        ("3:2/2/2", "First place must score more than last (3:2/2/2)."),
        ("9:9/8/7/6/5/4/3/2/1", "Tables seat 3 to 8 here: there is no table of 9."),
        ("4:6/4/2/0, 4:3/2/1/0", "The table of 4 is given twice."),
        ("4:6/four/2/0", "Scores are numbers like 6 or 4.5, split by / (not 6/four/2/0)."),
        ("6/4/2/0", "Write each table size as size:first/second/…, like 4:6/4/2/0 (not 6/4/2/0)."),
        ("3:6/0/-1", "Scores cannot be negative (3:6/0/-1)."),
        (" , ", "Give at least one table size, like 4:6/4/2/0."),
    ],
)
def test_bad_place_scores_are_refused_with_a_sentence(text: str, sentence: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_place_scores(text, SIZES)
    assert str(refused.value) == sentence
