"""Every op of the effect language, each firing and not firing, with pool cards."""

from __future__ import annotations

import pytest

from .conftest import FILLER, GAME, PLAIN, Table, game_with, side

R, Y, G, B = "S1-001", "S1-016", "S1-031", "S1-046"  # Support cards of each colour


def knight_attacks(ben_hp: list[str], **ana: object) -> Table:
    """Ana's Ember Knight attacks Ben's Oakheart Warden for 3."""
    ana_side = {"battle": [("S1-005", [FILLER] * 3)], "support": [R, R, Y], **ana}
    t = Table(side(**ana_side), side(battle=[("S1-035", ben_hp)], deck=["S1-050", "S1-053"]))  # type: ignore[arg-type]
    return t


# --- draw ------------------------------------------------------------------------------------
def test_draw_fires_from_a_flip() -> None:
    t = knight_attacks(["S1-048", FILLER, FILLER, FILLER])
    t.play("Ana", "atk", 0, 0, "RRY")
    t.play("Ben", "flip", "free")  # Mist Diver: draw 1
    assert t.side("Ben").hand == ["S1-050"]


@pytest.mark.parametrize("k", [0, 1, 2])
def test_draw_up_to_draws_exactly_the_number_chosen_none_included(k: int) -> None:
    t = knight_attacks(["S1-054", FILLER, FILLER, FILLER])
    t.play("Ana", "atk", 0, 0, "RRY")
    t.play("Ben", "flip", "free")  # Tidal Archivist: draw up to 2
    assert t.options("Ben") == ["draw.2", "draw.1", "draw.0"]
    t.play("Ben", "draw", k)
    assert t.side("Ben").hand == ["S1-050", "S1-053"][:k]  # the top k, top first
    assert t.side("Ben").deck == ["S1-053", "S1-050"][: 2 - k]


# --- damage ----------------------------------------------------------------------------------
def test_damage_fires_on_the_chosen_target() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-011"], support=[R, Y]),
        side(battle=[("S1-035", [FILLER] * 4), ("S1-046", ["S1-047", FILLER])]),
    )
    t.play("Ana", "item", "S1-011", "RY")  # Firecracker: 1 damage
    assert t.options("Ana") == ["pick.c2", "pick.c3"]
    t.play("Ana", "pick", "c3")
    assert t.hp("Ben", 1) == [FILLER] and t.side("Ben").discard == ["S1-047"]
    assert t.side("Ana").discard == ["S1-011"]


def test_damage_does_not_fire_without_a_matching_target() -> None:
    t = Table(
        side(battle=[("S1-006", [FILLER] * 4)], support=[R, Y]),
        side(battle=[("S1-035", [FILLER] * 4), ("S1-050", [FILLER] * 3)]),
    )
    t.play("Ana", "atk", 0, 1, "RY")  # Blaze Fencer then: 1 damage to a LV1 (there is none)
    assert len(t.hp("Ben", 0)) == 4 and len(t.hp("Ben", 1)) == 1
    assert t.state.stack == [] and t.deciding() == "Ana"


# --- modify_attack ---------------------------------------------------------------------------
def test_modify_attack_fires_for_the_rest_of_the_turn() -> None:
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2)], hand=["S1-010"], support=[R, R]),
        side(battle=[("S1-035", [FILLER] * 4)]),
    )
    t.play("Ana", "item", "S1-010", "R")  # Hot Sauce Flask: +2
    assert t.state.sides[0].attack_bonus == 2
    t.play("Ana", "atk", 0, 0, "R")
    assert len(t.hp("Ben")) == 1  # 1 + 2 = 3 points
    t.play("Ana", "end")
    assert t.side("Ana").attack_bonus == 0


def test_modify_attack_does_not_fire_when_its_condition_fails() -> None:
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2)], support=[R]),
        side(battle=[("S1-035", [FILLER] * 4)], hand=["S1-029"], support=[Y, Y]),
    )
    t.play("Ana", "atk", 0, 0, "R")  # Mirror Ward needs a 3+ damage attack: no window
    assert len(t.hp("Ben")) == 3 and t.side("Ben").hand == ["S1-029"]
    t = knight_attacks([FILLER] * 4)
    t.side("Ben").hand = ["S1-029"]
    t.side("Ben").support = Table(side(support=[Y, Y]), side()).side("Ana").support
    t.play("Ana", "atk", 0, 0, "RRY")
    t.play("Ben", "trap", "S1-029", "YY")
    assert len(t.hp("Ben")) == 4  # 3 - 3 = 0 points


