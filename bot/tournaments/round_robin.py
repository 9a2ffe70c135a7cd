"""Round robin for two-player games (up to 16): the circle method, optionally twice.

A player who drops before half of their games has their results voided (as if never
entered); one who drops later forfeits the rest, so nobody's standing depends on when they
happened to be scheduled against the leaver.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.results import Player, TableResult

MAX_PLAYERS = 16


def schedule(players: Sequence[Player], *, double: bool = False) -> list[list[tuple[Player, ...]]]:
    """Rounds of tables; an odd field gives one player a bye each round (a table of one).
    The circle method: the first player stays, the others turn one place a round. The
    fixed player changes seat every round, so seat 0 alternates; a double round robin
    plays every table again with the seats swapped.

    An even field also swaps every second table after the first (de Werra's canonical
    orientation): everyone then alternates seats but for one pair of rounds, n − 2 such
    repeats in all, the fewest possible, where turning the circle alone seats one player
    first n/2 rounds running. An odd field keeps the plain circle (where the bye turns):
    seat 0 is already exactly level there, and a change would re-pair a running event."""
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"a round robin takes 2 to {MAX_PLAYERS} players")
    circle: list[Player | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    size = len(circle)
    rounds: list[list[tuple[Player, ...]]] = []
    for number in range(size - 1):
        tables: list[tuple[Player, ...]] = []
        for index in range(size // 2):
            a, b = circle[index], circle[size - 1 - index]
            if (index == 0 and number % 2) or (index and index % 2 == 0 and size == len(players)):
                a, b = b, a
            if a is None or b is None:
                tables.append((a if b is None else b,))  # type: ignore[arg-type]
            else:
                tables.append((a, b))
        rounds.append(tables)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    if double:
        rounds += [[table[::-1] for table in tables] for tables in rounds]
    return rounds


def effective_results(
    rounds: Sequence[Sequence[tuple[Player, ...]]],
    results: Sequence[TableResult],
    dropped: Mapping[Player, int],
) -> list[TableResult]:
    """The results standings count. ``dropped`` maps a leaver to the last round they
    played. Before half their games: every result with them is voided; at or after half:
    their unplayed tables are forfeits they lose."""
    games = {
        player: sum(
            1 for tables in rounds for table in tables if len(table) == 2 and player in table
        )
        for player in dropped
    }
    played = {
        player: sum(
            1 for r in results if r.kind == "table" and player in r.players and r.round <= last
        )
        for player, last in dropped.items()
    }
    voided = {player for player in dropped if 2 * played[player] < games[player]}
    kept = [r for r in results if not voided.intersection(r.players)]
    done = {(r.round, frozenset(r.players)) for r in kept}
    for number, tables in enumerate(rounds, start=1):
        for table in tables:
            if len(table) != 2 or voided.intersection(table):
                continue
            leavers = [p for p in table if p in dropped and number > dropped[p]]
            if not leavers or (number, frozenset(table)) in done:
                continue
            if len(leavers) == 2:
                # Both gone: nobody wins it; both lose.
                places, gone = (2, 2), frozenset(table)
            else:
                places = tuple(2 if p in leavers else 1 for p in table)
                gone = frozenset(leavers)
            kept.append(TableResult(round=number, players=table, places=places, gone=gone))
    return kept


def round_robin_rounds(players: int, *, double: bool = False) -> int:
    """Rounds the schedule takes: N − 1 for an even field, N for an odd one (a bye each
    round), twice that for a double round robin."""
    cycle = players - 1 if players % 2 == 0 else players
    return max(1, cycle) * (2 if double else 1)
