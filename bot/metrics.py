"""``METRICS_PORT``: Prometheus metrics at ``/metrics`` and a liveness probe at ``/healthz``.

Measured where it costs nothing to the code it watches: interactions as discord.py
dispatches them; their answers, table edits and rate limits from discord.py's HTTP session
(an aiohttp trace: an answer's latency runs from the interaction's snowflake time to
Discord's reply to our callback); moves from the service's changes; every store call's
latency (and each version conflict) by timing the store's methods; active matches and
pending timers counted from the store when scraped.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.service import Change, MatchService
from bot.store import Store, VersionConflict

log = logging.getLogger(__name__)

_KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
    discord.InteractionType.autocomplete: "autocomplete",
}


_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
_MESSAGE = re.compile(r"/channels/\d+/messages/\d+$")


def outcome(status: int) -> str:
    return "ok" if status < 400 else "rate_limited" if status == 429 else "error"


class Metrics:
    def __init__(self) -> None:
        # A registry of its own: two clients in one process (tests) never clash.
        self.registry = CollectorRegistry()
        self.interactions = Counter(
            "cookie_jar_interactions", "Interactions received", ["kind"], registry=self.registry
        )
        self.moves = Counter(
            "cookie_jar_moves", "Moves applied", ["outcome"], registry=self.registry
        )
        self.conflicts = Counter(
            "cookie_jar_version_conflicts",
            "Saves refused because another writer moved the match first",
            registry=self.registry,
        )
        self.store_seconds = Histogram(
            "cookie_jar_store_seconds",
            "Store call latency",
            ["operation"],
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
            registry=self.registry,
        )
        self.active = Gauge(
            "cookie_jar_active_matches", "Running matches this process owns", registry=self.registry
        )
        self.timers = Gauge(
            "cookie_jar_pending_timers", "Timers waiting to fire", registry=self.registry
        )
        self.answers = Counter(
            "cookie_jar_interaction_answers",
            "Interaction callbacks by Discord's reply",
            ["outcome"],
            registry=self.registry,
        )
        self.answer_seconds = Histogram(
            "cookie_jar_interaction_seconds",
            "From the interaction's creation to Discord accepting our answer (limit: 3 s)",
            buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0),
            registry=self.registry,
        )
        self.table_edits = Counter(
            "cookie_jar_message_edits", "Message edits", ["outcome"], registry=self.registry
        )
        self.rate_limited = Counter(
            "cookie_jar_rate_limit_waits",
            "Requests Discord answered 429 (discord.py waits and retries)",
            ["method"],
            registry=self.registry,
        )

    def trace_config(self) -> aiohttp.TraceConfig:
        """For ``discord.Client(http_trace=...)``: every REST call and interaction answer."""
        trace = aiohttp.TraceConfig()

        async def on_end(
            _: aiohttp.ClientSession, __: object, params: aiohttp.TraceRequestEndParams
        ) -> None:
            self.observe_request(params.method, params.url.path, params.response.status)

        trace.on_request_end.append(on_end)
        return trace

    def observe_request(self, method: str, path: str, status: int) -> None:
        if status == 429:
            self.rate_limited.labels(method).inc()
        if callback := _CALLBACK.search(path):
            self.answers.labels(outcome(status)).inc()
            created = discord.utils.snowflake_time(int(callback.group(1)))
            waited = (discord.utils.utcnow() - created).total_seconds()
            self.answer_seconds.observe(max(0.0, waited))
        elif method == "PATCH" and _MESSAGE.search(path):
            self.table_edits.labels(outcome(status)).inc()

    def watch_store(self, store: Store) -> None:
        """Time every call of the store interface (instance attributes shadow the methods)."""
        for name in sorted(Store.__abstractmethods__ - {"connect", "close"}):
            setattr(store, name, self._timed(name, getattr(store, name)))

    def _timed(
        self, name: str, method: Callable[..., Awaitable[Any]]
    ) -> Callable[..., Awaitable[Any]]:
        histogram = self.store_seconds.labels(name)

        @functools.wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            except VersionConflict:
                self.conflicts.inc()
                raise
            finally:
                histogram.observe(time.perf_counter() - start)

        return timed

    def watch_service(self, service: MatchService) -> None:
        async def on_change(change: Change) -> None:
            if change.kind in ("action", "finished"):
                self.moves.labels("timed_out" if change.timed_out is not None else "played").inc()

        service.listeners.append(on_change)

    def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions.labels(_KINDS.get(interaction.type, "other")).inc()

    async def refresh(self, store: Store) -> None:
        counts = await store.counts()
        self.active.set(counts["active_matches"])
        self.timers.set(counts["pending_timers"])


async def serve(
    metrics: Metrics, store: Store, ready: Callable[[], bool], port: int
) -> web.AppRunner:
    """Start the HTTP endpoint; the caller cleans the returned runner up."""

    async def scrape(_: web.Request) -> web.Response:
        try:
            await metrics.refresh(store)
        except Exception:
            log.exception("could not count matches for /metrics")
        return web.Response(
            body=generate_latest(metrics.registry), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def healthz(_: web.Request) -> web.Response:
        # Alive: connected to Discord and the database answers within two seconds.
        try:
            await asyncio.wait_for(store.counts(), timeout=2)
        except Exception:
            return web.Response(status=503, text="database unreachable\n")
        if not ready():
            return web.Response(status=503, text="not connected to Discord yet\n")
        return web.Response(text="ok\n")

    app = web.Application()
    app.add_routes([web.get("/metrics", scrape), web.get("/healthz", healthz)])
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, port=port).start()
    return runner
