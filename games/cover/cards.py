"""The card vocabulary of the Cover family: what matches, what pairs, what a set is worth."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import ClassVar

from games.core.cards import Catalogue
from games.core.text import Num, Text, joined, t
from games.cover.lexicon import AssetsWords
from games.cover.state import CoverOptions, CoverSet, Player


class CoverCards:
    # The family's sentences, the one place its words come from: Cover Your Cookies says
    # Batch, swipe and Dough (its own ``words``). Every text says ``game.words``' sentence.
    words: ClassVar[AssetsWords] = AssetsWords()

    def __init__(self, catalogue: Catalogue) -> None:
        self.cards = catalogue

    @property
    def form_group(self) -> Text:
        """The hand's heading for the moves that lay down a set: "Form a set", "Start a
        Batch" (one heading, so a hand never splits one move in two)."""
        return self.words.form_group()

    def count(self, number: int) -> Text:
        """ "1 set" here, "1 Batch" in Cover Your Cookies."""
        return self.words.sets(number)

    def money(self, amount: int) -> Text:
        return t("${amount}", amount=Num(amount))

    def short_money(self, amount: int) -> Text:
        if amount >= 1_000_000:
            return t("${amount}M", amount=round(amount / 1_000_000, 2))
        if amount % 1000 == 0:
            return t("${amount}k", amount=amount // 1000)
        return t("${amount}", amount=Num(amount))

    def label(self, card: str) -> Text:
        return self.cards.labels[card]

    def title(self, card: str) -> Text:
        """The card's name alone, in the reader's language."""
        return self.cards.titles[card]

    def labels(self, cards: Iterable[str], sep: str = " + ") -> Text:
        """Cards one after another: "🥇 Gold + 💎 Jewels" (``sep``: ", " for a draw)."""
        return joined((self.label(c) for c in cards), sep)

    def is_wild(self, card: str) -> bool:
        return card in self.cards.wilds

    def is_action(self, card: str) -> bool:
        return card in self.cards.actions

    def matches(self, card: str, asset: str) -> bool:
        """Assets and wilds are of equal power for stealing and defending."""
        return card == asset or self.is_wild(card)

    def can_pair(self, a: str, b: str) -> bool:
        """A pair: two identical assets, or an asset and a wild. Never two wilds."""
        actions, wilds = self.cards.actions, self.cards.wilds
        if a in actions or b in actions or (a in wilds and b in wilds):
            return False
        return a == b or a in wilds or b in wilds

    def make_set(self, *cards: str) -> CoverSet:
        asset = next(c for c in cards if not self.is_wild(c))
        return CoverSet(asset=asset, cards=tuple(self.wilds_below(list(cards))))

    def add_to_set(self, cover_set: CoverSet, *cards: str) -> CoverSet:
        """The set with ``cards`` added, wilds still below (a new set: sets are frozen)."""
        return CoverSet(
            asset=cover_set.asset, cards=tuple(self.wilds_below([*cover_set.cards, *cards]))
        )

    def wilds_below(self, cards: list[str]) -> list[str]:
        """Wilds must always be placed below assets; within each, catalogue order."""
        return sorted(cards, key=lambda c: (not self.is_wild(c), self.cards.order(c)))

    def set_value(self, cover_set: CoverSet) -> int:
        return self.cards.value_of(cover_set.cards)

    def stack_value(self, player: Player) -> int:
        return sum(self.set_value(s) for s in player.stack)

    def deck_for(self, options: CoverOptions, remove: Counter[str] | None = None) -> list[str]:
        """The classic deck, plus the advanced cards whose rules are switched on."""
        extras = {"penny_jar"} if options.penny_jar else set()
        if options.action_cards:
            extras |= {"swap", "move"}
        deck = self.cards.deck(remove=remove)
        return deck + [c for c in self.cards.deck(advanced=True) if c in extras]


def move_set(stack: list[CoverSet], which: str) -> None:
    """The Move card: the top set to the bottom (``which`` "top"), or the bottom set to the
    top."""
    if which == "top":
        stack.insert(0, stack.pop())
    else:
        stack.append(stack.pop(0))


def move_label(end: str, name: str | None) -> Text:
    """A Move card's button: which end of whose stack (``name`` None: your own)."""
    if name is None:
        if end == "top":
            return t("Move your top set to the bottom")
        return t("Move your bottom set to the top")
    if end == "top":
        return t("Move {name}'s top set to the bottom", name=name)
    return t("Move {name}'s bottom set to the top", name=name)


def moved_text(name: str, end: str, other: str, own: bool) -> Text:
    """The log's line for a Move, played (``own``: on the player's own stack) or turned up."""
    if own:
        if end == "top":
            return t("↕️ {name} moved their top set to the bottom.", name=name)
        return t("↕️ {name} moved their bottom set to the top.", name=name)
    if end == "top":
        return t("↕️ {name} moved {other}'s top set to the bottom.", name=name, other=other)
    return t("↕️ {name} moved {other}'s bottom set to the top.", name=name, other=other)


def swap_top_sets(ours: list[CoverSet], theirs: list[CoverSet]) -> None:
    """The Swap card: two players trade their top sets."""
    ours[-1], theirs[-1] = theirs[-1], ours[-1]
