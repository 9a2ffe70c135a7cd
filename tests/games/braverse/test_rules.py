"""Rules of cookierun-braverse.txt and our rulings, on rigged tables with exact outcomes.

Test names follow the rulebook's sections: Game Flow (set-up, turn phases), Costs, Battle,
Refresh, Victory Condition, Stage, and the rulings listed in /rules.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from games.braverse.state import AttackFrame, BraverseOptions, DamageFrame, TrapWindow
from games.core.options import describe
from games.core.protocol import Action, IllegalAction
from games.core.replay import MatchExport, ReplayError, states
from games.core.text import Text

from .conftest import FILLER, GAME, PLAIN, Table, game_with, side

ITEMS = [FILLER] * 6


# --- Game Flow: setting up -------------------------------------------------------------------
def test_setup_the_rock_paper_scissors_winner_chooses_to_go_second() -> None:
    state = GAME.setup(BraverseOptions(), ("Ana", "Ben"), seed=3)
    chooser = state.chooser
    assert [len(s.hand) for s in state.sides] == [6, 6]
    assert [len(s.deck) for s in state.sides] == [54, 54]
    decision = GAME.decisions(state)[0]
    assert decision.seat == chooser and decision.default == Action.of("order", "first")
    state, _ = GAME.apply(state, chooser, Action.of("order", "second"))
    assert state.first == 1 - chooser and state.phase == "mulligan"
    assert GAME.decisions(state)[0].seat == state.first  # the first player mulligans first


def test_setup_refuses_a_match_recorded_with_another_card_list() -> None:
    with pytest.raises(IllegalAction, match="another card list"):
        GAME.setup(BraverseOptions(cards="0123456789abcdef"), ("Ana", "Ben"), seed=3)
    state = GAME.setup(BraverseOptions(cards=GAME.pool.digest), ("Ana", "Ben"), seed=3)
    assert state.cards == GAME.pool.digest


def test_setup_refuses_an_illegal_deck_with_every_problem() -> None:
    decks = (("S1-010",) * 60, ("S1-001",) * 60)
    with pytest.raises(IllegalAction) as caught:
        GAME.setup(BraverseOptions(decks=decks), ("Ana", "Ben"), seed=3)
    assert str(caught.value) == (
        "Deck 1 cannot be played: S1-010 Hot Sauce Flask: 60 copies; at most 4 of one card "
        "number. No Cookie card; a deck needs at least one."
    )


def test_setup_mulligan_first_player_then_second_even_if_the_first_keeps() -> None:
    state = GAME.setup(BraverseOptions(), ("Ana", "Ben"), seed=3)
    state, _ = GAME.apply(state, state.chooser, Action.of("order", "first"))
    first, second = state.first, 1 - state.first
    kept = list(state.sides[first].hand)
    state, _ = GAME.apply(state, first, Action.of("mull", "no"))
    assert state.sides[first].hand == kept
    assert GAME.decisions(state)[0].seat == second
    cards = Counter(state.sides[second].hand + state.sides[second].deck)
    state, events = GAME.apply(state, second, Action.of("mull", "yes"))
    after = state.sides[second]
    assert len(after.hand) == 6 and len(after.deck) == 54
    assert Counter(after.hand + after.deck) == cards  # the same cards, reshuffled
    assert f"🔄 {state.names[second]} mulligans." in [e.text for e in events]
    with pytest.raises(IllegalAction):
        GAME.apply(state, first, Action.of("mull", "yes"))  # one mulligan each, then it is over


def test_setup_a_hand_without_cookie_is_shown_and_redrawn_and_the_opponent_draws_each_time() -> (
    None
):
    t = Table(
        side(hand=ITEMS, deck=[FILLER] * 10 + ["S1-016"] * 4),
        side(hand=[PLAIN] * 6),
        phase="mulligan",
        round=0,
    )
    t.state.at = 1  # Ben's mulligan is the last one
    t.play("Ben", "mull", "no")
    shows = [e for e in t.log() if "has no Cookie and shows" in e]
    assert shows[0] == "🙈 Ana has no Cookie and shows: " + ", ".join(["Tax Collector"] * 6) + "."
    assert len(t.side("Ben").hand) == 6 + len(shows)  # one card per redraw, automatically
    assert len(t.side("Ana").hand) == 6
    assert any(GAME.pool[c].type == "cookie" for c in t.side("Ana").hand)
    assert t.state.phase == "starting" and {d.seat for d in GAME.decisions(t.state)} == {0, 1}


def test_setup_starting_cookies_are_secret_then_revealed_with_hp_top_card_at_the_bottom() -> None:
    t = Table(
        side(hand=["S1-034", PLAIN], deck=["S1-001", "S1-002", "S1-005", "S1-006"]),
        side(hand=["S1-020"], deck=["S1-046", "S1-047", "S1-048", "S1-049", "S1-050"]),
        phase="starting",
        round=0,
    )
    t.play("Ana", "start", "S1-034")
    assert GAME.view(t.state, 1).my_start is None and GAME.view(t.state, 1).sides[0].chosen
    assert GAME.view(t.state, 0).my_start == "S1-034"
    assert "S1-034" not in GAME.view(t.state, 1).model_dump_json()
    assert [d.seat for d in GAME.decisions(t.state)] == [1]  # Ben's decision is unchanged
    t.play("Ben", "start", "S1-020")
    # Acorn Planter (HP 2) takes the top 2, the top card at the bottom: flips come S1-002 first
    assert t.hp("Ana") == ["S1-002", "S1-001"]
    assert t.hp("Ben") == ["S1-049", "S1-048", "S1-047", "S1-046"]
    # no On Reveal for a starting Cookie: Acorn Planter's free deck_to_support did not fire
    # (the top card S1-005 would be in Ana's Support); the first player skips the Draw Phase
    assert t.side("Ana").support == [] and len(t.side("Ana").deck) == 2
    assert t.state.phase == "support" and t.deciding() == "Ana"
    assert t.side("Ana").hand == [PLAIN] and t.state.round == 1


# --- Game Flow: turn phases ------------------------------------------------------------------
def test_turn_phases_active_draw_support_main_end_then_the_opponent() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)]),
        side(
            battle=[("S1-046", [FILLER] * 2)],
            rested=["S1-046"],
            deck=["S1-047", "S1-048", FILLER],
            hand=[],
        ),
    )
    t.cookie("Ben").rested = True
    t.play("Ana", "end")
    ben = t.side("Ben")
    assert not ben.support[0].rested and not ben.battle[0].rested  # Active Phase
    assert sorted(ben.hand) == ["S1-047", "S1-048"]  # Draw Phase: 2
    assert t.state.phase == "support" and t.deciding() == "Ben" and t.state.turn == 1
    assert t.options("Ben") == ["sup.S1-047", "sup.S1-048", "skip"]  # Skip last
    assert t.decision().default == Action.of("skip")
    t.play("Ben", "sup", "S1-048")
    assert t.state.phase == "main" and [s.card for s in ben.support] == ["S1-046"]
    assert [s.card for s in t.side("Ben").support] == ["S1-046", "S1-048"]
    assert not any(o.startswith("sup") for o in t.options("Ben"))  # one per turn


def test_battle_the_first_player_cannot_attack_on_turn_one_the_second_can() -> None:
    ana = side(battle=[("S1-001", [FILLER] * 2)], support=["S1-001"], hand=[])
    ben = side(battle=[("S1-046", [FILLER] * 2)], support=["S1-046"], hand=[])
    t = Table(ana, ben, round=1)
    assert not any(o.startswith("atk") for o in t.options("Ana"))
    # The question says why no attack is offered, instead of "play, attack, or end".
    assert t.decision().prompt == (
        "Main Phase: play, or end your turn. (The first player cannot attack on their first turn.)"
    )
    t = Table(ana, ben, round=2, turn=1)
    assert "atk.0.0.B" in t.options("Ben")
    assert t.decision().prompt == "Main Phase: play, attack, or end your turn."


def test_main_phase_a_placed_cookie_is_active_and_may_attack_at_once() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-001"], support=["S1-001"]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "cookie", "S1-001")
    assert len(t.hp("Ana", 1)) == 2 and not t.cookie("Ana", 1).rested
    assert "atk.1.0.R" in t.options("Ana")
    assert "cookie.S1-001" not in t.options("Ana")


def test_battle_area_holds_at_most_two_cookies() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2), (PLAIN, [FILLER] * 2)], hand=["S1-001"]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    assert not any(o.startswith("cookie") for o in t.options("Ana"))


# --- Costs -----------------------------------------------------------------------------------
def test_costs_one_support_card_per_symbol_coloured_symbols_need_their_colour() -> None:
    ana = side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-002", "S1-016", "S1-031"])
    t = Table(ana, side(battle=[("S1-046", [FILLER] * 2)]))
    attacks = [o for o in t.options("Ana") if o.startswith("atk")]
    assert attacks == ["atk.0.0.RRY", "atk.0.0.RRG"]  # the automatic payment first
    t.play("Ana", "atk", 0, 0, "RRG")
    support = [(s.card, s.rested) for s in t.side("Ana").support]
    assert support == [("S1-001", True), ("S1-002", True), ("S1-016", False), ("S1-031", True)]
    one_red = side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-016", "S1-031"])
    t = Table(one_red, side(battle=[("S1-046", [FILLER] * 2)]))
    assert not any(o.startswith("atk") for o in t.options("Ana"))


def test_costs_the_automatic_payment_keeps_scarce_colours() -> None:
    ana = side(battle=[("S1-002", [FILLER])], support=["S1-001", "S1-016", "S1-031", "S1-032"])
    t = Table(ana, side(battle=[("S1-046", [FILLER] * 2)]))
    assert [o for o in t.options("Ana") if o.startswith("atk")] == [
        "atk.0.0.RG",  # two Green to spare: N takes Green
        "atk.0.0.RY",
    ]


def test_costs_a_discard_cost_names_the_card_and_discards_it() -> None:
    t = Table(
        side(
            battle=[(PLAIN, [FILLER] * 2)], hand=["S1-012", "S1-001", "S1-016"], support=["S1-001"]
        ),
        side(battle=[("S1-035", [FILLER] * 4)]),
    )
    assert [o for o in t.options("Ana") if o.startswith("item")] == [
        "item.S1-012.R.S1-001",
        "item.S1-012.R.S1-016",
    ]
    t.play("Ana", "item", "S1-012", "R", "S1-016")
    assert t.side("Ana").hand == ["S1-001"]
    assert t.side("Ana").discard == ["S1-016", "S1-012"]  # the cost first, then the Item
    assert len(t.hp("Ben")) == 2  # Kindling Toss: 2 damage


def test_costs_a_discard_cost_offers_every_colour_multiset_with_every_card() -> None:
    game = game_with(  # a host's Item: "N discard: draw 1"
        {
            "number": "T1-010",
            "name": "Trade In",
            "type": "item",
            "colour": "R",
            "cost": "N discard",
            "item": {"do": [{"op": "draw"}]},
        }
    )
    t = Table(
        side(
            battle=[(PLAIN, [FILLER] * 2)],
            hand=["T1-010", "S1-001", "S1-046"],
            support=["S1-001", "S1-001", "S1-016"],
        ),
        side(battle=[("S1-035", [FILLER] * 4)]),
        game=game,
    )
    assert [o for o in t.options("Ana") if o.startswith("item")] == [
        "item.T1-010.R.S1-001",  # the automatic colour (Red, two to spare) first
        "item.T1-010.R.S1-046",
        "item.T1-010.Y.S1-001",
        "item.T1-010.Y.S1-046",
    ]
    t.play("Ana", "item", "T1-010", "Y", "S1-046")
    support = [(s.card, s.rested) for s in t.side("Ana").support]
    assert support == [("S1-001", False), ("S1-001", False), ("S1-016", True)]
    assert t.side("Ana").discard == ["S1-046", "T1-010"]


# --- Battle ----------------------------------------------------------------------------------
def attack_table(ben_hp: list[str], **ben: object) -> Table:
    """Ana's Ember Knight (3 damage, RRN paid by R R Y) against Ben's Oakheart Warden."""
    return Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(battle=[("S1-035", ben_hp)], **ben),  # type: ignore[arg-type]
    )


def test_battle_damage_flips_one_hp_card_per_point_into_the_discard_pile() -> None:
    t = attack_table(["S1-046", "S1-047", "S1-050", "S1-053"])
    t.play("Ana", "atk", 0, 0, "RRY")
    assert t.cookie("Ana").rested
    assert t.hp("Ben") == ["S1-053"] and t.side("Ben").discard == ["S1-046", "S1-047", "S1-050"]
    assert t.deciding() == "Ana" and t.state.phase == "main" and not t.state.stack


def test_battle_a_flip_card_resolves_between_two_flips() -> None:
    t = attack_table(["S1-003", "S1-047", "S1-050", "S1-053"])
    t.play("Ana", "atk", 0, 0, "RRY")
    decision = t.decision()
    assert decision.seat == 1 and decision.reaction  # Ben answers on Ana's turn
    assert t.options("Ben") == ["flip.free", "decline"]
    assert t.hp("Ben") == ["S1-047", "S1-050", "S1-053"]  # one flipped, two points to go
    damage = [f for f in t.state.stack if isinstance(f, DamageFrame)]
    assert damage[0].left == 2
    t.play("Ben", "flip", "free")  # Spark Tumbler: 1 damage to Ana's only Cookie
    assert t.hp("Ana") == [FILLER, FILLER]
    assert t.hp("Ben") == ["S1-053"]
    log = t.log()
    assert log.index("🔁 FLIP! Spark Tumbler activates.") < next(
        i for i, line in enumerate(log) if "flips Tide Runner" in line
    )


def test_battle_a_declined_flip_does_nothing() -> None:
    t = attack_table(["S1-003", "S1-047", "S1-050", "S1-053"])
    t.play("Ana", "atk", 0, 0, "RRY")
    t.play("Ben", "decline")
    assert t.hp("Ana") == [FILLER] * 3 and t.hp("Ben") == ["S1-053"]
    assert "Ben declines Spark Tumbler's FLIP." in t.log()


def test_faint_surplus_damage_is_lost_and_the_cookie_goes_to_the_break_area() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(battle=[("S1-035", ["S1-046"]), (PLAIN, [FILLER] * 2)], deck=["S1-047"] * 5),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    ben = t.side("Ben")
    assert ben.break_area == ["S1-035"] and ben.discard == ["S1-046"]
    assert len(ben.deck) == 5 and [c.card for c in ben.battle] == [PLAIN]
    assert "💔 Ben's Oakheart Warden faints (Break Area LV 2/10)." in t.log()


def test_faint_on_the_last_hp_card_its_flip_still_resolves_after() -> None:
    t = attack_table(["S1-003"])
    t.play("Ana", "atk", 0, 0, "RRY")
    assert t.side("Ben").break_area == ["S1-035"]
    assert t.options("Ben") == ["flip.free", "decline"]  # the FLIP comes after the faint
    t.play("Ben", "flip", "free")
    assert t.hp("Ana") == [FILLER, FILLER]


def test_battle_the_defender_answers_once_with_one_trap() -> None:
    t = attack_table(
        ["S1-046", "S1-047", "S1-050", "S1-053"],
        hand=["S1-014", "S1-044"],
        support=["S1-001", "S1-031", "S1-032"],
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    decision = t.decision()
    assert isinstance(t.state.stack[-1], TrapWindow)
    assert decision.seat == 1 and decision.reaction and decision.lenient
    assert decision.default == Action.of("pass")
    assert t.options("Ben") == [
        "pass",
        "trap.S1-014.RG",
        "trap.S1-044.RG",  # the automatic payment first: N paid with the Red
        "trap.S1-044.GG",
    ]
    t.play("Ben", "trap", "S1-014", "RG")  # Smoke Screen: 2 less damage
    assert t.hp("Ben") == ["S1-047", "S1-050", "S1-053"]  # 3 - 2 = 1 point
    assert t.side("Ben").hand == ["S1-044"] and t.side("Ben").discard == ["S1-014", "S1-046"]
    assert t.deciding() == "Ana"  # no second response to the same attack


def test_battle_the_trap_window_opens_after_every_attack_even_with_nothing_to_answer() -> None:
    """Opened only when the defender could answer, the window (or its absence) told the
    attacker whether they held a payable Trap: it opens after every attack, and the lone
    Pass is a forced decision (the bot driver plays it after its pause)."""
    t = attack_table(["S1-046", "S1-047", "S1-050", "S1-053"], hand=["S1-014"])
    t.forced_passes = False
    t.play("Ana", "atk", 0, 0, "RRY")  # Smoke Screen in hand but no Support to pay for it
    assert isinstance(t.state.stack[-1], TrapWindow) and t.deciding() == "Ben"
    decision = t.decision()
    assert t.options("Ben") == ["pass"] and decision.forced == Action.of("pass")
    assert decision.hides_choice and decision.prompt == (
        "You are attacked (3 damage): answer with a Trap or not?"
    )
    t.play("Ben", "pass")
    assert t.hp("Ben") == ["S1-053"] and t.deciding() == "Ana"


def as_saved_then(dump: str) -> str:
    """A state's JSON with its words as the plain English it was saved with before log
    lines were kept as message ids and arguments (``{"t": ...}``): every other byte as is."""

    def english(value: object) -> object:
        if isinstance(value, dict):
            if "t" in value:
                return str(Text.from_data(value))
            return {key: english(item) for key, item in value.items()}
        if isinstance(value, list):
            return [english(item) for item in value]
        return value

    return json.dumps(english(json.loads(dump)), ensure_ascii=False, separators=(",", ":"))


def test_battle_a_match_stored_with_the_old_trap_window_replays_from_its_log() -> None:
    """A match played before the window opened after every attack (bot against bot, its
    options as the bot stored them: ``always_ask`` false; 30 attacks, 20 of them without
    a window) replays from seed, options and log to its final state, byte for byte."""
    data = json.loads((Path(__file__).parent / "legacy_match.json").read_text())
    digest = data.pop("final_state_sha256")
    export = MatchExport.model_validate(data)
    assert export.options["always_ask"] is False
    *_, final = states(GAME, export)
    # Exported before re-placement was asked of a side with no Cookie in hand, it holds
    # no word of that rule either: it replays under the old one, as it was saved then.
    assert final.options.ask_lone_choice is False
    saved = as_saved_then(final.model_dump_json()).replace(',"ask_lone_choice":false', "")
    assert hashlib.sha256(saved.encode()).hexdigest() == digest
    # the same seed, decks and moves under today's rule: the first attack on a defender
    # with no answer finds a window the old log never answered
    export.options["always_ask"] = True
    with pytest.raises(ReplayError, match="does not replay"):
        for _ in states(GAME, export):
            pass


def test_battle_a_new_match_opens_the_window_whatever_its_lobby_stored() -> None:
    """A lobby or tournament saved under the old rule starts today's (Start writes it)."""
    lists = [GAME.ready_list("rush"), GAME.ready_list("tempo")]
    started = GAME.with_seat_lists(BraverseOptions(always_ask=False), lists)  # type: ignore[arg-type]
    assert started.always_ask and BraverseOptions().always_ask
    assert "always_ask" not in {f.name for f in describe(BraverseOptions)}  # not offered


