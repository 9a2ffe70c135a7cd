"""Pictures on the table's messages: the table's embed shows the table picture, a hand
view's embed the seat's hand. Each goes as a file the embed names (``attachment://``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from cogs.pictures import attach

TABLE_FILE = "table.png"
HAND_FILE = "hand.png"


@dataclass
class Drawn:
    """A message drawn with its picture (or none): what to send, or what to edit it to."""

    embeds: list[discord.Embed]
    view: discord.ui.View | None
    picture: bytes | None = None
    filename: str = TABLE_FILE
    content: str | None = None  # a table has none; a hand view says what to decide
    late: bool = False  # its picture is still being drawn: an edit keeps the one shown
    language: str = "en"  # its readers' (the picture's alt text is in it)

    def __post_init__(self) -> None:
        if not self.embeds:
            self.picture = None  # nothing to show it in

    def sent(self) -> dict[str, Any]:
        """Keyword arguments of a new message (no ``view`` when it has none: an interaction's
        answer takes no None)."""
        kwargs = self._text()
        if self.view is None:
            del kwargs["view"]
        if self.picture is not None:
            kwargs["files"] = self._file()
        return kwargs

    def edited(self, kept: discord.Attachment | None = None) -> dict[str, Any]:
        """Keyword arguments of an edit: the picture uploaded again, or ``kept`` (the one the
        message already has: Discord keeps an attachment the edit names, and the embed goes
        on showing it). Without a picture, the message's old one is removed."""
        attachments: list[discord.Attachment | discord.File] = []
        if self.picture is not None:
            files = self._file()  # which also points the embed at the picture's name
            attachments = files if kept is None else [kept]
        elif self.late and kept is not None and self.embeds:
            self.embeds[0].set_image(url=f"attachment://{self.filename}")
            attachments = [kept]
        return {**self._text(), "attachments": attachments}

    def _file(self) -> list[discord.File]:
        """A fresh file each time (discord.py reads a file's bytes once, when it is sent),
        which the first embed shows."""
        return attach(self.embeds[0], self.picture, self.filename, self.language)

    def _text(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"embeds": self.embeds, "view": self.view}
        if self.content is not None:
            kwargs["content"] = self.content
        return kwargs
