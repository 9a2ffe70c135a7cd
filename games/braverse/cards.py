"""Braverse card data: the models a card list must satisfy, the loader, and card text.

A card list is TOML (``[[cards]]``) or JSON (``{"cards": [...]}``). Every effect is data in
a small language discriminated on ``op``; unknown ops, fields, colours or triggers, an op
its trigger does not allow, or a level outside 1-3 refuse the whole list with one sentence
naming the file, the card number and the path (``S1-031 flip.do[0]: unknown op ...``).
The card text shown to players is generated from the same data, so a card does what it says.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import tomllib
from functools import cache, cached_property
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from games.braverse.phrases import anded, commas, dotted, lined, ored, plussed, sentences, slashed
from games.core.cards import DATA_DIR
from games.core.text import Text, t, tc, tn

Colour = Literal["R", "Y", "G", "B"]
CardType = Literal["cookie", "item", "trap", "stage"]
Level = Annotated[int, Field(ge=1, le=3)]
COLOURS: dict[str, str] = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Blue"}
COLOUR_EMOJI: dict[str, str] = {"R": "🟥", "Y": "🟨", "G": "🟩", "B": "🟦"}
# A cost: colour letters (N = any colour), then optionally "discard" (a card from hand)
# and "rest_self" (the card itself goes to Rest), space-separated: "RRN", "N discard".
COST_PATTERN = r"^(?:[RYGBN]{1,6})?(?:(?:^| )discard)?(?:(?:^| )rest_self)?$"
Cost = Annotated[str, Field(pattern=COST_PATTERN, description="e.g. 'RRN', 'N discard', ''")]
CARD_NUMBER = r"^[A-Z0-9]{1,4}-[0-9]{3}$"

TRIGGERS: dict[CardType, tuple[str, ...]] = {
    "cookie": ("attack", "on_reveal", "flip", "when_attacked", "end_of_turn"),
    "item": ("item",),
    "trap": ("trap",),
    "stage": ("activate", "end_of_turn"),
}
ALL_TRIGGERS = ("attack.then", "on_reveal", "flip", "when_attacked", "item", "trap")
ALL_TRIGGERS += ("activate", "end_of_turn")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class CostParts(Strict):
    symbols: str = ""  # colour letters and N
    discard: bool = False
    rest_self: bool = False


@cache
def parse_cost(text: str) -> CostParts:
    words = text.split()
    symbols = next((w for w in words if w not in ("discard", "rest_self")), "")
    return CostParts(symbols=symbols, discard="discard" in words, rest_self="rest_self" in words)


# --- what effects aim at --------------------------------------------------------------
class Target(Strict):
    """Cards in play an effect aims at: which side, which zone, how many, which ones."""

    side: Literal["own", "opponent", "either", "self"] = "opponent"
    zone: Literal["battle", "support"] = "battle"
    count: int = Field(default=1, ge=1, le=4)
    up_to: bool = False
    level: tuple[Level, ...] | None = None
    colour: tuple[Colour, ...] | None = None
    hp_left_at_most: int | None = Field(default=None, ge=0)
    state: Literal["active", "rest"] | None = None
    flip: bool | None = None


class CardFilter(Strict):
    """Which cards a search or a recovery may take."""

    type: tuple[CardType, ...] | None = None
    level: tuple[Level, ...] | None = None
    colour: tuple[Colour, ...] | None = None
    flip: bool | None = None


class Condition(Strict):
    """All given parts must hold when the effect would start."""

    break_level_at_least: int | None = Field(default=None, ge=1)  # your Break Area
    opponent_break_level_at_least: int | None = Field(default=None, ge=1)
    hand_at_most: int | None = Field(default=None, ge=0)
    hand_at_least: int | None = Field(default=None, ge=0)
    active_support_at_least: int | None = Field(default=None, ge=1)
    attack_damage_at_least: int | None = Field(default=None, ge=1)  # the declared attack


# --- the ops ----------------------------------------------------------------------------
class Draw(Strict):
    op: Literal["draw"]
    n: int = Field(default=1, ge=1, le=5)
    up_to: bool = False


class Damage(Strict):
    op: Literal["damage"]
    n: int = Field(ge=1, le=6)
    target: Target = Target()


class ModifyAttack(Strict):
    op: Literal["modify_attack"]
    n: int = Field(ge=-6, le=6)


class AddHp(Strict):
    op: Literal["add_hp"]
    n: int = Field(default=1, ge=1, le=4)
    target: Target = Target(side="own")


class Search(Strict):
    op: Literal["search"]
    n: int = Field(ge=1, le=10)
    take: int = Field(default=1, ge=1, le=4)
    filter: CardFilter = CardFilter()


class ReturnToHand(Strict):
    op: Literal["return_to_hand"]
    target: Target = Target()


class Recover(Strict):
    op: Literal["recover"]
    n: int = Field(default=1, ge=1, le=4)
    filter: CardFilter = CardFilter()


class Rest(Strict):
    op: Literal["rest"]
    target: Target = Target()


class Activate(Strict):
    op: Literal["activate"]
    target: Target = Target(side="own")


class Discard(Strict):
    op: Literal["discard"]
    n: int = Field(default=1, ge=1, le=4)
    side: Literal["own", "opponent"] = "opponent"
    how: Literal["choose", "random"] = "choose"  # choose: the hand's owner picks


class Mill(Strict):
    op: Literal["mill"]
    n: int = Field(default=1, ge=1, le=6)
    side: Literal["own", "opponent"] = "opponent"


class DeckToSupport(Strict):
    op: Literal["deck_to_support"]
    n: int = Field(default=1, ge=1, le=3)
    rested: bool = True


class SupportToHand(Strict):
    op: Literal["support_to_hand"]
    target: Target = Target(side="own", zone="support")


class BreakToDiscard(Strict):
    op: Literal["break_to_discard"]
    n: int = Field(default=1, ge=1, le=3)


class ToDiscard(Strict):
    op: Literal["to_discard"]
    target: Target = Target()


class DisableFlip(Strict):
    op: Literal["disable_flip"]
    side: Literal["own", "opponent"] = "opponent"


Op = Annotated[
    Draw
    | Damage
    | ModifyAttack
    | AddHp
    | Search
    | ReturnToHand
    | Recover
    | Rest
    | Activate
    | Discard
    | Mill
    | DeckToSupport
    | SupportToHand
    | BreakToDiscard
    | ToDiscard
    | DisableFlip,
    Field(discriminator="op"),
]
OP_NAMES = (
    "draw",
    "damage",
    "modify_attack",
    "add_hp",
    "search",
    "return_to_hand",
    "recover",
    "rest",
    "activate",
    "discard",
    "mill",
    "deck_to_support",
    "support_to_hand",
    "break_to_discard",
    "to_discard",
    "disable_flip",
)
# Changing the attack in progress means something only before its damage is locked; after
# the damage step (attack.then, a FLIP) or at the end of the turn it would do nothing, so a
# card saying so is refused rather than printed as a dead line.
NOT_ALLOWED: dict[str, frozenset[str]] = {
    "attack.then": frozenset({"modify_attack"}),
    "flip": frozenset({"modify_attack"}),
    "end_of_turn": frozenset({"modify_attack", "disable_flip"}),
}
# Where a target's zone may be what: damage, HP and leaving are for Cookies in battle.
BATTLE_ONLY = frozenset({"damage", "add_hp", "return_to_hand", "to_discard"})


class Effect(Strict):
    """What a trigger does: its ops in order, if its condition holds."""

    if_: Condition | None = Field(default=None, alias="if")
    do: tuple[Op, ...] = Field(min_length=1)


class Ability(Effect):
    """An effect its owner may choose to pay for (On Reveal, FLIP, when attacked, Stage)."""

    cost: Cost = ""


class Attack(Strict):
    cost: Cost
    damage: int = Field(ge=0, le=9)
    then: tuple[Op, ...] = ()


class Card(Strict):
    number: str = Field(pattern=CARD_NUMBER, description="the 4-copy rule counts by number")
    name: str = Field(min_length=1, max_length=40)
    type: CardType
    colour: Colour
    level: int | None = Field(default=None, description="Cookies: 1 to 3")
    hp: int | None = Field(default=None, ge=1, le=10)
    attack: Attack | None = None
    cost: Cost = Field(default="", description="Items, Traps and Stages: the cost to play")
    on_reveal: Ability | None = None
    flip: Ability | None = None
    when_attacked: Ability | None = None
    item: Effect | None = None
    trap: Effect | None = None
    activate: Ability | None = None  # a Stage: rest it (and pay) to use
    end_of_turn: Effect | None = None

    @model_validator(mode="after")
    def _shape(self) -> Card:
        if self.type == "cookie":
            if self.level is None or not 1 <= self.level <= 3:
                raise ValueError(f"level: {self.level} is outside 1-3")
            if self.hp is None or self.attack is None:
                raise ValueError("a Cookie needs hp and attack")
        elif self.level is not None or self.hp is not None or self.attack is not None:
            raise ValueError(f"level, hp, attack: only Cookies have them, not a {self.type}")
        for trigger, effect in self.effects():
            field = trigger.split(".")[0]
            if field not in TRIGGERS[self.type]:
                raise ValueError(f"{trigger}: a {self.type} has no such trigger")
            for index, op in enumerate(effect):
                where = f"{trigger}{'' if trigger == 'attack.then' else '.do'}[{index}]"
                if op.op in NOT_ALLOWED.get(trigger, ()):
                    raise ValueError(f"{where}: op '{op.op}' is not allowed in {trigger}")
                target = getattr(op, "target", None)
                if target is not None:
                    if op.op in BATTLE_ONLY and target.zone != "battle":
                        raise ValueError(f"{where}.target.zone: '{op.op}' aims at battle")
                    if op.op == "support_to_hand" and target.zone != "support":
                        raise ValueError(f"{where}.target.zone: '{op.op}' aims at support")
        return self

    def effects(self) -> list[tuple[str, tuple[Op, ...]]]:
        found: list[tuple[str, tuple[Op, ...]]] = []
        if self.attack is not None and self.attack.then:
            found.append(("attack.then", self.attack.then))
        for trigger in ALL_TRIGGERS[1:]:
            effect = getattr(self, trigger)
            if effect is not None:
                found.append((trigger, effect.do))
        return found

    def ability(self, trigger: str) -> Effect | None:
        if trigger == "attack.then":
            if self.attack is None or not self.attack.then:
                return None
            return Effect(do=self.attack.then)
        return getattr(self, trigger)

    @property
    def is_flip(self) -> bool:
        return self.flip is not None

    @cached_property
    def title(self) -> Text:
        """The card's name, as its reader's language calls it: devtools.catalog extracts
        every name of the card list under the context "card"."""
        return Text(self.name, context="card")

    @cached_property
    def label(self) -> Text:
        return t("{colour} {card}", colour=COLOUR_EMOJI[self.colour], card=self.title)

    @cached_property
    def text(self) -> Text:
        return card_text(self)


class CardList(Strict):
    """The file: ``[[cards]]`` in TOML, ``{"cards": [...]}`` in JSON."""

    cards: tuple[Card, ...]


class CardPool(BaseModel):
    model_config = ConfigDict(frozen=True)

    cards: tuple[Card, ...]
    digest: str  # a content hash: matches record it so replays use the same cards

    @cached_property
    def by_number(self) -> dict[str, Card]:
        return {c.number: c for c in self.cards}

    @cached_property
    def by_name(self) -> dict[str, Card]:
        return {c.name.casefold(): c for c in self.cards}

    def __getitem__(self, number: str) -> Card:
        return self.by_number[number]

    def __contains__(self, number: object) -> bool:
        return number in self.by_number

    def lookup(self, name: str) -> Card | None:
        """By number or by name, case-insensitive."""
        return self.by_number.get(name.strip().upper()) or self.by_name.get(name.strip().casefold())

    def similar(self, text: str, most: int = 3) -> list[Card]:
        """The cards whose name is close to ``text``, closest first: "Embr Pup" finds
        Ember Pup. Never used to read a deck list, where a typo must be said, not guessed."""
        by_name = {c.name.casefold(): c for c in self.cards}
        typed = " ".join(text.casefold().split())
        close = difflib.get_close_matches(typed, list(by_name), n=most, cutoff=0.7)
        return [by_name[name] for name in close]

    def matching(self, text: str) -> list[Card]:
        """The cards whose number or name, or a word of the name, starts with ``text``
        (case-insensitive): "flare" and "juggler" both find Flare Juggler."""
        typed = " ".join(text.casefold().split())
        if not typed:
            return []
        return [
            c
            for c in self.cards
            if c.number.casefold().startswith(typed)
            or c.name.casefold().startswith(typed)
            or any(word.startswith(typed) for word in c.name.casefold().split())
        ]


class CardListError(ValueError):
    """A card list that cannot be loaded; the message names file, card and path."""


# --- loading ------------------------------------------------------------------------------
def _path(loc: tuple[int | str, ...]) -> str:
    text = ""
    previous: int | str | None = None
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif isinstance(previous, int) and part in OP_NAMES:
            pass  # pydantic names the union member after the index: not part of the path
        elif part.startswith("function-"):
            pass
        else:
            text += f".{part}" if text else part
        previous = part
    return text


def _sentence(error: dict[str, Any]) -> str:
    kind, loc = error["type"], tuple(error["loc"])
    where = _path(loc)
    given = error.get("input")
    if kind == "union_tag_invalid":
        known = ", ".join(OP_NAMES)
        return f"{where}: unknown op '{error['ctx']['tag']}'; known: {known}"
    if kind == "union_tag_not_found":
        return f"{where}: an effect needs 'op'; known: {', '.join(OP_NAMES)}"
    if kind == "extra_forbidden":
        name = str(loc[-1])
        if len(loc) == 1:
            return f"{where}: unknown field or trigger '{name}'; triggers: " + ", ".join(
                ALL_TRIGGERS
            )
        return f"{where}: unknown field '{name}'"
    if kind == "literal_error" and loc and (loc[-1] == "colour" or "colour" in loc):
        return f"{where}: unknown colour letter '{given}'; known: R, Y, G, B"
    if kind == "string_pattern_mismatch" and "cost" in loc:
        return f"{where}: cannot read the cost {given!r} (colour letters R Y G B N, then "
        "optionally 'discard' and 'rest_self')"
    if kind == "value_error":
        message = str(error["msg"]).removeprefix("Value error, ")
        return message if ":" in message else f"{where}: {message}"
    return f"{where or 'card'}: {error['msg']}"


def parse_cards(raw: dict[str, Any], source: str) -> tuple[Card, ...]:
    """Validate card by card, so the refusal names the card; raises CardListError."""
    entries = raw.get("cards")
    if not isinstance(entries, list) or not entries:
        raise CardListError(f"{source}: no cards (expected a list under 'cards')")
    cards: list[Card] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        number = entry.get("number", f"card #{index + 1}") if isinstance(entry, dict) else "?"
        try:
            card = Card.model_validate(entry)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            raise CardListError(f"{source}: {number} {_sentence(dict(first))}") from None
        if card.number in seen:
            raise CardListError(f"{source}: {card.number} number: used twice")
        seen.add(card.number)
        cards.append(card)
    return tuple(cards)


def load_pool(path: Path) -> CardPool:
    data = path.read_bytes()
    try:
        raw = json.loads(data) if path.suffix == ".json" else tomllib.loads(data.decode())
    except (ValueError, UnicodeDecodeError) as exc:
        raise CardListError(f"{path.name}: cannot be read: {exc}") from None
    cards = parse_cards(raw, path.name)
    return CardPool(cards=cards, digest=hashlib.sha256(data).hexdigest()[:16])


POOL_FILE = DATA_DIR / "braverse" / "cards.toml"


def pool_path() -> Path:
    """Where this host's card list is: ``BRAVERSE_CARDS`` if set, else ours."""
    chosen = os.environ.get("BRAVERSE_CARDS")
    return Path(chosen) if chosen else POOL_FILE


