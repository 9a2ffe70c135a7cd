"""How hard a bot plays: the three levels people pick for the seats bots fill.

easy plays like a beginner (the game's heuristic, with mistakes), normal is the heuristic,
hard thinks ahead with the game's search on a time budget. The level is part of a bot's
seat, so the table can say it and ratings can keep each level apart from people.
"""

from __future__ import annotations

from typing import Literal

from games.core.text import Text, tc

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")
DEFAULT_LEVEL: Level = "normal"
# hard's thinking time a decision: with the search's clock read inside its playouts too,
# p99 stays under 300 ms on a busy 2-core machine (docs/benchmarks.md, python -m bench bots)
HARD_SECONDS = 0.15

LEVEL_NAMES: dict[Level, Text] = {
    "easy": tc("level", "Easy"),
    "normal": tc("level", "Normal"),
    "hard": tc("level", "Hard"),
}
LEVEL_HINTS: dict[Level, Text] = {
    "easy": tc("level", "plays like a beginner and makes mistakes"),
    "normal": tc("level", "plays sensibly, without thinking ahead"),
    "hard": tc("level", "thinks ahead a few moves; a real test"),
}
