"""CookieRun: Braverse (unofficial fan implementation): two-player card battles."""

from games.braverse.engine import Braverse

__all__ = ["Braverse"]
