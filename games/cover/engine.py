"""Cover Your Assets as a pure reducer: classic rules, and each advanced rule as a switch.

Functions are named for the rulebook's moves: form a set, discard, challenge (battle.py),
improve a set, play Swap or Move, draw back to your hand size, end the round, end the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cached_property

from pydantic import BaseModel

from games.core.cards import Catalogue, load_catalogue
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
from games.core.text import Names, Text, joined, t, tc, tn
from games.cover import ai, picture
from games.cover.battle import take_card
from games.cover.cards import move_label, move_set, moved_text, swap_top_sets
from games.cover.draft import TWO_PLAYER_REMOVALS, Drafting
from games.cover.rules_layout import blocks
from games.cover.rules_text import HOW_TO_PLAY_HERE, QUICK_START, RULES, RULINGS
from games.cover.search import AssetsSearch
from games.cover.state import CoverOptions, CoverSet, CoverState, Player, RoundResult
from games.cover.view import panels_of, view_of

MILLION = 1_000_000


MOVE_TEXT = t("Move card: a top set goes to the bottom of its stack, or the bottom set to the top.")


class CoverYourAssets(DrawnBy, Drafting, Engine[CoverState, CoverOptions]):
    key = "cover_your_assets"
    picture_module = picture
    name = "Cover Your Assets"
    min_players = 2
    max_players = 6
    quick_start = QUICK_START
    how_to_play_here = HOW_TO_PLAY_HERE
    rules_blocks = RULES
    rulings = RULINGS
    options_model = CoverOptions
    state_model = CoverState
    search_kind = AssetsSearch

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        super().__init__(catalogue or load_catalogue(self.key))

    @staticmethod
    def hand_size(state: CoverState) -> int:
        return 6 if state.options.hand_of_six or len(state.players) == 2 else 5

    # --- set-up ------------------------------------------------------------------------
    def setup(self, options: CoverOptions, players: Sequence[str], seed: int) -> CoverState:
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(
                t(
                    "{game} takes {low} to {high} players.",
                    game=self.name,
                    low=self.min_players,
                    high=self.max_players,
                )
            )
        rng = random.Random(f"{seed}:setup")
        n = len(players)
        state = self.state_model(
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
        """Shuffle, deal a hand each, flip one to start the discard pile; left of dealer starts.

        With two or three players the three draft piles are dealt first; two players also
        leave out the eight Cabins, two Silver and a Gold.
        """
        two = len(state.players) == 2
        deck = self.deck_for(state.options, remove=TWO_PLAYER_REMOVALS if two else None)
        rng.shuffle(deck)
        state.deck = deck
        state.drafts = []
        if self.uses_drafts(state):
            self.deal_draft_piles(state, rng)
        for player in state.players:
            player.stack = []
            player.hand = self.cards.sort(state.deck.pop() for _ in range(self.hand_size(state)))
        state.discard = [state.deck.pop()]
        state.battle = None
        state.to_draw_after_turn = []
        state.removed = []
        state.draft = None
        state.reveals = []
        state.flipping = []
        self.start_turn(state, (state.dealer + 1) % len(state.players))

    def start_turn(self, state: CoverState, seat: int) -> None:
        state.turn = seat
        state.actions_taken = 0
        state.barred = []

    # --- who decides what --------------------------------------------------------------
    def decisions(self, state: CoverState) -> list[Decision]:
        if state.end_reason is not None:
            return []
        if state.reveals:
            return self.reveal_decisions(state)
        if state.battle is not None:
            return [self.answer_decision(state, state.battle)]
        if state.draft is not None:
            return [self.draft_decision(state, state.draft)]
        return [self.turn_decision(state)]

    def turn_decision(self, state: CoverState) -> Decision:
        seat = state.turn
        hand = state.players[seat].hand
        second = state.actions_taken == 1
        options = [
            *self.set_options(state, hand),
            *self.draft_sets(state, seat, hand),
            *self.improve_options(state, seat, hand),
            *self.challenge_options(state, seat, hand),
            *self.action_card_options(state, seat, hand),
            *self.discard_options(state, hand),
        ]
        if second:
            # First, so it always gets a button of its own however many moves there are.
            options.insert(
                0,
                option(
                    Action.of("done"),
                    label=t("I'm done with my turn"),
                    group=tc("group", "Done"),
                    style="primary",
                ),
            )
            default = Action.of("done")
            prompt = t("Your second action, or say you're done.")
        else:
            cheapest = min(hand, key=lambda c: (self.cards[c].value, self.cards.order(c)))
            default = Action.of("discard", cheapest)
            prompt = self.words.turn()
        return Decision(
            key=f"turn-{state.round}-{state.version}",
            seat=seat,
            prompt=prompt,
            options=tuple(options),
            default=default,
            hides_choice=True,  # a lone discard would tell the hand holds no set nor match
        )

    def discard_options(self, state: CoverState, hand: list[str]) -> list[Option]:
        return [self.discard_option(card) for card in dict.fromkeys(hand)]

    def set_options(self, state: CoverState, hand: list[str]) -> list[Option]:
        options: list[Option] = []
        kinds = list(dict.fromkeys(hand))
        for i, a in enumerate(kinds):
            for b in kinds[i:]:
                if a != b or hand.count(a) >= 2:
                    pair = self.pair_option(a, b)
                    if pair is not None:
                        options.append(pair)
        if state.discard and self.takes_from_discard(state.discard[-1]):
            top = state.discard[-1]
            options += [take for card in kinds if (take := self.take_option(card, top))]
        return options

    # An option names cards only, never the state: each is built once per engine and
    # handed out at every turn that offers it (building a turn's options was most of its
    # cost).
    @cached_property
    def _card_options(self) -> dict[tuple[str, ...], Option | None]:
        return {}

    def _card_option(
        self, key: tuple[str, ...], build: Callable[..., Option | None]
    ) -> Option | None:
        if key not in self._card_options:
            self._card_options[key] = build(*key[1:])
        return self._card_options[key]

    def discard_option(self, card: str) -> Option:
        found = self._card_option(("discard", card), self._discard_option)
        assert found is not None
        return found

    def pair_option(self, a: str, b: str) -> Option | None:
        """Forming a set of hand cards ``a`` and ``b``; None if they do not pair."""
        return self._card_option(("pair", a, b), self._pair_option)

    def take_option(self, card: str, top: str) -> Option | None:
        """Forming a set of hand card ``card`` and the discard pile's top; None if they do
        not pair."""
        return self._card_option(("take", card, top), self._take_option)

    def _discard_option(self, card: str) -> Option:
        return option(
            Action.of("discard", card),
            label=t("Discard {card}", card=self.label(card)),
            group=tc("group", "Discard"),
        )

    def _pair_option(self, a: str, b: str) -> Option | None:
        if not self.can_pair(a, b):
            return None
        low, high = self.wilds_below([a, b])
        return option(
            Action.of("pair", high, low),
            label=self.words.pair(self.label(high), self.label(low)),
            group=self.form_group,
            style="success",
        )

    def _take_option(self, card: str, top: str) -> Option | None:
        if not self.can_pair(card, top):
            return None
        return option(
            Action.of("take", card),
            label=self.words.take(self.label(card), self.label(top)),
            group=self.form_group,
            style="success",
        )

    def takes_from_discard(self, card: str) -> bool:
        """Whether the discard pile's top card may join a hand card in a set (any card that
        pairs: an asset or a wild)."""
        return True

    def improve_options(self, state: CoverState, seat: int, hand: list[str]) -> list[Option]:
        """Improve a set: one matching asset (never a wild) onto your own top set."""
        stack = state.players[seat].stack
        if not state.options.improve or not stack or stack[-1].asset not in hand:
            return []
        asset = stack[-1].asset
        return [
            option(
                Action.of("improve", asset),
                label=self.words.improve(self.label(asset)),
                group=self.form_group,
                style="success",
            )
        ]

    def action_card_options(self, state: CoverState, seat: int, hand: list[str]) -> list[Option]:
        """Swap: your top set for anyone's. Move: anyone's top set to the bottom, or back."""
        options: list[Option] = []
        names = state.names
        players = state.players
        if "swap" in hand and players[seat].stack:
            for other, player in enumerate(players):
                if other != seat and player.stack:
                    theirs = self.title(player.stack[-1].asset)
                    options.append(
                        option(
                            Action.of("swap", other),
                            label=t(
                                "Swap top sets with {name} ({asset})",
                                name=names[other],
                                asset=theirs,
                            ),
                            group=t("Action cards"),
                            description=t("Swap card: your top set for another player's top set."),
                            style="primary",
                        )
                    )
        if "move" in hand:
            for other, player in enumerate(players):
                options += [
                    option(
                        Action.of("move", other, end),
                        label=move_label(end, None if other == seat else names[other]),
                        group=t("Action cards"),
                        description=MOVE_TEXT,
                        style="primary",
                    )
                    for end in self.move_ends(state, player.stack)
                ]
        return options

    # --- moves -------------------------------------------------------------------------
    def play(self, state: CoverState, seat: int, action: Action, rng: random.Random) -> list[Event]:
        events: list[Event] = []
        args = action.args
        match action.kind:
            case "pair":
                self.form_set_from_hand(state, seat, args[0], args[1], events)
            case "take":
                self.form_set_with_discard(state, seat, args[0], events)
            case "improve":
                self.improve_set(state, seat, args[0], events)
            case "discard":
                self.discard(state, seat, args[0], events)
            case "challenge" | "challenge_second":
                depth = 0 if action.kind == "challenge" else 1
                self.challenge(state, seat, int(args[0]), args[1:], depth, events)
            case "counter":
                self.counter(state, seat, args, events)
            case "concede":
                self.concede(state, seat, events)
            case "swap":
                self.swap(state, seat, int(args[0]), events)
            case "move":
                self.move(state, seat, int(args[0]), args[1], events)
            case "draft":
                self.draft(state, seat, args[0], [int(p) for p in args[1:]], events)
            case "challenge_draft":
                self.challenge_draft(state, seat, args, events)
            case "accept":
                self.accept_draft(state, events)
            case "force_move":
                self.force_move(state, seat, int(args[0]), args[1], events)
            case "done":
                events.append(Event(text=t("{name} is done.", name=state.names[seat])))
                self.end_turn(state, events, rng)
                return events
            case _:
                raise IllegalAction(t("That move is not part of this game."))
        if state.battle is None and state.draft is not None and action.kind != "draft":
            self.flip_draft_piles(state, rng, events)  # the drafted set has found its owner
        elif action.kind == "force_move" and not state.reveals:
            self.go_on_flipping(state, rng, events)  # the Move is settled: the next card
        # A challenge, a draft waiting for the opponent or a Move card being decided holds
        # the turn open; the turn's action is finished once nothing is pending.
        if state.battle is None and state.draft is None and not state.reveals:
            self.action_finished(state, action.kind, events, rng)
        return events

    def action_finished(
        self, state: CoverState, kind: str, events: list[Event], rng: random.Random
    ) -> None:
        """One action is done; with two actions a turn, the second one is optional."""
        state.actions_taken += 1
        if state.options.two_actions and state.actions_taken == 1:
            if kind == "discard":
                # Discarding first draws back up at once, then the second action follows.
                self.draw_to_hand_size(state, state.turn, events)
            if state.players[state.turn].hand:
                return
        self.end_turn(state, events, rng)

    def form_set_from_hand(
        self, state: CoverState, seat: int, a: str, b: str, events: list[Event]
    ) -> None:
        hand = state.players[seat].hand
        take_card(hand, a)
        take_card(hand, b)
        self.add_set(state, seat, self.make_set(a, b), events, how="hand")

    def form_set_with_discard(
        self, state: CoverState, seat: int, card: str, events: list[Event]
    ) -> None:
        take_card(state.players[seat].hand, card)
        top = state.discard.pop()
        self.add_set(state, seat, self.make_set(card, top), events, how="discard")

    def add_set(
        self, state: CoverState, seat: int, new: CoverSet, events: list[Event], how: str
    ) -> None:
        """New sets go on top and are never combined with earlier sets of the same asset.
        ``how``: from the "hand", with the "discard" (Cookies: a "single" Cookie, the "row")."""
        new = self.on_new_set(state, seat, new)
        state.players[seat].stack.append(new)
        cards = self.labels(reversed(new.cards))
        events.append(Event(text=self.words.formed(how, state.names[seat], cards)))

    def on_new_set(self, state: CoverState, seat: int, new: CoverSet) -> CoverSet:
        """A hook for rule sets that add to a set as it is formed: the set to place."""
        return new

    def improve_set(self, state: CoverState, seat: int, card: str, events: list[Event]) -> None:
        take_card(state.players[seat].hand, card)
        stack = state.players[seat].stack
        stack[-1] = self.add_to_set(stack[-1], card)
        events.append(Event(text=self.improved_text(state.names[seat], card)))

    def improved_text(self, name: str, card: str) -> Text:
        """The log's line for "Improve a Set"."""
        return t("{name} improved their top set with {card}.", name=name, card=self.label(card))

    def discard(self, state: CoverState, seat: int, card: str, events: list[Event]) -> None:
        take_card(state.players[seat].hand, card)
        state.discard.append(card)
        events.append(
            Event(text=t("{name} discarded {card}.", name=state.names[seat], card=self.label(card)))
        )

    def play_action_card(self, state: CoverState, seat: int, card: str) -> None:
        """Action cards cannot be blocked, and leave play once used."""
        take_card(state.players[seat].hand, card)
        state.removed.append(card)

    def swap(self, state: CoverState, seat: int, other: int, events: list[Event]) -> None:
        self.play_action_card(state, seat, "swap")
        mine = state.players[seat].stack
        swap_top_sets(mine, state.players[other].stack)
        events.append(
            Event(
                text=t(
                    "🔄 {name} swapped top sets with {other}: took the {asset} set.",
                    name=state.names[seat],
                    other=state.names[other],
                    asset=self.title(mine[-1].asset),
                )
            )
        )

    def move(
        self, state: CoverState, seat: int, other: int, which: str, events: list[Event]
    ) -> None:
        self.play_action_card(state, seat, "move")
        move_set(state.players[other].stack, which)
        events.append(
            Event(text=moved_text(state.names[seat], which, state.names[other], other == seat))
        )

    # --- end of a turn, a round, a game ------------------------------------------------
    def end_turn(self, state: CoverState, events: list[Event], rng: random.Random) -> None:
        """Draw back up; then any defender who used cards draws; the left player goes."""
        self.draw_to_hand_size(state, state.turn, events)
        for seat in state.to_draw_after_turn:
            self.draw_to_hand_size(state, seat, events)
        state.to_draw_after_turn = []
        self.pass_turn(state, events, rng)

    def pass_turn(self, state: CoverState, events: list[Event], rng: random.Random) -> None:
        """The round ends once the deck and every hand are empty; else the left player goes."""
        if not state.deck and not any(p.hand for p in state.players):
            self.end_round(state, events, rng)
            return
        self.start_turn(state, self.next_player(state, state.turn))

    def draw_to_hand_size(self, state: CoverState, seat: int, events: list[Event]) -> None:
        player = state.players[seat]
        need = max(0, self.hand_size(state) - len(player.hand))
        drawn = [state.deck.pop() for _ in range(min(need, len(state.deck)))]
        if not drawn:
            return
        player.hand = self.cards.sort(player.hand + drawn)
        events += self.drew(state, seat, drawn)

    def drew(self, state: CoverState, seat: int, drawn: list[str]) -> list[Event]:
        """The table's line for a draw, and the drawer's own with the cards."""
        return [
            Event(
                text=tn(
                    "{name} drew {n} card.",
                    "{name} drew {n} cards.",
                    n=len(drawn),
                    name=state.names[seat],
                )
            ),
            Event(
                text=t("You drew {cards}.", cards=self.labels(drawn, ", ")),
                visible_to=frozenset({seat}),
            ),
        ]

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
        scores = self.round_scores(state)
        best = max(scores)
        winners = [seat for seat, score in enumerate(scores) if score == best]
        state.rounds.append(RoundResult(number=state.round, scores=scores, winners=winners))
        for seat, score in enumerate(scores):
            state.totals[seat] += score
        for seat in winners:
            state.round_wins[seat] += 1
        ranking = joined(
            (
                joined((state.names[s], self.money(scores[s])), " ")
                for s in sorted(range(len(scores)), key=lambda s: -scores[s])
            ),
            ", ",
        )
        events.append(
            Event(text=t("🏁 Round {n} is over: {ranking}.", n=state.round, ranking=ranking))
        )
        state.end_reason = self.game_end_reason(state)
        if state.end_reason is not None:
            events.append(Event(text=t("🏆 {reason}", reason=state.end_reason)))
            return
        state.round += 1
        state.dealer = (state.dealer + 1) % len(state.players)
        self.deal_round(state, rng)
        events.append(
            Event(
                text=t(
                    "Round {n} is dealt; {name} goes first.",
                    n=state.round,
                    name=state.names[state.turn],
                )
            )
        )

    def round_scores(self, state: CoverState) -> list[int]:
        return [self.stack_value(p) for p in state.players]

    def game_end_reason(self, state: CoverState) -> Text | None:
        names = state.names

        def leaders(values: Sequence[int]) -> Names:
            return Names(names[s] for s, v in enumerate(values) if v == max(values))

        match state.options.end_mode:
            case "quick":
                return t("Quick game: {names} scored highest.", names=leaders(state.totals))
            case "classic":
                if max(state.totals) < MILLION:
                    return None
                return t(
                    "{names} passed {target} with {money}.",
                    names=leaders(state.totals),
                    target=self.money(MILLION),
                    money=self.money(max(state.totals)),
                )
            case "highest_after_3":
                if state.round < 3:
                    return None
                return t(
                    "After 3 rounds, {names} has the highest total: {money}.",
                    names=leaders(state.totals),
                    money=self.money(max(state.totals)),
                )
            case "first_to_2":
                if max(state.round_wins) < 2:
                    return None
                return won_two_first(names, self.ranking_keys(state))
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

    def score_text(self, state: CoverState, placement: Placement) -> Text:
        return self.short_money(placement.score)

    # --- what players see --------------------------------------------------------------
    def view(self, state: CoverState, seat: int | None) -> BaseModel:
        return view_of(self, state, seat)

    def panels(self, view: BaseModel) -> Panels:
        return panels_of(self, view)  # type: ignore[arg-type]

    def scramble_hidden(
        self, state: CoverState, seat: int | None, rng: random.Random
    ) -> CoverState:
        twin = self.state_model.model_validate(state.model_dump())
        twin.seed = rng.getrandbits(63)
        others = [p for i, p in enumerate(twin.players) if i != seat]
        buried = [pile[:-1] for pile in twin.drafts]  # face down below each face-up top
        pool = twin.deck + [card for p in others for card in p.hand]
        pool += [card for cards in buried for card in cards]
        # sorted first: a world must not carry the real order of the hidden cards (the
        # search deals its worlds with this, and the real order is a secret)
        pool.sort()
        rng.shuffle(pool)
        twin.deck, pool = pool[: len(twin.deck)], pool[len(twin.deck) :]
        for pile, cards in zip(twin.drafts, buried, strict=True):
            pile[:-1], pool = pool[: len(cards)], pool[len(cards) :]
        for player in others:
            player.hand, pool = self.cards.sort(pool[: len(player.hand)]), pool[len(player.hand) :]
        return twin

    def choose(self, view: BaseModel, decision: Decision) -> Action:
        return ai.choose(self, view, decision)  # type: ignore[arg-type]

    def rulebook(self, options: CoverOptions | None = None) -> Text:
        return joined((self.rules_text(options), self.rulings_text(options)), "\n")

    def rules_text(self, options: CoverOptions | None = None) -> Text:
        """How to play here, then the rulebook in brief: one message a paragraph."""
        return joined((self.how_to_play_here, blocks(self.rules_blocks)), "")

    def rulings_text(self, options: CoverOptions | None = None) -> Text:
        return joined(self.rulings, "\n", end="\n")

    def why_illegal(self, state: CoverState, seat: int, action: Action) -> Text:
        hand = state.players[seat].hand
        cards = [a for a in action.args if a in self.cards]
        missing = [c for c in cards if c not in hand]
        if (
            action.kind in {"pair", "take", "discard", "challenge", "counter", "improve"}
            and missing
        ):
            return t("You don't hold {card}.", card=self.label(missing[0]))
        if action.kind == "pair" and len(cards) == 2 and not self.can_pair(*cards):
            return self.words.pair_rule()
        if action.kind == "challenge" and not self.may_challenge(state, seat):
            return self.words.need_own_set()
        if action.kind == "challenge":
            return self.words.challenge_rule()
        if state.battle is not None and action.kind in {"pair", "take", "discard"}:
            return self.words.under_way()
        return t("That move is not allowed right now.")


def won_two_first(names: Sequence[str], keys: Sequence[object]) -> Text:
    """The end of a "first to win 2 rounds" game: who got there (ties: by money)."""
    first = Names(names[s] for s, k in enumerate(keys) if k == max(keys))  # type: ignore[type-var]
    return t("{names} won 2 rounds first.", names=first)
