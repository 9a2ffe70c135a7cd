"""An event's pictures drawn from its view: the bracket and the standings, as PNG bytes.
Pure and slow enough (a 64-player double bracket ~200 ms) that callers run them in a
worker thread: Discord's posts (cogs.tournaments.pictures) and the web page's event page
(bot/web) draw the same pictures from here, each in its reader's language (a public post's
and a page's: the server's)."""

from __future__ import annotations

from bot.service.tournaments.models import TournamentView
from bot.tournaments.pictures import bracket_picture, standings_picture
from games.core.text import Text, t, tc, tn
from games.core.translations import ENGLISH

WHERE: dict[str, Text] = {
    "finished": tc("event status", "finished"),
    "cancelled": tc("event status", "cancelled"),
}


def names_of(view: TournamentView) -> dict[int, str]:
    return {e.entrant: e.name for e in view.entrants}


def short_label(view: TournamentView) -> str:
    """The format's name without its explanation in brackets."""
    return view.format.short_label()


def stage_words(view: TournamentView) -> Text:
    """Where the event stands, under the picture's title."""
    champion = view.champion()
    round_no = view.event.round
    where: Text
    if champion is not None:
        where = t("won by {name}", name=champion.name)
    elif view.event.status in WHERE:
        where = WHERE[view.event.status]
    elif view.event.status == "paused":
        where = t("paused in round {n}", n=round_no)
    else:
        where = t("round {n} being played", n=round_no)
    return tn(
        "{format} · {n} player · {where}",
        "{format} · {n} players · {where}",
        n=len(view.progress.players),
        format=short_label(view),
        where=where,
    )


def bracket_drawn(view: TournamentView, language: str = ENGLISH) -> bytes | None:
    """The bracket, its words in ``language`` (None: the event has none)."""
    drawn = view.drawn_bracket()
    if drawn is None:
        return None
    title = t("{game} tournament", game=view.game.name)
    return bracket_picture(drawn, names_of(view), title, stage_words(view), language)


def standings_drawn(view: TournamentView, title: str, language: str = ENGLISH) -> bytes | None:
    """The standings under ``title`` (a Text, drawn in ``language``; None: nobody to list)."""
    if not view.standings:
        return None
    return standings_picture(
        view.standings,
        names_of(view),
        title,
        stage_words(view),
        view.gone_words(),
        language,
        view.standing_notes(),
    )
