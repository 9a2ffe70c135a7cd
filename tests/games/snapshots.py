"""Picture snapshots, for every game that draws: a drawing is compared with its reference
PNG by eye-like difference (mean absolute pixel difference on Discord's dark background),
not by bytes, as a Pillow upgrade may move an anti-aliased pixel without changing what a
player sees. UPDATE_PICTURES=1 redraws the references: LOOK at them before committing."""

from __future__ import annotations

import os
from pathlib import Path

from games.core.pictures import difference

TOLERANCE = 1.0  # mean per-channel difference (0-255); a moved card is far above it


def difference_from_reference(drawn: bytes | None, reference: Path) -> float:
    assert drawn is not None
    if os.environ.get("UPDATE_PICTURES"):
        reference.write_bytes(drawn)
    return difference(drawn, reference.read_bytes())
