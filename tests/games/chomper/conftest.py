"""Rigged Cookie Chomper tables: hands, Stack, deck and pile set by hand."""

from __future__ import annotations

import random

from games.chomper import CookieChomper
from games.chomper.queue import produced
from games.chomper.state import COOKIE, POISON, ChomperOptions, ChomperState
from games.core.protocol import Action, Event


class FixedRolls(CookieChomper):
    """A die that shows what a test queued."""

    def __init__(self) -> None:
        super().__init__()
        self.rolls: list[int] = []


class Table:
    def __init__(
        self,
        hands: dict[str, list[str]],
        *,
        stack: list[str] | None = None,
        deck: list[str] | None = None,
        played: list[str] | None = None,
        turn: str | None = None,
        **options: object,
    ) -> None:
        self.game = CookieChomper()
        names = tuple(hands)
        n = len(names)
        self.state = ChomperState(
            seed=11,
            names=names,
            options=ChomperOptions.model_validate(options),
            stack=stack if stack is not None else [COOKIE] * 39 + [POISON],
            deck=deck if deck is not None else ["0"] * 20,
            played=played or [],
            hands=[list(h) for h in hands.values()],
            out=[False] * n,
            turn=names.index(turn or names[0]),
            barred=[[] for _ in range(n)],
            piles=[[] for _ in range(n)],
            step=1,
        )
        self.events: list[Event] = []

    def seat(self, name: str) -> int:
        return self.state.names.index(name)

    def play(self, name: str, kind: str, *args: object) -> list[Event]:
        self.state, events = self.game.apply(self.state, self.seat(name), Action.of(kind, *args))
        self.events += events
        return events

    def passes(self, *names: str) -> None:
        for name in names:
            self.play(name, "pass")

    def deciding(self) -> str:
        return self.state.names[self.game.decisions(self.state)[0].seat]

    def options(self, name: str) -> list[str]:
        decision = self.game.decision_for(self.state, self.seat(name))
        return [o.action.encode() for o in decision.options] if decision else []

    def number(self) -> int:
        return produced(self.state.queue).amount

    def public_log(self) -> list[str]:
        return [e.text for e in self.events if e.visible_to is None]


def rng() -> random.Random:
    return random.Random(0)
