"""Points a result is worth: 3/1/0 for two-player tables, place scores for pods."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

from bot.tournaments.results import Player, TableResult
from games.core.text import t


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


def parse_place_scores(text: str, sizes: range) -> dict[int, tuple[Fraction, ...]]:
    """An organiser's place scores, ``4:6/4/2/0, 3:6/3/0``: per table size, the points of
    each place, best first. Each size must be one ``sizes`` allows, with one score a
    place, never rising, first above last. Raises ``ValueError`` with a sentence."""
    tables: dict[int, tuple[Fraction, ...]] = {}
    for part in (piece.strip() for piece in re.split(r"[,;]", text)):
        if not part:
            continue
        size_text, colon, scores_text = part.partition(":")
        if not colon or not size_text.strip().isdigit():
            raise ValueError(
                t(
                    "Write each table size as size:first/second/…, like 4:6/4/2/0 (not {part}).",
                    part=part,
                )
            )
        size = int(size_text)
        if size not in sizes:
            raise ValueError(
                t(
                    "Tables seat {least} to {most} here: there is no table of {size}.",
                    least=sizes.start,
                    most=sizes.stop - 1,
                    size=size,
                )
            )
        if size in tables:
            raise ValueError(t("The table of {size} is given twice.", size=size))
        try:
            scores = tuple(Fraction(score.strip()) for score in scores_text.split("/"))
        except (ValueError, ZeroDivisionError):
            raise ValueError(
                t(
                    "Scores are numbers like 6 or 4.5, split by / (not {scores}).",
                    scores=scores_text.strip(),
                )
            ) from None
        if len(scores) != size:
            raise ValueError(
                t(
                    "A table of {size} needs {size} scores, one a place; {part} has {n}.",
                    size=size,
                    part=part,
                    n=len(scores),
                )
            )
        if any(score < 0 for score in scores):
            raise ValueError(t("Scores cannot be negative ({part}).", part=part))
        if any(worse > better for better, worse in pairwise(scores)):
            raise ValueError(
                t("Scores go from first place down and never rise ({part}).", part=part)
            )
        if scores[0] == scores[-1]:
            raise ValueError(t("First place must score more than last ({part}).", part=part))
        tables[size] = scores
    if not tables:
        raise ValueError(t("Give at least one table size, like 4:6/4/2/0."))
    return tables


def place_scores_text(tables: Mapping[int, Sequence[Fraction]]) -> str:
    """The canonical text of place scores, smallest table first: ``3:6/3/0, 4:6/4/2/0``."""
    return ", ".join(
        f"{size}:" + "/".join(f"{float(score):g}" for score in tables[size])
        for size in sorted(tables)
    )


def organiser_scores(tables: Mapping[int, Sequence[Fraction]], sizes: range) -> PlaceScores:
    """Place scores with the organiser's tables. A bye scores a win at the best-paying
    table of ``sizes``, and that win is the full score a round could give (OPP%)."""
    scoring = PlaceScores(tables=dict(tables))
    best = max(scoring.table(size)[0] for size in sizes)
    return PlaceScores(tables=dict(tables), bye=best, full=best)


def exact_sum(values: Sequence[Fraction]) -> Fraction:
    """``sum(values)``, as integers over one common denominator: adding Fractions one by
    one normalises every partial sum, most of a 512-player Swiss's standings."""
    scale = math.lcm(*(value.denominator for value in values))
    return Fraction(sum(v.numerator * (scale // v.denominator) for v in values), scale)


def total_points(
    players: Sequence[Player], results: Sequence[TableResult], scoring: Scoring
) -> dict[Player, Fraction]:
    earned: dict[Player, list[Fraction]] = {player: [] for player in players}
    for result in results:
        for player in result.players:
            if player in earned:
                earned[player].append(scoring.points(result, player))
    return {player: exact_sum(points) for player, points in earned.items()}


MATCH_POINTS = MatchPoints()
POD_SCORES = PlaceScores()
