"""The web pages in a real browser: Debian's headless Chromium over the DevTools Protocol
(devtools/browser.py). Every page kind opens without a console error at a phone's width
and a desktop's, a live table follows a move made through the service, a replay steps
with the arrow keys, the bracket and the standings read in the page are the store's, and
a name written as markup shows as text. Skipped without Chromium, except under CI=true
(.ci/run installs it). Screenshots go to $WEB_SCREENSHOTS when set (to look at them)."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from bot.service import MatchService
from bot.service.tournaments.models import points_text, read_view
from bot.tournaments.tiebreakers import tiebreaker_text
from bot.web import app as web_app
from bot.web.app import EVENTS, LIVE
from bot.web.security import Buckets
from devtools.browser import HOW_TO_GET_IT, Chromium, Page, chromium_path, page_in
from games import GAMES
from tests.conftest import IN_CI
from tests.web.conftest import (
    XSS,
    an_event,
    decide,
    elimination_event,
    every_page_kind,
    finished_match,
    one_move,
    opt_in,
    play_out,
    running_match,
    serve,
)

WIDTHS = {"phone": 390, "desktop": 1280}


@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    """One browser for the test process: each test gets a page in a context of its own."""
    path = chromium_path()
    if path is None:
        if IN_CI:
            pytest.fail(f"CI=true: the browser tests must run ({HOW_TO_GET_IT}; .ci/run does)")
        pytest.skip(HOW_TO_GET_IT)
    started = Chromium(path)
    yield started
    started.stop()


@pytest.fixture
async def page(chromium: Chromium) -> AsyncIterator[Page]:
    async with page_in(chromium) as opened:
        yield opened


async def on_a_phone(page: Page, web: TestClient, path: str) -> None:
    await page.resize(WIDTHS["phone"], mobile=True)
    await page.open(str(web.make_url(path)))


def shots() -> Path | None:
    folder = os.environ.get("WEB_SCREENSHOTS")
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder)


async def test_every_page_kind_opens_cleanly_at_a_phone_and_a_desktop_width(
    service: MatchService, web: TestClient, page: Page
) -> None:
    pages = await every_page_kind(service)
    folder = shots()
    for width_name, width in WIDTHS.items():
        await page.resize(width, mobile=width_name == "phone")
        for name, path in pages.items():
            await page.open(str(web.make_url(path)))
            assert await page.evaluate("document.querySelectorAll('img[src=\"x\"]').length") == 0
            assert XSS in await page.evaluate("document.body.innerText"), name
            # Nothing wider than the screen but the tables that scroll on their own.
            overflow = await page.evaluate("document.documentElement.scrollWidth")
            assert overflow <= width, (name, width_name, overflow)
            if folder is not None:
                (folder / f"{name}-{width_name}.png").write_bytes(await page.screenshot())
    assert page.errors == []


async def test_a_live_table_follows_a_move_made_through_the_service(
    service: MatchService, web: TestClient, page: Page
) -> None:
    root = await opt_in(service)
    match_id = await running_match(service, game="braverse")
    await page.open(str(web.make_url(f"{root}/table/{match_id}")))
    before = int(await page.evaluate("document.body.dataset.version"))
    picture = await page.evaluate("document.getElementById('picture').src")
    watched = web.server.app[LIVE].get(await service.get(match_id))
    for _ in range(600):  # until the page's stream is open (a guard, not a timing)
        if watched is not None and watched.viewers:
            break
        await asyncio.sleep(0.05)
    assert watched is not None and watched.viewers == 1
    assert await one_move(service, match_id) is not None
    await page.until(f"document.body.dataset.version === '{before + 1}'")
    assert await page.evaluate("document.getElementById('picture').src") != picture
    # The link that opens the picture full size opens this version's.
    assert await page.evaluate(
        "document.getElementById('picture-link').href === document.getElementById('picture').src"
    )
    await page.until("document.getElementById('picture').complete")
    assert await page.evaluate("document.getElementById('picture').naturalWidth") > 0
    assert page.errors == []


async def test_a_replay_steps_with_the_arrow_keys_and_the_slider(
    service: MatchService, web: TestClient, page: Page
) -> None:
    root = await opt_in(service)
    done = await finished_match(service)
    await page.open(str(web.make_url(f"{root}/replay/{done}")))
    shown = (
        "[...document.querySelectorAll('article.step')]"
        ".filter(a => !a.hidden).map(a => a.dataset.step)"
    )
    assert await page.evaluate(shown) == ["0"]
    await page.press("ArrowRight")
    await page.press("ArrowRight")
    assert await page.evaluate(shown) == ["2"]
    await page.press("ArrowLeft")
    assert await page.evaluate(shown) == ["1"]
    assert "Step 1 of" in await page.evaluate("document.getElementById('step-label').textContent")
    last = await page.evaluate("document.getElementById('step').max")
    await page.evaluate(
        f"(s => {{ s.value = '{last}'; s.dispatchEvent(new Event('input')); }})"
        "(document.getElementById('step'))"
    )
    assert await page.evaluate(shown) == [str(last)]
    assert page.errors == []


async def test_the_standings_in_the_page_are_the_stores(
    service: MatchService, web: TestClient, page: Page
) -> None:
    root = await opt_in(service)
    tid = await an_event(service)
    await page.open(str(web.make_url(f"{root}/event/{tid}")))
    head = await page.evaluate(
        "[...document.querySelectorAll('table.standings thead th')].map(c => c.innerText.trim())"
    )
    rows = await page.evaluate(
        "[...document.querySelectorAll('table.standings tbody tr')]"
        ".map(r => [...r.cells].map(c => c.innerText.trim()))"
    )
    event = await service.store.get_tournament(tid)
    assert event is not None
    view = await read_view(service.store, GAMES[event.game], event)
    # Every tiebreak in the order it breaks, its value shown as the page shows values
    # (tiebreaker_text): the values and their order are checked here, not their format.
    breakers = [name for name, _ in view.standings[0].tiebreakers]
    assert breakers and head == ["#", "Player", "Points", *breakers], json.dumps(head)
    expected = [
        [
            str(s.rank),
            view.name(s.player),
            points_text(s.points),
            *(tiebreaker_text(name, value) for name, value in s.tiebreakers),
        ]
        for s in view.standings
    ]
    assert rows == expected, json.dumps(rows)
    pairings = await page.evaluate(
        "[...document.querySelectorAll('ul.pairings li')].map(li => li.innerText)"
    )
    assert any(XSS in line and "Ana" in line for line in pairings)
    assert page.errors == []


async def test_the_bracket_in_the_page_is_the_stores(
    service: MatchService, web: TestClient, page: Page
) -> None:
    root = await opt_in(service)
    tid = await elimination_event(service)
    await on_a_phone(page, web, f"{root}/event/{tid}")
    boxes = await page.evaluate(
        "[...document.querySelectorAll('.bracket-part .match')].map(m =>"
        " [...m.querySelectorAll('.row')].map(r =>"
        " [r.querySelector('.name').innerText, r.dataset.state]))"
    )
    # Every table the store holds a result of is a box: its players, the first placed
    # marked as going on and the other as out; nothing else is decided.
    names = {e.entrant: e.name for e in await service.store.entrants(tid)}
    expected = []
    for result in await service.store.results(tid):
        winner = result.players[result.places.index(1)]
        expected.append(
            sorted([names[p], "won" if p == winner else "lost"] for p in result.players)
        )
    decided = [sorted(rows) for rows in boxes if any(state == "won" for _, state in rows)]
    assert sorted(decided) == sorted(expected), json.dumps(boxes)
    assert len(decided) == len(boxes) == 3  # four players: two semi-finals and the final
    assert any(name == XSS for rows in boxes for name, _ in rows)
    assert await page.evaluate("document.documentElement.scrollWidth") <= WIDTHS["phone"]
    assert page.errors == []


async def test_a_running_events_page_shows_a_result_as_it_comes(
    service: MatchService, web: TestClient, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_app, "EVENT_REFRESH_MS", 100)  # not 5 s: the test would wait
    root = await opt_in(service)
    tid = await an_event(service, decided=1)
    await page.open(str(web.make_url(f"{root}/event/{tid}")))
    second = "[...document.querySelectorAll('ul.pairings li')][1].innerText"
    assert "playing" in await page.evaluate(second)
    await decide(service, tid, 2, [3, 4])
    web.server.app[EVENTS].clear()  # what the page's keeping (5 s) would let go of by itself
    await page.until(f"!{second}.includes('playing')")
    assert "1. Ginger, 2. Basil" in await page.evaluate(second)
    assert await page.evaluate("document.body.dataset.refresh") == "100"
    assert page.errors == []


def contrast(one: str, two: str) -> float:
    """WCAG's contrast ratio of two computed colours (``rgb(r, g, b)``)."""

    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in colour[colour.index("(") + 1 : -1].split(",")[:3]]
        lit = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lit[0] + 0.7152 * lit[1] + 0.0722 * lit[2]

    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def test_the_broadcast_layout_keeps_the_accents_and_reads_its_footnotes(
    service: MatchService, web: TestClient, page: Page
) -> None:
    root = await opt_in(service)
    match_id = await running_match(service, game="braverse")
    await page.open(str(web.make_url(f"{root}/table/{match_id}?broadcast=1")))
    sides = await page.evaluate(
        "[...document.querySelectorAll('.panel')].map(p => { const s = getComputedStyle(p);"
        " return [p.className, s.borderLeftColor, s.borderTopColor]; })"
    )
    accented = [(left, top) for name, left, top in sides if "accent-turn" in name]
    assert accented, sides
    assert all(left == "rgb(46, 125, 50)" != top for left, top in accented), sides
    feet = await page.evaluate(
        "[...document.querySelectorAll('.panel .foot')].map(f =>"
        " [getComputedStyle(f).color, getComputedStyle(f.closest('.panel')).backgroundColor])"
    )
    assert feet and all(contrast(ink, ground) >= 4.5 for ink, ground in feet), feet
    assert page.errors == []


