"""The service's cost per action against a bare commit of the same state, measured side by
side (``python -m bench`` prints it; the load benchmark prints it beside its own figures)."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bot.service import MatchService, Person
from bot.store import SQLiteStore
from games import GAMES

GAME = "cover_your_assets"


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
