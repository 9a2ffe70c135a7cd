"""The heuristic bot, per the issue's Bot section: it reads its own view only."""

from __future__ import annotations

import random

from games.braverse.state import BraverseOptions

from .conftest import FILLER, GAME, PLAIN, Table, side

R, Y, G, B = "S1-001", "S1-016", "S1-031", "S1-046"


def bot(t: Table, name: str) -> str:
    return GAME.bot_action(t.state, t.seat(name)).encode()


def test_bot_mulligans_a_hand_without_a_level_1_or_2_cookie() -> None:
    t = Table(side(hand=["S1-008", FILLER, FILLER]), side(hand=[PLAIN]), phase="mulligan", round=0)
    assert bot(t, "Ana") == "mull.yes"
    t = Table(side(hand=["S1-005", FILLER]), side(hand=[PLAIN]), phase="mulligan", round=0)
    assert bot(t, "Ana") == "mull.no"


def test_bot_supports_with_the_least_useful_card_and_keeps_one_cookie() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-005", "S1-013", "S1-011"]),
        side(battle=[(B, [FILLER] * 2)]),
        phase="support",
    )
    assert bot(t, "Ana") == "sup.S1-011"  # an Item before a Trap, never the only Cookie
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-005", "S1-013"]),
        side(battle=[(B, [FILLER] * 2)]),
        phase="support",
    )
    assert bot(t, "Ana") == "sup.S1-013"


def test_bot_keeps_one_cookie_in_hand_when_placing() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-005"]),
        side(battle=[(B, [FILLER] * 2)]),
    )
    assert bot(t, "Ana") == "end"
    t.side("Ana").hand = ["S1-005", "S1-032"]
    # Mossy Porter (LV1, HP 3) goes out before Ember Knight (LV2, HP 3): a faint costs less
    assert bot(t, "Ana") == "cookie.S1-032"


def test_bot_attacks_where_it_faints_the_highest_level() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, Y]),
        side(battle=[("S1-046", [FILLER]), ("S1-050", [FILLER] * 2), ("S1-053", [FILLER] * 5)]),
    )
    t.side("Ben").battle = t.side("Ben").battle[:2]  # LV1 with 1 HP, LV2 with 2 HP
    assert bot(t, "Ana") == "atk.0.1.RRY"


def test_bot_takes_the_lethal_attack_over_more_damage() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, Y]),
        side(
            battle=[("S1-050", [FILLER] * 4), ("S1-046", [FILLER])],
            break_area=["S1-008", "S1-009", "S1-001", "S1-001", "S1-001"],
        ),
    )
    # Break Area LV 9: fainting the LV1 ends the match; 3 damage to the LV2 would not faint it
    assert bot(t, "Ana") == "atk.0.1.RRY"


def test_bot_pays_keeping_the_colours_its_traps_need() -> None:
    t = Table(
        side(battle=[("S1-002", [FILLER])], support=[R, Y, G], hand=["S1-043", PLAIN]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    assert bot(t, "Ana") == "atk.0.0.RY"  # Bramble Wall needs its Green


def test_bot_springs_a_trap_only_to_save_a_cookie_of_level_2_or_more() -> None:
    def attacked(defender: str) -> Table:
        t = Table(
            side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, Y]),
            side(battle=[(defender, [FILLER] * 3)], hand=["S1-014"], support=[R, G]),
        )
        t.play("Ana", "atk", 0, 0, "RRY")
        return t

    assert bot(attacked("S1-050"), "Ben") == "trap.S1-014.RG"  # LV2, 3 HP, 3 damage
    assert bot(attacked("S1-017"), "Ben") == "pass"  # LV1: let it go


def test_bot_accepts_a_free_flip_and_refreshes_with_the_lowest_level() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, Y]),
        side(battle=[("S1-035", ["S1-003", FILLER, FILLER, FILLER])]),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    assert bot(t, "Ben") == "flip.free"
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)]),
        side(battle=[(B, [FILLER] * 2)], deck=[FILLER], discard=["S1-008", "S1-005", FILLER]),
    )
    t.play("Ana", "end")
    assert bot(t, "Ben") == "refresh.S1-005"