async def test_a_table_that_ends_while_watched_says_so_and_links_its_replay(
    service: MatchService, page: Page
) -> None:
    # The match is played out at once, a picture a move: no limit per address here.
    web = await serve(service, Buckets(burst=1e9))
    try:
        root = await opt_in(service)
        match_id = await running_match(service, game="cookie_chomper")
        await page.open(str(web.make_url(f"{root}/table/{match_id}")))
        assert await page.evaluate("document.getElementById('follows') !== null")
        watched = web.server.app[LIVE].get(await service.get(match_id))
        for _ in range(600):  # until the page's stream is open (a guard, not a timing)
            if watched is not None and watched.viewers:
                break
            await asyncio.sleep(0.05)
        await play_out(service, match_id)
        await page.until("document.getElementById('turn').dataset.status === 'finished'")
        turn = await page.evaluate("document.getElementById('turn').innerText")
        assert turn == "This match is over · watch the replay.", turn
        link = await page.evaluate("document.querySelector('#turn a').href")
        assert link == str(web.make_url(f"{root}/replay/{match_id}"))
        assert await page.evaluate("document.getElementById('follows') === null")
        assert page.errors == []
    finally:
        await web.close()


async def edge_shades(page: Page, box: str) -> tuple[float, float]:
    """How dark the left and right inner edges of ``box`` are on screen (the median grey of
    a strip 4 px in from each side, over its height; 255 is white)."""
    from io import BytesIO

    from PIL import Image

    rect = await page.evaluate(
        f"(r => [r.left, r.right, r.top + scrollY, r.bottom + scrollY])"
        f"(document.querySelector({box!r}).getBoundingClientRect())"
    )
    left, right, top, bottom = (round(v) for v in rect)
    shot = Image.open(BytesIO(await page.screenshot())).convert("L")

    def median(x: int) -> float:
        column = sorted(shot.getpixel((x, y)) for y in range(top + 2, bottom - 2))
        return float(column[len(column) // 2])

    return median(left + 4), median(right - 5)


async def test_a_box_that_scrolls_sideways_shows_a_shadow_where_there_is_more(
    service: MatchService, web: TestClient, page: Page
) -> None:
    root = await opt_in(service)
    tid = await an_event(service)
    await on_a_phone(page, web, f"{root}/event/{tid}")
    box = ".scroll:has(> table.standings)"
    width = f"(b => [b.scrollWidth, b.clientWidth])(document.querySelector({box!r}))"
    wide, shown = await page.evaluate(width)
    assert wide > shown, "the standings fit a phone: nothing to hint"
    left, right = await edge_shades(page, box)
    assert right < left - 8, (left, right)  # more to the right: a shadow there, none left
    await page.evaluate(f"document.querySelector({box!r}).scrollLeft = {wide}")
    left, right = await edge_shades(page, box)
    assert left < right - 8, (left, right)  # scrolled to the end: the shadow is on the left
    assert page.errors == []


async def test_the_replay_controls_are_big_enough_to_touch_on_a_phone(
    service: MatchService, web: TestClient, page: Page
) -> None:
    root = await opt_in(service)
    done = await finished_match(service)
    await on_a_phone(page, web, f"{root}/replay/{done}")
    boxes = await page.evaluate(
        "Object.fromEntries(['back', 'step', 'forward'].map(id =>"
        " [id, (r => [r.left, r.right, r.height])(document.getElementById(id)"
        ".getBoundingClientRect())]))"
    )
    assert all(height >= 44 for _, _, height in boxes.values()), boxes
    # ◀ slider ▶ on one line, the slider taking what the buttons leave.
    back, step, forward = boxes["back"], boxes["step"], boxes["forward"]
    assert back[1] < step[0] and step[1] < forward[0] and forward[0] - back[1] < 300, boxes
    assert step[1] - step[0] > WIDTHS["phone"] - 200, boxes
    accent = await page.evaluate("getComputedStyle(document.getElementById('step')).accentColor")
    assert accent == "rgb(181, 101, 29)"  # the site's accent, not the browser's blue
    assert await page.evaluate("document.getElementById('back').disabled")  # at the deal
    assert page.errors == []


async def test_the_front_page_puts_the_leaderboards_beside_the_play_on_a_desktop(
    service: MatchService, web: TestClient, page: Page
) -> None:
    pages = await every_page_kind(service)
    where = (
        "['.front-play', '.front-boards'].map(s => (r => [r.left, r.right, r.top, r.bottom])"
        "(document.querySelector(s).getBoundingClientRect()))"
    )
    await page.resize(WIDTHS["desktop"], mobile=False)
    await page.open(str(web.make_url(pages["front"])))
    play, boards = await page.evaluate(where)
    assert play[1] < boards[0] and play[2] == boards[2], (play, boards)  # side by side
    await on_a_phone(page, web, pages["front"])
    play, boards = await page.evaluate(where)
    assert play[3] <= boards[2], (play, boards)  # one under the other
    assert page.errors == []


async def test_names_read_as_written_in_the_page_and_markup_stays_text(
    service: MatchService, web: TestClient, page: Page
) -> None:
    """Players named with markdown characters, brackets, markup, Hangul and emoji: the page
    a browser shows reads each name as written, and the markup makes no element."""
    from bot.service import Person

    names = ("dark_knight", "Ana (EU)", XSS, "김철수 🍪")
    people = [Person(user_id=600 + n, name=name) for n, name in enumerate(names)]
    record = await service.open_lobby(
        guild_id=1, channel_id=78, host=people[0], game_key="toss_your_cookies"
    )
    for person in people[1:]:
        await service.join(record.match_id, person)
    await service.start(record.match_id, people[0])
    root = await opt_in(service)
    await on_a_phone(page, web, f"{root}/table/{record.match_id}")
    shown = await page.evaluate("document.body.innerText")
    for name in names:
        assert name in shown, name
    assert await page.evaluate("document.querySelectorAll('img[src=\"x\"]').length") == 0
    assert await page.evaluate("document.querySelectorAll('em, strong img').length") == 0
    if (folder := shots()) is not None:
        (folder / "names-phone.png").write_bytes(await page.screenshot())
    assert page.errors == []
