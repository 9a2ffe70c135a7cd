"""The web pages on a SQLite store, through aiohttp's test client: a service to move the
matches, the app fed by its changes as in the bot's process."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import MatchService, Person
from bot.store.ratings import RatingChangeRecord
from bot.store.tournament_records import (
    EntrantRecord,
    ResultRecord,
    TournamentRecord,
    TournamentTable,
)
from bot.tournaments.config import TournamentConfig
from bot.web.app import LIVE, make_app
from bot.web.paths import site_root
from bot.web.reader import Reader
from bot.web.security import Buckets
from devtools.moves import any_move
from games import GAMES
from tests.bot.conftest import ANA, BEN, MOD, service, store

GUILD = 1
XSS = "<img src=x onerror=alert(1)>"  # a name people wrote, kept as written (issue 38)
# Ben, named with markup: the service keeps the name as written, the pages escape it.
MARKUP = Person(user_id=BEN.user_id, name=XSS)


@pytest.fixture
def backend() -> str:
    """The pages read through the store interface both backends share: SQLite suffices
    (and the crawl rewrites a row with sqlite3)."""
    return "sqlite"


async def serve(service: MatchService, buckets: Buckets | None = None) -> TestClient:
    """A client of a fresh app (its live tables empty), fed by the service's changes."""
    app = make_app(Reader(service.store, GAMES, service), buckets=buckets)
    service.listeners.append(app[LIVE].on_change)
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


@pytest.fixture
async def web(service: MatchService) -> AsyncIterator[TestClient]:
    client = await serve(service)
    yield client
    await client.close()


async def opt_in(service: MatchService, guild: int = GUILD) -> str:
    """Turn the server's page on; its root path."""
    settings = await service.set_guild_defaults(guild, MOD, {"web": True})
    return site_root(guild, settings.web_token)


async def running_match(
    service: MatchService, channel_id: int = 10, game: str = "cover_your_assets"
) -> str:
    """Ana, a player who named themselves with markup, and bots up to four seats, started."""
    record = await service.open_lobby(
        guild_id=GUILD, channel_id=channel_id, host=ANA, game_key=game
    )
    await service.join(record.match_id, MARKUP)
    for _ in range(min(4, GAMES[game].max_players) - 2):
        await service.add_bot(record.match_id, ANA)
    await service.start(record.match_id, ANA)
    return record.match_id


# Every hand of a game's state, by game key.
HANDS: dict[str, Callable[[Any], list[list[str]]]] = {
    "cover_your_assets": lambda state: [p.hand for p in state.players],
    "cover_your_cookies": lambda state: [p.hand for p in state.players],
    "toss_your_cookies": lambda state: state.hands,
    "cookie_chomper": lambda state: state.hands,
    "braverse": lambda state: [side.hand for side in state.sides],
}


def mid_scramble(state: Any) -> bool:
    """Toss: tossed cards lie face up in the middle and someone has grabbed one."""
    return state.phase == "scramble" and bool(state.scramble.middle) and any(state.grabbed)


# What a match must have come to, beyond hands that are no longer the deal's.
UNDER_WAY: dict[str, Callable[[Any], bool]] = {"toss_your_cookies": mid_scramble}


async def under_way(service: MatchService, match_id: str, least: int = 6) -> None:
    """Moves (at least ``least``) until every hand holds cards, the hands are no longer the
    deal's and the game's own mark of a match under way is reached (Toss: mid-scramble): the
    hidden cards a scramble re-deals are the play's, not the deal's."""
    record = await service.get(match_id)
    game, hands = GAMES[record.game], HANDS[record.game]
    assert record.state is not None
    dealt = hands(game.load_state(record.state))
    extra = UNDER_WAY.get(record.game, lambda state: True)
    for moved in range(1, 500):  # a guard on the loop, not a count the test needs
        change = await one_move(service, match_id) or await bot_grab(service, match_id, moved)
        assert change is not None, (record.game, "nobody moved")
        record = await service.get(match_id)
        assert record.status == "active" and record.state is not None, (record.game, "ended")
        state = game.load_state(record.state)
        now = hands(state)
        if moved >= least and now != dealt and all(now) and extra(state):
            return
    raise AssertionError(f"{record.game}: never under way")


