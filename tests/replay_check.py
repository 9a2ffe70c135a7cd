"""The replay round trip over a whole database: every finished match, replayed from its seed,
options and action log, must end in its saved snapshot, byte for byte.

The Discord and service test suites run this on their database when each test ends (see
their conftest.py), so every finished match of every game those suites play is checked.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from games.core.protocol import Game
from games.core.replay import ExportedAction, ExportedSeat, MatchExport, final_state


def export_of(
    match: tuple[str, str, str, int], seats: list[tuple], actions: list[tuple]
) -> MatchExport:
    """``match``: (id, game, options, seed); ``seats``: (seat, name, user_id) rows;
    ``actions``: (seq, seat, action, at) rows, ``at`` a datetime or its ISO text."""
    match_id, game, options, seed = match
    return MatchExport(
        match_id=match_id,
        game=game,
        options=json.loads(options),
        seed=seed,
        seats=[ExportedSeat(seat=s, name=n, bot=u is None) for s, n, u in seats],
        actions=[
            ExportedAction(
                seq=q,
                seat=s,
                action=a,
                at=(at if isinstance(at, datetime) else datetime.fromisoformat(at)).timestamp(),
            )
            for q, s, a, at in actions
        ],
    )


def finished_exports(path: Path) -> list[tuple[MatchExport, str]]:
    """``(export, saved state)`` for every finished match in the database at ``path``."""
    if not path.exists():
        return []
    with sqlite3.connect(path) as db:
        if not db.execute("SELECT name FROM sqlite_master WHERE name = 'matches'").fetchone():
            return []
        matches = db.execute(
            "SELECT id, game, options, seed, state FROM matches WHERE status = 'finished'"
        ).fetchall()
        found = []
        for match_id, game, options, seed, state in matches:
            seats = db.execute(
                "SELECT seat, name, user_id FROM seats WHERE match_id = ? ORDER BY seat",
                (match_id,),
            ).fetchall()
            actions = db.execute(
                "SELECT seq, seat, action, at FROM actions WHERE match_id = ? ORDER BY seq",
                (match_id,),
            ).fetchall()
            found.append((export_of((match_id, game, options, seed), seats, actions), state))
    return found


async def postgres_exports(url: str) -> list[tuple[MatchExport, str]]:
    """The same, read from a PostgreSQL database."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        if await conn.fetchval("SELECT to_regclass('matches')") is None:
            return []
        found = []
        for row in await conn.fetch(
            "SELECT id, game, options, seed, state FROM matches WHERE status = 'finished'"
        ):
            seats = await conn.fetch(
                "SELECT seat, name, user_id FROM seats WHERE match_id = $1 ORDER BY seat",
                row["id"],
            )
            actions = await conn.fetch(
                "SELECT seq, seat, action, at FROM actions WHERE match_id = $1 ORDER BY seq",
                row["id"],
            )
            match = (row["id"], row["game"], row["options"], row["seed"])
            found.append((export_of(match, list(seats), list(actions)), row["state"]))
    finally:
        await conn.close()
    return found


def check_replays(path: Path, games: Mapping[str, Game]) -> int:
    """Replay every finished match; raise naming each one whose replay differs."""
    return check_exports(finished_exports(path), games)


def check_exports(exports: list[tuple[MatchExport, str]], games: Mapping[str, Game]) -> int:
    wrong = []
    checked = 0
    for export, saved in exports:
        game = games[export.game]
        replayed = final_state(game, export)
        checked += 1
        # Compared as states, not as JSON: a log line written before the catalog is plain
        # English where a replay writes its message and arguments, and reads the same.
        if replayed != game.state_model.model_validate_json(saved):
            wrong.append(f"{export.game} match {export.match_id}")
    if wrong:
        raise AssertionError(f"replay differs from the saved state: {', '.join(wrong)}")
    return checked
