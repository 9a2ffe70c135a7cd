"""The web pages through aiohttp's test client: opt-in, the path, every page kind, escaping,
the headers, the rate limit, the live table and the crawl that finds no secret."""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import re
import sqlite3

from aiohttp.test_utils import TestClient

from bot.service import MatchService
from bot.web.app import COMPRESS_FROM, EVENTS
from bot.web.paths import site_root
from bot.web.security import CSP, Buckets
from devtools.moves import any_move
from games import GAMES
from tests.web.conftest import (
    ANA,
    BEN,
    GUILD,
    MOD,
    XSS,
    an_event,
    elimination_event,
    every_page_kind,
    finished_match,
    links,
    one_move,
    one_of_everything,
    opt_in,
    rate,
    rated,
    running_match,
    serve,
)

ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


async def get_text(web: TestClient, path: str, status: int = 200) -> str:
    response = await web.get(path)
    assert response.status == status, (path, response.status)
    return await response.text()


async def test_a_server_that_did_not_opt_in_serves_nothing(
    service: MatchService, web: TestClient
) -> None:
    match_id = await running_match(service)
    guessed = site_root(GUILD, "A" * 24)
    for tail in ("/", f"/table/{match_id}", f"/table/{match_id}/picture.png"):
        assert (await web.get(guessed + tail)).status == 404
    root = await opt_in(service)
    assert (await web.get(root + "/")).status == 200
    assert (await web.get(guessed + "/")).status == 404  # a wrong token still finds nothing
    assert (await web.get(site_root(GUILD + 1, root.rsplit("/", 1)[1]) + "/")).status == 404
    await service.set_guild_defaults(GUILD, MOD, {"web": False})
    for tail in ("/", f"/table/{match_id}"):
        assert (await web.get(root + tail)).status == 404


async def test_renewing_the_path_closes_the_old_one_at_once(
    service: MatchService, web: TestClient
) -> None:
    old = await opt_in(service)
    assert (await web.get(old + "/")).status == 200
    renewed = await service.set_guild_defaults(GUILD, MOD, {"web_renew": True})
    new = site_root(GUILD, renewed.web_token)
    assert new != old
    assert (await web.get(old + "/")).status == 404
    assert (await web.get(new + "/")).status == 200
    # Turning the page off and on again keeps the renewed path.
    await service.set_guild_defaults(GUILD, MOD, {"web": False})
    again = await service.set_guild_defaults(GUILD, MOD, {"web": True})
    assert again.web_token == renewed.web_token


async def test_every_page_kind_renders_and_every_name_shows_escaped(
    service: MatchService, web: TestClient
) -> None:
    pages = await every_page_kind(service)
    root = pages["front"].removesuffix("/")
    running = pages["table"].rsplit("/", 1)[1]
    done = pages["replay"].rsplit("/", 1)[1]
    tid = pages["event"].rsplit("/", 1)[1]
    shown = {kind: await get_text(web, path) for kind, path in pages.items()}
    for kind, page in shown.items():
        assert XSS not in page and "<img src=x" not in page, kind
        assert ESCAPED in page, kind
    assert f"/table/{running}" in shown["front"] and f"/event/{tid}" in shown["front"]
    assert f"/player/{BEN.user_id}" in shown["front"]  # the leaderboard links the player
    assert "Waiting on" in shown["table"]
    assert 'class="top"' in shown["table-picture"] and 'class="top"' not in shown["broadcast"]
    assert 'class="step"' in shown["replay"] and 'id="step"' in shown["replay"]
    assert "OMW%" in shown["event"] and "Round 1" in shown["event"]
    # One rated match: said in a sentence, not one dot in an empty chart.
    assert "One rated match so far: 1,120." in shown["player"]
    assert "<polyline" not in shown["player"]
    assert "replay" in shown["finished-table"]
    # A match of another server, a lobby, an unknown step: not found.
    assert (await web.get(f"{root}/replay/{running}")).status == 404
    assert (await web.get(f"{root}/replay/{done}/99999.png")).status == 404
    assert (await web.get(f"{root}/player/424242")).status == 404
    assert (await web.get(f"{root}/event/ffffffff")).status == 404


