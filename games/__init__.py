"""Pure game engines behind one protocol. ``GAMES`` is the registry every layer reads."""

from games.core.protocol import Game
from games.cover import CoverYourAssets

GAMES: dict[str, Game] = {game.key: game for game in (CoverYourAssets(),)}  # type: ignore[misc]

__all__ = ["GAMES", "Game"]
