"""The start time an organiser types: spans, a time of day, a date; bad ones refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.errors import UserError
from bot.when import parse_moment

NOW = datetime(2026, 11, 26, 11, 0, tzinfo=UTC).timestamp()


def at(*parts: int) -> float:
    return datetime(*parts, tzinfo=UTC).timestamp()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("in 2h", NOW + 7200),
        ("In 1h 30m", NOW + 5400),
        ("90 minutes", NOW + 5400),
        ("in 2 days", NOW + 2 * 86_400),
        ("18:00", at(2026, 11, 26, 18, 0)),  # later today
        ("9:30", at(2026, 11, 27, 9, 30)),  # passed today: tomorrow
        ("2026-12-24 18:00", at(2026, 12, 24, 18, 0)),
        ("2026-12-24", at(2026, 12, 24)),
        ("2026-12-24T18:00+02:00", at(2026, 12, 24, 16, 0)),
        ("2026-12-24t18:00z", at(2026, 12, 24, 18, 0)),
    ],
)
def test_a_start_time_is_read_as_utc_from_now(typed: str, expected: float) -> None:
    assert parse_moment(typed, NOW) == expected


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("soonish", "Write the start as `in 2h`"),
        ("in 2 weeks", "Write the start as `in 2h`"),
        ("25:00", "not a time of day"),
        ("2020-01-01", "has passed"),
        ("in 0m", "has passed"),
        ("2028-01-01", "more than a year away"),
    ],
)
def test_a_start_time_that_cannot_be_meant_gets_a_sentence(typed: str, said: str) -> None:
    with pytest.raises(UserError, match=said):
        parse_moment(typed, NOW)
