"""Number Chain: play a number card on the pile; draw one card for each of its numbers not
on the card below; empty your hand to win, or hold the fewest when the deck runs dry."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.core.protocol import Action, Decision, Event, IllegalAction, Outcome, option
from games.core.text import Names, t

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
                t(
                    "{card} (draw {n})",
                    card=self.cards.label(card),
                    n=self.new_numbers(state, card),
                ),
                group=t("Play"),
            )
            for card in dict.fromkeys(hand)
        )
        return Decision(
            key=key,
            seat=state.turn,
            prompt=t("Play a number card on the chain."),
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
            raise IllegalAction(t("Play a card from your hand."))
        draws = self.new_numbers(state, card)
        state.hands[seat].remove(card)
        if state.chain_top is not None:
            state.played.append(state.chain_top)
        state.chain_top = card
        name = state.names[seat]
        events.append(
            Event(
                text=t(
                    "{name} plays {card} and draws {n}.",
                    name=name,
                    card=self.cards.label(card),
                    n=draws,
                )
            )
        )
        for _ in range(draws):
            if not state.deck:
                events.append(Event(text=t("The deck is empty: the fewest cards in hand wins.")))
                state.phase = "over"
                return
            state.hands[seat].append(state.deck.pop())
        if not state.hands[seat]:
            events.append(Event(text=t("🎉 {name} has played every card!", name=name)))
            state.phase = "over"
            return
        state.turn = (seat + 1) % len(state.names)

    def chain_outcome(self, state: ChomperState) -> Outcome:
        left = [len(hand) for hand in state.hands]
        fewest = min(left)
        leaders = [state.names[s] for s in range(len(left)) if left[s] == fewest]
        reason = (
            t("{name} emptied their hand.", name=leaders[0])
            if fewest == 0
            else t(
                "The deck ran dry: {names} held the fewest cards ({n}).",
                names=Names(leaders),
                n=fewest,
            )
        )
        return Outcome.ranked(left, reason, keys=[-n for n in left])
