"""The event's pictures in Discord: the bracket on each round's pairings message, drawn
again as each result comes in, and the standings picture on the standings embeds, their
words in the language of the message they go with.

Drawing takes tens of milliseconds (a 64-player double bracket ~200 ms), so it runs in a
worker thread, never on the event loop. A server with ``/settings pictures:off`` gets
none (``cogs.pictures``): the text says it all anyway, for screen readers too.
"""

from __future__ import annotations

import asyncio

from bot.service.tournaments import TournamentView
from bot.service.tournaments.drawn import bracket_drawn, names_of, standings_drawn

BRACKET = "bracket.png"
STANDINGS = "standings.png"


async def bracket_png(view: TournamentView, language: str) -> bytes | None:
    """The bracket in ``language`` (None: the event has none)."""
    return await asyncio.to_thread(bracket_drawn, view, language)


async def standings_png(view: TournamentView, title: str, language: str) -> bytes | None:
    """The standings under ``title`` in ``language`` (None: nobody to list)."""
    return await asyncio.to_thread(standings_drawn, view, title, language)


__all__ = ["BRACKET", "STANDINGS", "bracket_png", "names_of", "standings_png"]
