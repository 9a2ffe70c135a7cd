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
    # Riptide (B B) cannot be paid with that R anyway: nothing is kept back for it.
    assert bot(flipped([R], ["S1-058"]), "Ben") == "flip.R"


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

    # No Green in Support: Mossy Porter (Green) goes there before the others.
    assert bot(hand_at_support([B, B]), "Ana") == "sup.S1-032"


def test_bot_supports_a_spare_cookie_before_a_trap_and_keeps_the_best_cookies() -> None:
    def hand_at_support(support: list[str]) -> Table:
        return Table(
            side(
                battle=[("S1-035", [FILLER] * 4)],  # Oakheart Warden attacks for G G N
                hand=["S1-008", "S1-032", "S1-013"],  # Inferno Baron, Mossy Porter, Backdraft
                support=support,
            ),
            side(battle=[(B, [FILLER] * 2)]),
            phase="support",
        )

    # Green enough: the Trap stays in hand for the opponent's turn, and of the two spare
    # Cookies the one that brings least to the Battle Area for its level goes: Inferno Baron
    # (LV3, HP 5) before Mossy Porter (LV1, HP 3).
    assert bot(hand_at_support([G, G]), "Ana") == "sup.S1-008"
    # No Green: the Green Cookie pays the Warden's attack, so it goes first.
    assert bot(hand_at_support([B, B]), "Ana") == "sup.S1-032"


def attacked_by(attacker: str, hp: int, defender: str, defender_hp: int, **ben: object) -> Table:
    """Ana's ``attacker`` (HP ``hp``) attacks Ben's ``defender``; Ben's trap window is open."""
    cost = GAME.pool[attacker].attack.cost  # type: ignore[union-attr]
    colours = [{"R": R, "Y": Y, "G": G, "B": B}[c] for c in cost.replace("N", "R")]
    t = Table(
        side(battle=[(attacker, [FILLER] * hp)], support=colours),
        side(battle=[(defender, [FILLER] * defender_hp)], **ben),  # type: ignore[arg-type]
    )
    t.play("Ana", "atk", 0, 0, "".join(sorted(cost.replace("N", "R"), key="RYGB".index)))
    assert t.deciding() == "Ben"
    return t


def test_bot_springs_the_trap_that_saves_its_cookie_not_the_cheapest() -> None:
    # Inferno Baron: 4 damage on Oakheart Warden (LV2, 3 HP left). Blinding Glare (Y) leaves
    # 3 damage, still a faint; Rooted Stance (G N) leaves 2: it saves the Warden.
    t = attacked_by("S1-008", 5, "S1-035", 3, hand=["S1-028", "S1-044"], support=[Y, G, G])
    assert bot(t, "Ben") == "trap.S1-044.GG"
    t.play("Ben", "trap", "S1-044", "GG")
    assert len(t.cookie("Ben").hp) == 1  # 3 HP, 2 damage: the Warden stands


def test_bot_aims_bramble_wall_at_the_attacked_cookie() -> None:
    # Ember Knight: 3 damage on Frost Duelist (LV2, 3 HP); Bramble Wall's +2 HP saves it if
    # it goes there and not to the other Cookie.
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, R]),
        side(
            battle=[("S1-031", [FILLER]), ("S1-050", [FILLER] * 3)],
            hand=["S1-043"],
            support=[G],
        ),
    )
    t.play("Ana", "atk", 0, 1, "RRR")
    assert bot(t, "Ben") == "trap.S1-043.G"
    t.play("Ben", "trap", "S1-043", "G")
    target = t.cookie("Ben", 1).uid
    assert bot(t, "Ben") == f"pick.c{target}"
    t.play("Ben", "pick", f"c{target}")
    assert [c.card for c in t.side("Ben").battle] == ["S1-031", "S1-050"]
    assert len(t.cookie("Ben", 1).hp) == 2  # 3 + 2 - 3


def test_bot_springs_a_trap_that_faints_the_attacker_even_for_a_level_1() -> None:
    # Ember Pup (1 HP) attacks a LV1 that would survive: Backdraft's 1 damage faints the
    # attacker before it deals anything, a level in the opponent's Break Area for one R,
    # and it goes to the attacker rather than to the LV2 beside it that it would faint too.
    t = Table(
        side(battle=[("S1-002", [FILLER]), ("S1-007", [FILLER])], support=[R, R]),
        side(battle=[("S1-017", [FILLER] * 3)], hand=["S1-013"], support=[R]),
    )
    t.play("Ana", "atk", 0, 0, "RR")
    assert bot(t, "Ben") == "trap.S1-013.R"
    t.play("Ben", "trap", "S1-013", "R")
    attacker = t.cookie("Ana").uid
    assert bot(t, "Ben") == f"pick.c{attacker}"
    t.play("Ben", "pick", f"c{attacker}")
    assert t.side("Ana").break_area == ["S1-002"]
    assert len(t.cookie("Ben").hp) == 3  # the attack dealt nothing


