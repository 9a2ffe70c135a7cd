"""Late entry (bot/tournaments/entries.py)."""

from __future__ import annotations

from fractions import Fraction as F

from bot.tournaments import tiebreakers as tb
from bot.tournaments.entries import late_entry, late_entry_open
from bot.tournaments.results import TableResult
from bot.tournaments.scoring import MATCH_POINTS, total_points


def test_late_entry_is_open_until_half_the_rounds() -> None:
    assert [late_entry_open(r, 9) for r in (1, 5, 6)] == [True, True, False]
    assert [late_entry_open(r, 4) for r in (2, 3)] == [True, False]


def test_a_late_entrant_starts_with_a_loss_per_missed_round() -> None:
    results = [
        *late_entry(7, 3),
        TableResult.ranked(3, [7], [1]),
        TableResult.ranked(4, [7], [2]),
    ]
    assert [r.kind for r in results[:2]] == ["missed", "missed"]
    assert total_points([7], results, MATCH_POINTS) == {7: 6}
    # Two wins over four rounds: 6 of 12, not 6 of 6.
    records = tb.records_of(results)
    assert tb.point_percentages(records, MATCH_POINTS)[7] == F(1, 2)
    assert tb.opponents_met(7, records) == [1, 2]
