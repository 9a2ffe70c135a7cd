"""What a round leaves behind: one result per table, bye or missed round (plain values).

Standings, tiebreakers and pairings are all recomputed from these, never kept as running
totals, so an organiser's correction or a replayed result changes everything downstream.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

Player = int  # an entrant's id within its event (bot entrants included)


@dataclass(frozen=True)
class TableResult:
    """One table of one round. ``places`` are 1-based, in the order of ``players`` (their
    seats), ties sharing the best place. A ``bye`` or ``missed`` round (a late entry's
    earlier rounds) has one player and no opponent. ``gone`` holds seats that forfeited.
    For best-of-three tables, ``game_wins`` counts the games each seat won and
    ``game_draws`` the drawn games."""

    round: int
    players: tuple[Player, ...]
    places: tuple[int, ...]
    kind: Literal["table", "bye", "missed"] = "table"
    gone: frozenset[Player] = field(default_factory=frozenset)
    game_wins: tuple[int, ...] | None = None
    game_draws: int = 0

    def __post_init__(self) -> None:
        if len(self.players) != len(self.places):
            raise ValueError("a result needs one place per player")
        if (self.kind == "table") != (len(self.players) >= 2):
            raise ValueError("a table seats two or more; a bye or missed round seats one")

    @classmethod
    def bye(cls, round: int, player: Player) -> TableResult:
        return cls(round=round, players=(player,), places=(1,), kind="bye")

    @classmethod
    def missed(cls, round: int, player: Player) -> TableResult:
        return cls(round=round, players=(player,), places=(1,), kind="missed")

    @classmethod
    def ranked(cls, round: int, *groups: Iterable[Player], **extra: object) -> TableResult:
        """A table from its finishing groups, best first: ``ranked(1, [a], [b, c])`` is
        a first, then b and c tied second."""
        players: list[Player] = []
        places: list[int] = []
        for group in groups:
            members = list(group)
            places += [len(players) + 1] * len(members)
            players += members
        return cls(round=round, players=tuple(players), places=tuple(places), **extra)  # type: ignore[arg-type]

    def place_of(self, player: Player) -> int:
        return self.places[self.players.index(player)]

    def opponents(self, player: Player) -> tuple[Player, ...]:
        return tuple(other for other in self.players if other != player)

    def tied_with(self, player: Player) -> int:
        """How many seats share this player's place, the player included."""
        return self.places.count(self.place_of(player))


def results_of(results: Iterable[TableResult], player: Player) -> list[TableResult]:
    return [result for result in results if player in result.players]


def meetings(results: Iterable[TableResult]) -> Counter[frozenset[Player]]:
    """How many times each pair of players has sat at the same table."""
    met: Counter[frozenset[Player]] = Counter()
    for result in results:
        for index, a in enumerate(result.players):
            for b in result.players[index + 1 :]:
                met[frozenset((a, b))] += 1
    return met


def had_bye(results: Iterable[TableResult]) -> set[Player]:
    return {result.players[0] for result in results if result.kind == "bye"}
