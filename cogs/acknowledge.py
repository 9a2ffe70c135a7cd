"""A click is acknowledged within Discord's 3 seconds even when its answer takes longer.

Under overload a move may wait its turn for longer than Discord waits for the first answer
to a click (3 s, then "This interaction failed" and the answer is refused). Every click's
``interaction.response`` is a ``PromptResponse``: if the handler has not answered by
``ACK_WITHIN``, the click is acknowledged for it (a deferred update: nothing changes on
screen), and the handler's answer, when it comes, edits the clicked message or follows up
instead. Handlers are written as if they were always on time.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import UserError
from games.core.text import t

# Seconds a click's handler may take before the click is acknowledged for it: Discord's 3
# less a margin for a busy event loop and the acknowledgement's own trip.
ACK_WITHIN = 1.5
# Moves under way from which a click is acknowledged at once: behind that many its answer
# will be slow, and under overload a timer set for later fires late (a loaded event loop,
# a long garbage collection), so the acknowledgement must not wait for one.
BUSY_FROM = 8
# Interactions being answered (this one included) from which a click is acknowledged at
# once: a backlog of clicks that are no moves (hands opened, lobbies) holds the event loop
# as surely. At 1,000 tables hand views waited behind each other while fewer than 8 moves
# ran, their 1.5 s timers fired late, and 2,866 clicks were refused.
CLICKS_BUSY_FROM = 24


@dataclass(frozen=True)
class LateAnswer:
    """What a late answer returns in place of Discord's callback response: the message it
    sent or edited, as ``InteractionCallbackResponse.resource`` is."""

    resource: discord.Message


class PromptResponse(discord.InteractionResponse):  # type: ignore[type-arg]
    """``interaction.response`` that may have been acknowledged for its handler (``late``):
    then ``send_message`` follows up, ``edit_message`` edits the clicked message."""

    def __init__(self, parent: discord.Interaction) -> None:
        super().__init__(parent)
        self._turn = asyncio.Lock()  # the acknowledgement and the handler's answer, in turn
        self.late = False

    async def acknowledge(self) -> None:
        """The handler is slow: acknowledge the click now (a no-op if it has answered)."""
        async with self._turn:
            if not self.is_done():
                await super().defer()
                self.late = True

    async def defer(self, **kwargs: Any) -> Any:
        async with self._turn:
            if not self.late:
                return await super().defer(**kwargs)
        return None

    async def send_message(self, *args: Any, **kwargs: Any) -> Any:
        async with self._turn:
            if not self.late:
                return await super().send_message(*args, **kwargs)
        delete_after = kwargs.pop("delete_after", None)
        message = await self._parent.followup.send(*args, wait=True, **kwargs)
        if delete_after is not None:
            await message.delete(delay=delete_after)
        return LateAnswer(message)

    async def edit_message(self, **kwargs: Any) -> Any:
        async with self._turn:
            if not self.late:
                return await super().edit_message(**kwargs)
        delete_after = kwargs.pop("delete_after", None)
        message = await self._parent.edit_original_response(**kwargs)
        if delete_after is not None:
            await message.delete(delay=delete_after)
        return LateAnswer(message)

    async def send_modal(self, modal: discord.ui.Modal) -> Any:
        async with self._turn:
            if not self.late:
                return await super().send_modal(modal)
        raise UserError(t("That took too long to open: press it again."))


def prompt_response(interaction: discord.Interaction) -> PromptResponse | None:
    """Give a click a ``PromptResponse`` (other interactions keep discord.py's own: a slash
    command that may be slow defers itself, choosing whether its answer is private)."""
    if getattr(interaction, "type", None) is not discord.InteractionType.component:
        return None
    response = PromptResponse(interaction)
    interaction._cs_response = response  # type: ignore[attr-defined]  # see let_go
    return response


async def acknowledged_in_time(
    interaction: discord.Interaction, work: Any, *, urgent: bool = False
) -> None:
    """Run a click's handler, acknowledging the click for it if it is slow; ``urgent``:
    its turn comes before the others waiting (``cogs.components.waited_on``)."""
    response = prompt_response(interaction)
    if response is None:
        await work
        return
    if _busy(interaction):
        # Sent before the handler's first step, not as a task queued behind the backlog.
        await _send_acknowledgement(response)
    watchdog = asyncio.get_running_loop().call_later(ACK_WITHIN, _acknowledge, response)
    runtime = getattr(getattr(interaction, "client", None), "runtime", None)
    try:
        # Its turn among the clicks at work (CLICKS_AT_ONCE): one that must wait for it was
        # acknowledged above, CLICKS_BUSY_FROM being fewer.
        async with runtime.click_turn(urgent) if runtime is not None else contextlib.nullcontext():
            await work
    finally:
        watchdog.cancel()


def _busy(interaction: discord.Interaction) -> bool:
    client = getattr(interaction, "client", None)
    service, runtime = getattr(client, "service", None), getattr(client, "runtime", None)
    return (
        getattr(service, "moves_under_way", 0) >= BUSY_FROM
        or getattr(runtime, "answers_under_way", 0) >= CLICKS_BUSY_FROM
    )


_ACKNOWLEDGING: set[asyncio.Task[None]] = set()  # kept until done (the loop holds weak refs)


def _acknowledge(response: PromptResponse) -> None:
    task = asyncio.ensure_future(_send_acknowledgement(response))
    _ACKNOWLEDGING.add(task)
    task.add_done_callback(_ACKNOWLEDGING.discard)


async def _send_acknowledgement(response: PromptResponse) -> None:
    # Too late already: the handler's answer, refused too, says so in the log.
    with contextlib.suppress(discord.HTTPException):
        await response.acknowledge()
