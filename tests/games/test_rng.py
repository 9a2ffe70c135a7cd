"""A match's randomness: what a saved match was dealt must deal the same way for good."""

from __future__ import annotations

import random

import pytest

from games.core.rng import SeededRandom, rng_for


def draws(rng: random.Random) -> list[object]:
    cards = list(range(60))
    rng.shuffle(cards)
    return [
        cards,
        rng.choice("abcdefgh"),
        rng.randint(0, 5),
        rng.randrange(1000),
        rng.sample(range(100), 7),
        rng.choices("xyz", k=4),
        rng.random(),
        rng.uniform(2, 3),
        rng.getrandbits(90),
    ]


@pytest.mark.parametrize("key", ["1:0:", "8421:17:", "99:3:deal"])
def test_a_seeded_random_draws_what_random_random_of_its_key_draws(key: str) -> None:
    assert draws(SeededRandom(key)) == draws(random.Random(key))


def test_the_first_draw_may_be_any_method_and_an_explicit_seed_wins() -> None:
    assert SeededRandom("5:5:").getrandbits(32) == random.Random("5:5:").getrandbits(32)
    assert SeededRandom("5:5:").getstate() == random.Random("5:5:").getstate()
    reseeded = SeededRandom("5:5:")
    reseeded.seed(12)
    assert draws(reseeded) == draws(random.Random(12))


def test_rng_for_keys_by_seed_version_and_purpose() -> None:
    assert draws(rng_for(3, 4)) == draws(random.Random("3:4:"))
    assert draws(rng_for(3, 4, "deal")) == draws(random.Random("3:4:deal"))
