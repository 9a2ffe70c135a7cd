"""Cookie Chomper's search hints: a playout ends at the next poisoning, valued by who took it."""

from __future__ import annotations

import random

import pytest

from games.chomper import CookieChomper
from games.chomper.search import ChomperSearch
from games.chomper.state import ChomperOptions, ChomperState
from games.core import contract
from games.core.search import Search


class Recording(ChomperSearch):
    """Keeps where each playout ended."""

    def __init__(self, game: CookieChomper) -> None:
        super().__init__(game)
        self.ends: list[ChomperState] = []

    def value(self, sim: ChomperState, seat: int) -> float:
        self.ends.append(sim)
        return super().value(sim, seat)


def playout_end(mode: str) -> tuple[CookieChomper, Recording, float, int]:
    """One playout of the heuristic's move from the first decision of a four-player match."""
    game = CookieChomper()
    state = game.setup(ChomperOptions(mode=mode), ("A", "B", "C", "D"), seed=5)  # type: ignore[arg-type]
    decision = game.decisions(state)[0]
    searcher = Recording(game)
    world = searcher.deal_world(state, decision.seat, random.Random(1))
    action = game.choose(game.view(state, decision.seat), decision)
    value = searcher.playout(world, decision.seat, action, None)
    assert value is not None
    return game, searcher, value, decision.seat


def test_a_playout_stops_when_someone_takes_the_poison_and_values_who_did() -> None:
    game, searcher, value, seat = playout_end("standard")
    (end,) = searcher.ends
    # one player out of four and the match goes on: the playout stopped there
    assert len(end.eliminated) == 1 and game.outcome(end) is None
    poisoned = end.eliminated[0]
    assert value == (0.0 if seat == poisoned else 1.0)
    assert [searcher.value(end, s) for s in range(4)] == [float(s != poisoned) for s in range(4)]


def test_modes_without_a_poison_that_puts_players_out_play_to_the_end() -> None:
    game, searcher, _, _ = playout_end("hoarder")
    (end,) = searcher.ends
    assert game.outcome(end) is not None


@pytest.mark.parametrize("mode", ["standard", "middle", "hoarder_plus", "chain"])
def test_the_playouts_cheaper_policy_plays_as_the_heuristic_on_the_seats_view(mode: str) -> None:
    """Random moves reach vetoes, choices made again and mulligans; at every decision the
    playout's policy (the main card from the decision's default, the rest from the state's
    public parts) answers as the heuristic does on the seat's own view."""
    game = CookieChomper()
    searcher = ChomperSearch(game)
    rng = random.Random(mode)
    for seed in range(3):
        state = game.setup(ChomperOptions(mode=mode), ("A", "B", "C", "D"), seed)  # type: ignore[arg-type]
        for _ in range(400):
            decisions = game.decisions(state)
            if not decisions:
                break
            decision = decisions[0]
            expected = Search.policy(searcher, state, decision, decisions)
            assert searcher.policy(state, decision, decisions) == expected
            state, _ = game.apply(state, decision.seat, contract.random_pick(decision, rng))
