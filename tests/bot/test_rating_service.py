"""Rating finished matches through the store: who is rated, once, and the rebuild.

Most matches here are of a rigged game whose final state is just its placements, so each
test sets the exact outcome it needs (ties, bots, quitters); one match is real Cookie
Chomper played through the service, rated by the listener as it finishes.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

import pytest

from bot.ratings import BOT_IDS, Rating
from bot.service import Change, MatchService, Person, settings_of
from bot.service.ratings import Ratings, rebuild, seat_results
from bot.store import MatchRecord, SeatRecord, SQLiteStore, Store
from bot.store.models import GONE
from bot.store.postgres import PostgresStore
from bot.store.ratings import RatingConflict, RatingRecord
from bot.timing import MatchSettings
from devtools.postgres_server import drop_database, fresh_database
from games import GAMES
from games.core.levels import LEVELS, Level
from games.core.protocol import Game, Outcome, Placement
from tests.bot.conftest import ANA, BEN, MOD

RIGGED = "rigged"


class RiggedGame:
    """Just enough of a game for rating: its final state names each seat's place."""

    key = RIGGED
    name = "Rigged"

    def load_state(self, raw: str) -> list[int] | None:
        return cast(list[int] | None, json.loads(raw)["places"])

    def outcome(self, places: list[int] | None) -> Outcome | None:
        if places is None:
            return None
        return Outcome(
            placements=tuple(
                Placement(seat=seat, place=place, score=0) for seat, place in enumerate(places)
            ),
            reason="rigged",
        )


GAMES_AND_RIGGED: dict[str, Game] = {**GAMES, RIGGED: cast(Game, RiggedGame())}


@pytest.fixture
async def rigged_store(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Store]:
    # Not the replay-checked ``store`` fixture: a rigged match has no moves to replay.
    if backend == "sqlite":
        store: Store = SQLiteStore(tmp_path / "rated.db")
        await store.connect()
        yield store
        await store.close()
        return
    admin_url = request.getfixturevalue("postgres_admin_url")
    url, name = await fresh_database(admin_url)
    try:
        store = PostgresStore(url)
        await store.connect()
        yield store
        await store.close()
    finally:
        await drop_database(admin_url, name)


async def execute(store: Store, sql: str) -> None:
    """A statement run by hand on either backend (damage a test then repairs)."""
    if isinstance(store, PostgresStore):
        await store.pool.execute(sql)
        return
    assert isinstance(store, SQLiteStore)
    async with store._lock:
        await store.db.execute(sql)
        await store.db.commit()


@pytest.fixture
def rigged(rigged_store: Store) -> tuple[MatchService, Ratings]:
    service = MatchService(rigged_store, GAMES_AND_RIGGED)
    return service, Ratings(service)


_channels = iter(range(10_000, 1_000_000))


async def rigged_match(
    store: Store,
    places: Sequence[int] | None,
    users: Sequence[int | None],
    *,
    gone: Sequence[int] = (),
    guild_id: int = 1,
    game: str = RIGGED,
    event: str | None = None,
    levels: Sequence[Level] = (),
) -> MatchRecord:
    """A match that ended with ``places`` (None: closed without the game's outcome) for
    seats played by ``users`` (None: a bot, of ``levels[seat]`` or normal); the seats in
    ``gone`` left before the end."""
    match_id = f"{next(_channels):010x}"
    stamp = datetime.now(UTC)
    seats = [
        SeatRecord(seat=i, user_id=user, name=f"P{i}", level=levels[i] if levels else "normal")
        for i, user in enumerate(users)
    ]
    settings = MatchSettings(event=event).model_dump_json()
    await store.create_match(
        MatchRecord(
            match_id=match_id,
            guild_id=guild_id,
            channel_id=next(_channels),
            game=game,
            status="lobby",
            host_id=users[0] or 1,
            options="{}",
            settings=settings,
            created_at=stamp,
            updated_at=stamp,
            seats=seats,
        )
    )
    await store.start(match_id, seats, 7, json.dumps({"places": None}), 0)
    for seat in gone:
        await store.save_seat(match_id, seats[seat].model_copy(update={"away": GONE}))
    final = json.dumps({"places": list(places) if places is not None else None})
    await store.save_action(
        match_id,
        expected_version=0,
        state=final,
        version=1,
        seat=0,
        action="end",
        status="finished",
    )
    record = await store.get(match_id)
    assert record is not None
    return record


async def table(store: Store) -> tuple[list[object], list[object]]:
    return list(await store.all_ratings()), list(await store.all_rating_changes())


