"""Cookie Chomper: take cookies, avoid the poison; every card and five modes."""

from games.chomper.engine import CookieChomper

__all__ = ["CookieChomper"]
