"""What each table's public message shows now, and the token that still reaches it.

A click on the lobby or the table that changes it redraws the message in its own answer,
which is free; the presenter's edit, which the budget counts, then finds nothing left to
show and is not sent. For 15 minutes after, the click's token still reaches the message
(``reach``): the presenter's edits go through it, free too. A picture the message shows
already is named again rather than uploaded again (an edit that left it out would show it
twice, in and beside the embed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.store import MatchRecord
from cogs.table.pictured import TABLE_FILE, Drawn
from cogs.table.reach import MESSAGE, Reach, fresh, reach_of


@dataclass(frozen=True)
class Showing:
    """A table message as last sent: its text (None: not known, as when its picture was
    late) and its picture, by digest, with the attachment that carries the picture."""

    message_id: int
    text: int | None
    picture: tuple[int, int]
    attachment: discord.Attachment | None = None


class Shown:
    def __init__(self) -> None:
        # Per lobby or running match: what its message shows (forgotten once it ended and
        # its last edit went: ``Presenter.on_change``).
        self._of: dict[str, Showing] = {}
        # Matches whose message shows an older state than their newest: an edit waits for
        # its slot (the presenter's), or a click on the message redraws it for free.
        self.stale: set[str] = set()
        # Those of them whose edit waits for its slot of the request budget right now.
        self.waiting: set[str] = set()
        # Per match: the clicks answering with its table now (``answering``).
        self._answering: dict[str, list[asyncio.Future[None]]] = {}
        # Per lobby or running match: the token of the last interaction whose answer is
        # its message (the command that posted it, a click that redrew it).
        self._reach: dict[str, Reach] = {}

    def reached_by(self, match_id: str, interaction: discord.Interaction, message_id: int) -> None:
        """The interaction answered with the match's message: its token reaches it."""
        self._reach[match_id] = reach_of(interaction, message_id)

    def reach(self, match_id: str, message_id: int) -> Reach | None:
        """A token that still reaches the match's message ``message_id``, if any."""
        found = self._reach.get(match_id)
        return found if fresh(found) and found[MESSAGE] == message_id else None  # type: ignore[index]

    def lose_reach(self, match_id: str, reach: Reach) -> None:
        """Discord refused an edit through ``reach``: the budgeted edit it is then."""
        if self._reach.get(match_id) == reach:
            del self._reach[match_id]

    @contextlib.contextmanager
    def answering(self, match_id: str) -> Iterator[None]:
        """A click is changing the table and will answer with it: the presenter's edit
        waits for that answer (``answered``) and then sends only what it did not show."""
        future = asyncio.get_running_loop().create_future()
        self._answering.setdefault(match_id, []).append(future)
        try:
            yield
        finally:
            future.set_result(None)
            waiting = self._answering[match_id]
            waiting.remove(future)
            if not waiting:
                del self._answering[match_id]

    async def answered(self, match_id: str) -> None:
        """Once no click is answering with this match's table."""
        while waiting := self._answering.get(match_id):
            await asyncio.wait(list(waiting))

    def edit(
        self, match_id: str, message_id: int, drawn: Drawn
    ) -> tuple[dict[str, Any], Showing] | None:
        """The keyword arguments that make the message show ``drawn``, and what it shows
        then; None when it shows that already."""
        shown = self._of.get(match_id)
        if shown is not None and shown.message_id != message_id:
            shown = None
        text = text_digest(drawn)  # before the view is sent: sending empties it
        if drawn.late:  # the message goes on showing its picture until the new one comes
            kept = shown.attachment if shown is not None else None
            picture = shown.picture if shown is not None and kept is not None else NO_PICTURE
            return drawn.edited(kept), Showing(message_id, None, picture)
        picture = picture_digest(drawn.picture)
        if shown is not None and (shown.text, shown.picture) == (text, picture):
            return None
        kept = shown.attachment if shown is not None and shown.picture == picture else None
        return drawn.edited(kept), Showing(message_id, text, picture)

    def showing(self, drawn: Drawn) -> Showing:
        """What a message posted with ``drawn`` shows (taken before it is sent: sending
        empties its view), for ``remember`` once it is posted."""
        return Showing(0, text_digest(drawn), picture_digest(drawn.picture))

    def remember(self, record: MatchRecord, message: discord.Message, showing: Showing) -> None:
        """The message now shows ``showing``."""
        attachment = next((a for a in message.attachments if a.filename == TABLE_FILE), None)
        picture = showing.picture if attachment is not None else NO_PICTURE
        self._of[record.match_id] = replace(
            showing, message_id=message.id, picture=picture, attachment=attachment
        )

    def forget(self, match_id: str) -> None:
        self._of.pop(match_id, None)
        self._reach.pop(match_id, None)


NO_PICTURE = (0, 0)


def picture_digest(png: bytes | None) -> tuple[int, int]:
    """What tells two pictures apart, for this process only: Python's own hash of the
    bytes (kept in the bytes object; hashlib would let go of the GIL for a long input,
    and under load the loop then waited for it up to the switch interval)."""
    return (len(png), hash(png)) if png is not None else NO_PICTURE


def text_digest(drawn: Drawn) -> int:
    """What tells two drawings of a message apart, but for their picture."""
    view = drawn.view
    components = [item.to_component_dict() for item in view.children] if view else None
    embeds = [embed.to_dict() for embed in drawn.embeds]
    return hash(json.dumps([drawn.content, embeds, components], sort_keys=True, default=str))
