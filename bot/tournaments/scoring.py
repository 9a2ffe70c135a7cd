"""Points a result is worth: 3/1/0 for two-player tables, place scores for pods."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from bot.tournaments.results import Player, TableResult


@dataclass(frozen=True)
class MatchPoints:
    """Two-player tables (MTR): a win 3, a draw 1, a loss 0, a bye 3."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3

    @property
    def full(self) -> int:
        """Points a round is worth at most: the denominator of MW%."""
        return self.win

    def points(self, result: TableResult, player: Player) -> Fraction:
        if result.kind == "bye":
            return Fraction(self.bye)
        if result.kind == "missed":
            return Fraction(self.loss)
        place = result.place_of(player)
        if place > 1:
            return Fraction(self.loss)
        return Fraction(self.win if result.tied_with(player) == 1 else self.draw)


def place_scores(size: int) -> tuple[Fraction, ...]:
    """Place k of n scores 6·(n − k)/(n − 1): 6/4/2/0 at four, as on BGA; every table
    size averages 3, so a 3-seat and a 4-seat table are worth the same on average."""
    return tuple(Fraction(6 * (size - place), size - 1) for place in range(1, size + 1))


@dataclass(frozen=True)
class PlaceScores:
    """Pod tables: place scores per table size (the organiser may set a table for a size),
    seats tied share the mean of the places they span, a bye scores 6."""

    tables: Mapping[int, Sequence[Fraction]] = field(default_factory=dict)
    bye: Fraction = Fraction(6)
    full: Fraction = Fraction(6)

    def table(self, size: int) -> tuple[Fraction, ...]:
        custom = self.tables.get(size)
        return tuple(Fraction(score) for score in custom) if custom else place_scores(size)

    def points(self, result: TableResult, player: Player) -> Fraction:
        if result.kind == "bye":
            return self.bye
        if result.kind == "missed":
            return Fraction(0)
        table = self.table(len(result.players))
        place, tied = result.place_of(player), result.tied_with(player)
        return sum(table[place - 1 : place - 1 + tied], Fraction(0)) / tied


Scoring = MatchPoints | PlaceScores


def total_points(
    players: Sequence[Player], results: Sequence[TableResult], scoring: Scoring
) -> dict[Player, Fraction]:
    totals = {player: Fraction(0) for player in players}
    for result in results:
        for player in result.players:
            if player in totals:
                totals[player] += scoring.points(result, player)
    return totals


MATCH_POINTS = MatchPoints()
POD_SCORES = PlaceScores()
