"""The bot process: start-up in ``setup_hook`` (store, service, bots, cogs, commands)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from aiohttp import web
from discord.ext import commands

from bot import collector
from bot.bots import BotDriver
from bot.config import Settings
from bot.known_settings import KnownSettings
from bot.metrics import Metrics, serve
from bot.outbox import Outbox, RefusalsSaid
from bot.permissions import invite_url
from bot.rate_buckets import sweep_by_the_clock
from bot.runtime import DRAIN_WAIT, Runtime
from bot.scheduler import Scheduler
from bot.service import MatchService
from bot.service.ratings import Ratings
from bot.service.schedules import Schedules
from bot.service.tournaments import Tournaments
from bot.store import Store, Timer, open_store
from bot.unclaimed import answer_unclaimed
from bot.web.paths import WebLinks
from games.core.words import plural

log = logging.getLogger(__name__)

# Background tasks a drain does not wait for (``spawn``'s names, or their prefixes): the
# process's own loops, and mentions held while their players look (``Pings``), which wait
# for a moment, not for work under way.
NOT_WORK = ("scheduler", "collector", "ping-later:")

# The client loads cogs by name: bot/ never imports cogs/. The table comes first, as the
# presenter it makes is where the others post tables (see cogs.table.presenter_of).
EXTENSIONS = (
    "cogs.table.extension",
    "cogs.play",
    "cogs.rules",
    "cogs.settings",
    "cogs.history",
    "cogs.onboarding",
    "cogs.decks",
    "cogs.ratings",
    "cogs.tournaments",
    "cogs.seasons",
)


class CookieJar(commands.Bot):
    store: Store
    service: MatchService
    bots: BotDriver
    scheduler: Scheduler
    ratings: Ratings
    tournaments: Tournaments
    schedules: Schedules

    def __init__(self, settings: Settings) -> None:
        metrics = Metrics() if settings.metrics_port else None
        super().__init__(
            http_trace=metrics.trace_config() if metrics is not None else None,
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            # Nobody is pinged by accident: only the users a message means to mention.
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            help_command=None,
            **self.shard_options(settings),
        )
        self.settings = settings
        self.metrics = metrics
        # Every budgeted request waits for its slot of this process's share.
        self.outbox = Outbox(settings.request_share)
        self.outbox.install(self.http)
        sweep_by_the_clock(self.http)
        self._refusals = RefusalsSaid(self.outbox)
        self._refusals.install()
        self._metrics_server: web.AppRunner | None = None
        self._web_server: web.AppRunner | None = None
        self._background: set[asyncio.Task[object]] = set()
        self._said_hello = False
        self._collector: collector.FreezeSurvivors | None = None
        self.dynamic_items: list[type[discord.ui.DynamicItem[Any]]] = []
        self.draining = False
        self._drain: asyncio.Task[None] | None = None

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, object]:
        return {}

    async def setup_hook(self) -> None:
        self.store = open_store(
            self.settings.database_url,
            self.settings.shards,
            connections=self.settings.database_connections,
        )
        await self.store.connect()
        if self.metrics is not None:
            self.metrics.watch_store(self.store)
        self.runtime = Runtime(
            self.store,
            cache_mb=self.settings.match_cache_mb,
            bot_delay=self.settings.bot_delay,
            thinkers=self.settings.bot_thinkers,
            think_cap=self.settings.bot_think_seconds,
        )
        self.service = self.runtime.service
        self.bots = self.runtime.bots
        self.ratings = self.runtime.ratings
        self.tournaments = self.runtime.tournaments
        self.schedules = self.runtime.schedules
        self.seasons = self.runtime.seasons
        self.scheduler = self.runtime.scheduler
        self.known_settings = KnownSettings(self.service.guild_settings)
        self.web_links = WebLinks(self.settings.site_url, self.known_settings)
        if self.metrics is not None and self.settings.metrics_port:
            self.metrics.watch_service(self.service)
            self._metrics_server = await serve(
                self.metrics, self.store, self.is_ready, self.settings.metrics_port
            )
        if self.settings.web_port:
            from bot.web.app import serve_beside  # only a bot serving pages loads Jinja

            self._web_server, on_change = await serve_beside(
                self.store, self.service.games, self.service, self.settings.web_port
            )
            self.service.listeners.append(on_change)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()
        # Bots, ratings and tournament results left by a stop; a process stopping beside
        # this one (a rolling restart) names what it leaves.
        await self.runtime.resume()
        # One task sleeps until the next deadline; overdue timers fire at once.
        self.spawn(self.scheduler.run(), "scheduler")
        self._collector = collector.settle(
            freeze=self.settings.gc_freeze, thresholds=self.settings.gc_thresholds
        )
        if self._collector is not None:
            self.spawn(collector.pace(self._collector), "collector")

    async def fire(self, timer: Timer) -> None:
        await self.runtime.fire(timer)

    def request_drain(self) -> None:
        """SIGTERM's handler. The drain's task is not one of ``spawn``'s, which ``close``
        cancels: the drain calls ``close`` itself."""
        if self._drain is None:
            self._drain = asyncio.create_task(self.drain(), name="drain")

    async def drain(self, *, moves_wait: float = DRAIN_WAIT) -> None:
        """Stop without dropping anything (SIGTERM; a rolling restart): the runtime's drain
        (no new timers, the moves under way end, pending bots handed over), then the tables'
        edits and pings those moves asked for, then the gateway sessions close. A process
        serving the same shards takes over from the database."""
        if self.draining:
            return
        self.draining = True
        log.info("draining: no new timers; finishing the moves under way")
        await self.runtime.drain(moves_wait)
        work = {t for t in self._background if not t.get_name().startswith(NOT_WORK)}
        if work:
            await asyncio.wait(work, timeout=moves_wait)
        log.info("drained: closing")
        await self.close()

    async def sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def on_ready(self) -> None:
        # on_ready fires again after every reconnect: the line is said once, at start-up.
        if self._said_hello:
            return
        self._said_hello = True
        user = self.user
        servers = plural(len(self.guilds), "server")
        invite = invite_url(self.application_id or (user.id if user else 0))
        log.info("Logged in as %s in %s; invite: %s", user, servers, invite)

    def spawn(self, coro: object, name: str) -> asyncio.Task[object]:
        """A fire-and-forget task that is kept alive and can be awaited by tests."""
        task = asyncio.create_task(coro, name=name)  # type: ignore[arg-type]
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # Which command or component, never its values: no hand ever reaches a log.
        data = interaction.data or {}
        what = data.get("name") or data.get("custom_id") or ""
        log.debug(
            "interaction %s %s by %s in %s",
            interaction.type.name,
            what,
            interaction.user.id,
            interaction.guild_id,
        )
        if self.metrics is not None:
            self.metrics.on_interaction(interaction)
        await answer_unclaimed(interaction, self.dynamic_items)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.dynamic_items.extend(items)  # for a click on a component gone from its message

    async def close(self) -> None:
        self._refusals.uninstall()  # the loggers are the process's, not this client's
        if self._metrics_server is not None:
            await self._metrics_server.cleanup()
        if self._web_server is not None:
            await self._web_server.cleanup()  # live tables' streams end, then the port closes
        if hasattr(self, "bots"):
            await self.bots.close()
        if hasattr(self, "ratings"):
            await self.ratings.idle()  # the matches that just ended (else sweep, next start)
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
        if self._collector is not None:
            self._collector.remove()


class ShardedCookieJar(CookieJar, commands.AutoShardedBot):
    """One process of several: it serves SHARD_IDS of SHARD_COUNT shards. The store then
    resumes bots and fires timers only for matches of those shards' guilds, so each match's
    table is edited by the one process Discord sends its guild's events to."""

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, object]:
        shards = settings.shards
        assert shards is not None
        return {"shard_count": shards.count, "shard_ids": sorted(shards.ids)}


def make_client(settings: Settings) -> CookieJar:
    """Without SHARD_COUNT, one process as always; with it, an AutoShardedBot."""
    if settings.shards is None:
        return CookieJar(settings)
    return ShardedCookieJar(settings)
