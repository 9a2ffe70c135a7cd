"""Braverse figures: engine speed against a bare state copy, state size, and the bot.

- engine actions per second in random playouts, against the same run's baseline: the bare
  JSON round trip that ``apply`` makes of the state (its copy), per action;
- the largest state JSON seen (target: at most 16 KB);
- the heuristic bot against random play, per ready-deck pairing (target: 95 % or more);
- bot mirrors: the share that end on the Break Area (target: 90 % or more) and the median
  number of rounds (target: 8-14);
- a corpus of bot games with four mono-colour decks (every card of a colour, four copies:
  legal, and together the whole pool): which pool cards' effects never resolved;
- the search bot against the heuristic over seeded games on every ready-deck pairing, both
  seat orders (target: 60 % or more), with its Wilson interval; baseline: the heuristic
  against itself on the same seeds and seats, and the time per decision of each.
"""

from __future__ import annotations

import itertools
import random
import statistics
import time

from games import GAMES
from games.braverse import Braverse
from games.braverse.cards import Op
from games.braverse.decks import ready_options
from games.braverse.search import Budget, search_action
from games.braverse.state import BraverseOptions, BraverseState, EffectFrame
from games.cli.simulate import wilson
from games.core import contract
from games.core.protocol import Action, Event

KEY = "braverse"
DECKS = ("rush", "tempo", "fort")


def engine_figures(playouts: int) -> str:
    game = GAMES[KEY]
    rng = random.Random(11)
    states: list[BraverseState] = []
    actions, biggest = 0, 0

    def keep(state, decisions) -> None:  # type: ignore[no-untyped-def]
        nonlocal biggest
        if state.version % 10 == 0:
            states.append(state)
            biggest = max(biggest, len(state.model_dump_json()))

    start = time.perf_counter()
    for _ in range(playouts):
        actions += len(contract.playout(game, rng, every_state=keep).actions)
    rate = actions / (time.perf_counter() - start)
    start = time.perf_counter()
    for state in states:
        BraverseState.model_validate(state.model_dump())
    copy_rate = len(states) / (time.perf_counter() - start)
    return (
        f"braverse engine: {rate:,.0f} actions/s in {playouts} random playouts (target >= 1,500);"
        f" baseline: {copy_rate:,.0f} bare state copies/s; largest state JSON "
        f"{biggest / 1024:.1f} KB (target <= 16 KB)"
    )


def play(
    options: BraverseOptions, seed: int, bots: tuple[bool, bool], game: Braverse | None = None
) -> BraverseState:
    game = game or GAMES[KEY]  # type: ignore[assignment]
    rng = random.Random(seed)
    state = game.setup(options, ("Ana", "Ben"), seed)
    while game.outcome(state) is None:
        decision = rng.choice(game.decisions(state))
        if bots[decision.seat]:
            action = game.bot_action(state, decision.seat, decision=decision)
        else:
            action = contract.random_pick(decision, rng)
        state, _ = game.apply(state, decision.seat, action)
    return state  # type: ignore[return-value]


def bot_figures(games: int) -> str:
    lines = []
    for first, second in itertools.product(DECKS, repeat=2):
        options = ready_options(first, second)
        wins = 0
        for seed in range(games):
            bot = seed % 2  # the bot takes each seat in turn
            state = play(options, seed, (bot == 0, bot == 1))
            wins += state.winner == bot
        lines.append(f"{first}/{second} {wins / games:.0%}")
    mirrors, rounds = 0, []
    for seed in range(games):
        deck = DECKS[seed % 3]
        state = play(ready_options(deck, deck), seed, (True, True))
        mirrors += "Break Area" in state.reason
        rounds.append(state.round / 2)
    return (
        f"braverse bot vs random over {games} seeded games per pairing (target >= 95 %): "
        + ", ".join(lines)
        + f"; bot mirrors ending on the Break Area: {mirrors / games:.0%} (target >= 90 %), "
        f"median {statistics.median(rounds):.1f} rounds (target 8-14)"
    )


class Recording(Braverse):
    """Notes each card one of whose ops changed the table: a card whose effect only started
    (its condition failed, an up-to draw of none, a target op with nothing to hit) is not
    counted."""

    def __init__(self) -> None:
        super().__init__()
        self.did: set[str] = set()

    def footprint(self, state: BraverseState) -> tuple[str, int | None, int]:
        attack = self.current_attack(state)
        damage = attack.damage if attack is not None else None
        # frames pushed (damage, cards dealt) count: they resolve as the op's own doing
        return state.model_dump_json(include={"sides"}), damage, len(state.stack)

    def resolve(
        self,
        state: BraverseState,
        frame: EffectFrame,
        op: Op,
        events: list[Event],
        rng: random.Random,
    ) -> None:
        before = self.footprint(state)
        super().resolve(state, frame, op, events, rng)
        if self.footprint(state) != before:
            self.did.add(frame.card)

    def answer_effect(
        self, state: BraverseState, frame: EffectFrame, action: Action, events: list[Event]
    ) -> None:
        before = self.footprint(state)
        super().answer_effect(state, frame, action, events)
        if self.footprint(state) != before:
            self.did.add(frame.card)


