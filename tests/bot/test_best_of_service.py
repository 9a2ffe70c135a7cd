"""Best-of-three Swiss through the tournament service, on both stores: each game a match of
its own at the same table, seats alternating, the table recorded when it is decided (2–1,
2–0, a forfeit's 0–2, a drawn table), and GW% / OGW% computed from the stored game points.

The game is a rigged duel whose first seat simply calls the result, so a test says who
wins each game; it is played through the service like any game (and replayed at the end).
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Sequence
from fractions import Fraction as F

import pytest
from pydantic import BaseModel

from bot.errors import UserError
from bot.service import Change, MatchService, Person
from bot.service.ratings import Ratings
from bot.service.tournaments import TournamentConfig, Tournaments
from bot.store.models import Timer
from bot.store.tournament_records import TOURNAMENT_TIMER, TournamentTable
from games import GAMES
from games.core.engine import Engine
from games.core.protocol import Action, Decision, Event, GameState, Outcome, option
from tests.bot.conftest import ANA, BEN, CLEO, DEV, MOD

DUEL = "duel"


class DuelOptions(BaseModel):
    pass


class DuelState(GameState):
    over: bool = False
    winner: int | None = None  # a seat; None with ``over``: a drawn game


class Duel(Engine[DuelState, DuelOptions]):
    """Seat 0 calls the game: "win" (seat 0 wins), "lose" (seat 1 wins) or "draw"."""

    key = DUEL
    name = "Duel"
    min_players = 2
    max_players = 2
    options_model = DuelOptions
    state_model = DuelState
    CALLS = {"win": 0, "lose": 1, "draw": None}

    def setup(self, options: DuelOptions, players: Sequence[str], seed: int) -> DuelState:
        return DuelState(seed=seed, names=tuple(players))

    def decisions(self, state: DuelState) -> list[Decision]:
        if state.over:
            return []
        calls = tuple(option(Action.of(call), call) for call in self.CALLS)
        return [Decision(key="call", seat=0, prompt="Call the game", options=calls)]

    def play(self, state: DuelState, seat: int, action: Action, rng: random.Random) -> list[Event]:
        state.over, state.winner = True, self.CALLS[action.kind]
        return [Event(text=action.kind)]

    def outcome(self, state: DuelState) -> Outcome | None:
        if not state.over:
            return None
        scores = [0, 0] if state.winner is None else [int(s == state.winner) for s in (0, 1)]
        return Outcome.ranked(scores, "called")

    def view(self, state: DuelState, seat: int | None) -> BaseModel:
        return state


@pytest.fixture
def events(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> Tournaments:
    monkeypatch.setitem(GAMES, DUEL, Duel())  # the service's game table is GAMES itself
    return Tournaments(service)


async def best_of_three(events: Tournaments, players: Sequence[Person], **options: object) -> str:
    event = await events.create(
        guild_id=1,
        channel_id=5,
        organiser=MOD,
        game_key=DUEL,
        config=TournamentConfig.model_validate(
            {"format": "swiss", "pace": "async", "best_of": 3, **options}
        ),
    )
    for person in players:
        await events.join(event.tournament_id, person)
    await events.start(event.tournament_id, MOD)
    return event.tournament_id


async def table_of(events: Tournaments, tid: str, person: Person) -> TournamentTable:
    view = await events.view(tid)
    mine = view.of_user(person.user_id)
    assert mine is not None
    return next(t for t in view.tables if t.round == view.event.round and mine.entrant in t.seats)


async def play_game(events: Tournaments, tid: str, at: Person, winner: Person | None) -> str:
    """One game at ``at``'s table, won by ``winner`` (None: drawn); its match id."""
    table = await table_of(events, tid, at)
    assert table.match_id is not None
    service = events.matches
    record, (decision,) = await service.deciding_now(table.match_id)
    caller = record.seats[decision.seat].user_id
    assert caller is not None and decision.seat == 0
    call = "draw" if winner is None else ("win" if winner.user_id == caller else "lose")
    await service.act(table.match_id, caller, stamp=decision.stamp, action=Action.of(call))
    await events.idle()
    return table.match_id


async def test_who_may_ask_for_best_of_three(events: Tournaments) -> None:
    with pytest.raises(UserError, match="two-player tables"):
        await events.create(
            guild_id=1,
            channel_id=5,
            organiser=MOD,
            game_key="toss_your_cookies",
            config=TournamentConfig(format="pods", best_of=3),
        )


