"""The built-in Toss Your Cookies bot: hold on to the milk, the wilds and the cookie you
have most of; give away half-eaten cookies and odd ones; grab what completes your five."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from games.toss.cards import HALF, MILK, WILD, TossCards


def keeper(cards: TossCards, hand: Sequence[str]) -> Callable[[str], float]:
    """How much a card is worth keeping in ``hand`` (higher: keep)."""
    best, _ = cards.best_cookie(hand)
    counted = Counter(hand)

    def value(card: str) -> float:
        if card == MILK:
            return 100.0
        if card == WILD:
            return 50.0
        if card == HALF:
            return -1.0
        return counted[card] + (20.0 if card == best else 0.0)

    return value


def least_useful(cards: TossCards, hand: Sequence[str], n: int) -> list[str]:
    """The ``n`` cards this hand misses least, cheapest first."""
    value = keeper(cards, hand)
    return sorted(hand, key=lambda c: (value(c), cards.rank(c)))[:n]


def best_grab(cards: TossCards, hand: Sequence[str], kinds: Sequence[str]) -> str:
    """The card in the middle that helps this hand most."""
    return max(kinds, key=lambda k: keeper(cards, [*hand, k])(k))