def mono_colour_options(game: Braverse, seed: int) -> BraverseOptions:
    """Four mono-colour decks (every card of a colour, four copies: legal, and together the
    whole pool), paired differently from seed to seed."""
    colours = "RYGB"
    decks = {
        c: tuple(n for card in game.pool.cards if card.colour == c for n in [card.number] * 4)
        for c in colours
    }
    first, second = colours[seed % 4], colours[(seed // 4 + seed + 1) % 4]
    return BraverseOptions(decks=(decks[first], decks[second]))


def corpus_figures(games: int) -> str:
    """Which cards' effects did something, in bot mirrors and in the bot against random."""
    parts = []
    for label, bots in (("bot mirrors", None), ("bot vs random", "alternate")):
        game = Recording()
        for seed in range(games):
            seats = (True, True) if bots is None else (seed % 2 == 0, seed % 2 == 1)
            play(mono_colour_options(game, seed), seed, seats, game)
        with_effects = {c.number for c in game.pool.cards if c.effects()}
        missing = sorted(with_effects - game.did)
        parts.append(
            f"{label}: {len(with_effects) - len(missing)} of {len(with_effects)}"
            + (f" (never: {', '.join(missing)})" if missing else "")
        )
    return (
        f"braverse corpus of {games} games with mono-colour decks, pool cards whose effect "
        "changed the table: " + "; ".join(parts)
    )


def duel(
    options: BraverseOptions, seed: int, searcher: int | None, worlds: int
) -> tuple[BraverseState, float, int, float, int]:
    """The search bot (seat ``searcher``; None: nobody) against the heuristic: the end,
    and the seconds and decisions of each kind (search, heuristic)."""
    game: Braverse = GAMES[KEY]  # type: ignore[assignment]
    budget = Budget(worlds=worlds)
    state = game.setup(options, ("Ana", "Ben"), seed)
    spent, made = [0.0, 0.0], [0, 0]
    while game.outcome(state) is None:
        decision = game.decisions(state)[0]
        start = time.perf_counter()
        if decision.seat == searcher:
            action = search_action(
                game, state, decision.seat, decision=decision, budget=budget, seed=seed
            )
        else:
            action = game.bot_action(state, decision.seat, decision=decision)
        kind = 0 if decision.seat == searcher else 1
        spent[kind] += time.perf_counter() - start
        made[kind] += 1
        state, _ = game.apply(state, decision.seat, action)
    return state, spent[0], made[0], spent[1], made[1]


def search_figures(rounds: int, worlds: int = 4) -> str:
    """``rounds`` games per ready-deck pairing and seat order (9 x 2 x rounds games)."""
    wins = baseline = 0
    thinking = [0.0, 0.0]
    decided = [0, 0]
    games = 0
    start = time.perf_counter()
    for first, second in itertools.product(DECKS, repeat=2):
        options = ready_options(first, second)
        for index in range(2 * rounds):
            seed, seat = 1000 + games, index % 2
            state, search_s, search_n, heur_s, heur_n = duel(options, seed, seat, worlds)
            wins += state.winner == seat
            thinking[0] += search_s
            decided[0] += search_n
            thinking[1] += heur_s
            decided[1] += heur_n
            mirror = duel(options, seed, None, worlds)[0]
            baseline += mirror.winner == seat
            games += 1
    low, high = wilson(wins, games)
    base_low, base_high = wilson(baseline, games)
    per_search = 1000 * thinking[0] / max(1, decided[0])
    per_heuristic = 1000 * thinking[1] / max(1, decided[1])
    return (
        f"braverse search bot ({worlds} worlds per decision, playouts to the end of the next "
        f"2 turns) vs heuristic "
        f"over {games} seeded games (every ready-deck pairing, both seat orders): "
        f"{wins / games:.0%} wins, 95 % CI {low:.0%}-{high:.0%} (target >= 60 %); "
        f"baseline, the heuristic in the same seats: {baseline / games:.0%} "
        f"({base_low:.0%}-{base_high:.0%}); {per_search:.0f} ms per search decision vs "
        f"{per_heuristic:.1f} ms per heuristic one; {time.perf_counter() - start:.0f} s"
    )
