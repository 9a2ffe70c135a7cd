"""A rolling restart of one shard on PostgreSQL: a new process starts beside the old one, the
old one drains (as on SIGTERM) while players click and clocks run out, and the new one goes
on alone. No click waits past Discord's 3 seconds, no deadline is dropped, none fires twice,
and the bots the old process left pending are played by the new one."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass, field

from bot.clock import ManualClock
from bot.errors import UserError
from bot.runtime import Runtime
from bot.service import Change, MatchService, Person
from bot.store import open_store

CLICKER = Person(user_id=201, name="Ana")  # answers her turns at once
IDLER = Person(user_id=202, name="Ben")  # never does: his clock runs out every turn
MATCHES = 6
ANSWER_WITHIN = 3.0  # Discord's deadline for the first answer to a click


@dataclass
class Process:
    runtime: Runtime
    scheduler_task: asyncio.Task[None]
    timed_out: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def service(self) -> MatchService:
        return self.runtime.service


async def start(url: str, clock: ManualClock, bot_delay: float) -> Process:
    store = open_store(url)
    await store.connect()
    runtime = Runtime(store, cache_mb=16, bot_delay=bot_delay, clock=clock)
    runtime.bots.forced_pause = (0.0, 0.02)
    await runtime.resume()
    process = Process(runtime, asyncio.create_task(runtime.scheduler.run()))

    async def record(change: Change) -> None:
        if change.timed_out is not None and change.previous is not None:
            process.timed_out.append(
                (change.match.match_id, change.previous.version, change.timed_out)
            )

    runtime.service.listeners.insert(0, record)
    return process


async def stop(process: Process) -> None:
    process.scheduler_task.cancel()
    await asyncio.gather(process.scheduler_task, return_exceptions=True)
    await process.runtime.bots.close()
    await process.runtime.store.close()


async def open_matches(service: MatchService) -> list[str]:
    matches = []
    for channel in range(MATCHES):
        lobby = await service.open_lobby(
            guild_id=1, channel_id=100 + channel, host=CLICKER, game_key="cover_your_assets"
        )
        await service.set_pace(lobby.match_id, CLICKER, "live")
        await service.set_option(lobby.match_id, CLICKER, "end_mode", "quick")
        await service.join(lobby.match_id, IDLER)
        await service.add_bot(lobby.match_id, CLICKER)
        await service.start(lobby.match_id, CLICKER)
        matches.append(lobby.match_id)
    return matches


async def test_a_rolling_restart_drops_no_click_and_no_deadline_and_fires_none_twice(
    postgres_url: str,
) -> None:
    clock = ManualClock(start=1_900_000_000.0)
    # The old process's bots think long, so some are still to move when it drains.
    old = await start(postgres_url, clock, bot_delay=0.2)
    matches = await open_matches(old.service)
    for match_id in matches:
        old.runtime.bots.poke(match_id)
    serving = [old]  # the processes Discord sends this shard's clicks to
    rng = random.Random(7)
    waits: list[float] = []
    answers: Counter[str] = Counter()
    stop_clicking = asyncio.Event()
    loop = asyncio.get_running_loop()

    async def click_forever() -> None:
        while not stop_clicking.is_set():
            for match_id in matches:
                process = rng.choice(serving)
                started = loop.time()
                try:
                    seen = await process.service.seat_view(match_id, CLICKER.user_id)
                    if seen.match.status != "active" or seen.decision is None:
                        continue
                    picks = list(range(seen.decision.min_picks or 1))
                    await process.service.act(
                        match_id, CLICKER.user_id, stamp=seen.decision.stamp, picks=picks
                    )
                    answers["played"] += 1
                except UserError as refused:  # a sentence for the player: answered
                    answers[type(refused).__name__] += 1
                waits.append(loop.time() - started)
            await asyncio.sleep(0.005)

    async def time_passes() -> None:
        while not stop_clicking.is_set():
            await clock.advance(1)  # a live minute runs out in about 1.2 s
            await asyncio.sleep(0.02)

    async def versions() -> dict[str, int]:
        return {m: (await old_or_new().service.get(m)).version for m in matches}

    def old_or_new() -> Process:
        return serving[-1]

    workers = [asyncio.create_task(click_forever()), asyncio.create_task(time_passes())]
    try:
        await asyncio.sleep(1.0)
        new = await start(postgres_url, clock, bot_delay=0.02)  # start new...
        serving.append(new)
        await asyncio.sleep(1.0)
        serving.remove(old)  # ...Discord stops sending the old one anything...
        for _ in range(400):  # drain while a bot of the old process is still to move
            if handed_over := old.runtime.bots.pending():
                break
            await asyncio.sleep(0.005)
        await old.runtime.drain()  # ...which drains while clicks go on elsewhere
        drained_at = await versions()
        await stop(old)
        # Play on until every match has moved since (a busy machine takes longer).
        for _ in range(300):
            records = [await new.service.get(m) for m in matches]
            if all(r.version > drained_at[r.match_id] or not r.is_open for r in records):
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # and some more: clocks run out in the new process
    finally:
        stop_clicking.set()
        await asyncio.gather(*workers)
    try:
        after = await versions()
        # Every match went on after the old process left: nothing waits on a lost clock
        # or a bot move the old process never made.
        for match_id in matches:
            record = await new.service.get(match_id)
            assert after[match_id] > drained_at[match_id] or record.status != "active"
        await new.runtime.scheduler.fire_due()
        for match_id in matches:
            record = await new.service.get(match_id)
            if record.status != "active":
                continue
            timers = await new.runtime.store.timers_of(match_id)
            seen = await new.service.seat_view(match_id, None)
            # Not dropped: each seat the match waits on has its clock, none in the past.
            assert {t.seat for t in timers if t.kind == "timeout"} >= set(seen.waiting_on)
            assert all(t.due_at > clock.now() for t in timers)
        # Clocks ran out in both processes, and never twice for one decision.
        assert old.timed_out and new.timed_out
        fired = old.timed_out + new.timed_out
        assert len(fired) == len(set(fired))
        # The bots left pending were played by the new process at once, not by their
        # clocks running out: the decision each waited on at the drain timed out for
        # nobody but the idler.
        assert handed_over
        seats = {m: (await new.service.get(m)).seats for m in matches}
        assert all(
            seats[m][seat].user_id == IDLER.user_id
            for m, version, seat in new.timed_out
            if m in handed_over and version == drained_at[m]
        )
        assert answers["played"] >= 10
        assert max(waits) < ANSWER_WITHIN, f"a click waited {max(waits):.2f} s"
    finally:
        await stop(new)
