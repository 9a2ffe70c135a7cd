"""Brackets (bot/tournaments/elimination.py, seeding.py, top_cut.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.tournaments.elimination import (
    Bracket,
    PlayedRound,
    advance_count,
    advancing,
    double_elimination,
    multiplayer_round,
    multiplayer_run,
    next_seeds,
    progress,
    single_elimination,
    table_winner,
)
from bot.tournaments.results import TableResult
from bot.tournaments.seeding import bracket_positions, bracket_size, snake
from bot.tournaments.top_cut import cut, default_cut, final_table, semi_final_tables


def test_standard_seed_order() -> None:
    positions = bracket_positions(16)
    pairs = [tuple(sorted(positions[i : i + 2])) for i in range(0, 16, 2)]
    assert pairs[:3] == [(1, 16), (8, 9), (5, 12)]
    assert all(a + b == 17 for a, b in pairs)
    # 1 and 2 in different halves, the top four in different quarters.
    assert 2 in positions[8:] and 1 in positions[:8]
    assert sorted(min(positions[q * 4 : q * 4 + 4]) for q in range(4)) == [1, 2, 3, 4]
    for size in (2, 4, 8, 32, 64):
        assert sorted(bracket_positions(size)) == list(range(1, size + 1))
    assert [bracket_size(n) for n in (2, 3, 5, 8, 9, 64)] == [2, 4, 8, 8, 16, 64]


def play(
    bracket: Bracket, rng: random.Random, lives: int
) -> tuple[Counter[int], Counter[int], int | None]:
    """Play every ready match at random until the bracket ends: (losses, matches played,
    champion). Checks nobody plays on after losing ``lives`` times."""
    results: dict[str, TableResult] = {}
    losses: Counter[int] = Counter()
    played: Counter[int] = Counter()
    while True:
        state = progress(bracket, results)
        if state.finished:
            return losses, played, state.champion
        assert state.ready, "a bracket that is not finished has a match to play"
        for match_id, (a, b) in state.ready:
            assert losses[a] < lives and losses[b] < lives
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            results[match_id] = TableResult.ranked(1, [winner], [loser])
            losses[loser] += 1
            played.update([a, b])


@pytest.mark.parametrize("players", range(2, 65))
def test_single_elimination(players: int) -> None:
    seeds = list(range(101, 101 + players))
    bracket = single_elimination(seeds)
    byes = bracket_size(players) - players
    first = progress(bracket, {})
    # Byes go to the top seeds: they wait for round 2, everyone else plays at once.
    opening = [pair for match_id, pair in first.ready if match_id.startswith("W1-")]
    waiting = {p for p in seeds if all(p not in pair for pair in opening)}
    assert waiting == set(seeds[:byes])
    for a, b in opening:  # seed s meets seed size + 1 − s, the better seed first
        assert seeds.index(a) < seeds.index(b)
        assert seeds.index(a) + seeds.index(b) + 2 == bracket_size(players) + 1
    losses, played, champion = play(bracket, random.Random(players), lives=1)
    assert champion is not None and losses[champion] == 0
    assert sorted(losses.elements()) == sorted(p for p in seeds if p != champion)
    assert sum(played.values()) == 2 * (players - 1)


@pytest.mark.parametrize("players", range(2, 65))
@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_out_after_two_losses(players: int, reset: bool) -> None:
    seeds = list(range(1, players + 1))
    for seed in range(3):
        losses, _, champion = play(
            double_elimination(seeds, reset=reset), random.Random(seed), lives=2
        )
        assert champion is not None and losses[champion] <= 1
        others = [p for p in seeds if p != champion]
        if reset:
            assert all(losses[p] == 2 for p in others)
        else:
            # Without a reset the winners' champion can lose the grand final once and go.
            assert sorted(losses[p] for p in others)[1:] == [2] * (len(others) - 1)
            assert all(losses[p] in (1, 2) for p in others)


def test_grand_final_reset_only_when_the_losers_champion_wins() -> None:
    bracket = double_elimination([1, 2, 3, 4])
    results: dict[str, TableResult] = {}

    def win(match_id: str, winner: int) -> None:
        state = progress(bracket, results)
        pair = dict(state.ready)[match_id]
        loser = pair[1] if pair[0] == winner else pair[0]
        results[match_id] = TableResult.ranked(1, [winner], [loser])

    win("W1-1", 1)
    win("W1-2", 2)
    win("W2-1", 1)  # 2 drops to the losers' bracket
    win("L1-1", 4)  # 3 is out after two losses
    win("L2-1", 2)
    assert dict(progress(bracket, results).ready)["GF"] == (1, 2)
    win("GF", 2)  # 1's first loss: the reset is played
    assert dict(progress(bracket, results).ready)["GF2"] == (1, 2)
    win("GF2", 2)
    state = progress(bracket, results)
    assert state.finished and state.champion == 2


def test_a_forfeited_seat_never_advances() -> None:
    bracket = single_elimination([1, 2, 3, 4])
    results = {
        "W1-1": TableResult.ranked(1, [1], [4]),
        # 2 finished first on the table but forfeited (gone): 3 goes through.
        "W1-2": TableResult(1, (2, 3), (1, 2), gone=frozenset({2})),
    }
    assert progress(bracket, results).ready == (("W2-1", (1, 3)),)
    double = double_elimination([1, 2, 3, 4])
    state = progress(double, results)
    assert state.decided["W1-2"] == (3, None)  # no losers' bracket for a forfeit either
    # Both forfeit: nobody goes through, the next opponent advances unplayed.
    both = {"W1-1": TableResult(1, (1, 4), (1, 2), gone=frozenset({1, 4}))}
    assert progress(bracket, both).decided["W1-1"] == (None, None)


def test_multiplayer_elimination_snakes_seeds_and_advances_the_top() -> None:
    seeds = list(range(1, 17))
    first = multiplayer_round(seeds, preferred=4, minimum=3, maximum=4, advance=2)
    assert first.tables == ((1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13))
    assert not first.final and first.byes == ()
    # The third table fills at 9; the last lap skips it.
    assert snake(list(range(1, 12)), [4, 4, 3]) == [[1, 6, 7, 11], [2, 5, 8, 10], [3, 4, 9]]
    rank = {p: p for p in seeds}
    result = TableResult(1, (1, 8, 9, 16), (3, 1, 1, 4), gone=frozenset({8}))
    # 8 placed first but forfeited; 9 and 1 go on (the top two of those still in).
    assert advancing(result, 2, rank) == [9, 1]
    results = [
        TableResult.ranked(1, [9], [1], [8], [16]),
        TableResult.ranked(1, [2], [7], [10], [15]),
        TableResult.ranked(1, [14], [3], [6], [11]),
        TableResult.ranked(1, [5, 4], [12], [13]),  # a tie at the cut: the better seed first
    ]
    assert next_seeds(results, 2, seeds) == [2, 4, 9, 14, 1, 3, 5, 7]
    final = multiplayer_round([2, 4, 9, 14], preferred=4, minimum=3, maximum=4, advance=2)
    assert final.final and final.tables == ((2, 4, 9, 14),)
    # Five at a 3–4 player game: the top seed passes, four play.
    five = multiplayer_round([1, 2, 3, 4, 5], preferred=4, minimum=3, maximum=4, advance=2)
    assert five.byes == (1,) and five.tables == ((2, 3, 4, 5),)
    # Forfeits left two of a game for three: no table, the top seed wins.
    short = multiplayer_round([7, 3], preferred=4, minimum=3, maximum=4, advance=2)
    assert short.final and short.tables == () and short.byes == (7, 3)
    assert next_seeds([TableResult.ranked(1, [5], [2], [3], [4])], 2, [1, 2, 3, 4, 5], (1,)) == [
        1,
        5,
        2,
    ]


@pytest.mark.parametrize("players", range(5, 65))
def test_multiplayer_elimination_runs_down_to_a_final_table(players: int) -> None:
    rng = random.Random(players)
    preferred, minimum, maximum = rng.choice([(4, 3, 4), (4, 3, 6), (5, 3, 5), (6, 4, 8)])
    advance = advance_count(preferred)
    seeds = list(range(1, players + 1))
    out: set[int] = set()
    while True:
        round_ = multiplayer_round(
            seeds, preferred=preferred, minimum=minimum, maximum=maximum, advance=advance
        )
        seated = [p for table in round_.tables for p in table]
        assert sorted(seated + list(round_.byes)) == sorted(seeds)
        assert all(minimum <= len(table) <= maximum for table in round_.tables)
        results = []
        for table in round_.tables:
            finish = list(table)
            rng.shuffle(finish)
            gone = frozenset(finish[:1]) if rng.random() < 0.2 else frozenset()
            results.append(TableResult.ranked(1, *[[p] for p in finish], gone=gone))
            out |= gone
        if round_.final:
            champion = table_winner(results[0]) if results else round_.byes[0]
            assert champion is not None and champion not in out
            break
        going = next_seeds(results, advance, seeds, round_.byes)
        assert not out.intersection(going)  # a forfeited seat never advances
        assert len(going) == len(round_.byes) + sum(
            min(advance, len(r.players) - len(r.gone)) for r in results
        )
        assert len(going) < len(seeds)
        seeds = going


def test_top_cut() -> None:
    assert [default_cut(n) for n in (8, 9, 16, 17, 64)] == [0, 4, 4, 8, 8]
    order = list(range(1, 21))
    assert cut(order, 8, excluded={2, 5}) == [1, 3, 4, 6, 7, 8, 9, 10]
    assert final_table([4, 1, 3]) == (4, 1, 3)  # seed 1 in seat 0
    assert semi_final_tables(list(range(1, 17))) == [
        (1, 8, 9, 16),
        (2, 7, 10, 15),
        (3, 6, 11, 14),
        (4, 5, 12, 13),
    ]


def test_multiplayer_elimination_keeps_tables_of_the_preferred_size_to_the_final() -> None:
    # Sixteen at a 3–8 game in tables of four: 4 tables, then 2, then a final of four
    # (not a final of eight after the first round).
    sizes = []
    seeds = list(range(1, 17))
    while True:
        round_ = multiplayer_round(seeds, preferred=4, minimum=3, maximum=8, advance=2)
        sizes.append([len(t) for t in round_.tables])
        if round_.final:
            break
        seeds = next_seeds(
            [TableResult.ranked(1, *[[p] for p in t]) for t in round_.tables], 2, seeds
        )
    assert sizes == [[4, 4, 4, 4], [4, 4], [4]]
    # Seven where six go on from two tables could not send anyone home: a final of seven.
    seven = multiplayer_round(list(range(7)), preferred=6, minimum=3, maximum=8, advance=3)
    assert seven.final and seven.tables == (tuple(range(7)),)
    # Tables seat more than go on, whatever the split: 9 at tables of six, three go on.
    nine = multiplayer_round(list(range(9)), preferred=6, minimum=3, maximum=8, advance=3)
    assert [len(t) for t in nine.tables] == [5, 4] and not nine.final


def test_multiplayer_run_orders_everyone_by_how_far_they_got() -> None:
    seeds = list(range(1, 11))
    first = multiplayer_round(seeds, preferred=4, minimum=3, maximum=8, advance=2)
    assert first.tables == ((1, 6, 7, 10), (2, 5, 8), (3, 4, 9))
    results = (
        TableResult.ranked(1, [6], [1], [7], [10]),
        TableResult.ranked(1, [8], [2], [5], gone=frozenset({8})),  # 8 won, but forfeited
        TableResult.ranked(1, [3], [4], [9]),
    )
    one = PlayedRound(first.tables, results)
    # After round 1: who went on (in their new seeds), then who went home; 4 withdrew.
    after = multiplayer_run(seeds, [one], 2, withdrawn={4})
    assert after.going_on == (2, 3, 6, 1, 5)
    assert after.order == (2, 3, 6, 1, 5, 4, 7, 9, 8, 10)
    # Round 2 being played: those at its table are still in, by seed.
    final = PlayedRound(((2, 3, 6, 1, 5),), (None,), final=True)
    playing = multiplayer_run(seeds, [one, final], 2, withdrawn={4})
    assert playing.going_on is None and playing.order[:5] == (2, 3, 6, 1, 5)
    decided = PlayedRound(
        final.tables, (TableResult.ranked(2, [1], [5], [2], [3], [6]),), final=True
    )
    done = multiplayer_run(seeds, [one, decided], 2, withdrawn={4})
    assert done.order == (1, 5, 2, 3, 6, 4, 7, 9, 8, 10) and done.going_on is None