def test_battle_a_when_attacked_effect_is_the_one_response_and_rests_its_cookie() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(battle=[("S1-052", [FILLER] * 3)], support=["S1-046"], hand=["S1-059"]),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    assert t.options("Ben") == ["pass", "trap.S1-059.B", "react.0.B"]
    t.play("Ben", "react", 0, "B")
    assert t.cookie("Ben").rested and len(t.hp("Ben")) == 1  # 3 - 1 = 2 points
    assert t.side("Ben").hand == ["S1-059"]


def test_battle_when_attacked_answers_an_attack_on_its_own_cookie_only() -> None:
    """Ripple Sage's printed "When attacked (B, rest this)" is about Ripple Sage itself."""
    ana = {"battle": [("S1-005", [FILLER] * 3)], "support": ["S1-001", "S1-001", "S1-016"]}
    ben = {
        "battle": [("S1-035", [FILLER] * 4), ("S1-052", [FILLER] * 3)],
        "support": ["S1-046"],
    }
    t = Table(side(**ana), side(**ben), forced_passes=False)  # type: ignore[arg-type]
    t.play("Ana", "atk", 0, 0, "RRY")  # at Oakheart Warden: Ripple Sage cannot answer
    assert t.options("Ben") == ["pass"]
    t.play("Ben", "pass")
    assert t.hp("Ben", 0) == [FILLER] and not t.cookie("Ben", 1).rested
    t = Table(side(**ana), side(**ben))  # type: ignore[arg-type]
    t.play("Ana", "atk", 0, 1, "RRY")  # at Ripple Sage itself
    assert t.options("Ben") == ["pass", "react.1.B"]
    t.play("Ben", "react", 1, "B")
    assert t.cookie("Ben", 1).rested and t.hp("Ben", 1) == [FILLER]  # 3 - 1 = 2 points


