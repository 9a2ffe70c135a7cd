"""Resolving the effect language, one op at a time, asking players where an op needs a choice.

An ``EffectFrame`` walks its ops in order. An op either resolves at once (all its targets
are forced), pushes frames that resolve before the next op (damage, cards from a deck), or
waits for a choice: ``effect_choice`` says what is asked, ``answer_effect`` takes the reply.
"""

from __future__ import annotations

import random

from games.braverse.battle import Battle, other
from games.braverse.cards import (
    Activate,
    AddHp,
    BreakToDiscard,
    CardFilter,
    Damage,
    DeckToSupport,
    DisableFlip,
    Discard,
    Draw,
    Mill,
    ModifyAttack,
    Op,
    Recover,
    Rest,
    ReturnToHand,
    Search,
    SupportToHand,
    Target,
    ToDiscard,
    target_verb,
)
from games.braverse.state import (
    AttackFrame,
    BraverseState,
    DamageFrame,
    EffectFrame,
    SupportCard,
)
from games.core.protocol import Action, Event, Option, option

TARGETED = (Damage, AddHp, ReturnToHand, Rest, Activate, SupportToHand, ToDiscard)


class Choice:
    """What an op asks: who, what, and whether stopping early is allowed."""

    def __init__(
        self, seat: int, prompt: str, options: list[Option], *, hides: bool = False
    ) -> None:
        self.seat, self.prompt, self.options = seat, prompt, options
        self.hides = hides  # whether the seat has a choice at all is a secret of its hand


