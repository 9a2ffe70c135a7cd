"""The stronger Braverse bot: the generic search (games/core/search.py) with Braverse's hints.

Worlds re-deal what the seat cannot see (the opponent's hand, both decks, every HP pile).
Every candidate answer is played, then both sides play on with the heuristic bot for the
rest of this turn and the next two (the opponent's answer, and the bot's own reply to it);
``ai.position_value`` judges where that leaves the bot's seat. Measured against the
heuristic on the same seeds, stopping one turn earlier (before the reply) won about 10
points less. Candidates are one per distinct move, paid as the heuristic pays. Set-up
decisions and multi-picks get the heuristic's answer at once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from pydantic import BaseModel

from games.braverse import ai
from games.braverse.payment import FREE
from games.braverse.state import BraverseState
from games.braverse.view import BraverseRules, BraverseView, view_of
from games.core.protocol import Action, Decision
from games.core.search import Budget, Search, Searched

# Where a paid action's payment begins among its arguments (see asks.py): options that
# differ only in the colours paid are one candidate, paid as the heuristic would.
PAYMENT_AT = {
    "atk": 2,
    "item": 1,
    "stage": 1,
    "trap": 1,
    "react": 1,
    "act": 0,
    "flip": 0,
    "reveal": 0,
}
# Before the first turn a look-ahead of a few turns sees nothing of a mulligan or a starting Cookie.
SETUP_PHASES = frozenset({"order", "mulligan", "redraw", "starting"})
PLAYOUT_CAP = 400  # actions in one playout: far more than two turns ever take


class BraverseSearch(Search[BraverseState]):
    """Braverse's hints: turns as the horizon, its candidates, its value of a position."""

    horizon = 2  # whole turns a playout plays after the current one
    playout_cap = PLAYOUT_CAP

    def thinks_about(self, state: BraverseState, decision: Decision) -> bool:
        return state.phase not in SETUP_PHASES and decision.max_picks == 1

    def candidates(self, view: BaseModel, decision: Decision, heuristic: Action) -> list[Action]:
        return candidates_of(self.rules, view, decision, heuristic)  # type: ignore[arg-type]

    def stopped(
        self, world: BraverseState, sim: BraverseState, played: int, horizon: int | None
    ) -> bool:
        last_round = world.round + (horizon or 0) + 1
        return sim.winner is not None or sim.round >= last_round

    def next_decision(self, sim: BraverseState, decisions: Sequence[Decision]) -> Decision:
        return decisions[0]  # Braverse never asks two seats at once

    def policy(
        self, sim: BraverseState, decision: Decision, decisions: Sequence[Decision]
    ) -> Action:
        view = view_of(self.rules, sim, decision.seat, decisions)
        return decision.forced or ai.choose(self.rules, view, decision)

    def value(self, sim: BraverseState, seat: int) -> float:
        return ai.position_value(self.rules, self.game.view(sim, seat), seat)  # type: ignore[arg-type]

    @property
    def rules(self) -> BraverseRules:
        return self.game  # type: ignore[return-value]


def search_action(
    game: Searched[BraverseState],
    state: BraverseState,
    seat: int,
    *,
    decision: Decision | None = None,
    budget: Budget | None = None,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> Action:
    """The search bot's answer for ``seat`` (see ``Search.action``)."""
    searcher = BraverseSearch(game)
    return searcher.action(state, seat, decision=decision, budget=budget, seed=seed, clock=clock)


def candidates_of(
    game: BraverseRules, view: BraverseView, decision: Decision, heuristic: Action
) -> list[Action]:
    """The answers worth a playout, the heuristic's first: one per distinct move, paid
    the way the heuristic pays (the colours its Traps need last)."""
    need = ai.trap_colours(game, view, decision.seat)

    def cost(action: Action) -> float:
        paid = paid_of(action)
        return sum(2.0 if need[c] else 1.0 for c in paid) if paid not in (None, FREE) else 0.0

    chosen: dict[tuple[str, ...], Action] = {}
    for option in decision.options:
        key = move_key(option.action)
        held = chosen.get(key)
        if held is None or cost(option.action) < cost(held):
            chosen[key] = option.action
    found = list(chosen.values())
    if heuristic in found:
        found.remove(heuristic)
    else:
        found = [a for a in found if move_key(a) != move_key(heuristic)]
    return [heuristic, *found]


def paid_of(action: Action) -> str | None:
    """The colours a paid action pays (``free`` for nothing), None for an unpaid one."""
    at = PAYMENT_AT.get(action.kind)
    return action.args[at] if at is not None and len(action.args) > at else None


def move_key(action: Action) -> tuple[str, ...]:
    """An action without the colours it pays (a discard named by its cost stays)."""
    at = PAYMENT_AT.get(action.kind)
    if at is None or len(action.args) <= at:
        return (action.kind, *action.args)
    return (action.kind, *action.args[:at], *action.args[at + 1 :])


def deal_world(
    game: Searched[BraverseState], state: BraverseState, seat: int, rng: random.Random
) -> BraverseState:
    """A world as the search deals it (see ``Search.deal_world``)."""
    return BraverseSearch(game).deal_world(state, seat, rng)


__all__ = ["BraverseSearch", "Budget", "candidates_of", "deal_world", "search_action"]
