"""What every part of the table's presenter shares: the bot, and the service through it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service import MatchService

if TYPE_CHECKING:
    from bot.client import CookieJar


class Part:
    """A part of the presenter. The service is read when used: the bot has it once its
    ``setup_hook`` ran."""

    def __init__(self, bot: CookieJar) -> None:
        self.bot = bot

    @property
    def service(self) -> MatchService:
        return self.bot.service
