"""``python -m bench seasons``: a season's table on a big server, through the service.

A server with 10,000 players and 100,000 rated matches of 2 to 8 people in one season
(SQLite, written straight into a fresh database), then ``Seasons.table``: the season
points of every player summed in SQL, the divisions read, ratings for the tiebreak, and
every division's table sorted. The baseline, measured in the same run on the same rows:
reading the season's rating rows alone into Python (what a table computed in Python
would start from). Figures only: nothing asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bot.clock import ManualClock
from bot.service import MatchService, Person
from bot.service.seasons import Seasons
from bot.service.tournaments import Tournaments
from bot.store import open_store
from games import GAMES

GUILD, GAME = 1, "toss_your_cookies"
START = 1_800_000_000.0
ORGANISER = Person(user_id=1, name="Organiser", can_manage=True)


def write_history(path: Path, players: int, matches: int, seed: int = 1) -> int:
    """``matches`` rated matches of 2–8 of ``players`` people (ties now and then) during the
    season's first week, and everyone's rating; returns the rating rows written."""
    rng = random.Random(seed)
    stamp = "2027-01-15T00:00:00+00:00"
    match_rows, event_rows = [], []
    games: dict[int, int] = {}
    for number in range(matches):
        match_id = f"m{number}"
        at = START + 10 + number * 6.0
        match_rows.append((match_id, GUILD, 10 + number, GAME, ORGANISER.user_id, stamp, at))
        seated = rng.sample(range(100, 100 + players), rng.randint(2, 8))
        place = 1
        for index, user in enumerate(seated):
            if index and rng.random() > 0.1:  # one in ten shares the place above
                place = index + 1
            games[user] = games.get(user, 0) + 1
            event_rows.append(
                (
                    match_id,
                    user,
                    GUILD,
                    GAME,
                    at,
                    place,
                    len(seated),
                    25.0,
                    8.0,
                    25.0,
                    7.9,
                    games[user],
                    1500 + rng.randint(-300, 300),
                )
            )
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO matches (id, guild_id, channel_id, game, status, host_id, options, "
            "created_at, updated_at, finished_at) "
            "VALUES (?, ?, ?, ?, 'finished', ?, '{}', ?, ?6, ?)",
            match_rows,
        )
        db.executemany(
            "INSERT INTO rating_events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", event_rows
        )
        db.execute(
            "INSERT INTO ratings SELECT guild_id, game, user_id, mu_after, sigma_after, "
            "max(games_after), display_after FROM rating_events GROUP BY user_id"
        )
    return len(event_rows)


Timing = tuple[float, float]  # (wall, CPU of this process: the database's thread included)


def since(began: Timing) -> Timing:
    return time.perf_counter() - began[0], time.process_time() - began[1]


def now() -> Timing:
    return time.perf_counter(), time.process_time()


async def measure(path: Path, runs: int) -> tuple[list[Timing], list[Timing], int]:
    store = open_store(f"sqlite:///{path}")
    await store.connect()
    try:
        clock = ManualClock(START)
        service = MatchService(store, GAMES, clock=clock)
        seasons = Seasons(service, Tournaments(service))
        await seasons.set_up(
            GUILD,
            GAME,
            ORGANISER,
            length="month",
            divisions=10,
            size=1000,
            role_id=None,
            role_places=0,
            channel_id=5,
        )
        season = await seasons.current(GUILD, GAME)
        assert season is not None
        tables, bare, lines = [], [], 0
        for _ in range(runs):
            began = now()
            found = await seasons.table(GUILD, GAME)
            tables.append(since(began))
            lines = sum(len(t) for t in found.tables)
            began = now()
            await store._fetch(  # the baseline: the same rows, only read
                "SELECT user_id, place, players, match_id FROM rating_events "
                "WHERE guild_id = :guild AND game = :game AND at >= :start AND at < :end",
                {"guild": GUILD, "game": GAME, "start": season.starts_at, "end": season.ends_at},
            )
            bare.append(since(began))
        return tables, bare, lines
    finally:
        await store.close()


async def run(players: int, matches: int, runs: int) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "seasons.db"
        store = open_store(f"sqlite:///{path}")
        await store.connect()  # the migrations
        await store.close()
        rows = write_history(path, players, matches)
        tables, bare, lines = await measure(path, runs)
    wall, cpu = (statistics.median(t[i] for t in tables) for i in (0, 1))
    base_wall, base_cpu = (statistics.median(t[i] for t in bare) for i in (0, 1))
    return [
        f"season table: {players:,} players, {matches:,} rated matches ({rows:,} rating rows), "
        f"{lines:,} lines in 10 divisions of 1,000 (SQLite), medians of {runs} runs",
        f"  Seasons.table: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU",
        f"  baseline, the season's rating rows only read: {base_wall * 1000:.0f} ms wall, "
        f"{base_cpu * 1000:.0f} ms CPU (table / baseline {wall / base_wall:.2f}x wall)",
    ]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench seasons")
    parser.add_argument("--smoke", action="store_true", help="a small, quick run")
    args = parser.parse_args(argv)
    players, matches, runs = (500, 2_000, 2) if args.smoke else (10_000, 100_000, 5)
    for line in asyncio.run(run(players, matches, runs)):
        print(line, flush=True)
