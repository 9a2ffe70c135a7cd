"""One search bot for every game: determinized worlds, common candidates, heuristic playouts.

At a decision worth thinking about, the search deals "worlds": copies of the match whose
secrets are re-dealt by the engine's ``scramble_hidden`` for the bot's seat (what the
contract's secrets scramble proves a seat cannot tell apart), each with a fresh seed so no
world knows the match's future shuffles, and no log (it holds private lines). In each world,
every candidate answer is played on the world's own copy, then a policy (the game's
heuristic bot by default) plays every seat on to the end of the match or to a horizon, and
a value judges where that leaves the bot's seat: its place in the outcome, or the game's own
value function. The candidate with the best total over the worlds is played; ties go to the
earlier candidate, and the heuristic's choice comes first.

Every candidate meets the same worlds (common random numbers), so the difference between
two candidates is their own, not the luck of the draw. The budget is wall-clock time for
live play, or a fixed number of worlds, which makes the bot reproducible: the same worlds
and seed give the same move.

A game tunes its search by subclassing ``Search`` (hints, never peeks): which decisions to
think about, which candidates to try, where a playout stops and how its end is valued. The
search reads the real state only through the seat's view and ``scramble_hidden``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from games.core.protocol import Action, Decision, Event, GameState, NotYourTurn, Outcome
from games.core.rng import rng_for
from games.core.text import t

StateT = TypeVar("StateT", bound=GameState)
PLAYOUT_CAP = 2_000  # actions in one playout: a bound on a policy that never ends a match
CLOCK_EVERY = 4  # actions between two readings of the clock inside a playout


class Budget(BaseModel):
    """How hard the bot thinks at each decision."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seconds: float = Field(default=1.0, gt=0, description="wall-clock time per decision")
    worlds: int | None = Field(
        default=None, ge=1, description="a fixed number of worlds instead of the clock"
    )
    max_worlds: int = Field(default=64, ge=1, description="at most this many on the clock")
    horizon: int | None = Field(
        default=None,
        ge=0,
        description="where a playout stops, in the game's unit (None: the game's default)",
    )


class Searched(Protocol[StateT]):
    """What the search asks of a game: what every ``Engine`` has (the engine makes its
    search, so this module names no engine)."""

    def decisions(self, state: StateT) -> list[Decision]: ...

    def decision_for(
        self, state: StateT, seat: int, action: Action | None = None
    ) -> Decision | None: ...

    def play(self, state: StateT, seat: int, action: Action, rng: random.Random) -> list[Event]: ...

    def outcome(self, state: StateT) -> Outcome | None: ...

    def view(self, state: StateT, seat: int | None) -> BaseModel: ...

    def choose(self, view: BaseModel, decision: Decision) -> Action: ...

    def scramble_hidden(self, state: StateT, seat: int | None, rng: random.Random) -> StateT: ...

    def private_copy(self, state: StateT) -> StateT: ...


