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
from games.core.text import Names, Num, Text, t, tc, tn
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
from games.cover.engine import CoverYourAssets, won_two_first
from games.cover.lexicon import CookiesWords
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
    how_to_play_here = cookies_rules.HOW_TO_PLAY_HERE
    rules_blocks = cookies_rules.RULES
    rulings = cookies_rules.RULINGS
    options_model = CookiesOptions
    state_model = CookiesState
    # Its matches are short enough for playouts to the end (they beat the heuristic
    # 75 % of the pairwise duels at 0.1 s), unlike Cover Your Assets' (see search.py)
    search_kind = Search
    # As in Chomper one slip is cheap (a Batch lost is often won back), so easy slips
    # far more often than the default to lose clearly to normal (docs/benchmarks.md).
    easy_mistakes = 0.8
    words = CookiesWords()

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        super().__init__(catalogue or load_catalogue(self.key))

    def money(self, amount: int) -> Text:
        return t("{amount} Dough", amount=Num(amount))

    def short_money(self, amount: int) -> Text:
        return self.money(amount)  # not 🍪: that is a card (Milk Chocolate Chip)

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
                            label=t(
                                "Batch: {card} + {top} from the row",
                                card=self.label(card),
                                top=self.label(top),
                            ),
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
                label=self.words.improve(self.label(asset)),
                group=self.form_group,
                style="success",
            )
        ]

    def improved_text(self, name: str, card: str) -> Text:
        """In its rulebook's words ("add a matching Cookie from your hand to your top
        Batch"), as its button says: "improve" is Cover Your Assets' action."""
        return t("{name} added {card} to their top Batch.", name=name, card=self.label(card))

    def single_batch_options(self, state: CookiesState, seat: int, hand: list[str]) -> list[Option]:
        if not state.single_allowed[seat] or state.laid_batch[seat]:
            return []
        return [
            option(
                Action.of("single", card),
                label=t("First Batch: a single {card}", card=self.label(card)),
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
        return [self.discard_option(c) for c in choices]

    def action_card_options(self, state: CookiesState, seat: int, hand: list[str]) -> list[Option]:
        return []  # Mixers act when drawn; none is ever played from a hand

    # --- Mixers ------------------------------------------------------------------------
    def mixer_decision(self, state: CookiesState, pending: PendingMixer) -> Decision:
        card, names = pending.card, state.names
        seat, n = pending.seat, len(names)
        if card == "rotate":
            prompt = t("You drew Rotate: every top Batch moves one seat. Which way?")
            # A list in Discord has no left or right: say where the drawer's own Batch goes.
            options = [
                option(
                    Action.of("rotate", side),
                    label=t("Pass them left") if side == "left" else t("Pass them right"),
                    group=tc("card", "Rotate"),
                    description=rotate_text(
                        side, names[(seat + step) % n], names[(seat - step) % n]
                    ),
                )
                for side, step in (("left", LEFT), ("right", RIGHT))
            ]
        elif card == "mixer_swap":
            prompt = t("You drew Swap: pick two other players to swap their top Batches.")
            options = [
                option(
                    Action.of("mixer_swap", a, b),
                    label=t("Swap {name} and {other}", name=names[a], other=names[b]),
                    group=tc("card", "Swap"),
                    description=t(
                        "{name} and {other} trade their top Batches.", name=names[a], other=names[b]
                    ),
                )
                for a, b in combinations(self.swappable(state, pending.seat), 2)
            ]
        else:
            left = card == "exchange_left"
            giver = self.exchange_sources(state, LEFT if left else RIGHT).get(seat)
            prompt = exchange_prompt(left, None if giver is None else names[giver])
            options = [
                option(
                    Action.of("exchange", k),
                    label=tn("{n} card", "{n} cards", n=k),
                    group=tc("card", "Exchange"),
                    description=exchange_text(left, k),
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
        events.append(
            Event(text=t("🎛️ {name} drew a Mixer: {card}.", name=name, card=self.label(card)))
        )
        if card == "enhance":
            stack = state.players[seat].stack
            if stack:
                stack[-1] = self.add_to_set(stack[-1], card)
                events.append(Event(text=t("✨ {name}'s top Batch is worth 30 more.", name=name)))
            else:  # our ruling: it waits beside the stack for the first Batch
                state.enhance_waiting[seat] += 1
                events.append(
                    Event(text=t("✨ Enhance waits for {name}'s first Batch.", name=name))
                )
            return False
        needs_choice = {
            "rotate": any(p.stack for p in state.players),
            "mixer_swap": len(self.swappable(state, seat)) >= 2,
        }.get(card, len(self.exchangers(state)) >= 2)
        if not needs_choice:
            state.removed.append(card)
            events.append(Event(text=t("It has no effect this time.")))
            return False
        state.mixer = PendingMixer(seat=seat, card=card)
        return True

    def rotate(self, state: CookiesState, direction: str, events: list[Event]) -> None:
        step = LEFT if direction == "left" else RIGHT
        n = len(state.players)
        moving = {s: p.stack.pop() for s, p in enumerate(state.players) if p.stack}
        for seat, batch in moving.items():
            state.players[(seat + step) % n].stack.append(batch)
        events.append(
            Event(
                text=t("🔃 Every top Batch moved one seat left.")
                if direction == "left"
                else t("🔃 Every top Batch moved one seat right.")
            )
        )

    def swap_batches(self, state: CookiesState, a: int, b: int, events: list[Event]) -> None:
        pending = state.mixer
        assert pending is not None
        if {a, b} - set(self.swappable(state, pending.seat)) or a == b:
            raise IllegalAction(t("Pick two other players who both have a Batch."))
        swap_top_sets(state.players[a].stack, state.players[b].stack)
        events.append(
            Event(
                text=t(
                    "🔀 {name} and {other} swapped top Batches.",
                    name=state.names[a],
                    other=state.names[b],
                )
            )
        )

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
                    text=t(
                        "You gave {name} {cards} and took {taken} from {other}.",
                        name=state.names[taker_of_mine],
                        cards=self.labels(given[seat], ", "),
                        taken=self.labels(given[giver], ", "),
                        other=state.names[giver],
                    ),
                    visible_to=frozenset({seat}),
                )
            )
        events.append(Event(text=exchanged_text(step == LEFT, count)))

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
                    how="single",
                )
            case "take" if len(args) == 2:
                take_card(state.players[seat].hand, args[0])
                top = state.discard.pop(int(args[1]))
                self.add_set(state, seat, self.make_set(args[0], top), events, how="row")
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
            events += self.drew(state, seat, drawn)

    # --- scoring and the end -----------------------------------------------------------
    def round_scores(self, state: CookiesState) -> list[int]:
        """Dough in every Batch (Enhance included), plus the Crumb Collector's bonus."""
        return [
            self.stack_value(p) + CRUMB_DOUGH * state.crumbs[s] for s, p in enumerate(state.players)
        ]

    def game_end_reason(self, state: CookiesState) -> Text | None:
        names = state.names
        best = max(state.totals)
        leaders = Names(names[s] for s, v in enumerate(state.totals) if v == best)
        match state.options.end_mode:
            case "single":
                return t(
                    "{names} baked the most Dough: {money}.", names=leaders, money=self.money(best)
                )
            case "first_to_750":
                if best < TARGET:
                    return None
                return t(
                    "{names} reached {target} with {money}.",
                    names=leaders,
                    target=self.money(TARGET),
                    money=self.money(best),
                )
            case "highest_after_3":
                if state.round < 3:
                    return None
                return t(
                    "After 3 rounds, {names} has the most Dough: {money}.",
                    names=leaders,
                    money=self.money(best),
                )
            case "first_to_2":
                if max(state.round_wins) < 2:
                    return None
                return won_two_first(names, self.ranking_keys(state))
        return None

    def why_illegal(self, state: CookiesState, seat: int, action: Action) -> Text:
        if action.kind == "single" and state.battle is None:
            return t(
                "A single Cookie may start your first Batch only from your second turn on, "
                "if you could not start a Batch on your first, and until you lay one down."
            )
        if action.kind == "take" and state.battle is None:
            where = action.args[1] if len(action.args) == 2 else "-1"
            index = int(where) if where.lstrip("-").isdigit() else len(state.discard)
            if -len(state.discard) <= index < len(state.discard) and self.is_wild(
                state.discard[index]
            ):
                return t("A Milk on the discard pile cannot be taken into a Batch: only a Cookie.")
        return super().why_illegal(state, seat, action)

    def view(self, state: CookiesState, seat: int | None) -> BaseModel:
        return view_of(self, state, seat)


def rotate_text(side: str, yours_to: str, to_you: str) -> Text:
    """A Rotate's option: where the drawer's own Batch goes, and whose comes to them."""
    if side == "left":
        return t(
            "Every top Batch moves one seat to the left: yours to {name}, {other}'s to you.",
            name=yours_to,
            other=to_you,
        )
    return t(
        "Every top Batch moves one seat to the right: yours to {name}, {other}'s to you.",
        name=yours_to,
        other=to_you,
    )


def exchange_prompt(left: bool, giver: str | None) -> Text:
    """An Exchange's question to its drawer, with whom they take from (None: skipped)."""
    if giver is None:
        if left:
            return t("You drew Exchange: everyone takes cards from their left neighbour. How many?")
        return t("You drew Exchange: everyone takes cards from their right neighbour. How many?")
    if left:
        return t(
            "You drew Exchange: everyone takes cards from their left neighbour (you, from "
            "{name}). How many?",
            name=giver,
        )
    return t(
        "You drew Exchange: everyone takes cards from their right neighbour (you, from "
        "{name}). How many?",
        name=giver,
    )


def exchange_text(left: bool, count: int) -> Text:
    if left:
        return tn(
            "Everyone takes {n} card from their left neighbour.",
            "Everyone takes {n} cards from their left neighbour.",
            n=count,
        )
    return tn(
        "Everyone takes {n} card from their right neighbour.",
        "Everyone takes {n} cards from their right neighbour.",
        n=count,
    )


def exchanged_text(left: bool, count: int) -> Text:
    if left:
        return tn(
            "🔁 Everyone with three cards or more took {n} card from their left neighbour.",
            "🔁 Everyone with three cards or more took {n} cards from their left neighbour.",
            n=count,
        )
    return tn(
        "🔁 Everyone with three cards or more took {n} card from their right neighbour.",
        "🔁 Everyone with three cards or more took {n} cards from their right neighbour.",
        n=count,
    )
