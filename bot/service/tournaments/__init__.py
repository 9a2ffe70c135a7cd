"""Running tournaments: sign-up, rounds of tables played as ordinary matches, results,
standings, deadlines and the organiser's tools.

Each table is a match created and started through the lobby path (host: the organiser) in
a thread of its own; its result is recorded when the match ends, keyed by the match id, so
nobody reports scores. Standings, pairings and brackets are the event's format's to work
out from the stored results (``bot.tournaments.formats``). One lock per event orders
everything that changes it: a result, a timer, a click, an organiser's correction.

``Tournaments`` is put together from its parts, each in its own module: ``base`` (store,
locks, listeners, reading), ``signup``, ``rounds`` (pairing, closing a round, timers),
``tables`` (what a table's match records), ``organiser`` and ``exports``.
"""

from __future__ import annotations

from bot.service.tournaments.exports import Exports
from bot.service.tournaments.models import (
    FORFEIT_AFTER,
    PAUSED,
    TooFewPlayers,
    TournamentChange,
    TournamentView,
    gone_last,
    places_from_groups,
    points_text,
    rematches_in,
    signed_up,
)
from bot.service.tournaments.organiser import Organiser
from bot.service.tournaments.rounds import Rounds
from bot.service.tournaments.signup import SignUp
from bot.service.tournaments.tables import Tables
from bot.tournaments.config import DAY, ROUND_DEADLINES, TournamentConfig
from bot.tournaments.progress import participants, to_table_result


class Tournaments(SignUp, Rounds, Tables, Organiser, Exports):
    """Every change to an event, through one locked path per event."""


__all__ = [
    "DAY",
    "FORFEIT_AFTER",
    "PAUSED",
    "ROUND_DEADLINES",
    "TooFewPlayers",
    "TournamentChange",
    "TournamentConfig",
    "TournamentView",
    "Tournaments",
    "gone_last",
    "participants",
    "places_from_groups",
    "points_text",
    "rematches_in",
    "signed_up",
    "to_table_result",
]
