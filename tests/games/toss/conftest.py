"""Rigged Toss Your Cookies tables: hands set by hand, dice that show what a test says."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core.protocol import Action, Decision, Event
from games.toss import TossYourCookies
from games.toss.state import Roll, TossOptions, TossState

NAMES = ("Ana", "Ben", "Cleo", "Dev")


class FixedDice(TossYourCookies):
    """The dice show the faces a test queued, in order; a new deal starts them over, so a
    replay of the match (the suite's round-trip check) throws what the match threw."""

    def __init__(self) -> None:
        super().__init__()
        self.rolls: list[Roll] = []
        self.thrown = 0

    def throw(self, rng: random.Random) -> Roll:
        self.thrown += 1
        return self.rolls[self.thrown - 1]

    def setup(self, options: TossOptions, players: Sequence[str], seed: int) -> TossState:
        # A deal already won ends the match before the first roll (about 1.5% of seeds);
        # a test that queues dice needs a table to roll on, so such a seed deals again.
        self.thrown = 0
        while (state := super().setup(options, players, seed)) and self.outcome(state):
            seed += 1
        return state


class Table:
    """A thin driver so a rule's test reads like the rulebook."""

    def __init__(self, hands: dict[str, list[str]], *, turn: str = "Ana", **options: object):
        self.game = FixedDice()
        names = tuple(hands)
        self.state = TossState(
            seed=7,
            names=names,
            options=TossOptions.model_validate(options),
            cookies=["chip", "fudge", "sugar", "ginger", "fruit", "fortune", "sandwich"][
                : len(names)
            ],
            hands=[self.game.cards.sort(cards) for cards in hands.values()],
            first=names.index(turn),
            turn=names.index(turn),
            round_wins=[0] * len(names),
        )
        self.events: list[Event] = []
        self.game.settle(self.state, self.events, random.Random(0))  # as a deal would

    def seat(self, name: str) -> int:
        return self.state.names.index(name)

    def play(self, name: str, kind: str, *args: object) -> list[Event]:
        self.state, events = self.game.apply(self.state, self.seat(name), Action.of(kind, *args))
        self.events += events
        return events

    def roll(self, name: str, action: str, number: str) -> list[Event]:
        self.game.rolls.append(Roll(action=action, number=number))  # type: ignore[arg-type]
        return self.play(name, "roll")

    def hand(self, name: str) -> list[str]:
        return self.state.hands[self.seat(name)]

    def decision(self, name: str) -> Decision | None:
        return self.game.decision_for(self.state, self.seat(name))

    def deciding(self) -> list[str]:
        return [self.state.names[d.seat] for d in self.game.decisions(self.state)]

    def public_log(self) -> list[str]:
        return [e.text for e in self.events if e.visible_to is None]

    def private_log(self, name: str) -> list[str]:
        return [e.text for e in self.events if e.visible_to == frozenset({self.seat(name)})]


def seven(*cards: str) -> list[str]:
    assert len(cards) == 7, cards
    return list(cards)
