"""The event's pictures in Discord: the bracket on each round's pairings message, drawn
again as each result comes in, and the standings picture on the standings embeds.

Drawing takes tens of milliseconds (a 64-player double bracket ~200 ms), so it runs in a
worker thread, never on the event loop. A server with ``/settings pictures:off`` gets
none (``cogs.pictures``): the text says it all anyway, for screen readers too.
"""

from __future__ import annotations

import asyncio

from bot.service.tournaments import TournamentView
from bot.tournaments.pictures import bracket_picture, standings_picture

BRACKET = "bracket.png"
STANDINGS = "standings.png"


def names_of(view: TournamentView) -> dict[int, str]:
    return {e.entrant: e.name for e in view.entrants}


def short_label(view: TournamentView) -> str:
    """The format's name without its explanation in brackets."""
    return view.format.label.split(" (")[0]


def stage_words(view: TournamentView) -> str:
    """Where the event stands, under the picture's title."""
    players = len(view.progress.players)
    where = {
        "finished": "finished",
        "cancelled": "cancelled",
        "paused": f"paused in round {view.event.round}",
    }.get(view.event.status, f"round {view.event.round} being played")
    champion = view.champion()
    if champion is not None:
        where = f"won by {champion.name}"
    return f"{short_label(view)} · {players} players · {where}"


async def bracket_png(view: TournamentView) -> bytes | None:
    """The bracket (None: the event has none)."""
    drawn = view.drawn_bracket()
    if drawn is None:
        return None
    title = f"{view.game.name} tournament"
    return await asyncio.to_thread(bracket_picture, drawn, names_of(view), title, stage_words(view))


async def standings_png(view: TournamentView, title: str) -> bytes | None:
    """The standings (None: nobody to list)."""
    if not view.standings:
        return None
    return await asyncio.to_thread(
        standings_picture, view.standings, names_of(view), title, stage_words(view)
    )
