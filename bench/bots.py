"""``python -m bench bots``: how strong each level of bot plays, in every game.

For every game, seat-balanced matches (the challenger's seat turns with each game, so no
seat's advantage counts for it) of one challenger against a full table of opponents:
- normal (the heuristic) against random (random legal moves, every one: unlike the
  contract's all-random playouts, which let Toss's bot make most moves so a round ends at
  all, a bot sits at every table here to end it; a match with no outcome is counted and
  printed, never dropped silently);
- hard (the generic search on a wall-clock budget) against normal;
- easy (the heuristic with the game's share of random slips) against normal;
- on request (``--matchups hard-random``), hard against random: the ceiling luck leaves
  where normal cannot reach twice the chance share.

Printed per match-up: the challenger's share of first places (shared wins count
fractionally) and its share of the pairwise duels (it placed above one opponent: 1, tied:
1/2), each with a Wilson 95% interval, beside the chance share (1 / players); for hard, the
p50 and p99 time of its decisions with a choice (a race's grabs, never thought about, left
out). Every level moves as ``level_action`` (in a race ``race_action``) moves it at a live
table; a race goes one grab at a time to a racer drawn at random. Figures only, never an
assertion.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from dataclasses import dataclass, field

from games import GAMES
from games.cli.simulate import next_decision, percentile, wilson
from games.core import contract
from games.core.levels import HARD_SECONDS
from games.core.protocol import Action, Decision, GameState

MAX_MOVES = 20_000
MATCHUPS = ("normal-random", "hard-normal", "easy-normal", "hard-random")
TABLE = 4  # players at the table, where the game allows it (Braverse: two)


@dataclass(frozen=True)
class Duel:
    game: str
    challenger: str  # a level: "easy", "normal" or "hard"
    opponents: str  # "random" or a level
    seed: int
    think: float  # the hard bot's seconds per decision


@dataclass
class Played:
    places: tuple[int, ...] = ()  # by seat; empty: no outcome within MAX_MOVES
    seat: int = 0  # the challenger's
    thinking: list[float] = field(default_factory=list)  # hard's decisions with a choice
    working: list[float] = field(default_factory=list)  # the same, in this process's CPU time


def players_of(key: str) -> int:
    game = GAMES[key]
    return max(game.min_players, min(TABLE, game.max_players))


def move(duel: Duel, kind: str, state: GameState, decision: Decision, rng: random.Random) -> Action:
    """A move as a bot of that level makes it at a live table (``level_action``, in a
    race ``race_action``), or a random one."""
    game = GAMES[duel.game]
    if kind == "random":
        return contract.random_pick(decision, rng)
    if decision.window is not None:
        return game.race_action(  # type: ignore[attr-defined, no-any-return]
            state, decision.seat, kind, decision=decision, rng=rng
        )
    return game.level_action(  # type: ignore[attr-defined, no-any-return]
        state, decision.seat, kind, decision=decision, seconds=duel.think, rng=rng
    )


def play(duel: Duel) -> Played:
    """One match: the challenger in seat ``seed % players``, opponents elsewhere."""
    game = GAMES[duel.game]
    players = players_of(duel.game)
    played = Played(seat=duel.seed % players)
    rng = random.Random(f"bots:{duel.seed}")
    state = game.setup(game.options_model(), contract.NAMES[:players], duel.seed)
    for _ in range(MAX_MOVES):
        if game.outcome(state) is not None:
            break
        decisions = game.decisions(state)
        racers = [d for d in decisions if d.window is not None]
        # A race goes one grab at a time to a racer drawn at random, as bots pausing at
        # random grab at a live table: taken in seat order, the first seat won half of
        # all Toss matches, whoever played best.
        decision = rng.choice(racers) if racers else next_decision(decisions)
        mine = decision.seat == played.seat
        kind = duel.challenger if mine else duel.opponents
        start, cpu = time.perf_counter(), time.process_time()
        action = move(duel, kind, state, decision, rng)
        if kind == "hard" and len(decision.options) > 1 and not racers:
            played.thinking.append(time.perf_counter() - start)
            played.working.append(time.process_time() - cpu)
        state, _ = game.apply(state, decision.seat, action)
    outcome = game.outcome(state)
    if outcome is not None:
        played.places = tuple(p.place for p in sorted(outcome.placements, key=lambda p: p.seat))
    return played


def shares(results: list[Played]) -> tuple[float, int, float, int]:
    """First places (shared count fractionally) over finished games, and pairwise duels
    won (a tie: half) over duels."""
    wins, finished, duels_won, duels = 0.0, 0, 0.0, 0
    for result in results:
        if not result.places:
            continue
        finished += 1
        mine = result.places[result.seat]
        if mine == 1:
            wins += 1 / result.places.count(1)
        for seat, place in enumerate(result.places):
            if seat != result.seat:
                duels += 1
                duels_won += 1.0 if mine < place else 0.5 if mine == place else 0.0
    return wins, finished, duels_won, duels


def line(key: str, challenger: str, opponents: str, results: list[Played], wall: float) -> str:
    wins, finished, duels_won, duels = shares(results)
    low, high = wilson(wins, finished)
    pair_low, pair_high = wilson(duels_won, duels)
    players = players_of(key)
    text = (
        f"bots {key} ({players} players) {challenger} vs {opponents}: "
        f"wins {wins / max(1, finished):.0%} ({low:.0%}-{high:.0%}) of {finished} "
        f"(chance {1 / players:.0%}); pairwise {duels_won / max(1, duels):.0%} "
        f"({pair_low:.0%}-{pair_high:.0%})"
    )
    if finished < len(results):
        text += f"; {len(results) - finished} unfinished after {MAX_MOVES} moves"
    thinking = [t for r in results for t in r.thinking]
    working = [t for r in results for t in r.working]
    if thinking:
        # wall-clock is what a table waits; CPU time tells the bot's own work from the
        # time other processes took from it on a loaded machine
        text += (
            f"; hard decision p50 {percentile(thinking, 50) * 1e3:.0f} ms, "
            f"p99 {percentile(thinking, 99) * 1e3:.0f} ms over {len(thinking)} "
            f"(CPU p99 {percentile(working, 99) * 1e3:.0f} ms)"
        )
    return f"{text} [{wall:.0f} s]"


def run(duels: list[Duel], workers: int) -> list[Played]:
    if workers <= 1:
        return [play(d) for d in duels]
    with multiprocessing.get_context().Pool(workers) as pool:
        return pool.map(play, duels, chunksize=1)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench bots", description=__doc__)
    parser.add_argument("--games", type=int, default=12, help="matches per game and match-up")
    parser.add_argument(
        "--think", type=float, default=HARD_SECONDS, help="hard's seconds per decision"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes playing at once")
    parser.add_argument("--only", nargs="*", default=sorted(GAMES), help="game keys")
    parser.add_argument(
        "--matchups",
        nargs="*",
        default=list(MATCHUPS[:3]),
        choices=MATCHUPS,
        help="challenger-opponents pairs to play (a heuristic change needs normal-random only)",
    )
    args = parser.parse_args(argv)
    for key in args.only:
        for matchup in args.matchups:
            challenger, opponents = matchup.split("-")
            duels = [Duel(key, challenger, opponents, s, args.think) for s in range(args.games)]
            start = time.perf_counter()
            results = run(duels, args.workers)
            print(line(key, challenger, opponents, results, time.perf_counter() - start))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
