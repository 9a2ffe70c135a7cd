"""Several bot processes, each serving its shards, on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from bot.store import open_store
from bot.store.copy import replays_to_snapshot
from games import GAMES

ROOT = Path(__file__).resolve().parents[2]
WORKER = "tests.discord.shard_worker"


async def start(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        WORKER,
        *args,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def to_the_end(process: asyncio.subprocess.Process) -> list[dict]:
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()[-3000:]
    return [json.loads(line) for line in out.decode().splitlines()]


async def killed_after(process: asyncio.subprocess.Process, moves: int) -> list[dict]:
    """Read what the process acknowledged until ``moves`` moves, then kill it (SIGKILL)."""
    assert process.stdout is not None
    seen: list[dict] = []
    while len(seen) < moves:
        line = await process.stdout.readline()
        assert line, (await process.stderr.read()).decode()[-3000:]  # type: ignore[union-attr]
        seen.append(json.loads(line))
    process.kill()
    await process.wait()
    return seen


async def test_two_shard_processes_and_a_killed_one_restarted_keep_every_acknowledged_move(
    postgres_url: str,
) -> None:
    """Shards 0 and 1 of 2, each in its own process with its own guild, two matches each
    (an idle person whose live clock keeps running out, and three bots). Shard 0's process
    is killed midway; restarted, it finishes its matches from the database."""
    zero = await start(postgres_url, "0", "2", "open", "2")
    one = await start(postgres_url, "1", "2", "open", "2")
    before_kill, of_one = await asyncio.gather(killed_after(zero, 20), to_the_end(one))
    assert of_one[-1] == {"done": 1}
    after_restart = await to_the_end(await start(postgres_url, "0", "2", "resume", "2"))
    assert after_restart[-1] == {"done": 0}
    moves = {
        0: before_kill,
        1: of_one[:-1],
        "restart": after_restart[:-1],
    }
    assert moves["restart"], "the kill came after the matches ended: nothing was left to finish"
    for shard, acknowledged in moves.items():
        owner = 0 if shard == "restart" else shard
        # Each process moved only the matches of its own shard's guild.
        assert {(a["guild"] >> 22) % 2 for a in acknowledged} == {owner}
    of_zero = {a["match"] for a in before_kill}
    assert {a["match"] for a in moves["restart"]} == of_zero and len(of_zero) == 2
    store = open_store(postgres_url)
    await store.connect()
    try:
        matches = {record.match_id: record for record in await store.open_matches()}
        assert matches == {}  # every match of both shards is over
        for match_id in of_zero | {a["match"] for a in of_one[:-1]}:
            record = await store.get(match_id)
            assert record is not None and record.status == "finished"
            log = await store.actions(match_id)
            assert [a.seq for a in log] == list(range(record.version))
            # Every move acknowledged before the kill is in the log the restart went on from.
            acked = [a["version"] for a in before_kill + of_one if a.get("match") == match_id]
            assert max(acked) <= record.version
            names = [s.name for s in record.seats]
            logged = [{"seat": a.seat, "action": a.action} for a in log]
            assert replays_to_snapshot(GAMES[record.game], record.model_dump(), names, logged)
    finally:
        await store.close()
