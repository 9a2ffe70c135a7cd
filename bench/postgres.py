"""PostgreSQL figures (``python -m bench``; skipped with one line without PostgreSQL).

- the service's cost per move on PostgreSQL against a bare asyncpg write of the same state
  row (one UPDATE on a pooled connection), as a ratio, like the SQLite figure beside it;
- the JSON state column as ``text`` against ``jsonb``: the same guarded UPDATE of the same
  states, timed in turn (the store keeps ``text``, the faster one for our access: we only
  ever write and read the whole document);
- 10,000 active matches in one process: resident memory per match, and moves per second
  with p50/p99 service latency while 1, 10, 100 and 1,000 matches move at once.

The server: ``BENCH_DATABASE_URL`` if set, else a throwaway one (initdb + pg_ctl on a Unix
socket, as the tests start it, with fsync on: these are figures, not tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from bot.service import MatchService, Person
from bot.store.postgres import PostgresStore
from games import GAMES

GAME = "cover_your_assets"
PEOPLE = [Person(user_id=i, name=f"P{i}") for i in range(1, 5)]


@contextlib.asynccontextmanager
async def database() -> AsyncIterator[str | None]:
    """A database URL, or None (and a line saying why) when there is no PostgreSQL."""
    if url := os.environ.get("BENCH_DATABASE_URL"):
        yield url
        return
    from devtools.postgres_server import HOW_TO_GET_IT, ThrowawayServer, server_programs

    programs = server_programs()
    if programs is None:
        print(HOW_TO_GET_IT.replace("PostgreSQL tests", "PostgreSQL benchmarks"))
        yield None
        return
    server = ThrowawayServer(programs, durable=True)
    url = await asyncio.to_thread(server.start)
    try:
        yield url
    finally:
        await asyncio.to_thread(server.stop)


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def new_match(service: MatchService, channel: int) -> str:
    record = await service.open_lobby(guild_id=1, channel_id=channel, host=PEOPLE[0], game_key=GAME)
    for who in PEOPLE[1:]:
        await service.join(record.match_id, who)
    await service.start(record.match_id, PEOPLE[0])
    return record.match_id


async def one_move(service: MatchService, match_id: str) -> bool:
    """The mover's bot move through the service, as a click would; False once it is over."""
    game = GAMES[GAME]
    record, state = await service._running(match_id)
    if record.status != "active":
        return False
    decision = game.decisions(state)[0]
    action = game.bot_action(state, decision.seat)
    user = record.seats[decision.seat].user_id or 0
    await service.act(match_id, user, stamp=decision.stamp, action=action)
    return True


async def time_moves(
    service: MatchService, moves: int, bare: Callable[[str], Awaitable[None]]
) -> tuple[float, float]:
    """Seconds per service move and per bare write of the same state, interleaved so both
    see the same machine."""
    total = bare_total = 0.0
    done, channel = 0, 10_000_000
    while done < moves:
        channel += 1
        match_id = await new_match(service, channel)
        while done < moves:
            start = time.perf_counter()
            if not await one_move(service, match_id):
                break
            total += time.perf_counter() - start
            payload = (await service._running(match_id))[0].state or ""
            start = time.perf_counter()
            await bare(payload)
            bare_total += time.perf_counter() - start
            done += 1
    return total / done, bare_total / done


async def service_cost(url: str, moves: int) -> str:
    store = PostgresStore(url)
    await store.connect()
    try:
        await store.pool.execute(
            "INSERT INTO matches (id, guild_id, channel_id, game, status, host_id, options, "
            "created_at, updated_at) VALUES ('baseline', 0, 0, '-', 'finished', 0, '{}', "
            "now(), now())"
        )

        async def bare(payload: str) -> None:
            await store.pool.execute("UPDATE matches SET state = $1 WHERE id = 'baseline'", payload)

        service = MatchService(store, GAMES, new_seed=lambda: 7)
        per_move, per_bare = await time_moves(service, moves, bare)
    finally:
        await store.close()
    return (
        f"postgres service: {per_move * 1e3:.2f} ms per move (lock, apply, save) over {moves} "
        f"moves; bare asyncpg UPDATE of the same row: {per_bare * 1e3:.2f} ms; "
        f"ratio {per_move / per_bare:.2f}x"
    )


