"""The built-in Toss Your Cookies bot: hold on to the milk, the wilds and the cookie you
have most of; give away half-eaten cookies and odd ones; grab what completes your five,
collecting, in a scramble, the cookie that the hand and the middle together hold most of."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from games.toss.cards import HALF, MILK, WILD, TossCards


def keeper(
    cards: TossCards, hand: Sequence[str], best: str | None = None
) -> Callable[[str], float]:
    """How much a card is worth keeping in ``hand`` (higher: keep), collecting ``best``
    (by default the cookie the hand holds most of)."""
    best = best or cards.best_cookie(hand)[0]
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


def best_grab(cards: TossCards, hand: Sequence[str], middle: Sequence[str]) -> str:
    """The card in the middle that helps this hand most: the milk, a wild, then the cookie
    that the hand and the middle together hold most of (a tie at home goes to the cookie
    the scramble can still give; a tie there to the hand's own choice)."""
    kinds = list(dict.fromkeys(middle))
    counted, offered = Counter(hand), Counter(middle)
    own = cards.best_cookie(hand)[0]
    cookies = [k for k in kinds if k not in (MILK, WILD, HALF)]
    target = max(
        cookies,
        key=lambda k: (counted[k] + offered[k], counted[k], k == own),
        default=None,
    )
    value = keeper(cards, [*hand, target] if target else hand, best=target)
    return max(kinds, key=value)


def denial_grab(
    cards: TossCards, hand: Sequence[str], middle: Sequence[str], holder_collects: str | None
) -> str:
    """Hard's grab while another seat was seen taking the milk: a wild, then the cookie
    that seat collects (each would bring it closer to five, and a win now is theirs), then
    the usual grab. The milk itself comes first, as always."""
    if MILK in middle:
        return MILK
    for card in (WILD, holder_collects):
        if card is not None and card in middle:
            return card
    return best_grab(cards, hand, middle)
