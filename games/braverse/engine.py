"""CookieRun: Braverse as a pure reducer: set-up, the turn's phases, and a stack of frames.

``play`` answers the decision on top (a frame's, else the phase's), then ``run`` resolves
the stack until a frame or a phase needs a player: automatic phases (Active, Draw, End) and
forced effects resolve on their own; an empty deck refreshes at once; Cookies that left
the Battle Area are followed by re-placement once the attack or effect is done.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from pydantic import BaseModel

from games.braverse import ai, picture, search
from games.braverse.asks import Asks
from games.braverse.battle import other
from games.braverse.cards import CardPool, braverse_pool
from games.braverse.decks import (
    deck_problems,
    export_deck,
    parse_deck,
    playable_ready_decks,
    ready_decks,
)
from games.braverse.payment import Payment, pay
from games.braverse.phrases import commas, sentences
from games.braverse.rules_text import QUICK_START, rules_text, rules_without_rulings, rulings
from games.braverse.state import (
    DECK_LABELS,
    READY_BY_SEAT,
    WIN_LEVEL,
    AttackFrame,
    BraverseOptions,
    BraverseState,
    DamageFrame,
    DealFrame,
    EffectFrame,
    FlipFrame,
    RefreshFrame,
    ReplaceFrame,
    RevealFrame,
    Side,
    SupportCard,
    TrapWindow,
)
from games.braverse.view import panels, view_of
from games.core.engine import Engine
from games.core.panels import Panels
from games.core.pictures import DrawnBy
from games.core.protocol import (
    Action,
    Decision,
    Event,
    IllegalAction,
    Outcome,
    Placement,
    SeatChoice,
)
from games.core.rng import rng_for
from games.core.text import Text, t, tc

HAND_SIZE = 6


class Braverse(DrawnBy, Asks, Engine[BraverseState, BraverseOptions]):
    key: ClassVar[str] = "braverse"
    picture_module = picture
    name: ClassVar[str] = "CookieRun: Braverse"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    quick_start: ClassVar[str] = QUICK_START
    round_word: ClassVar[str] = "turn"  # its log says "Turn 3: Ana."
    options_model = BraverseOptions
    state_model = BraverseState
    search_kind = search.BraverseSearch

    def __init__(self, pool: CardPool | None = None) -> None:
        self.pool = pool or braverse_pool()
        # checked here, at start-up: a host's card list may leave only some ready decks
        # legal, and only those are offered (Choose deck, bots, the default set-up)
        self.ready = ready_decks() if pool is None else playable_ready_decks(pool, "card list")
        self.seat_choice = SeatChoice(
            title=t("Choose deck"),
            noun=tc("noun", "deck"),
            catalogue="braverse",
            ready=tuple((k, label) for k, label in DECK_LABELS.items() if k in self.ready),
        )

    # --- set-up ----------------------------------------------------------------------
    def decks_for(self, options: BraverseOptions) -> list[list[str]]:
        if options.decks is not None:
            decks = [list(d) for d in options.decks]
            if len(decks) != 2:
                raise IllegalAction(t("Braverse needs one deck per player."))
        else:
            decks = [self.ready_list(self.default_choice(seat)) or [] for seat in range(2)]
        for seat, deck in enumerate(decks):
            problems = deck_problems(deck, self.pool)
            if problems:
                raise IllegalAction(
                    t(
                        "Deck {n} cannot be played: {problems}",
                        n=seat + 1,
                        problems=sentences(problems),
                    )
                )
        return decks

    def setup(self, options: BraverseOptions, players: Sequence[str], seed: int) -> BraverseState:
        if len(players) != 2:
            raise IllegalAction(t("{game} needs exactly 2 players.", game=self.name))
        if options.cards and options.cards != self.pool.digest:
            raise IllegalAction(t("This match was set up with another card list than this host's."))
        rng = rng_for(seed, 0, "setup")
        sides = []
        for deck in self.decks_for(options):
            rng.shuffle(deck)
            side = Side(deck=deck)
            side.hand = [side.deck.pop() for _ in range(HAND_SIZE)]
            sides.append(side)
        chooser = rng.randrange(2)
        state = BraverseState(
            seed=seed,
            names=tuple(players),
            options=options,
            cards=self.pool.digest,
            sides=sides,
            chooser=chooser,
            step=1,
        )
        state.log = (
            Event(
                text=t(
                    "✊ {player} wins rock-paper-scissors and chooses who starts.",
                    player=players[chooser],
                )
            ),
        )
        return state

    # --- moves -------------------------------------------------------------------------
    def play(
        self, state: BraverseState, seat: int, action: Action, rng: random.Random
    ) -> list[Event]:
        events: list[Event] = []
        state.step += 1
        if state.stack:
            self.answer_frame(state, seat, state.stack[-1], action, events, rng)
        else:
            self.answer_phase(state, seat, action, events, rng)
        self.run(state, events, rng)
        return events

    def answer_phase(
        self,
        state: BraverseState,
        seat: int,
        action: Action,
        events: list[Event],
        rng: random.Random,
    ) -> None:
        side = state.sides[seat]
        name = state.names[seat]
        match action.kind:
            case "order":
                state.first = seat if action.args[0] == "first" else other(seat)
                state.turn = state.first
                state.phase, state.at = "mulligan", 0
                events.append(
                    Event(text=t("{player} goes first.", player=state.names[state.first]))
                )
            case "mull":
                if action.args[0] == "yes":
                    side.deck += side.hand
                    rng.shuffle(side.deck)
                    side.hand = [side.deck.pop() for _ in range(HAND_SIZE)]
                    events.append(Event(text=t("🔄 {player} mulligans.", player=name)))
                else:
                    events.append(Event(text=t("{player} keeps their hand.", player=name)))
                side.mulligan = action.args[0] == "yes"
                state.at += 1
                if state.at == 2:
                    state.phase, state.at = "redraw", 0
            case "start":
                side.start = action.args[0]
                events.append(Event(text=t("{player} has chosen a starting Cookie.", player=name)))
                if all(s.start is not None for s in state.sides):
                    self.reveal_starting(state, events)
            case "sup":
                side.hand.remove(action.args[0])
                side.support.append(SupportCard(card=action.args[0]))
                label = self.pool[action.args[0]].label
                events.append(
                    Event(text=t("{player} supports with {card}.", player=name, card=label))
                )
                state.phase = "main"
            case "skip":
                state.phase = "main"
            case "end":
                events.append(Event(text=t("{player} ends their turn.", player=name)))
                state.phase = "end"
            case "cookie":
                self.place(state, seat, action.args[0], events)
            case "item":
                number, payment = action.args[0], Payment.from_args(action.args[1:])
                side.hand.remove(number)
                pay(side, self.pool, payment)
                side.discard.append(number)
                text = t("✨ {player} uses {card}.", player=name, card=self.pool[number].title)
                events.append(Event(text=text))
                state.stack.append(EffectFrame(seat=seat, card=number, trigger="item", chosen=True))
            case "stage":
                number, payment = action.args[0], Payment.from_args(action.args[1:])
                side.hand.remove(number)
                pay(side, self.pool, payment)
                if side.stage is not None:
                    side.discard.append(side.stage)
                side.stage, side.stage_rested = number, False
                text = t(
                    "🏟️ {player} sets the Stage {card}.", player=name, card=self.pool[number].title
                )
                events.append(Event(text=text))
            case "act":
                assert side.stage is not None
                side.stage_rested = True
                text = t(
                    "🏟️ {player} activates {card}.", player=name, card=self.pool[side.stage].title
                )
                events.append(Event(text=text))
                self.use_ability(
                    state, seat, side.stage, "activate", Payment.from_args(action.args)
                )
            case "atk":
                self.declare_attack(state, seat, action, events)

    def declare_attack(
        self, state: BraverseState, seat: int, action: Action, events: list[Event]
    ) -> None:
        side, foe = state.sides[seat], state.sides[other(seat)]
        attacker = side.battle[int(action.args[0])]
        target = foe.battle[int(action.args[1])]
        card = self.pool[attacker.card]
        assert card.attack is not None
        attacker.rested = True
        pay(side, self.pool, Payment.from_args(action.args[2:]))
        damage = card.attack.damage + side.attack_bonus
        text = t(
            "⚔️ {player}'s {card} attacks {cookie} ({n} damage).",
            player=state.names[seat],
            card=card.title,
            cookie=self.cookie_name(state, other(seat), target.card),
            n=max(0, damage),
        )
        events.append(Event(text=text))
        state.stack.append(
            AttackFrame(seat=seat, attacker=attacker.uid, target=target.uid, damage=damage)
        )

    def reveal_starting(self, state: BraverseState, events: list[Event]) -> None:
        """Both starting Cookies are revealed; HP piles are dealt; On Reveal does not fire."""
        for seat in (state.first, other(state.first)):
            side = state.sides[seat]
            assert side.start is not None
            self.place(state, seat, side.start, events, reveal=False)
            side.start = None
        # the first player's HP pile is dealt first: its frame goes on top
        state.stack[-2:] = state.stack[-2:][::-1]
        state.phase, state.turn, state.round = "active", state.first, 1
        events.append(Event(text=t("Turn {n}: {player}.", n=1, player=state.names[state.first])))

    def answer_frame(
        self,
        state: BraverseState,
        seat: int,
        frame: object,
        action: Action,
        events: list[Event],
        rng: random.Random,
    ) -> None:
        kind = action.kind
        if isinstance(frame, TrapWindow):
            state.stack.pop()
            side = state.sides[seat]
            if kind == "pass":
                events.append(Event(text=t("{player} does not respond.", player=state.names[seat])))
                return
            payment = Payment.from_args(action.args[1:])
            if kind == "trap":
                number = action.args[0]
                side.hand.remove(number)
                pay(side, self.pool, payment)
                side.discard.append(number)
                text = t(
                    "🪤 {player} springs {card}!",
                    player=state.names[seat],
                    card=self.pool[number].title,
                )
                events.append(Event(text=text))
                state.stack.append(EffectFrame(seat=seat, card=number, trigger="trap", chosen=True))
            else:
                cookie = side.battle[int(action.args[0])]
                who = self.cookie_name(state, seat, cookie.card)
                events.append(Event(text=t("🛡️ {cookie} answers the attack.", cookie=who)))
                self.use_ability(
                    state, seat, cookie.card, "when_attacked", payment, source=cookie.uid
                )
        elif isinstance(frame, FlipFrame):
            state.stack.pop()
            if kind == "decline":
                text = t(
                    "{player} declines {card}'s FLIP.",
                    player=state.names[seat],
                    card=self.pool[frame.card].title,
                )
                events.append(Event(text=text))
                return
            text = t("🔁 FLIP! {card} activates.", card=self.pool[frame.card].title)
            events.append(Event(text=text))
            self.use_ability(state, seat, frame.card, "flip", Payment.from_args(action.args))
        elif isinstance(frame, RevealFrame):
            state.stack.pop()
            if kind == "skip":
                return
            found = self.find(state, frame.uid)
            assert found is not None
            text = t("👀 On Reveal: {card}.", card=self.pool[found[1].card].title)
            events.append(Event(text=text))
            self.use_ability(
                state,
                seat,
                found[1].card,
                "on_reveal",
                Payment.from_args(action.args),
                source=frame.uid,
            )
        elif isinstance(frame, ReplaceFrame):
            side = state.sides[seat]
            if kind == "done":
                side.left = 0
                frame.order.pop(0)
                if not frame.order:
                    state.stack.pop()
                return
            side.left = max(0, side.left - 1)
            self.place(state, seat, action.args[0], events)
        elif isinstance(frame, RefreshFrame):
            self.refresh(state, seat, action.args[0], events, rng)
        elif isinstance(frame, EffectFrame):
            self.answer_effect(state, frame, action, events)

    # --- resolving ---------------------------------------------------------------------
    def run(self, state: BraverseState, events: list[Event], rng: random.Random) -> None:
        while state.winner is None:
            if self.push_refresh(state):
                continue
            if state.stack:
                if not self.step_frame(state, state.stack[-1], events, rng):
                    return
                continue
            if self.push_replacement(state):
                continue
            if not self.step_phase(state, events, rng):
                return

    def step_frame(
        self, state: BraverseState, frame: object, events: list[Event], rng: random.Random
    ) -> bool:
        match frame:
            case DealFrame():
                return self.step_deal(state, frame, events)
            case DamageFrame():
                return self.step_damage(state, frame, events)
            case AttackFrame():
                return self.step_attack(state, frame, events)
            case EffectFrame():
                return self.step_effect(state, frame, events, rng)
            case RefreshFrame():
                return self.step_refresh(state, frame, events, rng)
            case ReplaceFrame():
                return self.step_replace(state, frame, events)
            case RevealFrame():
                return self.step_reveal(state, frame)
            case FlipFrame():
                return self.step_flip(state, frame, events)
        return False  # a TrapWindow always asks

    def step_phase(self, state: BraverseState, events: list[Event], rng: random.Random) -> bool:
        turn = state.turn
        side = state.sides[turn]
        match state.phase:
            case "redraw":
                return self.forced_redraw(state, events, rng)
            case "active":
                for support in side.support:
                    support.rested = False
                for cookie in side.battle:
                    cookie.rested = False
                side.stage_rested = False
                state.phase = "draw"
            case "draw":
                state.phase = "support"
                if state.round > 1:  # the first player skips the first Draw Phase
                    self.deal(state, turn, "hand", 2, events)
            case "support":
                if side.hand:
                    return False
                state.phase = "main"
            case "end":
                state.phase = "handover"
                self.end_of_turn(state)
            case "handover":
                for each in state.sides:
                    each.attack_bonus, each.flip_off = 0, False
                state.turn, state.round = other(turn), state.round + 1
                state.phase = "active"
                text = t("Turn {n}: {player}.", n=state.round, player=state.names[state.turn])
                events.append(Event(text=text))
            case _:
                return False
        return True

    def forced_redraw(self, state: BraverseState, events: list[Event], rng: random.Random) -> bool:
        """A hand without a Cookie is shown, shuffled back and redrawn; the opponent draws
        one card each time."""
        seat = self.setup_seat(state)
        side = state.sides[seat]
        if self.cookies_in_hand(side):
            state.at += 1
            if state.at == 2:
                state.phase, state.at = "starting", 0
            return True
        shown = commas([self.pool[c].title for c in sorted(side.hand)])
        text = t(
            "🙈 {player} has no Cookie and shows: {cards}.", player=state.names[seat], cards=shown
        )
        events.append(Event(text=text))
        side.deck += side.hand
        rng.shuffle(side.deck)
        side.hand = [side.deck.pop() for _ in range(HAND_SIZE)]
        self.deal(state, other(seat), "hand", 1, events)
        return True

    def end_of_turn(self, state: BraverseState) -> None:
        """Stage first, then Cookies left to right (pushed in reverse: the first on top)."""
        side = state.sides[state.turn]
        found: list[EffectFrame] = []
        if side.stage is not None and self.pool[side.stage].end_of_turn is not None:
            found.append(EffectFrame(seat=state.turn, card=side.stage, trigger="end_of_turn"))
        for cookie in side.battle:
            if self.pool[cookie.card].end_of_turn is not None:
                found.append(
                    EffectFrame(
                        seat=state.turn,
                        card=cookie.card,
                        trigger="end_of_turn",
                        source=cookie.uid,
                    )
                )
        state.stack += found[::-1]

    # --- the end -----------------------------------------------------------------------
    def outcome(self, state: BraverseState) -> Outcome | None:
        if state.winner is None:
            return None
        keys = [1 if s == state.winner else 0 for s in range(2)]
        return Outcome.ranked(keys, state.reason)

    def score_text(self, state: BraverseState, placement: Placement) -> Text:
        """The Break Area decides a game (its level, or an empty Battle Area beside it)."""
        level = self.break_level(state.sides[placement.seat])
        return t("Break Area LV {level}/{win}", level=level, win=WIN_LEVEL)

    # --- views, bots, text -------------------------------------------------------------
    def view(self, state: BraverseState, seat: int | None) -> BaseModel:
        return view_of(self, state, seat)

    def panels(self, view: BaseModel) -> Panels:
        return panels(self, view)  # type: ignore[arg-type]

    def picture_source(self) -> object:
        return self.pool

    def choose(self, view: BaseModel, decision: Decision) -> Action:
        return ai.choose(self, view, decision)  # type: ignore[arg-type]

    def rulebook(self, options: BraverseOptions | None = None) -> Text:
        return rules_text(self.pool)

    # Kept whole as Texts, not cut out of the English rulebook (see Engine.rules_text).
    def rules_text(self, options: BraverseOptions | None = None) -> Text:
        return rules_without_rulings(self.pool)

    def rulings_text(self, options: BraverseOptions | None = None) -> Text:
        return t("{rulings}\n", rulings=rulings())

    # --- decks chosen in the lobby (games.core.protocol.SeatChoosing) ---------------------
    def default_choice(self, seat: int) -> str:
        preferred = READY_BY_SEAT[seat % len(READY_BY_SEAT)]
        if preferred in self.ready:
            return preferred
        # another legal deck, not the one the other seat keeps, if the list leaves one
        offered = [k for k, _ in self.seat_choice.ready]
        spare = [k for k in offered if k not in READY_BY_SEAT] or offered
        return spare[seat % len(spare)]

    def ready_list(self, value: str) -> list[str] | None:
        ready = self.ready.get(value)
        return list(ready.cards) if ready is not None else None

    def read_list(self, text: str) -> tuple[list[str], list[str]]:
        parsed = parse_deck(text, self.pool)
        return list(parsed.cards), list(parsed.problems)

    def write_list(self, entries: Sequence[str]) -> str:
        return export_deck([e for e in entries if e in self.pool], self.pool)

    def list_problems(self, entries: Sequence[str]) -> list[str]:
        return deck_problems(entries, self.pool)

    def with_seat_lists(
        self, options: BaseModel, lists: Sequence[Sequence[str]]
    ) -> BraverseOptions:
        # The card list's digest pins what the numbers meant, so a replay on a host with
        # other cards is refused instead of replaying another game. A lobby or tournament
        # stored before the trap window opened after every attack, or before re-placement
        # was asked of a side with no Cookie in hand, may still hold the old rule: a match
        # started now plays today's.
        update = {"decks": tuple(tuple(d) for d in lists), "cards": self.pool.digest}
        today = {"always_ask": True, "ask_lone_choice": True}
        return options.model_copy(update={**update, **today})  # type: ignore[return-value]

    def lookup(self, name: str) -> Text | None:
        """A card's text by number or name, for a generic ``/card`` command: the whole
        name, or a start of it or of one of its words that fits one card only."""
        card = self.pool.lookup(name)
        if card is None and len(found := self.pool.matching(name)) == 1:
            card = found[0]
        return card.text if card is not None else None

    def lookup_names(self, text: str) -> list[tuple[str, str]]:
        found = self.pool.matching(text) if text.strip() else self.pool.cards
        return [(t("{number} {card}", number=c.number, card=c.title), c.number) for c in found]

    def lookup_similar(self, text: str) -> list[tuple[str, str]]:
        return [
            (t("{number} {card}", number=c.number, card=c.title), c.number)
            for c in self.pool.similar(text)
        ]

    def scramble_hidden(
        self, state: BraverseState, seat: int | None, rng: random.Random
    ) -> BraverseState:
        """Re-deal what ``seat`` cannot see, per owner: both decks (with the top cards
        another player is looking at), every HP pile (hidden from its owner too), the other
        hand. The cards ``seat`` is looking at in its own search stay on top of its deck.

        The result depends only on what ``seat`` can tell (the hidden cards are sorted
        before the shuffle): a search bot deals its worlds with it, and no world may carry
        the real order or whereabouts of a hidden card."""
        twin = self.state_model.model_validate(state.model_dump())
        for owner, side in enumerate(twin.sides):
            looking = [
                f
                for f in twin.stack
                if isinstance(f, EffectFrame) and f.seat == owner and f.seat != seat
            ]
            seen = max(
                (
                    len(f.looked)
                    for f in twin.stack
                    if isinstance(f, EffectFrame) and f.seat == owner == seat
                ),
                default=0,
            )
            hand_hidden = owner != seat
            kept = side.start  # the chosen starting Cookie stays chosen
            hand = list(side.hand)
            if hand_hidden and kept is not None:
                hand.remove(kept)
            unseen = len(side.deck) - seen
            top = side.deck[unseen:]
            hidden = side.deck[:unseen] + [c for cookie in side.battle for c in cookie.hp]
            if hand_hidden:
                hidden += hand
            hidden.sort()
            rng.shuffle(hidden)
            side.deck, hidden = hidden[:unseen] + top, hidden[unseen:]
            for cookie in side.battle:
                size = len(cookie.hp)
                cookie.hp, hidden = hidden[:size], hidden[size:]
            for f in looking:  # what they look at is the top of their deck
                f.looked = side.deck[::-1][: len(f.looked)]
            if hand_hidden:
                side.hand = hidden + ([kept] if kept is not None else [])
        return twin


__all__ = ["Braverse"]