def test_bot_reads_only_its_own_view() -> None:
    """Two states that differ only in what Ana cannot see give Ana's bot the same move."""
    state = GAME.setup(BraverseOptions(), ("Ana", "Ben"), seed=5)
    rng = random.Random(2)
    for _ in range(60):
        decision = GAME.decisions(state)[0]
        twin = GAME.scramble_hidden(state, decision.seat, rng)
        assert GAME.bot_action(twin, decision.seat) == GAME.bot_action(state, decision.seat)
        state, _ = GAME.apply(state, decision.seat, GAME.bot_action(state, decision.seat))
        if GAME.outcome(state) is not None:
            break


def test_bot_plays_a_boost_first_when_it_turns_an_attack_into_a_faint() -> None:
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2)], hand=["S1-010", PLAIN], support=[R, R]),
        side(battle=[("S1-050", [FILLER] * 3)]),
    )
    assert bot(t, "Ana") == "item.S1-010.R"  # Hot Sauce Flask: 1 + 2 damage faints HP 3
    t.play("Ana", "item", "S1-010", "R")
    assert bot(t, "Ana") == "atk.0.0.R"
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2)], hand=["S1-010", PLAIN], support=[R, R]),
        side(battle=[("S1-050", [FILLER] * 4)]),
    )
    assert bot(t, "Ana") == "atk.0.0.R"  # 3 damage would not faint HP 4: attack at once


def test_bot_declines_a_flip_whose_cost_would_leave_its_trap_unpaid() -> None:
    def flipped(ben_support: list[str], hand: list[str]) -> Table:
        t = Table(
            side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, Y]),
            side(
                battle=[("S1-035", ["S1-007", FILLER, FILLER, FILLER])],
                support=ben_support,
                hand=hand,
            ),
        )
        t.play("Ana", "atk", 0, 0, "RRY")
        if t.options("Ben")[0] == "pass":
            t.play("Ben", "pass")
        return t

    assert bot(flipped([R], []), "Ben") == "flip.R"  # Flare Juggler's FLIP costs R
    assert bot(flipped([R], ["S1-013"]), "Ben") == "decline"  # Backdraft needs that R


def test_bot_answers_with_when_attacked_whenever_it_softens_a_hit_and_keeps_its_trap() -> None:
    def attacked(ben_support: list[str], hand: list[str]) -> Table:
        t = Table(
            side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, Y]),
            side(battle=[("S1-052", [FILLER] * 3)], hand=hand, support=ben_support),
        )
        t.play("Ana", "atk", 0, 0, "RRY")  # 3 damage on Ripple Sage (3 HP): it would faint
        return t

    # Ripple Sage rests itself on Ana's turn: nearly free, so the bot uses it.
    assert bot(attacked([B], []), "Ben") == "react.0.B"
    # With Ice Lock (B) in hand and one Blue Support only, reacting would strand the Trap:
    # the bot springs the Trap to save its LV2 Cookie instead.
    assert bot(attacked([B], ["S1-059"]), "Ben") == "trap.S1-059.B"


def test_bot_supports_the_colour_its_cookie_in_play_cannot_pay_first() -> None:
    def hand_at_support(support: list[str]) -> Table:
        return Table(
            side(
                battle=[("S1-035", [FILLER] * 4)],  # Oakheart Warden attacks for G G N
                hand=["S1-050", "S1-032", "S1-005", "S1-013"],
                support=support,
            ),
            side(battle=[(B, [FILLER] * 2)]),
            phase="support",
        )

    # No Green in Support: Mossy Porter (Green) goes there before the Trap.
    assert bot(hand_at_support([B, B]), "Ana") == "sup.S1-032"
    # Green enough: the least useful card, the Trap, as before.
    assert bot(hand_at_support([G, G]), "Ana") == "sup.S1-013"
