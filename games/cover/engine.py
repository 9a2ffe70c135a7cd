"""Cover Your Assets, classic rules for 4 to 6 players, as a pure reducer.

Functions are named for the rulebook's moves: form a set, discard, challenge, defend, draw
back to five, end the round, end the game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel

from games.core.cards import Catalogue, load_catalogue
from games.core.engine import Engine
from games.core.panels import Panels
from games.core.protocol import Action, Decision, Event, IllegalAction, Option, Outcome, option
from games.cover.state import (
    Battle,
    CoverOptions,
    CoverSet,
    CoverState,
    Player,
    RoundResult,
)

MILLION = 1_000_000


def money(amount: int) -> str:
    return f"${amount:,}"


class CoverYourAssets(Engine[CoverState, CoverOptions]):
    key = "cover_your_assets"
    name = "Cover Your Assets"
    min_players = 4
    max_players = 6
    options_model = CoverOptions
    state_model = CoverState
    hand_size = 5

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        self.cards = catalogue or load_catalogue(self.key)

    # --- card vocabulary ---------------------------------------------------------------
    def label(self, card: str) -> str:
        return self.cards[card].label

    def is_wild(self, card: str) -> bool:
        return card in self.cards.wilds

    def matches(self, card: str, asset: str) -> bool:
        """Assets and wilds are of equal power for stealing and defending."""
        return card == asset or self.is_wild(card)

    def can_pair(self, a: str, b: str) -> bool:
        """A pair: two identical assets, or an asset and a wild. Never two wilds."""
        if self.is_wild(a) and self.is_wild(b):
            return False
        return a == b or self.is_wild(a) or self.is_wild(b)

    def make_set(self, a: str, b: str) -> CoverSet:
        asset = b if self.is_wild(a) else a
        return CoverSet(asset=asset, cards=self.wilds_below([a, b]))

    def wilds_below(self, cards: list[str]) -> list[str]:
        return sorted(cards, key=lambda c: (not self.is_wild(c), self.cards.order(c)))

    def set_value(self, cover_set: CoverSet) -> int:
        return self.cards.value_of(cover_set.cards)

    def stack_value(self, player: Player) -> int:
        return sum(self.set_value(s) for s in player.stack)

    # --- set-up ------------------------------------------------------------------------
    def setup(self, options: CoverOptions, players: Sequence[str], seed: int) -> CoverState:
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(
                f"{self.name} takes {self.min_players} to {self.max_players} players."
            )
        rng = random.Random(f"{seed}:setup")
        n = len(players)
        state = CoverState(
            seed=seed,
            names=tuple(players),
            options=options,
            dealer=rng.randrange(n),
            turn=0,
            deck=[],
            discard=[],
            players=[Player() for _ in players],
            totals=[0] * n,
            round_wins=[0] * n,
        )
        self.deal_round(state, rng)
        return state

    def deal_round(self, state: CoverState, rng: random.Random) -> None:
        """Shuffle, deal five each, flip one to start the discard pile; left of dealer starts."""
        deck = self.cards.deck()
        rng.shuffle(deck)
        state.deck = deck
        for player in state.players:
            player.stack = []
            player.hand = self.cards.sort(state.deck.pop() for _ in range(self.hand_size))
        state.discard = [state.deck.pop()]
        state.battle = None
        state.to_draw_after_turn = []
        state.turn = (state.dealer + 1) % len(state.players)

    # --- who decides what --------------------------------------------------------------
    def decisions(self, state: CoverState) -> list[Decision]:
        if state.end_reason is not None:
            return []
        if state.battle is not None:
            return [self.answer_decision(state, state.battle)]
        return [self.turn_decision(state)]

    def turn_decision(self, state: CoverState) -> Decision:
        seat = state.turn
        hand = state.players[seat].hand
        options = [*self.set_options(state, hand), *self.challenge_options(state, seat, hand)]
        options += [
            option(
                Action.of("discard", card),
                label=f"Discard {self.label(card)}",
                group="Discard",
            )
            for card in dict.fromkeys(hand)
        ]
        cheapest = min(hand, key=lambda c: (self.cards[c].value, self.cards.order(c)))
        return Decision(
            key=f"turn-{state.round}-{state.version}",
            seat=seat,
            prompt="Your turn: form a set, challenge a top set, or discard.",
            options=tuple(options),
            default=Action.of("discard", cheapest),
        )

    def set_options(self, state: CoverState, hand: list[str]) -> list[Option]:
        options: list[Option] = []
        kinds = list(dict.fromkeys(hand))
        counts = Counter(hand)
        for i, a in enumerate(kinds):
            for b in kinds[i:]:
                if (a != b or counts[a] >= 2) and self.can_pair(a, b):
                    low, high = self.wilds_below([a, b])
                    options.append(
                        option(
                            Action.of("pair", high, low),
                            label=f"Set: {self.label(high)} + {self.label(low)}",
                            group="Form a set",
                            style="success",
                        )
                    )
        if state.discard:
            top = state.discard[-1]
            for card in kinds:
                if self.can_pair(card, top):
                    options.append(
                        option(
                            Action.of("take", card),
                            label=f"Set: {self.label(card)} + discard {self.label(top)}",
                            group="Form a set",
                            style="success",
                        )
                    )
        return options

    def challenge_options(self, state: CoverState, seat: int, hand: list[str]) -> list[Option]:
        if not state.players[seat].stack:
            return []  # you must form at least one set before stealing
        options: list[Option] = []
        for target in self.challengeable(state, seat):
            top = state.players[target].stack[-1]
            for card in dict.fromkeys(hand):
                if self.matches(card, top.asset):
                    options.append(
                        option(
                            Action.of("challenge", target, card),
                            label=f"Challenge {state.names[target]}'s {self.cards[top.asset].name} "
                            f"with {self.label(card)}",
                            group="Challenge",
                            style="danger",
                        )
                    )
        return options

    def challengeable(self, state: CoverState, seat: int) -> list[int]:
        """Opponents whose top set is not their first (bottom) set, which is safe."""
        return [
            other
            for other, player in enumerate(state.players)
            if other != seat and len(player.stack) >= 2
        ]

    def answer_decision(self, state: CoverState, battle: Battle) -> Decision:
        seat = battle.to_answer
        hand = state.players[seat].hand
        last_seat, last_card = battle.played[-1]
        asset = self.cards[battle.asset].name
        if seat == battle.defender:
            prompt = (
                f"{state.names[last_seat]} challenges your {asset} set with "
                f"{self.label(last_card)}. Defend it, or let it go?"
            )
            give_up = "Let it go"
        else:
            prompt = (
                f"{state.names[last_seat]} defended the {asset} set with "
                f"{self.label(last_card)}. Challenge again, or give up?"
            )
            give_up = "Give up"
        options = [
            option(
                Action.of("counter", card),
                label=f"Play {self.label(card)}",
                group="Answer",
                style="primary",
            )
            for card in dict.fromkeys(hand)
            if self.matches(card, battle.asset)
        ]
        options.append(
            option(Action.of("concede"), label=give_up, group="Answer", style="secondary")
        )
        return Decision(
            key=f"answer-{state.round}-{state.version}",
            seat=seat,
            prompt=prompt,
            options=tuple(options),
            default=Action.of("concede"),
        )

    # --- moves -------------------------------------------------------------------------
    def play(self, state: CoverState, seat: int, action: Action, rng: random.Random) -> list[Event]:
        events: list[Event] = []
        match action.kind:
            case "pair":
                self.form_set_from_hand(state, seat, *action.args, events=events)
            case "take":
                self.form_set_with_discard(state, seat, action.args[0], events)
            case "discard":
                self.discard(state, seat, action.args[0], events)
            case "challenge":
                self.challenge(state, seat, int(action.args[0]), action.args[1], events)
            case "counter":
                self.counter(state, seat, action.args[0], events)
            case "concede":
                self.concede(state, seat, events)
            case _:
                raise IllegalAction("That move is not part of this game.")
        if state.battle is None:  # a challenge holds the turn open until it is settled
            self.end_turn(state, events, rng)
        return events

    def form_set_from_hand(
        self, state: CoverState, seat: int, a: str, b: str, events: list[Event]
    ) -> None:
        player = state.players[seat]
        take_from_hand(player, a)
        take_from_hand(player, b)
        self.add_set(state, seat, self.make_set(a, b), events, how="")

    def form_set_with_discard(
        self, state: CoverState, seat: int, card: str, events: list[Event]
    ) -> None:
        take_from_hand(state.players[seat], card)
        top = state.discard.pop()
        self.add_set(state, seat, self.make_set(card, top), events, how=" with the discard")

    def add_set(
        self, state: CoverState, seat: int, new: CoverSet, events: list[Event], how: str
    ) -> None:
        """New sets go on top and are never combined with earlier sets of the same asset."""
        state.players[seat].stack.append(new)
        cards = " + ".join(self.label(c) for c in reversed(new.cards))
        events.append(Event(text=f"{state.names[seat]} formed a set{how}: {cards}."))

    def discard(self, state: CoverState, seat: int, card: str, events: list[Event]) -> None:
        take_from_hand(state.players[seat], card)
        state.discard.append(card)
        events.append(Event(text=f"{state.names[seat]} discarded {self.label(card)}."))

    def challenge(
        self, state: CoverState, seat: int, target: int, card: str, events: list[Event]
    ) -> None:
        take_from_hand(state.players[seat], card)
        asset = state.players[target].stack[-1].asset
        state.battle = Battle(
            challenger=seat, defender=target, asset=asset, played=[(seat, card)], to_answer=target
        )
        events.append(
            Event(
                text=f"⚔️ {state.names[seat]} challenged {state.names[target]}'s "
                f"{self.cards[asset].name} set with {self.label(card)}."
            )
        )
        self.settle_if_unanswerable(state, events)

    def counter(self, state: CoverState, seat: int, card: str, events: list[Event]) -> None:
        battle = state.battle
        assert battle is not None
        take_from_hand(state.players[seat], card)
        battle.played.append((seat, card))
        verb = "defended with" if seat == battle.defender else "challenged again with"
        events.append(Event(text=f"{state.names[seat]} {verb} {self.label(card)}."))
        battle.to_answer = battle.challenger if seat == battle.defender else battle.defender
        self.settle_if_unanswerable(state, events)

    def settle_if_unanswerable(self, state: CoverState, events: list[Event]) -> None:
        """A side that holds no matching card cannot respond, and so loses at once."""
        battle = state.battle
        assert battle is not None
        hand = state.players[battle.to_answer].hand
        if not any(self.matches(card, battle.asset) for card in hand):
            events.append(Event(text=f"{state.names[battle.to_answer]} cannot answer."))
            self.win_battle(state, self.other_side(battle, battle.to_answer), events)

    def concede(self, state: CoverState, seat: int, events: list[Event]) -> None:
        battle = state.battle
        assert battle is not None
        word = "let the set go" if seat == battle.defender else "gave up the challenge"
        events.append(Event(text=f"{state.names[seat]} {word}."))
        self.win_battle(state, self.other_side(battle, seat), events)

    @staticmethod
    def other_side(battle: Battle, seat: int) -> int:
        return battle.challenger if seat == battle.defender else battle.defender

    def win_battle(self, state: CoverState, winner: int, events: list[Event]) -> None:
        """The winner keeps every card used in the battle, wilds placed below assets."""
        battle = state.battle
        assert battle is not None
        defender = state.players[battle.defender]
        prize = defender.stack.pop()
        prize.cards = self.wilds_below(prize.cards + [card for _, card in battle.played])
        state.players[winner].stack.append(prize)
        if battle.defender_played:
            state.to_draw_after_turn.append(battle.defender)
        state.battle = None
        verb = "stole" if winner == battle.challenger else "kept"
        events.append(
            Event(
                text=f"{state.names[winner]} {verb} the "
                f"{self.cards[prize.asset].name} set "
                f"({len(prize.cards)} cards, {money(self.set_value(prize))})."
            )
        )

    # --- end of a turn, a round, a game ------------------------------------------------
    def end_turn(self, state: CoverState, events: list[Event], rng: random.Random) -> None:
        """Draw back to five; then any defender who used cards draws; the left player goes."""
        self.draw_to_hand_size(state, state.turn, events)
        for seat in state.to_draw_after_turn:
            self.draw_to_hand_size(state, seat, events)
        state.to_draw_after_turn = []
        if not state.deck and not any(p.hand for p in state.players):
            self.end_round(state, events, rng)
            return
        state.turn = self.next_player(state, state.turn)

    def draw_to_hand_size(self, state: CoverState, seat: int, events: list[Event]) -> None:
        player = state.players[seat]
        need = max(0, self.hand_size - len(player.hand))
        drawn = [state.deck.pop() for _ in range(min(need, len(state.deck)))]
        if not drawn:
            return
        player.hand = self.cards.sort(player.hand + drawn)
        events.append(Event(text=f"{state.names[seat]} drew {plural(len(drawn), 'card')}."))
        events.append(
            Event(
                text=f"You drew {', '.join(self.label(c) for c in drawn)}.",
                visible_to=frozenset({seat}),
            )
        )

    @staticmethod
    def next_player(state: CoverState, seat: int) -> int:
        """The player to the left; once the deck is gone, players with empty hands sit out."""
        n = len(state.players)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if state.players[candidate].hand:
                return candidate
        return seat

    def end_round(self, state: CoverState, events: list[Event], rng: random.Random) -> None:
        scores = [self.stack_value(p) for p in state.players]
        best = max(scores)
        winners = [seat for seat, score in enumerate(scores) if score == best]
        state.rounds.append(RoundResult(number=state.round, scores=scores, winners=winners))
        for seat, score in enumerate(scores):
            state.totals[seat] += score
        for seat in winners:
            state.round_wins[seat] += 1
        ranking = ", ".join(
            f"{state.names[s]} {money(scores[s])}"
            for s in sorted(range(len(scores)), key=lambda s: -scores[s])
        )
        events.append(Event(text=f"🏁 Round {state.round} is over: {ranking}."))
        state.end_reason = self.game_end_reason(state)
        if state.end_reason is not None:
            events.append(Event(text=f"🏆 {state.end_reason}"))
            return
        state.round += 1
        state.dealer = (state.dealer + 1) % len(state.players)
        self.deal_round(state, rng)
        events.append(
            Event(text=f"Round {state.round} is dealt; {state.names[state.turn]} goes first.")
        )

    def game_end_reason(self, state: CoverState) -> str | None:
        names = state.names

        def leaders(values: Sequence[int]) -> list[str]:
            return [names[s] for s, v in enumerate(values) if v == max(values)]

        match state.options.end_mode:
            case "quick":
                return f"Quick game: {join_names(leaders(state.totals))} scored highest."
            case "classic":
                if max(state.totals) < MILLION:
                    return None
                return (
                    f"{join_names(leaders(state.totals))} passed {money(MILLION)} with "
                    f"{money(max(state.totals))}."
                )
            case "highest_after_3":
                if state.round < 3:
                    return None
                return (
                    f"After 3 rounds, {join_names(leaders(state.totals))} has the highest "
                    f"total: {money(max(state.totals))}."
                )
            case "first_to_2":
                if max(state.round_wins) < 2:
                    return None
                keys = self.ranking_keys(state)
                first = [names[s] for s, k in enumerate(keys) if k == max(keys)]
                return f"{join_names(first)} won 2 rounds first."
        return None

    def ranking_keys(self, state: CoverState) -> list[tuple[int, ...]]:
        if state.options.end_mode == "first_to_2":
            # Several players can reach two wins in the same round: total money breaks the tie.
            return list(zip(state.round_wins, state.totals, strict=True))
        return [(t,) for t in state.totals]

    def outcome(self, state: CoverState) -> Outcome | None:
        if state.end_reason is None:
            return None
        return Outcome.ranked(state.totals, state.end_reason, keys=self.ranking_keys(state))

    # --- what players see --------------------------------------------------------------
    def view(self, state: CoverState, seat: int | None) -> BaseModel:
        from games.cover.view import view_of

        return view_of(self, state, seat)

    def panels(self, view: BaseModel) -> Panels:
        from games.cover.view import panels_of

        return panels_of(self, view)  # type: ignore[arg-type]

    def scramble_hidden(
        self, state: CoverState, seat: int | None, rng: random.Random
    ) -> CoverState:
        twin = self.state_model.model_validate(state.model_dump())
        twin.seed = rng.getrandbits(63)
        others = [p for i, p in enumerate(twin.players) if i != seat]
        pool = twin.deck + [card for p in others for card in p.hand]
        rng.shuffle(pool)
        twin.deck, pool = pool[: len(twin.deck)], pool[len(twin.deck) :]
        for player in others:
            player.hand, pool = self.cards.sort(pool[: len(player.hand)]), pool[len(player.hand) :]
        return twin

    def choose(self, view: BaseModel, decision: Decision) -> Action:
        from games.cover.ai import choose

        return choose(self, view, decision)  # type: ignore[arg-type]

    def rules_text(self, options: CoverOptions | None = None) -> str:
        from games.cover.rules_text import RULES

        return RULES

    def why_illegal(self, state: CoverState, seat: int, action: Action) -> str:
        hand = state.players[seat].hand
        cards = [a for a in action.args if a in self.cards]
        missing = [c for c in cards if c not in hand]
        if action.kind in {"pair", "take", "discard", "challenge", "counter"} and missing:
            return f"You don't hold {self.label(missing[0])}."
        if action.kind == "pair" and len(cards) == 2 and not self.can_pair(*cards):
            return "A set is two identical assets, or an asset and a wild, never two wilds."
        if action.kind == "challenge" and not state.players[seat].stack:
            return "You must form at least one set before you can challenge."
        if action.kind == "challenge":
            return "You can only challenge a top set that is not the bottom set, with a match."
        if state.battle is not None and action.kind in {"pair", "take", "discard"}:
            return "A challenge is under way: answer it first."
        return "That move is not allowed right now."


def take_from_hand(player: Player, card: str) -> None:
    try:
        player.hand.remove(card)
    except ValueError:
        raise IllegalAction("You don't hold that card.") from None


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def join_names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
