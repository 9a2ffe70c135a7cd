"""The Cover family: Cover Your Assets (and, later, Cover Your Cookies) on one engine."""

from games.cover.engine import CoverYourAssets

__all__ = ["CoverYourAssets"]