async def test_a_picturing_game_serves_its_public_table_picture(
    service: MatchService, web: TestClient
) -> None:
    root = await opt_in(service)
    braverse = await running_match(service, channel_id=11, game="braverse")
    picture = await web.get(f"{root}/table/{braverse}/picture.png")
    assert picture.status == 200 and picture.content_type == "image/png"
    assert (await picture.read()).startswith(b"\x89PNG")
    page = await get_text(web, f"{root}/table/{braverse}")
    assert 'id="picture"' in page and 'data-picture="' in page
    # The picture opens full size: a link to this version's picture, said under it.
    drawn = f"{root}/table/{braverse}/picture.png?v=0"
    assert f'<a id="picture-link" class="picture-link" href="{drawn}"><img id="picture"' in page
    assert f'src="{drawn}"' in page and "see it full size" in page
    assert "see it full size" not in await get_text(web, f"{root}/table/{braverse}?broadcast=1")
    done = await finished_match(service)
    replay = await get_text(web, f"{root}/replay/{done}")
    assert f'<a class="picture-link" href="{root}/replay/{done}/1.png">' in replay


async def test_every_answer_carries_the_security_headers(
    service: MatchService, web: TestClient
) -> None:
    root = await opt_in(service)
    for path in (f"{root}/", "/static/site.css", "/static/site.js", "/nothing", f"{root}/x"):
        response = await web.get(path)
        assert response.headers["Content-Security-Policy"] == CSP, path
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "default-src 'none'" in CSP and "unsafe-inline" not in CSP
    # Read-only: nothing but GET (and HEAD) is routed.
    assert (await web.post(f"{root}/")).status == 405


async def test_too_many_requests_from_one_address_are_answered_429(
    service: MatchService,
) -> None:
    now = [0.0]
    client = await serve(service, Buckets(rate=1.0, burst=3.0, clock=lambda: now[0]))
    try:
        statuses = [(await client.get("/static/site.css")).status for _ in range(3)]
        assert statuses == [200, 200, 200]
        refused = await client.get("/static/site.css")
        assert refused.status == 429 and refused.headers["Retry-After"] == "1"
        now[0] += 1.0  # a second later the bucket holds one request again
        assert (await client.get("/static/site.css")).status == 200
    finally:
        await client.close()


async def next_event(stream: object) -> dict[str, object]:
    """The next Server-Sent Event's data (keep-alive comments skipped)."""
    content = stream.content  # type: ignore[attr-defined]
    while True:
        line = await asyncio.wait_for(content.readline(), 30)  # a guard, not a timing
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            return json.loads(line[6:])  # type: ignore[no-any-return]


async def test_the_live_table_gets_one_render_per_move_fanned_out_to_every_viewer(
    service: MatchService, web: TestClient
) -> None:
    root = await opt_in(service)
    match_id = await running_match(service)
    streams = [await web.get(f"{root}/table/{match_id}/live") for _ in range(5)]
    assert all(s.headers["Content-Type"].startswith("text/event-stream") for s in streams)
    first = [await next_event(s) for s in streams]
    version = first[0]["version"]
    from bot.web.app import LIVE

    watched = web.server.app[LIVE]._watched[match_id]
    renders = watched.renders
    assert await one_move(service, match_id) is not None
    after = [await next_event(s) for s in streams]
    assert {a["version"] for a in after} == {version + 1}  # type: ignore[operator]
    assert watched.renders == renders + 1  # one render, five viewers
    assert len({json.dumps(a) for a in after}) == 1
    assert ESCAPED in str(after[0]["html"]) and XSS not in str(after[0]["html"])
    for stream in streams:
        stream.close()


async def test_a_renewed_path_ends_the_live_streams_opened_through_the_old_one(
    service: MatchService, web: TestClient
) -> None:
    root = await opt_in(service)
    match_id = await running_match(service)
    stream = await web.get(f"{root}/table/{match_id}/live")
    await next_event(stream)
    await service.set_guild_defaults(GUILD, MOD, {"web_renew": True})
    await one_move(service, match_id)
    while line := await asyncio.wait_for(stream.content.readline(), 30):
        assert not line.startswith(b"data: "), "a stream of the old path got a new table"


