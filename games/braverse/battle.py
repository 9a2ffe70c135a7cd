"""The frames of a battle: attacks, damage one HP card at a time, FLIP, faint, On Reveal,
re-placement, refresh, and cards dealt from a deck one by one.

Every ``step_*`` method resolves a little of the frame on top of the stack and returns True,
or returns False when the frame waits for a player's choice (``decisions`` then asks it).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.braverse.cards import CardPool, Condition, parse_cost
from games.braverse.payment import Payment, pay, payments
from games.braverse.state import (
    POSITIONS,
    WIN_LEVEL,
    AttackFrame,
    BraverseState,
    Cookie,
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
from games.core.protocol import Event
from games.core.text import Text, t, tc, tn

if TYPE_CHECKING:
    from games.braverse.cards import Card

SETUP_PHASES = ("order", "mulligan", "redraw", "starting")


def other(seat: int) -> int:
    return 1 - seat


def position_word(index: int, *, first: bool = False, short: bool = False) -> Text:
    """A place in the Battle Area (``POSITIONS``), as moves and the table name it;
    ``short``: abridged where a language needs it to fit a move's label."""
    left = POSITIONS[index] == "left"
    if short:
        return tc("short", "left") if left else tc("short", "right")
    if first:
        return t("Left") if left else t("Right")
    return t("left") if left else t("right")


