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
from games.braverse.phrases import commas
from games.braverse.state import (
    AttackFrame,
    BraverseState,
    DamageFrame,
    EffectFrame,
    SupportCard,
)
from games.core.protocol import Action, Event, Option, option
from games.core.text import Text, t, tc

TARGETED = (Damage, AddHp, ReturnToHand, Rest, Activate, SupportToHand, ToDiscard)


def pile_label(verb: str, card: Text) -> Text:
    """An option taking ``card`` from a pile (``pile_for``'s verb)."""
    match verb:
        case "Recover":
            return t("Recover {card}", card=card)
        case "Move":
            return t("Move {card}", card=card)
    return t("Discard {card}", card=card)


def pile_group(verb: str) -> Text:
    match verb:
        case "Recover":
            return tc("group", "Recover")
        case "Move":
            return tc("group", "Move")
    return tc("group", "Discard")


def pile_prompt(verb: str, card: Text) -> Text:
    match verb:
        case "Recover":
            return t("{card}: recover which card?", card=card)
        case "Move":
            return t("{card}: move which card?", card=card)
    return t("{card}: discard which card?", card=card)


class Choice:
    """What an op asks: who, what, and whether stopping early is allowed."""

    def __init__(
        self, seat: int, prompt: Text, options: list[Option], *, hides: bool = False
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
                text = t("{card}: the condition fails.", card=self.pool[frame.card].title)
                events.append(Event(text=text))
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

    def ref_label(self, state: BraverseState, ref: str) -> Text:
        """A target as its option names it; no two targets read alike (HP left and place
        for Cookies, the place in the Support Area for two alike Support cards)."""
        if ref.startswith("c"):
            found = self.find(state, int(ref[1:]))
            assert found is not None
            seat, cookie = found
            battle = state.sides[seat].battle
            return t(
                "{player}'s {card}",
                player=state.names[seat],
                card=self.battle_name(battle, battle.index(cookie)),
            )
        seat, index = (int(x) for x in ref[1:].split("-"))
        support = state.sides[seat].support
        card, rested = support[index].card, support[index].rested
        mode = tc("card state", "Rest") if rested else tc("card state", "Active")
        alike = sum(s.card == card and s.rested == rested for s in support)
        name = state.names[seat]
        if alike > 1:
            return t(
                "{player}'s Support {card} ({state}, #{n})",
                player=name,
                card=self.pool[card].title,
                state=mode,
                n=index + 1,
            )
        return t(
            "{player}'s Support {card} ({state})",
            player=name,
            card=self.pool[card].title,
            state=mode,
        )

    def target_prompt(self, frame: EffectFrame, op: Op, target: Target) -> Text:
        """Says which effect asks and what it does: "Blaze Fencer's attack also deals 1
        damage: pick a target." """
        card = self.pool[frame.card].title
        if target.up_to:
            pick = t("pick up to {n}, then Done", n=target.count)
        elif target.count == 1:
            pick = t("pick a target")
        else:
            pick = t("pick {n} targets", n=target.count)
        args = {"card": card, "does": target_verb(op), "pick": pick}
        match frame.trigger:
            case "attack.then":
                return t("{card}'s attack also {does}: {pick}.", **args)
            case "flip":
                return t("{card}'s FLIP {does}: {pick}.", **args)
            case "on_reveal":
                return t("{card}'s On Reveal {does}: {pick}.", **args)
            case "when_attacked":
                return t("{card}'s answer {does}: {pick}.", **args)
            case "end_of_turn":
                return t("At the end of the turn, {card} {does}: {pick}.", **args)
        return t("{card} {does}: {pick}.", **args)

    # --- what an op asks ----------------------------------------------------------------
    def effect_choice(self, state: BraverseState, frame: EffectFrame) -> Choice | None:
        ops = self.ops_of(frame)
        if frame.at >= len(ops) or not frame.started:
            return None
        op = ops[frame.at]
        name = self.pool[frame.card].title
        if isinstance(op, Draw) and op.up_to:
            opts = [
                option(Action.of("draw", k), t("Draw {n}", n=k), group=tc("group", "Draw"))
                for k in range(op.n + 1)
            ]
            return Choice(frame.seat, t("{card}: draw how many?", card=name), opts[::-1])
        if isinstance(op, TARGETED):
            target: Target = op.target
            cands = self.candidates(state, frame, target)
            need = min(target.count, len(cands))
            if len(frame.picks) >= need or (not target.up_to and len(cands) <= target.count):
                return None
            opts = [
                option(
                    Action.of("pick", ref), self.ref_label(state, ref), group=tc("group", "Targets")
                )
                for ref in cands
                if ref not in frame.picks
            ]
            if target.up_to:
                opts.append(option(Action.of("done"), t("Done"), group=tc("group", "Done")))
            return Choice(frame.seat, self.target_prompt(frame, op, target), opts)
        if isinstance(op, Search) and frame.opened:
            if frame.done >= op.take:
                return None
            matching = sorted({c for c in frame.looked if self.fits(op.filter, c)})
            if not matching:
                return None
            opts = [
                option(
                    Action.of("take", c),
                    t("Take {card}", card=self.pool[c].title),
                    group=tc("group", "Take"),
                )
                for c in matching
            ]
            opts.append(option(Action.of("done"), t("Done"), group=tc("group", "Done")))
            return Choice(frame.seat, t("{card}: take a card into your hand?", card=name), opts)
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
                option(
                    Action.of("take", c),
                    pile_label(verb, self.pool[c].title),
                    group=pile_group(verb),
                )
                for c in distinct
            ]
            return Choice(seat, pile_prompt(verb, name), opts, hides=hidden)
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
                text = t(
                    "🚫 {player}'s FLIP effects are off this turn.", player=state.names[victim]
                )
                events.append(Event(text=text))
            case Search(n=n):
                deck = state.sides[seat].deck
                if not frame.opened:
                    # the cards stay on top of the deck while looked at: not an empty deck
                    frame.looked = deck[::-1][:n]
                    frame.opened = True
                    seen = (
                        commas([self.pool[c].title for c in frame.looked])
                        if frame.looked
                        else t("nothing")
                    )
                    text = t(
                        "{player} looks at the top {n}.",
                        player=state.names[seat],
                        n=len(frame.looked),
                    )
                    events.append(Event(text=text))
                    events.append(
                        Event(text=t("You see: {cards}.", cards=seen), visible_to=frozenset({seat}))
                    )
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
                    text = t(
                        "🗑️ {player} discards {card}.",
                        player=state.names[victim],
                        card=self.pool[card].title,
                    )
                    events.append(Event(text=text))
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
        self, state: BraverseState, seat: int, n: int, name: Text, events: list[Event]
    ) -> None:
        """The attack in progress if its damage is not locked yet; else this turn's attacks."""
        attack = self.current_attack(state)
        if attack is not None and attack.step in ("window", "damage"):
            attack.damage += n
            text = t("{card}: the attack now deals {n} damage.", card=name, n=max(0, attack.damage))
            events.append(Event(text=text))
        else:
            state.sides[seat].attack_bonus += n
            who = state.names[seat]
            text = (
                t("{card}: {player}'s attacks deal +{n} this turn.", card=name, player=who, n=n)
                if n >= 0
                else t("{card}: {player}'s attacks deal {n} this turn.", card=name, player=who, n=n)
            )
            events.append(Event(text=text))

    def hit(self, state: BraverseState, frame: EffectFrame, op: Op, events: list[Event]) -> None:
        """Carry out a targeted op on the picked targets, in the order picked."""
        name = self.pool[frame.card].title
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
                text = t("{card} deals {n} damage to {cookie}.", card=name, n=op.n, cookie=who)
                events.append(Event(text=text))
            elif isinstance(op, AddHp):
                self.deal(state, seat, "hp", op.n, events, uid=cookie.uid)
                events.append(Event(text=t("💚 {cookie} gets +{n} HP.", cookie=who, n=op.n)))
            elif isinstance(op, ReturnToHand):
                self.leave(state, seat, cookie, "hand", events)
            elif isinstance(op, ToDiscard):
                self.leave(state, seat, cookie, "discard", events)
            elif isinstance(op, Rest):
                cookie.rested = True
                events.append(Event(text=t("{cookie} is rested.", cookie=who)))
            elif isinstance(op, Activate):
                cookie.rested = False
                events.append(Event(text=t("{cookie} is made Active.", cookie=who)))
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
        label = t(
            "{player}'s Support {card}",
            player=state.names[seat],
            card=self.pool[support.card].title,
        )
        if isinstance(op, Rest):
            support.rested = True
            events.append(Event(text=t("{cookie} is rested.", cookie=label)))
        elif isinstance(op, Activate):
            support.rested = False
            events.append(Event(text=t("{cookie} is made Active.", cookie=label)))
        elif isinstance(op, SupportToHand):
            del state.sides[seat].support[index]
            state.sides[seat].hand.append(support.card)
            events.append(Event(text=t("{card} goes back to the hand.", card=label)))

    def take(
        self, state: BraverseState, frame: EffectFrame, op: Op, card: str, events: list[Event]
    ) -> None:
        """One card of a pile op (recover, break_to_discard, discard by choice)."""
        side = state.sides[frame.seat]
        if isinstance(op, Recover):
            side.discard.remove(card)
            side.hand.append(card)
            text = t(
                "{player} recovers {card} to hand.",
                player=state.names[frame.seat],
                card=self.pool[card].title,
            )
            events.append(Event(text=text))
        elif isinstance(op, BreakToDiscard):
            side.break_area.remove(card)
            side.discard.append(card)
            text = t(
                "{player} moves {card} from the Break Area to the Discard Pile (LV {level}).",
                player=state.names[frame.seat],
                card=self.pool[card].title,
                level=self.break_level(side),
            )
            events.append(Event(text=text))
        elif isinstance(op, Discard):
            owner = frame.seat if op.side == "own" else other(frame.seat)
            victim = state.sides[owner]
            victim.hand.remove(card)
            victim.discard.append(card)
            text = t(
                "🗑️ {player} discards {card}.", player=state.names[owner], card=self.pool[card].title
            )
            events.append(Event(text=text))
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
            text = t("{player} takes a card into their hand.", player=state.names[frame.seat])
            events.append(Event(text=text))
            events.append(
                Event(
                    text=t("You take {card}.", card=self.pool[action.args[0]].title),
                    visible_to=frozenset({frame.seat}),
                )
            )
        elif action.kind == "take":
            self.take(state, frame, op, action.args[0], events)
