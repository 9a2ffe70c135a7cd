"""A division's season table as a picture, drawn like an event's standings (issue 28's
kit: rank on medal discs, name, points, then each tiebreak in its column)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from bot.seasons import SeasonLine
from bot.tournaments.pictures import standings_picture
from bot.tournaments.standings import Standing


def season_picture(
    table: Sequence[SeasonLine],
    names: Mapping[int, str],
    title: str,
    subtitle: str,
    columns: tuple[str, str, str] = ("Wins", "Avg", "Rating"),
) -> bytes:
    """The table's PNG: points, then wins, points a match and rating, as they break ties;
    ``columns`` heads those three, in the reader's language."""
    standings = [
        Standing(
            rank=line.rank,
            player=line.user_id,
            points=Fraction(line.points),
            tiebreakers=tuple(
                zip(
                    columns,
                    (
                        Fraction(line.wins),
                        Fraction(round(line.average)),
                        Fraction(line.rating),
                    ),
                    strict=True,
                )
            ),
        )
        for line in table
    ]
    return standings_picture(standings, names, title, subtitle)