def test_battle_attacker_gone_before_the_damage_step_means_no_damage() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"], hand=[]),
        side(battle=[("S1-035", [FILLER] * 4)], support=["S1-046", "S1-047"], hand=["S1-058"]),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    t.play("Ben", "trap", "S1-058", "BB")  # Riptide: Ember Knight back to Ana's hand
    ana = t.side("Ana")
    assert ana.hand == ["S1-005"] and ana.discard == [FILLER] * 3 and ana.battle == []
    # re-placement follows the effect at once; Ana's Battle Area is empty: forced
    assert t.deciding() == "Ana" and t.options("Ana") == ["place.S1-005"]
    t.play("Ana", "place", "S1-005")
    assert "The attacker has left the Battle Area: no damage." in t.log()
    assert len(t.hp("Ben")) == 4 and t.state.stack == [] and t.state.phase == "main"
    assert not t.cookie("Ana").rested  # the Cookie placed again is a new, Active Cookie


def test_battle_target_gone_before_the_damage_step_means_no_damage() -> None:
    """A host's card (not in our pool): a Trap that takes the defender's own Cookie back."""
    escape = {
        "number": "T1-001",
        "name": "Escape Hatch",
        "type": "trap",
        "colour": "B",
        "cost": "B",
        "trap": {"do": [{"op": "return_to_hand", "target": {"side": "own"}}]},
    }
    game = game_with(escape)
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(
            battle=[("S1-035", [FILLER] * 4), ("S1-046", [FILLER] * 2)],
            support=["S1-046"],
            hand=["T1-001"],
        ),
        game=game,
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    t.play("Ben", "trap", "T1-001", "B")
    t.play("Ben", "pick", "c2")  # Oakheart Warden, the target, back to Ben's hand
    assert t.options("Ben") == ["place.S1-035", "done"]  # re-placement after the effect
    t.play("Ben", "place", "S1-035")  # placed again: a new Cookie, not the target
    assert "The target has left the Battle Area: no damage." in t.log()
    assert len(t.hp("Ben", 1)) == 4 and len(t.hp("Ben", 0)) == 2 and t.deciding() == "Ana"


