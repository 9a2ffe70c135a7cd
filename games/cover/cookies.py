"""Cover Your Cookies: the Cover family's engine with the Cookies rule set.

Batches instead of sets, swipes instead of challenges, Dough instead of dollars; Mixers that
act the moment they are drawn (the draw pauses for the drawer's choice and then resumes),
the Crumb Collector, the single-Cookie first Batch, topping up your own Batch once the
deck is gone, the three-player discard row, and Extra Strength Chocolate Milk.
"""

from __future__ import annotations

import random
from itertools import combinations

from pydantic import BaseModel

from games.core.cards import Catalogue, load_catalogue
from games.core.protocol import Action, Decision, Event, IllegalAction, Option, option
from games.core.search import Search
from games.core.words import join_names, plural
from games.cover import cookies_rules
from games.cover.battle import take_card
from games.cover.cards import swap_top_sets
from games.cover.cookies_state import (
    CRUMB_DOUGH,
    CRUMB_STEPS,
    CookiesOptions,
    CookiesState,
    PendingMixer,
)
from games.cover.engine import CoverYourAssets
from games.cover.state import CoverSet
from games.cover.view import view_of

TARGET = 750
LEFT, RIGHT = 1, -1  # play passes left: the left neighbour of seat s is s + 1


class CoverYourCookies(CoverYourAssets):
    key = "cover_your_cookies"
    name = "Cover Your Cookies"
    min_players = 3
    max_players = 6
    quick_start = cookies_rules.QUICK_START
    options_model = CookiesOptions
    state_model = CookiesState
    # Its matches are short enough for playouts to the end (they beat the heuristic
    # 75 % of the pairwise duels at 0.1 s), unlike Cover Your Assets' (see search.py)
    search_kind = Search
    # As in Chomper one slip is cheap (a Batch lost is often won back), so easy slips
    # far more often than the default to lose clearly to normal (docs/benchmarks.md).
    easy_mistakes = 0.8
    WORDS = {
        "set": "Batch",
        "Set": "Batch",
        "sets": "Batches",
        # Its rules "start a Batch" (a turn's first option) where Assets "form a set".
        "form": "start",
        "formed": "started",
        "challenge": "swipe",
        "Challenge": "Swipe",
        "challenging": "swiping",
        # The attempt, not the take: "Dev swiped Cleo's Batch" then "Cleo kept the Batch"
        # read as a contradiction; the rulebook says "attempt to swipe".
        "challenged": "tried to swipe",
        "stole": "swiped",
        "an asset": "a Cookie",
        "assets": "Cookies",
        "wild": "Milk",
        "wilds": "Milks",
    }

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        super().__init__(catalogue or load_catalogue(self.key))

    def money(self, amount: int) -> str:
        return f"{amount:,} Dough"

    def short_money(self, amount: int) -> str:
        return f"{amount:,} Dough"  # not 🍪: that is a card (Milk Chocolate Chip)

    @staticmethod
    def hand_size(state: CookiesState) -> int:
        return 6 if len(state.players) == 3 else 5

    def uses_drafts(self, state: CookiesState) -> bool:
        return False

    def card_weight(self, state: CookiesState, card: str) -> int:
        """Extra Strength: Chocolate Milk counts as two cards in a swipe."""
        return 2 if card == "chocolate_milk" and state.options.extra_strength else 1

    # --- set-up ------------------------------------------------------------------------
    def deal_round(self, state: CookiesState, rng: random.Random) -> None:
        """Mixers out; shuffle; deal; Mixers shuffled into one half, which goes to the bottom.

        Three players: no Swap Mixers, hands of six, and a discard row of three cards.
        """
        n = len(state.players)
        every = self.cards.deck()
        cookies = [c for c in every if not self.is_action(c)]
        mixers = [c for c in every if self.is_action(c)] if state.options.mixers else []
        if n == 3:
            mixers = [m for m in mixers if m != "mixer_swap"]
        rng.shuffle(cookies)
        for player in state.players:
            player.stack = []
            player.hand = self.cards.sort(cookies.pop() for _ in range(self.hand_size(state)))
        half = len(cookies) // 2
        bottom, top = cookies[:half] + mixers, cookies[half:]
        rng.shuffle(bottom)
        state.deck = bottom + top  # the top card is the last one
        state.discard = [state.deck.pop() for _ in range(3 if n == 3 else 1)]
        state.battle = None
        state.to_draw_after_turn = []
        state.removed = []
        state.crumbs = [0] * n
        state.enhance_waiting = [0] * n
        state.mixer = None
        state.draw_queue = []
        state.after_draws = None
        state.first_turn_done = [False] * n
        state.missed_first = [False] * n
        state.laid_batch = [False] * n
        state.single_allowed = [False] * n
        self.start_turn(state, (state.dealer + 1) % n)

    def start_turn(self, state: CookiesState, seat: int) -> None:
        """The single-Cookie first Batch: "If you weren't able to start a Batch on your
        first turn then on a subsequent turn" -- so never on the first turn itself, and only
        until the player has laid down a Batch of their own this round."""
        super().start_turn(state, seat)
        if not state.first_turn_done[seat]:
            state.first_turn_done[seat] = True
            state.missed_first[seat] = not self.set_options(state, state.players[seat].hand)
            state.single_allowed[seat] = False
        else:
            state.single_allowed[seat] = state.missed_first[seat] and not state.laid_batch[seat]

    # --- who decides what --------------------------------------------------------------
    def decisions(self, state: CookiesState) -> list[Decision]:
        if state.end_reason is None and state.mixer is not None:
            return [self.mixer_decision(state, state.mixer)]
        return super().decisions(state)

    def takes_from_discard(self, card: str) -> bool:
        """Only a Cookie is taken from the pile or the row ("an identical Cookie atop the
        discard pile", "any cookie in the row"): a Milk lying there starts no Batch."""
        return not self.is_wild(card)

    def may_challenge(self, state: CookiesState, seat: int) -> bool:
        """ "A player who has laid down at least 1 Batch of their own": one they laid this
        round counts even if a Mixer took it away; one they only received does not."""
        return state.laid_batch[seat]

    def set_options(self, state: CookiesState, hand: list[str]) -> list[Option]:
        if len(state.players) != 3:
            return super().set_options(state, hand)
        # Three players: any Cookie in the discard row may start a Batch.
        options = [o for o in super().set_options(state, hand) if o.action.kind == "pair"]
        for index, top in enumerate(state.discard):
            if not self.takes_from_discard(top):
                continue
            for card in dict.fromkeys(hand):
                if self.can_pair(card, top):
                    options.append(
                        option(
                            Action.of("take", card, index),
                            label=f"Batch: {self.label(card)} + {self.label(top)} from the row",
                            group=self.form_group,
                            style="success",
                        )
                    )
        return options

    def improve_options(self, state: CookiesState, seat: int, hand: list[str]) -> list[Option]:
        """Once the deck is gone, and only if you can neither start a Batch nor swipe: add
        a matching Cookie to your own top Batch. Before that: a single-Cookie first Batch."""
        stack = state.players[seat].stack
        single = self.single_batch_options(state, seat, hand)
        if (
            single
            or not stack
            or state.deck
            or self.set_options(state, hand)
            or self.challenge_options(state, seat, hand)
        ):
            return single
        asset = stack[-1].asset
        if asset not in hand:
            return []
        return [
            option(
                Action.of("improve", asset),
                label=f"Add {self.label(asset)} to your top Batch",
                group=self.form_group,
                style="success",
            )
        ]

    def improved_text(self, name: str, card: str) -> str:
        """In its rulebook's words ("add a matching Cookie from your hand to your top
        Batch"), as its button says: "improve" is Cover Your Assets' action."""
        return f"{name} added {self.label(card)} to their top Batch."

    def single_batch_options(self, state: CookiesState, seat: int, hand: list[str]) -> list[Option]:
        if not state.single_allowed[seat] or state.laid_batch[seat]:
            return []
        return [
            option(
                Action.of("single", card),
                label=f"First Batch: a single {self.label(card)}",
                group=self.form_group,
                style="success",
            )
            for card in dict.fromkeys(hand)
            if not self.is_wild(card)
        ]

    def discard_options(self, state: CookiesState, hand: list[str]) -> list[Option]:
        """Discard a Cookie; a Milk only by someone who holds no Cookie (our ruling)."""
        cookies = [c for c in dict.fromkeys(hand) if not self.is_wild(c)]
        choices = cookies or list(dict.fromkeys(hand))
        return [
            option(Action.of("discard", c), label=f"Discard {self.label(c)}", group="Discard")
            for c in choices
        ]

    def action_card_options(self, state: CookiesState, seat: int, hand: list[str]) -> list[Option]:
        return []  # Mixers act when drawn; none is ever played from a hand

    # --- Mixers ------------------------------------------------------------------------
    def mixer_decision(self, state: CookiesState, pending: PendingMixer) -> Decision:
        card, names = pending.card, state.names
        seat, n = pending.seat, len(names)
        if card == "rotate":
            prompt = "You drew Rotate: every top Batch moves one seat. Which way?"
            # A list in Discord has no left or right: say where the drawer's own Batch goes.
            options = [
                option(
                    Action.of("rotate", side),
                    label=f"Pass them {side}",
                    group="Rotate",
                    description=f"Every top Batch moves one seat to the {side}: yours to "
                    f"{names[(seat + step) % n]}, {names[(seat - step) % n]}'s to you.",
                )
                for side, step in (("left", LEFT), ("right", RIGHT))
            ]
        elif card == "mixer_swap":
            prompt = "You drew Swap: pick two other players to swap their top Batches."
            options = [
                option(
                    Action.of("mixer_swap", a, b),
                    label=f"Swap {names[a]} and {names[b]}",
                    group="Swap",
                    description=f"{names[a]} and {names[b]} trade their top Batches.",
                )
                for a, b in combinations(self.swappable(state, pending.seat), 2)
            ]
        else:
            side = "left" if card == "exchange_left" else "right"
            giver = self.exchange_sources(state, LEFT if side == "left" else RIGHT).get(seat)
            yours = f" (you, from {names[giver]})" if giver is not None else ""
            prompt = (
                f"You drew Exchange: everyone takes cards from their {side} neighbour{yours}. "
                "How many?"
            )
            options = [
                option(
                    Action.of("exchange", k),
                    label=plural(k, "card"),
                    group="Exchange",
                    description=f"Everyone takes {plural(k, 'card')} from their {side} neighbour.",
                )
                for k in (1, 2)
            ]
        return Decision(
            key=f"mixer-{state.version}",
            seat=pending.seat,
            prompt=prompt,
            options=tuple(options),
            default=options[0].action,
        )

    def swappable(self, state: CookiesState, drawer: int) -> list[int]:
        return [s for s, p in enumerate(state.players) if s != drawer and p.stack]

    def exchangers(self, state: CookiesState) -> list[int]:
        """Players with fewer than three cards are skipped by an Exchange."""
        return [s for s, p in enumerate(state.players) if len(p.hand) >= 3]

    def exchange_sources(self, state: CookiesState, step: int) -> dict[int, int]:
        """Who takes from whom: each player not skipped takes from the next one in the
        card's direction who is not skipped either."""
        taking = self.exchangers(state)
        n = len(state.players)
        return {
            seat: next(
                (seat + k * step) % n for k in range(1, n) if (seat + k * step) % n in taking
            )
            for seat in taking
        }

    def mix(self, state: CookiesState, seat: int, card: str, events: list[Event]) -> bool:
        """A Mixer drawn acts at once. True when its drawer must choose first."""
        name = state.names[seat]
        events.append(Event(text=f"🎛️ {name} drew a Mixer: {self.label(card)}."))
        if card == "enhance":
            stack = state.players[seat].stack
            if stack:
                stack[-1] = self.add_to_set(stack[-1], card)
                events.append(Event(text=f"✨ {name}'s top Batch is worth 30 more."))
            else:  # our ruling: it waits beside the stack for the first Batch
                state.enhance_waiting[seat] += 1
                events.append(Event(text=f"✨ Enhance waits for {name}'s first Batch."))
            return False
        needs_choice = {
            "rotate": any(p.stack for p in state.players),
            "mixer_swap": len(self.swappable(state, seat)) >= 2,
        }.get(card, len(self.exchangers(state)) >= 2)
        if not needs_choice:
            state.removed.append(card)
            events.append(Event(text="It has no effect this time."))
            return False
        state.mixer = PendingMixer(seat=seat, card=card)
        return True

    def rotate(self, state: CookiesState, direction: str, events: list[Event]) -> None:
        step = LEFT if direction == "left" else RIGHT
        n = len(state.players)
        moving = {s: p.stack.pop() for s, p in enumerate(state.players) if p.stack}
        for seat, batch in moving.items():
            state.players[(seat + step) % n].stack.append(batch)
        events.append(Event(text=f"🔃 Every top Batch moved one seat {direction}."))

    def swap_batches(self, state: CookiesState, a: int, b: int, events: list[Event]) -> None:
        pending = state.mixer
        assert pending is not None
        if {a, b} - set(self.swappable(state, pending.seat)) or a == b:
            raise IllegalAction("Pick two other players who both have a Batch.")
        swap_top_sets(state.players[a].stack, state.players[b].stack)
        events.append(Event(text=f"🔀 {state.names[a]} and {state.names[b]} swapped top Batches."))

    def exchange(
        self, state: CookiesState, count: int, rng: random.Random, events: list[Event]
    ) -> None:
        """Everyone takes ``count`` cards blindly from the next player (in the card's
        direction) who is not skipped; all at once."""
        pending = state.mixer
        assert pending is not None
        step = LEFT if pending.card == "exchange_left" else RIGHT
        source = self.exchange_sources(state, step)
        given = {s: rng.sample(state.players[s].hand, count) for s in source}
        for giver, cards in given.items():
            for card in cards:
                state.players[giver].hand.remove(card)
        for seat, giver in source.items():
            player = state.players[seat]
            player.hand = self.cards.sort(player.hand + given[giver])
            taker_of_mine = next(s for s, g in source.items() if g == seat)
            events.append(
                Event(
                    text=f"You gave {state.names[taker_of_mine]} "
                    f"{', '.join(self.label(c) for c in given[seat])} and took "
                    f"{', '.join(self.label(c) for c in given[giver])} from {state.names[giver]}.",
                    visible_to=frozenset({seat}),
                )
            )
        side = "left" if step == LEFT else "right"
        events.append(
            Event(
                text=f"🔁 Everyone with three cards or more took "
                f"{plural(count, 'card')} from their {side} neighbour."
            )
        )

    # --- moves -------------------------------------------------------------------------
    def play(
        self, state: CookiesState, seat: int, action: Action, rng: random.Random
    ) -> list[Event]:
        events: list[Event] = []
        args = action.args
        match action.kind:
            case "rotate" | "mixer_swap" | "exchange":
                if action.kind == "rotate":
                    self.rotate(state, args[0], events)
                elif action.kind == "mixer_swap":
                    self.swap_batches(state, int(args[0]), int(args[1]), events)
                else:
                    self.exchange(state, int(args[0]), rng, events)
                assert state.mixer is not None
                state.removed.append(state.mixer.card)
                state.mixer = None
                self.run_draws(state, events, rng)  # the drawer resumes replenishing
                return events
            case "single":
                take_card(state.players[seat].hand, args[0])
                self.add_set(
                    state,
                    seat,
                    CoverSet(asset=args[0], cards=[args[0]]),
                    events,
                    how=" with a single Cookie",
                )
            case "take" if len(args) == 2:
                take_card(state.players[seat].hand, args[0])
                top = state.discard.pop(int(args[1]))
                self.add_set(state, seat, self.make_set(args[0], top), events, how=" from the row")
            case _:
                return super().play(state, seat, action, rng)
        self.action_finished(state, action.kind, events, rng)
        return events

    def on_new_set(self, state: CookiesState, seat: int, new: CoverSet) -> CoverSet:
        state.laid_batch[seat] = True
        state.single_allowed[seat] = False
        waiting = state.enhance_waiting[seat]
        if waiting:
            new = self.add_to_set(new, *["enhance"] * waiting)
            state.enhance_waiting[seat] = 0
        return new

    def on_swiped(self, state: CookiesState, loser: int) -> None:
        state.crumbs[loser] = min(CRUMB_STEPS, state.crumbs[loser] + 1)

    # --- drawing, one card at a time ---------------------------------------------------
    def action_finished(
        self, state: CookiesState, kind: str, events: list[Event], rng: random.Random
    ) -> None:
        state.actions_taken += 1
        if state.options.two_actions and state.actions_taken == 1:
            if kind == "discard":  # discard-and-draw first still leaves a second action
                state.draw_queue, state.after_draws = [state.turn], "second_action"
                if not self.run_draws(state, events, rng):
                    return
            if state.players[state.turn].hand:
                return
        self.end_turn(state, events, rng)

    def end_turn(self, state: CookiesState, events: list[Event], rng: random.Random) -> None:
        """You draw back up first; then anyone who defended during your turn."""
        state.draw_queue = list(dict.fromkeys([state.turn, *state.to_draw_after_turn]))
        state.to_draw_after_turn = []
        state.after_draws = "pass_turn"
        self.run_draws(state, events, rng)

    def run_draws(self, state: CookiesState, events: list[Event], rng: random.Random) -> bool:
        """Draw for each seat in the queue; False if a Mixer paused it for a choice."""
        while state.draw_queue:
            seat = state.draw_queue[0]
            if not self.draw_one_at_a_time(state, seat, events):
                return False
            state.draw_queue.pop(0)
        after, state.after_draws = state.after_draws, None
        if after == "pass_turn":
            self.pass_turn(state, events, rng)
        return True

    def draw_one_at_a_time(self, state: CookiesState, seat: int, events: list[Event]) -> bool:
        player = state.players[seat]
        drawn: list[str] = []
        finished = True
        while len(player.hand) + len(drawn) < self.hand_size(state) and state.deck:
            card = state.deck.pop()
            if not self.is_action(card):
                drawn.append(card)
                continue
            self.show_drawn(state, seat, drawn, events)
            player.hand = self.cards.sort(player.hand + drawn)
            drawn = []
            if self.mix(state, seat, card, events):
                finished = False
                break
        self.show_drawn(state, seat, drawn, events)
        player.hand = self.cards.sort(player.hand + drawn)
        return finished

    def show_drawn(
        self, state: CookiesState, seat: int, drawn: list[str], events: list[Event]
    ) -> None:
        if drawn:
            events.append(Event(text=f"{state.names[seat]} drew {plural(len(drawn), 'card')}."))
            events.append(
                Event(
                    text=f"You drew {', '.join(self.label(c) for c in drawn)}.",
                    visible_to=frozenset({seat}),
                )
            )

    # --- scoring and the end -----------------------------------------------------------
    def round_scores(self, state: CookiesState) -> list[int]:
        """Dough in every Batch (Enhance included), plus the Crumb Collector's bonus."""
        return [
            self.stack_value(p) + CRUMB_DOUGH * state.crumbs[s] for s, p in enumerate(state.players)
        ]

    def game_end_reason(self, state: CookiesState) -> str | None:
        names = state.names
        best = max(state.totals)
        leaders = join_names([names[s] for s, v in enumerate(state.totals) if v == best])
        match state.options.end_mode:
            case "single":
                return f"{leaders} baked the most Dough: {self.money(best)}."
            case "first_to_750":
                if best < TARGET:
                    return None
                return f"{leaders} reached {TARGET} Dough with {self.money(best)}."
            case "highest_after_3":
                if state.round < 3:
                    return None
                return f"After 3 rounds, {leaders} has the most Dough: {self.money(best)}."
            case "first_to_2":
                if max(state.round_wins) < 2:
                    return None
                keys = self.ranking_keys(state)
                first = [names[s] for s, k in enumerate(keys) if k == max(keys)]
                return f"{join_names(first)} won 2 rounds first."
        return None

    def why_illegal(self, state: CookiesState, seat: int, action: Action) -> str:
        if action.kind == "single" and state.battle is None:
            return (
                "A single Cookie may start your first Batch only from your second turn on, "
                "if you could not start a Batch on your first, and until you lay one down."
            )
        if action.kind == "take" and state.battle is None:
            where = action.args[1] if len(action.args) == 2 else "-1"
            index = int(where) if where.lstrip("-").isdigit() else len(state.discard)
            if -len(state.discard) <= index < len(state.discard) and self.is_wild(
                state.discard[index]
            ):
                return "A Milk on the discard pile cannot be taken into a Batch: only a Cookie."
        return super().why_illegal(state, seat, action)

    def view(self, state: CookiesState, seat: int | None) -> BaseModel:
        return view_of(self, state, seat)

    def rulebook(self, options: CookiesOptions | None = None) -> str:
        return cookies_rules.HOW_TO_PLAY_HERE + cookies_rules.RULES