async def text_or_jsonb(url: str, writes: int) -> str:
    """The same states written by a version-guarded UPDATE into a text and a jsonb column,
    alternately, and read back whole."""
    states = []
    game = GAMES[GAME]
    state = game.setup(game.options_model(), ["A", "B", "C", "D"], 3)
    while len(states) < writes and game.outcome(state) is None:
        seat = game.decisions(state)[0].seat
        state, _ = game.apply(state, seat, game.bot_action(state, seat))
        states.append(state.model_dump_json())
    store = PostgresStore(url)
    await store.connect()
    timings: dict[str, list[float]] = {"text": [], "jsonb": []}
    try:
        async with store.pool.acquire() as conn:
            # The flush to disk is the same for both and would drown the difference.
            await conn.execute("SET synchronous_commit = off")
            for kind in timings:
                await conn.execute(
                    f"CREATE TABLE bench_{kind} (id TEXT PRIMARY KEY, version INT, state {kind})"
                )
                await conn.execute(f"INSERT INTO bench_{kind} VALUES ('m', 0, '{{}}')")
            for version, text in enumerate(states):
                for kind, spent in timings.items():
                    start = time.perf_counter()
                    await conn.execute(
                        f"UPDATE bench_{kind} SET state = $1, version = $2 "
                        "WHERE id = 'm' AND version = $3",
                        text,
                        version + 1,
                        version,
                    )
                    await conn.fetchval(f"SELECT state FROM bench_{kind} WHERE id = 'm'")
                    spent.append(time.perf_counter() - start)
    finally:
        await store.close()
    text_ms, jsonb_ms = (statistics.mean(timings[k]) * 1e3 for k in ("text", "jsonb"))
    return (
        f"postgres state column: text {text_ms:.3f} ms, jsonb {jsonb_ms:.3f} ms per "
        f"guarded write + read of the whole state ({len(states)} states, commit not "
        "waiting for the disk); the store uses text"
    )


async def many_matches(url: str, count: int, rounds: tuple[int, ...]) -> str:
    store = PostgresStore(url, max_size=20)
    await store.connect()
    try:
        seeds = iter(range(10**6))
        service = MatchService(store, GAMES, new_seed=lambda: next(seeds))
        before = resident_bytes()
        ids: list[str] = []
        for first in range(0, count, 200):
            batch = range(first, min(first + 200, count))
            ids += await asyncio.gather(*(new_match(service, c) for c in batch))
        per_match = (resident_bytes() - before) / count
        lines = [
            f"postgres {count:,} active matches in one process: "
            f"{per_match / 1024:.1f} KB resident per match (target <= 100 KB)"
        ]
        for at_once in rounds:
            latencies: list[float] = []

            async def play(match_id: str, latencies: list[float]) -> None:
                for _ in range(5):
                    start = time.perf_counter()
                    if not await one_move(service, match_id):
                        return
                    latencies.append(time.perf_counter() - start)

            start = time.perf_counter()
            await asyncio.gather(*(play(m, latencies) for m in ids[:at_once]))
            spent = time.perf_counter() - start
            cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
            lines.append(
                f"  {at_once:>5} matches moving at once: {len(latencies) / spent:,.0f} moves/s, "
                f"p50 {cuts[49] * 1e3:.1f} ms, p99 {cuts[98] * 1e3:.1f} ms"
            )
    finally:
        await store.close()
    return "\n".join(lines)


async def figures(smoke: bool) -> list[str]:
    async with database() as url:
        if url is None:
            return []
        return [
            await service_cost(url, 60 if smoke else 600),
            await text_or_jsonb(url, 50 if smoke else 300),
            await many_matches(
                url, 500 if smoke else 10_000, (1, 10, 100) if smoke else (1, 10, 100, 1_000)
            ),
        ]