# --- add_hp ----------------------------------------------------------------------------------
def test_add_hp_fires_from_the_top_of_the_deck() -> None:
    t = Table(
        side(
            battle=[(PLAIN, ["S1-046", "S1-047"])],
            hand=["S1-041"],
            support=[G, Y],
            deck=["S1-050", "S1-053", FILLER],
        ),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "item", "S1-041", "YG")  # Sap Tonic: +2 HP, no cap
    assert t.hp("Ana") == ["S1-053", "S1-050", "S1-046", "S1-047"]


def test_add_hp_does_not_fire_without_a_matching_cookie() -> None:
    t = Table(
        side(battle=[("S1-035", [FILLER] * 3)], stage="S1-045", deck=["S1-050"] * 3),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "end")  # Greenhouse: only a Cookie with 2 HP or less
    assert len(t.hp("Ana")) == 3 and len(t.side("Ana").deck) == 3


# --- search ----------------------------------------------------------------------------------
def test_search_fires_taking_a_cookie_the_rest_to_the_bottom() -> None:
    t = Table(
        side(
            battle=[(PLAIN, [FILLER] * 2)],
            hand=["S1-049"],
            support=[B],
            deck=["S1-047", "S1-048", FILLER, "S1-010", "S1-050", "S1-053"],
        ),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "cookie", "S1-049")  # Wave Cartographer, HP 2: takes S1-047, S1-048
    t.play("Ana", "reveal", "B")
    assert t.options("Ana") == ["take.S1-050", "take.S1-053", "done"]  # the next 4 cards
    assert GAME.view(t.state, 0).looked == [FILLER, "S1-010", "S1-050", "S1-053"]
    assert GAME.view(t.state, 1).looked == []  # what she sees is hers alone
    t.play("Ana", "take", "S1-050")  # up to 1: the search ends there
    ana = t.side("Ana")
    assert ana.hand == ["S1-050"]
    assert list(reversed(ana.deck)) == [FILLER, "S1-010", "S1-053"]  # now at the bottom


def test_search_does_not_fire_without_a_matching_card() -> None:
    t = Table(
        side(
            battle=[(PLAIN, [FILLER] * 2)],
            hand=["S1-049"],
            support=[B],
            deck=["S1-047", "S1-048", FILLER, "S1-010", FILLER, "S1-011", "S1-053"],
        ),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "cookie", "S1-049")
    t.play("Ana", "reveal", "B")
    assert t.side("Ana").hand == [] and t.deciding() == "Ana" and t.state.stack == []
    assert list(reversed(t.side("Ana").deck)) == ["S1-053", FILLER, "S1-010", FILLER, "S1-011"]


# --- return_to_hand --------------------------------------------------------------------------
def test_return_to_hand_fires_on_a_level_1_attacker() -> None:
    t = Table(
        side(battle=[("S1-002", ["S1-016"]), (PLAIN, [FILLER] * 2)], support=[R, Y]),
        side(battle=[("S1-035", ["S1-051", FILLER, FILLER])], support=[B, B]),
    )
    t.play("Ana", "atk", 0, 0, "RY")
    t.play("Ben", "flip", "BB")  # Undertow Mage: return an opponent's LV1 Cookie
    t.play("Ben", "pick", "c1")
    ana = t.side("Ana")
    assert ana.hand == ["S1-002"] and ana.discard == ["S1-016"] and ana.left == 1
    assert t.options("Ana") == ["place.S1-002", "done"]


def test_return_to_hand_does_not_fire_on_a_level_2() -> None:
    t = knight_attacks(["S1-051", FILLER, FILLER, FILLER])
    t.side("Ben").support = Table(side(support=[B, B]), side()).side("Ana").support
    t.play("Ana", "atk", 0, 0, "RRY")
    t.play("Ben", "flip", "BB")
    assert [c.card for c in t.side("Ana").battle] == ["S1-005"] and t.side("Ana").hand == []


