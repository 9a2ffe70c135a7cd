"""``--pictures DIR``: each state's table picture (and the chosen seats' hands) as PNG files,
so pictures can be looked at without Discord."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from games.core.pictures import hand_picture
from games.core.protocol import Game, GameState, Picturing


def write_pictures(game: Game, state: GameState, directory: Path, seats: Iterable[int]) -> None:
    """``NNNN-table.png`` for the state's version, and ``NNNN-hand-<seat>-<name>.png`` for
    each of ``seats``. Files are named by version so a replay and a live match agree."""
    assert isinstance(game, Picturing)
    directory.mkdir(parents=True, exist_ok=True)
    step = f"{state.version:04d}"
    (directory / f"{step}-table.png").write_bytes(game.table_picture(game.view(state, None)))
    for seat in seats:
        hand = hand_picture(game, game.view(state, seat))
        if hand is not None:
            name = "".join(c for c in state.names[seat] if c.isalnum()) or "seat"
            (directory / f"{step}-hand-{seat + 1}-{name}.png").write_bytes(hand)