class Search(Generic[StateT]):
    """The search of one game; subclasses override the hooks below to give hints."""

    # The game's default horizon (None: play to the end of the match); its unit is the
    # game's, read by ``stopped``. The generic unit is actions after the candidate.
    horizon: int | None = None
    playout_cap: int = PLAYOUT_CAP

    def __init__(self, game: Searched[StateT]) -> None:
        self.game = game

    # --- the search ------------------------------------------------------------------
    def action(
        self,
        state: StateT,
        seat: int,
        *,
        decision: Decision | None = None,
        budget: Budget | None = None,
        seed: int = 0,
        clock: Callable[[], float] = time.perf_counter,
    ) -> Action:
        """The search bot's answer for ``seat``; ``seed`` and the state's version seed the
        worlds, so the same worlds and seed give the same move."""
        budget = budget or Budget()
        decision = decision or self.game.decision_for(state, seat)
        if decision is None or decision.seat != seat:
            raise NotYourTurn(t("It is not this seat's turn."))
        if decision.forced is not None:
            return decision.forced
        view = self.game.view(state, seat)
        heuristic = self.lead(view, decision)
        if not self.thinks_about(state, decision):
            return heuristic
        candidates = self.candidates(view, decision, heuristic)
        if len(candidates) == 1:
            return candidates[0]
        horizon = budget.horizon if budget.horizon is not None else self.horizon
        totals = self.totals(state, seat, candidates, budget, horizon, seed, clock)
        # max keeps the first of equals: the heuristic's choice leads the candidates
        return candidates[max(range(len(candidates)), key=lambda i: totals[i])]

    def totals(
        self,
        state: StateT,
        seat: int,
        candidates: Sequence[Action],
        budget: Budget,
        horizon: int | None,
        seed: int,
        clock: Callable[[], float],
    ) -> list[float]:
        """Each candidate's summed value over the same worlds, dealt until the budget ends.
        On the clock a playout stops at the deadline too, and the world it was in is left
        out (its candidates would not have met it alike): a slow world never makes the bot
        overrun its time. When even the first world is unfinished, the candidates it tried
        are judged by it alone (the heuristic's is always among them) and the rest are not
        chosen; with only the heuristic's tried, its choice stands."""
        rng = random.Random(f"search:{seed}:{state.version}:{seat}")
        totals = [0.0] * len(candidates)
        deadline = clock() + budget.seconds
        timed = budget.worlds is None
        for worlds in range(budget.worlds or budget.max_worlds):
            world = self.deal_world(state, seat, rng)
            found: list[float] = []
            for action in candidates:
                value = self.playout(
                    world, seat, action, horizon, clock if timed else None, deadline
                )
                if value is None:
                    if worlds == 0:
                        return found + [float("-inf")] * (len(candidates) - len(found))
                    return totals
                found.append(value)
            totals = [total + value for total, value in zip(totals, found, strict=True)]
            if timed and clock() >= deadline:
                break
        return totals

    def deal_world(self, state: StateT, seat: int, rng: random.Random) -> StateT:
        """A match ``seat`` cannot tell from the real one: hidden cards re-dealt, a new seed
        (the real one would foretell every later shuffle), no log (it holds private lines)."""
        world = self.game.scramble_hidden(state, seat, rng)
        world.seed = rng.getrandbits(63)
        world.log = ()
        return world

    def playout(
        self,
        world: StateT,
        seat: int,
        action: Action,
        horizon: int | None,
        clock: Callable[[], float] | None = None,
        deadline: float = 0.0,
    ) -> float | None:
        """``action`` played on a copy of ``world``, then the policy for every seat until
        ``stopped`` says so: the value of the end for ``seat``; None when ``clock`` passed
        ``deadline`` first (read every ``CLOCK_EVERY`` actions, a cheap call)."""
        sim = self.game.private_copy(world)
        self.advance(sim, seat, action)
        for played in range(self.playout_cap):
            if self.stopped(world, sim, played, horizon):
                break
            if clock is not None and played % CLOCK_EVERY == 0 and clock() >= deadline:
                return None
            decisions = self.game.decisions(sim)
            if not decisions:
                break
            decision = self.next_decision(sim, decisions)
            self.advance(sim, decision.seat, self.policy(sim, decision, decisions))
        return self.value(sim, seat)

    def advance(self, sim: StateT, seat: int, action: Action) -> None:
        """``apply`` without its copy and log: the playout's copy is its own. The shuffles
        come from the world's seed and version, as ``apply`` draws them."""
        self.game.play(sim, seat, action, rng_for(sim.seed, sim.version))
        sim.version += 1

    # --- the hooks a game may override (hints, never peeks) ----------------------------
    def lead(self, view: BaseModel, decision: Decision) -> Action:
        """The move played unsearched and tried first: the game's heuristic, or a sharper
        rule of the search's own (from the same view)."""
        return self.game.choose(view, decision)

    def thinks_about(self, state: StateT, decision: Decision) -> bool:
        """Whether the decision is worth a search; a multi-pick's combinations are too many
        to try unless the game names a few in ``candidates``."""
        return decision.max_picks == 1

    def candidates(self, view: BaseModel, decision: Decision, heuristic: Action) -> list[Action]:
        """The answers worth a playout, the heuristic's first, each once."""
        found = [heuristic]
        for option in decision.options:
            if option.action not in found:
                found.append(option.action)
        return found

    def stopped(self, world: StateT, sim: StateT, played: int, horizon: int | None) -> bool:
        """Whether the playout ends here: the match is over, or ``horizon`` actions were
        played after the candidate."""
        if horizon is not None and played >= horizon:
            return True
        return self.game.outcome(sim) is not None

    def next_decision(self, sim: StateT, decisions: Sequence[Decision]) -> Decision:
        """Whose answer the playout takes next: duties before chances, and among several
        at once (simultaneous choices, a race) a turn by the version, so no seat always
        wins a race."""
        duties = [d for d in decisions if not d.optional] or list(decisions)
        return duties[sim.version % len(duties)]

    def policy(self, sim: StateT, decision: Decision, decisions: Sequence[Decision]) -> Action:
        """How every seat plays on in a playout: the game's heuristic on its own view."""
        return decision.forced or self.game.choose(self.game.view(sim, decision.seat), decision)

    def value(self, sim: StateT, seat: int) -> float:
        """Where the playout's end leaves ``seat``: 1 for first place down to 0 for last
        (ties share), or ``estimate`` of an unfinished match."""
        outcome = self.game.outcome(sim)
        if outcome is None:
            return self.estimate(sim, seat)
        players = len(outcome.placements)
        place = next(p.place for p in outcome.placements if p.seat == seat)
        return 1.0 if players < 2 else (players - place) / (players - 1)

    def estimate(self, sim: StateT, seat: int) -> float:
        """The value of an unfinished match for ``seat``; a game with a horizon gives its
        own (from ``seat``'s view only). Without one, every unfinished end is alike."""
        return 0.5


__all__ = ["PLAYOUT_CAP", "Budget", "Search", "Searched"]