# --- recover ---------------------------------------------------------------------------------
def test_recover_fires_with_a_choice_of_matching_cards() -> None:
    t = Table(
        side(
            battle=[(PLAIN, [FILLER] * 2)],
            hand=["S1-026"],
            support=[Y],
            discard=["S1-008", "S1-001", "S1-005", FILLER],
        ),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "item", "S1-026", "Y")  # Recall Scroll: a LV1/2 Cookie
    assert t.options("Ana") == ["take.S1-001", "take.S1-005"]
    t.play("Ana", "take", "S1-005")
    assert t.side("Ana").hand == ["S1-005"]
    assert t.side("Ana").discard == ["S1-008", "S1-001", FILLER, "S1-026"]


def test_recover_does_not_fire_without_a_matching_card() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-026"], support=[Y], discard=["S1-008"]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "item", "S1-026", "Y")
    assert t.side("Ana").hand == [] and t.side("Ana").discard == ["S1-008", "S1-026"]


# --- rest ------------------------------------------------------------------------------------
def test_rest_fires_on_an_active_cookie() -> None:
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2), (PLAIN, [FILLER] * 2)], support=[R]),
        side(battle=[("S1-035", [FILLER] * 4)], hand=["S1-028"], support=[Y]),
    )
    t.play("Ana", "atk", 0, 0, "R")
    t.play("Ben", "trap", "S1-028", "Y")  # Blinding Glare: 1 less, rest an Active Cookie
    assert t.cookie("Ana", 1).rested and len(t.hp("Ben")) == 4


def test_rest_does_not_fire_without_an_active_cookie() -> None:
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2)], support=[R]),
        side(battle=[("S1-035", [FILLER] * 4)], hand=["S1-028"], support=[Y]),
    )
    t.play("Ana", "atk", 0, 0, "R")
    t.play("Ben", "trap", "S1-028", "Y")
    assert t.cookie("Ana").rested and t.state.stack == [] and t.deciding() == "Ana"


# --- activate --------------------------------------------------------------------------------
def test_activate_fires_on_up_to_two_rested_support_cards() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-040"], support=[G], rested=[R, Y]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "item", "S1-040", "G")  # Fertile Soil
    assert t.options("Ana") == ["pick.s0-0", "pick.s0-1", "pick.s0-2", "done"]
    t.play("Ana", "pick", "s0-1")
    t.play("Ana", "pick", "s0-2")
    assert [s.rested for s in t.side("Ana").support] == [True, False, False]


def test_activate_does_not_fire_when_the_player_picks_none() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-040"], support=[G], rested=[R]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "item", "S1-040", "G")
    t.play("Ana", "done")
    assert [s.rested for s in t.side("Ana").support] == [True, True]


# --- discard ---------------------------------------------------------------------------------
def test_discard_fires_and_the_opponent_chooses() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-019"], support=[Y]),
        side(battle=[("S1-046", [FILLER] * 2)], hand=["S1-047", "S1-014"]),
    )
    t.play("Ana", "cookie", "S1-019")
    t.play("Ana", "reveal", "Y")  # Custard Lookout: the opponent discards 1 of their choice
    decision = t.decision()
    assert decision.seat == 1 and decision.reaction
    assert t.options("Ben") == ["take.S1-014", "take.S1-047"]
    t.play("Ben", "take", "S1-047")
    assert t.side("Ben").hand == ["S1-014"] and t.side("Ben").discard == ["S1-047"]


def test_discard_does_not_fire_on_an_empty_hand() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-019"], support=[Y]),
        side(battle=[("S1-046", [FILLER] * 2)], hand=[]),
    )
    t.play("Ana", "cookie", "S1-019")
    t.play("Ana", "reveal", "Y")
    assert t.side("Ben").discard == [] and t.deciding() == "Ana"


