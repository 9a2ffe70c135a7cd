"""Seeded randomness: every shuffle of a match comes from ``(seed, version)``.

Same seed and same actions give the same states byte for byte, which is what makes replays,
bug reports and crash recovery possible.
"""

from __future__ import annotations

import random


def rng_for(seed: int, version: int, purpose: str = "") -> random.Random:
    # Seeding from a string goes through SHA-512 in CPython, so it is stable across runs and
    # platforms, unlike hash().
    return random.Random(f"{seed}:{version}:{purpose}")
