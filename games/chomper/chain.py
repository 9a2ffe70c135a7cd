"""Number Chain: play a number card on the pile; draw one card for each of its numbers not
on the card below; empty your hand to win, or hold the fewest when the deck runs dry."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.core.protocol import Action, Decision, Event, IllegalAction, Outcome, option

if TYPE_CHECKING:
    from games.chomper.cards import ChomperCards
    from games.chomper.state import ChomperState


class NumberChain:
    cards: ChomperCards

    def new_numbers(self, state: ChomperState, card: str) -> int:
        below = set(self.cards.numbers_on(state.chain_top or ""))
        return len([n for n in self.cards.numbers_on(card) if n not in below])

    def chain_decision(self, state: ChomperState, key: str) -> Decision:
        hand = state.hands[state.turn]
        options = tuple(
            option(
                Action.of("chain", card),
                f"{self.cards.label(card)} (draw {self.new_numbers(state, card)})",
                group="Play",
            )
            for card in dict.fromkeys(hand)
        )
        return Decision(
            key=key,
            seat=state.turn,
            prompt="Play a number card on the chain.",
            options=options,
            default=min(options, key=lambda o: self.new_numbers(state, o.action.args[0])).action,
        )

    def play_chain(
        self,
        state: ChomperState,
        seat: int,
        action: Action,
        events: list[Event],
        rng: random.Random,
    ) -> None:
        card = action.args[0]
        if card not in state.hands[seat]:
            raise IllegalAction("Play a card from your hand.")
        draws = self.new_numbers(state, card)
        state.hands[seat].remove(card)
        if state.chain_top is not None:
            state.played.append(state.chain_top)
        state.chain_top = card
        name = state.names[seat]
        events.append(Event(text=f"{name} plays {self.cards.label(card)} and draws {draws}."))
        for _ in range(draws):
            if not state.deck:
                events.append(Event(text="The deck is empty: the fewest cards in hand wins."))
                state.phase = "over"
                return
            state.hands[seat].append(state.deck.pop())
        if not state.hands[seat]:
            events.append(Event(text=f"🎉 {name} has played every card!"))
            state.phase = "over"
            return
        state.turn = (seat + 1) % len(state.names)

    def chain_outcome(self, state: ChomperState) -> Outcome:
        left = [len(hand) for hand in state.hands]
        fewest = min(left)
        leaders = [state.names[s] for s in range(len(left)) if left[s] == fewest]
        reason = (
            f"{leaders[0]} emptied their hand."
            if fewest == 0
            else f"The deck ran dry: {' and '.join(leaders)} held the fewest cards ({fewest})."
        )
        return Outcome.ranked(left, reason, keys=[-n for n in left])
