"""Who sits where at Swiss and pod tables: seat 0 (the first move) goes round.

A lot every round (as on BGA) can seat one player first five rounds running. Here a table
looks at the seats its players had at the event's earlier tables (in table seat order; a
best-of-three table counts its first game's order) and seats, front to back:

1. whoever sat in seat 0 fewest times;
2. then whoever has sat least far forward: each earlier seat counts its share of the way to
   the front (1 for seat 0, 0 for the last seat, 1/2 for the middle seat of three), so at
   pods the middle seats even out too (for two players this is rule 1 again);
3. then whoever sat in seat 0 least recently (never before all);
4. then the table's seeded shuffle (``lots.seat_order``), so round 1 is that shuffle and
   every round replays from the event seed.

Each table is sorted on its own: the pairing decides who meets, so the counts are level
only as far as the pairings allow (ten rounds of eight: five or six firsts where the lot
gave two to eight). A round robin is known in full beforehand, so its schedule seats it
(``round_robin.schedule``); brackets and cuts keep seed 1 in seat 0 (``top_cut``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from bot.tournaments.lots import seat_order
from bot.tournaments.results import Player


@dataclass(frozen=True)
class SeatHistory:
    """What the earlier tables of an event tell about each player's seats."""

    firsts: dict[Player, int] = field(default_factory=dict)  # times in seat 0
    forward: dict[Player, Fraction] = field(default_factory=dict)  # Σ share of the way front
    last_first: dict[Player, int] = field(default_factory=dict)  # latest round in seat 0


def seat_history(earlier: Iterable[tuple[int, Sequence[Player]]]) -> SeatHistory:
    """The history of ``(round, players in seat order)`` tables; tables of one (byes) hold
    no seat to even out."""
    history = SeatHistory()
    for number, seats in sorted(earlier, key=lambda table: table[0]):
        if len(seats) < 2:
            continue
        first = seats[0]
        history.firsts[first] = history.firsts.get(first, 0) + 1
        history.last_first[first] = max(history.last_first.get(first, 0), number)
        for position, player in enumerate(seats):
            share = Fraction(len(seats) - 1 - position, len(seats) - 1)
            history.forward[player] = history.forward.get(player, Fraction(0)) + share
    return history


def balanced_seats(
    players: Sequence[Player], history: SeatHistory, seed: int, round: int, table: int
) -> tuple[Player, ...]:
    """``players`` in seat order by the rules of this module."""
    drawn = {player: index for index, player in enumerate(seat_order(players, seed, round, table))}
    return tuple(
        sorted(
            players,
            key=lambda p: (
                history.firsts.get(p, 0),
                history.forward.get(p, Fraction(0)),
                history.last_first.get(p, 0),
                drawn[p],
            ),
        )
    )


def seat_tables(
    tables: Sequence[Sequence[Player]],
    earlier: Iterable[tuple[int, Sequence[Player]]],
    seed: int,
    round: int,
) -> list[tuple[Player, ...]]:
    """A round's tables (numbered from 1 in this order) in seat order, given the event's
    earlier ``(round, players in seat order)`` tables."""
    history = seat_history(earlier)
    return [
        balanced_seats(players, history, seed, round, number)
        for number, players in enumerate(tables, start=1)
    ]
