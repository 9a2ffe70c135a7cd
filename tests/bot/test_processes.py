"""Two processes on one PostgreSQL database moving the same matches at once."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from bot.service import MatchService
from bot.store import open_store
from bot.store.copy import replays_to_snapshot
from games import GAMES

from .conftest import ANA, BEN, CLEO, DEV

ROOT = Path(__file__).resolve().parents[2]


async def run_worker(module: str, *args: str) -> list[dict]:
    """Run ``python -m module args`` to the end; its JSON lines."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        *args,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()[-3000:]
    return [json.loads(line) for line in out.decode().splitlines()]


async def test_two_processes_moving_the_same_matches_apply_every_move_exactly_once(
    postgres_url: str,
) -> None:
    store = open_store(postgres_url)
    await store.connect()
    service = MatchService(store, GAMES, new_seed=iter(range(40, 1000)).__next__)
    match_ids = []
    for channel in range(3):
        lobby = await service.open_lobby(
            guild_id=1, channel_id=channel, host=ANA, game_key="cover_your_assets"
        )
        await service.set_option(lobby.match_id, ANA, "end_mode", "quick")
        for who in (BEN, CLEO, DEV):
            await service.join(lobby.match_id, who)
        await service.start(lobby.match_id, ANA)
        match_ids.append(lobby.match_id)
    first, second = await asyncio.gather(
        run_worker("tests.bot.move_worker", postgres_url, "1", *match_ids),
        run_worker("tests.bot.move_worker", postgres_url, "2", *match_ids),
    )
    try:
        assert first and second  # both got moves in
        acknowledged = [(a["match"], a["version"]) for a in first + second]
        assert len(acknowledged) == len(set(acknowledged))  # no move twice
        for match_id in match_ids:
            record = await store.get(match_id)
            assert record.status == "finished"
            log = await store.actions(match_id)
            # None lost: every logged move was acknowledged to exactly one process, and
            # every acknowledged one is in the log, as it was sent.
            assert [a.seq for a in log] == list(range(record.version))
            mine = sorted(
                (a for a in first + second if a["match"] == match_id), key=lambda a: a["version"]
            )
            assert [(a["version"] - 1, a["seat"], a["action"]) for a in mine] == [
                (a.seq, a.seat, a.action) for a in log
            ]
            names = [s.name for s in record.seats]
            logged = [{"seat": a.seat, "action": a.action} for a in log]
            assert replays_to_snapshot(GAMES[record.game], record.model_dump(), names, logged)
    finally:
        await store.close()
