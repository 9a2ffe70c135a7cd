"""Round robin (bot/tournaments/round_robin.py): the circle method and the drop rule."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from bot.tournaments.results import TableResult
from bot.tournaments.round_robin import effective_results, schedule


@pytest.mark.parametrize("players", range(2, 17))
@pytest.mark.parametrize("double", [False, True])
def test_each_pair_meets_once_a_cycle(players: int, double: bool) -> None:
    everyone = list(range(1, players + 1))
    rounds = schedule(everyone, double=double)
    cycle = players - 1 if players % 2 == 0 else players
    assert len(rounds) == cycle * (2 if double else 1)
    for tables in rounds:
        seated = [p for table in tables for p in table]
        assert sorted(seated) == everyone  # everyone once a round, a bye included
        assert sum(len(table) == 1 for table in tables) == players % 2
    pairs = Counter(frozenset(t) for tables in rounds for t in tables if len(t) == 2)
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(everyone, 2)}
    assert set(pairs.values()) == {2 if double else 1}
    if double:
        first, second = rounds[:cycle], rounds[cycle:]
        assert [[t[::-1] for t in tables] for tables in first] == second
    # Seat 0 is shared out: nobody has it more than half their games plus one.
    seat0 = Counter(t[0] for tables in rounds for t in tables if len(t) == 2)
    games = (players - 1) * (2 if double else 1)
    assert max(seat0.values()) <= games // 2 + 1


@pytest.mark.parametrize("players", range(2, 17, 2))
def test_an_even_field_alternates_seats_but_for_n_minus_two_repeats(players: int) -> None:
    rounds = schedule(list(range(players)))
    repeats = 0
    for player in range(players):
        firsts = [next(t[0] == player for t in tables if player in t) for tables in rounds]
        repeats += sum(a == b for a, b in itertools.pairwise(firsts))
        # Never three rounds running in one seat; seat 0 level within one.
        assert all(firsts[i : i + 3] not in ([True] * 3, [False] * 3) for i in range(len(firsts)))
        assert sum(firsts) in ((players - 1) // 2, players // 2)
    assert repeats == players - 2


def play_all(rounds: list[list[tuple[int, ...]]], up_to: int) -> list[TableResult]:
    """Results of the first ``up_to`` rounds: the lower number always wins."""
    return [
        TableResult.ranked(number, [min(table)], [max(table)])
        for number, tables in enumerate(rounds[:up_to], start=1)
        for table in tables
        if len(table) == 2
    ]


def test_a_drop_before_half_voids_the_results() -> None:
    rounds = schedule(list(range(1, 7)))  # 5 games each
    results = play_all(rounds, 2)
    effective = effective_results(rounds, results, {1: 2})  # 2 of 5 played: under half
    assert all(1 not in r.players for r in effective)
    assert len(effective) == len(results) - 2


def test_a_drop_after_half_forfeits_the_rest() -> None:
    rounds = schedule(list(range(1, 7)))
    results = play_all(rounds, 3)
    effective = effective_results(rounds, results, {6: 3})  # 3 of 5 played
    assert all(r in effective for r in results)
    forfeits = [r for r in effective if r not in results]
    assert len(forfeits) == 2
    for result in forfeits:
        assert result.round in (4, 5) and result.gone == frozenset({6})
        assert result.place_of(6) == 2 and result.place_of(result.opponents(6)[0]) == 1
    # Played later anyway (recorded before the drop took hold): kept, not doubled.
    again = effective_results(rounds, play_all(rounds, 4), {6: 3})
    assert len(again) == len(play_all(rounds, 4)) + 1
