"""The contract every registered game must keep, as plain functions any test can call.

Modelled on OpenSpiel's generic random-simulation test: random legal playouts from many
seeds and options must end; the same seed and actions must give the same bytes; state JSON
must round-trip; illegal and out-of-turn actions must raise and change nothing; no view may
let a seat tell apart states that differ only in what it may not see; every encoded action
must fit in a Discord custom_id. Games that draw pictures (``Picturing``) draw every state
within Discord's attachment limit, and their pictures keep the same secrets as their views.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel

from games.core.copies import fresh_copy
from games.core.engine import Engine
from games.core.options import random_options
from games.core.pictures import DISCORD_LIMIT, hand_picture
from games.core.protocol import (
    MAX_ACTION_CHARS,
    Action,
    Decision,
    GameState,
    IllegalAction,
    NotYourTurn,
    Picturing,
)

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")


class ContractBroken(AssertionError):
    pass


@dataclass
class Playout:
    options: BaseModel
    players: tuple[str, ...]
    seed: int
    actions: list[tuple[int, Action]] = field(default_factory=list)
    final: GameState | None = None


def random_pick(decision: Decision, rng: random.Random) -> Action:
    count = rng.randint(decision.min_picks, decision.max_picks)
    return decision.pick(rng.sample(decision.options, count))


def next_move(game: Engine, state: GameState, decision: Decision, rng: random.Random) -> Action:
    """A random legal answer; games whose random play (almost) never ends (Toss: five of a
    kind in a random hand is rare) let their bot make a share of the moves."""
    if rng.random() < game.contract_guide:
        return game.bot_action(state, decision.seat, decision=decision)
    return random_pick(decision, rng)


def playout(
    game: Engine,
    rng: random.Random,
    *,
    max_actions: int = 20_000,
    every_state: callable | None = None,  # type: ignore[valid-type]
) -> Playout:
    """Play random legal moves from a random seed, options and table size to the end."""
    players = NAMES[: rng.randint(game.min_players, game.max_players)]
    options = random_options(game.options_model, rng)
    run = Playout(options=options, players=players, seed=rng.getrandbits(63))
    state = game.setup(options, players, run.seed)
    answered: set[tuple[int, str]] = set()
    while game.outcome(state) is None:
        if len(run.actions) >= max_actions:
            raise ContractBroken(f"{game.key}: no outcome after {max_actions} actions")
        decisions = game.decisions(state)
        if not decisions:
            raise ContractBroken(f"{game.key}: nobody can move but the match is not over")
        for pending in decisions:
            # (A race is the exception: every click in it is a new grab.)
            if pending.window is None and (pending.seat, pending.stamp) in answered:
                # A click on the old view would be taken as an answer to this one.
                raise ContractBroken(f"{game.key}: an answered decision came back unchanged")
        decision = rng.choice(decisions)
        answered.add((decision.seat, decision.stamp))
        action = next_move(game, state, decision, rng)
        check_action_text(action)
        if every_state is not None:
            every_state(state, decisions)
        state, _ = game.apply(state, decision.seat, action)
        run.actions.append((decision.seat, action))
    run.final = state
    return run


def replay(game: Engine, run: Playout) -> GameState:
    state = game.setup(run.options, run.players, run.seed)
    for seat, action in run.actions:
        state, _ = game.apply(state, seat, Action.decode(action.encode()))
    return state


def check_action_text(action: Action) -> None:
    text = action.encode()
    if len(text) > MAX_ACTION_CHARS:
        raise ContractBroken(f"action {text!r} is longer than {MAX_ACTION_CHARS} characters")
    if Action.decode(text) != action:
        raise ContractBroken(f"action {text!r} does not decode to itself")


def check_deterministic(game: Engine, run: Playout) -> None:
    again = replay(game, run)
    assert run.final is not None
    if again.model_dump_json() != run.final.model_dump_json():
        raise ContractBroken(f"{game.key}: same seed and actions gave a different state")


def check_round_trip(game: Engine, state: GameState) -> None:
    text = state.model_dump_json()
    if game.load_state(text).model_dump_json() != text:
        raise ContractBroken(f"{game.key}: state JSON does not round-trip")


def check_private_copy(game: Engine, state: GameState) -> None:
    """The copy ``apply`` hands to ``play`` equals a validated round trip of the state (the
    game keeps every field to its declared type), and shares nothing that can change in
    place with the state it was copied from."""
    if fresh_copy(state) is None:
        raise ContractBroken(f"{game.key}: a state field holds a value of an undeclared type")
    copied = game.private_copy(state)
    validated = game.state_model.model_validate(state.model_dump())
    if copied != validated or copied.model_dump_json() != validated.model_dump_json():
        raise ContractBroken(f"{game.key}: the private copy differs from the state")
    shared = _shared_mutables(state, copied)
    if shared:
        raise ContractBroken(f"{game.key}: the private copy shares a mutable {shared}")


def _shared_mutables(one: object, other: object) -> str | None:
    """The first list, dict, set or changeable model that both trees hold, by type name."""
    changeable = type(one) in (list, dict, set) or (
        isinstance(one, BaseModel) and not one.model_config.get("frozen")
    )
    if changeable and one is other:
        return type(one).__name__
    if isinstance(one, BaseModel) and isinstance(other, BaseModel):
        pairs = [(one.__dict__[name], other.__dict__[name]) for name in type(one).model_fields]
    elif isinstance(one, dict) and isinstance(other, dict):
        pairs = [(one[k], other[k]) for k in one if k in other]
    elif isinstance(one, list | tuple) and isinstance(other, list | tuple):
        pairs = list(zip(one, other, strict=False))
    else:
        return None
    for mine, theirs in pairs:
        found = _shared_mutables(mine, theirs)
        if found:
            return found
    return None


def check_refusals(game: Engine, state: GameState, decisions: Sequence[Decision]) -> None:
    """Out-of-turn and illegal actions raise and leave the state as it was."""
    before = state.model_dump_json()
    deciding = {d.seat for d in decisions}
    idle = [s for s in range(len(state.names)) if s not in deciding]
    some_action = decisions[0].options[0].action
    for seat in idle[:2]:
        try:
            game.apply(state, seat, some_action)
        except NotYourTurn:
            pass
        else:
            raise ContractBroken(f"{game.key}: seat {seat} moved out of turn")
    for bogus in (Action.of("no_such_move"), Action.of(some_action.kind, "zz", "zz", "zz")):
        try:
            game.apply(state, decisions[0].seat, bogus)
        except IllegalAction as exc:
            if not str(exc):
                raise ContractBroken(f"{game.key}: an IllegalAction without a sentence") from exc
        else:
            raise ContractBroken(f"{game.key}: accepted {bogus.encode()!r}")
    if state.model_dump_json() != before:
        raise ContractBroken(f"{game.key}: a refused action changed the state")


def check_views_hide_secrets(game: Engine, state: GameState, rng: random.Random) -> None:
    """A seat's view must not change when only what it may not see changes."""
    # Dumped and viewed once per seat: the contract tests call this at thousands of states.
    state_json = state.model_dump_json()
    for seat in [None, *range(len(state.names))]:
        seen = game.view(state, seat)
        view = seen.model_dump_json()
        if str(state.seed) in view:
            raise ContractBroken(f"{game.key}: the seed shows in a view")
        twin = game.scramble_hidden(state, seat, rng)
        if seat is not None and twin.model_dump_json() == state_json:
            continue  # nothing hidden from this seat right now
        if game.view(twin, seat).model_dump_json() != view:
            who = "a spectator" if seat is None else f"seat {seat}"
            raise ContractBroken(f"{game.key}: {who} can see something hidden")
        game.panels(seen)


