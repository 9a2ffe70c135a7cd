"""The search bot (issue's Bot stretch): determinized worlds, 2-turn playouts, no leaks."""

from __future__ import annotations

import random

from games.braverse.decks import ready_options
from games.braverse.search import Budget, candidates_of, deal_world, search_action
from games.braverse.state import BraverseState, EffectFrame
from games.core.protocol import Action

from .conftest import FILLER, GAME, PLAIN, Table, side

R, Y, G, B = "S1-001", "S1-016", "S1-031", "S1-046"
NINE = ["S1-008", "S1-009", "S1-001", "S1-001", "S1-001"]  # Break Area LV 3+3+1+1+1
FEW = Budget(worlds=3)
TWO = Budget(worlds=2)


def search(t: Table, name: str, seed: int = 0) -> str:
    return search_action(GAME, t.state, t.seat(name), budget=FEW, seed=seed).encode()


def test_search_springs_the_trap_that_saves_the_match() -> None:
    """Ben's Break Area is at LV 9: his LV1 Lemon Squire fainting loses the match. The
    playouts see the loss (the heuristic has a rule of its own for it since)."""
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, Y]),
        side(
            battle=[("S1-017", [FILLER] * 3), (PLAIN, [FILLER] * 2)],
            hand=["S1-014"],
            support=[R, G],
            break_area=NINE,
        ),
    )
    t.play("Ana", "atk", 0, 0, "RRY")
    assert search(t, "Ben") == "trap.S1-014.RG"
    t.play("Ben", "trap", "S1-014", "RG")
    assert t.state.winner is None and t.cookie("Ben").card == "S1-017"


def test_search_takes_the_lethal_attack() -> None:
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, Y]),
        side(battle=[("S1-050", [FILLER] * 4), ("S1-046", [FILLER])], break_area=NINE),
    )
    assert search(t, "Ana") == "atk.0.1.RRY"
    t.play("Ana", "atk", 0, 1, "RRY")
    assert t.state.winner == t.seat("Ana")


def test_payments_are_one_candidate_paid_as_the_heuristic_pays() -> None:
    t = Table(
        side(
            battle=[("S1-002", [FILLER]), ("S1-001", [FILLER])],
            support=[R, Y, G],
            hand=["S1-043", PLAIN],
        ),
        side(battle=[("S1-046", [FILLER] * 2)]),
    )
    decision = t.decision()
    offered = [o.action.encode() for o in decision.options]
    assert {"atk.0.0.RY", "atk.0.0.RG"} <= set(offered)
    view = GAME.view(t.state, 0)
    found = candidates_of(GAME, view, decision, GAME.choose(view, decision))  # type: ignore[arg-type]
    # Ember Pup's RN keeps Bramble Wall's Green; one candidate per move, the heuristic's first
    assert [a.encode() for a in found] == ["atk.0.0.RY", "atk.1.0.R", "end"]


def test_a_lone_or_forced_answer_and_set_up_are_answered_without_search() -> None:
    calls: list[int] = []

    def clock() -> float:
        calls.append(1)
        return 0.0

    state = GAME.setup(ready_options("rush", "tempo"), ("Ana", "Ben"), seed=3)
    decision = GAME.decisions(state)[0]  # first or second: a set-up choice
    action = search_action(GAME, state, decision.seat, budget=FEW, clock=clock)
    assert action == GAME.bot_action(state, decision.seat) and not calls
    t = Table(side(battle=[(PLAIN, [FILLER] * 2)]), side(battle=[(B, [FILLER] * 2)]))
    assert t.options("Ana") == ["end"]
    assert search(t, "Ana") == "end"


def test_the_clock_ends_the_search_after_the_first_world_that_passes_it() -> None:
    ticks = iter(range(100))
    t = Table(
        side(battle=[("S1-005", [FILLER] * 3)], support=[R, R, Y]),
        side(battle=[("S1-050", [FILLER] * 4), ("S1-046", [FILLER])]),
    )
    seen: list[int] = []

    def clock() -> float:
        seen.append(next(ticks))
        return float(seen[-1])

    search_action(GAME, t.state, 0, budget=Budget(seconds=3.0), clock=clock)
    assert seen == [0, 1, 2, 3]  # the deadline read, then one reading per world until 3 s


