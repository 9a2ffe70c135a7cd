"""The generic search bot (games/core/search.py) over every registered game."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from games import GAMES
from games.core import contract
from games.core.protocol import Action, Decision, GameState
from games.core.search import Budget, Search

GAME_KEYS = sorted(GAMES)


def a_choice(key: str) -> tuple[GameState, Decision]:
    """A state a few heuristic moves in where some seat has more than one answer."""
    game = GAMES[key]
    players = contract.NAMES[: max(game.min_players, min(4, game.max_players))]
    state = game.setup(game.options_model(), players, 11)
    for _ in range(500):
        decision = game.decisions(state)[0]
        if len(decision.options) > 1 and decision.max_picks == 1 and state.version > 3:
            return state, decision
        state, _ = game.apply(state, decision.seat, game.bot_action(state, decision.seat))
    raise AssertionError(f"{key}: no choice in 500 moves")


def ticking() -> tuple[Callable[[], float], list[int]]:
    """A clock one second later at each reading, and the readings it gave."""
    ticks = iter(range(10_000))
    seen: list[int] = []

    def clock() -> float:
        seen.append(next(ticks))
        return float(seen[-1])

    return clock, seen


def candidates_of(
    searcher: Search[GameState], state: GameState, decision: Decision
) -> list[Action]:
    """The candidates ``searcher`` tries at ``decision``, the heuristic's first."""
    game = searcher.game
    view = game.view(state, decision.seat)
    return searcher.candidates(view, decision, game.choose(view, decision))


def on_the_clock(
    key: str, kind: type[Search[GameState]], seconds: float
) -> tuple[Action, list[int], Search[GameState], Action]:
    """A search of ``kind`` on a ticking clock at a choice: its move, the clock's readings,
    the searcher, and the heuristic's move."""
    game = GAMES[key]
    state, decision = a_choice(key)
    clock, seen = ticking()
    searcher = kind(game)
    searched = searcher.action(
        state, decision.seat, decision=decision, budget=Budget(seconds=seconds), clock=clock
    )
    return searched, seen, searcher, game.bot_action(state, decision.seat, decision=decision)


class Blind(Search[GameState]):
    """Playouts that stop at once and value every end alike: only the tie rule decides."""

    horizon = 0

    def estimate(self, sim: GameState, seat: int) -> float:
        return 0.0


@pytest.mark.parametrize("key", GAME_KEYS)
def test_equal_candidates_leave_the_heuristic_its_move(key: str) -> None:
    game = GAMES[key]
    state, decision = a_choice(key)
    searched = Blind(game).action(state, decision.seat, decision=decision, budget=Budget(worlds=2))
    assert searched == game.bot_action(state, decision.seat, decision=decision)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_clock_ends_the_search_after_the_first_world_that_passes_it(key: str) -> None:
    _, seen, _, _ = on_the_clock(key, Blind, 2.0)
    assert seen == [0, 1, 2]  # the deadline read, then one reading per world until 2 s


class Contrary(Search[GameState]):
    """Full playouts (to the end of the match) that value the first candidate, the
    heuristic's, below every other: only a world left out keeps the heuristic's move."""

    def __init__(self, game) -> None:  # type: ignore[no-untyped-def]
        super().__init__(game)
        self.started = 0

    def playout(self, world: GameState, seat: int, action: Action, *args) -> float | None:  # type: ignore[no-untyped-def]
        self.started += 1
        value = super().playout(world, seat, action, *args)
        return None if value is None else float(self.started > 1)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_clock_stops_a_playout_and_the_unfinished_world_counts_for_nothing(key: str) -> None:
    searched, seen, searcher, heuristic = on_the_clock(key, Contrary, 5.0)
    # the deadline read, then readings inside the first playout until one passes 5 s;
    # that world was never finished, so the heuristic's move stands
    assert seen == [0, 1, 2, 3, 4, 5] and searcher.started == 1  # type: ignore[attr-defined]
    assert searched == heuristic


@pytest.mark.parametrize("key", GAME_KEYS)
def test_an_unfinished_first_world_still_judges_the_candidates_it_tried(key: str) -> None:
    game = GAMES[key]
    state, decision = a_choice(key)
    searcher = Contrary(game)
    candidates = candidates_of(searcher, state, decision)
    if len(candidates) < 3:
        pytest.skip("the first choice found has two candidates")

    def clock() -> float:  # the deadline passes as the third playout begins
        return 10.0 if searcher.started >= 3 else 0.0

    searched = searcher.action(
        state, decision.seat, decision=decision, budget=Budget(seconds=5.0), clock=clock
    )
    # the second candidate beat the heuristic's in the only world tried; the third,
    # never tried, is not chosen
    assert searched == candidates[1]


class Counting(Blind):
    """Counts the playouts and the candidates they were given."""

    def __init__(self, game) -> None:  # type: ignore[no-untyped-def]
        super().__init__(game)
        self.tried: list[Action] = []

    def playout(self, world: GameState, seat: int, action: Action, *args) -> float | None:  # type: ignore[no-untyped-def]
        self.tried.append(action)
        return super().playout(world, seat, action, *args)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_candidate_meets_every_world(key: str) -> None:
    state, decision = a_choice(key)
    searcher = Counting(GAMES[key])
    candidates = candidates_of(searcher, state, decision)
    searcher.action(state, decision.seat, decision=decision, budget=Budget(worlds=3))
    assert len(candidates) > 1 and searcher.tried == candidates * 3


def test_a_world_has_a_new_seed_and_no_log() -> None:
    game = GAMES["toss_your_cookies"]
    state, decision = a_choice("toss_your_cookies")
    world = Search(game).deal_world(state, decision.seat, random.Random(2))
    assert world.seed != state.seed and world.log == ()
    # the seat's own hand is kept (the log, which holds private lines, is not)
    mine, real = game.view(world, decision.seat), game.view(state, decision.seat)
    assert mine.hand == real.hand and mine.log == [] and real.log  # type: ignore[attr-defined]
