"""The DESIGN.md contract for Cookie Chomper in every mode and at every table size (the
registry-wide contract samples modes at random; this makes sure none is left out)."""

from __future__ import annotations

import random

import pytest

from games.chomper import CookieChomper
from games.chomper.state import MODES, ChomperOptions
from games.core import contract


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("players", range(2, 7))
def test_every_mode_plays_to_an_outcome_keeping_the_contract(mode: str, players: int) -> None:
    game = CookieChomper()
    rng = random.Random(f"{mode}:{players}")
    names = contract.NAMES[:players]
    for _ in range(3):
        options = ChomperOptions(mode=mode, stack_size=rng.choice(["20", "39"]))  # type: ignore[arg-type]
        state = game.setup(options, names, rng.getrandbits(32))
        steps = 0
        while game.outcome(state) is None:
            decisions = game.decisions(state)
            assert decisions, "nobody can move but the match is not over"
            if steps % 5 == 0:
                contract.check_round_trip(game, state)
                contract.check_refusals(game, state, decisions)
                contract.check_views_hide_secrets(game, state, rng)
            decision = rng.choice(decisions)
            state, _ = game.apply(
                state, decision.seat, contract.next_move(game, state, decision, rng)
            )
            steps += 1
            assert steps < 20_000
        outcome = game.outcome(state)
        assert outcome is not None and outcome.reason
        assert sorted(p.seat for p in outcome.placements) == list(range(players))
