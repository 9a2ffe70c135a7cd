"""An event's pictures drawn from its view: the bracket and the standings, as PNG bytes.
Pure and slow enough (a 64-player double bracket ~200 ms) that callers run them in a
worker thread: Discord's posts (cogs.tournaments.pictures) and the web page's event page
(bot/web) draw the same pictures from here."""

from __future__ import annotations

from bot.service.tournaments.models import TournamentView
from bot.tournaments.pictures import bracket_picture, standings_picture


def names_of(view: TournamentView) -> dict[int, str]:
    return {e.entrant: e.name for e in view.entrants}


def short_label(view: TournamentView) -> str:
    """The format's name without its explanation in brackets."""
    return view.format.short_label()


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


def bracket_drawn(view: TournamentView) -> bytes | None:
    """The bracket (None: the event has none)."""
    drawn = view.drawn_bracket()
    if drawn is None:
        return None
    title = f"{view.game.name} tournament"
    return bracket_picture(drawn, names_of(view), title, stage_words(view))


def standings_drawn(view: TournamentView, title: str) -> bytes | None:
    """The standings (None: nobody to list)."""
    if not view.standings:
        return None
    return standings_picture(
        view.standings, names_of(view), title, stage_words(view), view.gone_words()
    )