async def test_bots_leave_the_order_and_quitters_tie_last(
    rigged: tuple[MatchService, Ratings], rigged_store: Store
) -> None:
    _, ratings = rigged
    # Seat 1 is a bot that won; Cleo (seat 3) came first on points but left, as did Dev.
    record = await rigged_match(
        rigged_store, [2, 1, 3, 1, 4], [101, None, 102, 103, 104], gone=[3, 4]
    )
    rows = await ratings.rate(record)
    # The bot's level is rated apart, against every seat: it won, so its level gains.
    [bot] = [row for row in rows if row.user_id < 0]
    assert (bot.user_id, bot.place, bot.players) == (BOT_IDS["normal"], 1, 5)
    assert bot.mu_after > bot.mu_before and bot.games_after == 1
    rows = [row for row in rows if row.user_id >= 0]
    places = {row.user_id: row.place for row in rows}
    assert places == {101: 1, 102: 2, 103: 3, 104: 3}
    assert all(row.players == 4 for row in rows)
    by_user = {row.user_id: row for row in rows}
    # Equal priors and a shared place: the two quitters move exactly equally.
    assert by_user[103].mu_after == by_user[104].mu_after
    assert by_user[103].sigma_after == by_user[104].sigma_after
    assert by_user[101].mu_after > by_user[102].mu_after > by_user[103].mu_after
    stored = await rigged_store.ratings_of(1, RIGGED, [101, 102, 103, 104])
    assert {u: r.games for u, r in stored.items()} == {101: 1, 102: 1, 103: 1, 104: 1}
    assert stored[101].display == Rating(by_user[101].mu_after, by_user[101].sigma_after).display


async def test_a_match_rated_twice_changes_nothing(
    rigged: tuple[MatchService, Ratings], rigged_store: Store
) -> None:
    _, ratings = rigged
    record = await rigged_match(rigged_store, [1, 2], [101, 102])
    assert len(await ratings.rate(record)) == 2
    before = await table(rigged_store)
    assert await ratings.rate(record) == []
    # Even past the service's check: the store refuses a match's rows a second time.
    events = await rigged_store.rating_changes_of(1, RIGGED, 101)
    assert await rigged_store.save_match_ratings(events) is False
    assert await table(rigged_store) == before


async def test_a_stale_rating_is_refused_whole(rigged_store: Store) -> None:
    """Two processes rating matches of one player from the same rating: the second write
    conflicts and leaves nothing of its match behind."""
    service = MatchService(rigged_store, GAMES_AND_RIGGED)
    ratings = Ratings(service)
    first = await rigged_match(rigged_store, [1, 2], [101, 102])
    second = await rigged_match(rigged_store, [1, 2], [101, 103])
    seats = seat_results(second, GAMES_AND_RIGGED[RIGGED])
    assert seats is not None
    stale = await ratings._events(second, seats)  # read before the first is saved
    await ratings.rate(first)
    with pytest.raises(RatingConflict):
        await rigged_store.save_match_ratings(stale)
    assert not await rigged_store.match_rated(second.match_id)
    assert (await rigged_store.ratings_of(1, RIGGED, [103])) == {}
    assert len(await ratings.rate(second)) == 2  # read afresh, it goes through


async def test_what_is_not_rated(rigged: tuple[MatchService, Ratings], rigged_store: Store) -> None:
    _, ratings = rigged
    alone = await rigged_match(rigged_store, [1, 2, 3], [101, None, None])
    adjudicated = await rigged_match(rigged_store, None, [101, 102])
    cancelled = await rigged_match(rigged_store, [1, 2], [101, 102])
    await rigged_store.set_status(cancelled.match_id, "cancelled")
    cancelled = cancelled.model_copy(update={"status": "cancelled"})
    bots_only = await rigged_match(rigged_store, [1, 2], [None, None])
    for record in (adjudicated, cancelled, bots_only):
        assert await ratings.rate(record) == []
    assert await table(rigged_store) == ([], [])
    # One person and bots: nothing to learn of the person, but the bots played a person.
    rows = await ratings.rate(alone)
    assert [(row.user_id, row.place, row.players) for row in rows] == [(BOT_IDS["normal"], 2, 3)]
    assert await rigged_store.ratings_of(1, RIGGED, [101]) == {}


