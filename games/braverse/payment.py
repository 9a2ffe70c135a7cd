"""Paying costs: one Support card rested per symbol, the payment chosen as part of the action.

A coloured symbol needs a Support card of that colour; ``N`` takes any colour. A player
chooses which colours pay for the ``N`` symbols: one option per distinct colour multiset,
the automatic choice first (it pays ``N`` from the colours it has most of, keeping the
scarce ones). A ``discard`` cost names the discarded hand card in the action too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from games.braverse.cards import CardPool, parse_cost, symbols_text
from games.braverse.state import Side
from games.core.text import Text, t, tc

ORDER = "RYGB"
FREE = "free"


@dataclass(frozen=True)
class Payment:
    paid: str  # colour letters, in RYGB order, or "free"
    discard: str | None = None  # the hand card a "discard" cost takes

    @property
    def args(self) -> tuple[str, ...]:
        return (self.paid,) if self.discard is None else (self.paid, self.discard)

    @classmethod
    def from_args(cls, args: tuple[str, ...]) -> Payment:
        return cls(paid=args[0], discard=args[1] if len(args) > 1 else None)


@cache  # a few payments come up again and again: decisions are hot
def payment_text(payment: Payment, discard: str | None = None) -> Text:
    """A payment in words: "pay 1 Red + 1 any colour", with the hand card it discards
    (``discard``: the card as named to its reader, else its number)."""
    if payment.paid == FREE:
        paid = tc("cost", "free")
    else:
        paid = t("pay {colours}", colours=symbols_text(payment.paid))
    if payment.discard is None:
        return paid
    return t("{paid}, discard {card}", paid=paid, card=discard or payment.discard)


def canonical(colours: Counter[str]) -> str:
    return "".join(c * colours[c] for c in ORDER) or FREE


def active_colours(side: Side, pool: CardPool) -> tuple[int, int, int, int]:
    """Active Support cards per colour, in RYGB order."""
    counts = [0, 0, 0, 0]
    for support in side.support:
        if not support.rested:
            counts[ORDER.index(pool[support.card].colour)] += 1
    return counts[0], counts[1], counts[2], counts[3]


def _multisets(available: Counter[str], size: int, colours: str = ORDER) -> Iterator[Counter[str]]:
    if size == 0:
        yield Counter()
        return
    if not colours:
        return
    first, rest = colours[0], colours[1:]
    for k in range(min(available[first], size), -1, -1):
        for tail in _multisets(available, size - k, rest):
            tail[first] += k
            yield tail


def colour_payments(side: Side, pool: CardPool, symbols: str) -> list[str]:
    """Every distinct way to pay ``symbols`` from the active Support, automatic first."""
    if not symbols:
        return [FREE]
    return list(payments_from(active_colours(side, pool), symbols))


@cache  # the same few (Support, cost) pairs come up again and again: decisions are hot
def payments_from(counts: tuple[int, int, int, int], symbols: str) -> tuple[str, ...]:
    have = Counter(dict(zip(ORDER, counts, strict=True)))
    need = Counter(c for c in symbols if c != "N")
    generic = symbols.count("N")
    if any(have[c] < k for c, k in need.items()):
        return ()
    spare = have - need
    if spare.total() < generic:
        return ()
    auto = Counter(need)
    left = Counter(spare)
    for _ in range(generic):
        # the colour with the most to spare (ties: R, Y, G, B), keeping scarce ones
        colour = max(ORDER, key=lambda c: (left[c], -ORDER.index(c)))
        auto[colour] += 1
        left[colour] -= 1
    found = [canonical(auto)]
    for extra in _multisets(spare, generic):
        text = canonical(need + extra)
        if text not in found:
            found.append(text)
    return tuple(found)


def payments(
    side: Side,
    pool: CardPool,
    cost: str,
    *,
    playing: str | None = None,
    self_active: bool = True,
) -> list[Payment]:
    """Ways to pay ``cost``; ``playing`` is the hand card being played (not discardable
    as its own cost), ``self_active`` whether a ``rest_self`` cost can be paid."""
    parts = parse_cost(cost)
    if parts.rest_self and not self_active:
        return []
    colours = colour_payments(side, pool, parts.symbols)
    if not parts.discard:
        return [Payment(paid=p) for p in colours]
    hand = list(side.hand)
    if playing is not None and playing in hand:
        hand.remove(playing)
    if not colours or not hand:
        return []
    # each distinct colour multiset with each distinct hand card: the automatic colours first
    cards = list(dict.fromkeys(sorted(hand)))
    return [Payment(paid=paid, discard=card) for paid in colours for card in cards]


def pay(side: Side, pool: CardPool, payment: Payment) -> None:
    """Rest one active Support card per paid colour; discard the named hand card."""
    if payment.paid != FREE:
        for colour in payment.paid:
            card = next(s for s in side.support if not s.rested and pool[s.card].colour == colour)
            card.rested = True
    if payment.discard is not None:
        side.hand.remove(payment.discard)
        side.discard.append(payment.discard)
