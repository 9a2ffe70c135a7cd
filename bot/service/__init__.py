"""The one place that changes a match: lock -> load -> apply -> save -> notify.

Clicks, bot moves and timeouts all come through here, so a click racing a bot move or a
timeout applies exactly once: one asyncio lock per match, and the store's version check
behind it. The service is split by what it holds: ``base`` (values and plumbing),
``lobbies``, ``decks``, ``play`` and ``deadlines``.
"""

from bot.service.base import (
    Change,
    Choice,
    Person,
    SeatView,
    ServiceBase,
    bot_name,
    clean_name,
    new_match_id,
    pick_options,
    settings_of,
)
from bot.service.deadlines import Deadlines, MyMatch, Nudges
from bot.service.decks import Decks
from bot.service.history import History, HistoryPage, PastMatch, Replay


class MatchService(Decks, Deadlines, History):
    """Everything that changes or reads a match, for every front end."""


__all__ = [
    "Change",
    "Choice",
    "HistoryPage",
    "MatchService",
    "MyMatch",
    "Nudges",
    "PastMatch",
    "Person",
    "Replay",
    "SeatView",
    "ServiceBase",
    "bot_name",
    "clean_name",
    "new_match_id",
    "pick_options",
    "settings_of",
]
