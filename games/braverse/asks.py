"""Who decides what, now: the phase's decision when the stack is empty, else the decision
of the frame on top (a trap window, a FLIP, an On Reveal, re-placement, a refresh, or a
choice inside an effect). Payment is part of each action: one option per distinct colour
multiset, the automatic payment first."""

from __future__ import annotations

from games.braverse.battle import other
from games.braverse.cards import COLOURS, TRIGGER_NAMES, op_text
from games.braverse.effects import Effects
from games.braverse.payment import Payment, payments
from games.braverse.state import (
    POSITIONS,
    BraverseState,
    EffectFrame,
    FlipFrame,
    RefreshFrame,
    ReplaceFrame,
    RevealFrame,
    TrapWindow,
)
from games.core.protocol import Action, Decision, Option, option
from games.core.words import brief

BUTTON_LABEL = 80  # Discord's longest button label; a select's option label takes 100


class Asks(Effects):
    def decisions(self, state: BraverseState) -> list[Decision]:
        if state.winner is not None:
            return []
        if state.stack:
            return [self.frame_decision(state, state.stack[-1])]
        key = f"{state.phase}-{state.step}"
        match state.phase:
            case "order":
                opts = (
                    option(Action.of("order", "first"), "Go first", style="primary"),
                    option(Action.of("order", "second"), "Go second"),
                )
                return [
                    Decision(
                        key=key,
                        seat=state.chooser,
                        prompt="You won rock-paper-scissors: go first or second?",
                        options=opts,
                        default=opts[0].action,
                    )
                ]
            case "mulligan":
                seat = self.setup_seat(state)
                opts = (
                    option(Action.of("mull", "no"), "Keep this hand", style="primary"),
                    option(Action.of("mull", "yes"), "Mulligan (shuffle back, draw 6)"),
                )
                return [
                    Decision(
                        key=key,
                        seat=seat,
                        prompt="Keep your hand or mulligan once?",
                        options=opts,
                        default=opts[0].action,
                    )
                ]
            case "starting":
                return [
                    self.starting_decision(state, seat)
                    for seat in (0, 1)
                    if state.sides[seat].start is None
                ]
            case "support":
                return [self.support_decision(state, key)]
            case "main":
                return [self.main_decision(state, key)]
        return []

    def setup_seat(self, state: BraverseState) -> int:
        return state.first if state.at == 0 else other(state.first)

    def starting_decision(self, state: BraverseState, seat: int) -> Decision:
        opts = tuple(
            option(Action.of("start", c), self.card_label(c), group="Cookies")
            for c in self.cookies_in_hand(state.sides[seat])
        )
        return Decision(
            key="start",  # both choose at once; one answering must not change the other's
            seat=seat,
            prompt="Choose your starting Cookie (secret until both have chosen).",
            options=opts,
            default=opts[0].action,
            hides_choice=True,  # one kind of Cookie in hand is pinged all the same
        )

    def effect_brief(self, number: str, trigger: str | None = None) -> str:
        """What a card does, for its option's description (at most 100 characters): the
        one trigger's text, or every effect but the plain attack; "" for a vanilla card."""
        card = self.pool[number]
        effects = [(t, e) for t, e in card.effects() if t != "attack.then"]
        if trigger is not None:
            effects = [(t, e) for t, e in effects if t == trigger]
        text = " ".join(
            f"{TRIGGER_NAMES[t]}: {' '.join(op_text(op) for op in ops)}" for t, ops in effects
        )
        return brief(text)

    def card_label(self, number: str) -> str:
        card = self.pool[number]
        if card.type == "cookie":
            return f"{card.name} (LV{card.level}, HP {card.hp})"
        return f"{card.name} ({card.type})"

    def support_decision(self, state: BraverseState, key: str) -> Decision:
        side = state.sides[state.turn]
        opts = [
            option(
                Action.of("sup", c),
                f"{self.pool[c].label} (pays {COLOURS[self.pool[c].colour]})",
                group="Support",
            )
            for c in sorted(set(side.hand))
        ]
        opts.append(option(Action.of("skip"), "Skip", group="Skip"))
        return Decision(
            key=key,
            seat=state.turn,
            prompt="Support Phase: put one card from your hand into your Support Area. "
            "Each Support card pays one symbol of its colour, every turn, for attacks, "
            "Items, Traps and Stages.",
            options=tuple(opts),
            default=Action.of("skip"),
        )

    def main_decision(self, state: BraverseState, key: str) -> Decision:
        # A newcomer missing the attack they expected is told the rule that holds it back.
        prompt = (
            "Main Phase: play, attack, or end your turn."
            if self.may_attack(state)
            else "Main Phase: play, or end your turn. (The first player cannot attack on "
            "their first turn.)"
        )
        return Decision(
            key=key,
            seat=state.turn,
            prompt=prompt,
            options=tuple(self.main_options(state)),
            default=Action.of("end"),
            hides_choice=True,  # a lone End turn would tell the hand holds nothing to play
        )

    def may_attack(self, state: BraverseState) -> bool:
        """Not on the first player's first turn."""
        return state.round > 1 or state.turn != state.first

    def main_options(self, state: BraverseState) -> list[Option]:
        seat = state.turn
        side = state.sides[seat]
        opts: list[Option] = []
        hand = sorted(set(side.hand))
        if len(side.battle) < 2:
            opts += [
                option(
                    Action.of("cookie", c),
                    f"Place {self.card_label(c)}",
                    group="Cookies",
                    description=self.effect_brief(c),
                )
                for c in hand
                if self.pool[c].type == "cookie"
            ]
        for number in hand:
            card = self.pool[number]
            if card.type == "item" and card.item is not None:
                if not self.holds(state, seat, card.item.if_):
                    continue
                for p in payments(side, self.pool, card.cost, playing=number):
                    opts.append(
                        option(
                            Action.of("item", number, *p.args),
                            f"Use {card.name} ({self.paid_text(p)})",
                            group="Items",
                            description=self.effect_brief(number, "item"),
                        )
                    )
            elif card.type == "stage":
                for p in payments(side, self.pool, card.cost, playing=number):
                    opts.append(
                        option(
                            Action.of("stage", number, *p.args),
                            f"Stage {card.name} ({self.paid_text(p)})",
                            group="Stage",
                            description=self.effect_brief(number),
                        )
                    )
        stage = self.pool[side.stage] if side.stage else None
        ability = stage.activate if stage is not None else None
        if (
            stage is not None
            and ability is not None
            and not side.stage_rested
            and self.holds(state, seat, ability.if_)
        ):
            for p in payments(side, self.pool, ability.cost):
                opts.append(
                    option(
                        Action.of("act", *p.args),
                        f"Activate {stage.name} ({self.paid_text(p)})",
                        group="Stage",
                        description=self.effect_brief(stage.number, "activate"),
                    )
                )
        if self.may_attack(state):
            opts += self.attack_options(state)
        opts.append(option(Action.of("end"), "End turn", group="End", style="danger"))
        return opts

    def attack_options(self, state: BraverseState) -> list[Option]:
        """Each attacker on each target, paid each way. A label names the places and HP
        left, so no two read alike; when one is too long for a button (80 characters),
        every attack carries what it does and they share a select (100)."""
        seat = state.turn
        side, foe = state.sides[seat], state.sides[other(seat)]
        opts: list[Option] = []
        for i, cookie in enumerate(side.battle):
            card = self.pool[cookie.card]
            if cookie.rested or card.attack is None:
                continue
            damage = max(0, card.attack.damage + side.attack_bonus)
            attacker = self.pool[cookie.card].name
            if [self.pool[c.card].name for c in side.battle].count(attacker) > 1:
                attacker += f" ({POSITIONS[i]})"
            for j in range(len(foe.battle)):
                for p in payments(side, self.pool, card.attack.cost):
                    opts.append(
                        option(
                            Action.of("atk", i, j, *p.args),
                            f"{attacker} → {self.battle_name(foe.battle, j)}: "
                            f"{damage} dmg ({self.paid_text(p)})",
                            group="Attacks",
                        )
                    )
        if all(len(o.label) <= BUTTON_LABEL for o in opts):
            return opts
        return [
            option(o.action, o.label, group=o.group, description=self.attack_brief(state, o.action))
            for o in opts
        ]

    def attack_brief(self, state: BraverseState, action: Action) -> str:
        """What an attack does, for its option's description."""
        number = state.sides[state.turn].battle[int(action.args[0])].card
        attack = self.pool[number].attack
        assert attack is not None
        then = " ".join(op_text(op) for op in attack.then)
        return brief(f"Attack: {attack.damage} damage." + (f" Then: {then}" if then else ""))

    def paid_text(self, payment: Payment) -> str:
        """A payment as its payer reads it: colours, and the hand card it discards by name."""
        text = payment.label
        if payment.discard is not None and payment.discard in self.pool:
            text = text.replace(payment.discard, self.pool[payment.discard].name)
        return text

    def paid_ability(
        self,
        state: BraverseState,
        key: str,
        seat: int,
        pays: list[Payment],
        *,
        use: tuple[str, str, str, str],
        refuse: tuple[str, str],
        prompt: str,
    ) -> Decision:
        """An ability its owner may use, paying one way or another, or let go (a FLIP, an
        On Reveal): used when free and let go otherwise if the clock runs out, and a
        reaction when it comes on the other player's turn."""
        kind, label, group, description = use
        opts = [
            option(
                Action.of(kind, *p.args),
                f"{label} ({self.paid_text(p)})",
                group=group,
                description=description,
            )
            for p in pays
        ]
        opts.append(option(Action.of(refuse[0]), refuse[1], group=refuse[1]))
        return Decision(
            key=key,
            seat=seat,
            prompt=prompt,
            options=tuple(opts),
            default=opts[0].action if pays[0].paid == "free" else Action.of(refuse[0]),
            reaction=seat != state.turn,
        )

    def frame_decision(self, state: BraverseState, frame: object) -> Decision:
        key = f"frame-{state.step}"
        if isinstance(frame, TrapWindow):
            opts = [option(Action.of("pass"), "No response", group="Pass", style="primary")]
            side = state.sides[frame.seat]
            for kind, what, p in self.responses(state, frame.seat):
                if kind == "trap":
                    label = f"Trap: {self.pool[what].name} ({self.paid_text(p)})"
                    about = self.effect_brief(what, "trap")
                else:
                    card = self.pool[side.battle[int(what)].card]
                    label = f"{card.name} when attacked ({self.paid_text(p)})"
                    about = self.effect_brief(card.number, "when_attacked")
                opts.append(
                    option(
                        Action.of(kind, what, *p.args), label, group="Responses", description=about
                    )
                )
            attack = self.current_attack(state)
            damage = attack.damage if attack is not None else 0
            return Decision(
                key=key,
                seat=frame.seat,
                prompt=f"You are attacked ({damage} damage): answer with a Trap or not?",
                options=tuple(opts),
                default=Action.of("pass"),
                reaction=True,
                lenient=True,
                hides_choice=True,  # a defender with nothing to answer is pinged all the same
            )
        if isinstance(frame, FlipFrame):
            card = self.pool[frame.card]
            return self.paid_ability(
                state,
                key,
                frame.seat,
                self.flip_payments(state, frame),
                use=("flip", "Use FLIP", "FLIP", self.effect_brief(frame.card, "flip")),
                refuse=("decline", "Decline"),
                prompt=f"FLIP: {card.name} — {self.trigger_text(card.number, 'flip')}",
            )
        if isinstance(frame, RevealFrame):
            found = self.find(state, frame.uid)
            assert found is not None
            card = self.pool[found[1].card]
            return self.paid_ability(
                state,
                key,
                frame.seat,
                self.reveal_payments(state, frame),
                use=("reveal", "Use On Reveal", "Use", self.effect_brief(card.number, "on_reveal")),
                refuse=("skip", "Skip"),
                # What it does, as a FLIP's prompt says it: the choice is to pay for it.
                prompt=f"On Reveal: {card.name} — {self.trigger_text(card.number, 'on_reveal')}",
            )
        if isinstance(frame, ReplaceFrame):
            seat = frame.order[0]
            side = state.sides[seat]
            opts = [
                option(Action.of("place", c), f"Place {self.card_label(c)}", group="Cookies")
                for c in self.cookies_in_hand(side)
            ]
            forced = not side.battle
            if not forced:
                opts.append(option(Action.of("done"), "Place no more", group="Done"))
            return Decision(
                key=key,
                seat=seat,
                prompt="Your Battle Area is empty: place a Cookie."
                if forced
                else "A Cookie left: place a Cookie from your hand?",
                options=tuple(opts),
                default=opts[0].action if forced else Action.of("done"),
                reaction=seat != state.turn,
                hides_choice=True,  # a side with no Cookie in hand is pinged all the same
            )
        if isinstance(frame, RefreshFrame):
            side = state.sides[frame.seat]
            opts = [
                option(Action.of("refresh", c), f"Break {self.card_label(c)}", group="Refresh")
                for c in self.refresh_choices(side)
            ]
            return Decision(
                key=key,
                seat=frame.seat,
                prompt="Your deck is empty: which Cookie from your Discard Pile goes to the "
                "Break Area? Its LV counts toward the 10 that lose; the rest of the pile "
                "becomes your deck.",
                options=tuple(opts),
                default=opts[0].action,
                reaction=frame.seat != state.turn,
            )
        assert isinstance(frame, EffectFrame)
        choice = self.effect_choice(state, frame)
        assert choice is not None
        return Decision(
            key=key,
            seat=choice.seat,
            prompt=choice.prompt,
            options=tuple(choice.options),
            default=choice.options[0].action,
            reaction=choice.seat != state.turn,
            hides_choice=choice.hides,
        )

    def trigger_text(self, number: str, trigger: str) -> str:
        """What the card's line for ``trigger`` says it does ("FLIP (1 Red): Deal 2
        damage…" -> "Deal 2 damage…")."""
        name = TRIGGER_NAMES[trigger]
        line = next(x for x in self.pool[number].text.splitlines() if x.startswith(name))
        return line.split(": ", 1)[1]