async def bot_grab(service: MatchService, match_id: str, turn: int) -> object:
    """A bot's grab in a race (Toss's scramble, where the bots' clock is not running), the
    bot seats taking turns; None: no bot may grab."""
    seats = await service.bot_seats_deciding(match_id, race=True)
    if not seats:
        return None
    seat = seats[turn % len(seats)]
    return await service.play_bot(match_id, seat=seat, race=True, rng=random.Random(turn))


async def running_matches(service: MatchService, channel_id: int = 10) -> dict[str, str]:
    """A running match of every game, each under way (``under_way``), by game key."""
    running = {}
    for number, game in enumerate(GAMES):
        running[game] = await running_match(service, channel_id + number, game)
        await under_way(service, running[game])
    return running


async def finished_match(service: MatchService, channel_id: int = 20) -> str:
    """Ana, the markup-named player and a bot play Cookie Chomper to the end."""
    record = await service.open_lobby(
        guild_id=GUILD, channel_id=channel_id, host=ANA, game_key="cookie_chomper"
    )
    await service.join(record.match_id, MARKUP)
    await service.add_bot(record.match_id, ANA)
    await service.start(record.match_id, ANA)
    await play_out(service, record.match_id)
    return record.match_id


async def play_out(service: MatchService, match_id: str, moves: int = 5000) -> None:
    """Bots move, and the people take their first option, until the match ends."""
    for _ in range(moves):
        if (await service.get(match_id)).status == "finished":
            return
        if await one_move(service, match_id) is None:
            raise AssertionError("nobody could move")
    raise AssertionError("the match did not end")


async def one_move(service: MatchService, match_id: str) -> object:
    """One move of whoever may move: a bot, else Ana or Ben taking their first option."""
    return await any_move(service, match_id, [ANA.user_id, BEN.user_id])


async def an_event(service: MatchService, decided: int = 2) -> str:
    """A Swiss event of four (the markup-named player among them) in its first round: two
    tables, the first ``decided`` of them played and their results stored."""
    store = service.store
    event = TournamentRecord(
        tournament_id="abcd1234",
        guild_id=GUILD,
        channel_id=30,
        organiser_id=MOD.user_id,
        game="cover_your_assets",
        config=TournamentConfig().model_dump_json(),
        status="running",
        round=1,
        seed=7,
        created_at=1_700_000_000.0,
    )
    await store.create_tournament(event)
    people = [(ANA.user_id, "Ana"), (BEN.user_id, XSS), (None, "Basil"), (None, "Ginger")]
    for number, (user, name) in enumerate(people, start=1):
        joined = 1_700_000_000.0 + number
        await store.save_entrant(
            EntrantRecord(
                tournament_id=event.tournament_id,
                entrant=number,
                user_id=user,
                name=name,
                joined_at=joined,
            )
        )
    for table_no, seats in ((1, [1, 2]), (2, [3, 4])):
        if table_no <= decided:
            await decide(service, event.tournament_id, table_no, seats)
        else:
            await store.save_tournament_table(
                TournamentTable(
                    tournament_id=event.tournament_id, round=1, table_no=table_no, seats=seats
                )
            )
    return event.tournament_id


async def decide(
    service: MatchService, tournament_id: str, table_no: int, seats: list[int]
) -> None:
    """A round-1 table of ``an_event`` played: the second seat won."""
    await service.store.save_tournament_table(
        TournamentTable(
            tournament_id=tournament_id, round=1, table_no=table_no, seats=seats, status="done"
        )
    )
    await service.store.add_result(
        ResultRecord(
            tournament_id=tournament_id, round=1, table_no=table_no, players=seats, places=[2, 1]
        )
    )


