"""Picture snapshots, for every game that draws: a drawing is compared with its reference
PNG by eye-like difference (mean absolute pixel difference on Discord's dark background),
not by bytes, as a Pillow upgrade may move an anti-aliased pixel without changing what a
player sees. UPDATE_PICTURES=1 redraws the references: LOOK at them before committing."""

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


def difference_from_reference(drawn: bytes | None, reference: Path) -> float:
    assert drawn is not None
    if os.environ.get("UPDATE_PICTURES"):
        reference.write_bytes(drawn)
    return difference(drawn, reference.read_bytes())


def snapshot_test(
    snapshots: dict[str, Callable[[], bytes | None]], references: Path
) -> Callable[[str], None]:
    """A game's snapshot test: each drawing against its reference, by the whole picture's
    mean and by its worst square."""

    @pytest.mark.parametrize("name", sorted(snapshots))
    def test_pictures_match_their_references(name: str) -> None:
        drawn, reference = snapshots[name](), references / f"{name}.png"
        assert difference_from_reference(drawn, reference) < TOLERANCE
        assert drawn is not None
        assert patch_difference(drawn, reference.read_bytes()) < PATCH_TOLERANCE

    return test_pictures_match_their_references
