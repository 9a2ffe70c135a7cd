"""METRICS_PORT: Prometheus figures and /healthz from a bot playing through the harness."""

from __future__ import annotations

import logging
import socket
from datetime import timedelta
from pathlib import Path

import aiohttp
import discord
from aiohttp import web
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.client import CookieJar
from bot.config import Settings
from bot.metrics import Metrics
from tests.discord.conftest import make_a_move, open_game


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_metrics_count_interactions_moves_and_store_calls(fake, db: Path, caplog) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.client")
    port = free_port()
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="fake-token",
        database_url=f"sqlite:///{db}",
        bot_delay=0,
        table_edit_interval=0,
        metrics_port=port,
    )
    ana = fake.add_user("ana")
    async with fake.running(CookieJar(settings)) as bot, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{port}"
        async with http.get(f"{base}/healthz") as health:
            assert (health.status, await health.text()) == (200, "ok\n")
        await open_game(fake, "cover_your_assets", ana, bots=3)
        for _ in range(4):  # Ana plays whenever it is her turn; bots play the rest
            await make_a_move(fake, ana)
        match = (await bot.store.open_matches())[0]
        async with http.get(f"{base}/metrics") as scrape:
            seen = samples(await scrape.text())
    clicks = sum(1 for i in fake.interactions if i.type == 3)
    logged = [r.getMessage() for r in caplog.records if r.name == "bot.client"]
    assert f"interaction application_command play by {ana.id} in {fake.guild_id}" in logged
    assert sum(m.startswith("interaction component cj:") for m in logged) == clicks
    assert seen[("cookie_jar_interactions_total", (("kind", "command"),))] == 1  # /play
    assert seen[("cookie_jar_interactions_total", (("kind", "component"),))] == clicks > 4
    assert seen[("cookie_jar_active_matches", ())] == 1
    # Every move, Ana's and the bots', counted once and saved once.
    saves = seen[("cookie_jar_store_seconds_count", (("operation", "save_action"),))]
    assert match.version > 0
    assert seen[("cookie_jar_moves_total", (("outcome", "played"),))] == saves == match.version
    assert seen[("cookie_jar_version_conflicts_total", ())] == 0


async def test_answers_table_edits_and_rate_limits_are_read_from_discord_replies() -> None:
    """discord.py's HTTP session carries the trace: Discord's replies, here from a tiny
    local server, are sorted into answers (with their latency), message edits and 429s."""
    replies = iter([429, 200])

    async def edit(_: web.Request) -> web.Response:
        return web.Response(status=next(replies), text="{}")

    async def callback(_: web.Request) -> web.Response:
        return web.Response(status=204)

    app = web.Application()
    app.add_routes(
        [
            web.patch("/api/v10/channels/{c}/messages/{m}", edit),
            web.post("/api/v10/interactions/{i}/{token}/callback", callback),
        ]
    )
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    metrics = Metrics()
    created = discord.utils.time_snowflake(discord.utils.utcnow() - timedelta(seconds=2.5))
    base = f"http://127.0.0.1:{port}/api/v10"
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.trace_config()]) as http:
            for _ in range(2):  # a 429, then the retry goes through
                async with http.patch(f"{base}/channels/1/messages/2"):
                    pass
            async with http.post(f"{base}/interactions/{created}/token/callback"):
                pass
    finally:
        await runner.cleanup()
    seen = samples(generate_latest(metrics.registry).decode())
    assert seen[("cookie_jar_rate_limit_waits_total", (("method", "PATCH"),))] == 1
    assert seen[("cookie_jar_message_edits_total", (("outcome", "ok"),))] == 1
    assert seen[("cookie_jar_message_edits_total", (("outcome", "rate_limited"),))] == 1
    assert seen[("cookie_jar_interaction_answers_total", (("outcome", "ok"),))] == 1
    # Answered 2.5 s after the interaction was created: past the 2 s bucket.
    assert seen[("cookie_jar_interaction_seconds_bucket", (("le", "2.0"),))] == 0
    assert seen[("cookie_jar_interaction_seconds_count", ())] == 1