def test_battle_a_heal_in_the_middle_of_damage_gives_no_points_back() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(
            battle=[("S1-035", ["S1-033", "S1-046", "S1-047", "S1-050"])],
            deck=["S1-053", FILLER],
        ),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    t.play("Ben", "flip", "free")  # Clover Sprite: +1 HP, from the top of Ben's deck
    # 3 points: Clover Sprite, then the new card, then S1-046: the heal is flipped away
    assert t.hp("Ben") == ["S1-047", "S1-050"]
    assert t.side("Ben").discard == ["S1-033", "S1-053", "S1-046"]


def test_battle_declared_damage_is_locked_never_below_zero() -> None:
    t = Table(
        side(battle=[("S1-001", [FILLER] * 2)], support=["S1-001"]),
        side(battle=[("S1-035", [FILLER] * 4)], support=["S1-001", "S1-046"], hand=["S1-014"]),
    )
    t.play("Ana", "atk", 0, 0, "R")
    t.play("Ben", "trap", "S1-014", "RB")
    assert len(t.hp("Ben")) == 4
    assert "⚔️ Cinder Scout deals 0 damage to Ben's Oakheart Warden." in t.log()


def test_battle_the_state_of_the_target_does_not_matter() -> None:
    t = attack_table([FILLER] * 4)
    t.cookie("Ben").rested = True
    assert "atk.0.0.RRY" in t.options("Ana")


