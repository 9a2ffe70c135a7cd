"""Pure game engines behind one protocol. ``GAMES`` is the registry every layer reads."""

from games.braverse import Braverse
from games.chomper import CookieChomper
from games.core.protocol import Game
from games.cover import CoverYourAssets, CoverYourCookies
from games.toss import TossYourCookies

GAMES: dict[str, Game] = {  # type: ignore[misc]
    game.key: game
    for game in (
        CoverYourAssets(),
        CoverYourCookies(),
        TossYourCookies(),
        CookieChomper(),
        Braverse(),
    )
}

__all__ = ["GAMES", "Game"]
