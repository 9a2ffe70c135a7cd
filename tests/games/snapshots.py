"""Snapshot pictures, compared by eye-like difference (mean absolute pixel difference on
Discord's dark background), not by bytes: a Pillow upgrade may move an anti-aliased pixel
without changing what a player sees.

To redraw the references after a deliberate change: UPDATE_PICTURES=1 pytest the game's
test_pictures.py, then LOOK at every image in its pictures/ folder before committing them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from games.core.pictures import difference, patch_difference

TOLERANCE = 1.0  # mean per-channel difference (0-255); a moved card is far above it
# The worst 32-pixel square: a changed word or count in one player's corner is far above
# it, where the whole picture's mean barely moves.
PATCH_TOLERANCE = 6.0


def assert_matches(drawn: bytes | None, reference: Path) -> None:
    assert drawn is not None
    if os.environ.get("UPDATE_PICTURES"):
        reference.write_bytes(drawn)
    assert difference(drawn, reference.read_bytes()) < TOLERANCE
    assert patch_difference(drawn, reference.read_bytes()) < PATCH_TOLERANCE


def snapshot_test(
    snapshots: dict[str, Callable[[], bytes | None]], references: Path
) -> Callable[[str], None]:
    """The test every game's snapshot file runs: each drawing against its reference."""

    @pytest.mark.parametrize("name", sorted(snapshots))
    def test_pictures_match_their_references(name: str) -> None:
        assert_matches(snapshots[name](), references / f"{name}.png")

    return test_pictures_match_their_references