# --- Re-placement ----------------------------------------------------------------------------
def test_replacement_zero_to_n_after_a_faint_turn_player_first() -> None:
    t = Table(
        side(
            battle=[("S1-005", [FILLER] * 3)],
            support=["S1-001", "S1-001", "S1-016"],
            hand=["S1-001"],
        ),
        side(battle=[("S1-035", [FILLER]), ("S1-046", [FILLER] * 2)], hand=["S1-047"]),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    assert t.deciding() == "Ben"  # Ana lost nothing: only Ben may place
    assert t.options("Ben") == ["place.S1-047", "done"]
    t.play("Ben", "done")
    assert t.deciding() == "Ana" and t.state.phase == "main"
    assert [c.card for c in t.side("Ben").battle] == ["S1-046"]


@pytest.mark.parametrize("use_flip", [True, False])
def test_replacement_comes_after_the_attack_has_fully_resolved(use_flip: bool) -> None:
    """A FLIP used in the middle of an attack does not start re-placement: the attack's
    "then" step comes first, so it cannot hit a Cookie placed in the fainted one's stead."""
    t = Table(
        side(battle=[("S1-006", [FILLER] * 4)], support=["S1-001", "S1-001"]),
        side(battle=[("S1-035", ["S1-003"])], hand=["S1-046"]),
    )
    t.play("Ana", "atk", 0, 0, "RR")  # Blaze Fencer: 2 damage, then 1 damage to a LV1 Cookie
    assert t.side("Ben").break_area == ["S1-035"]  # Oakheart Warden fainted on Spark Tumbler
    assert t.options("Ben") == ["flip.free", "decline"]
    t.play("Ben", "flip" if use_flip else "decline", *(["free"] if use_flip else []))
    # the then step found no LV1 target; only now is Ben asked to place (forced)
    assert not any(isinstance(f, AttackFrame) for f in t.state.stack)
    assert t.options("Ben") == ["place.S1-046"]
    t.play("Ben", "place", "S1-046")
    assert t.hp("Ben") == [FILLER] * 2 and t.side("Ben").discard == ["S1-003"]
    assert len(t.hp("Ana")) == (3 if use_flip else 4)  # Spark Tumbler's 1 damage, if used
    assert t.deciding() == "Ana" and t.state.phase == "main"


CROSSFIRE = {  # a host's Item: "1 damage to every Cookie" (4 at most, all of them forced)
    "number": "T1-020",
    "name": "Crossfire",
    "type": "item",
    "colour": "R",
    "cost": "",
    "item": {"do": [{"op": "damage", "n": 1, "target": {"side": "either", "count": 4}}]},
}


def test_replacement_both_sides_turn_player_first_zero_to_n_and_forced() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER]), ("S1-035", [FILLER] * 4)], hand=["T1-020", "S1-046"]),
        side(battle=[(PLAIN, [FILLER]), ("S1-046", [FILLER])], hand=["S1-047", "S1-050"]),
        game=game_with(CROSSFIRE),
    )
    t.play("Ana", "item", "T1-020", "free")
    assert t.side("Ana").break_area == [PLAIN] and t.side("Ben").break_area == [PLAIN, "S1-046"]
    # Ana, the turn player, first: one Cookie left, so she may place 0..1
    assert t.options("Ana") == ["place.S1-046", "done"] and t.options("Ben") == []
    t.play("Ana", "place", "S1-046")
    # Ben lost two: his Battle Area is empty, so the first is forced, the second optional
    assert t.options("Ben") == ["place.S1-047", "place.S1-050"]
    t.play("Ben", "place", "S1-050")
    assert t.options("Ben") == ["place.S1-047", "done"]
    t.play("Ben", "place", "S1-047")
    assert [c.card for c in t.side("Ben").battle] == ["S1-050", "S1-047"]
    assert [c.card for c in t.side("Ana").battle] == ["S1-035", "S1-046"]
    assert t.deciding() == "Ana" and t.state.phase == "main" and t.state.stack == []


