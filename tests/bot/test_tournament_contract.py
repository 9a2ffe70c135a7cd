"""The contract every registered tournament format must keep, the way
``games.core.contract`` holds every game to its own.

Each format (``FORMATS``) is played out with every game it seats, field sizes odd and even
(byes included), each option it takes, and the results at random, without the service or a
store: round after round is paired from what is recorded, every table gets a random
finishing order, and a player may drop between rounds. The event must end; nobody may sit
twice in a round; every table must seat what its game seats; every participant must get one
place in standings ranked 1..N, by points below what a final table or bracket decides; and
the same seed must give the same event.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.errors import UserError
from bot.store.tournament_records import EntrantRecord, ResultRecord, TournamentTable
from bot.tournaments.config import TournamentConfig
from bot.tournaments.formats import FORMATS, Format, format_of
from bot.tournaments.progress import Progress
from bot.tournaments.standings import Standing
from bot.tournaments.top_cut import default_cut
from games import GAMES
from games.core.protocol import Game

SIZES = (2, 3, 4, 5, 7, 8, 9, 12, 16)
SEEDS = (1, 2)
MOST_ROUNDS = 60  # far more than any format plans for 16 players: past it, it never ends
# A value to try for each option a format may take (``Format.options``).
SAMPLES: dict[str, tuple[object, ...]] = {
    "top_cut": (2, 4, 16),
    "advance": (1, 2),
    "default_cut": (True,),
    "larger_tables": (True,),
    "reset": (False,),
    "scores": ("3:6/3/0, 4:6/4/2/0",),
    "group_size": (3, 5, 8),
}


@dataclass
class Played:
    """An event played out: everything recorded, and how it ended."""

    config: TournamentConfig
    entrants: list[EntrantRecord]
    tables: list[TournamentTable] = field(default_factory=list)
    results: list[ResultRecord] = field(default_factory=list)
    rounds: int = 0
    standings: list[Standing] = field(default_factory=list)
    top: list[int] = field(default_factory=list)


def progress(played: Played, game: Game, seed: int, status: str, **extra: Any) -> Progress:
    return Progress(
        played.config,
        game,
        seed,
        played.rounds,
        status,
        played.entrants,
        played.results,
        played.tables,
        **extra,
    )


def random_places(size: int, rng: random.Random) -> list[int]:
    """A finishing order at random, now and then with a tie (ties share the best place)."""
    order = list(range(size))
    rng.shuffle(order)
    places = [0] * size
    for index, seat in enumerate(order):
        tied = index > 0 and rng.random() < 0.1
        places[seat] = places[order[index - 1]] if tied else index + 1
    return places


def start(kind: Format, players: int, seed: int, ratings: dict[int, int]) -> TournamentConfig:
    """The choices fixed at the start, as the service fixes them."""
    config = kind.config
    fixed: dict[str, object] = {"rounds": kind.rounds(players)}
    if config.default_cut:
        fixed["top_cut"] = default_cut(players)
    if config.seeding == "rating" and kind.seeded_at_start:
        fixed["seed_ratings"] = ratings
    return config.model_copy(update=fixed)


def play(kind: Format, players: int, seed: int, *, drops: bool) -> Played:
    game, rng = kind.game, random.Random(seed)
    ratings = {n: rng.randint(900, 2100) for n in range(1, players + 1)}
    config = start(kind, players, seed, ratings)
    kind = format_of(config, game)
    entrants = [
        EntrantRecord(
            tournament_id="t",
            entrant=n,
            user_id=None if n % 5 == 0 else 100 + n,  # some bots
            name=f"P{n}",
            joined_at=float(n),
        )
        for n in range(1, players + 1)
    ]
    played = Played(config, entrants)
    for number in range(1, MOST_ROUNDS + 1):
        now = progress(played, game, seed, "running")
        if kind.pairs_by_rating(now, number):
            now = progress(played, game, seed, "running", ratings=ratings)
        paired = kind.pair(now, number)
        check_round(kind, now, number, paired.tables, paired.byes, paired.brackets)
        played.rounds = number
        for index, player in enumerate(paired.byes):
            played.results.append(
                ResultRecord(
                    tournament_id="t",
                    round=number,
                    table_no=900 + index,
                    players=[player],
                    places=[1],
                    kind="bye",
                    source="bye",
                )
            )
        state = {e.entrant: e.state for e in played.entrants}
        for index, seats in enumerate(paired.tables, start=1):
            table = TournamentTable(
                tournament_id="t",
                round=number,
                table_no=index,
                seats=list(seats),
                bracket_id=paired.brackets[index - 1],
            )
            played.tables.append(table)
            gone = [p for p in seats if state[p] != "entered"]
            # A bracket table with a player who left decides itself, as the service does.
            places = (
                [2 if p in gone else 1 for p in seats]
                if gone and table.bracket_id
                else random_places(len(seats), rng)
            )
            played.results.append(
                ResultRecord(
                    tournament_id="t",
                    round=number,
                    table_no=index,
                    players=list(seats),
                    places=places,
                    gone=gone,
                )
            )
        if kind.is_over(progress(played, game, seed, "running")):
            break
        staying = [e for e in played.entrants if e.state == "entered"]
        # Drops leave a table's worth: a pod event whose field falls below one before its
        # final table still pairs that table (too few for the game), a known gap.
        if drops and len(staying) > kind.least_at_table and rng.random() < 0.2:
            leaving = rng.choice(staying)
            played.entrants[played.entrants.index(leaving)] = leaving.model_copy(
                update={"state": "dropped", "dropped_round": number}
            )
    else:
        pytest.fail(f"{kind.key} with {players} players did not end in {MOST_ROUNDS} rounds")
    done = progress(played, game, seed, "finished")
    played.standings = kind.standings(done)
    played.top = kind.decided_top(done)
    check_standings(done, played)
    return played


def check_round(
    kind: Format,
    now: Progress,
    number: int,
    tables: list[tuple[int, ...]],
    byes: list[int],
    brackets: list[str | None],
) -> None:
    seated = [p for seats in tables for p in seats] + list(byes)
    if kind.tables_at_once:
        # A player sits at several tables of the round at once, never twice at one.
        assert all(len(seats) == len(set(seats)) for seats in tables), f"round {number}"
        assert not set(byes) & {p for seats in tables for p in seats}
        assert len(byes) == len(set(byes))
    else:
        assert len(seated) == len(set(seated)), f"round {number}: someone sits twice"
    assert len(brackets) == len(tables)
    assert set(seated) <= set(now.players), f"round {number}: a stranger is seated"
    active = set(now.active)
    for seats, bracket in zip(tables, brackets, strict=True):
        if bracket is None:  # a bracket keeps its seats; the rest pair who is still in
            assert set(seats) <= active, f"round {number}: a player who left is paired"
        if kind.two_player:
            assert len(seats) == 2, f"round {number}: a two-player table seats {len(seats)}"
        else:
            game = kind.game
            assert game.min_players <= len(seats) <= game.max_players, seats


def check_standings(done: Progress, played: Played) -> None:
    standings = played.standings
    assert sorted(s.player for s in standings) == sorted(done.players), "a place each"
    assert [s.rank for s in standings] == list(range(1, len(standings) + 1))
    assert standings[: len(played.top)] == [s for s in standings if s.player in played.top]
    rest = [s.points for s in standings[len(played.top) :]]
    assert rest == sorted(rest, reverse=True), "below the decided top, by points"


def configs(kind: type[Format], game: Game) -> list[TournamentConfig]:
    """The format with no options, with each option it takes, and seeded by rating: each
    that it accepts for this game."""
    tries: list[dict[str, object]] = [{}, {"seeding": "rating"}]
    tries += [{name: value} for name in sorted(kind.options) for value in SAMPLES[name]]
    kept = []
    for extra in tries:
        config = TournamentConfig(
            format=kind.key, max_players=kind.most_players, pace=kind.default_pace, **extra
        )
        chosen = kind(config, game)
        try:
            chosen.check_game()
            kept.append(chosen.checked())
        except UserError:
            continue
    return kept


# A format sees of a game only how many it seats: one game for each range.
SEATING = {(game.min_players, game.max_players): key for key, game in GAMES.items()}
CASES = [
    pytest.param(config, key, id=f"{kind.key}-{key}-{index}")
    for kind in FORMATS.values()
    for key in SEATING.values()
    for index, config in enumerate(configs(kind, GAMES[key]))
]


def test_every_format_is_registered_under_its_own_key_and_seats_some_game() -> None:
    assert all(key == kind.key and kind.label for key, kind in FORMATS.items())
    seated = {config.format for config, _ in (case.values for case in CASES)}
    assert seated == set(FORMATS)


@pytest.mark.parametrize(("config", "game_key"), CASES)
def test_a_format_plays_every_field_to_an_end_with_a_place_for_everyone(
    config: TournamentConfig, game_key: str
) -> None:
    game = GAMES[game_key]
    for players in SIZES:
        kind = format_of(config, game)
        if players < kind.least_at_table or players > config.max_players:
            continue  # the service refuses to start these
        for seed in SEEDS:
            once = play(kind, players, seed, drops=seed % 2 == 0)
            again = play(kind, players, seed, drops=seed % 2 == 0)
            assert (once.tables, once.results, once.standings) == (
                again.tables,
                again.results,
                again.standings,
            ), "the same seed plays the same event"
