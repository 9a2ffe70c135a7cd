"""``python -m tests.bot.bot_process``: the bot's own entry point (``python -m bot``, with
its signal handling and its child processes: picture drawers, thinking workers) run
against the offline Discord instead of the network. It prints ``ready`` once its children
are up, then runs until a signal ends it, as ``make run`` does."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

import bot.__main__ as entry
from bot.client import CookieJar
from devtools.offline_discord import FakeDiscord


def main() -> None:
    fake = FakeDiscord()

    async def start(self: CookieJar, token: str, *, reconnect: bool = True) -> None:
        """``Client.start``: logged in and ready through the fake, then connected until
        closed (``close`` ends the gateway's connection, and so ``start``)."""
        async with fake.running(self, token=token, check_errors=False):
            # As a lobby with a hard bot does: the thinking workers start.
            await self.bots.thinker.ready()
            print("ready", flush=True)
            while not self.is_closed():
                await asyncio.sleep(0.05)

    patched: Any = start
    discord.Client.start = patched  # type: ignore[method-assign]
    entry.main()


if __name__ == "__main__":
    main()
