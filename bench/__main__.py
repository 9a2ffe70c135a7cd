"""Benchmarks: ``python -m bench`` (``--smoke`` for a quick run in CI).

Prints figures and a baseline measured in the same run, never asserts on time:
- engine actions per second in random playouts of every game (and with bot players);
- the service's cost per action (lock, load, apply, save, render panels) against a bare
  aiosqlite commit of the same state row, as a ratio (target: at most 1.5x);
- state JSON size per match (target: under 32 KB);
- the scheduler with 10,000 pending timers: scheduled and fired per second;
- the toss scramble: bursts of simultaneous clicks, and how long the last one waits;
- Braverse: engine speed against a bare state copy, state size, the bot's win rates, the
  search bot against the heuristic.
- tournaments: Swiss and pod pairing of 512 over 9 rounds (against the full graph and the
  plain top-down fill), and 10,000 mixed matches rated in memory.

``python -m bench load`` is the sustained-load benchmark through Discord (bench/load.py);
``python -m bench bots`` measures the bot levels in every game (bench/bots.py);
``python -m bench web`` what the web page costs (bench/web.py).
``python -m bench seasons`` a season's table of 10,000 players (bench/seasons.py).
``python -m bench pictures`` times the pictures of every game that draws (bench/pictures.py).
``python -m bench languages`` what each language costs at the Discord edge (bench/languages.py).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time

from bench import (
    bots,
    braverse,
    languages,
    load,
    pictures,
    postgres,
    races,
    seasons,
    tournaments,
    web,
)
from bench.service import service_cost
from bench.timers import report, timers_benchmark
from games import GAMES
from games.core import contract


def engine_speed(key: str, playouts: int) -> tuple[float, float, list[int]]:
    game = GAMES[key]
    rng = random.Random(1)
    actions, sizes = 0, []
    start = time.perf_counter()
    for _ in range(playouts):
        biggest = 0

        def measure(state, decisions) -> None:  # type: ignore[no-untyped-def]
            nonlocal biggest
            if len(state.names) and state.version % 25 == 0:
                biggest = max(biggest, len(state.model_dump_json()))

        run = contract.playout(game, rng, every_state=measure)
        actions += len(run.actions)
        sizes.append(max(biggest, len(run.final.model_dump_json())))
    random_rate = actions / (time.perf_counter() - start)

    bot_actions = 0
    start = time.perf_counter()
    for seed in range(max(1, playouts // 4)):
        seats = min(5, game.max_players)  # Braverse is two players exactly
        state = game.setup(game.options_model(), contract.NAMES[:seats], seed)
        while game.outcome(state) is None:
            seat = game.decisions(state)[0].seat
            state, _ = game.apply(state, seat, game.bot_action(state, seat))
            bot_actions += 1
    bot_rate = bot_actions / (time.perf_counter() - start)
    return random_rate, bot_rate, sizes


def main() -> None:
    if sys.argv[1:2] == ["load"]:
        load.main(sys.argv[2:])
        return
    if sys.argv[1:2] == ["web"]:
        web.main(sys.argv[2:])
        return
    if sys.argv[1:2] == ["bots"]:
        bots.main(sys.argv[2:])
        return
    if sys.argv[1:2] == ["languages"]:
        languages.main(sys.argv[2:])
        return
    if sys.argv[1:2] == ["seasons"]:
        seasons.main(sys.argv[2:])
        return
    if sys.argv[1:2] == ["pictures"]:
        pictures.main(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="a small, quick run")
    args = parser.parse_args()
    playouts, actions = (10, 60) if args.smoke else (200, 600)

    for key in sorted(GAMES):
        random_rate, bot_rate, sizes = engine_speed(key, playouts)
        print(
            f"engine {key}: {random_rate:,.0f} actions/s in {playouts} random playouts "
            f"(random options and table sizes); {bot_rate:,.0f} actions/s with bot players; "
            f"state JSON mean {statistics.mean(sizes) / 1024:.1f} KB, "
            f"max {max(sizes) / 1024:.1f} KB (target < 32 KB)"
        )

    print(braverse.engine_figures(playouts))
    print(braverse.bot_figures(10 if args.smoke else 200))
    print(braverse.corpus_figures(12 if args.smoke else 200))
    print(braverse.search_figures(1 if args.smoke else 3))

    print(report(asyncio.run(timers_benchmark(matches=250 if args.smoke else 2_500))))
    print(races.report(asyncio.run(races.race_benchmark(bursts=3 if args.smoke else 20))))
    print("\n".join(tournaments.report(smoke=args.smoke)))
    print("\n".join(languages.figures(smoke=args.smoke)))

    cost = asyncio.run(service_cost(actions))
    print(
        f"service: {cost.per_action * 1e3:.2f} ms per action (lock, load, apply, save, render) "
        f"over {actions} actions; bare aiosqlite commit of the same "
        f"{cost.state_bytes / 1024:.1f} KB row: {cost.bare * 1e3:.2f} ms; "
        f"ratio {cost.per_action / cost.bare:.2f}x (target <= 1.5x); CPU of the event loop's "
        f"thread: {cost.cpu * 1e3:.2f} ms per action, {cost.bare_cpu * 1e3:.2f} ms per bare commit"
    )
    for line in asyncio.run(postgres.figures(args.smoke)):
        print(line)


if __name__ == "__main__":
    main()
