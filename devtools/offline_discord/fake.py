"""The FakeDiscord facade: run a bot against the fake, inject faults, read what users see."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from typing import Any
from unittest import mock

import discord
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

from devtools.offline_discord.actions import Actions
from devtools.offline_discord.clock import _FakeClock, _real_monotonic
from devtools.offline_discord.logs import ErrorLogCapture, _format_records
from devtools.offline_discord.model import (
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeUser,
)
from devtools.offline_discord.scheduled_events import ScheduledEvents
from devtools.offline_discord.settle import _counting_execute, _db_choke_points
from devtools.offline_discord.transport import _make_http_patches, _make_webhook_patch
from devtools.offline_discord.wire import Fault

_active_fake: FakeDiscord | None = None
LOGIN_SECONDS = 120.0  # real seconds a loaded machine may take to log a bot in (migrations)


class FakeDiscord(Actions, ScheduledEvents):
    """An in-memory Discord with one guild; see the package docstring."""

    @contextlib.asynccontextmanager
    async def running(
        self, bot: discord.Client, *, token: str = "fake-token", check_errors: bool = True
    ) -> AsyncIterator[discord.Client]:
        """Log ``bot`` in against this fake, make it ready, yield it, then shut it down.

        On exit the bot is closed and every task created since entering (background loops,
        view timeouts, ...) is cancelled, as if the process had stopped; recorded messages,
        commands and users stay, so another bot instance can be run on the same fake.

        With ``check_errors`` the block fails if an ERROR was logged by discord.py or project
        loggers while it ran (the records are kept in :attr:`error_logs` either way).
        """
        global _active_fake
        if _active_fake is not None:
            raise RuntimeError("another FakeDiscord is already running a bot")
        tasks_before = asyncio.all_tasks()
        capture = ErrorLogCapture()
        self.error_logs = capture.records
        clock = _FakeClock(self._clock_offset)
        async with contextlib.AsyncExitStack() as stack:
            _active_fake = self
            stack.callback(self._deactivate)
            capture.install()
            stack.callback(capture.uninstall)
            clock.install()
            self._clock = clock
            stack.callback(clock.uninstall)
            static_login, request = _make_http_patches(self._answer)
            stack.enter_context(mock.patch.object(HTTPClient, "static_login", static_login))
            stack.enter_context(mock.patch.object(HTTPClient, "request", request))
            stack.enter_context(
                mock.patch.object(AsyncWebhookAdapter, "request", _make_webhook_patch(self._handle))
            )
            for owner, name in _db_choke_points():
                stack.enter_context(
                    mock.patch.object(owner, name, _counting_execute(getattr(owner, name)))
                )
            stack.push_async_callback(self._shutdown, bot, tasks_before)
            self._bot = bot
            # Logging in runs setup_hook (the guild is not known to the bot yet). It goes in
            # fake time as the bot's other work does: its requests may wait for a slot of
            # the bot's request budget, a second each in real time under a test's small one.
            # Settle may find the loop idle while login waits on what it cannot see (a
            # thread starting), and then the next timers are not its: it looks again.
            login = asyncio.ensure_future(bot.login(token))
            deadline = _real_monotonic() + LOGIN_SECONDS
            while not login.done() and _real_monotonic() < deadline:
                await self.settle(baseline=tasks_before, until=login, timeout=LOGIN_SECONDS)
                await asyncio.wait([login], timeout=0.01)
            await login
            state = bot._connection
            guild = state._add_guild_from_data(self._guild_json())  # type: ignore[arg-type]
            state.dispatch("connect")
            state.dispatch("guild_available", guild)
            state.call_handlers("ready")
            state.dispatch("ready")
            await self.settle(baseline=tasks_before)
            yield bot
            await self.settle()
        if check_errors:
            capture.assert_clean()

    def _deactivate(self) -> None:
        global _active_fake
        _active_fake = None
        self._bot = None
        if self._clock is not None:
            self._clock_offset = self._clock.offset
        self._clock = None

    async def _shutdown(self, bot: discord.Client, tasks_before: set[asyncio.Task[Any]]) -> None:
        if not bot.is_closed():
            await bot.close()
        current = asyncio.current_task()
        leftovers = [
            t for t in asyncio.all_tasks() - tasks_before if t is not current and not t.done()
        ]
        for task in leftovers:
            task.cancel()
        if leftovers:
            await asyncio.wait(leftovers, timeout=2)

    def fail(
        self,
        method: str,
        path: str,
        status: int,
        code: int = 0,
        message: str = "",
        *,
        times: int = 1,
        retry_after: float | None = None,
        timeout: bool = False,
    ) -> Fault:
        """The next ``times`` requests ``method`` + ``path`` (a regex, matched in full) fail
        as Discord would fail them: ``status``/``code`` (``retry_after`` for a 429), or
        with a client-side timeout (``asyncio.TimeoutError``). Returns the fault, whose
        ``struck`` counts the requests it failed."""
        fault = Fault(method, re.compile(path), status, code, message, times, retry_after, timeout)
        self.faults.append(fault)
        return fault

    def public_messages(self, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Non-ephemeral, non-deleted messages of ``channel`` (default: general), oldest first."""
        channel = channel or self.general
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.channel_id == channel.id and m.visible_to is None and not m.deleted
        ]

    def ephemerals(self, user: FakeUser) -> list[FakeMessage]:
        """Ephemeral messages shown to ``user``, newest last."""
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.visible_to == user.id and m.ephemeral and not m.deleted
        ]

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """Messages the bot sent to ``user`` in DMs, oldest first."""
        ids = {c.id for c in self.channels.values() if c.type == 1 and c.recipient_id == user.id}
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.channel_id in ids and not m.deleted
        ]

    def last_interaction(self, user: FakeUser) -> FakeInteraction:
        try:
            return self._last_interaction[user.id]
        except KeyError:
            raise LookupError(f"{user.name} has not interacted yet") from None

    def last_reply(self, user: FakeUser) -> FakeMessage:
        """The latest message created/edited in answer to ``user``'s last interaction."""
        interaction = self.last_interaction(user)
        for message_id in reversed(interaction.reply_ids):
            msg = self.messages[message_id]
            if not msg.deleted and msg.visible_to in (None, user.id):
                return msg
        raise AssertionError(
            f"{user.name}'s last interaction {interaction.name!r} got no visible reply "
            f"(response type {interaction.response_type})"
        )

    def modals(self, user: FakeUser) -> list[FakeModal]:
        return list(self._modals.get(user.id, []))

    def last_modal(self, user: FakeUser) -> FakeModal:
        try:
            return self._modals[user.id][-1]
        except (KeyError, IndexError):
            raise LookupError(f"no modal was shown to {user.name}") from None

    def all_public_text(self) -> list[str]:
        """Every string that was ever publicly visible: all versions of all public messages
        (content, embed texts, component labels/options/texts) and public thread names."""
        return list(self._public_text)

    def assert_clean(self) -> None:
        """No rejected requests, no unacknowledged interactions, no logged errors."""
        problems = [f"rejected: {r}" for r in self.rejections]
        problems += [
            f"never acknowledged: {i.name!r} by {i.user.name}"
            for i in self.interactions
            if not i.acknowledged
        ]
        if self.error_logs:
            problems.append(f"logged errors:\n{_format_records(self.error_logs)}")
        if problems:
            raise AssertionError("\n".join(problems))
