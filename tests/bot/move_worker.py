"""One of several bot processes moving the same matches at once, for the exactly-once test.

``python -m tests.bot.move_worker URL SEED MATCH_ID...``: its own service and pool on the
shared PostgreSQL database; plays every seat's pending default move, in an order of its own,
until each match is over. A move another process made first comes back as a stale click
(the version check refused it and the cache dropped the entry). Every move the service
acknowledged is printed as a JSON line the moment it is saved.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from bot.errors import UserError
from bot.service import MatchService
from bot.store import open_store
from games import GAMES


async def main(url: str, seed: int, match_ids: list[str]) -> None:
    store = open_store(url)
    await store.connect()
    service = MatchService(store, GAMES)
    rng = random.Random(seed)
    try:
        while open_ids := [m for m in match_ids if (await service.get(m)).status == "active"]:
            rng.shuffle(open_ids)
            for match_id in open_ids:
                record = await service.get(match_id)
                for seat in rng.sample(record.seats, len(record.seats)):
                    view = await service.seat_view(match_id, seat.user_id)
                    if view.decision is None:
                        continue
                    try:
                        change = await service.act(
                            match_id,
                            seat.user_id or 0,
                            stamp=view.decision.stamp,
                            action=view.decision.default,
                        )
                    except UserError:
                        continue  # the other process moved first
                    assert change.state is not None
                    line = {"match": match_id, "version": change.state.version}
                    line |= {"seat": seat.seat, "action": view.decision.default.encode()}
                    print(json.dumps(line), flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3:]))