async def test_the_server_setting_picks_the_matches_rated(
    rigged: tuple[MatchService, Ratings], rigged_store: Store
) -> None:
    service, ratings = rigged
    await service.set_guild_defaults(1, MOD, {"ratings": "off"})
    assert await ratings.rate(await rigged_match(rigged_store, [1, 2], [101, 102])) == []
    await service.set_guild_defaults(1, MOD, {"ratings": "events"})
    assert await ratings.rate(await rigged_match(rigged_store, [1, 2], [101, 102])) == []
    event_table = await rigged_match(rigged_store, [1, 2], [101, 102], event="t1")
    assert len(await ratings.rate(event_table)) == 2
    # Other servers keep the default: every match.
    assert len(await ratings.rate(await rigged_match(rigged_store, [2, 1], [101, 102], guild_id=2)))
    await service.set_guild_defaults(1, MOD, {"ratings": "all"})
    assert len(await ratings.rate(await rigged_match(rigged_store, [2, 1], [101, 102]))) == 2
    assert (await rigged_store.ratings_of(1, RIGGED, [101]))[101].games == 2
    assert (await service.guild_settings(1)).match.pace == "casual"  # the rest untouched


async def mixed_history(store: Store, ratings: Ratings, count: int, seed: int) -> None:
    """``count`` matches over two servers and two games: 2–6 seats, ties, bots, quitters,
    a few adjudicated ones; each rated as it ends."""
    rng = random.Random(seed)
    for _ in range(count):
        size = rng.choice([2, 2, 3, 4, 5, 6])
        users = [None if rng.random() < 0.15 else u for u in rng.sample(range(1, 13), size)]
        places = sorted(rng.randint(1, size) for _ in range(size))
        if rng.random() > 0.3:
            places = list(range(1, size + 1))
        rng.shuffle(places)
        gone = [s for s in range(size) if rng.random() < 0.1]
        record = await rigged_match(
            store,
            None if rng.random() < 0.05 else places,
            users,
            gone=gone,
            guild_id=rng.choice([1, 2]),
            game=rng.choice([RIGGED, "rigged_too"]),
            levels=[rng.choice(LEVELS) for _ in range(size)],
        )
        await ratings.rate(record)


async def test_rebuild_reproduces_the_stored_table_exactly(rigged_store: Store) -> None:
    games = {**GAMES_AND_RIGGED, "rigged_too": GAMES_AND_RIGGED[RIGGED]}
    service = MatchService(rigged_store, games)
    ratings = Ratings(service)
    await service.set_guild_defaults(2, MOD, {"ratings": "off"})
    await mixed_history(rigged_store, ratings, 25, seed=3)
    await service.set_guild_defaults(2, MOD, {"ratings": "all"})
    await mixed_history(rigged_store, ratings, 50, seed=4)
    stored = await table(rigged_store)
    events = stored[1]
    assert len({e.match_id for e in events}) > 40  # type: ignore[attr-defined]
    assert any(e.guild_id == 2 for e in events)  # type: ignore[attr-defined]
    assert any(e.place == e.players and e.players > 2 for e in events)  # type: ignore[attr-defined]
    # Every level's bots were rated too, and a rebuild gives them back bit for bit as well.
    assert {e.user_id for e in events if e.user_id < 0} == set(BOT_IDS.values())  # type: ignore[attr-defined]

    done = await rebuild(rigged_store, games)
    assert done.changed == 0
    assert await table(rigged_store) == stored  # the same floats, bit for bit

    # A damaged table is put back: a rating and a row edited by hand, one row lost.
    await execute(rigged_store, "UPDATE ratings SET mu = mu + 1 WHERE user_id = 3")
    await execute(
        rigged_store,
        "DELETE FROM rating_events WHERE (match_id, user_id) = (SELECT match_id, user_id "
        "FROM rating_events WHERE user_id = 5 ORDER BY at, match_id LIMIT 1)",
    )
    assert (await rebuild(rigged_store, games)).changed >= 2
    assert await table(rigged_store) == stored


async def play_to_the_end(service: MatchService, match_id: str, people: Sequence[Person]) -> None:
    """Each person takes their first option(s) whenever they must decide; bots play theirs."""
    for _ in range(5000):
        if (await service.get(match_id)).status == "finished":
            return
        if await service.play_bot(match_id) is not None:
            continue
        for who in people:
            seen = await service.seat_view(match_id, who.user_id)
            decision = seen.decision or (seen.chances[0] if seen.chances else None)
            if decision is not None:
                picks = list(range(decision.min_picks))
                await service.act(match_id, who.user_id, stamp=decision.stamp, picks=picks)
                break
        else:
            raise AssertionError("nobody could move")
    raise AssertionError("the match did not end")