@pytest.mark.parametrize("hand", [["S1-047"], ["S1-014"]])
def test_replacement_asks_a_side_with_no_cookie_in_hand_all_the_same(hand: list[str]) -> None:
    """Whether a side is asked to re-place must not tell the table whether it holds a
    Cookie: with none, its lone "Place no more" is asked all the same (and, hiding that
    it has no choice, pinged like any decision)."""
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(battle=[("S1-035", [FILLER]), ("S1-046", [FILLER] * 2)], hand=hand),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    decision = t.decision()
    assert t.deciding() == "Ben" and decision.hides_choice
    assert t.options("Ben")[-1] == "done"
    t.play("Ben", "done")
    assert t.deciding() == "Ana" and t.state.phase == "main"


def test_replacement_under_the_old_rule_skips_a_side_with_no_cookie_in_hand() -> None:
    """Matches begun before that rule (``ask_lone_choice`` off) replay as they were played."""
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(battle=[("S1-035", [FILLER]), ("S1-046", [FILLER] * 2)], hand=["S1-014"]),
        ask_lone_choice=False,
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    assert t.deciding() == "Ana" and t.state.phase == "main"


def test_replacement_is_forced_when_the_battle_area_is_empty() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(battle=[("S1-035", [FILLER])], hand=["S1-047", "S1-046"]),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    assert t.options("Ben") == ["place.S1-046", "place.S1-047"]
    t.play("Ben", "place", "S1-046")
    assert [c.card for c in t.side("Ben").battle] == ["S1-046"] and len(t.hp("Ben")) == 2
    assert t.deciding() == "Ana"


