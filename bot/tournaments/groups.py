"""Group stages for slow events: the field dealt into groups as even as possible, and each
group's tables, all played at once.

Two-player groups play a round robin. Groups of a 3–8-player game play a cyclic schedule:
table ``i`` seats the members at ``base + i`` (mod the group's size) for one base block of
seats, so every member sits at exactly as many tables as the block has seats, and sits
first at exactly one. The block is the one (of all blocks holding 0) whose pair-meeting
counts are most even: for every group size up to ``MOST_IN_GROUP`` and every table size
3–8 they differ by at most 1 (``tests/bot/test_groups.py`` checks each).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

from bot.tournaments.results import Player
from bot.tournaments.round_robin import schedule
from bot.tournaments.seeding import snake
from bot.tournaments.standings import Standing
from games.core.text import tc

NOT_STARTED = tc("groups", "not started")  # a group none of whose tables has a result
MOST_IN_GROUP = 12  # a group of a 3–8-player game opens as many tables as it has members
# A two-player group's round robin opens n(n − 1)/2 tables, each a thread: 6 open 15 (5
# games each at once), 12 would open 66. Discord lets a channel start about 5 threads in
# 5 seconds and a server hold 1,000 active ones (docs/tournaments.md, "Group events").
MOST_IN_TWO_PLAYER_GROUP = 6


def most_in_group(seats: int) -> int:
    """The largest group for tables of ``seats``."""
    return MOST_IN_TWO_PLAYER_GROUP if seats == 2 else MOST_IN_GROUP


@dataclass(frozen=True)
class Group:
    """One group of a round: its number (1-based), its members as they stand in it (by
    the round's results at its tables, best first), who of them go on (the last group:
    its winner, once decided), whether it is the last round's one group, whether a
    table of it is still being played, and whether any has a result (until one has, the
    group has no order: its members are listed by the lot, with no places)."""

    number: int
    standings: tuple[Standing, ...]
    going_on: tuple[Player, ...]
    final: bool
    playing: bool
    started: bool = True

    @property
    def members(self) -> list[Player]:
        return [s.player for s in self.standings]


@dataclass(frozen=True)
class GroupRounds:
    """Every round's groups so far: what the group picture and the web page draw."""

    rounds: tuple[tuple[Group, ...], ...]


@dataclass(frozen=True)
class Reached:
    """Where a player's event ended (or stands): the last round they were dealt into, its
    group, and their place (1-based) and points in it."""

    round: int
    group: Group
    place: int
    points: Fraction


def reached(stages: GroupRounds) -> dict[Player, Reached]:
    """Each player's latest round: what explains their place in a group event's standings
    (a later round beats any place in an earlier one, whatever the points)."""
    found: dict[Player, Reached] = {}
    for number, groups in enumerate(stages.rounds, start=1):
        for group in groups:
            for place, line in enumerate(group.standings, start=1):
                found[line.player] = Reached(number, group, place, line.points)
    return found


def group_sizes(players: int, size: int, least: int, most: int = MOST_IN_GROUP) -> list[int]:
    """Sizes of the groups ``players`` fall into: as many groups as brings them nearest
    ``size`` (none above ``most``, none below ``least``); sizes differ by one at most, the
    larger first."""
    count = max(1, math.floor(players / size + 0.5))
    while math.ceil(players / count) > most:
        count += 1
    while count > 1 and players // count < least:
        count -= 1
    small, extra = divmod(players, count)
    return [small + 1] * extra + [small] * (count - extra)


def deal(
    order: Sequence[Player], size: int, least: int, most: int = MOST_IN_GROUP
) -> list[list[Player]]:
    """The players, best seed first, snaked across the groups: each group gets a fair
    spread of the seeds, seed 1 heading group 1."""
    return snake(order, group_sizes(len(order), size, least, most))


def pair_counts(
    tables: Sequence[Sequence[Player]], members: Sequence[Player]
) -> Counter[frozenset[Player]]:
    """How often each pair of ``members`` sits at a table together (0 included)."""
    met: Counter[frozenset[Player]] = Counter(
        {frozenset(pair): 0 for pair in combinations(members, 2)}
    )
    for table in tables:
        for pair in combinations(table, 2):
            met[frozenset(pair)] += 1
    return met


@cache
def base_block(members: int, seats: int) -> tuple[int, ...]:
    """The block of ``seats`` offsets (0 first) whose cyclic tables over ``members`` give
    the most even pair meetings; the first such in lexicographic order."""
    best: tuple[int, ...] | None = None
    best_spread = math.inf
    for rest in combinations(range(1, members), seats - 1):
        block = (0, *rest)
        tables = [tuple((b + i) % members for b in block) for i in range(members)]
        counts = pair_counts(tables, range(members)).values()
        spread = max(counts) - min(counts)
        if spread < best_spread:
            best, best_spread = block, spread
            if spread == 0:
                break
    assert best is not None
    return best


def group_tables(members: Sequence[Player], seats: int) -> list[tuple[Player, ...]]:
    """Every table of one group, all played at once, in seat order. Two seats: the round
    robin (seat 0 shared out by the circle method); a group no larger than a table: one
    table; else the cyclic schedule of ``base_block``."""
    size = len(members)
    if size <= seats:
        return [tuple(members)]
    if seats == 2:
        return [table for rotation in schedule(members) for table in rotation if len(table) == 2]
    block = base_block(size, seats)
    return [tuple(members[(b + i) % size] for b in block) for i in range(size)]
