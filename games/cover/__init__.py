"""The Cover family: Cover Your Assets and Cover Your Cookies, one engine, two rule sets."""

from games.cover.cookies import CoverYourCookies
from games.cover.engine import CoverYourAssets

__all__ = ["CoverYourAssets", "CoverYourCookies"]
