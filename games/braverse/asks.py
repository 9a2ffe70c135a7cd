"""Who decides what, now: the phase's decision when the stack is empty, else the decision
of the frame on top (a trap window, a FLIP, an On Reveal, re-placement, a refresh, or a
choice inside an effect). Payment is part of each action: one option per distinct colour
multiset, the automatic payment first."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from games.braverse.battle import other, position_word
from games.braverse.cards import (
    Op,
    colour_word,
    effect_text,
    op_brief,
    op_text,
    ops_text,
    trigger_name,
    type_name,
)
from games.braverse.effects import Effects
from games.braverse.payment import Payment, payment_text, payments
from games.braverse.phrases import sentences, widest
from games.braverse.state import (
    WIN_LEVEL,
    BraverseState,
    EffectFrame,
    FlipFrame,
    RefreshFrame,
    ReplaceFrame,
    RevealFrame,
    TrapWindow,
)
from games.core.protocol import Action, Decision, Option, option
from games.core.text import Text, plain, t, tc
from games.core.words import brief

BUTTON_LABEL = 80  # Discord's longest button label; a select's option label takes 100
DESCRIPTION = 100  # a select option's description


# The groups moves are shown in, and words every main decision says: made once.
ATTACKS = tc("group", "Attacks")
COOKIES = tc("group", "Cookies")
ITEMS = tc("group", "Items")
STAGE = tc("group", "Stage")
END = tc("group", "End")
END_TURN = t("End turn")
SUPPORT = tc("group", "Support")
SKIP = tc("group", "Skip")


# Decisions are hot (a search bot asks at every step of its playouts) and an attack's label
# repeats: kept by its parts, Texts whose English names them (card names are unique).
@lru_cache(maxsize=4096)
def attack_label(attacker: Text, target: Text, damage: int, paid: Text) -> tuple[Text, bool]:
    """An attack's label, and whether it fits a button in every shipped language."""
    label = t(
        "{attacker} → {target}: {n} dmg ({paid})",
        attacker=attacker,
        target=target,
        n=damage,
        paid=paid,
    )
    return label, widest(label) <= BUTTON_LABEL


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
                    option(Action.of("order", "first"), t("Go first"), style="primary"),
                    option(Action.of("order", "second"), t("Go second")),
                )
                return [
                    Decision(
                        key=key,
                        seat=state.chooser,
                        prompt=t("You won rock-paper-scissors: go first or second?"),
                        options=opts,
                        default=opts[0].action,
                    )
                ]
            case "mulligan":
                seat = self.setup_seat(state)
                opts = (
                    option(Action.of("mull", "no"), t("Keep this hand"), style="primary"),
                    option(Action.of("mull", "yes"), t("Mulligan (shuffle back, draw 6)")),
                )
                return [
                    Decision(
                        key=key,
                        seat=seat,
                        prompt=t("Keep your hand or mulligan once?"),
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
            option(Action.of("start", c), self.card_label(c), group=COOKIES)
            for c in self.cookies_in_hand(state.sides[seat])
        )
        return Decision(
            key="start",  # both choose at once; one answering must not change the other's
            seat=seat,
            prompt=t("Choose your starting Cookie (secret until both have chosen)."),
            options=opts,
            default=opts[0].action,
            hides_choice=True,  # one kind of Cookie in hand is pinged all the same
        )

    def said_once(self, key: tuple[str, ...], make: Callable[[], Text]) -> Text:
        """Words of a card, made once per engine: they depend on the pool alone, and
        decisions, which say them, are hot."""
        said: dict[tuple[str, ...], Text] = self.__dict__.setdefault("_said", {})
        found = said.get(key)
        if found is None:
            found = said[key] = make()
        return found

    def effect_brief(self, number: str, trigger: str | None = None) -> Text:
        """What a card does, for its option's description (at most 100 characters): the
        one trigger's text, or every effect but the plain attack; "" for a vanilla card."""
        return self.said_once(
            ("brief", number, trigger or ""), lambda: self.make_brief(number, trigger)
        )

    def make_brief(self, number: str, trigger: str | None) -> Text:
        card = self.pool[number]
        effects = [(name, ops) for name, ops in card.effects() if name != "attack.then"]
        if trigger is not None:
            effects = [(name, ops) for name, ops in effects if name == trigger]
        if not effects:
            return plain("")

        def said(op_words: Callable[[Op], Text]) -> Text:
            return sentences(
                [
                    t(
                        "{trigger}: {effect}",
                        trigger=trigger_name(name),
                        effect=sentences([op_words(op) for op in ops]),
                    )
                    for name, ops in effects
                ]
            )

        text = said(op_text)
        if len(text) > DESCRIPTION:  # the English's length: translations are kept as short
            text = said(op_brief)
        return text if len(text) <= DESCRIPTION else brief(text, DESCRIPTION)

    def card_label(self, number: str) -> Text:
        return self.said_once(("label", number), lambda: self.make_card_label(number))

    def make_card_label(self, number: str) -> Text:
        card = self.pool[number]
        if card.type == "cookie":
            return t("{card} (LV{level}, HP {hp})", card=card.title, level=card.level, hp=card.hp)
        return t("{card} ({kind})", card=card.title, kind=type_name(card.type))

    def support_label(self, number: str) -> Text:
        card = self.pool[number]
        return t("{card} (pays {colour})", card=card.label, colour=colour_word(card.colour))

    def support_decision(self, state: BraverseState, key: str) -> Decision:
        side = state.sides[state.turn]
        opts = [
            option(
                Action.of("sup", c),
                self.said_once(("support", c), lambda c=c: self.support_label(c)),
                group=SUPPORT,
            )
            for c in sorted(set(side.hand))
        ]
        opts.append(option(Action.of("skip"), t("Skip"), group=SKIP))
        return Decision(
            key=key,
            seat=state.turn,
            prompt=t(
                "Support Phase: put one card from your hand into your Support Area. "
                "Each Support card pays one symbol of its colour, every turn, for attacks, "
                "Items, Traps and Stages."
            ),
            options=tuple(opts),
            default=Action.of("skip"),
        )

    def main_decision(self, state: BraverseState, key: str) -> Decision:
        # A newcomer missing the attack they expected is told the rule that holds it back.
        prompt = (
            t("Main Phase: play, attack, or end your turn.")
            if self.may_attack(state)
            else t(
                "Main Phase: play, or end your turn. (The first player cannot attack on "
                "their first turn.)"
            )
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
                    self.said_once(
                        ("place", c), lambda c=c: t("Place {card}", card=self.card_label(c))
                    ),
                    group=COOKIES,
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
                            t("Use {card} ({paid})", card=card.title, paid=self.paid_text(p)),
                            group=ITEMS,
                            description=self.effect_brief(number, "item"),
                        )
                    )
            elif card.type == "stage":
                for p in payments(side, self.pool, card.cost, playing=number):
                    opts.append(
                        option(
                            Action.of("stage", number, *p.args),
                            t("Stage {card} ({paid})", card=card.title, paid=self.paid_text(p)),
                            group=STAGE,
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
                        t("Activate {card} ({paid})", card=stage.title, paid=self.paid_text(p)),
                        group=STAGE,
                        description=self.effect_brief(stage.number, "activate"),
                    )
                )
        if self.may_attack(state):
            opts += self.attack_options(state)
        opts.append(option(Action.of("end"), END_TURN, group=END, style="danger"))
        return opts

    def attack_options(self, state: BraverseState) -> list[Option]:
        """Each attacker on each target, paid each way. A label names the places and HP
        left, so no two read alike; when one is too long for a button (80 characters),
        every attack carries what it does and they share a select (100)."""
        seat = state.turn
        side, foe = state.sides[seat], state.sides[other(seat)]
        opts: list[Option] = []
        every_fits = True
        for i, cookie in enumerate(side.battle):
            card = self.pool[cookie.card]
            if cookie.rested or card.attack is None:
                continue
            damage = max(0, card.attack.damage + side.attack_bonus)
            name = self.pool[cookie.card].name
            attacker = self.pool[cookie.card].title
            if [self.pool[c.card].name for c in side.battle].count(name) > 1:
                attacker = t("{card} ({place})", card=attacker, place=position_word(i, short=True))
            for j in range(len(foe.battle)):
                target = self.battle_name(foe.battle, j)
                for p in payments(side, self.pool, card.attack.cost):
                    label, fits = attack_label(attacker, target, damage, self.paid_text(p))
                    every_fits = every_fits and fits
                    opts.append(option(Action.of("atk", i, j, *p.args), label, group=ATTACKS))
        if every_fits:
            return opts
        return [
            option(o.action, o.label, group=o.group, description=self.attack_brief(state, o.action))
            for o in opts
        ]

    def attack_brief(self, state: BraverseState, action: Action) -> Text:
        """What an attack does, for its option's description."""
        number = state.sides[state.turn].battle[int(action.args[0])].card
        attack = self.pool[number].attack
        assert attack is not None
        if attack.then:
            return brief(
                t("Attack: {n} damage. Then: {then}", n=attack.damage, then=ops_text(attack.then))
            )
        return t("Attack: {n} damage.", n=attack.damage)

    def paid_text(self, payment: Payment) -> Text:
        """A payment as its payer reads it: colours, and the hand card it discards by name."""
        discard = payment.discard
        return payment_text(payment, self.pool[discard].title if discard in self.pool else discard)

    def paid_ability(
        self,
        state: BraverseState,
        key: str,
        seat: int,
        pays: list[Payment],
        *,
        use: tuple[str, Text, Text, Text],
        refuse: tuple[str, Text],
        prompt: Text,
    ) -> Decision:
        """An ability its owner may use, paying one way or another, or let go (a FLIP, an
        On Reveal): used when free and let go otherwise if the clock runs out, and a
        reaction when it comes on the other player's turn."""
        kind, label, group, description = use
        opts = [
            option(
                Action.of(kind, *p.args),
                t("{action} ({paid})", action=label, paid=self.paid_text(p)),
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
            opts = [
                option(
                    Action.of("pass"),
                    t("No response"),
                    group=tc("group", "Pass"),
                    style="primary",
                )
            ]
            side = state.sides[frame.seat]
            for kind, what, p in self.responses(state, frame.seat):
                if kind == "trap":
                    label = t(
                        "Trap: {card} ({paid})", card=self.pool[what].title, paid=self.paid_text(p)
                    )
                    about = self.effect_brief(what, "trap")
                else:
                    card = self.pool[side.battle[int(what)].card]
                    label = t(
                        "{card} when attacked ({paid})", card=card.title, paid=self.paid_text(p)
                    )
                    about = self.effect_brief(card.number, "when_attacked")
                opts.append(
                    option(
                        Action.of(kind, what, *p.args),
                        label,
                        group=tc("group", "Responses"),
                        description=about,
                    )
                )
            attack = self.current_attack(state)
            damage = attack.damage if attack is not None else 0
            return Decision(
                key=key,
                seat=frame.seat,
                prompt=t("You are attacked ({n} damage): answer with a Trap or not?", n=damage),
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
                use=(
                    "flip",
                    t("Use FLIP"),
                    tc("group", "FLIP"),
                    self.effect_brief(frame.card, "flip"),
                ),
                refuse=("decline", t("Decline")),
                prompt=t(
                    "FLIP: {card} — {effect}",
                    card=card.title,
                    effect=self.trigger_text(card.number, "flip"),
                ),
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
                use=(
                    "reveal",
                    t("Use On Reveal"),
                    tc("group", "Use"),
                    self.effect_brief(card.number, "on_reveal"),
                ),
                refuse=("skip", t("Skip")),
                # What it does, as a FLIP's prompt says it: the choice is to pay for it.
                prompt=t(
                    "On Reveal: {card} — {effect}",
                    card=card.title,
                    effect=self.trigger_text(card.number, "on_reveal"),
                ),
            )
        if isinstance(frame, ReplaceFrame):
            seat = frame.order[0]
            side = state.sides[seat]
            opts = [
                option(
                    Action.of("place", c),
                    self.said_once(
                        ("place", c), lambda c=c: t("Place {card}", card=self.card_label(c))
                    ),
                    group=COOKIES,
                )
                for c in self.cookies_in_hand(side)
            ]
            forced = not side.battle
            if not forced:
                opts.append(
                    option(Action.of("done"), t("Place no more"), group=tc("group", "Done"))
                )
            return Decision(
                key=key,
                seat=seat,
                prompt=t("Your Battle Area is empty: place a Cookie.")
                if forced
                else t("A Cookie left: place a Cookie from your hand?"),
                options=tuple(opts),
                default=opts[0].action if forced else Action.of("done"),
                reaction=seat != state.turn,
                hides_choice=True,  # a side with no Cookie in hand is pinged all the same
            )
        if isinstance(frame, RefreshFrame):
            side = state.sides[frame.seat]
            opts = [
                option(
                    Action.of("refresh", c),
                    t("Break {card}", card=self.card_label(c)),
                    group=tc("group", "Refresh"),
                )
                for c in self.refresh_choices(side)
            ]
            return Decision(
                key=key,
                seat=frame.seat,
                prompt=t(
                    "Your deck is empty: which Cookie from your Discard Pile goes to the "
                    "Break Area? Its LV counts toward the {n} that lose; the rest of the pile "
                    "becomes your deck.",
                    n=WIN_LEVEL,
                ),
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

    def trigger_text(self, number: str, trigger: str) -> Text:
        """What the card's line for ``trigger`` says it does ("FLIP (1 Red): Deal 2
        damage…" -> "Deal 2 damage…")."""
        effect = self.pool[number].ability(trigger)
        assert effect is not None
        return effect_text(effect)
