"""The web pages in a real browser: Debian's headless Chromium over the DevTools Protocol
(devtools/browser.py). Every page kind opens without a console error at a phone's width
and a desktop's, a live table follows a move made through the service, a replay steps
with the arrow keys, the bracket and the standings read in the page are the store's, and
a name written
as markup shows as text. Skipped without Chromium, except under CI=true (.ci/run installs
it). Screenshots go to $WEB_SCREENSHOTS when set (to look at them)."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from bot.service import MatchService
from bot.service.tournaments.models import points_text, read_view
from bot.web.app import LIVE
from bot.web.pages import percent
from devtools.browser import HOW_TO_GET_IT, Page, browser, chromium_path
from games import GAMES
from tests.conftest import IN_CI
from tests.web.conftest import (
    XSS,
    an_event,
    elimination_event,
    every_page_kind,
    finished_match,
    one_move,
    opt_in,
    running_match,
)

WIDTHS = {"phone": 390, "desktop": 1280}


@pytest.fixture
async def page() -> AsyncIterator[Page]:
    path = chromium_path()
    if path is None:
        if IN_CI:
            pytest.fail(f"CI=true: the browser tests must run ({HOW_TO_GET_IT}; .ci/run does)")
        pytest.skip(HOW_TO_GET_IT)
    async with browser(path) as opened:
        yield opened


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
    # (pages.percent): the values and their order are checked here, not their format.
    breakers = [name for name, _ in view.standings[0].tiebreakers]
    assert breakers and head == ["#", "Player", "Points", *breakers], json.dumps(head)
    expected = [
        [
            str(s.rank),
            view.name(s.player),
            points_text(s.points),
            *(percent(value) for _, value in s.tiebreakers),
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
    await page.resize(WIDTHS["phone"], mobile=True)
    await page.open(str(web.make_url(f"{root}/event/{tid}")))
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
