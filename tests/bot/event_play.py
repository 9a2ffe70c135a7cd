"""Waiting for bots to play a tournament out, through the service (no Discord)."""

from __future__ import annotations

import asyncio

from bot.service.tournaments import Tournaments


async def until_finished(events: Tournaments, tournament_id: str, seconds: float = 300.0) -> None:
    """Until the event is over: woken by each change of a match or of the event, then the
    results being recorded are waited for and the event read once. Reading the store at
    every turn of the loop instead made on PostgreSQL a round trip per turn, which the
    bots' own saves queued behind (16 s of one test's 20). ``seconds`` of real time only
    bound the wait."""
    changed = asyncio.Event()

    async def note(_change: object) -> None:
        changed.set()

    events.matches.listeners.append(note)
    events.listeners.append(note)
    try:
        async with asyncio.timeout(seconds):
            while True:
                changed.clear()
                await events.idle()
                if (await events.get(tournament_id)).status == "finished":
                    return
                await changed.wait()
    finally:
        events.matches.listeners.remove(note)
        events.listeners.remove(note)