def test_victory_an_empty_battle_area_and_no_cookie_in_hand_loses() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(battle=[("S1-035", [FILLER])], hand=["S1-014"]),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    outcome = GAME.outcome(t.state)
    assert outcome is not None and outcome.winners == [0]
    assert outcome.reason == ("Ben has no Cookie in the Battle Area and none in hand: Ana wins.")
    assert GAME.decisions(t.state) == []


def test_on_reveal_may_be_paid_and_used_on_the_opponents_turn() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(battle=[("S1-035", [FILLER])], hand=["S1-004"], support=["S1-001"]),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    t.play("Ben", "place", "S1-004")
    decision = t.decision()
    assert decision.seat == 1 and decision.reaction
    assert t.options("Ben") == ["reveal.R", "skip"]
    # What it does is said, as a FLIP's is: "On Reveal: Chili Drummer?" alone was not.
    assert decision.prompt == "On Reveal: Chili Drummer — Deal 1 damage to an opponent's Cookie."
    assert decision.options[0].description == "On Reveal: Deal 1 damage to an opponent's Cookie."
    assert decision.default == Action.of("skip")  # it costs something: a timeout skips
    t.play("Ben", "reveal", "R")  # Chili Drummer: 1 damage to Ana's only Cookie
    assert t.hp("Ana") == [FILLER, FILLER] and t.side("Ben").support[0].rested


@pytest.mark.parametrize("hand", [["S1-031", "S1-031"], ["S1-031", "S1-035"]])
def test_a_discard_of_ones_choice_asks_a_hand_of_one_kind_all_the_same(hand: list[str]) -> None:
    """Custard Lookout's On Reveal: Ben discards a card of his choice. A hand of one kind
    has one choice; played at once, the game going straight on told Ana so."""
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-019"], support=["S1-016"]),
        side(battle=[("S1-035", [FILLER] * 3)], hand=hand),
    )
    t.play("Ana", "cookie", "S1-019")
    t.play("Ana", "reveal", "Y")
    decision = t.decision()
    assert t.deciding() == "Ben" and decision.hides_choice
    assert t.options("Ben")[0] == "take.S1-031"
    t.play("Ben", "take", "S1-031")
    assert t.side("Ben").discard == ["S1-031"] and t.deciding() == "Ana"


def test_a_discard_of_ones_choice_under_the_old_rule_takes_a_lone_kind_at_once() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], hand=["S1-019"], support=["S1-016"]),
        side(battle=[("S1-035", [FILLER] * 3)], hand=["S1-031", "S1-031"]),
        ask_lone_choice=False,
    )
    t.play("Ana", "cookie", "S1-019")
    t.play("Ana", "reveal", "Y")
    assert t.side("Ben").discard == ["S1-031"] and t.deciding() == "Ana"


# --- Refresh ---------------------------------------------------------------------------------
def test_refresh_in_the_middle_of_a_draw_then_the_draw_goes_on() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)]),
        side(
            battle=[("S1-046", [FILLER] * 2)],
            deck=["S1-047"],
            discard=["S1-001", "S1-005", FILLER, FILLER],
        ),
    )
    t.play("Ana", "end")
    assert t.side("Ben").hand == ["S1-047"] and t.side("Ben").deck == []
    assert t.options("Ben") == ["refresh.S1-001", "refresh.S1-005"]  # lowest level first
    # The question says what the pick costs: its level goes to the Break Area's count.
    assert t.decision().prompt == (
        "Your deck is empty: which Cookie from your Discard Pile goes to the Break Area? Its "
        "LV counts toward the 10 that lose; the rest of the pile becomes your deck."
    )
    t.play("Ben", "refresh", "S1-001")
    ben = t.side("Ben")
    assert ben.break_area == ["S1-001"] and ben.discard == []
    assert len(ben.hand) == 2 and len(ben.deck) == 2  # the second card was drawn after
    assert Counter(ben.hand[1:] + ben.deck) == Counter(["S1-005", FILLER, FILLER])
    assert t.state.phase == "support"


def test_refresh_in_the_middle_of_an_hp_pile() -> None:
    t = Table(
        side(
            battle=[(PLAIN, [FILLER] * 2)],
            hand=["S1-035"],
            deck=["S1-046"],
            discard=["S1-001"] + [FILLER] * 5,
        ),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "cookie", "S1-035")  # HP 4 from a deck of 1: a refresh after the first
    ana = t.side("Ana")
    assert ana.break_area == ["S1-001"] and len(t.hp("Ana", 1)) == 4 and len(ana.deck) == 2
    assert t.hp("Ana", 1)[-1] == "S1-046"  # the card taken before the refresh, at the bottom
    assert t.deciding() == "Ana" and t.state.winner is None


def test_refresh_with_no_cookie_in_the_discard_pile_loses() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)]),
        side(battle=[("S1-046", [FILLER] * 2)], deck=[FILLER], discard=[FILLER]),
    )
    t.play("Ana", "end")
    assert t.state.winner == 0
    assert t.state.reason == (
        "Ben's deck ran out with no Cookie in the Discard Pile to refresh it: Ana wins."
    )