def test_discard_at_random_needs_no_choice() -> None:
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2)], support=[R], hand=["S1-005"]),
        side(battle=[("S1-035", [FILLER] * 4)], hand=["S1-059"], support=[B]),
    )
    t.play("Ana", "atk", 0, 0, "R")
    t.play("Ben", "trap", "S1-059", "B")  # Ice Lock: 1 less, Ana discards 1 at random
    assert t.side("Ana").hand == [] and t.side("Ana").discard == ["S1-005"]
    assert len(t.hp("Ben")) == 4


# --- mill ------------------------------------------------------------------------------------
FULL_HANDS = {  # a host's Item: "If you hold 2 cards or more: draw 1"
    "number": "T1-002",
    "name": "Full Hands",
    "type": "item",
    "colour": "R",
    "cost": "",
    "item": {"if": {"hand_at_least": 2}, "do": [{"op": "draw"}]},
}
STEADY = {  # a host's Cookie: "End of your turn: if you hold 1 card or more: draw 1"
    "number": "T1-003",
    "name": "Steady Baker",
    "type": "cookie",
    "colour": "R",
    "level": 1,
    "hp": 2,
    "attack": {"cost": "R", "damage": 1},
    "end_of_turn": {"if": {"hand_at_least": 1}, "do": [{"op": "draw"}]},
}


def test_a_condition_that_held_when_played_holds_after_paying() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["T1-002", R], deck=[B] * 3),
        side(battle=[("S1-046", [FILLER] * 2)]),
        game=game_with(FULL_HANDS),
    )
    assert "item.T1-002.free" in t.options("Ana")  # 2 cards in hand, itself included
    t.play("Ana", "item", "T1-002", "free")
    assert t.side("Ana").hand == [R, B]  # it drew, though 1 card was left once played


def test_an_end_of_turn_condition_is_checked_when_it_starts() -> None:
    game = game_with(STEADY)
    t = Table(
        side(battle=[("T1-003", [FILLER] * 2)], hand=[R], deck=[B] * 3),
        side(battle=[("S1-046", [FILLER] * 2)]),
        game=game,
    )
    t.play("Ana", "end")
    assert t.side("Ana").hand == [R, B]
    t = Table(
        side(battle=[("T1-003", [FILLER] * 2)], hand=[], deck=[B] * 3),
        side(battle=[("S1-046", [FILLER] * 2)]),
        game=game,
    )
    t.play("Ana", "end")
    assert t.side("Ana").hand == [] and "Steady Baker: the condition fails." in t.log()


def test_mill_fires_on_the_opponents_deck() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-027"], support=[Y, Y]),
        side(battle=[("S1-046", [FILLER] * 2)], deck=["S1-047", "S1-048", "S1-050"]),
    )
    t.play("Ana", "item", "S1-027", "YY")
    assert t.side("Ben").discard == ["S1-047", "S1-048"] and t.side("Ben").deck == ["S1-050"]


def test_mill_does_not_fire_on_the_users_own_deck() -> None:
    """Mill has no condition or filter of its own: its one limit is the side it mills, so
    the op runs here and must leave the user's own deck and Discard Pile alone."""
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-027"], support=[Y, Y], deck=[B, R, G]),
        side(battle=[("S1-046", [FILLER] * 2)], deck=["S1-047", "S1-048", "S1-050"]),
    )
    t.play("Ana", "item", "S1-027", "YY")
    assert t.side("Ben").discard == ["S1-047", "S1-048"]  # it ran
    assert t.side("Ana").deck == [G, R, B] and t.side("Ana").discard == ["S1-027"]


# --- deck_to_support -------------------------------------------------------------------------
def test_deck_to_support_fires_rested() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-034"], deck=["S1-046", "S1-047", "S1-050"]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "cookie", "S1-034")  # Acorn Planter, HP 2
    assert t.options("Ana") == ["reveal.free", "skip"]
    t.play("Ana", "reveal", "free")
    assert [(s.card, s.rested) for s in t.side("Ana").support] == [("S1-050", True)]


