"""The Toss Your Cookies bot's rules, each on a rigged table."""

from __future__ import annotations

from tests.games.toss.conftest import Table, seven

# Every cookie six times, two wilds, the half-eaten and the milk: a four-player deck.
HANDS = {
    "Ana": seven("chip", "chip", "fudge", "fudge", "half", "sugar", "milk"),
    "Ben": seven("ginger", "ginger", "ginger", "ginger", "fudge", "fudge", "wild"),
    "Cleo": seven("sugar", "sugar", "sugar", "sugar", "chip", "ginger", "wild"),
    "Dev": seven("chip", "chip", "chip", "ginger", "sugar", "fudge", "fudge"),
}


# What each player tosses in a Toss 2 (the middle: two Fudge Swirl, one Chocolate Chip).
TOSSED = {
    "Ana": ("half", "sugar"),
    "Ben": ("fudge", "fudge"),
    "Cleo": ("chip", "ginger"),
    "Dev": ("ginger", "sugar"),
}


def scramble(tossed: dict[str, tuple[str, str]]) -> Table:
    """A Toss 2 with the cards each player tossed: the scramble is open."""
    t = Table(HANDS)
    t.roll("Ana", "toss", "2")
    for name, cards in tossed.items():
        t.play(name, "toss", *cards)
    return t


def bot_grab(t: Table, name: str) -> str:
    decision = t.decision(name)
    assert decision is not None
    return t.game.bot_action(t.state, t.seat(name), decision=decision).args[0]


def test_a_tie_at_home_is_broken_by_what_the_middle_offers() -> None:
    # Ana kept two Chocolate Chip and two Fudge Swirl; the middle holds two Fudge Swirl and
    # one Chocolate Chip: she collects Fudge Swirl, which the scramble can bring to four.
    t = scramble(TOSSED)
    assert t.hand("Ana") == ["chip", "chip", "fudge", "fudge", "milk"]
    assert bot_grab(t, "Ana") == "fudge"


def test_the_middle_cannot_outweigh_a_longer_run_at_home() -> None:
    # Dev holds three Chocolate Chip; two Fudge Swirl in the middle beside his own two
    # would make four, but his three plus one make four with fewer cards to find: chip.
    t = scramble(TOSSED)
    assert bot_grab(t, "Dev") == "chip"


def test_a_wild_in_the_middle_comes_before_any_cookie() -> None:
    t = scramble({**TOSSED, "Ben": ("wild", "fudge")})
    assert bot_grab(t, "Ana") == "wild"
