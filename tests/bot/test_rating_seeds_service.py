"""Rating-seeded events through the service and the store: round 1 pairs by the stored
ratings (bots and the unrated at a new player's 1500), a bracket's seeds are the ratings
read at the start, and each table's chances come from its players' ratings."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.ratings import Rating
from bot.service import MatchService, Person
from bot.service.tournaments import TournamentConfig, Tournaments
from bot.store.ratings import RatingRecord
from tests.bot.conftest import ANA, BEN, CLEO, DEV, MOD

GAME = "cover_your_assets"


@pytest.fixture
def events(service: MatchService) -> Tournaments:
    return Tournaments(service)


async def rate(
    events: Tournaments, ratings: dict[Person, tuple[float, float]], game: str = GAME
) -> None:
    await events.store.replace_ratings(
        [
            RatingRecord(
                guild_id=1,
                game=game,
                user_id=who.user_id,
                mu=mu,
                sigma=sigma,
                games=6,
                display=Rating(mu, sigma).display,
            )
            for who, (mu, sigma) in ratings.items()
        ],
        [],
    )


async def started(events: Tournaments, config: TournamentConfig, game: str = GAME) -> str:
    event = await events.create(
        guild_id=1, channel_id=5, organiser=MOD, game_key=game, config=config
    )
    for who in (ANA, BEN, CLEO, DEV):
        await events.join(event.tournament_id, who)
    await events.start(event.tournament_id, MOD)
    return event.tournament_id


async def first_round(events: Tournaments, tournament_id: str) -> set[frozenset[str]]:
    view = await events.view(tournament_id)
    return {frozenset(view.name(p) for p in t.seats) for t in view.tables if t.round == 1}


@pytest.mark.parametrize(
    ("ratings", "tables"),
    [
        # Dev 1884, Ben 1860, Ana 1548, Cleo unrated 1500: neighbours pair.
        ({BEN: (30, 5), DEV: (28, 4), ANA: (20, 6)}, {("Dev", "Ben"), ("Ana", "Cleo")}),
        # Ana 2076, Cleo 1860, Ben 1548, Dev unrated 1500.
        ({ANA: (33, 3), CLEO: (30, 5), BEN: (20, 6)}, {("Ana", "Cleo"), ("Ben", "Dev")}),
    ],
)
async def test_a_rating_seeded_swiss_pairs_round_one_by_the_stored_ratings(
    events: Tournaments,
    ratings: dict[Person, tuple[float, float]],
    tables: set[tuple[str, str]],
) -> None:
    await rate(events, ratings)
    tournament_id = await started(events, TournamentConfig(format="swiss", seeding="rating"))
    assert await first_round(events, tournament_id) == {frozenset(t) for t in tables}


async def test_a_rating_seeded_bracket_keeps_the_ratings_read_at_its_start(
    events: Tournaments,
) -> None:
    await rate(events, {BEN: (30, 5), DEV: (28, 4), ANA: (20, 6)})
    config = TournamentConfig(format="single_elimination", seeding="rating")
    tournament_id = await started(events, config)
    # Seeds Dev, Ben, Ana, Cleo: 1 meets 4, 2 meets 3.
    assert await first_round(events, tournament_id) == {
        frozenset({"Dev", "Cleo"}),
        frozenset({"Ben", "Ana"}),
    }
    view = await events.view(tournament_id)
    by_name = {view.name(e.entrant): e.entrant for e in view.entrants}
    assert view.config.seed_ratings == {
        by_name["Ana"]: 1548,
        by_name["Ben"]: 1860,
        by_name["Cleo"]: 1500,
        by_name["Dev"]: 1884,
    }
    # Each table's chances from its players' ratings (predict_win: 0.61, 0.85).
    for table in view.tables:
        record = await events.matches.get(table.match_id)  # type: ignore[arg-type]
        chances = dict(await events.chances(record))
        assert sum(chances.values()) == 100
        if "Dev" in chances:
            assert chances == {"Dev": 61, "Cleo": 39}
        else:
            assert chances == {"Ben": 85, "Ana": 15}


async def test_a_rating_seeded_multiplayer_elimination_seats_its_seeds_by_rating(
    events: Tournaments,
) -> None:
    await rate(events, {BEN: (30, 5), DEV: (28, 4), ANA: (20, 6)}, "toss_your_cookies")
    config = TournamentConfig(format="multiplayer_elimination", seeding="rating")
    tournament_id = await started(events, config, "toss_your_cookies")
    view = await events.view(tournament_id)
    # Four fit at one final table, seed 1 in seat 0: Dev, Ben, Ana, Cleo.
    (table,) = view.tables
    assert [view.name(p) for p in table.seats] == ["Dev", "Ben", "Ana", "Cleo"]
    assert table.bracket_id == "final"


async def test_seeding_by_rating_is_refused_for_a_round_robin(events: Tournaments) -> None:
    with pytest.raises(UserError, match="leave seeding at lot"):
        await events.create(
            guild_id=1,
            channel_id=5,
            organiser=MOD,
            game_key=GAME,
            config=TournamentConfig(format="round_robin", seeding="rating"),
        )