class Effects(Battle):
    def ops_of(self, frame: EffectFrame) -> tuple[Op, ...]:
        effect = self.pool[frame.card].ability(frame.trigger)
        assert effect is not None
        return effect.do

    # --- walking the ops ----------------------------------------------------------------
    def step_effect(
        self, state: BraverseState, frame: EffectFrame, events: list[Event], rng: random.Random
    ) -> bool:
        effect = self.pool[frame.card].ability(frame.trigger)
        assert effect is not None
        if not frame.started:
            frame.started = True
            # a played or chosen effect was offered only while its condition held: paying
            # for it (a card from hand, a Support card) must not make it fail afterwards
            if not frame.chosen and not self.holds(state, frame.seat, effect.if_):
                events.append(Event(text=f"{self.pool[frame.card].name}: the condition fails."))
                self.finish_effect(state)
                return True
        if frame.at >= len(effect.do):
            self.finish_effect(state)
            return True
        op = effect.do[frame.at]
        if self.effect_choice(state, frame) is not None:
            return False
        self.resolve(state, frame, op, events, rng)
        return True

    def finish_effect(self, state: BraverseState) -> None:
        state.stack.pop()
        # a Cookie that left by this effect is followed by re-placement once it is done; an
        # effect inside an attack or another effect (a FLIP, a trap) is part of it, so its
        # re-placement waits for the attack or outer effect to resolve in full
        if any(side.left for side in state.sides) and not any(
            isinstance(f, AttackFrame | EffectFrame) for f in state.stack
        ):
            self.push_replacement(state)

    def next_op(self, frame: EffectFrame) -> None:
        frame.at += 1
        frame.picks, frame.looked, frame.done = [], [], 0
        frame.opened = False

    # --- targets ------------------------------------------------------------------------
    def candidates(self, state: BraverseState, frame: EffectFrame, target: Target) -> list[str]:
        """Refs of what ``target`` may aim at: ``c<uid>`` a Cookie, ``s<seat>-<i>`` Support."""
        if target.side == "self":
            found = self.find(state, frame.source) if frame.source is not None else None
            return [f"c{frame.source}"] if found is not None else []
        seats = {
            "own": [frame.seat],
            "opponent": [other(frame.seat)],
            "either": [frame.seat, other(frame.seat)],
        }[target.side]
        refs: list[str] = []
        for seat in seats:
            side = state.sides[seat]
            if target.zone == "battle":
                for cookie in side.battle:
                    if self.matches(target, cookie.card, cookie.rested, len(cookie.hp)):
                        refs.append(f"c{cookie.uid}")
            else:
                for index, support in enumerate(side.support):
                    if self.matches(target, support.card, support.rested, None):
                        refs.append(f"s{seat}-{index}")
        return refs

    def matches(self, target: Target, number: str, rested: bool, hp: int | None) -> bool:
        card = self.pool[number]
        if target.level is not None and card.level not in target.level:
            return False
        if target.colour is not None and card.colour not in target.colour:
            return False
        if target.state is not None and rested != (target.state == "rest"):
            return False
        if target.flip is not None and card.is_flip != target.flip:
            return False
        return target.hp_left_at_most is None or (hp is not None and hp <= target.hp_left_at_most)

    def fits(self, card_filter: CardFilter, number: str) -> bool:
        card = self.pool[number]
        return (
            (card_filter.type is None or card.type in card_filter.type)
            and (card_filter.level is None or card.level in card_filter.level)
            and (card_filter.colour is None or card.colour in card_filter.colour)
            and (card_filter.flip is None or card.is_flip == card_filter.flip)
        )

    def ref_label(self, state: BraverseState, ref: str) -> str:
        """A target as its option names it; no two targets read alike (HP left and place
        for Cookies, the place in the Support Area for two alike Support cards)."""
        if ref.startswith("c"):
            found = self.find(state, int(ref[1:]))
            assert found is not None
            seat, cookie = found
            battle = state.sides[seat].battle
            return f"{state.names[seat]}'s {self.battle_name(battle, battle.index(cookie))}"
        seat, index = (int(x) for x in ref[1:].split("-"))
        support = state.sides[seat].support
        card, mode = support[index].card, "Rest" if support[index].rested else "Active"
        alike = sum(s.card == card and s.rested == support[index].rested for s in support)
        place = f", #{index + 1}" if alike > 1 else ""
        return f"{state.names[seat]}'s Support {self.pool[card].name} ({mode}{place})"

    def target_prompt(self, frame: EffectFrame, op: Op, target: Target) -> str:
        """Says which effect asks and what it does: "Blaze Fencer's attack also deals 1
        damage: pick a target." """
        name = self.pool[frame.card].name
        whose = {
            "attack.then": f"{name}'s attack also",
            "flip": f"{name}'s FLIP",
            "on_reveal": f"{name}'s On Reveal",
            "when_attacked": f"{name}'s answer",
            "end_of_turn": f"At the end of the turn, {name}",
        }.get(frame.trigger, name)
        if target.up_to:
            pick = f"pick up to {target.count}, then Done"
        else:
            pick = "pick a target" if target.count == 1 else f"pick {target.count} targets"
        return f"{whose} {target_verb(op)}: {pick}."

    # --- what an op asks ----------------------------------------------------------------
    def effect_choice(self, state: BraverseState, frame: EffectFrame) -> Choice | None:
        ops = self.ops_of(frame)
        if frame.at >= len(ops) or not frame.started:
            return None
        op = ops[frame.at]
        name = self.pool[frame.card].name
        if isinstance(op, Draw) and op.up_to:
            opts = [
                option(Action.of("draw", k), f"Draw {k}", group="Draw") for k in range(op.n + 1)
            ]
            return Choice(frame.seat, f"{name}: draw how many?", opts[::-1])
        if isinstance(op, TARGETED):
            target: Target = op.target
            cands = self.candidates(state, frame, target)
            need = min(target.count, len(cands))
            if len(frame.picks) >= need or (not target.up_to and len(cands) <= target.count):
                return None
            opts = [
                option(Action.of("pick", ref), self.ref_label(state, ref), group="Targets")
                for ref in cands
                if ref not in frame.picks
            ]
            if target.up_to:
                opts.append(option(Action.of("done"), "Done", group="Done"))
            return Choice(frame.seat, self.target_prompt(frame, op, target), opts)
        if isinstance(op, Search) and frame.opened:
            if frame.done >= op.take:
                return None
            matching = sorted({c for c in frame.looked if self.fits(op.filter, c)})
            if not matching:
                return None
            opts = [
                option(Action.of("take", c), f"Take {self.pool[c].name}", group="Take")
                for c in matching
            ]
            opts.append(option(Action.of("done"), "Done", group="Done"))
            return Choice(frame.seat, f"{name}: take a card into your hand?", opts)
        pile = self.pile_for(state, frame, op)
        if pile is not None:
            seat, cards, verb = pile
            distinct = sorted(set(cards))
            # A hand of one kind is asked all the same: taken at once, the game going
            # straight on would tell the table (public piles need no such care).
            hidden = isinstance(op, Discard) and state.options.ask_lone_choice
            if len(distinct) < (1 if hidden else 2):
                return None
            opts = [
                option(Action.of("take", c), f"{verb} {self.pool[c].name}", group=verb)
                for c in distinct
            ]
            return Choice(seat, f"{name}: {verb.lower()} which card?", opts, hides=hidden)
        return None

    def pile_for(
        self, state: BraverseState, frame: EffectFrame, op: Op
    ) -> tuple[int, list[str], str] | None:
        """Ops that take cards one at a time from a pile: (chooser, choosable cards, verb),
        or None when the op is not one of them or is finished."""
        side = state.sides[frame.seat]
        if isinstance(op, Recover) and frame.done < op.n:
            cards = [c for c in side.discard if self.fits(op.filter, c)]
            return (frame.seat, cards, "Recover") if cards else None
        if isinstance(op, BreakToDiscard) and frame.done < op.n:
            return (frame.seat, list(side.break_area), "Move") if side.break_area else None
        if isinstance(op, Discard) and op.how == "choose" and frame.done < op.n:
            owner = frame.seat if op.side == "own" else other(frame.seat)
            hand = state.sides[owner].hand
            return (owner, list(hand), "Discard") if hand else None
        return None

    # --- resolving ----------------------------------------------------------------------
    def resolve(
        self,
        state: BraverseState,
        frame: EffectFrame,
        op: Op,
        events: list[Event],
        rng: random.Random,
    ) -> None:
        """Resolve the op as far as it goes without a choice."""
        seat = frame.seat
        name = self.pool[frame.card].name
        match op:
            case Draw(n=n):
                self.deal(state, seat, "hand", n, events)
            case ModifyAttack(n=n):
                self.modify_attack(state, seat, n, name, events)
            case Mill(n=n, side=whose):
                self.deal(state, seat if whose == "own" else other(seat), "discard", n, events)
            case DeckToSupport(n=n, rested=rested):
                self.deal(state, seat, "support", n, events, rested=rested)
            case DisableFlip(side=whose):
                victim = seat if whose == "own" else other(seat)
                state.sides[victim].flip_off = True
                events.append(
                    Event(text=f"🚫 {state.names[victim]}'s FLIP effects are off this turn.")
                )
            case Search(n=n):
                deck = state.sides[seat].deck
                if not frame.opened:
                    # the cards stay on top of the deck while looked at: not an empty deck
                    frame.looked = deck[::-1][:n]
                    frame.opened = True
                    seen = ", ".join(self.pool[c].name for c in frame.looked) or "nothing"
                    events.append(
                        Event(text=f"{state.names[seat]} looks at the top {len(frame.looked)}.")
                    )
                    events.append(Event(text=f"You see: {seen}.", visible_to=frozenset({seat})))
                    return
                # nothing (more) to take: the rest go to the bottom, in the order seen
                rest = len(frame.looked)
                if rest:
                    deck[:0] = deck[-rest:]
                    del deck[-rest:]
                self.next_op(frame)
                return
            case Discard(n=n, side=whose, how="random"):
                victim = seat if whose == "own" else other(seat)
                hand = state.sides[victim].hand
                for _ in range(min(n, len(hand))):
                    card = hand.pop(rng.randrange(len(hand)))
                    state.sides[victim].discard.append(card)
                    events.append(
                        Event(text=f"🗑️ {state.names[victim]} discards {self.pool[card].name}.")
                    )
            case _ if isinstance(op, TARGETED):
                cands = self.candidates(state, frame, op.target)
                if not op.target.up_to and len(cands) <= op.target.count:
                    frame.picks = cands
                self.hit(state, frame, op, events)
            case _:
                pile = self.pile_for(state, frame, op)
                if pile is not None:  # a single kind of card to take: no need to ask
                    self.take(state, frame, op, pile[1][0], events)
                    return
        self.next_op(frame)

    def modify_attack(
        self, state: BraverseState, seat: int, n: int, name: str, events: list[Event]
    ) -> None:
        """The attack in progress if its damage is not locked yet; else this turn's attacks."""
        attack = self.current_attack(state)
        if attack is not None and attack.step in ("window", "damage"):
            attack.damage += n
            events.append(
                Event(text=f"{name}: the attack now deals {max(0, attack.damage)} damage.")
            )
        else:
            state.sides[seat].attack_bonus += n
            text = f"{name}: {state.names[seat]}'s attacks deal {n:+d} this turn."
            events.append(Event(text=text))

    def hit(self, state: BraverseState, frame: EffectFrame, op: Op, events: list[Event]) -> None:
        """Carry out a targeted op on the picked targets, in the order picked."""
        name = self.pool[frame.card].name
        support_refs = sorted(
            (r for r in frame.picks if r.startswith("s")),
            key=lambda r: -int(r.split("-")[1]),
        )  # highest index first, so removals keep the others' places
        for ref in [r for r in frame.picks if r.startswith("c")] + support_refs:
            if ref.startswith("s"):
                seat, index = (int(x) for x in ref[1:].split("-"))
                support = state.sides[seat].support[index]
                self.hit_support(state, seat, index, support, op, events)
                continue
            found = self.find(state, int(ref[1:]))
            if found is None:
                continue
            seat, cookie = found
            who = self.cookie_name(state, seat, cookie.card)
            if isinstance(op, Damage):  # the points themselves come as frames, below
                events.append(Event(text=f"{name} deals {op.n} damage to {who}."))
            elif isinstance(op, AddHp):
                self.deal(state, seat, "hp", op.n, events, uid=cookie.uid)
                events.append(Event(text=f"💚 {who} gets +{op.n} HP."))
            elif isinstance(op, ReturnToHand):
                self.leave(state, seat, cookie, "hand", events)
            elif isinstance(op, ToDiscard):
                self.leave(state, seat, cookie, "discard", events)
            elif isinstance(op, Rest):
                cookie.rested = True
                events.append(Event(text=f"{who} is rested."))
            elif isinstance(op, Activate):
                cookie.rested = False
                events.append(Event(text=f"{who} is made Active."))
        if isinstance(op, Damage):  # one point at a time, first pick first
            for ref in reversed([r for r in frame.picks if r.startswith("c")]):
                found = self.find(state, int(ref[1:]))
                if found is not None:
                    state.stack.append(
                        DamageFrame(seat=found[0], uid=found[1].uid, left=op.n, source=frame.card)
                    )

    def hit_support(
        self,
        state: BraverseState,
        seat: int,
        index: int,
        support: SupportCard,
        op: Op,
        events: list[Event],
    ) -> None:
        label = f"{state.names[seat]}'s Support {self.pool[support.card].name}"
        if isinstance(op, Rest):
            support.rested = True
            events.append(Event(text=f"{label} is rested."))
        elif isinstance(op, Activate):
            support.rested = False
            events.append(Event(text=f"{label} is made Active."))
        elif isinstance(op, SupportToHand):
            del state.sides[seat].support[index]
            state.sides[seat].hand.append(support.card)
            events.append(Event(text=f"{label} goes back to the hand."))

    def take(
        self, state: BraverseState, frame: EffectFrame, op: Op, card: str, events: list[Event]
    ) -> None:
        """One card of a pile op (recover, break_to_discard, discard by choice)."""
        side = state.sides[frame.seat]
        if isinstance(op, Recover):
            side.discard.remove(card)
            side.hand.append(card)
            events.append(
                Event(text=f"{state.names[frame.seat]} recovers {self.pool[card].name} to hand.")
            )
        elif isinstance(op, BreakToDiscard):
            side.break_area.remove(card)
            side.discard.append(card)
            events.append(
                Event(
                    text=f"{state.names[frame.seat]} moves {self.pool[card].name} from the "
                    f"Break Area to the Discard Pile (LV {self.break_level(side)})."
                )
            )
        elif isinstance(op, Discard):
            owner = frame.seat if op.side == "own" else other(frame.seat)
            victim = state.sides[owner]
            victim.hand.remove(card)
            victim.discard.append(card)
            events.append(Event(text=f"🗑️ {state.names[owner]} discards {self.pool[card].name}."))
        frame.done += 1

    # --- answers ------------------------------------------------------------------------
    def answer_effect(
        self, state: BraverseState, frame: EffectFrame, action: Action, events: list[Event]
    ) -> None:
        op = self.ops_of(frame)[frame.at]
        if action.kind == "draw":
            self.deal(state, frame.seat, "hand", int(action.args[0]), events)
            self.next_op(frame)
        elif action.kind == "pick":
            frame.picks.append(action.args[0])
            if self.effect_choice(state, frame) is None:
                self.hit(state, frame, op, events)
                self.next_op(frame)
        elif action.kind == "done" and isinstance(op, Search):
            frame.done = op.take  # stop taking: resolve puts the rest at the bottom
        elif action.kind == "done":
            self.hit(state, frame, op, events)
            self.next_op(frame)
        elif action.kind == "take" and isinstance(op, Search):
            card = action.args[0]
            frame.looked.remove(card)
            deck = state.sides[frame.seat].deck
            del deck[len(deck) - 1 - deck[::-1].index(card)]  # it is among the top cards
            state.sides[frame.seat].hand.append(card)
            frame.done += 1
            events.append(Event(text=f"{state.names[frame.seat]} takes a card into their hand."))
            events.append(
                Event(
                    text=f"You take {self.pool[action.args[0]].name}.",
                    visible_to=frozenset({frame.seat}),
                )
            )
        elif action.kind == "take":
            self.take(state, frame, op, action.args[0], events)
