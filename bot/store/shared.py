"""What both backends are: every read and write they share, over the few primitives each
gives (``sql.Executor``). A method the backends run alike goes in one of these once."""

from __future__ import annotations

from abc import ABC

from bot.store.base import Store
from bot.store.decks import DeckSQL
from bot.store.history import HistorySQL
from bot.store.ratings import RatingSQL
from bot.store.schedules import ScheduleSQL
from bot.store.seasons import SeasonSQL
from bot.store.tournaments import TournamentSQL


class SQLStore(HistorySQL, DeckSQL, RatingSQL, TournamentSQL, ScheduleSQL, SeasonSQL, Store, ABC):
    """Matches (``matches.py``, with their history), decks, ratings, tournaments, schedules
    of recurring events, and seasons.

    A backend adds the executor (``_fetch``, ``_snapshot``, ``_write``,
    ``_unique_violation``), how it saves a move and keeps timers, and its own timers'
    reads: what truly differs."""
