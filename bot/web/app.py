"""The web page's aiohttp application: GET routes under each server's path, the static
files, and starting or stopping it beside the bot or alone."""

from __future__ import annotations

import asyncio
import gc
import gzip
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import jinja2
from aiohttp import web
from markupsafe import Markup

from bot.errors import UserError
from bot.service.base import Listener
from bot.service.history import History
from bot.service.tournaments.drawn import bracket_drawn
from bot.service.tournaments.models import view_of
from bot.store import Store, open_store
from bot.web import pages, words
from bot.web.live import LiveTables, Watched
from bot.web.reader import Reader, Site
from bot.web.security import Buckets, guarded, with_headers
from games.core.protocol import Game
from games.core.translations import ENGLISH

log = logging.getLogger(__name__)

READER = web.AppKey("reader", Reader)
LIVE = web.AppKey("live", LiveTables)
TEMPLATES = web.AppKey("templates", jinja2.Environment)
SERVER = "/s/{guild:[0-9]{1,20}}/{token:[A-Za-z0-9_-]{8,64}}"
PNG_HEADERS = {"Cache-Control": "no-store"}
EVENT_KEPT = 5.0  # seconds an event's rendered page is served again (results may come)
EVENTS_KEPT = 64
# Milliseconds between a running event page's looks for new results: each look is served
# from the page kept above, so viewers cost the bot a send each, never a computation.
EVENT_REFRESH_MS = 5_000
# Event -> ((event, path token, status, round), when rendered, its Drawn): the page's links
# carry the token, so a renewed path is rendered anew.
EVENTS = web.AppKey("events", dict)
# Below this a page is sent as it is: compressing saves less than a packet.
COMPRESS_FROM = 2_048

Page = Callable[[web.Request, Site], Awaitable[web.StreamResponse]]


def not_found() -> web.HTTPNotFound:
    return web.HTTPNotFound(text="Not found.\n")


def on_site(page: Page) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """Every page of a server: 404 unless it opted in and the token is its current one."""

    async def handler(request: web.Request) -> web.StreamResponse:
        reader = request.app[READER]
        site = await reader.site(int(request.match_info["guild"]), request.match_info["token"])
        if site is None:
            raise not_found()
        return await page(request, site)

    return handler


def html(request: web.Request, template: str, site: Site, **values: object) -> web.Response:
    """A page of ``site``, in its language."""
    page = request.app[TEMPLATES].get_template(template)
    return page_response(request, page.render(site=site, language=site.language, **values))


def page_response(request: web.Request, text: str, gzipped: bytes | None = None) -> web.Response:
    """A page, gzip-compressed for a browser that takes it: most of a page is repeated
    markup (a replay's 450 KB of steps send as 19 KB, compressed in 2 ms, on a phone's
    data). ``gzipped``: the page compressed once already, for a page many fetch."""
    headers = {"Vary": "Accept-Encoding"}
    if gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", "").lower():
        headers["Content-Encoding"] = "gzip"
        return web.Response(
            body=gzipped, content_type="text/html", charset="utf-8", headers=headers
        )
    response = web.Response(text=text, content_type="text/html", charset="utf-8", headers=headers)
    if len(text) >= COMPRESS_FROM:
        response.enable_compression()
    return response


def png(data: bytes | None) -> web.Response:
    if data is None:
        raise not_found()
    return web.Response(body=data, content_type="image/png", headers=PNG_HEADERS)


async def front(request: web.Request, site: Site) -> web.StreamResponse:
    found = await request.app[READER].front(site)
    return html(request, "front.html", site=site, front=found)


async def table(request: web.Request, site: Site) -> web.StreamResponse:
    record = await request.app[READER].match(site, request.match_info["match"])
    watched = None if record is None else request.app[LIVE].get(record)
    if watched is None:
        raise not_found()
    broadcast = request.query.get("broadcast") == "1"
    return html(
        request,
        "table.html",
        site=site,
        now=watched.now,
        fragment=Markup(watched.html),  # rendered once, by the template, autoescaped
        broadcast=broadcast,
    )


