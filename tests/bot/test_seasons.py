"""Seasons through the service and the store, on both backends: season points by place,
the tables per division, the refusals, and the end fired by the stored timer exactly once
(promotion, relegation, the role's holders kept, the next season begun)."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import UTC, datetime

import pytest

from bot.clock import ManualClock
from bot.errors import UserError
from bot.scheduler import Scheduler
from bot.seasons import Tally, match_points, next_divisions, parse_length
from bot.service import MatchService
from bot.service.seasons import SeasonEnd, Seasons
from bot.service.tournaments import Tournaments
from bot.store import MatchRecord, Store
from bot.store.ratings import RatingChangeRecord
from games import GAMES
from tests.bot.conftest import ANA, MOD

GUILD, GAME = 1, "cookie_chomper"
START = datetime(2026, 3, 2, tzinfo=UTC).timestamp()  # a Monday
WEEK = 7 * 86_400.0
_ids = itertools.count(1)


class Rater:
    """Rated matches written as the rating service writes them: a row per person (their
    games counted, so the store's guard holds) under a match row. A season reads only the
    rating rows; the match row, there for their foreign key, has no game played in it, so
    it is stored as cancelled (the replay check replays every finished match)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games: Counter[int] = Counter()

    async def match(self, at: float, *places: tuple[int, int], game: str = GAME) -> None:
        match_id = f"m{next(_ids)}"
        stamp = datetime.fromtimestamp(at, UTC)
        await self.store.create_match(
            MatchRecord(
                match_id=match_id,
                guild_id=GUILD,
                channel_id=next(_ids),
                game=game,
                status="cancelled",
                host_id=places[0][0],
                options="{}",
                created_at=stamp,
                updated_at=stamp,
                finished_at=at,
            )
        )
        rows = []
        for user, place in places:
            self.games[user] += 1
            rows.append(
                RatingChangeRecord(
                    match_id=match_id,
                    user_id=user,
                    guild_id=GUILD,
                    game=game,
                    at=at,
                    place=place,
                    players=len(places),
                    mu_before=25.0,
                    sigma_before=8.0,
                    mu_after=25.0 + (len(places) - place),
                    sigma_after=7.0,
                    games_after=self.games[user],
                    display_after=1500 + 10 * (len(places) - place) - user % 7,
                )
            )
        assert await self.store.save_match_ratings(rows)


def seasons_of(service: MatchService) -> Seasons:
    return Seasons(service, Tournaments(service))


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def service(store: Store, clock: ManualClock) -> MatchService:
    return MatchService(store, GAMES, clock=clock)


def test_points_are_spread_evenly_whatever_the_table_size() -> None:
    for players in range(2, 9):
        points = [match_points(place, 1, players) for place in range(1, players + 1)]
        assert points[0] == 100 and points[-1] == 0
        assert points == sorted(points, reverse=True)
        # Every size hands out 50 a player on average (rounding aside).
        assert abs(sum(points) / players - 50) <= 0.5
    assert match_points(1, 2, 2) == 50  # a shared first of two
    assert match_points(2, 2, 4) == 50  # two tied for 2nd of 4 cover 2nd and 3rd
    assert match_points(1, 1, 1) == 0


def test_lengths() -> None:
    assert str(parse_length(None)) == "1 month"
    assert str(parse_length("4 weeks")) == "4 weeks"
    assert str(parse_length("10 days")) == "10 days"
    assert str(parse_length("3 months")) == "3 months"
    for bad in ("0 weeks", "53 weeks", "forever", "13 months", "-1 days", "4 fortnights"):
        assert parse_length(bad) is None
    march = parse_length("month")
    assert march is not None
    assert march.end(START) == datetime(2026, 4, 1, tzinfo=UTC).timestamp()
    december = datetime(2026, 12, 31, 23, tzinfo=UTC).timestamp()
    assert march.end(december) == datetime(2027, 1, 1, tzinfo=UTC).timestamp()


def test_promotion_and_relegation_keep_the_sizes_and_fill_from_below() -> None:
    from bot.seasons import division_tables

    tallies = {user: Tally(points=100 - user, played=1) for user in range(1, 13)}
    members = {user: (1 if user <= 5 else 2) for user in range(1, 11)}  # 11, 12: newcomers
    tables = division_tables(tallies, members, {}, 3)
    assert [len(t) for t in tables] == [5, 5, 2]
    moved = next_divisions(tables, 5)
    # One goes up from each division and one down: 5 (last of 1) and 6 (first of 2) swap,
    # 10 (last of 2) and 11 (first of 3).
    assert moved[6] == 1 and moved[5] == 2 and moved[11] == 2 and moved[10] == 3
    assert Counter(moved.values()) == Counter({1: 5, 2: 5, 3: 2})
    # Under-full divisions fill from the top of the one below.
    thin = next_divisions(division_tables(tallies, {1: 1}, {}, 2), 5)
    assert Counter(thin.values()) == Counter({1: 5, 2: 7})


async def test_the_table_sums_points_by_place_with_ties_shared(store: Store, service) -> None:
    rater = Rater(store)
    seasons = seasons_of(service)
    for user in (1, 2, 3, 4):
        await rater.match(START - WEEK, (user, 1), (user + 10, 2))  # rated before: ratings
    await seasons.set_up(
        GUILD,
        GAME,
        MOD,
        length="4 weeks",
        divisions=2,
        size=4,
        role_id=None,
        role_places=0,
        channel_id=5,
    )
    await rater.match(START + 10, (1, 1), (2, 2), (3, 2), (4, 4))
    await rater.match(START + 20, (4, 1), (1, 2))
    await rater.match(START + 30, (3, 1), (99, 2), game="toss_your_cookies")  # another game
    await rater.match(START + 5 * WEEK, (2, 1), (1, 2))  # after the season
    table = await seasons.table(GUILD, GAME)
    lines = {line.user_id: line for t in table.tables for line in t}
    assert (lines[1].points, lines[1].played, lines[1].wins) == (100, 2, 1)
    assert (lines[2].points, lines[3].points) == (50, 50)
    assert (lines[4].points, lines[4].wins) == (100, 1)
    # Division 1 holds the four best rated at the start. 1 and 4 tie on points, wins and
    # points a match: the rating (now) decides; so do 2's and 3's (2 lost one since).
    assert [line.user_id for line in table.tables[0]] == [4, 1, 3, 2]
    assert [line.rank for line in table.tables[0]] == [1, 2, 3, 4]
    assert {line.user_id for line in table.tables[1]} == {11, 12, 13, 14}


async def test_refusals_say_one_sentence_and_make_nothing(store: Store, service) -> None:
    seasons = seasons_of(service)
    rater = Rater(store)
    for user in range(1, 6):
        await rater.match(START - WEEK, (user, 1), (user + 100, 2))
    asks = {
        "someone without the permission": dict(actor=ANA),
        "a bad length": dict(length="forever"),
        "too many divisions": dict(divisions=11),
        "a division size that cannot hold the players": dict(divisions=2, size=4),
        "a role for more places than a division": dict(role_id=7, role_places=9),
    }
    for what, changed in asks.items():
        values: dict[str, object] = dict(
            actor=MOD, length="month", divisions=2, size=5, role_id=None, role_places=0
        )
        values.update(changed)
        actor = values.pop("actor")
        with pytest.raises(UserError) as refused:
            await seasons.set_up(GUILD, GAME, actor, channel_id=5, **values)  # type: ignore[arg-type]
        said = str(refused.value.text)
        assert said.count(".") + said.count(":") >= 1 and "\n" not in said, what
    with pytest.raises(UserError):
        await seasons.set_up(
            GUILD,
            "chess",
            MOD,
            length=None,
            divisions=1,
            size=5,
            role_id=None,
            role_places=0,
            channel_id=5,
        )
    await service.set_guild_defaults(GUILD, MOD, {"ratings": "off"})
    with pytest.raises(UserError, match="rates none"):
        await seasons.set_up(
            GUILD,
            GAME,
            MOD,
            length=None,
            divisions=2,
            size=5,
            role_id=None,
            role_places=0,
            channel_id=5,
        )
    assert await store.seasons(GUILD, GAME) == []
    assert await store.season_setup(GUILD, GAME) is None


async def test_the_end_fires_once_from_the_stored_timer(store: Store, service, clock) -> None:
    seasons = seasons_of(service)
    ends: list[SeasonEnd] = []

    async def heard(end: SeasonEnd) -> None:
        ends.append(end)

    seasons.listeners.append(heard)
    rater = Rater(store)
    for user in (1, 3, 5):  # six players rated before: 1, 3, 5, 2, 4, 6 best first
        await rater.match(START - WEEK, (user, 1), (user + 1, 2))
    first = await seasons.set_up(
        GUILD,
        GAME,
        MOD,
        length="4 weeks",
        divisions=3,
        size=2,
        role_id=77,
        role_places=1,
        channel_id=5,
    )
    assert first.ends_at == START + 4 * WEEK
    members = await store.season_members(GUILD, GAME, first.number)
    assert members == {1: 1, 3: 1, 5: 2, 2: 2, 4: 3, 6: 3}
    bottom_of_top = next(u for u, d in members.items() if d == 1 and u != 1)
    top_of_second = [u for u, d in members.items() if d == 2]
    # In division 2 one player wins everything; in division 1 the other loses everything.
    for week in range(4):
        at = START + week * WEEK + 3600
        await rater.match(at, (top_of_second[0], 1), (top_of_second[1], 2))
        top = [u for u, d in members.items() if d == 1]
        await rater.match(
            at + 1, (top[0] if top[0] != bottom_of_top else top[1], 1), (bottom_of_top, 2)
        )
    fired: list[str] = []

    async def fire(timer) -> None:  # type: ignore[no-untyped-def]
        fired.append(timer.match_id)
        await seasons.on_timer(timer)

    scheduler = Scheduler(store, clock, fire)
    assert await scheduler.fire_due() == 0  # not yet
    await clock.advance(4 * WEEK + 1)
    assert await scheduler.fire_due() == 1
    assert await scheduler.fire_due() == 0  # done: exactly once
    await seasons.on_timer(first.timer)  # a second firing of the same timer changes nothing
    assert len(ends) == 1
    end = ends[0]
    ended = await store.season(GUILD, GAME, first.number)
    assert ended is not None and ended.status == "ended" and ended.due_at is None
    following = await seasons.current(GUILD, GAME)
    assert following is not None and following.number == 2
    assert following.starts_at == first.ends_at and following.ends_at == first.ends_at + 4 * WEEK
    after = await store.season_members(GUILD, GAME, 2)
    assert after[bottom_of_top] == 2 and after[top_of_second[0]] == 1
    assert end.holders == [end.ended.tables[0][0].user_id] and end.former_holders == []
    kept = await seasons.table(GUILD, GAME, first.number)
    assert kept.tables == end.ended.tables
    # The next season ends by itself too, and moves the role from the last holders.
    await rater.match(following.starts_at + 10, (top_of_second[0], 1), (bottom_of_top, 2))
    await clock.advance(4 * WEEK)
    assert await scheduler.fire_due() == 1
    assert ends[1].former_holders == end.holders and ends[1].holders == [top_of_second[0]]


async def test_an_end_cut_short_by_a_stop_is_announced_at_the_next_start(
    store: Store, service, clock
) -> None:
    """The process stops after the end was written and before it was announced (its
    listener fails): the timer stays, and the next process, starting after the end fell
    due, announces it once, without ending the season a second time."""
    rater = Rater(store)
    for user in (1, 3):
        await rater.match(START - WEEK, (user, 1), (user + 1, 2))
    first = seasons_of(service)
    season = await first.set_up(
        GUILD,
        GAME,
        MOD,
        length="1 week",
        divisions=2,
        size=2,
        role_id=7,
        role_places=1,
        channel_id=5,
    )
    await rater.match(START + 60, (3, 1), (1, 2))

    async def stops(end: SeasonEnd) -> None:
        raise ConnectionError("the process stopped")

    first.listeners.append(stops)
    await clock.advance(WEEK)
    with pytest.raises(ConnectionError):
        await first.on_timer(season.timer)
    ended = await store.season(GUILD, GAME, 1)
    assert ended is not None and ended.status == "ended" and ended.due_at is not None

    await clock.advance(3 * 86_400)  # down for three days: the timer is overdue
    heard: list[SeasonEnd] = []

    async def posts(end: SeasonEnd) -> None:
        heard.append(end)

    restarted = seasons_of(service)
    restarted.listeners.append(posts)
    fired: list[str] = []

    async def fire(timer) -> None:  # type: ignore[no-untyped-def]
        fired.append(timer.match_id)
        await restarted.on_timer(timer)

    assert await Scheduler(store, clock, fire).fire_due() == 1
    assert [end.ended.season.number for end in heard] == [1]
    assert heard[0].holders == [3]
    following = await store.seasons(GUILD, GAME)
    assert [s.number for s in following] == [2, 1]  # one season 2, begun once
    assert following[0].starts_at == season.ends_at
    assert (await store.season(GUILD, GAME, 1)).due_at is None  # type: ignore[union-attr]


async def test_a_new_setup_keeps_the_running_season_and_stop_ends_nothing(
    store: Store, service, clock
) -> None:
    seasons = seasons_of(service)
    values = dict(divisions=2, size=2, role_id=None, role_places=0, channel_id=5)
    first = await seasons.set_up(GUILD, GAME, MOD, length="4 weeks", **values)  # type: ignore[arg-type]
    again = await seasons.set_up(GUILD, GAME, MOD, length="10 days", **values)  # type: ignore[arg-type]
    assert again == first  # the running season keeps its end
    assert (await store.season_setup(GUILD, GAME)).length == "10 days"  # type: ignore[union-attr]
    with pytest.raises(UserError, match="Only someone with Manage Server"):
        await seasons.stop(GUILD, GAME, ANA)
    await seasons.stop(GUILD, GAME, MOD)
    stopped = await store.season(GUILD, GAME, first.number)
    assert stopped is not None and stopped.status == "stopped" and stopped.due_at is None
    await clock.advance(5 * WEEK)
    assert await Scheduler(store, clock, seasons.on_timer).fire_due() == 0
    with pytest.raises(UserError, match="no seasons here to stop"):
        await seasons.stop(GUILD, GAME, MOD)
    # On again: a new season, numbered after the stopped one.
    assert (await seasons.set_up(GUILD, GAME, MOD, length=None, **values)).number == 2  # type: ignore[arg-type]


def test_a_divisions_picture_draws_a_row_a_player() -> None:
    from io import BytesIO

    from PIL import Image

    from bot.season_picture import season_picture
    from bot.seasons import division_tables

    def height(players: int) -> int:
        tallies = {user: Tally(points=10 * user, played=2, wins=1) for user in range(players)}
        (table,) = division_tables(tallies, {}, {}, 1)
        names = {user: f"Player {user}" for user in tallies}
        png = season_picture(table, names, "Toss Your Cookies · season 3", "12 players")
        return Image.open(BytesIO(png)).size[1]

    assert height(12) - height(2) == 10 * (height(3) - height(2))