def test_bot_saves_a_level_1_cookie_whose_faint_would_lose_the_match() -> None:
    nine = ["S1-008", "S1-009", "S1-001", "S1-001", "S1-001"]  # Break Area LV 9
    t = attacked_by("S1-017", 3, "S1-031", 2, hand=["S1-028"], support=[Y], break_area=nine)
    assert bot(t, "Ben") == "trap.S1-028.Y"  # 2 damage on 2 HP, less 1: it stands
    t = attacked_by("S1-017", 3, "S1-031", 2, hand=["S1-028"], support=[Y])
    assert bot(t, "Ben") == "pass"  # a LV1 with the match not at stake: the Trap waits


def test_bot_holds_chip_damage_that_would_leave_its_trap_unpaid() -> None:
    def board(foe_hp: int) -> Table:
        return Table(
            side(battle=[("S1-017", [FILLER] * 3)], support=[Y, R], hand=["S1-028", PLAIN]),
            side(battle=[("S1-050", [FILLER] * foe_hp)]),
        )

    # Lemon Squire's Y N would rest the only Yellow Blinding Glare needs, for 2 damage on
    # a 3-HP Cookie: the bot ends its turn with the Trap ready.
    assert bot(board(3), "Ana") == "end"
    # The same 2 damage faints a 2-HP LV2: worth the Trap's Support.
    assert bot(board(2), "Ana") == "atk.0.0.RY"


def test_bot_takes_the_highest_level_back_out_of_its_break_area() -> None:
    t = Table(
        side(
            battle=[(PLAIN, [FILLER] * 2)],
            hand=["S1-025", PLAIN],
            support=[Y, G],
            break_area=["S1-031", "S1-023", "S1-020"],
        ),
        side(battle=[(B, [FILLER] * 2)]),
    )
    assert bot(t, "Ana") == "item.S1-025.YG"  # Lantern of Return before anything else
    t.play("Ana", "item", "S1-025", "YG")
    assert bot(t, "Ana") == "take.S1-023"  # Sunburst Regent, LV3


SAGE, WHIRLPOOL, OBSERVATORY, RIPTIDE = "S1-052", "S1-056", "S1-060", "S1-058"


def test_bot_attacks_a_cookie_it_can_faint_and_whirlpools_one_it_cannot() -> None:
    def board(foe_hp: int, attacked: bool) -> Table:
        t = Table(
            side(battle=[(SAGE, [FILLER] * 3)], support=[B, B, B], hand=[WHIRLPOOL, PLAIN]),
            side(battle=[("S1-050", [FILLER] * foe_hp)]),
        )
        t.cookie("Ana").rested = attacked
        return t

    # Ripple Sage's 2 damage faints the 1-HP Cookie: a level in their Break Area beats a
    # Cookie sent to the Discard Pile.
    assert bot(board(1, attacked=False), "Ana") == "atk.0.0.BB"
    # The Sage has attacked already: Whirlpool takes the Cookie no attack can faint now,
    # and it leaves their Battle Area empty.
    t = board(1, attacked=True)
    assert bot(t, "Ana") == "item.S1-056.BBB"
    t.play("Ana", "item", WHIRLPOOL, "BBB")
    assert t.side("Ben").battle == [] and "S1-050" in t.side("Ben").discard
    # 2 HP left: Whirlpool has nothing to take, and the bot does not throw it away.
    assert bot(board(2, attacked=True), "Ana") == "end"


def test_bot_turns_the_opponents_flip_off_before_an_attack_when_support_is_spare() -> None:
    def board(support: list[str], foe_discard: list[str]) -> Table:
        return Table(
            side(battle=[(SAGE, [FILLER] * 3)], support=support, stage=OBSERVATORY),
            side(battle=[("S1-050", [FILLER] * 3)], discard=foe_discard),
        )

    # Their Discard Pile shows a FLIP Cookie (Flare Juggler): their HP piles may hold more,
    # and a B B B Support pays both the Observatory and Ripple Sage's B N.
    t = board([B, B, B], ["S1-007"])
    assert bot(t, "Ana") == "act.B"
    t.play("Ana", "act", "B")
    assert t.side("Ben").flip_off
    assert bot(t, "Ana") == "atk.0.0.BB"
    # Two Support only: the activation would leave the attack unpaid, so the bot attacks.
    assert bot(board([B, B], ["S1-007"]), "Ana") == "atk.0.0.BB"
    # No FLIP card of theirs seen yet: nothing says their HP piles can FLIP.
    assert bot(board([B, B, B], [FILLER]), "Ana") == "atk.0.0.BB"


def test_bot_answers_with_ripple_sage_only_when_it_then_stands() -> None:
    # Inferno Baron's 4 damage on Ripple Sage (2 HP): the -1 leaves 3, still a faint. The
    # window is one response: Riptide sends the Baron back to hand and saves the Sage.
    t = attacked_by("S1-008", 5, SAGE, 2, hand=[RIPTIDE], support=[B, B, B])
    assert "react.0.B" in t.options("Ben")
    assert bot(t, "Ben") == "trap.S1-058.BB"
    # No Trap: the answer would rest a Support for nothing, the Sage faints either way.
    assert bot(attacked_by("S1-008", 5, SAGE, 2, support=[B, B, B]), "Ben") == "pass"
    # 4 damage on 4 HP: the -1 keeps the Sage in the Battle Area.
    assert bot(attacked_by("S1-008", 5, SAGE, 4, support=[B]), "Ben") == "react.0.B"