async def test_a_best_of_three_swiss_records_tables_and_breaks_ties_by_game_points(
    events: Tournaments,
) -> None:
    tid = await best_of_three(events, [ANA, BEN, CLEO, DEV], rounds=2)
    view = await events.view(tid)
    by_entrant = {view.of_user(p.user_id).entrant: p for p in (ANA, BEN, CLEO, DEV)}  # type: ignore[union-attr]
    first, second = (t for t in view.tables if t.round == 1)
    # Roles: P beats Q 2–1, R beats S 2–0.
    p, q = (by_entrant[e] for e in first.seats)
    r, s = (by_entrant[e] for e in second.seats)

    # P–Q: game 1 to P; game 2 opens at once at the same table, in the same channel, with
    # the seats the other way round; Q takes it; P takes game 3 and the table.
    game_1 = await play_game(events, tid, p, p)
    table = await table_of(events, tid, p)
    assert table.status == "playing" and table.match_id != game_1
    assert [(g.match_id, g.winner) for g in table.games] == [(game_1, first.seats[0])]
    one, two = await events.matches.get(game_1), await events.matches.get(table.match_id)  # type: ignore[arg-type]
    assert two.status == "active" and two.channel_id == one.channel_id
    assert [s.user_id for s in two.seats] == [s.user_id for s in reversed(one.seats)]
    await play_game(events, tid, p, q)
    assert len((await table_of(events, tid, p)).games) == 2
    game_3 = await play_game(events, tid, p, p)
    # R–S: two games to R and the table is over; no third game is opened.
    await play_game(events, tid, r, r)
    await play_game(events, tid, r, r)

    view = await events.view(tid)
    results = {(x.round, x.table_no): x for x in view.results}
    p_q, r_s = results[(1, first.table_no)], results[(1, second.table_no)]
    assert (p_q.places, p_q.game_wins, p_q.game_draws) == ([1, 2], [2, 1], 0)
    assert p_q.source == "match" and p_q.match_id == game_3
    assert (r_s.places, r_s.game_wins, r_s.game_draws) == ([1, 2], [2, 0], 0)
    assert {t.status for t in view.tables if t.round == 1} == {"done"}
    assert len([t for t in view.tables if t.round == 1][1].games) == 2

    # Round 2 pairs the winners and the losers. R wins game 1 against P, then leaves in
    # game 2: a forfeit loses the table 0–2, the game R won notwithstanding. Q and S
    # split two games and draw the third: a drawn table, 1–1 with a drawn game.
    assert view.event.round == 2
    assert {frozenset(t.seats) for t in view.tables if t.round == 2} == {
        frozenset(first.seats[:1] + second.seats[:1]),
        frozenset(first.seats[1:] + second.seats[1:]),
    }
    await play_game(events, tid, p, r)
    forfeited = await table_of(events, tid, r)
    await events.matches.leave_match(forfeited.match_id, r.user_id)  # type: ignore[arg-type]
    await events.idle()
    await play_game(events, tid, q, q)
    await play_game(events, tid, q, s)
    await play_game(events, tid, q, None)

    view = await events.view(tid)
    assert view.event.status == "finished"
    entrant = {person: view.of_user(person.user_id).entrant for person in (p, q, r, s)}  # type: ignore[union-attr]
    results = {frozenset(x.players): x for x in view.results if x.round == 2}
    p_r = results[frozenset((entrant[p], entrant[r]))]
    assert p_r.gone == [entrant[r]] and p_r.places[p_r.players.index(entrant[r])] == 2
    assert p_r.game_wins[p_r.players.index(entrant[p])] == 2  # type: ignore[index]
    assert p_r.game_wins[p_r.players.index(entrant[r])] == 0  # type: ignore[index]
    q_s = results[frozenset((entrant[q], entrant[s]))]
    assert (q_s.places, q_s.game_wins, q_s.game_draws) == ([1, 1], [1, 1], 1)

    # By hand (MTR: game won 3, drawn 1; GW% = max(0.33, GP / 3G)):
    #   P: 2–1 then 2–0 -> 12 GP in 5 games = 0.8     R: 2–0 then 0–2 -> 6 in 4 = 0.5
    #   Q: 1–2 then 1–1–1 -> 7 in 6 = 7/18            S: 0–2 then 1–1–1 -> 4 in 5 -> 0.33
    # OGW%: P (Q, R) 4/9; Q (P, S) 113/200; R (S, P) 113/200; S (R, Q) 4/9.
    # Points P 6, R 3, Q 1, S 1; OMW% breaks Q (P 1, S 0.33: 0.665) over S (0.415).
    standings = [(x.player, x.points, dict(x.tiebreakers)) for x in view.standings]
    assert [(player, points) for player, points, _ in standings] == [
        (entrant[p], 6),
        (entrant[r], 3),
        (entrant[q], 1),
        (entrant[s], 1),
    ]
    expected = {
        p: (F(4, 5), F(4, 9)),
        r: (F(1, 2), F(113, 200)),
        q: (F(7, 18), F(113, 200)),
        s: (F(33, 100), F(4, 9)),
    }
    for person, (gw, ogw) in expected.items():
        breakers = next(b for player, _, b in standings if player == entrant[person])
        assert (breakers["GW%"], breakers["OGW%"]) == (gw, ogw), person.name
    assert [name for name, _ in view.standings[0].tiebreakers] == ["OMW%", "GW%", "OGW%", "OOMW%"]

    # The export: GW% and OGW% columns, and each seat's games in results.csv.
    files = await events.export(tid)
    header, *rows = files["standings.csv"].splitlines()
    assert header == "rank,player,user_id,points,OMW%,GW%,OGW%,OOMW%,dropped,bot"
    assert rows[0].split(",")[4:7] == ["0.41", "0.80", "0.44"]  # OMW% 0.415 as a float
    seats = list(csv.DictReader(io.StringIO(files["results.csv"])))
    assert sorted((r["games_won"], r["games_drawn"]) for r in seats if r["round"] == "1") == [
        ("0", "0"),
        ("1", "0"),
        ("2", "0"),
        ("2", "0"),
    ]


