"""Bots play their seats on their own, through the service like everyone else."""

from __future__ import annotations

import asyncio
import logging

from bot.service import Change, MatchService

log = logging.getLogger(__name__)


class BotDriver:
    """After every change, if a bot seat must decide, play it after a short, human pause.

    One task per match at most: a bot's move triggers the next change, which this same
    driver sees, so a table of bots plays itself to the end without piling up tasks.
    """

    def __init__(self, service: MatchService, *, delay: float = 1.5) -> None:
        self.service = service
        self.delay = delay
        self._tasks: dict[str, asyncio.Task[None]] = {}
        service.listeners.append(self.on_change)

    async def on_change(self, change: Change) -> None:
        if change.match.status != "active" or change.state is None:
            return
        bots = {s.seat for s in change.match.seats if s.played_by_bot}
        game = self.service.game_of(change.match)
        if any(d.seat in bots for d in game.decisions(change.state)):
            self.poke(change.match.match_id)

    def poke(self, match_id: str) -> None:
        task = self._tasks.get(match_id)
        if task is not None and not task.done():
            return
        self._tasks[match_id] = asyncio.create_task(self._play(match_id), name=f"bots:{match_id}")

    async def _play(self, match_id: str) -> None:
        try:
            await asyncio.sleep(self.delay)
            # The task is finished before the move so that the change it causes can
            # schedule the next bot move.
            self._tasks.pop(match_id, None)
            await self.service.play_bot(match_id)
        except Exception:
            log.exception("bot move failed in match %s", match_id)

    async def resume(self) -> None:
        """After a restart: give every running match a poke."""
        for record in await self.service.store.open_matches():
            if record.status == "active" and any(s.played_by_bot for s in record.seats):
                self.poke(record.match_id)

    async def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()
