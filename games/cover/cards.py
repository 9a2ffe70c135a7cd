"""The card vocabulary of the Cover family: what matches, what pairs, what a set is worth."""

from __future__ import annotations

from collections import Counter

from games.core.cards import Catalogue
from games.core.words import plural
from games.cover.state import CoverOptions, CoverSet, Player


class CoverCards:
    # The family's vocabulary, the one place its words come from: Cover Your Cookies says
    # Batch, swipe and Dough (its own WORDS). Every text says game.WORDS[...] or count().
    WORDS = {
        "set": "set",
        "Set": "Set",
        "sets": "sets",
        "form": "form",
        "formed": "formed",
        "challenge": "challenge",
        "Challenge": "Challenge",
        "challenging": "challenging",
        "challenged": "challenged",
        "stole": "stole",
        "an asset": "an asset",
        "assets": "assets",
        "wild": "wild",
        "wilds": "wilds",
    }

    def __init__(self, catalogue: Catalogue) -> None:
        self.cards = catalogue

    @property
    def form_group(self) -> str:
        """The hand's heading for the moves that lay down a set: "Form a set", "Start a
        Batch" (one heading, so a hand never splits one move in two)."""
        return f"{self.WORDS['form'].capitalize()} a {self.WORDS['set']}"

    def count(self, number: int, word: str) -> str:
        """``count(1, "set")``: "1 set" here, "1 Batch" in Cover Your Cookies."""
        return plural(number, self.WORDS[word], many=self.WORDS[word + "s"])

    def money(self, amount: int) -> str:
        return f"${amount:,}"

    def short_money(self, amount: int) -> str:
        if amount >= 1_000_000:
            return f"${amount / 1_000_000:.2f}M".replace(".00M", "M")
        return f"${amount // 1000}k" if amount % 1000 == 0 else f"${amount:,}"

    def label(self, card: str) -> str:
        return self.cards.labels[card]

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


MOVED = {"top": "top set to the bottom", "bottom": "bottom set to the top"}


def move_set(stack: list[CoverSet], which: str) -> str:
    """The Move card: the top set to the bottom, or the bottom set to the top."""
    if which == "top":
        stack.insert(0, stack.pop())
    else:
        stack.append(stack.pop(0))
    return MOVED[which]


def swap_top_sets(ours: list[CoverSet], theirs: list[CoverSet]) -> None:
    """The Swap card: two players trade their top sets."""
    ours[-1], theirs[-1] = theirs[-1], ours[-1]