def check_forced_is_public_or_hidden(
    game: Engine, state: GameState, rng: random.Random, worlds: int = 6
) -> int:
    """A decision played for its player because it leaves nothing to choose is not
    pinged, and so tells everyone it was forced: unless ``hides_choice``, that must be
    something everyone knows. It must then be forced in every world a spectator cannot
    tell from this one (its answer is public once played). The number of forced decisions met."""
    checked = 0
    for decision in game.decisions(state):
        if decision.forced is None:
            continue
        checked += 1
        if decision.hides_choice:
            continue  # pinged as a choice would be: nothing to tell
        for _ in range(worlds):
            twin = game.scramble_hidden(state, None, rng)
            same = [d for d in game.decisions(twin) if d.seat == decision.seat]
            if not any(d.key == decision.key and d.forced is not None for d in same):
                raise ContractBroken(
                    f"{game.key}: {decision.key} of seat {decision.seat} is forced only "
                    "because of what the seat holds: its missing ping would tell (hides_choice)"
                )
    return checked


def check_pictures(game: Engine, state: GameState, rng: random.Random, *, scramble: bool) -> int:
    """Every seat's pictures draw, fit an attachment and show nothing hidden: the table
    picture is the same bytes for every seat and for spectators, and (with ``scramble``)
    scrambling what a seat may not see leaves its table and hand pictures byte-identical.
    Returns the size of the table picture."""
    if not isinstance(game, Picturing):
        return 0
    table = game.table_picture(game.view(state, None))
    if hand_picture(game, game.view(state, None)) is not None:
        raise ContractBroken(f"{game.key}: a spectator got a hand picture")
    for seat in range(len(state.names)):
        view = game.view(state, seat)
        if game.table_picture(view) != table:
            raise ContractBroken(f"{game.key}: seat {seat}'s table picture differs from everyone's")
        hand = hand_picture(game, view)
        if hand is None or len(hand) > DISCORD_LIMIT:
            raise ContractBroken(f"{game.key}: seat {seat}'s hand picture is missing or too big")
        if scramble:
            twin_view = game.view(game.scramble_hidden(state, seat, rng), seat)
            if hand_picture(game, twin_view) != hand or game.table_picture(twin_view) != table:
                raise ContractBroken(f"{game.key}: seat {seat}'s pictures show something hidden")
    if scramble:
        twin = game.scramble_hidden(state, None, rng)
        if game.table_picture(game.view(twin, None)) != table:
            raise ContractBroken(f"{game.key}: the table picture shows something hidden")
    if len(table) > DISCORD_LIMIT:
        raise ContractBroken(f"{game.key}: the table picture is over Discord's limit")
    return len(table)