async def test_the_deadline_draws_an_unfinished_table_keeping_the_games_won(
    events: Tournaments,
) -> None:
    tid = await best_of_three(events, [ANA, BEN], pace="casual")
    await play_game(events, tid, ANA, ANA)
    table = await table_of(events, tid, ANA)
    deadline = Timer(
        match_id=TOURNAMENT_TIMER + tid, kind="deadline", seat=0, version=1, due_at=0.0
    )
    await events.on_timer(deadline)
    await events.idle()
    view = await events.view(tid)
    (result,) = view.results
    ana = view.of_user(ANA.user_id).entrant  # type: ignore[union-attr]
    assert result.source == "adjudicated" and result.places == [1, 1]
    assert result.game_wins == [1 if p == ana else 0 for p in result.players]
    assert (await events.matches.get(table.match_id)).status == "cancelled"  # type: ignore[arg-type]
    assert view.event.status == "finished"
    # The game cut short counts for nobody: Ana won the one game played (GW% 3/3), Ben
    # lost it (0, floored to 0.33); the table itself is a draw.
    gw = {s.player: (s.points, dict(s.tiebreakers)["GW%"]) for s in view.standings}
    assert gw == {ana: (1, F(1)), next(p for p in result.players if p != ana): (1, F(33, 100))}


async def test_a_best_of_three_bracket_goes_to_the_table_winner_and_rates_each_game(
    events: Tournaments,
) -> None:
    ratings = Ratings(events.matches)
    tid = await best_of_three(events, [ANA, BEN], format="single_elimination")
    # A bracket of two is its final: Ben takes game 1, Ana the next two and the event.
    games = [await play_game(events, tid, ANA, winner) for winner in (BEN, ANA, ANA)]
    await ratings.idle()
    view = await events.view(tid)
    (result,) = view.results
    ana = view.of_user(ANA.user_id).entrant  # type: ignore[union-attr]
    assert result.game_wins == [2 if p == ana else 1 for p in result.players]
    assert view.event.status == "finished" and view.champion().user_id == ANA.user_id  # type: ignore[union-attr]
    # Each game is a finished match of its own, rated on its own.
    for match_id in games:
        assert (await events.matches.get(match_id)).status == "finished"
        assert await ratings.store.match_rated(match_id)


async def test_a_restart_between_two_games_opens_the_next_game_once(events: Tournaments) -> None:
    tid = await best_of_three(events, [ANA, BEN])
    game_1 = await play_game(events, tid, ANA, ANA)
    opened = await table_of(events, tid, ANA)
    # As if the process stopped after game 1 was kept but before game 2 was opened.
    await events.store.save_tournament_table(opened.model_copy(update={"match_id": game_1}))
    await events.matches.cancel(opened.match_id, MOD)  # type: ignore[arg-type]
    await events.idle()
    assert await events.sweep() == 1
    await events.idle()
    table = await table_of(events, tid, ANA)
    assert table.status == "playing" and table.match_id not in (game_1, opened.match_id)
    assert [game.match_id for game in table.games] == [game_1]
    assert (await events.matches.get(table.match_id)).status == "active"  # type: ignore[arg-type]
    # game 1's "finished" again changes nothing: it is no longer the table's match.
    await events.on_match_change(Change(kind="finished", match=await events.matches.get(game_1)))
    await events.idle()
    assert await table_of(events, tid, ANA) == table
    await play_game(events, tid, ANA, ANA)
    (result,) = (await events.view(tid)).results
    ana = (await events.view(tid)).of_user(ANA.user_id).entrant  # type: ignore[union-attr]
    assert result.game_wins == [2 if p == ana else 0 for p in result.players]
