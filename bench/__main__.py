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

``python -m bench load`` is the sustained-load benchmark through Discord (bench/load.py).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import braverse, postgres, races, tournaments
from bench.timers import report, timers_benchmark
from bot.service import MatchService, Person
from bot.store import SQLiteStore
from games import GAMES
from games.core import contract

GAME = "cover_your_assets"


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


@dataclass
class ServiceCost:
    """Seconds per action of the service and of the bare commit, in wall time and in the
    event loop thread's CPU time (steadier on a shared machine: no waiting for a core or
    the disk), and the largest state saved."""

    per_action: float
    bare: float
    cpu: float
    bare_cpu: float
    state_bytes: int


async def service_cost(actions: int) -> ServiceCost:
    """Per action: ``service.act`` of a four-player Cover Your Assets match, and the public
    table it leaves, taken as the front end takes it for its edit (``seat_view(match,
    None)``: the service draws that table while the move's commit waits for the disk,
    ``Engine.public_table``); against a bare commit of the same JSON."""
    game = GAMES[GAME]
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "bench.db")
        await store.connect()
        service = MatchService(store, GAMES, new_seed=lambda: 7)
        await store.db.execute(
            "INSERT INTO matches (id, guild_id, channel_id, game, status, host_id, options, "
            "created_at, updated_at) VALUES ('baseline', 0, 0, '-', 'finished', 0, '{}', '', '')"
        )
        people = [Person(user_id=i, name=f"P{i}") for i in range(1, 5)]
        done = 0
        total = bare_total = cpu = bare_cpu = 0.0
        state_bytes = 0
        channel = 0
        while done < actions:
            channel += 1
            record = await service.open_lobby(
                guild_id=1, channel_id=channel, host=people[0], game_key=GAME
            )
            for who in people[1:]:
                await service.join(record.match_id, who)
            await service.start(record.match_id, people[0])
            while done < actions:
                current = await service.get(record.match_id)
                if current.status != "active":
                    break
                state = service.load_state(current)
                seat = game.decisions(state)[0].seat
                # Chosen outside the timed region: the move, and the stamp its button carries.
                action = game.bot_action(state, seat)
                stamp = game.decisions(state)[0].stamp
                start, start_cpu = time.perf_counter(), time.thread_time()
                change = await service.act(
                    record.match_id, people[seat].user_id, stamp=stamp, action=action
                )
                await service.seat_view(record.match_id, None)  # the table a click redraws
                total += time.perf_counter() - start
                cpu += time.thread_time() - start_cpu
                # The baseline, interleaved so that both see the same machine: a bare
                # commit of the same state JSON to a row of the same table, same pragmas.
                # It must change the row: SQLite skips the write, and so the fsync, of an
                # UPDATE that stores the bytes already there, which would flatter the baseline.
                payload = change.match.state or ""
                start, start_cpu = time.perf_counter(), time.thread_time()
                await store.db.execute("BEGIN IMMEDIATE")
                await store.db.execute(
                    "UPDATE matches SET state = ? WHERE id = 'baseline'", (payload,)
                )
                await store.db.execute("COMMIT")
                bare_total += time.perf_counter() - start
                bare_cpu += time.thread_time() - start_cpu
                state_bytes = max(state_bytes, len(payload))
                done += 1
        await store.close()
    return ServiceCost(total / done, bare_total / done, cpu / done, bare_cpu / done, state_bytes)


def main() -> None:
    if sys.argv[1:2] == ["load"]:
        from bench import load

        load.main(sys.argv[2:])
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