async def watched_table(request: web.Request, site: Site) -> Watched:
    """The match kept rendered: from memory when it is (every viewer's picture and stream
    would otherwise read the whole match), else read once."""
    match_id = request.match_info["match"]
    watched = request.app[LIVE].known(match_id, site.guild_id)
    if watched is None:
        record = await request.app[READER].match(site, match_id)
        watched = None if record is None else request.app[LIVE].get(record)
    if watched is None:
        raise not_found()
    return watched


async def table_picture(request: web.Request, site: Site) -> web.StreamResponse:
    watched = await watched_table(request, site)
    return png(await watched.picture())


async def live(request: web.Request, site: Site) -> web.StreamResponse:
    """Server-Sent Events: the table's fragment now, then after every change."""
    tables = request.app[LIVE]
    watched = await watched_table(request, site)
    watched.token = site.token
    response = with_headers(web.StreamResponse())
    response.content_type = "text/event-stream"
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not hold events
    await response.prepare(request)
    watched.viewers += 1
    try:
        async for event in watched.changes(tables.closed):
            if watched.token != site.token:
                break  # the path was renewed or the page turned off
            await response.write(event)
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    finally:
        watched.viewers -= 1
    return response


async def replay(request: web.Request, site: Site) -> web.StreamResponse:
    try:
        found = await request.app[READER].replay(site, request.match_info["match"])
    except UserError:
        raise not_found() from None
    steps = pages.replay_steps(found, request.app[READER].games[found.record.game])
    return html(request, "replay.html", site=site, replay=found, steps=steps)


async def replay_picture(request: web.Request, site: Site) -> web.StreamResponse:
    try:
        data = await request.app[READER].replay_picture(
            site, request.match_info["match"], int(request.match_info["step"])
        )
    except UserError:
        raise not_found() from None
    return png(data)


@dataclass(frozen=True)
class Drawn:
    """An event's page as sent (also compressed once: every viewer looks every 5 s) and
    its bracket picture."""

    text: str
    gzipped: bytes
    bracket: bytes | None


async def event_drawn(request: web.Request, site: Site) -> Drawn:
    """An event's page and bracket picture, kept for EVENT_KEPT seconds while its status
    and round stand: a 512-player Swiss's standings take far longer to compute than to
    send, and its viewers refresh together as results come in."""
    reader = request.app[READER]
    event = await reader.event(site, request.match_info["event"])
    if event is None:
        raise not_found()
    kept = request.app[EVENTS]
    key = (event.tournament_id, site.token, site.language, event.status, event.round)
    now = time.monotonic()
    found = kept.get(event.tournament_id)
    if found is None or found[0] != key or now - found[1] > EVENT_KEPT:
        records = await reader.event_records(event)
        env, game = request.app[TEMPLATES], reader.games[event.game]

        def render() -> Drawn:
            view = view_of(game, event, records)
            bracket = bracket_drawn(view, site.language)
            page = pages.event_page(view)
            text = env.get_template("event.html").render(
                site=site,
                language=site.language,
                event=page,
                bracket=bracket is not None,
                refresh=EVENT_REFRESH_MS if event.is_open else None,
            )
            return Drawn(text, gzip.compress(text.encode(), compresslevel=6), bracket)

        # Off the event loop: the bot's clicks go on while a large event is computed.
        found = kept[event.tournament_id] = (key, now, await asyncio.to_thread(render))
        while len(kept) > EVENTS_KEPT:
            kept.pop(next(iter(kept)))
    drawn: Drawn = found[2]
    return drawn


async def tournament(request: web.Request, site: Site) -> web.StreamResponse:
    drawn = await event_drawn(request, site)
    return page_response(request, drawn.text, drawn.gzipped)


async def bracket(request: web.Request, site: Site) -> web.StreamResponse:
    return png((await event_drawn(request, site)).bracket)


