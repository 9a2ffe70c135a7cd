"""Rigged Braverse tables: decks, hands, Support, Battle Areas and HP piles set by hand."""

from __future__ import annotations

from typing import Any

from games.braverse import Braverse
from games.braverse.cards import Card, CardPool
from games.braverse.state import (
    BraverseOptions,
    BraverseState,
    Cookie,
    Side,
    SupportCard,
    TrapWindow,
)
from games.core.protocol import Action, Decision, Event

GAME = Braverse()
FILLER = "S1-027"  # Tax Collector, an Item: never a Cookie, never a FLIP
PLAIN = "S1-031"  # Sprout Tender: a vanilla LV1 Cookie, HP 2


def side(
    *,
    deck: list[str] | None = None,
    hand: list[str] | None = None,
    support: list[str] | None = None,
    rested: list[str] | None = None,
    battle: list[tuple[str, list[str]]] | None = None,
    stage: str | None = None,
    discard: list[str] | None = None,
    break_area: list[str] | None = None,
) -> dict[str, Any]:
    """Decks and HP piles are written top first (the first card drawn or flipped first)."""
    return {
        "deck": list(reversed(deck if deck is not None else [FILLER] * 20)),
        "hand": list(hand or []),
        "support": [SupportCard(card=c) for c in support or []]
        + [SupportCard(card=c, rested=True) for c in rested or []],
        "battle": [(card, list(reversed(hp))) for card, hp in battle or []],
        "stage": stage,
        "discard": list(discard or []),
        "break_area": list(break_area or []),
    }


def game_with(*cards: dict[str, Any]) -> Braverse:
    """Our pool and a host's cards: for rules no card of ours exercises."""
    extra = tuple(Card.model_validate(card) for card in cards)
    return Braverse(CardPool(cards=(*GAME.pool.cards, *extra), digest="host"))


class Table:
    def __init__(
        self,
        ana: dict[str, Any],
        ben: dict[str, Any],
        *,
        turn: int = 0,
        first: int = 0,
        round: int = 3,
        phase: str = "main",
        game: Braverse = GAME,
        forced_passes: bool = True,
        **options: Any,
    ) -> None:
        self.game = game
        self.forced_passes = forced_passes
        uid = 1
        sides = []
        for spec in (ana, ben):
            battle = []
            for card, hp in spec["battle"]:
                battle.append(Cookie(uid=uid, card=card, hp=hp))
                uid += 1
            sides.append(Side(**{**spec, "battle": battle}))
        self.state = BraverseState(
            seed=7,
            names=("Ana", "Ben"),
            options=BraverseOptions(**options),
            cards=game.pool.digest,
            sides=sides,
            phase=phase,  # type: ignore[arg-type]
            first=first,
            turn=turn,
            round=round,
            step=1,
            next_uid=uid,
        )
        self.events: list[Event] = []

    def seat(self, name: str) -> int:
        return self.state.names.index(name)

    def play(self, name: str, kind: str, *args: object) -> list[Event]:
        self.state, events = self.game.apply(self.state, self.seat(name), Action.of(kind, *args))
        self.events += events
        if self.forced_passes:
            events += self.pass_for_defender()
        return events

    def pass_for_defender(self) -> list[Event]:
        """A trap window opens after every attack; a defender with nothing to answer
        passes, as the bot driver passes for them in Discord (``forced_passes`` False:
        the test answers it)."""
        found = self.game.decisions(self.state)
        window = bool(self.state.stack) and isinstance(self.state.stack[-1], TrapWindow)
        forced = found[0].forced if window and len(found) == 1 else None
        if forced is None:
            return []
        self.state, events = self.game.apply(self.state, found[0].seat, forced)
        self.events += events
        return events

    def decision(self) -> Decision:
        found = self.game.decisions(self.state)
        assert len(found) == 1, found
        return found[0]

    def deciding(self) -> str:
        return self.state.names[self.decision().seat]

    def options(self, name: str) -> list[str]:
        decision = self.game.decision_for(self.state, self.seat(name))
        return [o.action.encode() for o in decision.options] if decision else []

    def side(self, name: str) -> Side:
        return self.state.sides[self.seat(name)]

    def cookie(self, name: str, index: int = 0) -> Cookie:
        return self.side(name).battle[index]

    def hp(self, name: str, index: int = 0) -> list[str]:
        """The HP pile, top first."""
        return list(reversed(self.cookie(name, index).hp))

    def log(self) -> list[str]:
        return [e.text for e in self.events if e.visible_to is None]
