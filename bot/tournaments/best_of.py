"""Best-of-three tables for two-player events: the first to win two games takes the table.
Each game is its own match, played in the table's thread; the table's result keeps the
games each seat won and the drawn games, for GW% and OGW% (``tiebreakers``).

Rulings (the issue leaves them open):

- Seats alternate: game 1 is seated as the table is (seat 0 shared out in Swiss, seed 1
  first in a cut), game 2 the other way round, game 3 as game 1. Nobody has to be asked
  (the MTR lets the loser choose; a choice would stall an async table), and each player
  sits first at least once.
- After three games without two wins (drawn games), game points decide, as in the MTR: a
  game won 3, drawn 1. With two seats that is the wins alone: 1–1–1 is a drawn table,
  1–0–2 a win.
- A forfeit (a no-show, a run of timeouts, a player who leaves) loses the table 0–2
  whatever the games played: each seat still in is given two games won.
- A table the round's deadline or an organiser decides keeps the games finished so far;
  the game in progress counts for nobody.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.tournaments.results import Player

GAME_WIN, GAME_DRAW = 3, 1  # game points (MTR): what GW% counts


def wins_needed(best_of: int) -> int:
    return best_of // 2 + 1


def game_seats(seats: Sequence[Player], game: int) -> tuple[Player, ...]:
    """Who sits where in game ``game`` (1-based) of a table seated ``seats``: the seats
    turn by one each game, so two players swap who goes first."""
    turn = (game - 1) % len(seats)
    return tuple(seats[turn:]) + tuple(seats[:turn])


def game_winner(players: Sequence[Player], places: Sequence[int]) -> Player | None:
    """The player alone in first place of a finished game; None for a drawn game."""
    first = [player for player, place in zip(players, places, strict=True) if place == 1]
    return first[0] if len(first) == 1 else None


@dataclass(frozen=True)
class GameScore:
    """Games each seat won (in seat order) and the drawn games."""

    wins: tuple[int, ...]
    draws: int = 0

    @property
    def played(self) -> int:
        return sum(self.wins) + self.draws

    def points(self, seat: int) -> int:
        return GAME_WIN * self.wins[seat] + GAME_DRAW * self.draws

    def places(self) -> tuple[int, ...]:
        """The table's places by game points, ties sharing the best place."""
        points = [self.points(seat) for seat in range(len(self.wins))]
        return tuple(1 + sum(other > mine for other in points) for mine in points)


def score(players: Sequence[Player], winners: Sequence[Player | None]) -> GameScore:
    """The score of a table from each finished game's winner (None: drawn)."""
    return GameScore(
        wins=tuple(sum(winner == player for winner in winners) for player in players),
        draws=sum(winner is None for winner in winners),
    )


def decided(table: GameScore, best_of: int) -> bool:
    """Someone has won enough games, or every game has been played."""
    return max(table.wins) >= wins_needed(best_of) or table.played >= best_of


def forfeit_score(players: Sequence[Player], gone: Collection[Player], best_of: int) -> GameScore:
    """A forfeited table: each seat still in has won it, the seats gone won nothing."""
    needed = wins_needed(best_of)
    return GameScore(wins=tuple(0 if player in gone else needed for player in players))
