"""Seasons and divisions, the pure part: a season's length and end, season points by place,
the table of a division with its tiebreaks, and the divisions of the next season.

A season is a view over the rated matches (``rating_events``), not a second rating: each
rated match of the season gives its people season points by place, ``POINTS`` for the
first down to 0 for the last, evenly spaced whatever the table's size, so a match of any
size hands out POINTS / 2 a player on average (fair across 2–8-player matches). Players
tied for a place share the average of the places they cover. The store sums them in SQL
(``bot/store/seasons.py``) with the same integer rounding as ``match_points``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

POINTS = 100  # the first place's season points; the last place gets 0
MOST_DIVISIONS = 10
SIZES = (2, 1000)  # the fewest and most places in a division
LONGEST_DAYS = 366
UNITS = {"day": 1, "days": 1, "week": 7, "weeks": 7, "month": 0, "months": 0}
_LENGTH = re.compile(r"\s*(\d{1,3})?\s*([a-z]+)\s*")


def match_points(place: int, tied: int, players: int) -> int:
    """Season points of a place among ``players`` rated seats, ``tied`` sharing it: 100 ×
    (players − the average place covered) / (players − 1), rounded half up."""
    if players < 2:
        return 0
    twice_above = 2 * (players - place) - (tied - 1)  # twice (players − average place)
    return (POINTS * twice_above + (players - 1)) // (2 * (players - 1))


@dataclass(frozen=True)
class Length:
    """A season's length: whole calendar months, or a number of days."""

    months: int = 0
    days: int = 0

    def __str__(self) -> str:
        if self.months:
            return f"{self.months} month" + ("s" if self.months > 1 else "")
        if self.days % 7 == 0:
            weeks = self.days // 7
            return f"{weeks} week" + ("s" if weeks > 1 else "")
        return f"{self.days} day" + ("s" if self.days > 1 else "")

    def end(self, start: float) -> float:
        """When a season that begins at ``start`` ends: a month's at the start of the
        calendar month after (UTC; the first season may be a part of one), days' after as
        many days."""
        if not self.months:
            return start + self.days * 86_400.0
        begun = datetime.fromtimestamp(start, UTC)
        month = begun.month - 1 + self.months
        ends = datetime(begun.year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
        return ends.timestamp()


def parse_length(words: str | None) -> Length | None:
    """``month`` (the default), ``3 months``, ``4 weeks``, ``10 days``; None: not a length."""
    if words is None or not words.strip():
        return Length(months=1)
    found = _LENGTH.fullmatch(words.lower())
    if found is None or found[2] not in UNITS:
        return None
    count = int(found[1] or 1)
    if UNITS[found[2]] == 0:
        return Length(months=count) if 1 <= count <= 12 else None
    days = count * UNITS[found[2]]
    return Length(days=days) if 1 <= days <= LONGEST_DAYS else None


def parse_stored(words: str) -> Length:
    found = parse_length(words)
    if found is None:
        raise ValueError(f"not a season length: {words!r}")
    return found


@dataclass(frozen=True)
class Tally:
    """A player's season so far: points, rated matches, first places."""

    points: int = 0
    played: int = 0
    wins: int = 0


@dataclass(frozen=True)
class SeasonLine:
    """One line of a division's table; ``rank`` is shared by players equal on every key."""

    rank: int
    user_id: int
    points: int
    played: int
    wins: int
    rating: int  # their rating at the time the table was read: the last tiebreak

    @property
    def average(self) -> float:
        """Season points a match: the tiebreak after wins."""
        return self.points / self.played if self.played else 0.0


def division_of(user_id: int, members: Mapping[int, int], divisions: int) -> int:
    """A player's division (1 is the top); a newcomer plays in the lowest."""
    return members.get(user_id, divisions)


def division_tables(
    tallies: Mapping[int, Tally],
    members: Mapping[int, int],
    ratings: Mapping[int, int],
    divisions: int,
) -> list[list[SeasonLine]]:
    """Each division's table, top division first: its members (with or without a match
    this season) and the newcomers who played, by points, then wins, then points a
    match, then rating."""
    people: list[list[int]] = [[] for _ in range(divisions)]
    for user in {*members, *tallies}:
        people[min(division_of(user, members, divisions), divisions) - 1].append(user)
    return [_table(users, tallies, ratings) for users in people]


def _table(
    users: Sequence[int], tallies: Mapping[int, Tally], ratings: Mapping[int, int]
) -> list[SeasonLine]:
    def key(user: int) -> tuple[int, int, float, int]:
        tally = tallies.get(user, Tally())
        average = tally.points / tally.played if tally.played else 0.0
        return (-tally.points, -tally.wins, -average, -ratings.get(user, 0))

    ordered = sorted(users, key=lambda user: (key(user), user))
    lines: list[SeasonLine] = []
    for index, user in enumerate(ordered):
        tally = tallies.get(user, Tally())
        shared = index and key(ordered[index - 1]) == key(user)
        lines.append(
            SeasonLine(
                rank=lines[-1].rank if shared else index + 1,
                user_id=user,
                points=tally.points,
                played=tally.played,
                wins=tally.wins,
                rating=ratings.get(user, 0),
            )
        )
    return lines


def moving(size: int) -> int:
    """How many go up from a division, and down from the one above, at a season's end: a
    fifth of a division, one at least."""
    return max(1, size // 5)


def next_divisions(tables: Sequence[Sequence[SeasonLine]], size: int) -> dict[int, int]:
    """The next season's divisions from this one's final tables (top first): the best
    ``moving(size)`` of each division go up and the worst of the one above go down, each
    division is then filled to ``size`` from the top of the ones below, and the lowest
    takes the rest. Players of a division who played no match this season are last in it."""
    order = [[line.user_id for line in table] for table in tables]
    move = moving(size)
    for upper in range(len(order) - 1):
        above, below = order[upper], order[upper + 1]
        swap = min(move, len(above), len(below))
        if swap:
            going_up, going_down = below[:swap], above[len(above) - swap :]
            order[upper] = above[: len(above) - swap] + going_up
            order[upper + 1] = going_down + below[swap:]
    return chunked([user for users in order for user in users], size, len(order))


def chunked(ordered: Sequence[int], size: int, divisions: int) -> dict[int, int]:
    """Players in order, best first, split into divisions of ``size``; the lowest division
    takes everyone beyond."""
    return {user: min(index // size + 1, divisions) for index, user in enumerate(ordered)}


def top_places(table: Sequence[SeasonLine], places: int) -> list[int]:
    """Who takes the season's role: the top division's first ``places`` ranks, among those
    who played (a shared rank takes everyone on it)."""
    return [line.user_id for line in table if line.rank <= places and line.played]
