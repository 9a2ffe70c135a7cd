"""Tournament formats: one class per format behind one protocol (``base.Format``), and the
registry the event's ``format`` key is looked up in. A new format is a new subclass
listed here; the contract test (``tests/bot/test_tournament_contract.py``) plays every
format listed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.tournaments.formats.base import Format
from bot.tournaments.formats.brackets import DoubleElimination, SingleElimination
from bot.tournaments.formats.groups import Groups
from bot.tournaments.formats.multiplayer import MultiplayerElimination
from bot.tournaments.formats.pods import SEMI_FINAL_CUT, Pods
from bot.tournaments.formats.round_robin import DoubleRoundRobin, RoundRobin
from bot.tournaments.formats.swiss import Swiss
from games.core.text import t

if TYPE_CHECKING:
    from bot.tournaments.config import TournamentConfig
    from games.core.protocol import Game

# In the order the organiser is offered them.
FORMATS: dict[str, type[Format]] = {
    kind.key: kind
    for kind in (
        Swiss,
        Pods,
        SingleElimination,
        DoubleElimination,
        RoundRobin,
        DoubleRoundRobin,
        MultiplayerElimination,
        Groups,
    )
}


def format_class(key: str) -> type[Format]:
    """The format registered as ``key``: what it is called and what it accepts."""
    if key not in FORMATS:
        raise UserError(
            t(
                "There is no '{key}' format. Pick one of: {formats}.",
                key=key,
                formats=", ".join(FORMATS),
            )
        )
    return FORMATS[key]


def format_of(config: TournamentConfig, game: Game) -> Format:
    """The event's format, bound to its choices and game."""
    return format_class(config.format)(config, game)


__all__ = ["FORMATS", "SEMI_FINAL_CUT", "Format", "format_class", "format_of"]
