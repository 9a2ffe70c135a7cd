"""Cookie Chomper as a pure reducer: the main card, the modifier round, settling, and the
five modes (Standard, Golden Cookie, Poison in the middle, Cookie Hoarder, Number Chain).

A turn: the Active Player plays a main card (a number card and one of its numbers, Roll,
Seek, Skip or Mulligan); then the modifier round goes round the table from them
(``games.core.windows.RoundTable``) until everyone has passed in a row; then the queue
settles in the order played and the Active Player takes the Produced Number of tokens.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from pydantic import BaseModel

from games.chomper import ai, picture
from games.chomper.cards import MAIN_ACTIONS, WITH_NUMBER, ChomperCards, chomper_cards
from games.chomper.chain import NumberChain
from games.chomper.queue import is_main, produced
from games.chomper.rules_text import HOW_TO_PLAY_HERE, QUICK_START, rules_text, rulings_text
from games.chomper.search import ChomperSearch
from games.chomper.state import COOKIE, GOLDEN, POISON, ChomperOptions, ChomperState, Entry, Redo
from games.chomper.view import no_number, panels, view_of
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
from games.core.text import Names, Text, joined, t, tn
from games.core.windows import RoundTable

PLAIN = ("double", "negate", "reverse", "flip")  # modifiers that need no target
AIMED = ("opposites", "again", "veto")  # modifiers aimed at a card in the queue
SEEKS_A_TURN = 3  # see CookieChomper.may_seek


class CookieChomper(DrawnBy, NumberChain, Engine[ChomperState, ChomperOptions]):
    key: ClassVar[str] = "cookie_chomper"
    picture_module = picture
    name: ClassVar[str] = "Cookie Chomper"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    quick_start: ClassVar[str] = QUICK_START
    options_model = ChomperOptions
    state_model = ChomperState
    search_kind = ChomperSearch
    # A slip seldom costs a round at once (most cards take a few cookies), so easy needs
    # more of them than the default to lose clearly to normal (docs/benchmarks.md).
    easy_mistakes = 0.6

    def __init__(self, cards: ChomperCards | None = None) -> None:
        self.cards = cards or chomper_cards()

    # --- set-up ----------------------------------------------------------------------
    def hand_size(self, state: ChomperState) -> int:
        chosen = state.options.hand_size
        if chosen != "default":
            return int(chosen)
        return self.cards.chain_hand if state.options.mode == "chain" else self.cards.hand

    def setup(self, options: ChomperOptions, players: Sequence[str], seed: int) -> ChomperState:
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
        n = len(players)
        flip = options.mode == "middle" or options.hoarder
        deck = self.cards.deck(flip=flip, numbers_only=options.mode == "chain")
        rng.shuffle(deck)
        state = ChomperState(
            seed=seed,
            names=tuple(players),
            options=options,
            stack=[],
            deck=deck,
            played=[],
            hands=[[] for _ in range(n)],
            out=[False] * n,
            turn=rng.randrange(n),  # "the dealer decides who gets the first turn"
            barred=[[] for _ in range(n)],
            piles=[[] for _ in range(n)],
            shown=[[] for _ in range(n)],
        )
        for seat in range(n):
            self.draw_to_hand_size(state, seat, rng)
        if options.mode == "chain":
            state.chain_top = state.deck.pop()
            state.phase = "chain"
        else:
            self.build_stack(state, rng)
        state.step = 1
        state.log = (Event(text=t("{name} goes first.", name=players[state.turn])),)
        return state

    def build_stack(self, state: ChomperState, rng: random.Random) -> None:
        mode, size = state.options.mode, int(state.options.stack_size)
        if state.options.hoarder:
            tokens = [COOKIE] * self.cards.hoarder_cookies + [f"b{n}" for n in self.cards.bandits]
            if mode == "hoarder_plus":
                tokens += [POISON, GOLDEN]
            rng.shuffle(tokens)
            state.stack = tokens
        elif mode == "middle":
            state.stack = [COOKIE] * (size // 2) + [POISON] + [COOKIE] * (size - size // 2)
        else:
            state.stack = [COOKIE] * size + [GOLDEN if mode == "golden" else POISON]

    def draw(self, state: ChomperState, seat: int, rng: random.Random) -> bool:
        """One card; an empty deck is made anew from the shuffled Played Cards Pile."""
        if not state.deck:
            if not state.played:
                return False
            state.deck = rng.sample(state.played, len(state.played))
            state.played = []
        state.hands[seat].append(state.deck.pop())
        return True

    def draw_to_hand_size(self, state: ChomperState, seat: int, rng: random.Random) -> None:
        while len(state.hands[seat]) < self.hand_size(state) and self.draw(state, seat, rng):
            pass

    def players_in(self, state: ChomperState) -> list[int]:
        return [s for s in range(len(state.names)) if not state.out[s]]

    def next_in(self, state: ChomperState, seat: int) -> int:
        n = len(state.names)
        return next(s % n for s in range(seat + 1, seat + n + 1) if not state.out[s % n])

    # --- who decides what --------------------------------------------------------------
    def decisions(self, state: ChomperState) -> list[Decision]:
        key = f"{state.phase}-{state.step}"
        if state.phase == "over":
            return []
        if state.phase == "chain":
            return [self.chain_decision(state, key)]
        if state.redo is not None:
            return [self.redo_decision(state, key, state.redo)]
        if state.phase == "main":
            return [self.main_decision(state, key)]
        assert state.window is not None
        return [self.round_decision(state, key, state.window.current)]

    def playable(self, state: ChomperState, seat: int) -> list[str]:
        barred = list(state.barred[seat])
        free = []
        for card in state.hands[seat]:
            if card in barred:
                barred.remove(card)
            else:
                free.append(card)
        return free

    def main_decision(self, state: ChomperState, key: str) -> Decision:
        seat, cards = state.turn, self.cards
        options: list[Option] = []
        for card in dict.fromkeys(self.playable(state, seat)):
            if cards.is_number(card):
                options += [
                    option(
                        Action.of("number", card, n),
                        t("{n} from {card}", n=n, card=cards.label(card)),
                        group=t("Number"),
                    )
                    for n in cards.numbers_on(card) or (0,)
                ]
            elif card == "seek":
                if not self.may_seek(state):
                    continue
                picks = sorted(set(state.played))
                options += [
                    option(
                        Action.of("seek", pick),
                        t("Seek: take {card}", card=cards.label(pick)),
                        group=cards.actions["seek"].title,
                        description=cards.brief("seek"),
                    )
                    for pick in picks
                ] or [
                    option(
                        Action.of("seek"),
                        t("Seek (the pile is empty: draw)"),
                        group=cards.actions["seek"].title,
                        description=cards.brief("seek"),
                    )
                ]
            elif card in MAIN_ACTIONS:
                options.append(
                    option(
                        Action.of(card),
                        cards.label(card),
                        group=t("Special"),
                        description=cards.brief(card),
                    )
                )
            elif card == "copy":
                options += self.copy_opening_options(state)
        forced = not options
        if forced:
            options = [
                option(Action.of("mulligan", "forced"), t("Mulligan (nothing you can play)"))
            ]
        return Decision(
            key=key,
            seat=seat,
            prompt=t("Your turn: play a card.") if not forced else t("You cannot play: Mulligan."),
            options=tuple(options),
            default=ai.main_default(self, state, options),
            hides_choice=True,  # a lone card to play would tell what the hand holds
        )

    def may_seek(self, state: ChomperState) -> bool:
        """Whether Seek (or a Copy as Seek) may open the turn. The rulebook sets no limit,
        but with only Seek and Copy to play, each takes the other back from the pile and the
        turn would start again for ever: a turn starts again by Seek at most
        ``SEEKS_A_TURN`` times, and a player left with nothing else must Mulligan."""
        return state.seeks < SEEKS_A_TURN

    def copied_to_open(self, state: ChomperState) -> str | None:
        """What a Copy played to open a turn would copy: "the last card played before it",
        the top of the Played Cards Pile -- if that card could open a turn itself. (After a
        Veto sent the main card back, the last card played is that Veto: no copy to open.)"""
        if self.last_entry(state) is not None or not state.played:
            return None
        top = state.played[-1]
        return top if self.cards.is_number(top) or top in MAIN_ACTIONS else None

    def copy_opening_options(self, state: ChomperState) -> list[Option]:
        copied = self.copied_to_open(state)
        if copied is None:
            return []
        cards, label = self.cards, self.cards.label
        text = t("Copy of {card}", card=label(copied))
        group = cards.actions["copy"].title
        if cards.is_number(copied):
            return [
                option(Action.of("copy", copied, n), t("{n} ({copy})", n=n, copy=text), group=group)
                for n in cards.numbers_on(copied) or (0,)
            ]
        if copied == "seek":
            if not self.may_seek(state):
                return []
            return [
                option(
                    Action.of("copy", "seek", pick),
                    t("{copy}: take {card}", copy=text, card=label(pick)),
                    group=group,
                )
                for pick in sorted(set(state.played))
            ]
        return [option(Action.of("copy", copied), text, group=group)]

    def round_decision(self, state: ChomperState, key: str, seat: int) -> Decision:
        options = [option(Action.of("pass"), t("Pass"), style="primary", group=t("Pass"))]
        options += self.modifier_options(state, seat)
        main = self.main_entry(state)
        skipper = main is not None and main.acts_as == "skip" and seat == state.turn
        why = no_number(main)
        prompt = (
            t("Play a modifier or pass ({why}).", why=why)
            if why
            else t("Play a modifier or pass (the number is {n}).", n=produced(state.queue).amount)
        )
        return Decision(
            key=key,
            seat=seat,
            prompt=prompt,
            options=tuple(options),
            default=Action.of("pass"),
            reaction=True,
            lenient=True,  # the live timer passes for them
            live_seconds=float(state.options.round_seconds),
            # A lone Pass would tell the hand holds no modifier (but Skip's owner may play
            # nothing else, as everyone saw).
            hides_choice=not skipper,
        )

    def modifier_options(self, state: ChomperState, seat: int) -> list[Option]:
        cards, queue = self.cards, state.queue
        main = self.main_entry(state)
        skipped = main is not None and main.acts_as == "skip"
        if skipped and seat == state.turn:
            return []  # Skip must be the only card its owner plays
        hand = self.playable(state, seat)
        options: list[Option] = []
        for card in dict.fromkeys(hand):
            if skipped and card != "veto":
                continue
            if card in PLAIN:
                options.append(
                    option(
                        Action.of("play", card),
                        cards.label(card),
                        group=t("Modifiers"),
                        description=cards.brief(card),
                    )
                )
            elif card in WITH_NUMBER:
                rest = list(hand)
                rest.remove(card)
                if "roll" in rest:  # Roll "can be played in place of a Number Card"
                    options.append(
                        option(
                            Action.of("play", card, "roll"),
                            t(
                                "{card} a Roll (with {roll})",
                                card=cards.label(card),
                                roll=cards.label("roll"),
                            ),
                            group=cards.actions[card].title,
                            description=cards.brief(card),
                        )
                    )
                for number_card in dict.fromkeys(c for c in rest if cards.is_number(c)):
                    for n in cards.numbers_on(number_card) or (0,):
                        options.append(
                            option(
                                Action.of("play", card, number_card, n),
                                t(
                                    "{card} {n} (with {number})",
                                    card=cards.label(card),
                                    n=n,
                                    number=cards.label(number_card),
                                ),
                                group=cards.actions[card].title,
                                description=cards.brief(card),
                            )
                        )
            elif card == "copy":
                options += self.copy_options(state, seat)
            elif card in AIMED:
                for index, entry in enumerate(queue):
                    if self.can_aim(state, seat, card, entry):
                        options.append(
                            option(
                                Action.of("aim", card, index),
                                t(
                                    "{card}: {name}'s {entry}",
                                    card=cards.label(card),
                                    name=state.names[entry.owner],
                                    entry=self.entry_text(entry),
                                ),
                                group=cards.actions[card].title,
                                description=cards.brief(card),
                            )
                        )
        return options

    def copy_options(self, state: ChomperState, seat: int) -> list[Option]:
        """Copy acts as the last card still in play, whatever its kind: aimed like a Veto,
        Opposites or Think Again! it copies, else with the same selection."""
        last = self.last_entry(state)
        if last is None:
            return []
        kind = last.acts_as
        if kind not in AIMED:
            text = t("Copy ({entry})", entry=self.entry_text(last))
            return [
                option(
                    Action.of("play", "copy"),
                    text,
                    group=t("Modifiers"),
                    description=self.cards.brief("copy"),
                )
            ]
        return [
            option(
                Action.of("aim", "copy", index),
                t(
                    "Copy as {card}: {name}'s {entry}",
                    card=self.cards.label(kind),
                    name=state.names[entry.owner],
                    entry=self.entry_text(entry),
                ),
                group=self.cards.actions["copy"].title,
                description=self.cards.brief("copy"),
            )
            for index, entry in enumerate(state.queue)
            if self.can_aim(state, seat, kind, entry)
        ]

    def can_aim(self, state: ChomperState, seat: int, card: str, entry: Entry) -> bool:
        if entry.vetoed:
            return False
        if card == "veto":
            return entry.owner != seat and entry.acts_as != "veto"
        if card == "opposites":
            return self.number_card_of(entry) is not None
        # Think Again!: any card a selection was made on; with one choice it has no effect
        return entry.choice is not None or entry.acts_as == "seek"

    def redo_decision(self, state: ChomperState, key: str, redo: Redo) -> Decision:
        entry = state.queue[redo.entry]
        choices = [
            c
            for c in self.choices(state, entry)
            if not redo.different or c != self.selection(entry)
        ]
        options = tuple(
            option(Action.of("choose", c), self.cards.label(c) if isinstance(c, str) else str(c))
            for c in choices
        )
        return Decision(
            key=key,
            seat=redo.seat,
            prompt=t("Choose again for your {entry}.", entry=self.entry_text(entry)),
            options=options,
            default=options[0].action,
        )

    # --- what cards are ------------------------------------------------------------------
    def number_card_of(self, entry: Entry) -> str | None:
        """The number card whose numbers an entry chose from (a Copy acting as one counts;
        a Roll is no number card: Opposites does not touch it)."""
        for card in (entry.card, entry.acts_as, entry.companion):
            if card is not None and self.cards.is_number(card):
                return card
        return None

    @staticmethod
    def rolls(entry: Entry) -> bool:
        """Its number came from the die: a Roll, or Add/Subtract/Multiply with a Roll."""
        return entry.acts_as == "roll" or entry.companion == "roll"

    def choices(self, state: ChomperState, entry: Entry) -> list[int | str]:
        if entry.acts_as == "seek":
            return list(dict.fromkeys(state.played))
        number_card = self.number_card_of(entry)
        if number_card is None:
            return []
        if entry.opposite:
            return list(self.cards.opposites_of(number_card))
        return list(self.cards.numbers_on(number_card) or (0,))

    @staticmethod
    def selection(entry: Entry) -> int | str | None:
        return entry.pick if entry.acts_as == "seek" else entry.choice

    def entry_text(self, entry: Entry) -> Text | str:
        label = self.cards.label(entry.card)
        if entry.card == "copy":
            label = t("{card} of {copied}", card=label, copied=self.cards.label(entry.acts_as))
        if entry.acts_as in WITH_NUMBER and entry.companion == "roll":
            label = t("{card} (🎲 {n})", card=label, n=entry.choice)
        elif (
            entry.acts_as in WITH_NUMBER
            or self.cards.is_number(entry.acts_as)
            or entry.acts_as == "roll"
        ):
            label = t("{card} ({n})", card=label, n=entry.choice)
        if entry.acts_as == "seek" and entry.pick:
            label = t("{card} ({pick})", card=label, pick=self.cards.label(entry.pick))
        return label

    def main_entry(self, state: ChomperState) -> Entry | None:
        mains = [e for e in state.queue if not e.vetoed and self.opens(state, e)]
        return mains[-1] if mains else None

    @staticmethod
    def opens(state: ChomperState, entry: Entry) -> bool:
        """The card that opened the turn (a Copy played later as a main card does not)."""
        return entry.opener or (
            entry.owner == state.turn and is_main(entry) and entry.card != "copy"
        )

    def last_entry(self, state: ChomperState) -> Entry | None:
        live = [e for e in state.queue if not e.vetoed]
        return live[-1] if live else None

    # --- moves -----------------------------------------------------------------------
    def play(
        self, state: ChomperState, seat: int, action: Action, rng: random.Random
    ) -> list[Event]:
        events: list[Event] = []
        state.step += 1
        if state.phase == "chain":
            self.play_chain(state, seat, action, events, rng)
            return events
        if state.redo is not None:
            self.choose_again(state, action, events)
            return events
        if state.phase == "main":
            self.play_main(state, seat, action, events, rng)
        elif action.kind == "pass":
            assert state.window is not None
            state.window.passed()
            if state.window.closed:
                self.settle(state, events, rng)
        else:
            self.play_modifier(state, seat, action, events, rng)
        return events

    def take_from_hand(self, state: ChomperState, seat: int, *cards: str) -> None:
        hand, shown = state.hands[seat], self.shown(state, seat)
        for card in cards:
            hand.remove(card)
            if card in shown:
                shown.remove(card)

    @staticmethod
    def shown(state: ChomperState, seat: int) -> list[str]:
        """The cards of ``seat``'s hand every player has seen (made for an older state)."""
        if len(state.shown) != len(state.names):
            state.shown = [[] for _ in state.names]
        return state.shown[seat]

    def discard_hand(self, state: ChomperState, seat: int) -> None:
        state.played += state.hands[seat]
        state.hands[seat] = []
        self.shown(state, seat).clear()

    def play_main(
        self,
        state: ChomperState,
        seat: int,
        action: Action,
        events: list[Event],
        rng: random.Random,
    ) -> None:
        name = state.names[seat]
        if action.args == ("forced",):
            events.append(Event(text=t("♻️ {name} cannot play and must Mulligan.", name=name)))
            self.mulligan(state, seat, rng)
            return
        if action.kind == "copy":  # a Copy standing for the card it copies
            card, acts_as, rest = "copy", action.args[0], action.args[1:]
        elif action.kind == "number":
            card, acts_as, rest = action.args[0], action.args[0], action.args[1:]
        else:
            card, acts_as, rest = action.kind, action.kind, action.args
        entry = Entry(owner=seat, card=card, acts_as=acts_as, opener=True)
        self.take_from_hand(state, seat, card)
        if self.cards.is_number(acts_as):
            entry.choice = int(rest[0])
        elif acts_as == "roll":
            entry.choice = rng.randint(0, 5)
        elif acts_as == "seek":
            entry.pick = rest[0] if rest else None
        events.append(Event(text=self.opening_text(name, card, entry)))
        state.queue.append(entry)
        state.phase = "round"
        if state.window is None:
            state.window = RoundTable.opened_by(seat, self.players_in(state))
        else:
            state.window.hand_to(seat)

    def opening_text(self, name: str, card: str, entry: Entry) -> Text:
        """The log line of a turn's main card; a Copy says what it stands for."""
        label, acts_as = self.cards.label, entry.acts_as
        said = {"name": name, "card": label(acts_as)}
        copy = {"copy": label(card)} if card != acts_as else {}
        if self.cards.is_number(acts_as):
            if copy:
                return t(
                    "{name} plays {copy} as {card} and chooses {n}.", n=entry.choice, **said, **copy
                )
            return t("{name} plays {card} and chooses {n}.", n=entry.choice, **said)
        if acts_as == "roll":
            if copy:
                return t("🎲 {name} plays {copy} as Roll: {n}.", name=name, n=entry.choice, **copy)
            return t("🎲 {name} plays Roll: {n}.", name=name, n=entry.choice)
        if acts_as == "seek" and entry.pick:
            picked = label(entry.pick)
            if copy:
                return t(
                    "🔍 {name} plays {copy} as Seek and picks {card}.",
                    name=name,
                    card=picked,
                    **copy,
                )
            return t("🔍 {name} plays Seek and picks {card}.", name=name, card=picked)
        if acts_as == "seek":
            if copy:
                return t(
                    "🔍 {name} plays {copy} as Seek and picks a card from the deck "
                    "(the pile is empty).",
                    name=name,
                    **copy,
                )
            return t(
                "🔍 {name} plays Seek and picks a card from the deck (the pile is empty).",
                name=name,
            )
        if copy:
            return t("{name} plays {copy} as {card}.", **said, **copy)
        return t("{name} plays {card}.", **said)

    def play_modifier(
        self,
        state: ChomperState,
        seat: int,
        action: Action,
        events: list[Event],
        rng: random.Random,
    ) -> None:
        assert state.window is not None
        name, label = state.names[seat], self.cards.label
        card = action.args[0]
        if action.kind == "play" and card == "copy":
            last = self.last_entry(state)
            assert last is not None
            entry = Entry(owner=seat, card="copy", acts_as=last.acts_as, choice=last.choice)
            if last.acts_as == "roll":
                entry.choice = rng.randint(0, 5)
            self.take_from_hand(state, seat, "copy")
            events.append(
                Event(
                    text=t(
                        "📠 {name} plays Copy: {entry}.", name=name, entry=self.entry_text(entry)
                    )
                )
            )
            state.queue.append(entry)
        elif action.kind == "play" and card in WITH_NUMBER:
            number_card = action.args[1]
            n = rng.randint(0, 5) if number_card == "roll" else int(action.args[2])
            self.take_from_hand(state, seat, card, number_card)
            state.queue.append(
                Entry(owner=seat, card=card, acts_as=card, companion=number_card, choice=n)
            )
            if number_card == "roll":
                text = t(
                    "🎲 {name} plays {card} with {roll} and rolls {n}.",
                    name=name,
                    card=label(card),
                    roll=label("roll"),
                    n=n,
                )
            else:
                text = t(
                    "{name} plays {card} {n} with {number}.",
                    name=name,
                    card=label(card),
                    n=n,
                    number=label(number_card),
                )
            events.append(Event(text=text))
        elif action.kind == "play":
            self.take_from_hand(state, seat, card)
            state.queue.append(Entry(owner=seat, card=card, acts_as=card))
            events.append(Event(text=t("{name} plays {card}.", name=name, card=label(card))))
        else:
            self.aim(state, seat, card, int(action.args[1]), events, rng)
            return
        state.window.acted()

    def aim(
        self,
        state: ChomperState,
        seat: int,
        card: str,
        index: int,
        events: list[Event],
        rng: random.Random,
    ) -> None:
        assert state.window is not None
        target = state.queue[index]
        name, label = state.names[seat], self.cards.label
        kind = card
        if card == "copy":
            last = self.last_entry(state)
            assert last is not None
            kind = last.acts_as
        if not self.can_aim(state, seat, kind, target):
            raise IllegalAction(t("That card cannot be aimed there."))
        self.take_from_hand(state, seat, card)
        entry = Entry(owner=seat, card=card, acts_as=kind, target=index)
        entry.undo = {"choice": target.choice, "pick": target.pick, "opposite": target.opposite}
        state.queue.append(entry)
        events.append(
            Event(
                text=t(
                    "{name} plays {card} on {owner}'s {entry}.",
                    name=name,
                    card=label(card),
                    owner=state.names[target.owner],
                    entry=self.entry_text(target),
                )
            )
        )
        state.window.acted()
        if kind == "veto":
            self.veto(state, target, events, rng)
        elif kind == "opposites":
            target.opposite = True
            state.redo = Redo(seat=target.owner, entry=index, different=False)
        elif self.rolls(target):
            target.choice = rng.randint(0, 5)
            events.append(Event(text=t("🎲 Rolled again: {n}.", n=target.choice)))
        elif len(self.choices(state, target)) >= 2:
            state.redo = Redo(seat=target.owner, entry=index)
        else:
            events.append(Event(text=t("🤔 It has no effect: that card had only one choice.")))

    def veto(
        self, state: ChomperState, target: Entry, events: list[Event], rng: random.Random
    ) -> None:
        """The card (and the number card played with it) goes back to its owner's hand,
        has no effect, and cannot be played again this turn."""
        target.vetoed = True
        back = [target.card] + ([target.companion] if target.companion else [])
        state.hands[target.owner] += back
        state.barred[target.owner] += back
        self.shown(state, target.owner).extend(back)
        if target.target is not None and target.undo is not None:
            aimed = state.queue[target.target]  # Opposites or Think Again! undone
            aimed.choice = target.undo["choice"]  # type: ignore[assignment]
            aimed.pick = target.undo["pick"]  # type: ignore[assignment]
            aimed.opposite = bool(target.undo["opposite"])
        if self.opens(state, target):
            assert state.window is not None
            state.phase = "main"  # the Active Player must play another card
            state.window.hand_to(state.turn)
            events.append(
                Event(text=t("{name} must play another card.", name=state.names[state.turn]))
            )

    def choose_again(self, state: ChomperState, action: Action, events: list[Event]) -> None:
        redo = state.redo
        assert redo is not None
        entry = state.queue[redo.entry]
        value = action.args[0]
        if entry.acts_as == "seek":
            entry.pick = value
        else:
            entry.choice = int(value)
        state.redo = None
        events.append(
            Event(
                text=t(
                    "{name} now chooses {entry}.",
                    name=state.names[redo.seat],
                    entry=self.entry_text(entry),
                )
            )
        )

    # --- settling ------------------------------------------------------------------------
    def settle(self, state: ChomperState, events: list[Event], rng: random.Random) -> None:
        main = self.main_entry(state)
        active = state.turn
        total = produced(state.queue)
        state.trail = total.trail
        self.clear_queue(state)
        if main is not None and main.acts_as == "seek":
            if main.pick is not None and main.pick in state.played:
                state.played.remove(main.pick)
                state.hands[active].append(main.pick)
                self.shown(state, active).append(main.pick)  # "allowing all ... to see"
            else:
                self.draw(state, active, rng)
            events.append(Event(text=t("{name}'s turn starts again.", name=state.names[active])))
            state.seeks += 1
            self.restart_turn(state)
            return
        if main is not None and main.acts_as == "mulligan":
            events.append(Event(text=t("♻️ {name} mulligans.", name=state.names[active])))
            self.mulligan(state, active, rng)
            return
        if main is None or main.acts_as == "skip":
            events.append(Event(text=t("⏭️ {name} skips.", name=state.names[active])))
        else:
            for _ in range(total.flips):
                state.stack.reverse()
            self.chomp(state, active, total.amount, events, rng)
        self.end_turn(state, events, rng)

    def clear_queue(self, state: ChomperState) -> None:
        for entry in state.queue:
            if not entry.vetoed:
                state.played += [entry.card] + ([entry.companion] if entry.companion else [])
        state.queue = []
        state.window = None

    def mulligan(self, state: ChomperState, seat: int, rng: random.Random) -> None:
        self.discard_hand(state, seat)
        state.barred[seat] = []
        self.draw_to_hand_size(state, seat, rng)
        self.restart_turn(state)

    def restart_turn(self, state: ChomperState) -> None:
        self.clear_queue(state)
        state.phase = "main"

    def chomp(
        self, state: ChomperState, seat: int, amount: int, events: list[Event], rng: random.Random
    ) -> None:
        """Take ``amount`` tokens from the top of the Stack (a negative amount gives back)."""
        name = state.names[seat]
        hoarder = state.options.hoarder
        if amount < 0:
            given = -amount
            if hoarder:
                pile = state.piles[seat]
                back = [pile.pop() for _ in range(min(given, len(pile)))]
                # "First in is last out": the last taken goes back first, and each token
                # returned lands on top, so the Stack reads again as it did when taken.
                state.stack[:0] = back[::-1]
                given = len(back)
            else:
                state.stack[:0] = [COOKIE] * given
            events.append(
                Event(
                    text=tn(
                        "🍪 {name} gives {n} cookie back to the Stack.",
                        "🍪 {name} gives {n} cookies back to the Stack.",
                        n=given,
                        name=name,
                    )
                )
            )
            return
        taken, state.stack = state.stack[:amount], state.stack[amount:]
        events.append(Event(text=t("🍪 {name} takes {n} from the Stack.", name=name, n=len(taken))))
        if hoarder:
            for token in taken:
                if token.startswith("b"):
                    pile = state.piles[seat]
                    cookies = [i for i, t in enumerate(pile) if t == COOKIE][-int(token[1:]) :]
                    for i in reversed(cookies):
                        del pile[i]
                    state.bandit_pile += len(cookies)
                    events.append(
                        Event(
                            text=tn(
                                "🦝 A bandit steals {n} cookie from {name}!",
                                "🦝 A bandit steals {n} cookies from {name}!",
                                n=len(cookies),
                                name=name,
                            )
                        )
                    )
                else:
                    state.piles[seat].append(token)
            return
        if GOLDEN in taken:
            state.winner = seat
            state.phase = "over"
            events.append(Event(text=t("🌟 {name} takes the Golden Cookie and wins!", name=name)))
        elif POISON in taken:
            state.out[seat] = True
            state.eliminated.append(seat)
            self.discard_hand(state, seat)
            events.append(Event(text=t("☠️ {name} takes the poison cookie and is out!", name=name)))
            if len(self.players_in(state)) > 1:
                self.build_stack(state, rng)
            else:
                state.phase = "over"

    def end_turn(self, state: ChomperState, events: list[Event], rng: random.Random) -> None:
        state.seeks = 0
        if state.options.hoarder and not state.stack:
            state.phase = "over"
        if state.phase == "over":
            return
        for seat in self.players_in(state):
            self.draw_to_hand_size(state, seat, rng)
        state.barred = [[] for _ in state.names]
        state.turn = self.next_in(state, state.turn)
        state.phase = "main"

    # --- the end -------------------------------------------------------------------------
    def outcome(self, state: ChomperState) -> Outcome | None:
        if state.phase != "over":
            return None
        names = state.names
        mode = state.options.mode
        if mode == "chain":
            return self.chain_outcome(state)
        if state.options.hoarder:
            scores = [self.hoard_score(pile) for pile in state.piles]
            best = max(scores)
            leaders = [names[s] for s in range(len(names)) if scores[s] == best]
            return Outcome.ranked(
                scores,
                t(
                    "The Stack is empty: {names} hoarded the most ({n}).",
                    names=Names(leaders),
                    n=best,
                ),
            )
        if state.winner is not None:
            keys = [1 if s == state.winner else 0 for s in range(len(names))]
            return Outcome.ranked(
                keys, t("{name} took the Golden Cookie.", name=names[state.winner])
            )
        # Last player standing; the earlier out, the lower the place.
        order = {seat: i for i, seat in enumerate(state.eliminated)}
        keys = [order.get(s, len(names)) for s in range(len(names))]
        survivor = self.players_in(state)[0]
        return Outcome.ranked(keys, t("{name} is the last player standing.", name=names[survivor]))

    def score_text(self, state: ChomperState, placement: Placement) -> Text | str:
        if state.options.mode == "chain":
            return tn("{n} card left", "{n} cards left", n=placement.score)
        if state.options.hoarder:
            return tn("{n} pt", "{n} pts", n=placement.score)
        return ""  # the Golden Cookie, or the last player standing: the place says it all

    @staticmethod
    def hoard_score(pile: list[str]) -> int:
        return sum({COOKIE: 1, POISON: -2, GOLDEN: 2}.get(token, 0) for token in pile)

    # --- views, bots, text ---------------------------------------------------------------
    def view(self, state: ChomperState, seat: int | None) -> BaseModel:
        return view_of(self, state, seat)

    def panels(self, view: BaseModel) -> Panels:
        return panels(self, view)  # type: ignore[arg-type]

    def picture_source(self) -> object:
        return self.cards

    def choose(self, view: BaseModel, decision: Decision) -> Action:
        return ai.choose(self, view, decision)  # type: ignore[arg-type]

    def rulebook(self, options: ChomperOptions | None = None) -> Text:
        return joined((self.rules_text(options), self.rulings_text(options)), "\n")

    def rules_text(self, options: ChomperOptions | None = None) -> Text:
        # Kept apart from our rulings as separate messages, not cut out of English text.
        return joined((HOW_TO_PLAY_HERE, rules_text(self.cards), "\n"), "")

    def rulings_text(self, options: ChomperOptions | None = None) -> Text:
        return rulings_text()

    def scramble_hidden(
        self, state: ChomperState, seat: int | None, rng: random.Random
    ) -> ChomperState:
        """Deal the deck and the other hands anew (sizes kept), but for the cards every
        player saw go into a hand (``shown``); in Cookie Hoarder the Stack's order is secret
        too."""
        twin = self.state_model.model_validate(state.model_dump())
        others = [s for s in range(len(state.names)) if s != seat]
        known = {s: list(self.shown(twin, s)) for s in others}
        unseen = {s: list(twin.hands[s]) for s in others}
        for s in others:
            for card in known[s]:
                unseen[s].remove(card)
        # sorted first: the real order and holders must not shape the re-deal (the search
        # deals its worlds with this)
        hidden = sorted([*twin.deck, *(c for s in others for c in unseen[s])])
        rng.shuffle(hidden)
        twin.deck, hidden = hidden[: len(twin.deck)], hidden[len(twin.deck) :]
        for s in others:
            size = len(unseen[s])
            twin.hands[s], hidden = known[s] + hidden[:size], hidden[size:]
        if state.options.hoarder:
            twin.stack.sort()
            rng.shuffle(twin.stack)
        return twin
