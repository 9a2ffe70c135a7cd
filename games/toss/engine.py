"""Toss Your Cookies as a pure reducer: dice, simultaneous passing, the toss scramble.

A turn: the active player rolls; Swap is the roller's alone, Pass and Toss ask every player
at once (nothing moves until all have chosen), and a Toss opens a race for the cards in the
middle. The milk face moves the milk instead. Whoever holds five of one cookie (wilds
count) and the milk wins the round that moment, whoever's turn it is.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import ClassVar

from pydantic import BaseModel

from games.core.engine import Engine
from games.core.panels import Panels
from games.core.pictures import DrawnBy
from games.core.protocol import (
    Action,
    Decision,
    Event,
    IllegalAction,
    Option,
    Outcome,
    Placement,
    option,
)
from games.core.rng import rng_for
from games.core.text import Text, joined, t, tn
from games.toss import ai, picture, sightings
from games.toss.cards import HALF, MILK, WILD, TossCards, toss_cards
from games.toss.rules_text import HOW_TO_PLAY_HERE, QUICK_START, rules_text, rulings_text
from games.toss.scramble import Scrambling
from games.toss.search import TossSearch
from games.toss.state import BlindTake, Roll, TossOptions, TossState
from games.toss.view import FACES, number_face, panels, view_of

# What the cards that are not plain cookies do, shown under them in a select.
EFFECTS = {
    WILD: t("Counts as any cookie toward five of a kind."),
    HALF: t("Worth nothing: pass or toss it away."),
    MILK: t("Five of one cookie and the milk win the round."),
}


class TossYourCookies(DrawnBy, Scrambling, Engine[TossState, TossOptions]):
    key: ClassVar[str] = "toss_your_cookies"
    picture_module = picture
    name: ClassVar[str] = "Toss Your Cookies"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8
    quick_start: ClassVar[str] = QUICK_START
    options_model = TossOptions
    state_model = TossState
    # Random hands almost never hold five of a kind: the contract's random playouts let
    # the bot play most moves so that rounds end (see games/core/contract.py).
    contract_guide: ClassVar[float] = 0.8
    # Luck decides most of a round: easy must slip often to lose clearly to normal, and
    # still plays one move in seven as normal does (docs/benchmarks.md).
    easy_mistakes = 0.85
    search_kind = TossSearch

    def __init__(self, cards: TossCards | None = None) -> None:
        self.cards = cards or toss_cards()

    # --- set-up ----------------------------------------------------------------------
    def setup(self, options: TossOptions, players: Sequence[str], seed: int) -> TossState:
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(
                t(
                    "{game} needs {low} to {high} players.",
                    game=self.name,
                    low=self.min_players,
                    high=self.max_players,
                )
            )
        rng = rng_for(seed, 0, "setup")
        cookies = rng.sample([c.key for c in self.cards.cookies], len(players))
        first = rng.randrange(len(players))  # "the last player to eat a home-baked cookie"
        state = TossState(
            seed=seed,
            names=tuple(players),
            options=options,
            cookies=cookies,
            hands=[],
            first=first,
            turn=first,
            round_wins=[0] * len(players),
        )
        events = self.deal(state, rng)
        self.settle(state, events, rng)
        state.log = tuple(events)
        return state

    def deal(self, state: TossState, rng: random.Random) -> list[Event]:
        deck = self.cards.deck(len(state.names), state.cookies)
        rng.shuffle(deck)
        size = self.cards.hand_size
        state.hands = [self.cards.sort(deck[i * size : (i + 1) * size]) for i in self.seats(state)]
        sightings.forget_all(state)
        self.next_turn(state, state.first)
        # The English opens with view.DEALT: a hand's news stops at a new deal.
        text = t(
            "Round {round}: {name} rolls first.", round=state.round, name=state.names[state.first]
        )
        return [Event(text=text)]

    def hands_changed(self, before: TossState, after: TossState) -> set[int]:
        """Hands change on others' moves: a pass, a swap, a new deal (hands stay sorted)."""
        return {s for s in self.seats(after) if before.hands[s] != after.hands[s]}

    @staticmethod
    def seats(state: TossState) -> range:
        return range(len(state.names))

    # --- who decides what --------------------------------------------------------------
    def decisions(self, state: TossState) -> list[Decision]:
        if self.outcome(state) is not None:
            return []
        found = self.phase_decisions(state)
        if state.shouter is not None:
            found.append(
                Decision(
                    key=f"shout-{state.round}",
                    seat=state.shouter,
                    prompt=t("You hold five of a cookie and the milk!"),
                    options=(
                        option(
                            Action.of("shout"), t("Snickerdoodle!"), style="success", emoji="🥛"
                        ),
                    ),
                    optional=True,
                )
            )
        return found

    def phase_decisions(self, state: TossState) -> list[Decision]:
        key, turn, names = f"{state.phase}-{state.step}", state.turn, state.names
        match state.phase:
            case "roll":
                roll = Action.of("roll")
                return [
                    Decision(
                        key=key,
                        seat=turn,
                        prompt=t("Your turn: roll the dice."),
                        options=(option(roll, t("Roll the dice"), style="primary", emoji="🎲"),),
                        default=roll,
                    )
                ]
            case "swap_target":
                others = [s for s in self.seats(state) if s != turn]
                return [
                    Decision(
                        key=key,
                        seat=turn,
                        prompt=self.swap_prompt(state),
                        options=tuple(
                            option(
                                Action.of("swap_with", s),
                                t("Swap with {name}", name=names[s]),
                                group=t("Who"),
                            )
                            for s in others
                        ),
                        default=Action.of("swap_with", self.left_of(state, turn)),
                    )
                ]
            case "swap_give":
                assert state.target is not None
                return [
                    self.cards_decision(
                        state,
                        turn,
                        "give",
                        tn(
                            "Pick {n} card to give {name}.",
                            "Pick {n} cards to give {name}.",
                            n=state.count,
                            name=names[state.target],
                        ),
                    )
                ]
            case "choose":
                assert state.roll is not None
                verb = "toss" if state.roll.action == "toss" else "pass"
                prompt = self.choose_prompt(state, state.roll.action)
                return [
                    self.cards_decision(state, s, verb, prompt)
                    for s in self.seats(state)
                    if state.chosen[s] is None
                ]
            case "swap_take" | "milk_take":
                assert state.blind is not None
                return [self.blind_decision(state, key, state.blind)]
            case "scramble":
                return self.race_decisions(state, key)
        return []

    def swap_prompt(self, state: TossState) -> Text:
        if self.all_cards(state):
            return t("Swap all your cards: pick a player.")
        return tn("Swap {n} card: pick a player.", "Swap {n} cards: pick a player.", n=state.count)

    def choose_prompt(self, state: TossState, action: str) -> Text:
        """Everyone picks cards at once: how many, and what for."""
        n = state.count
        if self.all_cards(state):
            return {
                "left": t("Pick all your cards to pass to the left."),
                "right": t("Pick all your cards to pass to the right."),
            }.get(action, t("Pick all your cards to toss."))
        if action == "left":
            return tn(
                "Pick {n} card to pass to the left.", "Pick {n} cards to pass to the left.", n=n
            )
        if action == "right":
            return tn(
                "Pick {n} card to pass to the right.", "Pick {n} cards to pass to the right.", n=n
            )
        return tn("Pick {n} card to toss.", "Pick {n} cards to toss.", n=n)

    def cards_decision(self, state: TossState, seat: int, verb: str, prompt: Text) -> Decision:
        """Exactly ``count`` cards of one's own hand; "All" is a confirmation."""
        hand = state.hands[seat]
        default = ai.least_useful(self.cards, hand, state.count)
        if self.all_cards(state):
            every = Action.of(verb, "all")
            return Decision(
                key=f"{state.phase}-{state.step}",
                seat=seat,
                prompt=prompt,
                options=(option(every, self.all_label(verb, len(hand)), style="primary"),),
                default=every,
            )
        seen: Counter[str] = Counter()
        options = []
        for card in hand:
            seen[card] += 1
            options.append(self.card_option(verb, card, seen[card]))
        return Decision(
            key=f"{state.phase}-{state.step}",
            seat=seat,
            prompt=prompt,
            options=tuple(options),
            min_picks=state.count,
            max_picks=state.count,
            default=Action.of(verb, *default),
        )

    @staticmethod
    def all_label(verb: str, n: int) -> Text:
        """The one button of a roll of All: the whole hand goes."""
        if verb == "give":
            return tn("Give your {n} card", "Give all {n} cards", n=n)
        if verb == "toss":
            return tn("Toss your {n} card", "Toss all {n} cards", n=n)
        return tn("Pass your {n} card", "Pass all {n} cards", n=n)

    @cache  # noqa: B019 - engines live as long as the process; options are frozen values
    def card_option(self, verb: str, card: str, number: int) -> Option:
        """A card of one's hand to pick; identical cards are told apart by a number."""
        label = self.cards.label(card)
        if number > 1:
            label = t("{card} ({number})", card=label, number=number)
        return option(Action.of(verb, card), label, description=EFFECTS.get(card, ""))

    @cache  # noqa: B019
    def place_option(self, place: int) -> Option:
        return option(
            Action.of("take", place),
            t("Face-down card {n}", n=place + 1),
            group=t("Face down"),
        )

    def blind_decision(self, state: TossState, key: str, blind: BlindTake) -> Decision:
        size = len(state.hands[blind.source])
        return Decision(
            key=key,
            seat=blind.taker,
            prompt=tn(
                "Take {n} card from {name}'s hand without looking (they are shuffled).",
                "Take {n} cards from {name}'s hand without looking (they are shuffled).",
                n=blind.count,
                name=state.names[blind.source],
            ),
            options=tuple(self.place_option(i) for i in range(size)),
            min_picks=blind.count,
            max_picks=blind.count,
            default=Action.of("take", *range(blind.count)),
        )

    # --- moves -----------------------------------------------------------------------
    def play(self, state: TossState, seat: int, action: Action, rng: random.Random) -> list[Event]:
        events: list[Event] = []
        match action.kind, state.phase:
            case "roll", "roll":
                self.roll_dice(state, events, rng)
            case "swap_with", "swap_target":
                self.swap_with(state, self.seat_arg(state, action), events)
            case "give", "swap_give":
                state.given = self.pick_from_hand(state, seat, action)
                state.blind = BlindTake(taker=seat, source=self.target(state), count=state.count)
                self.open(state, "swap_take")
            case (("pass" | "toss"), "choose"):
                self.choose_cards(state, seat, action, events)
            case "take", ("swap_take" | "milk_take"):
                self.take_blindly(state, action, events, rng)
            case "grab", "scramble":
                self.grab(state, seat, self.one_arg(action), events)
            case "close", "scramble":
                self.close_scramble(state, events, rng)
            case "shout", _ if state.shouter == seat:
                self.win_round(state, seat, events, rng)
                return events
            case _:
                raise IllegalAction(t("That move is not allowed right now."))
        self.settle(state, events, rng)
        return events

    def throw(self, rng: random.Random) -> Roll:
        """Both dice; every face equally likely (data/toss_your_cookies.toml)."""
        dice = self.cards.dice
        return Roll(action=rng.choice(dice.action), number=rng.choice(dice.number))

    def roll_dice(self, state: TossState, events: list[Event], rng: random.Random) -> None:
        roll = self.throw(rng)
        state.roll = roll
        # The English opens with view.ROLLED: a hand's news counts the rolls.
        text = t(
            "🎲 {name} rolled {face} · {number}.",
            name=state.names[state.turn],
            face=FACES[roll.action],
            number=number_face(roll),
        )
        events.append(Event(text=text))
        if roll.milk:
            self.move_the_milk(state, roll, events)
            return
        state.count = self.cards.hand_size if roll.number == "all" else int(roll.number)
        if roll.action == "swap":
            self.open(state, "swap_target")
        else:
            state.chosen = [None] * len(state.names)
            self.open(state, "choose")

    def move_the_milk(self, state: TossState, roll: Roll, events: list[Event]) -> None:
        """The milk face: its holder passes, swaps or tosses it, and takes a card back."""
        holder = self.milk_holder(state)
        name = state.names[holder]
        if roll.action == "toss":
            self.toss_the_milk(state, holder)
            events.append(
                Event(text=t("🥛 {name} tosses the milk! Everyone else: grab it!", name=name))
            )
            return
        if roll.action == "swap":
            receiver = state.turn
            if receiver == holder:
                sightings.saw_milk(state, holder)
                events.append(
                    Event(text=t("{name} already holds the milk: nothing happens.", name=name))
                )
                self.end_turn(state)
                return
        else:
            step = 1 if roll.action == "left" else -1
            receiver = (holder + step) % len(state.names)
        state.hands[holder].remove(MILK)
        state.blind = BlindTake(taker=holder, source=receiver, milk_to_source=True)
        self.open(state, "milk_take")
        events.append(
            Event(
                text=t(
                    "🥛 {name} hands the milk to {other}, taking a card from their hand "
                    "without looking first.",
                    name=name,
                    other=state.names[receiver],
                )
            )
        )

    def swap_with(self, state: TossState, target: int, events: list[Event]) -> None:
        if target == state.turn:
            raise IllegalAction(t("Pick another player to swap with."))
        state.target = target
        me, them = state.names[state.turn], state.names[target]
        if not self.all_cards(state):
            self.open(state, "swap_give")
            return
        # Swap All: give your whole hand and take theirs, which is all of it.
        hands = state.hands
        hands[state.turn], hands[target] = hands[target], hands[state.turn]
        sightings.hands_moved(state, {state.turn: target, target: state.turn})
        events.append(
            Event(text=t("🔄 {name} and {other} swap their whole hands.", name=me, other=them))
        )
        self.end_turn(state)

    def choose_cards(
        self, state: TossState, seat: int, action: Action, events: list[Event]
    ) -> None:
        """One player's secret pick; when the last one has picked, everything moves."""
        if state.chosen[seat] is not None:
            raise IllegalAction(t("You have already chosen your cards."))
        picked = self.pick_from_hand(state, seat, action)
        state.chosen[seat] = picked
        # The English opens with view.PICKED: the hand's "Your pick" shows it instead.
        events.append(
            Event(
                text=t("You chose {cards}.", cards=self.cards.labels(picked)),
                visible_to=frozenset({seat}),
            )
        )
        if any(c is None for c in state.chosen):
            return
        chosen = [c or [] for c in state.chosen]
        state.chosen = []
        assert state.roll is not None
        if state.roll.action == "toss":
            self.open_scramble(state, chosen)
            middle = self.cards.labels(self.middle(state))
            events.append(Event(text=t("🤾 Toss! In the middle: {cards}.", cards=middle)))
            return
        step = 1 if state.roll.action == "left" else -1
        self.pass_cards(state, chosen, step, events)
        if self.all_cards(state):
            sightings.hands_moved(
                state, {s: (s + step) % len(state.names) for s in self.seats(state)}
            )
        self.end_turn(state)

    def pass_cards(
        self, state: TossState, chosen: list[list[str]], step: int, events: list[Event]
    ) -> None:
        """Everyone's picks move together to the neighbour on that side."""
        n = len(state.names)
        events.append(Event(text=self.passing_text(state, step)))
        for seat in self.seats(state):
            to, source = (seat + step) % n, (seat - step) % n
            state.hands[to] = self.cards.sort([*state.hands[to], *chosen[seat]])
            events.append(
                Event(
                    text=t(
                        "You passed {cards} to {name} and got {got} from {other}.",
                        cards=self.cards.labels(chosen[seat]),
                        name=state.names[to],
                        got=self.cards.labels(chosen[source]),
                        other=state.names[source],
                    ),
                    visible_to=frozenset({seat}),
                )
            )

    def take_blindly(
        self, state: TossState, action: Action, events: list[Event], rng: random.Random
    ) -> None:
        """Positions in a freshly shuffled order: the taker cannot know what they pick."""
        blind = state.blind
        assert blind is not None
        source = state.hands[blind.source]
        try:
            positions = [int(a) for a in action.args]
        except ValueError:
            raise IllegalAction(t("Pick face-down cards by their place.")) from None
        if len(set(positions)) != blind.count or not all(0 <= p < len(source) for p in positions):
            raise IllegalAction(
                tn(
                    "Pick exactly {n} different face-down card.",
                    "Pick exactly {n} different face-down cards.",
                    n=blind.count,
                )
            )
        shuffled = rng.sample(source, len(source))
        taken = [shuffled[p] for p in positions]
        for card in taken:
            source.remove(card)
        taker, giver = state.names[blind.taker], state.names[blind.source]
        state.hands[blind.taker] = self.cards.sort([*state.hands[blind.taker], *taken])
        events += [
            Event(
                text=tn(
                    "🙈 {name} takes {n} card from {other} without looking.",
                    "🙈 {name} takes {n} cards from {other} without looking.",
                    n=len(taken),
                    name=taker,
                    other=giver,
                )
            ),
            Event(
                text=t("You took {cards} from {name}.", cards=self.cards.labels(taken), name=giver),
                visible_to=frozenset({blind.taker}),
            ),
            Event(
                text=t(
                    "{name} took {cards} from your hand.",
                    name=taker,
                    cards=self.cards.labels(taken),
                ),
                visible_to=frozenset({blind.source}),
            ),
        ]
        if blind.milk_to_source:
            source.append(MILK)
            sightings.saw_milk(state, blind.source)
            events.append(Event(text=t("🥛 {name} now holds the milk.", name=giver)))
        else:  # a Swap: the roller's cards, lying in front of the target, join their hand
            source.extend(state.given)
            if state.milk_seen == blind.source:  # the taker may have drawn it: only they know
                sightings.saw_milk(state, None)
            events.append(
                Event(
                    text=t(
                        "{name} gave you {cards}.", name=taker, cards=self.cards.labels(state.given)
                    ),
                    visible_to=frozenset({blind.source}),
                )
            )
        state.hands[blind.source] = self.cards.sort(source)
        self.end_turn(state)

    # --- winning -----------------------------------------------------------------------
    def settle(self, state: TossState, events: list[Event], rng: random.Random) -> None:
        """Snickerdoodle! The moment a hand wins, whoever's turn it is (or, under the
        must-shout rule, the moment its holder may shout)."""
        holder = next((s for s in self.seats(state) if self.cards.wins(state.hands[s])), None)
        if state.options.must_shout:
            state.shouter = holder
        elif holder is not None:
            self.win_round(state, holder, events, rng)

    def win_round(
        self, state: TossState, seat: int, events: list[Event], rng: random.Random
    ) -> None:
        state.round_wins[seat] += 1
        state.winners.append(seat)
        state.shouter = None
        events.append(
            Event(
                text=t(
                    "🥛 Snickerdoodle! {name} wins round {round} with {cards}.",
                    name=state.names[seat],
                    round=state.round,
                    cards=self.cards.labels(state.hands[seat]),
                )
            )
        )
        if self.outcome(state) is not None:
            return
        state.round += 1
        state.first = self.left_of(state, state.first)
        events += self.deal(state, rng)
        self.settle(state, events, rng)

    def needed(self, state: TossState) -> int:
        """ "First player to win a majority of rounds wins the game": a majority of the rounds
        set (2 of 3, 3 of 5). When the set rounds pass without one (three winners in a best
        of three), play goes on a round at a time until someone has that many."""
        return int(state.options.rounds) // 2 + 1

    def outcome(self, state: TossState) -> Outcome | None:
        if max(state.round_wins) < self.needed(state):
            return None
        best = max(range(len(state.names)), key=lambda s: state.round_wins[s])
        rounds = int(state.options.rounds)
        played = len(state.winners)
        name, wins = state.names[best], state.round_wins[best]
        reason = (
            t("{name} collected five of a cookie and the milk.", name=name)
            if rounds == 1
            else t("{name} won {wins} of {rounds} rounds.", name=name, wins=wins, rounds=rounds)
            if played <= rounds
            else t(
                "{name} was first to win {wins} rounds, in round {played} (best of {rounds}).",
                name=name,
                wins=wins,
                played=played,
                rounds=rounds,
            )
        )
        return Outcome.ranked(state.round_wins, reason)

    def score_text(self, state: TossState, placement: Placement) -> str:
        return f"🏆 {placement.score}" if int(state.options.rounds) > 1 else ""

    # --- small helpers ------------------------------------------------------------------
    def open(self, state: TossState, phase: str) -> None:
        state.phase = phase  # type: ignore[assignment]
        state.step += 1

    def next_turn(self, state: TossState, seat: int) -> None:
        state.turn = seat
        state.roll, state.count, state.chosen = None, 0, []
        state.target, state.given, state.scramble, state.blind = None, [], None, None
        self.open(state, "roll")

    def end_turn(self, state: TossState) -> None:
        self.next_turn(state, self.left_of(state, state.turn))

    @staticmethod
    def left_of(state: TossState, seat: int) -> int:
        return (seat + 1) % len(state.names)

    @staticmethod
    def all_cards(state: TossState) -> bool:
        return state.roll is not None and state.roll.number == "all"

    def passing_text(self, state: TossState, step: int) -> Text:
        """The public line of a pass: how many cards, which way."""
        if self.all_cards(state):
            if step == 1:
                return t("➡️ Everyone passes all their cards to the left.")
            return t("➡️ Everyone passes all their cards to the right.")
        if step == 1:
            return tn(
                "➡️ Everyone passes {n} card to the left.",
                "➡️ Everyone passes {n} cards to the left.",
                n=state.count,
            )
        return tn(
            "➡️ Everyone passes {n} card to the right.",
            "➡️ Everyone passes {n} cards to the right.",
            n=state.count,
        )

    @staticmethod
    def milk_holder(state: TossState) -> int:
        return next(s for s, hand in enumerate(state.hands) if MILK in hand)

    @staticmethod
    def target(state: TossState) -> int:
        assert state.target is not None
        return state.target

    def pick_from_hand(self, state: TossState, seat: int, action: Action) -> list[str]:
        """The cards an action names, checked against the hand, taken out of it."""
        hand = state.hands[seat]
        picked = (
            list(hand) if action.args == ("all",) and self.all_cards(state) else list(action.args)
        )
        if len(picked) != state.count and not self.all_cards(state):
            raise IllegalAction(
                tn("Pick exactly {n} card.", "Pick exactly {n} cards.", n=state.count)
            )
        if Counter(picked) - Counter(hand):
            raise IllegalAction(t("You can only pick cards from your own hand."))
        for card in picked:
            hand.remove(card)
        return self.cards.sort(picked)

    @staticmethod
    def seat_arg(state: TossState, action: Action) -> int:
        if len(action.args) != 1 or not action.args[0].isdigit():
            raise IllegalAction(t("Pick a player."))
        seat = int(action.args[0])
        if seat >= len(state.names):
            raise IllegalAction(t("Pick a player at this table."))
        return seat

    @staticmethod
    def one_arg(action: Action) -> str:
        if len(action.args) != 1:
            raise IllegalAction(t("Pick one card."))
        return action.args[0]

    # --- views, bots, text ---------------------------------------------------------------
    def view(self, state: TossState, seat: int | None) -> BaseModel:
        return view_of(self, state, seat)

    def panels(self, view: BaseModel) -> Panels:
        return panels(self, view)  # type: ignore[arg-type]

    def picture_source(self) -> object:
        return self.cards

    def choose(self, view: BaseModel, decision: Decision) -> Action:
        hand: list[str] = getattr(view, "hand", None) or []
        first = decision.options[0].action
        if decision.max_picks > 1:
            if first.kind == "take":
                return decision.pick(decision.options[: decision.min_picks])
            return Action.of(first.kind, *ai.least_useful(self.cards, hand, decision.min_picks))
        if first.kind == "grab":
            middle: list[str] = getattr(view, "middle", None) or []
            return Action.of("grab", ai.best_grab(self.cards, hand, middle))
        if first.kind in ("pass", "toss", "give") and first.args != ("all",):
            return Action.of(first.kind, *ai.least_useful(self.cards, hand, 1))
        return first  # roll, the first player to swap with, "all", a blind card, shout

    def why_illegal(self, state: TossState, seat: int, action: Action) -> Text:
        if action.kind == "grab" and state.phase == "scramble":
            card = action.args[0] if action.args else ""
            if state.scramble is not None and card not in state.scramble.middle:
                return self.too_slow(state, card)
            return t("You have grabbed all the cards you may.")
        return t("That move is not allowed right now.")

    def rulebook(self, options: TossOptions | None = None) -> Text:
        return joined((self.rules_text(options), self.rulings_text(options)), "\n")

    def rules_text(self, options: TossOptions | None = None) -> Text:
        # Kept apart from our rulings as separate messages, not cut out of English text.
        return joined((HOW_TO_PLAY_HERE, rules_text(self.cards), "\n"), "")

    def rulings_text(self, options: TossOptions | None = None) -> Text:
        return rulings_text()

    def scramble_hidden(self, state: TossState, seat: int | None, rng: random.Random) -> TossState:
        """Deal every card this seat cannot see (others' hands and secret picks) anew."""
        twin = self.state_model.model_validate(state.model_dump())
        others = [s for s in self.seats(state) if s != seat]
        hidden = [c for s in others for c in twin.hands[s]]
        picks = [s for s in others if twin.chosen and twin.chosen[s] is not None]
        hidden += [c for s in picks for c in twin.chosen[s] or []]
        # sorted first: who really holds which card must not shape the re-deal (the search
        # deals its worlds with this)
        hidden.sort()
        rng.shuffle(hidden)
        for s in others:
            size = len(twin.hands[s])
            twin.hands[s], hidden = self.cards.sort(hidden[:size]), hidden[size:]
        for s in picks:
            size = len(twin.chosen[s] or [])
            twin.chosen[s], hidden = self.cards.sort(hidden[:size]), hidden[size:]
        return twin
