"""The toss scramble: cards face up in the middle, and a race for them.

Every player still owed cards holds a race decision with the same key; the first click on
a card takes it (the service applies clicks one at a time, in arrival order, and the
engine refuses a card already gone). When the window closes, the leftovers are dealt at
random to those still short. A tossed milk is a race of its own: everyone but the tosser
may grab it, and the winner gives the tosser a card blindly before adding the milk.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from games.core.protocol import Action, Decision, Event, IllegalAction, option
from games.core.text import Text, joined, t, tn
from games.toss import sightings
from games.toss.cards import MILK
from games.toss.state import BlindTake, Scramble, TossState

if TYPE_CHECKING:
    from games.toss.cards import TossCards


class Scrambling:
    cards: TossCards

    def open(self, state: TossState, phase: str) -> None:
        raise NotImplementedError

    def end_turn(self, state: TossState) -> None:
        raise NotImplementedError

    def open_scramble(self, state: TossState, tossed: list[list[str]]) -> None:
        """Everyone's tossed cards land face up; each may grab as many as they tossed."""
        middle = [card for cards in tossed for card in cards]
        quota = [len(cards) for cards in tossed]
        state.scramble = Scramble(middle=self.cards.sort(middle), quota=quota)
        if MILK in middle:
            sightings.saw_milk(state, None)
        self.open(state, "scramble")

    def toss_the_milk(self, state: TossState, tosser: int) -> None:
        """Everyone but the tosser races for the milk."""
        state.hands[tosser].remove(MILK)
        quota = [0 if s == tosser else 1 for s in range(len(state.names))]
        state.scramble = Scramble(middle=[MILK], quota=quota, tosser=tosser)
        self.open(state, "scramble")

    @staticmethod
    def middle(state: TossState) -> list[str]:
        return state.scramble.middle if state.scramble is not None else []

    def race_decisions(self, state: TossState, key: str) -> list[Decision]:
        scramble = state.scramble
        assert scramble is not None
        counted = Counter(scramble.middle)
        options = tuple(
            option(Action.of("grab", card), self.cards.counted(card, n), group=t("Grab"))
            for card, n in counted.items()
        )
        window = float(state.options.scramble_seconds)
        return [
            Decision(
                key=key,
                seat=seat,
                prompt=tn(
                    "Scramble! Grab {n} card from the middle: first click wins.",
                    "Scramble! Grab {n} cards from the middle: first click wins.",
                    n=owed,
                ),
                options=options,
                default=Action.of("close"),
                reaction=True,
                window=window,
            )
            for seat, owed in enumerate(scramble.quota)
            if owed > 0
        ]

    def grab(self, state: TossState, seat: int, card: str, events: list[Event]) -> None:
        scramble = state.scramble
        assert scramble is not None
        if card not in scramble.middle:
            raise IllegalAction(self.too_slow(state, card))
        if scramble.quota[seat] <= 0:
            raise IllegalAction(t("You have grabbed all the cards you may."))
        scramble.middle.remove(card)
        scramble.quota[seat] -= 1
        scramble.taken[card] = seat
        name = state.names[seat]
        if scramble.tosser is not None:
            self.milk_caught(state, seat, events)
            return
        state.hands[seat] = self.cards.sort([*state.hands[seat], card])
        sightings.saw_grab(state, seat, card)
        events.append(
            Event(text=t("✋ {name} grabs {card}.", name=name, card=self.cards.label(card)))
        )
        if not scramble.middle:
            events.append(Event(text=t("The middle is empty.")))
            self.end_turn(state)

    @staticmethod
    def too_slow(state: TossState, card: str) -> Text:
        """A click on a card no longer in the middle: who took the last of it."""
        scramble = state.scramble
        grabber = scramble.taken.get(card) if scramble is not None else None
        if grabber is None:  # a scramble saved before grabs were kept, or no such card
            return t("Too slow: someone grabbed that one first.")
        return t("Too slow: {name} grabbed that one first.", name=state.names[grabber])

    def close_scramble(self, state: TossState, events: list[Event], rng: random.Random) -> None:
        """Time! Leftovers go at random to those still short."""
        scramble = state.scramble
        assert scramble is not None
        if scramble.tosser is not None:
            others = [s for s in range(len(state.names)) if s != scramble.tosser]
            catcher = rng.choice(others)
            self.milk_caught(state, catcher, events, timed_out=True)
            return
        leftovers = rng.sample(scramble.middle, len(scramble.middle))
        if MILK in leftovers:  # dealt face down: only its new holder knows
            sightings.saw_milk(state, None)
        short = [s for s, owed in enumerate(scramble.quota) if owed > 0]
        rng.shuffle(short)
        dealt: dict[int, list[str]] = {s: [] for s in short}
        while leftovers:
            for seat in short:
                if scramble.quota[seat] > 0 and leftovers:
                    dealt[seat].append(leftovers.pop())
                    scramble.quota[seat] -= 1
        scramble.middle = []
        shares = joined(
            (t("{name} {n}", name=state.names[s], n=len(c)) for s, c in sorted(dealt.items())),
            ", ",
        )
        events.append(
            Event(text=t("⏱️ Time! The leftovers are dealt at random: {shares}.", shares=shares))
        )
        for seat, cards in dealt.items():
            state.hands[seat] = self.cards.sort([*state.hands[seat], *cards])
            events.append(
                Event(
                    text=t("You got {cards}.", cards=self.cards.labels(cards)),
                    visible_to=frozenset({seat}),
                )
            )
        self.end_turn(state)

    def milk_caught(
        self, state: TossState, catcher: int, events: list[Event], *, timed_out: bool = False
    ) -> None:
        """The catcher lets the tosser take a card blindly, then adds the milk; ``timed_out``:
        nobody grabbed it, and the clock gave it at random."""
        scramble = state.scramble
        assert scramble is not None and scramble.tosser is not None
        tosser = scramble.tosser
        state.scramble = None
        state.blind = BlindTake(taker=tosser, source=catcher, milk_to_source=True)
        self.open(state, "milk_take")
        names = {"name": state.names[catcher], "tosser": state.names[tosser]}
        if not timed_out:
            text = t(
                "🥛 {name} grabs the milk! {tosser} first takes a card from {name}'s hand "
                "without looking.",
                **names,
            )
        else:
            text = t(
                "⏱️ Nobody grabbed the milk in time; it goes to {name}. {tosser} first takes a "
                "card from {name}'s hand without looking.",
                **names,
            )
        events.append(Event(text=text))
