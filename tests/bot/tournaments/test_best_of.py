"""Best-of-three tables (bot/tournaments/best_of.py): who sits first each game, when a table
is decided, its places by game points, and a forfeit's 0–2."""

from __future__ import annotations

from bot.tournaments import best_of as bo

ANA, BEN = 7, 9


def test_seats_alternate_so_each_player_goes_first_at_least_once() -> None:
    assert [bo.game_seats((ANA, BEN), game) for game in (1, 2, 3)] == [
        (ANA, BEN),
        (BEN, ANA),
        (ANA, BEN),
    ]


def test_a_game_has_one_winner_or_is_drawn() -> None:
    assert bo.game_winner((ANA, BEN), (2, 1)) == BEN
    assert bo.game_winner((ANA, BEN), (1, 1)) is None


def test_two_wins_decide_a_table_and_otherwise_three_games_do() -> None:
    two_nil = bo.score((ANA, BEN), [ANA, ANA])
    assert two_nil == bo.GameScore(wins=(2, 0)) and bo.decided(two_nil, 3)
    assert two_nil.places() == (1, 2)
    one_all = bo.score((ANA, BEN), [ANA, BEN])
    assert not bo.decided(one_all, 3)
    two_one = bo.score((ANA, BEN), [ANA, BEN, BEN])
    assert bo.decided(two_one, 3) and two_one.places() == (2, 1)
    # Drawn games: nobody reaches two wins, so the third game ends the table and game
    # points (win 3, draw 1) decide it.
    assert not bo.decided(bo.score((ANA, BEN), [None, ANA]), 3)
    drawn = bo.score((ANA, BEN), [ANA, BEN, None])
    assert drawn == bo.GameScore(wins=(1, 1), draws=1) and bo.decided(drawn, 3)
    assert [drawn.points(0), drawn.points(1)] == [4, 4] and drawn.places() == (1, 1)
    ahead = bo.score((ANA, BEN), [None, BEN, None])
    assert [ahead.points(0), ahead.points(1)] == [2, 5] and ahead.places() == (2, 1)
    # Best of one: a single game decides.
    assert bo.decided(bo.score((ANA, BEN), [None]), 1)


def test_a_forfeit_loses_the_table_nil_two_whatever_was_played() -> None:
    assert bo.forfeit_score((ANA, BEN), {BEN}, 3) == bo.GameScore(wins=(2, 0))
    assert bo.forfeit_score((ANA, BEN), {ANA, BEN}, 3) == bo.GameScore(wins=(0, 0))