def check_search_is_blind(game: Engine, rng: random.Random, checks: int = 4) -> int:
    """The search bot's move depends on nothing its seat cannot see: at decisions with a
    choice, a twin whose secrets (and seed) are re-dealt by ``scramble_hidden`` gets the
    same move from the search seeded alike. Returns how many decisions were checked
    (only those where the twin really differs from the real state count)."""
    players = NAMES[: rng.randint(game.min_players, game.max_players)]
    state = game.setup(game.options_model(), players, rng.getrandbits(63))
    checked = 0
    for _ in range(20_000):
        if checked >= checks or game.outcome(state) is not None:
            break
        decision = rng.choice(game.decisions(state))
        if len(decision.options) > 1 and rng.random() < 0.25:
            checked += _check_search_twin(game, state, decision, rng)
        state, _ = game.apply(state, decision.seat, next_move(game, state, decision, rng))
    return checked


def _check_search_twin(
    game: Engine, state: GameState, decision: Decision, rng: random.Random
) -> int:
    """1 if the twin differed from the real state and the search answered it alike."""
    seat = decision.seat
    twin = game.scramble_hidden(state, seat, rng)
    twin.seed = rng.getrandbits(63)  # the seed foretells every later shuffle: a secret too
    if twin.model_dump_json(exclude={"seed"}) == state.model_dump_json(exclude={"seed"}):
        return 0  # nothing hidden from this seat right now: nothing to tell
    if game.view(twin, seat) != game.view(state, seat):
        raise ContractBroken(f"{game.key}: a scrambled twin shows seat {seat} another view")
    twin_decision = next(
        d for d in game.decisions(twin) if d.seat == seat and d.key == decision.key
    )
    real = game.search_action(state, seat, decision=decision, worlds=2, seed=5)
    other = game.search_action(twin, seat, decision=twin_decision, worlds=2, seed=5)
    if real != other:
        raise ContractBroken(
            f"{game.key}: the search played {real.encode()} but {other.encode()} when only "
            f"what seat {seat} cannot see differed"
        )
    return 1
