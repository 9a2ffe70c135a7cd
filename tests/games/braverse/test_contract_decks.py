"""The DESIGN.md contract over every ready-deck pairing, in both seat orders."""

from __future__ import annotations

import itertools
import random

import pytest

from games.braverse import Braverse
from games.braverse.decks import ready_options
from games.braverse.state import BraverseOptions
from games.core import contract
from games.core.protocol import GameState

GAME = Braverse()
PAIRINGS = list(itertools.product(("rush", "tempo", "fort"), repeat=2))


def playout(options: BraverseOptions, rng: random.Random, every_state=None) -> contract.Playout:  # type: ignore[no-untyped-def]
    """``contract.playout`` with chosen options (it samples its own)."""
    run = contract.Playout(options=options, players=("Ana", "Ben"), seed=rng.getrandbits(63))
    state: GameState = GAME.setup(options, run.players, run.seed)
    answered: set[tuple[int, str]] = set()
    while GAME.outcome(state) is None:
        assert len(run.actions) < 5_000, "no outcome after 5,000 actions"
        decisions = GAME.decisions(state)
        assert decisions, "nobody can move but the match is not over"
        for pending in decisions:
            assert (pending.seat, pending.stamp) not in answered, "an answered decision came back"
        decision = rng.choice(decisions)
        answered.add((decision.seat, decision.stamp))
        action = contract.next_move(GAME, state, decision, rng)
        contract.check_action_text(action)
        if every_state is not None:
            every_state(state, decisions)
        state, _ = GAME.apply(state, decision.seat, action)
        run.actions.append((decision.seat, action))
    run.final = state
    return run


@pytest.mark.parametrize(("first", "second"), PAIRINGS)
def test_every_pairing_plays_to_an_outcome_deterministically(first: str, second: str) -> None:
    options = ready_options(first, second)
    rng = random.Random(f"pairing:{first}:{second}")
    for _ in range(6):
        run = playout(options, rng)
        assert run.final is not None
        outcome = GAME.outcome(run.final)
        assert outcome is not None and outcome.reason.endswith("wins.")
        assert GAME.decisions(run.final) == []
        contract.check_deterministic(GAME, run)


@pytest.mark.parametrize(("first", "second"), PAIRINGS)
def test_every_pairing_round_trips_refuses_bad_moves_and_hides_secrets(
    first: str, second: str
) -> None:
    options = ready_options(first, second, always_ask=True)
    rng = random.Random(f"steps:{first}:{second}")
    checked = 0

    def every_state(state, decisions) -> None:  # type: ignore[no-untyped-def]
        nonlocal checked
        checked += 1
        contract.check_round_trip(GAME, state)
        contract.check_refusals(GAME, state, decisions)
        if checked % 3 == 0:
            contract.check_views_hide_secrets(GAME, state, rng)

    for _ in range(2):
        playout(options, rng, every_state)
    assert checked > 100
