"""Seeded randomness: every shuffle of a match comes from ``(seed, version)``.

Same seed and same actions give the same states byte for byte, which is what makes replays,
bug reports and crash recovery possible.
"""

from __future__ import annotations

import random
from typing import Any


def rng_for(seed: int, version: int, purpose: str = "") -> random.Random:
    # Seeding from a string goes through SHA-512 in CPython, so it is stable across runs and
    # platforms, unlike hash().
    return SeededRandom(f"{seed}:{version}:{purpose}")


class SeededRandom(random.Random):
    """``random.Random(key)``, seeded at its first draw rather than when made: most moves
    draw nothing at all, and seeding (SHA-512 of the key, then the generator's state) was
    a seventh of a move's ``apply``. Every draw gives what ``random.Random(key)`` gives: all
    of its methods draw through ``random`` and ``getrandbits``."""

    def __init__(self, key: str) -> None:  # no super().__init__(): that would seed now
        self._key: str | None = key

    def _seed_now(self) -> None:
        key, self._key = self._key, None
        super().seed(key)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._key = None  # seeded explicitly: the key no longer applies
        super().seed(a, version)

    def random(self) -> float:
        if self._key is not None:
            self._seed_now()
        return super().random()

    def getrandbits(self, k: int) -> int:
        if self._key is not None:
            self._seed_now()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        if self._key is not None:
            self._seed_now()
        return super().getstate()