async def player(request: web.Request, site: Site) -> web.StreamResponse:
    found = await request.app[READER].player(site, int(request.match_info["user"]))
    if found is None:
        raise not_found()
    curves = [pages.curve_svg(curve) for curve in found.curves]
    return html(request, "player.html", site=site, player=found, curves=curves)


def templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bot.web", "templates"),
        autoescape=True,  # every string people wrote is escaped, whatever the file's name
        undefined=jinja2.StrictUndefined,
    )
    env.filters["discord"] = jinja2.pass_context(
        lambda context, text: pages.discord_text(text, context.get("language") or ENGLISH)
    )
    env.filters["when"] = pages.when
    env.filters["day"] = pages.day
    words.install(env)
    return env


def static_folder() -> Path:
    return Path(str(resources.files("bot.web") / "static"))


def make_app(reader: Reader, *, buckets: Buckets | None = None) -> web.Application:
    """The application; the caller feeds ``app[LIVE]`` changes (``on_change`` or ``poll``)."""
    app = web.Application(middlewares=[guarded(buckets or Buckets())])
    env = templates()
    app[READER] = reader
    app[EVENTS] = {}
    app[TEMPLATES] = env
    app[LIVE] = LiveTables(
        reader, lambda now: pages.table_text(env, now, reader.language(now.record.guild_id))
    )
    app.add_routes(
        [
            web.get(f"{SERVER}/", on_site(front)),
            web.get(SERVER + "/table/{match:[0-9a-f]{1,20}}", on_site(table)),
            web.get(SERVER + "/table/{match:[0-9a-f]{1,20}}/live", on_site(live)),
            web.get(SERVER + "/table/{match:[0-9a-f]{1,20}}/picture.png", on_site(table_picture)),
            web.get(SERVER + "/replay/{match:[0-9a-f]{1,20}}", on_site(replay)),
            web.get(
                SERVER + "/replay/{match:[0-9a-f]{1,20}}/{step:[0-9]{1,6}}.png",
                on_site(replay_picture),
            ),
            web.get(SERVER + "/event/{event:[0-9a-f]{1,20}}", on_site(tournament)),
            web.get(SERVER + "/event/{event:[0-9a-f]{1,20}}/bracket.png", on_site(bracket)),
            web.get(SERVER + "/player/{user:[0-9]{1,20}}", on_site(player)),
            web.static("/static", static_folder()),
        ]
    )
    app.on_shutdown.append(_close_streams)
    return app


async def _close_streams(app: web.Application) -> None:
    app[LIVE].close()


async def start(app: web.Application, port: int, host: str | None = None) -> web.AppRunner:
    """Serve ``app`` on ``port``; the caller cleans the returned runner up."""
    # No access log: it would print every server's secret path.
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    await web.TCPSite(runner, host=host, port=port).start()
    # What exists once serving starts (modules, games, templates) lives as long as the
    # process: kept out of the collector's full passes, which a large event's standings
    # (some 100,000 short-lived objects) set off, and each of which walked all of it.
    gc.freeze()
    return runner


async def serve_beside(
    store: Store, games: Mapping[str, Game], history: History, port: int
) -> tuple[web.AppRunner, Listener]:
    """In the bot's process: the pages, fed by the service's changes (the listener to add)."""
    app = make_app(Reader(store, games, history))
    return await start(app, port), app[LIVE].on_change


async def serve_alone(url: str, port: int, stop: asyncio.Event) -> None:
    """``python -m bot web``: the pages alone on the bot's database until ``stop``, the
    live tables fed by a poll of the watched matches' versions."""
    from games import GAMES

    store = open_store(url)
    await store.connect()
    try:
        app = make_app(Reader(store, GAMES, History(store, GAMES)))
        runner = await start(app, port)
        poll = asyncio.create_task(app[LIVE].poll(), name="web poll")
        log.info("serving the web pages on port %d", port)
        await stop.wait()
        app[LIVE].close()
        await runner.cleanup()
        await poll
    finally:
        await store.close()