@cache
def braverse_pool() -> CardPool:
    """The card list of this host. Loaded once."""
    return load_pool(pool_path())


def card_schema() -> dict[str, Any]:
    """The JSON Schema of a card list, as ``data/braverse/card-schema.json`` holds it."""
    schema = CardList.model_json_schema(by_alias=True)
    schema["title"] = "Braverse card list"
    return schema


def card_schema_text() -> str:
    return json.dumps(card_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --- card text ----------------------------------------------------------------------------
# Every piece is a catalog message (games.braverse.phrases joins them), so a card reads in
# its reader's language; its English is what the card list's snapshot test holds.
def colour_word(colour: str) -> Text:
    match colour:
        case "R":
            return tc("colour", "Red")
        case "Y":
            return tc("colour", "Yellow")
        case "G":
            return tc("colour", "Green")
        case "B":
            return tc("colour", "Blue")
    return tc("colour", "any colour")


def quality_colour(colour: str) -> Text:
    """A colour said of a card ("a Red Cookie"): languages whose adjectives agree take
    another form than the colour named alone (a cost's "2 Red")."""
    match colour:
        case "R":
            return tc("card colour", "Red")
        case "Y":
            return tc("card colour", "Yellow")
        case "G":
            return tc("card colour", "Green")
    return tc("card colour", "Blue")


def colours_word(colours: tuple[str, ...]) -> Text:
    return slashed([quality_colour(c) for c in colours])


@cache
def symbols_text(symbols: str) -> Text:
    """Cost symbols in words, so that no colour is told by its hue alone:
    "RRN" is "2 Red + 1 any colour"."""
    counts = [(symbols.count(c), colour_word(c)) for c in "RYGBN"]
    return plussed([t("{n} {colour}", n=n, colour=word) for n, word in counts if n])


@cache
def cost_text(cost: str) -> Text:
    parts = parse_cost(cost)
    words = [symbols_text(parts.symbols)] if parts.symbols else []
    if parts.discard:
        words.append(t("discard a card"))
    if parts.rest_self:
        words.append(t("rest this"))
    return commas(words) if words else tc("cost", "free")


def type_word(kind: str) -> Text:
    match kind:
        case "cookie":
            return tc("card type", "Cookie")
        case "item":
            return tc("card type", "Item")
        case "trap":
            return tc("card type", "Trap")
        case "stage":
            return tc("card type", "Stage")
    return tc("card type", "card")


def type_name(kind: str) -> Text:
    """A card's type in running text: "Backdraft (trap)"."""
    match kind:
        case "item":
            return tc("card type", "item")
        case "trap":
            return tc("card type", "trap")
        case "stage":
            return tc("card type", "stage")
    return tc("card type", "cookie")


def _qualified(thing: Text, qualities: list[Text]) -> Text:
    """ "Active LV1 Red Cookie": each quality put before the rest, as the language orders it."""
    for quality in reversed(qualities):
        thing = t("{quality} {thing}", quality=quality, thing=thing)
    return thing


def _levels(levels: tuple[int, ...]) -> Text:
    return t("LV{levels}", levels="/".join(str(n) for n in levels))


def _flip_word(flip: bool) -> Text:
    return tc("card", "FLIP") if flip else tc("card", "non-FLIP")


def target_text(target: Target, *, first: bool = False) -> Text:
    """What an op aims at, in words; ``first``: opening a sentence (capitalised)."""
    if target.side == "self":
        return t("This Cookie") if first else t("this Cookie")
    quals: list[Text] = []
    if target.state:
        quals.append(
            tc("card state", "Active") if target.state == "active" else tc("card state", "Rested")
        )
    if target.level:
        quals.append(_levels(target.level))
    if target.colour:
        quals.append(colours_word(target.colour))
    if target.flip is not None:
        quals.append(_flip_word(target.flip))
    support = target.zone == "support"
    one = _qualified(tc("target", "Support card") if support else tc("target", "Cookie"), quals)
    many = _qualified(tc("target", "Support cards") if support else tc("target", "Cookies"), quals)
    n, side = target.count, target.side
    if n == 1 and not target.up_to:
        if side == "own":
            text = (
                t("One of your {cards}", cards=many)
                if first
                else t("one of your {cards}", cards=many)
            )
        elif side == "opponent":
            text = (
                t("An opponent's {card}", card=one)
                if first
                else t("an opponent's {card}", card=one)
            )
        else:
            text = t("A {card}", card=one) if first else t("a {card}", card=one)
    elif target.up_to:
        if side == "own":
            text = (
                t("Up to {n} of your {cards}", n=n, cards=many)
                if first
                else t("up to {n} of your {cards}", n=n, cards=many)
            )
        elif side == "opponent":
            text = (
                t("Up to {n} of the opponent's {cards}", n=n, cards=many)
                if first
                else t("up to {n} of the opponent's {cards}", n=n, cards=many)
            )
        else:
            text = (
                t("Up to {n} {cards}", n=n, cards=many)
                if first
                else t("up to {n} {cards}", n=n, cards=many)
            )
    elif side == "own":
        text = t("{n} of your {cards}", n=n, cards=many)
    elif side == "opponent":
        text = t("{n} of the opponent's {cards}", n=n, cards=many)
    else:
        text = t("{n} {cards}", n=n, cards=many)
    if target.hp_left_at_most is not None:
        text = t("{target} with {n} HP or less", target=text, n=target.hp_left_at_most)
    return text


def filter_text(card_filter: CardFilter) -> Text:
    quals: list[Text] = []
    if card_filter.colour:
        quals.append(colours_word(card_filter.colour))
    if card_filter.level:
        quals.append(_levels(card_filter.level))
    if card_filter.flip is not None:
        quals.append(_flip_word(card_filter.flip))
    kinds = ored([type_word(k) for k in card_filter.type or ("card",)])
    return _qualified(kinds, quals)


def op_text(op: Op) -> Text:
    match op:
        case Draw(n=n, up_to=up_to):
            if up_to:
                return tn("Draw up to {n} card.", "Draw up to {n} cards.", n=n)
            return tn("Draw {n} card.", "Draw {n} cards.", n=n)
        case Damage(n=n, target=target):
            return t("Deal {n} damage to {target}.", n=n, target=target_text(target))
        case ModifyAttack(n=n):
            if n > 0:
                return t("Your attacks deal +{n} damage this turn.", n=n)
            return t("The attack deals {n} less damage.", n=-n)
        case AddHp(n=n, target=target):
            return t(
                "{target} gets +{n} HP from the top of your deck.",
                target=target_text(target, first=True),
                n=n,
            )
        case Search(n=n, take=take, filter=card_filter):
            return tn(
                "Look at the top {n} card of your deck; take up to {take} {cards} into your "
                "hand; the rest go to the bottom.",
                "Look at the top {n} cards of your deck; take up to {take} {cards} into your "
                "hand; the rest go to the bottom.",
                n=n,
                take=take,
                cards=filter_text(card_filter),
            )
        case ReturnToHand(target=target):
            return t(
                "Return {target} to its owner's hand (its HP cards are discarded).",
                target=target_text(target),
            )
        case Recover(n=n, filter=card_filter):
            return t(
                "Put {n} {cards} from your Discard Pile into your hand.",
                n=n,
                cards=filter_text(card_filter),
            )
        case Rest(target=target):
            return t("Rest {target}.", target=target_text(target))
        case Activate(target=target):
            return t("Make {target} Active.", target=target_text(target))
        case Discard(n=n, side=side, how=how):
            if side == "own" and how == "random":
                return tn(
                    "You discard {n} card at random.", "You discard {n} cards at random.", n=n
                )
            if side == "own":
                return tn(
                    "You discard {n} card of your choice.",
                    "You discard {n} cards of your choice.",
                    n=n,
                )
            if how == "random":
                return tn(
                    "Your opponent discards {n} card at random.",
                    "Your opponent discards {n} cards at random.",
                    n=n,
                )
            return tn(
                "Your opponent discards {n} card of their choice.",
                "Your opponent discards {n} cards of their choice.",
                n=n,
            )
        case Mill(n=n, side=side):
            if side == "own":
                return tn(
                    "Put the top {n} card of your deck into the Discard Pile.",
                    "Put the top {n} cards of your deck into the Discard Pile.",
                    n=n,
                )
            return tn(
                "Put the top {n} card of your opponent's deck into the Discard Pile.",
                "Put the top {n} cards of your opponent's deck into the Discard Pile.",
                n=n,
            )
        case DeckToSupport(n=n, rested=rested):
            if rested:
                return tn(
                    "Put the top {n} card of your deck into your Support Area in Rest.",
                    "Put the top {n} cards of your deck into your Support Area in Rest.",
                    n=n,
                )
            return tn(
                "Put the top {n} card of your deck into your Support Area.",
                "Put the top {n} cards of your deck into your Support Area.",
                n=n,
            )
        case SupportToHand(target=target):
            return t("Return {target} to its owner's hand.", target=target_text(target))
        case BreakToDiscard(n=n):
            return tn(
                "Move {n} Cookie from your Break Area to your Discard Pile.",
                "Move {n} Cookies from your Break Area to your Discard Pile.",
                n=n,
            )
        case ToDiscard(target=target):
            return t(
                "Put {target} into the Discard Pile (it does not faint).",
                target=target_text(target),
            )
        case DisableFlip(side=side):
            if side == "own":
                return t("Your FLIP effects do not activate this turn.")
            return t("Your opponent's FLIP effects do not activate this turn.")
    raise AssertionError(op)


def op_brief(op: Op) -> Text:
    """An op in fewer words, where a select's 100 characters cannot hold all of it."""
    if isinstance(op, Search):
        return tn(
            "Look at the top {n} card of your deck; take up to {take} {cards} into your hand…",
            "Look at the top {n} cards of your deck; take up to {take} {cards} into your hand…",
            n=op.n,
            take=op.take,
            cards=filter_text(op.filter),
        )
    return op_text(op)


def target_verb(op: Op) -> Text:
    """What a targeted op does, as the prompt for its target says it: "deals 1 damage"."""
    match op:
        case Damage(n=n):
            return t("deals {n} damage", n=n)
        case AddHp(n=n):
            return t("gives +{n} HP", n=n)
        case ReturnToHand():
            return t("returns a Cookie to its owner's hand")
        case Rest():
            return t("rests a card")
        case Activate():
            return t("makes a card Active")
        case SupportToHand():
            return t("returns a Support card to its owner's hand")
        case ToDiscard():
            return t("puts a Cookie into the Discard Pile")
    return t("does its effect")


def condition_text(condition: Condition) -> Text:
    parts: list[Text] = []
    if condition.break_level_at_least:
        parts.append(t("your Break Area is LV {n}+", n=condition.break_level_at_least))
    if condition.opponent_break_level_at_least:
        parts.append(
            t("the opponent's Break Area is LV {n}+", n=condition.opponent_break_level_at_least)
        )
    if condition.hand_at_most is not None:
        parts.append(t("you hold {n} cards or fewer", n=condition.hand_at_most))
    if condition.hand_at_least is not None:
        parts.append(t("you hold {n} cards or more", n=condition.hand_at_least))
    if condition.active_support_at_least:
        parts.append(t("you have {n}+ Active Support cards", n=condition.active_support_at_least))
    if condition.attack_damage_at_least:
        parts.append(t("the attack declares {n}+ damage", n=condition.attack_damage_at_least))
    return anded(parts)


def trigger_name(trigger: str) -> Text:
    match trigger:
        case "on_reveal":
            return tc("trigger", "On Reveal")
        case "flip":
            return tc("trigger", "FLIP")
        case "when_attacked":
            return tc("trigger", "When attacked")
        case "item":
            return tc("trigger", "Use")
        case "trap":
            return tc("trigger", "Trap")
        case "activate":
            return tc("trigger", "Activate (rest the Stage)")
        case "end_of_turn":
            return tc("trigger", "End of your turn")
    return tc("trigger", "Attack")


TRIGGERS_SHOWN = ("on_reveal", "flip", "when_attacked", "item", "trap", "activate", "end_of_turn")


def ops_text(ops: tuple[Op, ...]) -> Text:
    return sentences([op_text(op) for op in ops])


def effect_text(effect: Effect) -> Text:
    text = ops_text(effect.do)
    if effect.if_ is None:
        return text
    return t("If {condition}: {effect}", condition=condition_text(effect.if_), effect=text)


def attack_text(attack: Attack) -> Text:
    cost = cost_text(attack.cost)
    if attack.then:
        return t(
            "Attack ({cost}): {n} damage. Then: {then}",
            cost=cost,
            n=attack.damage,
            then=ops_text(attack.then),
        )
    return t("Attack ({cost}): {n} damage.", cost=cost, n=attack.damage)


def trigger_line(trigger: str, effect: Effect) -> Text:
    if isinstance(effect, Ability):
        return t(
            "{trigger} ({cost}): {effect}",
            trigger=trigger_name(trigger),
            cost=cost_text(effect.cost),
            effect=effect_text(effect),
        )
    return t("{trigger}: {effect}", trigger=trigger_name(trigger), effect=effect_text(effect))


def heading(card: Card) -> Text:
    head = [type_word(card.type), colour_word(card.colour)]
    if card.type == "cookie":
        head += [t("LV{n}", n=card.level), t("HP {n}", n=card.hp)]
        head += [tc("card", "FLIP")] if card.is_flip else []
    else:
        head.append(t("cost {cost}", cost=cost_text(card.cost)))
    return t("{number} {card} — {about}", number=card.number, card=card.title, about=dotted(head))


def card_lines(card: Card) -> list[Text]:
    """The card's text, line by line: its heading, its attack, each trigger's effect."""
    lines = [heading(card)]
    if card.attack is not None:
        lines.append(attack_text(card.attack))
    for trigger in TRIGGERS_SHOWN:
        effect = getattr(card, trigger)
        if effect is not None:
            lines.append(trigger_line(trigger, effect))
    return lines


def card_text(card: Card) -> Text:
    return lined(card_lines(card))