def rated(match_id: str, user_id: int, place: int, after: int) -> RatingChangeRecord:
    return RatingChangeRecord(
        match_id=match_id,
        user_id=user_id,
        guild_id=GUILD,
        game="cookie_chomper",
        at=1_700_000_000.0,
        place=place,
        players=2,
        mu_before=25,
        sigma_before=8,
        mu_after=25 + (after - 1000) / 60,
        sigma_after=7,
        games_after=1,
        display_after=after,
    )


async def rate(service: MatchService, match_id: str) -> None:
    """The match rated, for the leaderboard and the curve on the players' pages."""
    await service.store.save_match_ratings(
        [rated(match_id, BEN.user_id, 1, 1120), rated(match_id, ANA.user_id, 2, 880)]
    )


async def elimination_event(
    service: MatchService,
    format: str = "single_elimination",
    game: str = "cookie_chomper",
    players: int = 4,
    top_cut: int = 0,
) -> str:
    """An elimination of bots (a single one of four unless told; a Swiss with its
    ``top_cut`` too), played out; one entrant's name, as the store holds it, written with
    markup."""
    from bot.bots import BotDriver
    from bot.service.tournaments import Tournaments

    events = Tournaments(service)
    driver = BotDriver(service, delay=0)
    config = TournamentConfig(format=format, pace="async", top_cut=top_cut)
    event = await events.create(
        guild_id=GUILD, channel_id=5, organiser=MOD, game_key=game, config=config
    )
    tid = event.tournament_id
    for _ in range(players):
        await events.add_bot(tid, MOD)
    await events.start(tid, MOD)
    for _ in range(60_000):  # the bots play it out (a guard on the loop, not a timing)
        await asyncio.sleep(0)
        if (await events.get(tid)).status == "finished":
            break
    await events.idle()
    await driver.close()
    entrant = (await service.store.entrants(tid))[1]
    await service.store.save_entrant(entrant.model_copy(update={"name": XSS}))
    return tid


@dataclass(frozen=True)
class Server:
    """A server with one of everything, by id: its root path, a running match of every game
    (by game key, each under way), a finished and rated match, a Swiss event and an
    elimination played out."""

    root: str
    running: dict[str, str]
    done: str
    event: str
    bracket: str


async def one_of_everything(service: MatchService) -> Server:
    """The server's page turned on, and one of everything on it (``Server``)."""
    root = await opt_in(service)
    running = await running_matches(service)
    done = await finished_match(service)
    tid = await an_event(service)
    bracket = await elimination_event(service)
    await rate(service, done)
    return Server(root, running, done, tid, bracket)


async def every_page_kind(service: MatchService) -> dict[str, str]:
    """The path of each page kind on a server with one of everything (``one_of_everything``):
    "table" is Cover Your Assets', "table-picture" Braverse's, and every game's running
    table is there as "table-<game>"."""
    server = await one_of_everything(service)
    root, running = server.root, server.running
    return {
        "front": f"{root}/",
        "table": f"{root}/table/{running['cover_your_assets']}",
        "table-picture": f"{root}/table/{running['braverse']}",
        **{f"table-{game}": f"{root}/table/{match}" for game, match in running.items()},
        "broadcast": f"{root}/table/{running['braverse']}?broadcast=1",
        "finished-table": f"{root}/table/{server.done}",
        "replay": f"{root}/replay/{server.done}",
        "event": f"{root}/event/{server.event}",
        "bracket": f"{root}/event/{server.bracket}",
        "player": f"{root}/player/{BEN.user_id}",
    }


LINK = re.compile(r'(?:href|src|data-src|data-live|data-picture)="([^"]+)"')


def links(page: str, root: str) -> set[str]:
    """The server's own links on a page (the static files and the broadcast one too)."""
    found = set()
    for link in LINK.findall(page):
        link = link.replace("&amp;", "&")
        if link.startswith("?"):
            continue  # ?broadcast=1, of the page it is on: crawled with it
        if link.startswith(("/", root)):
            found.add(link)
    return found


__all__ = ["ANA", "BEN", "MOD", "Person", "service", "store"]
