"""Rigged Cover Your Assets tables: hands, stacks, deck and discard set by hand."""

from __future__ import annotations

import pytest

from games.core.protocol import Action, Decision, Event
from games.cover import CoverYourAssets
from games.cover.state import CoverOptions, CoverSet, CoverState

NAMES = ("Ezra", "Cathy", "Phil", "Carla")


class Table:
    """A thin driver so a rule's test reads like the rulebook's example."""

    def __init__(self, game: CoverYourAssets, state: CoverState) -> None:
        self.game = game
        self.state = state
        self.events: list[Event] = []

    def seat(self, name: str) -> int:
        return self.state.names.index(name)

    def play(self, name: str, kind: str, *args: object) -> list[Event]:
        """``name`` plays; then a side left with no answer lets go, as the bot driver
        answers that forced decision for a person in Discord (``ask_unanswerable``)."""
        self.state, events = self.game.apply(self.state, self.seat(name), Action.of(kind, *args))
        while (lone := self.lone_answer()) is not None:
            self.state, more = self.game.apply(self.state, lone.seat, lone.forced)
            events += more
        self.events += events
        return events

    def lone_answer(self) -> Decision | None:
        found = self.game.decisions(self.state)
        # An answer to another's move, not a turn: a rule's test plays every turn itself.
        lone = len(found) == 1 and found[0].reaction
        if lone and found[0].forced is not None:
            return found[0]
        return None

    def hand(self, name: str) -> list[str]:
        return self.state.players[self.seat(name)].hand

    def stack(self, name: str) -> list[list[str]]:
        return [list(s.cards) for s in self.state.players[self.seat(name)].stack]

    def options(self, name: str) -> list[str]:
        decision = self.game.decision_for(self.state, self.seat(name))
        return [o.action.encode() for o in decision.options] if decision else []

    def public_log(self) -> list[str]:
        return [e.text for e in self.events if e.visible_to is None]


def cover_set(*cards: str) -> CoverSet:
    game = CoverYourAssets()
    asset = next(c for c in cards if not game.is_wild(c))
    return CoverSet(asset=asset, cards=game.wilds_below(list(cards)))


def cathys_piano_set_exposed() -> dict[str, list[CoverSet]]:
    """The usual battlefield: Ezra owns a set (so he may challenge), and Cathy's Piano set
    sits on top of her safe bottom set."""
    return {
        "Ezra": [cover_set("cabin", "cabin")],
        "Cathy": [cover_set("cabin", "cabin"), cover_set("piano", "piano")],
    }


@pytest.fixture
def rig():
    """``rig(hands={...}, stacks={...}, deck=[...top last], discard=[...], turn=name)``."""

    def build(
        *,
        hands: dict[str, list[str]],
        stacks: dict[str, list[CoverSet]] | None = None,
        deck: list[str] | None = None,
        discard: list[str] | None = None,
        turn: str = "Ezra",
        names: tuple[str, ...] = NAMES,
        options: CoverOptions | None = None,
        totals: list[int] | None = None,
        drafts: list[list[str]] | None = None,
    ) -> Table:
        game = CoverYourAssets()
        state = game.setup(options or CoverOptions(), names, seed=1)
        for i, name in enumerate(names):
            state.players[i].hand = game.cards.sort(hands.get(name, []))
            state.players[i].stack = list((stacks or {}).get(name, []))
        state.deck = list(deck if deck is not None else ["piano"] * 40)
        state.discard = list(discard if discard is not None else ["toy_train"])
        state.turn = names.index(turn)
        if totals is not None:
            state.totals = list(totals)
        if drafts is not None:
            state.drafts = [list(pile) for pile in drafts]
        return Table(game, state)

    return build