class Battle:
    pool: CardPool

    # --- looking things up ---------------------------------------------------------------
    @staticmethod
    def find(state: BraverseState, uid: int) -> tuple[int, Cookie] | None:
        for seat, side in enumerate(state.sides):
            for cookie in side.battle:
                if cookie.uid == uid:
                    return seat, cookie
        return None

    def break_level(self, side: Side) -> int:
        return sum(self.pool[c].level or 0 for c in side.break_area)

    def cookie_name(self, state: BraverseState, seat: int, card: str) -> Text:
        return t("{player}'s {card}", player=state.names[seat], card=self.pool[card].title)

    def battle_name(self, battle: list[Cookie], index: int) -> Text:
        """A Cookie as an option names it: its HP left, and its place when there are two,
        so that two Cookies of one name never read alike."""
        cookie = battle[index]
        card = self.pool[cookie.card].title
        if len(battle) > 1:
            place = position_word(index, short=True)
            return t("{card} ({place}, HP {n})", card=card, place=place, n=len(cookie.hp))
        return t("{card} (HP {n})", card=card, n=len(cookie.hp))

    @staticmethod
    def current_attack(state: BraverseState) -> AttackFrame | None:
        for frame in reversed(state.stack):
            if isinstance(frame, AttackFrame):
                return frame
        return None

    def holds(self, state: BraverseState, seat: int, condition: Condition | None) -> bool:
        if condition is None:
            return True
        mine, theirs = state.sides[seat], state.sides[other(seat)]
        attack = self.current_attack(state)
        checks = (
            (condition.break_level_at_least, lambda n: self.break_level(mine) >= n),
            (condition.opponent_break_level_at_least, lambda n: self.break_level(theirs) >= n),
            (condition.hand_at_most, lambda n: len(mine.hand) <= n),
            (condition.hand_at_least, lambda n: len(mine.hand) >= n),
            (
                condition.active_support_at_least,
                lambda n: sum(not s.rested for s in mine.support) >= n,
            ),
            (
                condition.attack_damage_at_least,
                lambda n: attack is not None and not attack.dealt and attack.damage >= n,
            ),
        )
        return all(test(value) for value, test in checks if value is not None)

    # --- the end ------------------------------------------------------------------------
    def lose(self, state: BraverseState, seat: int, why: Text, events: list[Event]) -> None:
        if state.winner is not None:
            return
        state.winner = other(seat)
        state.phase = "over"
        state.stack = []
        state.reason = t("{why}: {winner} wins.", why=why, winner=state.names[other(seat)])
        events.append(Event(text=t("🏁 {reason}", reason=state.reason)))

    def check_break(self, state: BraverseState, seat: int, events: list[Event]) -> None:
        level = self.break_level(state.sides[seat])
        if level >= WIN_LEVEL:
            why = t("{player}'s Break Area reached LV {n}", player=state.names[seat], n=level)
            self.lose(state, seat, why, events)

    # --- moving Cookies -----------------------------------------------------------------
    def place(
        self,
        state: BraverseState,
        seat: int,
        card: str,
        events: list[Event],
        *,
        reveal: bool = True,
    ) -> Cookie:
        """From hand into the Battle Area, face up; its HP pile comes from the deck (dealt
        as a frame, so an empty deck refreshes in between); then its On Reveal may be used."""
        side = state.sides[seat]
        side.hand.remove(card)
        cookie = Cookie(uid=state.next_uid, card=card, hp=[])
        state.next_uid += 1
        side.battle.append(cookie)
        spec = self.pool[card]
        text = t(
            "🍪 {player} places {card} (LV{level}, HP {hp}).",
            player=state.names[seat],
            card=spec.title,
            level=spec.level,
            hp=spec.hp,
        )
        events.append(Event(text=text))
        if reveal and spec.on_reveal is not None:
            state.stack.append(RevealFrame(seat=seat, uid=cookie.uid))
        state.stack.append(DealFrame(seat=seat, to="hp", left=spec.hp or 0, uid=cookie.uid))
        return cookie

    def faint(self, state: BraverseState, seat: int, cookie: Cookie, events: list[Event]) -> None:
        side = state.sides[seat]
        side.battle.remove(cookie)
        side.discard += cookie.hp
        side.break_area.append(cookie.card)
        side.left += 1
        text = t(
            "💔 {cookie} faints (Break Area LV {level}/{win}).",
            cookie=self.cookie_name(state, seat, cookie.card),
            level=self.break_level(side),
            win=WIN_LEVEL,
        )
        events.append(Event(text=text))
        self.check_break(state, seat, events)

    def leave(
        self, state: BraverseState, seat: int, cookie: Cookie, to: str, events: list[Event]
    ) -> None:
        """Leaves the Battle Area without fainting: to the hand or the Discard Pile."""
        side = state.sides[seat]
        side.battle.remove(cookie)
        side.discard += cookie.hp
        (side.hand if to == "hand" else side.discard).append(cookie.card)
        side.left += 1
        who = self.cookie_name(state, seat, cookie.card)
        if to == "hand":
            events.append(Event(text=t("↩️ {cookie} goes back to the hand.", cookie=who)))
        else:
            events.append(Event(text=t("↩️ {cookie} goes to the Discard Pile.", cookie=who)))

    # --- dealing from a deck ------------------------------------------------------------
    def deal(
        self, state: BraverseState, seat: int, to: str, n: int, events: list[Event], **kw: object
    ) -> None:
        if n <= 0:
            return
        if to == "hand":
            events.append(Event(text=t("{player} draws {n}.", player=state.names[seat], n=n)))
        state.stack.append(DealFrame(seat=seat, to=to, left=n, **kw))  # type: ignore[arg-type]

    def step_deal(self, state: BraverseState, frame: DealFrame, events: list[Event]) -> bool:
        side = state.sides[frame.seat]
        target = self.find(state, frame.uid) if frame.uid is not None else None
        if frame.left <= 0 or (frame.to == "hp" and target is None) or not side.deck:
            state.stack.pop()
            return True
        card = side.deck.pop()
        frame.left -= 1
        if frame.to == "hand":
            side.hand.append(card)
            events.append(
                Event(
                    text=t("You draw {card}.", card=self.pool[card].title),
                    visible_to=frozenset({frame.seat}),
                )
            )
        elif frame.to == "hp":
            assert target is not None
            target[1].hp.append(card)
        elif frame.to == "discard":
            side.discard.append(card)
            text = t(
                "{player} mills {card}.", player=state.names[frame.seat], card=self.pool[card].title
            )
            events.append(Event(text=text))
        else:
            side.support.append(SupportCard(card=card, rested=frame.rested))
            text = t(
                "{player} adds {card} to Support.",
                player=state.names[frame.seat],
                card=self.pool[card].title,
            )
            events.append(Event(text=text))
        return True

    # --- refresh ------------------------------------------------------------------------
    def refresh_choices(self, side: Side) -> list[str]:
        cookies = {c for c in side.discard if self.pool[c].type == "cookie"}
        return sorted(cookies, key=lambda c: (self.pool[c].level or 0, c))

    def push_refresh(self, state: BraverseState) -> bool:
        """As soon as a deck is empty, its owner refreshes (turn player first)."""
        for seat in (state.turn, other(state.turn)):
            if state.sides[seat].deck:
                continue
            if any(isinstance(f, RefreshFrame) and f.seat == seat for f in state.stack):
                continue
            state.stack.append(RefreshFrame(seat=seat))
            return True
        return False

    def step_refresh(
        self, state: BraverseState, frame: RefreshFrame, events: list[Event], rng: random.Random
    ) -> bool:
        side = state.sides[frame.seat]
        if side.deck:
            state.stack.pop()
            return True
        choices = self.refresh_choices(side)
        if not choices:
            self.lose(
                state,
                frame.seat,
                t(
                    "{player}'s deck ran out with no Cookie in the Discard Pile to refresh it",
                    player=state.names[frame.seat],
                ),
                events,
            )
            return True
        if len(choices) > 1:
            return False
        self.refresh(state, frame.seat, choices[0], events, rng)
        return True

    def refresh(
        self, state: BraverseState, seat: int, card: str, events: list[Event], rng: random.Random
    ) -> None:
        side = state.sides[seat]
        state.stack.pop()
        side.discard.remove(card)
        side.break_area.append(card)
        side.deck = rng.sample(side.discard, len(side.discard))
        side.discard = []
        text = tn(
            "♻️ {player} refreshes: {card} goes to the Break Area (LV {level}/{win}); the "
            "Discard Pile becomes the deck ({n} card).",
            "♻️ {player} refreshes: {card} goes to the Break Area (LV {level}/{win}); the "
            "Discard Pile becomes the deck ({n} cards).",
            n=len(side.deck),
            player=state.names[seat],
            card=self.pool[card].title,
            level=self.break_level(side),
            win=WIN_LEVEL,
        )
        events.append(Event(text=text))
        self.check_break(state, seat, events)

    # --- re-placement -------------------------------------------------------------------
    def push_replacement(self, state: BraverseState) -> bool:
        if state.phase in SETUP_PHASES or state.phase == "over":
            return False
        order = [
            s
            for s in (state.turn, other(state.turn))
            if state.sides[s].left > 0 or not state.sides[s].battle
        ]
        if not order:
            return False
        state.stack.append(ReplaceFrame(order=order))
        return True

    def cookies_in_hand(self, side: Side) -> list[str]:
        return sorted({c for c in side.hand if self.pool[c].type == "cookie"})

    def step_replace(self, state: BraverseState, frame: ReplaceFrame, events: list[Event]) -> bool:
        while frame.order:
            seat = frame.order[0]
            side = state.sides[seat]
            in_hand = self.cookies_in_hand(side)
            if not side.battle and not in_hand:
                self.lose(
                    state,
                    seat,
                    t(
                        "{player} has no Cookie in the Battle Area and none in hand",
                        player=state.names[seat],
                    ),
                    events,
                )
                return True
            may_place = len(side.battle) < 2 and (side.left > 0 or not side.battle)
            if may_place and (in_hand or state.options.ask_lone_choice):
                return False  # asked even with no Cookie in hand: the wait tells nothing
            side.left = 0
            frame.order.pop(0)
        state.stack.pop()
        return True

    # --- attacks ------------------------------------------------------------------------
    def step_attack(self, state: BraverseState, frame: AttackFrame, events: list[Event]) -> bool:
        defender = other(frame.seat)
        if frame.step == "window":
            frame.step = "damage"
            if state.options.always_ask or self.responses(state, defender):
                state.stack.append(TrapWindow(seat=defender))
            return True
        if frame.step == "damage":
            attacker, target = self.find(state, frame.attacker), self.find(state, frame.target)
            frame.step = "then"
            if attacker is None or target is None:
                gone = (
                    t("The attacker has left the Battle Area: no damage.")
                    if attacker is None
                    else t("The target has left the Battle Area: no damage.")
                )
                events.append(Event(text=gone))
                frame.step = "done"
                return True
            frame.damage = max(0, frame.damage)  # locked from here on
            frame.dealt = True
            text = t(
                "⚔️ {card} deals {n} damage to {cookie}.",
                card=self.pool[attacker[1].card].title,
                n=frame.damage,
                cookie=self.cookie_name(state, defender, target[1].card),
            )
            events.append(Event(text=text))
            if frame.damage:
                state.stack.append(
                    DamageFrame(
                        seat=defender,
                        uid=frame.target,
                        left=frame.damage,
                        source=attacker[1].card,
                    )
                )
            return True
        if frame.step == "then":
            frame.step = "done"
            found = self.find(state, frame.attacker)
            if found is not None:
                card = self.pool[found[1].card]
                if card.attack is not None and card.attack.then:
                    state.stack.append(
                        EffectFrame(
                            seat=frame.seat,
                            card=card.number,
                            trigger="attack.then",
                            source=frame.attacker,
                        )
                    )
            return True
        state.stack.pop()
        return True

    def responses(self, state: BraverseState, seat: int) -> list[tuple[str, str, Payment]]:
        """The defender's possible answers: (kind, what, payment) for each Trap in hand and
        the attacked Cookie's when-attacked effect, if it can pay for them."""
        side = state.sides[seat]
        attack = self.current_attack(state)
        # "When attacked" is printed on the Cookie: it answers an attack on that Cookie only
        target = attack.target if attack is not None else None
        found: list[tuple[str, str, Payment]] = []
        for number in sorted(set(side.hand)):
            card = self.pool[number]
            if card.trap is None or not self.holds(state, seat, card.trap.if_):
                continue
            for payment in payments(side, self.pool, card.cost, playing=number):
                found.append(("trap", number, payment))
        for index, cookie in enumerate(side.battle):
            ability = self.pool[cookie.card].when_attacked
            if ability is None or cookie.uid != target or not self.holds(state, seat, ability.if_):
                continue
            for payment in payments(side, self.pool, ability.cost, self_active=not cookie.rested):
                found.append(("react", str(index), payment))
        return found

    # --- damage -------------------------------------------------------------------------
    def step_damage(self, state: BraverseState, frame: DamageFrame, events: list[Event]) -> bool:
        found = self.find(state, frame.uid)
        if found is None or frame.left <= 0 or not found[1].hp:
            state.stack.pop()
            return True
        seat, cookie = found
        side = state.sides[seat]
        card = cookie.hp.pop()
        side.discard.append(card)
        frame.left -= 1
        text = t(
            "💥 {cookie} flips {card} (HP {n} left).",
            cookie=self.cookie_name(state, seat, cookie.card),
            card=self.pool[card].title,
            n=len(cookie.hp),
        )
        events.append(Event(text=text))
        if not cookie.hp:
            frame.left = 0  # surplus damage is lost
            self.faint(state, seat, cookie, events)
        if self.pool[card].is_flip and state.winner is None:
            self.offer_flip(state, seat, self.pool[card], events)
        return True

    def offer_flip(self, state: BraverseState, seat: int, card: Card, events: list[Event]) -> None:
        side = state.sides[seat]
        assert card.flip is not None
        if side.flip_off:
            text = t("FLIP effects are off this turn: {card} does nothing.", card=card.title)
            events.append(Event(text=text))
        elif not self.holds(state, seat, card.flip.if_):
            events.append(Event(text=t("{card}'s FLIP condition does not hold.", card=card.title)))
        elif not payments(side, self.pool, card.flip.cost):
            text = t(
                "{player} cannot pay {card}'s FLIP.", player=state.names[seat], card=card.title
            )
            events.append(Event(text=text))
        else:
            state.stack.append(FlipFrame(seat=seat, card=card.number))

    def flip_payments(self, state: BraverseState, frame: FlipFrame) -> list[Payment]:
        ability = self.pool[frame.card].flip
        assert ability is not None
        return payments(state.sides[frame.seat], self.pool, ability.cost)

    def step_flip(self, state: BraverseState, frame: FlipFrame, events: list[Event]) -> bool:
        """Asks while it can be paid (it was payable when flipped; nothing resolves between
        the flip and the question, but a frame must never ask with nothing to offer)."""
        if self.flip_payments(state, frame):
            return False
        state.stack.pop()
        text = t("{card}'s FLIP can no longer be paid.", card=self.pool[frame.card].title)
        events.append(Event(text=text))
        return True

    def reveal_payments(self, state: BraverseState, frame: RevealFrame) -> list[Payment]:
        found = self.find(state, frame.uid)
        if found is None:
            return []
        cookie = found[1]
        ability = self.pool[cookie.card].on_reveal
        if ability is None or not self.holds(state, frame.seat, ability.if_):
            return []
        return payments(
            state.sides[frame.seat], self.pool, ability.cost, self_active=not cookie.rested
        )

    def step_reveal(self, state: BraverseState, frame: RevealFrame) -> bool:
        if self.reveal_payments(state, frame):
            return False
        state.stack.pop()
        return True

    def use_ability(
        self,
        state: BraverseState,
        seat: int,
        card: str,
        trigger: str,
        payment: Payment,
        *,
        source: int | None = None,
    ) -> None:
        """Pay (a ``rest_self`` cost rests the source) and put the effect on the stack."""
        side = state.sides[seat]
        pay(side, self.pool, payment)
        ability = self.pool[card].ability(trigger)
        if source is not None and parse_cost(getattr(ability, "cost", "")).rest_self:
            found = self.find(state, source)
            if found is not None:
                found[1].rested = True
        state.stack.append(
            EffectFrame(seat=seat, card=card, trigger=trigger, source=source, chosen=True)
        )