def played(seed: int, moves: int, worlds: int) -> list[str]:
    state = GAME.setup(ready_options("tempo", "fort"), ("Ana", "Ben"), seed=seed)
    actions = []
    for _ in range(moves):
        if GAME.outcome(state) is not None:
            break
        decision = GAME.decisions(state)[0]
        action = search_action(
            GAME, state, decision.seat, decision=decision, budget=Budget(worlds=worlds), seed=seed
        )
        actions.append(action.encode())
        state, _ = GAME.apply(state, decision.seat, action)
    return actions


def test_the_same_seed_and_worlds_play_the_same_moves() -> None:
    first = played(seed=8, moves=40, worlds=2)
    assert first == played(seed=8, moves=40, worlds=2)
    assert len(first) == 40 and any(a.startswith("atk") for a in first)


def hidden_from(state: BraverseState, seat: int) -> dict[str, list[str]]:
    foe = state.sides[1 - seat]
    return {
        "hand": sorted(foe.hand),
        "deck": list(foe.deck),
        "hp": [c for cookie in foe.battle for c in cookie.hp],
        "own deck": list(state.sides[seat].deck),
    }


def test_the_move_is_the_same_whatever_the_hidden_cards_really_are() -> None:
    """The opponent's real hand, both decks, every HP pile and the match's seed are
    re-dealt at random: the search bot, seeded alike, answers alike."""
    rng = random.Random(4)
    state = GAME.setup(ready_options("rush", "fort"), ("Ana", "Ben"), seed=21)
    checked = 0
    while GAME.outcome(state) is None and checked < 10:
        decision = GAME.decisions(state)[0]
        seat = decision.seat
        action = search_action(GAME, state, seat, decision=decision, budget=TWO, seed=5)
        if state.phase == "main" and len(decision.options) > 2:
            twin = GAME.scramble_hidden(state, seat, rng)
            twin.seed = rng.getrandbits(63)
            assert hidden_from(twin, seat) != hidden_from(state, seat)
            assert GAME.view(twin, seat) == GAME.view(state, seat)
            assert search_action(GAME, twin, seat, budget=TWO, seed=5) == action
            checked += 1
        state, _ = GAME.apply(state, seat, action)
    assert checked == 10


def test_a_world_keeps_what_the_seat_knows_and_forgets_the_seed() -> None:
    """Its own search's cards stay on top of its deck (the take still works); the seed,
    which would foretell later shuffles, is new."""
    t = Table(
        side(
            battle=[(B, [FILLER] * 2)],
            hand=["S1-057"],
            support=[B],
            deck=["S1-053", PLAIN, "S1-050", PLAIN, PLAIN, *[FILLER] * 10],
        ),
        side(battle=[(PLAIN, [FILLER] * 2)]),
    )
    t.play("Ana", "item", "S1-057", "B")
    assert t.options("Ana") == ["take.S1-031", "take.S1-050", "take.S1-053", "done"]
    top = ["S1-053", PLAIN, "S1-050", PLAIN, PLAIN]
    real = t.side("Ana")
    # Ben's HP pile (Fillers) and deck (Fillers) tell nothing: Ana's HP pile is made Plain
    real.battle[0].hp = [PLAIN, PLAIN]
    world = deal_world(GAME, t.state, 0, random.Random(1))
    frame, mine = world.stack[-1], world.sides[0]
    assert isinstance(frame, EffectFrame) and frame.looked == top
    assert mine.deck[::-1][:5] == top
    unseen = sorted(mine.deck[:-5] + mine.battle[0].hp)
    assert unseen == sorted(real.deck[:-5] + real.battle[0].hp)
    assert mine.battle[0].hp != [PLAIN, PLAIN] or mine.deck[:-5] != real.deck[:-5]
    assert world.seed != t.state.seed and world.log == ()
    after, _ = GAME.apply(world, 0, Action.of("take", "S1-053"))
    # up to 1 taken: the other four cards looked at go to the bottom
    assert after.sides[0].hand == ["S1-053"] and sorted(after.sides[0].deck[:4]) == sorted(top[1:])
