"""Decision.forced: the one answer of a decision with nothing to choose."""

from __future__ import annotations

from games.core.protocol import Action, Decision, option

PASS = option(Action.of("pass"), "Pass")
CARDS = tuple(option(Action.of("give", c), c) for c in ("a", "b", "c"))


def decision(**fields: object) -> Decision:
    return Decision(**{"key": "k", "seat": 0, "prompt": "?", **fields})  # type: ignore[arg-type]


def test_a_lone_pass_is_forced() -> None:
    assert decision(options=(PASS,)).forced == Action.of("pass")


def test_two_options_are_a_choice() -> None:
    assert decision(options=(PASS, CARDS[0])).forced is None


def test_picking_every_card_on_offer_is_forced_as_one_action() -> None:
    forced = decision(options=CARDS, min_picks=3, max_picks=3).forced
    assert forced == Action.of("give", "a", "b", "c")
    assert decision(options=CARDS, min_picks=2, max_picks=2).forced is None


def test_races_and_chances_are_never_forced() -> None:
    assert decision(options=(PASS,), window=10.0).forced is None
    assert decision(options=(PASS,), optional=True).forced is None
