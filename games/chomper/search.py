"""Cookie Chomper's hints to the generic search (games/core/search.py).

Where the poison ends a player's game (standard play, poison in the middle), a match is a
string of rounds, each ended by the player who takes the poison, and a place is earned
round by round: surviving the round being played is what every move is for. A playout
therefore stops when someone is poisoned, and is worth 1 to the bot if that was another
player, 0 if it was the bot (the last standing wins the match: the same judgement). Three
rounds of four players cost a playout to the end three times as much and blur the one
that matters now under two more. Other modes (Golden Cookie, Hoarder, Number Chain) play
to the end of the match, as the generic search does.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.chomper import ai
from games.chomper.state import ChomperState
from games.core.protocol import Action, Decision
from games.core.search import Search

POISON_MODES = frozenset({"standard", "middle"})


class ChomperSearch(Search[ChomperState]):
    """Playouts that stop at the next poisoning, valued by who took it."""

    def stopped(
        self, world: ChomperState, sim: ChomperState, played: int, horizon: int | None
    ) -> bool:
        if poisoned_since(world, sim):
            return True
        return super().stopped(world, sim, played, horizon)

    def policy(
        self, sim: ChomperState, decision: Decision, decisions: Sequence[Decision]
    ) -> Action:
        """The heuristic, as the generic policy plays it, only cheaper: the Active Player's
        main card is the decision's default already (``ai.main_default``, the heuristic on
        the public view), and the other choices read the public parts of the world's state
        (``ai.Glance``) instead of building a seat's whole view for every move."""
        if decision.forced is not None:
            return decision.forced
        if sim.phase == "main" and sim.redo is None and decision.default is not None:
            return decision.default
        return ai.choose(self.game, ai.Glance.of(sim), decision)  # type: ignore[arg-type]

    def value(self, sim: ChomperState, seat: int) -> float:
        """Poisoned: 0; still in when another player was (or, rarely, at the playout cap):
        1. A finished match counts by its places."""
        if sim.options.mode in POISON_MODES and sim.phase != "over":
            return 0.0 if sim.out[seat] else 1.0
        return super().value(sim, seat)


def poisoned_since(world: ChomperState, sim: ChomperState) -> bool:
    """Whether a player took the poison in ``sim`` since ``world`` (modes with a poison that
    puts a player out)."""
    return world.options.mode in POISON_MODES and len(sim.eliminated) > len(world.eliminated)


__all__ = ["ChomperSearch"]