def test_deck_to_support_does_not_fire_when_skipped() -> None:
    """deck_to_support has no condition or target of its own, so the only way it does not
    fire is its effect not being used: one Acorn Planter's On Reveal is used (one card moves),
    the other's skipped (no second card moves)."""
    t = Table(
        side(hand=["S1-034", "S1-034"], deck=["S1-046", "S1-047", "S1-050", R, Y, G]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "cookie", "S1-034")  # Acorn Planter, HP 2: S1-046 and S1-047
    t.play("Ana", "reveal", "free")  # S1-050 to the Support Area
    t.play("Ana", "cookie", "S1-034")  # HP R and Y
    assert t.options("Ana") == ["reveal.free", "skip"]
    t.play("Ana", "skip")
    assert [(s.card, s.rested) for s in t.side("Ana").support] == [("S1-050", True)]
    assert t.side("Ana").deck == [G]


# --- support_to_hand -------------------------------------------------------------------------
def test_support_to_hand_fires_on_the_chosen_support_card() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-055"], support=[B, R]),
        side(battle=[("S1-046", [FILLER] * 2)], support=[R], rested=[B]),
    )
    t.play("Ana", "item", "S1-055", "RB")  # Ebb Tide
    assert t.options("Ana") == ["pick.s1-0", "pick.s1-1"]
    t.play("Ana", "pick", "s1-1")
    assert t.side("Ben").hand == [B] and [s.card for s in t.side("Ben").support] == [R]


def test_support_to_hand_does_not_fire_without_support() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-055"], support=[B, R]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "item", "S1-055", "RB")
    assert t.side("Ben").hand == [] and t.deciding() == "Ana" and t.state.stack == []


# --- break_to_discard ------------------------------------------------------------------------
def test_break_to_discard_fires_when_the_break_area_is_level_2() -> None:
    t = Table(
        side(
            battle=[(PLAIN, [FILLER] * 2)],
            hand=["S1-025"],
            support=[Y, R],
            break_area=["S1-001", "S1-005"],
        ),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "item", "S1-025", "RY")  # Lantern of Return
    assert t.options("Ana") == ["take.S1-001", "take.S1-005"]
    t.play("Ana", "take", "S1-005")
    assert t.side("Ana").break_area == ["S1-001"] and "S1-005" in t.side("Ana").discard


def test_break_to_discard_is_not_offered_below_level_2() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-025"], support=[Y, R], break_area=[R]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    assert not any(o.startswith("item") for o in t.options("Ana"))


# --- to_discard ------------------------------------------------------------------------------
def test_to_discard_fires_and_the_cookie_does_not_faint() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-056"], support=[B, B, R]),
        side(battle=[("S1-035", ["S1-047"])], hand=["S1-046"]),
    )
    t.play("Ana", "item", "S1-056", "RBB")  # Whirlpool: a Cookie with 1 HP or less
    ben = t.side("Ben")
    assert ben.break_area == [] and ben.discard == ["S1-047", "S1-035"]
    assert t.options("Ben") == ["place.S1-046"]  # forced re-placement after the effect


def test_to_discard_does_not_fire_above_the_hp_limit() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-056"], support=[B, B, R]),
        side(battle=[("S1-035", ["S1-047", FILLER])]),
    )
    t.play("Ana", "item", "S1-056", "RBB")
    assert [c.card for c in t.side("Ben").battle] == ["S1-035"]


# --- disable_flip ----------------------------------------------------------------------------
def test_disable_flip_fires_for_this_turn_only() -> None:
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2)], stage="S1-060", support=[B, R]),
        side(battle=[("S1-035", ["S1-003", FILLER, FILLER])]),
    )
    t.play("Ana", "act", "B")  # Tidepool Observatory
    t.play("Ana", "atk", 0, 0, "R")
    assert "FLIP effects are off this turn: Spark Tumbler does nothing." in t.log()
    assert t.deciding() == "Ana" and t.side("Ana").stage_rested
    t.play("Ana", "end")
    assert not t.side("Ben").flip_off


def test_disable_flip_does_not_fire_on_the_users_own_flips() -> None:
    """disable_flip has no condition or target of its own: its one limit is the side, so the
    op runs here and the user's own FLIP effects stay on."""
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2)], stage="S1-060", support=[B, R]),
        side(battle=[("S1-035", ["S1-003", FILLER, FILLER])]),
    )
    t.play("Ana", "act", "B")  # Tidepool Observatory: the opponent's FLIPs
    assert t.side("Ben").flip_off and not t.side("Ana").flip_off
