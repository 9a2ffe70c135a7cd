"""The DESIGN.md contract, run over every registered game."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from games import GAMES
from games.core import contract
from games.core.options import choice_text, describe
from games.core.protocol import Decision

PLAYOUTS = 40  # in each chunk: about twice what any seed stream took to reach ``REACHED``
CHUNKS = 2  # the playouts run in chunks so pytest-xdist can spread them over the cores
FULL_CHECKS = 20  # playouts, at most, that also check refusals, round trips and views at every step

GAME_KEYS = sorted(GAMES)

# Every kind of action of each game, which every chunk of random playouts must reach along
# with every table size and every offered option value: what lets forty playouts a chunk
# stand for the three hundred this test once played. A kind a game gains is added here.
ACTION_KINDS = {
    "braverse": {
        *("act", "atk", "cookie", "decline", "done", "end", "flip", "item", "mull", "order"),
        *("pass", "pick", "place", "react", "refresh", "reveal", "skip", "stage", "start"),
        *("sup", "take", "trap"),
    },
    "cookie_chomper": {
        *("aim", "chain", "choose", "copy", "mulligan", "number", "pass", "play", "roll"),
        *("seek", "skip"),
    },
    "cover_your_assets": {
        *("accept", "challenge", "challenge_draft", "challenge_second", "concede", "counter"),
        *("discard", "done", "draft", "force_move", "improve", "move", "pair", "swap", "take"),
    },
    "cover_your_cookies": {
        *("challenge", "concede", "counter", "discard", "done", "exchange", "improve"),
        *("mixer_swap", "pair", "rotate", "single", "take"),
    },
    "toss_your_cookies": {"give", "grab", "pass", "roll", "shout", "swap_with", "take", "toss"},
}


# What the step-by-step checks' playouts never meet (the random playouts do): a known gap,
# pinned so that a new one fails.
UNCHECKED: dict[str, dict[str, set[object]]] = {"braverse": {"kinds": {"react"}}}

# Every kind of decision each game plays for its player unasked (``Decision.forced``): the
# first word of its key, and whether it is pinged as a choice would be (``hides_choice``).
# The forced-decision test checks each kind; a kind a game gains is added here.
FORCED_KINDS = {
    "braverse": {("frame", True), ("main", True)},
    "cookie_chomper": {("chain", False), ("main", True), ("round", False), ("round", True)},
    "cover_your_assets": {
        *(("answer", False), ("answer", True), ("draft", False), ("draft", True)),
        ("turn", True),
    },
    "cover_your_cookies": {("answer", False), ("answer", True), ("turn", True)},
    "toss_your_cookies": {("choose", False), ("roll", False)},
}
FORCED_CHECKS = 200  # forced decisions checked in each game, at least


def forced_kind(decision: Decision) -> tuple[str, bool]:
    return decision.key.split("-")[0], decision.hides_choice


def test_every_game_lists_its_action_kinds() -> None:
    assert set(ACTION_KINDS) == set(FORCED_KINDS) == set(GAME_KEYS)


@dataclass
class Coverage:
    """What playouts of one game met: table sizes, kinds of action, option choices."""

    key: str
    sizes: set[int] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)
    choices: set[tuple[str, str]] = field(default_factory=set)

    def add(self, run: contract.Playout) -> None:
        self.sizes.add(len(run.players))
        self.kinds |= {action.kind for _, action in run.actions}
        options = run.options
        self.choices |= {(f.name, choice_text(options, f.name)) for f in describe(type(options))}

    def missing(self) -> dict[str, set[object]]:
        """What is still to meet, by name (empty: everything was met)."""
        game = GAMES[self.key]
        offered = {(f.name, c.value) for f in describe(game.options_model) for c in f.choices}
        gaps = {
            "sizes": set(range(game.min_players, game.max_players + 1)) - self.sizes,
            "kinds": ACTION_KINDS[self.key] - self.kinds,
            "choices": offered - self.choices,
        }
        return {name: gap for name, gap in gaps.items() if gap}


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("key", GAME_KEYS)
def test_random_playouts_end_with_an_outcome(key: str, chunk: int) -> None:
    game = GAMES[key]
    rng = random.Random(f"playouts:{key}:{chunk}")
    met = Coverage(key)
    for _ in range(PLAYOUTS):
        run = contract.playout(game, rng)
        assert run.final is not None
        outcome = game.outcome(run.final)
        assert outcome is not None and outcome.reason
        assert sorted(p.seat for p in outcome.placements) == list(range(len(run.players)))
        assert game.decisions(run.final) == []
        met.add(run)
    assert met.missing() == {}


@pytest.mark.parametrize("key", GAME_KEYS)
def test_same_seed_and_actions_give_the_same_state(key: str) -> None:
    game = GAMES[key]
    rng = random.Random(f"determinism:{key}")
    for _ in range(10):
        contract.check_deterministic(game, contract.playout(game, rng))


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_step_round_trips_copies_refuses_bad_moves_and_hides_secrets(key: str) -> None:
    game = GAMES[key]
    rng = random.Random(f"steps:{key}")
    checked = 0

    def every_state(state, decisions) -> None:  # type: ignore[no-untyped-def]
        nonlocal checked
        checked += 1
        contract.check_round_trip(game, state)
        contract.check_private_copy(game, state)
        contract.check_refusals(game, state, decisions)
        if checked % 7 == 0:
            contract.check_views_hide_secrets(game, state, rng)

    met = Coverage(key)
    for _ in range(FULL_CHECKS):
        met.add(contract.playout(game, rng, every_state=every_state))
        if not met.missing():
            break  # every table size, kind of action and option choice was checked
    assert met.missing() == UNCHECKED.get(key, {})
    assert checked > FULL_CHECKS * 20


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_decision_played_unasked_was_forced_for_all_to_see(key: str) -> None:
    """Where a lone answer is played for its player without a ping, nobody may learn from
    that what they hold (contract.check_forced_is_public_or_hidden). The playouts stop once
    every kind of forced decision the game has was checked and ``FORCED_CHECKS`` were: Toss
    met more than six thousand in twenty playouts, a third of the contract tests' time."""
    game = GAMES[key]
    rng = random.Random(f"forced:{key}")
    checked = 0
    kinds: set[tuple[str, bool]] = set()

    def every_state(state, decisions) -> None:  # type: ignore[no-untyped-def]
        nonlocal checked
        checked += contract.check_forced_is_public_or_hidden(game, state, rng)
        kinds.update(forced_kind(d) for d in decisions if d.forced is not None)

    for _ in range(FULL_CHECKS):
        contract.playout(game, rng, every_state=every_state)
        if kinds == FORCED_KINDS[key] and checked >= FORCED_CHECKS:
            break
    assert kinds == FORCED_KINDS[key]
    assert checked >= FORCED_CHECKS


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_search_move_is_the_same_whatever_the_hidden_cards_really_are(key: str) -> None:
    """The no-leak test of every game's search bot (contract.check_search_is_blind)."""
    game = GAMES[key]
    rng = random.Random(f"blind:{key}")
    checked = sum(contract.check_search_is_blind(game, rng, checks=2) for _ in range(3))
    assert checked >= 5  # enough decisions with something hidden were really compared


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_registry_describes_each_game(key: str) -> None:
    game = GAMES[key]
    assert game.key == key
    assert 1 <= game.min_players <= game.max_players <= 8
    assert game.options_model()  # defaults are the standard rules
    assert len(game.rules_text()) > 200