def test_refresh_again_when_the_deck_is_still_empty() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)]),
        side(battle=[("S1-046", [FILLER] * 2)], deck=[FILLER], discard=["S1-001"]),
    )
    t.play("Ana", "end")  # draws the last card, refreshes with S1-001: still empty: loses
    assert t.side("Ben").break_area == ["S1-001"] and t.state.winner == 0


# --- Victory Condition -----------------------------------------------------------------------
def test_victory_a_break_area_of_level_10_loses_at_once() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(
            battle=[("S1-035", ["S1-003"]), (PLAIN, [FILLER])],
            break_area=["S1-008", "S1-009", "S1-020"],
        ),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    assert t.state.winner == 0 and t.state.stack == []  # the FLIP never gets asked
    assert t.state.reason == "Ben's Break Area reached LV 10: Ana wins."


# --- hidden information ------------------------------------------------------------------------
def test_hp_piles_are_hidden_from_everyone_and_hands_from_the_opponent() -> None:
    t = Table(
        side(battle=[("S1-005", ["S1-038", "S1-039", "S1-040"])], hand=["S1-042", "S1-043"]),
        side(battle=[("S1-035", ["S1-053", "S1-054", "S1-055", "S1-056"])], hand=["S1-057"]),
    )
    hidden_hp = ("S1-038", "S1-039", "S1-040", "S1-053", "S1-054", "S1-055", "S1-056")
    names = [GAME.pool[c].name for c in hidden_hp]
    for seat in (None, 0, 1):
        seen = GAME.view(t.state, seat)
        shown = GAME.panels(seen)
        text = seen.model_dump_json() + shown.table.as_text()
        text += shown.hand.as_text() if shown.hand else ""
        assert not any(card in text for card in [*hidden_hp, *names]), seat  # not even the owner
        assert [c.hp_left for c in seen.sides[0].battle] == [3]
    ana, ben = GAME.view(t.state, 0), GAME.view(t.state, 1)
    assert ana.sides[0].hand == ["S1-042", "S1-043"] and ana.sides[1].hand is None
    assert ana.sides[1].hand_count == 1 and "S1-057" not in ana.model_dump_json()
    assert ben.sides[0].hand is None and "S1-042" not in ben.model_dump_json()
    assert GAME.view(t.state, None).sides[0].hand is None


# --- /rules ----------------------------------------------------------------------------------
def test_the_rules_text_says_unofficial_and_lists_the_rulings() -> None:
    text = GAME.rules_text() + GAME.rulings_text()
    for ruling in (
        "unofficial fan implementation",
        "One Support card pays one cost symbol.",
        "may attack at once",
        "flips one HP card per point, FLIP effects resolving between flips",
        "a heal in the middle of damage gives no points back",
        "damage beyond the HP left is lost",
        "fixed when the damage step starts (never below 0)",
        "an effect once it is done",
        "(checked at re-placement)",
        "loses at once",
        "refresh again",
        "the Stage first, then Cookies left to right",
        "draw after a forced redraw is automatic",
        "The trap window opens after every attack",
        '"When attacked" is the Cookie\'s own effect: only the Cookie the attack targets',
        "**Choose deck**",
        "`/deck import` reads a pasted list",
        "`4 S1-007 Flare Juggler`",
        "saved as a draft and cannot be played",
        "`/card`",
    ):
        assert ruling in " ".join(text.split()), ruling


# --- Stage and end of turn -------------------------------------------------------------------
def test_stage_a_new_stage_replaces_the_old_one_into_the_discard_pile() -> None:
    t = Table(
        side(battle=[(PLAIN, [FILLER] * 2)], stage="S1-045", hand=["S1-015"], support=["S1-001"]),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "stage", "S1-015", "R")
    assert t.side("Ana").stage == "S1-015" and t.side("Ana").discard == ["S1-045"]


def test_end_of_turn_effects_resolve_stage_first_then_cookies_left_to_right() -> None:
    t = Table(
        side(
            battle=[("S1-037", ["S1-046"]), ("S1-037", [FILLER] * 3)],
            stage="S1-045",
            deck=["S1-047", "S1-048", "S1-050"],
        ),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    t.play("Ana", "end")
    # Greenhouse: +1 HP to the Cookie with 2 HP or less (the left one) from the deck's top;
    # then Thicket Grower left, then right: +1 each
    assert t.hp("Ana", 0) == ["S1-048", "S1-047", "S1-046"]
    assert t.hp("Ana", 1) == ["S1-050", FILLER, FILLER, FILLER]


def test_the_final_message_scores_each_player_by_their_break_area() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=["S1-001", "S1-001", "S1-016"]),
        side(battle=[("S1-035", ["S1-046"])], break_area=["S1-053", "S1-038", "S1-023"]),
    )
    t.play("Ana", "atk", 0, 0, "RRY")  # Oakheart Warden (LV2) faints: 9 + 2 = LV 11
    outcome = GAME.outcome(t.state)
    assert outcome is not None and outcome.winners == [0]
    scores = {p.seat: GAME.score_text(t.state, p) for p in outcome.placements}
    assert scores == {0: "Break Area LV 0/10", 1: "Break Area LV 11/10"}
