"""The stronger Braverse bot: a determinized search over what its seat cannot see.

At a decision worth thinking about, it deals "worlds": copies of the match whose hidden
cards (the opponent's hand, both decks, every HP pile) are re-dealt by the engine's
``scramble_hidden`` for its seat, with a fresh seed so that no world knows the match's
future shuffles. In each world, every candidate answer is played on the world's own copy,
then both sides play on with the heuristic bot for the rest of this turn and the next two
(the opponent's answer, and the bot's own reply to it); ``ai.position_value`` judges where
that leaves the bot's seat. Measured against the heuristic on the same seeds, stopping one
turn earlier (before the reply) won about 10 points less. The candidate with the best
total over the worlds is played (ties: the heuristic's own choice, then the order offered).

Every candidate meets the same worlds with the same seeds (common random numbers), so the
difference between two candidates is their own, not the luck of the draw. The budget is a
wall-clock time per decision for live play, or a fixed number of worlds, which makes the
bot reproducible (tests, benchmarks). Set-up decisions and those with nothing to choose
get the heuristic's answer at once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from games.braverse import ai
from games.braverse.payment import FREE
from games.braverse.state import BraverseState
from games.braverse.view import BraverseRules, BraverseView, view_of
from games.core.protocol import Action, Decision, Event, NotYourTurn
from games.core.rng import rng_for

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


class Searched(BraverseRules, Protocol):
    """What the search asks of the game besides what its heuristic does: to play it."""

    def decision_for(
        self, state: BraverseState, seat: int, action: Action | None = None
    ) -> Decision | None: ...

    def view(self, state: BraverseState, seat: int | None) -> BaseModel: ...

    def choose(self, view: BaseModel, decision: Decision) -> Action: ...

    def play(
        self, state: BraverseState, seat: int, action: Action, rng: random.Random
    ) -> list[Event]: ...

    def scramble_hidden(
        self, state: BraverseState, seat: int | None, rng: random.Random
    ) -> BraverseState: ...


class Budget(BaseModel):
    """How hard the bot thinks at each decision."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seconds: float = Field(default=1.0, gt=0, description="wall-clock time per decision")
    worlds: int | None = Field(
        default=None, ge=1, description="a fixed number of worlds instead of the clock"
    )
    max_worlds: int = Field(default=64, ge=1, description="at most this many on the clock")
    horizon: int = Field(
        default=2, ge=0, description="whole turns a playout plays after the current one"
    )


def search_action(
    game: Searched,
    state: BraverseState,
    seat: int,
    *,
    decision: Decision | None = None,
    budget: Budget | None = None,
    seed: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> Action:
    """The search bot's answer for ``seat``. It reads the real state only through its
    seat's view and ``scramble_hidden`` (whose worlds depend on nothing the seat cannot
    tell); ``seed`` and the state's version seed the worlds."""
    budget = budget or Budget()
    decision = decision or game.decision_for(state, seat)
    if decision is None or decision.seat != seat:
        raise NotYourTurn("It is not this seat's turn.")
    forced = decision.forced
    if forced is not None:
        return forced
    view: BraverseView = game.view(state, seat)  # type: ignore[assignment]
    heuristic = game.choose(view, decision)
    if state.phase in SETUP_PHASES or decision.max_picks > 1:
        return heuristic
    candidates = candidates_of(game, view, decision, heuristic)
    if len(candidates) == 1:
        return candidates[0]
    rng = random.Random(f"search:{seed}:{state.version}:{seat}")
    totals = [0.0] * len(candidates)
    deadline = clock() + budget.seconds
    limit = budget.worlds or budget.max_worlds
    for _ in range(limit):
        world = deal_world(game, state, seat, rng)
        for index, action in enumerate(candidates):
            totals[index] += playout(game, world, seat, action, budget.horizon)
        if budget.worlds is None and clock() >= deadline:
            break
    # max keeps the first of equals: the heuristic's choice leads the candidates
    best = max(range(len(candidates)), key=lambda i: totals[i])
    return candidates[best]


def candidates_of(
    game: Searched, view: BraverseView, decision: Decision, heuristic: Action
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
    game: Searched, state: BraverseState, seat: int, rng: random.Random
) -> BraverseState:
    """A match ``seat`` cannot tell from the real one: hidden cards re-dealt, a new seed
    (the real one would foretell every later shuffle), no log (it holds private lines)."""
    world = game.scramble_hidden(state, seat, rng)
    world.seed = rng.getrandbits(63)
    world.log = ()
    return world


def playout(game: Searched, world: BraverseState, seat: int, action: Action, horizon: int) -> float:
    """``action`` played on a copy of ``world``, then both heuristics to the end of this
    turn and ``horizon`` more (or of the match): the value of the end for ``seat``."""
    sim = type(world).model_validate(world.model_dump())
    last_round = sim.round + horizon + 1
    advance(game, sim, seat, action)
    for _ in range(PLAYOUT_CAP):
        if sim.winner is not None or sim.round >= last_round:
            break
        decisions = game.decisions(sim)
        decision = decisions[0]
        answer = decision.forced or ai.choose(
            game, view_of(game, sim, decision.seat, decisions), decision
        )
        advance(game, sim, decision.seat, answer)
    return ai.position_value(game, game.view(sim, seat), seat)  # type: ignore[arg-type]


def advance(game: Searched, sim: BraverseState, seat: int, action: Action) -> None:
    """``apply`` without its copy and log: the playout's copy is its own. The shuffles
    come from the world's seed and version, as ``apply`` draws them."""
    game.play(sim, seat, action, rng_for(sim.seed, sim.version))
    sim.version += 1


__all__ = ["Budget", "candidates_of", "deal_world", "playout", "search_action"]