async def test_a_real_match_is_rated_as_it_finishes_and_rebuilt_from_the_command_line(
    service: MatchService, store: Store, database_url: str
) -> None:
    ratings = Ratings(service)
    rated_when_told: list[bool] = []

    async def answer(change: Change) -> None:  # what the click's answer waits for
        if change.kind == "finished":
            rated_when_told.append(await store.match_rated(change.match.match_id))

    service.listeners.append(answer)
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cookie_chomper"
    )
    await service.join(record.match_id, BEN)
    await service.add_bot(record.match_id, ANA)
    await service.start(record.match_id, ANA)
    await play_to_the_end(service, record.match_id, [ANA, BEN])
    await ratings.idle()
    # The move that ended the match was answered without waiting for its rating.
    assert rated_when_told == [False]
    rows = await store.rating_changes_of(1, "cookie_chomper", ANA.user_id)
    assert len(rows) == 1 and rows[0].players == 2
    stored = await table(store)
    rated = {r.user_id for r in stored[0]}  # type: ignore[attr-defined]
    assert rated == {ANA.user_id, BEN.user_id, BOT_IDS["normal"]}

    await execute(store, "UPDATE ratings SET display = 0")
    ran = subprocess.run(
        [sys.executable, "-m", "bot", "ratings", "rebuild"],
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],
    )
    assert "1 matches replayed, 3 ratings, 3 rows differed" in ran.stdout
    assert await table(store) == stored


async def test_a_rematch_of_a_tournament_table_is_not_an_event_match(
    service: MatchService,
) -> None:
    table = await service.open_lobby(
        guild_id=1,
        channel_id=10,
        host=ANA,
        game_key="cookie_chomper",
        settings=MatchSettings(pace="live", event="t1").model_dump_json(),
    )
    await service.join(table.match_id, BEN)
    await service.start(table.match_id, ANA)
    await service.cancel(table.match_id, ANA)
    again = await service.rematch(table.match_id, ANA)
    assert settings_of(again).event is None and settings_of(again).pace == "live"


async def test_start_up_rates_the_matches_a_stop_left_unrated_in_order(
    rigged: tuple[MatchService, Ratings], rigged_store: Store
) -> None:
    _, ratings = rigged
    await ratings.rate(await rigged_match(rigged_store, [1, 2], [101, 102]))
    # The process stopped after these ended, before their ratings were written.
    missed = [
        await rigged_match(rigged_store, [2, 1], [101, 102]),
        await rigged_match(rigged_store, [1, 2, 3], [102, 103, 101]),
    ]
    assert await ratings.sweep() == 2
    assert [r.games for r in (await rigged_store.ratings_of(1, RIGGED, [101])).values()] == [3]
    assert all([await rigged_store.match_rated(m.match_id) for m in missed])
    assert await ratings.sweep() == 0
    assert (await rebuild(rigged_store, GAMES_AND_RIGGED)).changed == 0  # the order held


async def test_stats_count_the_places_at_the_table_a_bot_that_won_included(
    rigged: tuple[MatchService, Ratings], rigged_store: Store
) -> None:
    """A rating's place is among people (bots are rated apart), but /stats says where the
    player finished, as the result, /history and the web page do: second behind a bot that
    won is no win."""
    _, ratings = rigged
    behind_the_bot = await rigged_match(rigged_store, [2, 1, 3], [101, None, 102])
    won = await rigged_match(rigged_store, [1, 2], [101, 102])
    alone_with_bots = await rigged_match(rigged_store, [1, 2], [101, None])  # not rated
    # 102 left for good and the bot playing the seat on won it: no win of 102's, who ranks
    # last, as the rating counts it.
    left = await rigged_match(rigged_store, [2, 1, 3], [101, 102, None], gone=[1])
    for record in (behind_the_bot, won, alone_with_bots, left):
        await ratings.rate(record)
    found = await ratings.stats(1, 101, RIGGED)
    assert found is not None
    assert (found.rating.games, found.wins, found.places) == (3, 2, {1: 2, 2: 1})
    other = await ratings.stats(1, 102, RIGGED)
    assert other is not None and (other.wins, other.places) == (0, {2: 1, 3: 2})


async def test_a_leaderboard_page_starts_at_the_rank_its_first_rating_shares(
    rigged: tuple[MatchService, Ratings], rigged_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.service.ratings.LEADERBOARD_PAGE", 2)
    _, ratings = rigged
    displays = [1600, 1550, 1550, 1550, 1500]
    await rigged_store.replace_ratings(
        [
            RatingRecord(
                guild_id=1, game=RIGGED, user_id=101 + n, mu=25, sigma=3, games=5, display=d
            )
            for n, d in enumerate(displays)
        ],
        [],
    )
    pages = [await ratings.leaderboard(1, RIGGED, page) for page in range(3)]
    assert [[rank for rank, _ in p.entries] for p in pages] == [[1, 2], [2, 2], [5]]
