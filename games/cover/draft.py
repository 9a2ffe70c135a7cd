"""The 2- and 3-player games: draft piles, drafting a set, and action cards turned up.

A mixin of the Cover Your Assets engine. Two players share three draft piles; with three,
each pile sits between two neighbours and only they may draft from it or challenge a set
drafted from it. Advanced: action cards that turn up on a pile act at once on the two
players beside it, without using anyone's turn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from games.core.protocol import Action, Decision, Event, IllegalAction, Option, option
from games.core.text import Names, Text, t, tc, tn
from games.cover.battle import Battles, Play, take_card
from games.cover.cards import move_set, moved_text, swap_top_sets
from games.cover.state import Battle, CoverSet, CoverState, Draft, Reveal

DRAFT_PILES = 3
DRAFT_PILE_SIZE = 10
TWO_PLAYER_REMOVALS = Counter({"cabin": 8, "silver": 2, "gold": 1})


class Drafting(Battles):
    # --- the table ---------------------------------------------------------------------------
    @staticmethod
    def uses_drafts(state: CoverState) -> bool:
        return len(state.players) <= 3

    @staticmethod
    def pile_players(state: CoverState, pile: int) -> tuple[int, int]:
        """The two players a pile sits between (with two players, both of them)."""
        if len(state.players) == 2:
            return (0, 1)
        return (pile, (pile + 1) % 3)

    def piles_of(self, state: CoverState, seat: int) -> list[int]:
        """The piles a player may draft from: all three with two players; else left and right."""
        return [p for p in range(len(state.drafts)) if seat in self.pile_players(state, p)]

    @staticmethod
    def move_ends(state: CoverState, stack: Sequence[CoverSet]) -> tuple[str, ...]:
        """What a Move (played or turned up) may do to a stack: nothing under two sets;
        with two, one move (the top to the bottom is the bottom to the top), unless the
        match began before ``one_move_for_two_sets``."""
        if len(stack) < 2:
            return ()
        if len(stack) == 2 and state.options.one_move_for_two_sets:
            return ("top",)
        return ("top", "bottom")

    def deal_draft_piles(self, state: CoverState, rng: random.Random) -> None:
        state.drafts = [
            [state.deck.pop() for _ in range(min(DRAFT_PILE_SIZE, len(state.deck)))]
            for _ in range(DRAFT_PILES)
        ]
        for pile in state.drafts:
            # Action cards turned up before the round are buried face down mid-pile.
            for _ in range(len(pile)):
                if not pile or not self.is_action(pile[-1]):
                    break
                bury(pile, pile.pop(), rng)

    # --- drafting a set ----------------------------------------------------------------------
    def draft_sets(self, state: CoverState, seat: int, hand: list[str]) -> list[Option]:
        """One hand card with one or more matching draft tops: every legal combination.

        Two players may combine tops from several piles; with three, one pile at a time.
        """
        if not self.uses_drafts(state):
            return []
        tops = {p: state.drafts[p][-1] for p in self.piles_of(state, seat) if state.drafts[p]}
        sizes = range(1, len(tops) + 1) if len(state.players) == 2 else [1]
        found: list[Option] = []
        for card in dict.fromkeys(hand):
            if self.is_action(card):
                continue
            for size in sizes:
                for piles in combinations(sorted(tops), size):
                    cards = [card, *(tops[p] for p in piles)]
                    if self.drafts_a_set(cards):
                        found.append(
                            option(
                                Action.of("draft", card, *piles),
                                label=tn(
                                    "Draft from pile {piles}: {cards}",
                                    "Draft from piles {piles}: {cards}",
                                    n=len(piles),
                                    piles=self.piles_named(piles),
                                    cards=self.labels([card, *(tops[p] for p in piles)]),
                                ),
                                group=t("Draft a set"),
                                style="success",
                            )
                        )
        return found

    @staticmethod
    def piles_named(piles: Sequence[int]) -> Names:
        """Which piles, as the table numbers them: two piles may show the same top card,
        and which one is taken decides what turns up and (three players) who may
        challenge. First in a label, so a long one clipped to fit keeps it."""
        return Names(str(p + 1) for p in piles)

    def drafts_a_set(self, cards: list[str]) -> bool:
        """At least one asset, every asset the same, no action cards; wilds may join."""
        if any(self.is_action(c) for c in cards):
            return False
        assets = {c for c in cards if not self.is_wild(c)}
        return len(assets) == 1 and len(cards) >= 2

    def draft(
        self, state: CoverState, seat: int, card: str, piles: list[int], events: list[Event]
    ) -> None:
        take_card(state.players[seat].hand, card)
        cards = [card, *(state.drafts[p].pop() for p in piles)]
        a, b = self.pile_players(state, piles[0])
        state.draft = Draft(
            drafter=seat,
            cards=self.wilds_below(cards),
            piles=list(piles),
            opponent=b if a == seat else a,
        )
        shown = self.labels(reversed(state.draft.cards))
        events.append(
            Event(text=t("📥 {name} drafted a set: {cards}.", name=state.names[seat], cards=shown))
        )

    def draft_decision(self, state: CoverState, draft: Draft) -> Decision:
        hand = state.players[draft.opponent].hand
        asset = self.make_set(*draft.cards).asset
        options = [
            option(
                Action.of("challenge_draft", *play),
                label=t("Challenge it with {cards}", cards=self.play_label(play)),
                group=tc("group", "Challenge"),
                style="danger",
            )
            for play in self.plays(state, hand, asset, need=1)
        ]
        options.append(
            option(Action.of("accept"), label=t("Let them have it"), group=tc("group", "Challenge"))
        )
        return Decision(
            key=f"draft-{state.round}-{state.version}",
            seat=draft.opponent,
            prompt=t(
                "{name} drafted a {asset} set. Challenge it?",
                name=state.names[draft.drafter],
                asset=self.title(asset),
            ),
            options=tuple(options),
            default=Action.of("accept"),
            reaction=True,
            # A lone "Let them have it" would tell the hand holds no match; an empty hand,
            # which the table shows, tells nothing: its player is not pinged for it.
            hides_choice=bool(hand),
        )

    def challenge_draft(
        self, state: CoverState, seat: int, play: Play, events: list[Event]
    ) -> None:
        draft = state.draft
        assert draft is not None
        for card in play:
            take_card(state.players[seat].hand, card)
        asset = self.make_set(*draft.cards).asset
        state.battle = Battle(
            challenger=seat,
            defender=draft.drafter,
            asset=asset,
            played=[(seat, c) for c in play],
            to_answer=draft.drafter,
            need=min(2, self.weight(state, play)),
            drafted=list(draft.cards),
        )
        events.append(
            Event(
                text=t(
                    "⚔️ {name} challenged the drafted {asset} set with {cards}.",
                    name=state.names[seat],
                    asset=self.title(asset),
                    cards=self.play_label(play),
                )
            )
        )
        self.settle_if_unanswerable(state, events)

    def accept_draft(self, state: CoverState, events: list[Event]) -> None:
        draft = state.draft
        assert draft is not None
        state.players[draft.drafter].stack.append(self.make_set(*draft.cards))
        events.append(
            Event(
                text=t(
                    "{name} adds the drafted set to their stack.", name=state.names[draft.drafter]
                )
            )
        )

    def flip_draft_piles(self, state: CoverState, rng: random.Random, events: list[Event]) -> None:
        """Flip the next card of each pile used; an action card turned up acts at once."""
        draft = state.draft
        state.draft = None
        if draft is None or not state.options.action_cards:
            return
        state.flipping = list(draft.piles)
        self.go_on_flipping(state, rng, events)

    def go_on_flipping(self, state: CoverState, rng: random.Random, events: list[Event]) -> None:
        """Turn up the piles in order until each shows a card that is not an action card,
        stopping at a Move until both players have decided it ("After the action card is
        resolved it is discarded": it is settled before the next card turns up)."""
        while state.flipping:
            self.resolve_turned_up(state, state.flipping[0], rng, events)
            if state.reveals:
                return
            state.flipping.pop(0)

    # --- action cards turned up on a pile ------------------------------------------------------
    def resolve_turned_up(
        self, state: CoverState, pile: int, rng: random.Random, events: list[Event]
    ) -> None:
        cards = state.drafts[pile]
        for _ in range(len(cards)):
            if not cards or not self.is_action(cards[-1]):
                return
            a, b = self.pile_players(state, pile)
            card = cards.pop()
            if card == "move":
                state.removed.append(card)
                events.append(
                    Event(
                        text=t(
                            "↕️ A Move card turns up: {name} and {other} each decide for the other.",
                            name=state.names[a],
                            other=state.names[b],
                        )
                    )
                )
                state.reveals += [
                    Reveal(decider=d, target=t)
                    for d, t in ((a, b), (b, a))
                    if len(state.players[t].stack) >= 2
                ]
                if state.reveals:
                    return  # the next card turns up once this Move is decided
            elif state.players[a].stack and state.players[b].stack:
                state.removed.append(card)
                swap_top_sets(state.players[a].stack, state.players[b].stack)
                events.append(
                    Event(
                        text=t(
                            "🔄 A Swap card turns up: {name} and {other} swap top sets.",
                            name=state.names[a],
                            other=state.names[b],
                        )
                    )
                )
            elif all(self.is_action(c) for c in cards):
                state.removed.append(card)  # nothing else to flip: it leaves play
                return
            else:
                bury(cards, card, rng)
                events.append(
                    Event(
                        text=t(
                            "🔄 A Swap card turns up, but someone has no set: it goes back into "
                            "the pile."
                        )
                    )
                )

    def reveal_decisions(self, state: CoverState) -> list[Decision]:
        decisions = []
        for reveal in state.reveals:
            name = state.names[reveal.target]
            ends = self.move_ends(state, state.players[reveal.target].stack)
            decisions.append(
                Decision(
                    # One occasion: this Move card (the cards out of play count them), this
                    # decider; it stands while the other player decides their half.
                    key=f"reveal-{state.round}-{len(state.removed)}-{reveal.decider}",
                    seat=reveal.decider,
                    prompt=t("A Move card turned up: decide for {name}'s stack.", name=name),
                    options=tuple(
                        option(
                            Action.of("force_move", reveal.target, end),
                            label=reveal_label(name, end),
                            group=tc("card", "Move"),
                        )
                        for end in ends
                    ),
                    default=Action.of("force_move", reveal.target, "top"),
                    reaction=True,
                )
            )
        return decisions

    def force_move(
        self, state: CoverState, seat: int, target: int, which: str, events: list[Event]
    ) -> None:
        reveal = next((r for r in state.reveals if r.decider == seat and r.target == target), None)
        if reveal is None:
            raise IllegalAction(t("There is no Move card for you to decide."))
        state.reveals.remove(reveal)
        move_set(state.players[target].stack, which)
        events.append(
            Event(text=moved_text(state.names[seat], which, state.names[target], own=False))
        )


def reveal_label(name: str, end: str) -> Text:
    """A turned-up Move's choice for the other player's stack."""
    if end == "top":
        return t("{name}'s top set goes to the bottom", name=name)
    return t("{name}'s bottom set comes to the top", name=name)


def bury(pile: list[str], card: str, rng: random.Random) -> None:
    """Face down, somewhere in the middle third of the pile."""
    low, high = len(pile) // 3, max(len(pile) // 3, (2 * len(pile)) // 3)
    pile.insert(rng.randint(low, high), card)
