"""Standings, recomputed from results: points, each format's tiebreakers, then the lot.

Pairing uses points and the lot only (``pairing_order``): within equal points the order is
a shuffle seeded by the event seed and round, so every pairing can be reproduced. A
rating-seeded event puts the players' ratings, read at the round's start, before the lot.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby

from bot.tournaments import tiebreakers as tb
from bot.tournaments.lots import lot, rated_lot
from bot.tournaments.results import Player, TableResult
from bot.tournaments.scoring import (
    MATCH_POINTS,
    POD_SCORES,
    MatchPoints,
    PlaceScores,
    Scoring,
    total_points,
)


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``tiebreakers`` are named, in the order they break.
    ``undecided``: the rank is shared until results order it (a group event's group with
    no result yet), so it is no medal."""

    rank: int
    player: Player
    points: Fraction
    tiebreakers: tuple[tuple[str, Fraction], ...]
    dropped: bool = False
    undecided: bool = False

    def tiebreaker(self, name: str) -> Fraction:
        return dict(self.tiebreakers)[name]


def pairing_order(
    players: Sequence[Player],
    results: Sequence[TableResult],
    scoring: Scoring,
    seed: int,
    round: int,
    *,
    ratings: Mapping[Player, int] | None = None,
) -> list[Player]:
    """Players by points, best first; equal points by the lot of ``round``, or with
    ``ratings`` (a rating-seeded event) by rating first: round 1 pairs by rating and later
    rounds keep rating neighbours close within a score group (Swiss's |i − j|)."""
    points = total_points(players, results, scoring)
    if ratings is None:
        draw = lot(players, seed, round)
    else:
        draw = rated_lot(players, ratings, seed, round)
    return sorted(players, key=lambda player: (-points[player], draw[player]))


def _ranked(
    players: Sequence[Player],
    points: dict[Player, Fraction],
    breakers: list[tuple[str, Mapping[Player, Fraction]]],
    draw: dict[Player, int],
    dropped: Collection[Player],
    settle: Callable[[list[Player]], list[Player]] | None = None,
) -> list[Standing]:
    values = {
        # A player with no round yet (a late entry) has nothing to break a tie with.
        player: tuple(value.get(player, Fraction(0)) for _, value in breakers)
        for player in players
    }
    ordered = sorted(players, key=lambda p: (-points[p], *(-v for v in values[p]), draw[p]))
    if settle is not None:
        regrouped: list[Player] = []
        for _, tied in groupby(ordered, key=lambda p: (points[p], values[p])):
            regrouped += settle(list(tied))
        ordered = regrouped
    return [
        Standing(
            rank=index + 1,
            player=player,
            points=points[player],
            tiebreakers=tuple(
                (name, value) for (name, _), value in zip(breakers, values[player], strict=True)
            ),
            dropped=player in dropped,
        )
        for index, player in enumerate(ordered)
    ]


def swiss_standings(
    players: Sequence[Player],
    results: Sequence[TableResult],
    seed: int,
    round: int,
    *,
    best_of: int = 1,
    dropped: Collection[Player] = (),
    scoring: MatchPoints = MATCH_POINTS,
) -> list[Standing]:
    """Two-player events: points, OMW%, (GW%, OGW% for best of three), OOMW%, head to head
    when exactly two are still tied and met, then the lot."""
    points = total_points(players, results, scoring)
    records = tb.records_of(results)
    omw = tb.opponents_mean(records, tb.point_percentages(records, scoring))
    breakers: list[tuple[str, Mapping[Player, Fraction]]] = [("OMW%", omw)]
    if best_of > 1:
        gw = tb.game_percentages(records)
        breakers += [("GW%", gw), ("OGW%", tb.opponents_mean(records, gw))]
    breakers.append(("OOMW%", tb.opponents_mean(records, omw)))

    def settle(tied: list[Player]) -> list[Player]:
        if len(tied) != 2:
            return tied
        a, b = tied
        if not any(b in result.players for result in records.get(a, ())):
            return tied
        ours = tb.head_to_head(a, [b], records, scoring)
        theirs = tb.head_to_head(b, [a], records, scoring)
        return [b, a] if theirs > ours else tied

    return _ranked(players, points, breakers, lot(players, seed, round), dropped, settle)


def pod_standings(
    players: Sequence[Player],
    results: Sequence[TableResult],
    seed: int,
    round: int,
    *,
    dropped: Collection[Player] = (),
    scoring: PlaceScores = POD_SCORES,
) -> list[Standing]:
    """Pods: points, OPP%, first places, OOPP%, then the lot."""
    points = total_points(players, results, scoring)
    records = tb.records_of(results)
    opp = tb.opponents_mean(records, tb.point_percentages(records, scoring))
    breakers: list[tuple[str, Mapping[Player, Fraction]]] = [
        ("OPP%", opp),
        ("Firsts", tb.first_places(records)),
        ("OOPP%", tb.opponents_mean(records, opp)),
    ]
    return _ranked(players, points, breakers, lot(players, seed, round), dropped)


def round_robin_standings(
    players: Sequence[Player],
    results: Sequence[TableResult],
    seed: int,
    round: int,
    *,
    dropped: Collection[Player] = (),
    scoring: MatchPoints = MATCH_POINTS,
) -> list[Standing]:
    """Round robin: points, head to head among all players on equal points, Sonneborn–
    Berger, then the lot."""
    points = total_points(players, results, scoring)
    records = tb.records_of(results)
    head = {
        player: tb.head_to_head(
            player, [o for o in players if points[o] == points[player]], records, scoring
        )
        for player in players
    }
    breakers: list[tuple[str, Mapping[Player, Fraction]]] = [
        ("H2H", head),
        ("SB", tb.sonneborn_berger(records, points)),
    ]
    return _ranked(players, points, breakers, lot(players, seed, round), dropped)
