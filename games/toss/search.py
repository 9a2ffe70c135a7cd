"""Toss Your Cookies' hints to the generic search (games/core/search.py), and hard's rules.

The dice move most cards, so a playout to the end of a round is mostly the luck of later
rolls: candidates judged that way are chosen nearly at random (under a fair race hard lost
to normal, docs/benchmarks.md). A playout here stops when the turn played now has ended,
and the position is valued by each seat's chance to win from it, read off a table measured
over normal play (the milk, and the count towards five); a round won meanwhile counts 1 or 0.

What everyone saw (games/toss/sightings.py) makes hard sharper than normal: the worlds keep
the milk where it was last seen going, a swap goes to that seat, and in a scramble hard
denies it the wild and the cookie it was seen collecting. A grab is a race: hard grabs by
that rule at once, never searching (a live table gives no time to think there).
"""

from __future__ import annotations

import random

from pydantic import BaseModel

from games.core.protocol import Action, Decision
from games.core.search import Search
from games.toss import ai, sightings
from games.toss.cards import MILK, TossCards
from games.toss.state import TossState
from games.toss.view import TossView

# Decisions a search may improve: whom to swap with, and a single card to pass, toss or
# give. Grabs are races (hard's rule answers at once); a blind pick is luck.
THOUGHT = frozenset({"swap_with", "pass", "toss", "give"})

# A seat's chance to win the round from the start of a turn, by (holds the milk, its count
# towards five with wilds, capped at 5), over 4,000 four-player matches of normal bots.
WIN_CHANCE = {
    (False, 0): 0.17,
    (False, 1): 0.17,
    (False, 2): 0.19,
    (False, 3): 0.20,
    (False, 4): 0.21,
    (False, 5): 0.24,
    (True, 0): 0.28,
    (True, 1): 0.29,
    (True, 2): 0.30,
    (True, 3): 0.33,
    (True, 4): 0.43,
    (True, 5): 1.0,
}


def hard_choice(cards: TossCards, view: TossView, decision: Decision) -> Action | None:
    """Hard's own rule for a decision, where it has one (else None: the heuristic's)."""
    first = decision.options[0].action
    me, holder, hand = view.viewer, view.milk_seen, view.hand or []
    if holder is None or holder == me or MILK in hand:
        return None
    if first.kind == "swap_with":
        return Action.of("swap_with", holder)
    if first.kind == "grab":
        grabbed = view.grabbed[holder] if len(view.grabbed) > holder else []
        return Action.of(
            "grab", ai.denial_grab(cards, hand, view.middle, sightings.collects(grabbed))
        )
    return None


class TossSearch(Search[TossState]):
    """Playouts to the end of the turn, valued by each seat's chance to win from there."""

    horizon = 1  # turns after the one being played

    def lead(self, view: BaseModel, decision: Decision) -> Action:
        cards: TossCards = self.game.cards  # type: ignore[attr-defined]
        found = hard_choice(cards, view, decision)  # type: ignore[arg-type]
        return found if found is not None else super().lead(view, decision)

    def thinks_about(self, state: TossState, decision: Decision) -> bool:
        return decision.max_picks == 1 and decision.options[0].action.kind in THOUGHT

    def deal_world(self, state: TossState, seat: int, rng: random.Random) -> TossState:
        """The re-dealt world, with the milk in the hand it was last seen going to. Its
        past winners are cleared (only the outcome reads round wins): a winner in a
        playout is one of the playout's."""
        world = super().deal_world(state, seat, rng)
        world.winners = []
        seen = state.milk_seen
        if seen is None or seen == seat or MILK in world.hands[seen]:
            return world
        holder = next((s for s, h in enumerate(world.hands) if MILK in h and s != seat), None)
        if holder is not None and world.hands[seen]:
            given = rng.randrange(len(world.hands[seen]))
            card = world.hands[seen].pop(given)
            world.hands[holder].remove(MILK)
            sort = self.game.cards.sort  # type: ignore[attr-defined]
            world.hands[seen] = sort([*world.hands[seen], MILK])
            world.hands[holder] = sort([*world.hands[holder], card])
        return world

    def stopped(self, world: TossState, sim: TossState, played: int, horizon: int | None) -> bool:
        """A round won (``deal_world`` clears the winners), or ``horizon`` turns ended."""
        if sim.winners:
            return True
        if horizon is None:
            return False
        if horizon == 0:
            return True
        turns = (sim.turn - world.turn) % len(sim.names)
        return sim.phase == "roll" and turns >= min(horizon, len(sim.names) - 1)

    def value(self, sim: TossState, seat: int) -> float:
        """1 or 0 for a round won in the playout; else this seat's share of the chances."""
        if sim.winners:
            return 1.0 if sim.winners[-1] == seat else 0.0
        return self.estimate(sim, seat)

    def estimate(self, sim: TossState, seat: int) -> float:
        best = self.game.cards.best_cookie  # type: ignore[attr-defined]
        chances = [WIN_CHANCE[MILK in h, min(best(h)[1], 5)] for h in sim.hands]
        return chances[seat] / sum(chances)


__all__ = ["THOUGHT", "WIN_CHANCE", "TossSearch", "hard_choice"]
