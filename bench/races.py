"""The toss scramble under a crowd: eight players click the same cards at the same time.

Every click goes through the service's one path (lock, load, apply, save); the figure that
matters is how long the last click of a burst waits for its answer (Discord allows three
seconds). Baseline: the same number of bare aiosqlite commits of the state row, in a row.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from pathlib import Path

from bot.errors import UserError
from bot.service import MatchService, Person
from bot.store import SQLiteStore
from games import GAMES
from games.core.protocol import Action, IllegalAction

GAME = "toss_your_cookies"
PEOPLE = [Person(user_id=i, name=f"P{i}") for i in range(1, 9)]


async def open_scramble(service: MatchService, channel: int) -> str | None:
    """Roll until a Toss of some cards comes up and everyone has tossed; the match id."""
    game = GAMES[GAME]
    record = await service.open_lobby(guild_id=1, channel_id=channel, host=PEOPLE[0], game_key=GAME)
    for who in PEOPLE[1:]:
        await service.join(record.match_id, who)
    await service.start(record.match_id, PEOPLE[0])
    for _ in range(200):
        record = await service.get(record.match_id)
        if record.status != "active":
            return None
        state = service.load_state(record)
        if state.phase == "scramble" and state.scramble and state.scramble.tosser is None:
            return record.match_id
        for decision in game.decisions(state):
            if decision.optional or decision.window is not None:
                continue
            action = game.bot_action(state, decision.seat, decision=decision)
            await service.act(
                record.match_id, PEOPLE[decision.seat].user_id, stamp=decision.stamp, action=action
            )
        if state.phase == "scramble":  # a milk race: the first racer grabs it
            decision = game.decisions(state)[0]
            await service.grab(
                record.match_id,
                PEOPLE[decision.seat].user_id,
                race=decision.race_stamp,
                action=Action.of("grab", "milk"),
            )
    return None


async def burst(service: MatchService, match_id: str) -> tuple[int, int, float]:
    """Everyone clicks every card in the middle at once: (clicks, cards taken, seconds
    until the last click was answered)."""
    game = GAMES[GAME]
    state = service.load_state(await service.get(match_id))
    race = game.decisions(state)[0].race_stamp
    cards = sorted(set(state.scramble.middle))

    async def click(person: Person, card: str) -> None:
        # Too slow, or nothing left to grab: a refusal is an answer too.
        with contextlib.suppress(UserError, IllegalAction):
            await service.grab(match_id, person.user_id, race=race, action=Action.of("grab", card))

    clicks = [click(p, c) for c in cards for p in PEOPLE]
    start = time.perf_counter()
    await asyncio.gather(*clicks)
    took = time.perf_counter() - start
    return len(clicks), len(state.scramble.middle), took


async def race_benchmark(bursts: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "races.db")
        await store.connect()
        service = MatchService(store, GAMES)
        clicks = seconds = worst = taken = 0.0
        channel, done = 0, 0
        while done < bursts:
            channel += 1
            match_id = await open_scramble(service, channel)
            if match_id is None:
                continue
            count, cards, took = await burst(service, match_id)
            clicks, seconds, worst = clicks + count, seconds + took, max(worst, took)
            taken += cards
            done += 1
        state = (await service.get(match_id)).state or ""
        # Only grabs that take a card write; each bare commit must change the row, or
        # SQLite skips the write and its fsync.
        start = time.perf_counter()
        for n in range(round(taken / bursts)):
            await store.db.execute("BEGIN IMMEDIATE")
            await store.db.execute(
                "UPDATE matches SET state = ? WHERE id = ?", (state + " " * n, match_id)
            )
            await store.db.execute("COMMIT")
        bare = time.perf_counter() - start
        await store.close()
    return {
        "bursts": bursts,
        "clicks": clicks / bursts,
        "taken": taken / bursts,
        "mean": seconds / bursts,
        "worst": worst,
        "bare": bare,
    }


def report(figures: dict[str, float]) -> str:
    return (
        f"scramble: {figures['bursts']:.0f} bursts of {figures['clicks']:.0f} simultaneous "
        f"clicks (8 players on every card, {figures['taken']:.0f} cards taken); all answered "
        f"in {figures['mean'] * 1e3:.0f} ms on average, worst {figures['worst'] * 1e3:.0f} ms "
        f"(Discord allows 3,000 ms); bare commits of {figures['taken']:.0f} state rows in a "
        f"row: {figures['bare'] * 1e3:.0f} ms"
    )
