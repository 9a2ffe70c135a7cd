"""``python -m bench web``: what the web page costs (docs/benchmarks.md, docs/web.md).

- The standings of a 512-player Swiss after 9 rounds, served as its event page: ms per
  request (median, max), against the standings computed alone and a static file served
  (the HTTP floor), all measured in this run.
- 200 viewers of one live Braverse table, each following its Server-Sent Events and
  fetching the picture of every version, in a child process: the bot process's CPU per
  move and as a share of one core at a move every ``--every`` seconds, against the same
  moves with nobody watching.
- How soon a live table's viewer hears of a move (the issue's bound: within a second):
  from the move's save to its event on a viewer's stream, with the pages in the bot's
  process (pushed by the service) and run alone (``python -m bot web``: a poll every
  POLL_EVERY seconds), moves made at random moments; against a static file's round trip.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from aiohttp.test_utils import unused_port

from bot.config import WebSettings
from bot.service import MatchService, Person
from bot.service.tournaments.models import read_view
from bot.store import Store, open_store
from bot.store.tournament_records import (
    EntrantRecord,
    ResultRecord,
    TournamentRecord,
    TournamentTable,
)
from bot.tournaments.config import TournamentConfig
from bot.web.app import EVENTS, LIVE, make_app, serve_alone
from bot.web.app import start as serve_app
from bot.web.live import POLL_EVERY
from bot.web.paths import site_root
from bot.web.reader import Reader
from bot.web.security import Buckets
from devtools.moves import any_move
from games import GAMES

GUILD = 1
HOST = Person(user_id=1, name="Host", can_manage=True)
# One address stands for every viewer here: the limit is not what is measured.
UNLIMITED = Buckets(rate=1e9, burst=1e9)


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def swiss(store: Store, players: int, rounds: int) -> str:
    """An event of ``players`` with ``rounds`` played: neighbours by points meet, a random
    winner each table (the standings' work depends on the results, not on the pairing)."""
    rng = random.Random(players)
    event = TournamentRecord(
        tournament_id="5a155a15",
        guild_id=GUILD,
        channel_id=1,
        organiser_id=HOST.user_id,
        game="cover_your_assets",
        config=TournamentConfig(max_players=players).model_dump_json(),
        status="running",
        round=rounds,
        seed=1,
        created_at=0.0,
    )
    await store.create_tournament(event)
    for number in range(1, players + 1):
        entrant = EntrantRecord(
            tournament_id=event.tournament_id,
            entrant=number,
            user_id=number,
            name=f"Player {number}",
            joined_at=float(number),
        )
        await store.save_entrant(entrant)
    points = dict.fromkeys(range(1, players + 1), 0)
    for number in range(1, rounds + 1):
        order = sorted(points, key=lambda p: (-points[p], p))
        for table_no, at in enumerate(range(0, players, 2), start=1):
            seats = order[at : at + 2]
            places = [1, 2] if rng.random() < 0.5 else [2, 1]
            points[seats[places.index(1)]] += 3
            tid = event.tournament_id
            table = TournamentTable(
                tournament_id=tid, round=number, table_no=table_no, seats=seats, status="done"
            )
            await store.save_tournament_table(table)
            await store.add_result(
                ResultRecord(
                    tournament_id=tid, round=number, table_no=table_no, players=seats, places=places
                )
            )
    return event.tournament_id


async def timed_gets(session: aiohttp.ClientSession, url: str, times: int) -> list[float]:
    took = []
    for _ in range(times):
        start = time.perf_counter()
        async with session.get(url) as response:
            await response.read()
            assert response.status == 200, (url, response.status)
        took.append((time.perf_counter() - start) * 1000)
    return took


def line(label: str, took: list[float]) -> str:
    return f"{label}: median {statistics.median(took):.1f} ms, max {max(took):.1f} ms"


async def standings_figures(folder: Path, players: int, rounds: int, times: int) -> list[str]:
    store = open_store(f"sqlite:///{folder / 'standings.db'}")
    await store.connect()
    try:
        service = MatchService(store, GAMES)
        settings = await service.set_guild_defaults(GUILD, HOST, {"web": True})
        root = site_root(GUILD, settings.web_token)
        tid = await swiss(store, players, rounds)
        event = await store.get_tournament(tid)
        assert event is not None
        port = unused_port()
        app = make_app(Reader(store, GAMES, service), buckets=UNLIMITED)
        runner = await serve_app(app, port)
        try:
            alone = []  # once serving, as the page computes it (the heap frozen at start)
            for _ in range(times):
                start = time.perf_counter()
                await read_view(store, GAMES[event.game], event)
                alone.append((time.perf_counter() - start) * 1000)
            async with aiohttp.ClientSession() as session:
                base = f"http://127.0.0.1:{port}"
                cold = []
                for _ in range(times):
                    app[EVENTS].clear()  # as after a result: computed and rendered anew
                    cold += await timed_gets(session, f"{base}{root}/event/{tid}", 1)
                page = await timed_gets(session, f"{base}{root}/event/{tid}", times)
                floor = await timed_gets(session, f"{base}/static/site.css", times)
        finally:
            await runner.cleanup()
    finally:
        await store.close()
    return [
        f"standings of a {players}-player Swiss after {rounds} rounds ({times} requests):",
        "  " + line("event page served again (kept rendered while nothing changed)", page),
        "  " + line("event page computed and rendered anew (after a result)", cold),
        "  " + line("baseline: the standings read and computed alone", alone),
        "  " + line("baseline: a static file served (the HTTP floor)", floor),
    ]


VIEWER = """
import asyncio, sys, aiohttp
async def viewer(session, base, path, ready):
    async with session.get(base + path + "/live") as stream:
        ready.release()
        async for raw in stream.content:
            if raw.startswith(b"data: "):
                version = raw.split(b'"version": ', 1)[1].split(b",", 1)[0].decode()
                async with session.get(base + path + "/picture.png?v=" + version) as picture:
                    await picture.read()
async def main(base, path, count):
    ready = asyncio.Semaphore(0)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [asyncio.create_task(viewer(session, base, path, ready)) for _ in range(count)]
        for _ in range(count):
            await ready.acquire()
        print("ready", flush=True)
        await asyncio.gather(*tasks, return_exceptions=True)
asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
"""


async def viewers_figures(folder: Path, viewers: int, moves: int, every: float) -> list[str]:
    store = open_store(f"sqlite:///{folder / 'live.db'}")
    await store.connect()
    lines = [f"{viewers} viewers of one live Braverse table, a move every {every:g} s:"]
    try:
        service = MatchService(store, GAMES)
        settings = await service.set_guild_defaults(GUILD, HOST, {"web": True})
        root = site_root(GUILD, settings.web_token)
        app = make_app(Reader(store, GAMES, service), buckets=UNLIMITED)
        service.listeners.append(app[LIVE].on_change)
        port = unused_port()
        runner = await serve_app(app, port)
        try:
            for watching in (0, viewers):
                lobby = await service.open_lobby(
                    guild_id=GUILD, channel_id=10 + watching, host=HOST, game_key="braverse"
                )
                await service.add_bot(lobby.match_id, HOST)
                await service.start(lobby.match_id, HOST)
                path = f"{root}/table/{lobby.match_id}"
                child = None
                if watching:
                    async with aiohttp.ClientSession() as session:  # the table kept rendered
                        await (await session.get(f"http://127.0.0.1:{port}{path}")).read()
                    child = await asyncio.create_subprocess_exec(
                        sys.executable,
                        "-c",
                        VIEWER,
                        f"http://127.0.0.1:{port}",
                        path,
                        str(watching),
                        stdout=subprocess.PIPE,
                    )
                    assert child.stdout is not None
                    assert (await child.stdout.readline()).strip() == b"ready"
                watched = app[LIVE]._watched.get(lobby.match_id)
                renders = watched.renders if watched else 0
                made = 0
                start_cpu, start_wall = cpu(), time.perf_counter()
                for _ in range(moves):
                    if await any_move(service, lobby.match_id, [HOST.user_id]) is None:
                        break
                    made += 1
                    await asyncio.sleep(every)
                used, wall = cpu() - start_cpu, time.perf_counter() - start_wall
                if child is not None:
                    child.terminate()
                    await child.wait()
                rendered = (watched.renders - renders) if watched else 0
                lines.append(
                    f"  {watching} watching: {made} moves, {used / max(1, made) * 1000:.1f} ms "
                    f"of CPU a move, {100 * used / wall:.1f}% of one core"
                    + (f"; {rendered} renders" if watching else " (baseline)")
                )
        finally:
            await runner.cleanup()
    finally:
        await store.close()
    return lines


async def next_event(stream: aiohttp.ClientResponse) -> None:
    while not (await asyncio.wait_for(stream.content.readline(), 30)).startswith(b"data: "):
        pass


async def heard_after(
    session: aiohttp.ClientSession, url: str, service: MatchService, match_id: str, moves: int
) -> list[float]:
    """Milliseconds from each move's save to its event on the stream at ``url``."""
    rng = random.Random(moves)
    took = []
    async with session.get(url) as stream:
        await next_event(stream)  # the table as it stands
        for _ in range(moves):
            await asyncio.sleep(rng.uniform(0, 2 * POLL_EVERY))  # any moment of a poll
            start = time.perf_counter()
            if await any_move(service, match_id, [HOST.user_id]) is None:
                break
            await next_event(stream)
            took.append((time.perf_counter() - start) * 1000)
    return took


async def latency_figures(folder: Path, moves: int) -> list[str]:
    url = f"sqlite:///{folder / 'latency.db'}"
    store = open_store(url)
    await store.connect()
    try:
        service = MatchService(store, GAMES)
        settings = await service.set_guild_defaults(GUILD, HOST, {"web": True})
        root = site_root(GUILD, settings.web_token)
        lobby = await service.open_lobby(
            guild_id=GUILD, channel_id=99, host=HOST, game_key="braverse"
        )
        await service.add_bot(lobby.match_id, HOST)
        await service.start(lobby.match_id, HOST)
        live = f"{root}/table/{lobby.match_id}/live"
        app = make_app(Reader(store, GAMES, service), buckets=UNLIMITED)
        service.listeners.append(app[LIVE].on_change)
        port = unused_port()
        runner = await serve_app(app, port)
        async with aiohttp.ClientSession() as session:
            try:
                beside = await heard_after(
                    session, f"http://127.0.0.1:{port}{live}", service, lobby.match_id, moves
                )
                floor = await timed_gets(session, f"http://127.0.0.1:{port}/static/site.css", moves)
            finally:
                await runner.cleanup()
            port, stop = unused_port(), asyncio.Event()
            serving = asyncio.create_task(serve_alone(url, port, stop))
            for _ in range(200):  # until it answers
                try:
                    await timed_gets(session, f"http://127.0.0.1:{port}/static/site.css", 1)
                    break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.05)
            try:
                alone = await heard_after(
                    session, f"http://127.0.0.1:{port}{live}", service, lobby.match_id, moves
                )
            finally:
                stop.set()
                await serving
    finally:
        await store.close()
    return [
        f"a live table's viewer hears of a move ({moves} moves, target within 1 s):",
        "  " + line("pages in the bot's process (pushed)", beside),
        "  " + line(f"pages run alone (a poll every {POLL_EVERY:g} s)", alone),
        "  " + line("baseline: a static file's round trip", floor),
    ]


def main(argv: list[str]) -> None:
    # The collector as the bot and ``python -m bot web`` set it (GC_THRESHOLD's default).
    if (threshold := WebSettings.model_construct().gc_thresholds) is not None:
        gc.set_threshold(*threshold)
    parser = argparse.ArgumentParser(prog="python -m bench web")
    parser.add_argument("--smoke", action="store_true", help="a small, quick run")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between moves")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        players, rounds, times = (64, 3, 5) if args.smoke else (512, 9, 30)
        for text in asyncio.run(standings_figures(Path(folder), players, rounds, times)):
            print(text)
        viewers, moves = (20, 5) if args.smoke else (200, 30)
        every = 0.05 if args.smoke else args.every
        for text in asyncio.run(viewers_figures(Path(folder), viewers, moves, every)):
            print(text)
        for text in asyncio.run(latency_figures(Path(folder), 5 if args.smoke else 40)):
            print(text)
    print(f"(pid {os.getpid()}; CPU from getrusage of this process, viewers in a child)")