async def crawl(web: TestClient, root: str) -> dict[str, bytes]:
    """Every page and picture reachable from the front page, by path; a live stream's
    first event."""
    seen: dict[str, bytes] = {}
    todo = [f"{root}/"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        response = await web.get(path)
        assert response.status == 200, path
        if path.endswith("/live"):
            seen[path] = (await response.content.readline()) + await response.content.readline()
            response.close()
            continue
        body = await response.read()
        seen[path] = body
        if response.content_type == "text/html":
            page = body.decode()
            todo += sorted(links(page, root))
            if "/table/" in path and "broadcast" not in path:
                todo.append(path + "?broadcast=1")
    return seen


def scramble_running(db: str, match_id: str) -> None:
    """The running match's hidden cards and seed re-dealt, as the contract's secrets
    scramble does (``scramble_hidden``, and a new seed: it foretells every later shuffle):
    only what nobody at the table may see changes."""
    rng = random.Random(99)
    with sqlite3.connect(db) as connection:
        game_key, state_json = connection.execute(
            "SELECT game, state FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        game = GAMES[game_key]
        state = game.load_state(state_json)
        twin = game.scramble_hidden(state, None, rng)
        twin.seed = rng.getrandbits(63)
        hidden = {"seed"}
        assert twin.model_dump_json(exclude=hidden) != state.model_dump_json(exclude=hidden), (
            f"{game_key}: nothing was hidden to scramble"
        )
        connection.execute(
            "UPDATE matches SET state = ?, seed = ? WHERE id = ?",
            (twin.model_dump_json(), twin.seed, match_id),
        )


async def test_a_crawl_from_the_front_page_finds_no_secret_of_a_running_match(
    service: MatchService, database_url: str
) -> None:
    # A crawler fetches every replay step at once, where a browser loads the one shown:
    # no limit per address here.
    unlimited = Buckets(burst=1e9)
    web = await serve(service, unlimited)
    server = await one_of_everything(service)  # a running match of every game, under way
    root, running = server.root, server.running
    assert running.keys() == GAMES.keys()
    try:
        before = await crawl(web, root)
    finally:
        await web.close()
    front = before[f"{root}/"].decode()
    for match_id in running.values():
        table = f"{root}/table/{match_id}"
        assert table in front and {f"{table}?broadcast=1", f"{table}/live"} <= before.keys()
        assert any(path.startswith(f"{table}/picture.png?v=") for path in before)
    assert any(f"/replay/{server.done}/" in path for path in before)
    assert any(path.startswith(f"{root}/event/{server.bracket}/bracket.png") for path in before)
    for match_id in running.values():
        seed = str((await service.get(match_id)).seed)
        assert all(seed.encode() not in body for body in before.values())
        scramble_running(database_url.removeprefix("sqlite:///"), match_id)
        service._forget(match_id)  # the service reads the scrambled row like any other
    fresh = await serve(service, unlimited)  # nothing kept rendered from before
    try:
        after = await crawl(fresh, root)
    finally:
        await fresh.close()
    assert after.keys() == before.keys()
    changed = sorted(path for path, body in before.items() if after[path] != body)
    assert not changed, f"these changed with the secrets: {changed}"


async def test_run_alone_the_pages_follow_moves_by_polling_the_database(
    service: MatchService, database_url: str
) -> None:
    """``python -m bot web``: another process's moves reach the live table by the poll of
    the watched matches' versions (here the service stands for the bot's process)."""
    import aiohttp
    from aiohttp.test_utils import unused_port

    from bot.web.app import serve_alone

    root = await opt_in(service)
    match_id = await running_match(service)
    port, stop = unused_port(), asyncio.Event()
    alone = asyncio.create_task(serve_alone(database_url, port, stop))
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(600):  # until it listens (a guard, not a timing)
                try:
                    front = await session.get(f"http://127.0.0.1:{port}{root}/")
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.05)
            assert front.status == 200 and match_id in await front.text()
            stream = await session.get(f"http://127.0.0.1:{port}{root}/table/{match_id}/live")
            version = (await next_event(stream))["version"]
            assert await one_move(service, match_id) is not None
            assert (await next_event(stream))["version"] == version + 1  # type: ignore[operator]
            stream.close()
    finally:
        stop.set()
        await alone


async def test_an_elimination_event_shows_its_bracket_drawn(
    service: MatchService, web: TestClient
) -> None:
    from bot.service.tournaments.drawn import bracket_drawn
    from bot.service.tournaments.models import read_view

    root = await opt_in(service)
    tid = await elimination_event(service)
    page = await get_text(web, f"{root}/event/{tid}")
    assert "Bracket" in page and "/bracket.png" in page and ESCAPED in page
    picture = await web.get(f"{root}/event/{tid}/bracket.png")
    assert picture.status == 200 and picture.content_type == "image/png"
    finished = await service.store.get_tournament(tid)
    assert finished is not None and finished.status == "finished"
    view = await read_view(service.store, GAMES[finished.game], finished)
    assert await picture.read() == bracket_drawn(view)  # the bracket as the store has it
    # A Swiss event has no bracket: no picture, no empty frame.
    swiss = await an_event(service)
    assert "Bracket" not in await get_text(web, f"{root}/event/{swiss}")
    assert (await web.get(f"{root}/event/{swiss}/bracket.png")).status == 404


async def test_a_swiss_top_cut_round_is_not_counted_among_the_swiss_rounds(
    service: MatchService, web: TestClient
) -> None:
    root = await opt_in(service)
    tid = await elimination_event(service, format="swiss", players=4, top_cut=2)
    event = await service.store.get_tournament(tid)
    assert event is not None and event.status == "finished"
    page = await get_text(web, f"{root}/event/{tid}")
    planned = event.round - 1  # the Swiss rounds, then the top cut's final
    assert f"round {event.round}" in page and f"of {planned}" not in page


async def test_a_finished_tables_page_says_it_is_over_and_links_its_replay(
    service: MatchService, web: TestClient
) -> None:
    root = await opt_in(service)
    running = await running_match(service)
    done = await finished_match(service)
    over = await get_text(web, f"{root}/table/{done}")
    assert f'This match is over · <a href="{root}/replay/{done}">watch the replay</a>.' in over
    assert "follows the table by itself" not in over
    assert (await web.get(f"{root}/replay/{done}")).status == 200  # the link leads somewhere
    playing = await get_text(web, f"{root}/table/{running}")
    # (The over sentences wait in the turn line's data attributes for the script: not said.)
    assert "follows the table by itself" in playing and ">This match is over" not in playing
    # The page's script links the replay when the match ends while watched: it knows where.
    assert f'data-replay-url="{root}/replay/{running}"' in playing


def test_a_rating_curve_is_drawn_with_its_range_labelled_and_said_for_one_match() -> None:
    from bot.web.pages import curve_svg
    from bot.web.reader import Curve

    one = curve_svg(Curve("Toss", [(1.0, 1120)]))
    assert one.sentence == "One rated match so far: 1,120." and one.points == ""
    drawn = curve_svg(Curve("Toss", [(1.0, 1000), (2.0, 1120), (3.0, 880)]))
    assert drawn.sentence == ""
    labels = [label for _, label in drawn.grid if label]
    assert labels == [1120, 880]  # the highest at the top, the lowest on the baseline
    heights = {label: float(y) for y, label in drawn.grid if label}
    xs, ys = zip(*(map(float, p.split(",")) for p in drawn.points.split()), strict=True)
    assert ys[1] == heights[1120] == drawn.top and ys[2] == heights[880] == drawn.bottom
    assert xs[0] == drawn.left and xs[-1] == drawn.right
    assert drawn.ticks == ("match 1", "match 3")
    level = curve_svg(Curve("Toss", [(1.0, 1000), (2.0, 1000)]))
    assert [label for _, label in level.grid] == [1000]


async def test_a_players_page_draws_a_curve_of_two_rated_matches(
    service: MatchService, web: TestClient
) -> None:
    root = await opt_in(service)
    first = await finished_match(service)
    second = await finished_match(service, channel_id=21)
    await rate(service, first)
    again = rated(second, BEN.user_id, 1, 1185).model_copy(update={"at": 1_700_000_100.0})
    await service.store.save_match_ratings([again.model_copy(update={"games_after": 2})])
    page = await get_text(web, f"{root}/player/{BEN.user_id}")
    assert "One rated match" not in page and page.count('class="dot"') == 2
    assert ">1,185</text>" in page and ">1,120</text>" in page and ">match 2</text>" in page
    assert "1,185 now · 2 rated matches · from 1,120 to 1,185" in page
    # Each language writes the ratings its own way: 1.185 in Spanish and Portuguese.
    for language in ("es", "pt_BR"):
        await service.set_guild_defaults(GUILD, MOD, {"language": language})
        page = await get_text(web, f"{root}/player/{BEN.user_id}")
        assert ">1.185</text>" in page and ">1.120</text>" in page and "1,1" not in page


async def test_a_tables_page_names_the_game_once_where_its_panel_does(
    service: MatchService, web: TestClient
) -> None:
    root = await opt_in(service)
    match_id = await running_match(service)
    page = await get_text(web, f"{root}/table/{match_id}")
    # Our heading names the players; the game's panel (and picture) name the game.
    assert f'<h1 class="seated">Ana · {ESCAPED} · 🤖 Abe · 🤖 Bea</h1>' in page
    panel = page.split('<section class="panel', 1)[1]
    assert "Cover Your Assets" in panel.split("</h2>", 1)[0]
    assert page.split("<main>", 1)[1].count("Cover Your Assets") == 1
    # A game whose panel does not name it: the heading does.
    from dataclasses import replace

    from bot.web.app import LIVE, READER, TEMPLATES
    from games.core.panels import Panel

    app = web.server.app
    watched = app[LIVE].get(await service.get(match_id))
    assert watched is not None
    site = await app[READER].site(GUILD, root.rsplit("/", 1)[1])
    unnamed = replace(watched.now, panels=(Panel(title="Round 1"),))
    text = (
        app[TEMPLATES]
        .get_template("table.html")
        .render(site=site, now=unnamed, fragment="", broadcast=False)
    )
    assert f'<h1 class="seated">Cover Your Assets: Ana · {ESCAPED}' in text


async def test_an_events_card_on_the_front_page_says_its_format(
    service: MatchService, web: TestClient
) -> None:
    from bot.web.reader import format_name

    root = await opt_in(service)
    tid = await an_event(service)
    front = await get_text(web, f"{root}/")
    card = front.split(f'href="{root}/event/{tid}">', 1)[1].split("</a>", 1)[0]
    assert "<span>running · round 1 · Swiss</span>" in card
    event = await service.store.get_tournament(tid)
    assert event is not None
    assert format_name(event.model_copy(update={"config": '{"format": "gone"}'})) == ""


async def test_a_page_goes_gzipped_to_a_browser_that_takes_it_and_plain_to_one_that_does_not(
    service: MatchService, web: TestClient
) -> None:
    """Every page kind. The event page, which every viewer fetches again every 5 s, is
    compressed once and kept so; the others as they are sent, unless too short to gain."""
    pages = await every_page_kind(service)
    packed_kinds = set()
    for kind, path in pages.items():
        plain = await web.get(path, headers={"Accept-Encoding": "identity"})
        assert plain.status == 200, kind
        assert "Content-Encoding" not in plain.headers, kind
        assert plain.headers["Vary"] == "Accept-Encoding", kind
        text = await plain.text()
        packed = await web.get(path, headers={"Accept-Encoding": "gzip"}, auto_decompress=False)
        assert packed.headers["Vary"] == "Accept-Encoding", kind
        assert packed.headers["Content-Security-Policy"] == CSP, kind
        body = await packed.read()
        if len(text) < COMPRESS_FROM and kind != "event":
            assert "Content-Encoding" not in packed.headers and body.decode() == text, kind
            continue
        assert packed.headers["Content-Encoding"] == "gzip", kind
        assert gzip.decompress(body).decode() == text, kind
        packed_kinds.add(kind)
        if kind == "event":  # the bytes kept, not compressed again
            (kept,) = (
                drawn for _, _, drawn in web.server.app[EVENTS].values() if drawn.text == text
            )
            assert body == kept.gzipped
        if kind == "replay":
            assert len(body) * 5 < len(text.encode()), (len(body), len(text))
    assert {"front", "table", "replay", "event", "bracket"} <= packed_kinds


async def test_a_finished_events_card_names_its_winner_read_once(
    service: MatchService, web: TestClient
) -> None:
    from bot.service.tournaments.models import read_view

    root = await opt_in(service)
    running = await an_event(service)
    done = await elimination_event(service)
    event = await service.store.get_tournament(done)
    assert event is not None and event.status == "finished"
    winner = (await read_view(service.store, GAMES[event.game], event)).champion()
    assert winner is not None
    front = await get_text(web, f"{root}/")

    def card(tid: str) -> str:
        return front.split(f'href="{root}/event/{tid}">', 1)[1].split("</a>", 1)[0]

    shown = winner.name.replace("<", "&lt;").replace(">", "&gt;")
    assert f'<span class="champion">🏆 won by {shown}</span>' in card(done)
    assert "won by" not in card(running)
    # Read once: a finished event takes no change, so the store is not asked again.
    reads = 0
    results = service.store.results

    async def counted(tournament_id: str) -> list:
        nonlocal reads
        reads += 1
        return await results(tournament_id)

    service.store.results = counted  # type: ignore[method-assign]
    assert card(done) in await get_text(web, f"{root}/")
    assert reads == 0


async def test_a_players_page_lists_their_events_with_the_place_a_finished_one_gave(
    service: MatchService, web: TestClient
) -> None:
    from bot.service.tournaments.models import read_view
    from bot.store.tournament_records import EntrantRecord
    from games.core.words import ordinal

    root = await opt_in(service)
    await finished_match(service)  # Ana and Ben have sat down here: their pages exist
    done = await an_event(service)  # Ana, Ben, Basil, Ginger; Ben and Ginger won round 1
    event = await service.store.get_tournament(done)
    assert event is not None
    await service.store.save_tournament(event.model_copy(update={"status": "finished"}))
    running = event.model_copy(update={"tournament_id": "beef5678", "created_at": 1.8e9})
    await service.store.create_tournament(running)
    await service.store.save_entrant(
        EntrantRecord(
            tournament_id="beef5678", entrant=1, user_id=BEN.user_id, name="Ben", joined_at=1.8e9
        )
    )
    finished = await service.store.get_tournament(done)
    assert finished is not None
    view = await read_view(service.store, GAMES[finished.game], finished)
    rank = {view.entrant(s.player).user_id: s.rank for s in view.standings}

    def rows(page: str) -> list[str]:
        if "<h2>Tournaments</h2>" not in page:
            return []
        block = page.split("<h2>Tournaments</h2>", 1)[1].split("</table>", 1)[0]
        return [row.split("</tr>", 1)[0] for row in block.split("<tr>")[2:]]

    ben = rows(await get_text(web, f"{root}/player/{BEN.user_id}"))
    assert len(ben) == 2  # newest first: the running one, then the finished one
    assert '<td class="nowrap">running</td>' in ben[0] and "/event/beef5678" in ben[0]
    won = "🏆 " if rank[BEN.user_id] == 1 else ""
    assert f'<td class="nowrap">{won}{ordinal(rank[BEN.user_id])} of 4</td>' in ben[1]
    assert "Cover Your Assets · Swiss" in ben[1] and f"/event/{done}" in ben[1]
    ana = rows(await get_text(web, f"{root}/player/{ANA.user_id}"))
    assert len(ana) == 1 and f"{ordinal(rank[ANA.user_id])} of 4</td>" in ana[0]
    assert rank[ANA.user_id] > 1 and "🏆" not in ana[0]  # Ana lost round 1


async def test_the_front_pages_leaderboard_ranks_equal_ratings_alike(
    service: MatchService, web: TestClient
) -> None:
    """Ana and Ben both at 1,120 share first place; Mod, below them, is third (ranked
    one below the other, equals read as better and worse)."""
    root = await opt_in(service)
    done = await finished_match(service)
    await service.store.save_match_ratings(
        [rated(done, BEN.user_id, 1, 1120), rated(done, ANA.user_id, 1, 1120)]
    )
    other = await finished_match(service, channel_id=21)
    await service.store.save_match_ratings([rated(other, MOD.user_id, 2, 900)])
    page = await get_text(web, f"{root}/")
    board = page[page.index("<caption>Cookie Chomper</caption>") :]
    ranks = [cell.split("<td>")[1] for cell in board.split("<tr>")[2:5]]
    assert ranks == ["1</td>", "1</td>", "3</td>"]


async def test_a_players_page_says_when_it_lists_only_their_latest_matches(
    service: MatchService, web: TestClient, monkeypatch
) -> None:
    """A regular's page lists their latest matches, and says so and where the rest are,
    instead of passing the first of them off as all."""
    monkeypatch.setattr("bot.web.reader.PLAYER_MATCHES", 2)
    root = await opt_in(service)
    for channel in (20, 21, 22):
        await finished_match(service, channel_id=channel)
    page = await get_text(web, f"{root}/player/{ANA.user_id}")
    assert page.count("/replay/") == 2
    assert "The latest 2 of 3. In Discord, /history user:Ana lists them all." in page
    monkeypatch.setattr("bot.web.reader.PLAYER_MATCHES", 3)
    assert "The latest" not in await get_text(web, f"{root}/player/{ANA.user_id}")


async def test_names_with_markdown_characters_and_brackets_read_as_written(
    service: MatchService, web: TestClient
) -> None:
    """Names kept as written (issue 38) show as written: no character lost, none turned
    into emphasis, on the live table and, played out, on the replay and the player page."""
    from bot.service import Person

    names = ("dark_knight", "Ana (EU)", "김철수 🍪", XSS)
    people = [Person(user_id=500 + n, name=name) for n, name in enumerate(names)]
    record = await service.open_lobby(
        guild_id=GUILD, channel_id=77, host=people[0], game_key="cookie_chomper"
    )
    for person in people[1:]:
        await service.join(record.match_id, person)
    await service.start(record.match_id, people[0])
    root = await opt_in(service)
    table = await get_text(web, f"{root}/table/{record.match_id}")
    for name in names[:3]:
        assert name in table, name
    assert ESCAPED in table and XSS not in table and "darkknight" not in table
    for _ in range(5000):
        if (await service.get(record.match_id)).status == "finished":
            break
        await any_move(service, record.match_id, [p.user_id for p in people])
    replay = await get_text(web, f"{root}/replay/{record.match_id}")
    player = await get_text(web, f"{root}/player/{people[1].user_id}")
    for name in names[:3]:
        assert name in replay, name
    assert "Ana (EU)" in player and ESCAPED in replay and XSS not in replay


async def test_the_front_page_shows_each_division_of_the_running_season(
    service: MatchService, web: TestClient
) -> None:
    from bot.service.seasons import Seasons
    from bot.service.tournaments import Tournaments

    root = await opt_in(service)
    seasons = Seasons(service, Tournaments(service))
    season = await seasons.set_up(
        GUILD,
        "cookie_chomper",
        MOD,
        length="4 weeks",
        divisions=2,
        size=2,
        role_id=None,
        role_places=0,
        channel_id=5,
    )
    done = await finished_match(service)
    during = season.starts_at + 60
    await service.store.save_match_ratings(
        [
            rated(done, BEN.user_id, 1, 1120).model_copy(update={"at": during}),
            rated(done, ANA.user_id, 2, 880).model_copy(update={"at": during}),
        ]
    )
    page = await get_text(web, f"{root}/")
    block = page[page.index("<h2>Seasons</h2>") : page.index("<h2>Leaderboards</h2>")]
    assert "Cookie Chomper · season 1" in block
    first, second = block.split("<caption>Division 2</caption>")
    # Both were newcomers: the lowest division holds them, the first has nobody yet.
    assert "Nobody in this division yet." in first
    assert second.index(f"/player/{BEN.user_id}") < second.index(f"/player/{ANA.user_id}")
    assert "<td>100</td><td>1</td><td>1</td>" in second


async def test_a_group_event_shows_its_groups_round_by_round(
    service: MatchService, web: TestClient
) -> None:
    root = await opt_in(service)
    tid = await elimination_event(service, format="groups", game="cookie_chomper", players=9)
    finished = await service.store.get_tournament(tid)
    assert finished is not None and finished.status == "finished"
    page = await get_text(web, f"{root}/event/{tid}")
    # Nine in groups near six: 5 and 4, the best two of each to the last group.
    assert "Round 1 · 2 groups, the best 2 of each go on" in page
    assert "Group 1" in page and "Group 2" in page
    assert "Round 2 · the last group" in page and "Last group" in page
    assert "→" in page and "★" in page
    # The groups have a heading of their own, not the bracket's.
    assert "<h2>Groups</h2>" in page and "<h2>Bracket</h2>" not in page
    # The standings say where each place comes from: the last group's order first, then
    # those out in round 1 by their place in their group, each with that round's points.
    block = page[page.index("<h2>Standings</h2>") : page.index("<h2>Pairings</h2>")]
    assert "<th>#</th><th>Player</th><th>Reached</th><th>Points</th>" in block
    reached = re.findall(r"<tr><td>(\d+)</td><td>[^<]*</td><td>([^<]*)</td><td>[\d.]+</td>", block)
    assert reached == [
        ("1", "Round 2, last group: 1st"),
        ("2", "Round 2, last group: 2nd"),
        ("3", "Round 2, last group: 3rd"),
        ("4", "Round 2, last group: 4th"),
        ("5", "Round 1, group 1: 3rd"),
        ("6", "Round 1, group 2: 3rd"),
        ("7", "Round 1, group 1: 4th"),
        ("8", "Round 1, group 2: 4th"),
        ("9", "Round 1, group 1: 5th"),
    ]
    picture = await web.get(f"{root}/event/{tid}/bracket.png")
    assert picture.status == 200 and picture.content_type == "image/png"
