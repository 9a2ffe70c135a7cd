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
            export = MatchExport(
                match_id=match_id,
                game=game,
                options=json.loads(options),
                seed=seed,
                seats=[ExportedSeat(seat=s, name=n, bot=u is None) for s, n, u in seats],
                actions=[
                    ExportedAction(
                        seq=q, seat=s, action=a, at=datetime.fromisoformat(at).timestamp()
                    )
                    for q, s, a, at in actions
                ],
            )
            found.append((export, state))
    return found


def check_replays(path: Path, games: Mapping[str, Game]) -> int:
    """Replay every finished match; raise naming each one whose replay differs."""
    wrong = []
    checked = 0
    for export, saved in finished_exports(path):
        replayed = final_state(games[export.game], export).model_dump_json()
        checked += 1
        if replayed != saved:
            wrong.append(f"{export.game} match {export.match_id}")
    if wrong:
        raise AssertionError(f"replay differs from the saved state: {', '.join(wrong)}")
    return checked
