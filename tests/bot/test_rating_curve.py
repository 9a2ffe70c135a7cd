"""The /stats rating curve, pure: its grid steps, its refusals, and a picture that moves
with the ratings and not with anything else."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.rating_curve import HEIGHT, rating_curve, tick_step
from games.core.pictures import WIDTH, difference

DAY = 86_400.0
TIMES = [1_700_000_000.0 + n * DAY for n in range(4)]


def test_grid_steps_are_round_and_few() -> None:
    assert tick_step(1490, 1530) == 10
    assert tick_step(1200, 1800) == 200
    assert tick_step(1500, 1500) == 5  # one rating: a grid all the same


def test_a_curve_needs_a_time_for_each_rating() -> None:
    with pytest.raises(ValueError):
        rating_curve(TIMES[:2], [1500, 1510, 1520], "T", "S")
    with pytest.raises(ValueError):
        rating_curve([], [], "T", "S")


def test_the_curve_follows_the_ratings() -> None:
    rising = rating_curve(TIMES, [1500, 1520, 1540, 1560], "Cookie Chomper rating", "3 games")
    falling = rating_curve(TIMES, [1500, 1480, 1460, 1440], "Cookie Chomper rating", "3 games")
    again = rating_curve(TIMES, [1500, 1520, 1540, 1560], "Cookie Chomper rating", "3 games")
    assert Image.open(io.BytesIO(rising)).size == (WIDTH, HEIGHT)
    assert rising == again
    assert difference(rising, falling) > 0.1


def test_one_rated_game_draws_a_point() -> None:
    png = rating_curve(TIMES[:1], [1500], "T", "S")
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
