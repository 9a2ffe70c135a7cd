"""Toss Your Cookies: dice, simultaneous passing and the toss scramble."""

from games.toss.engine import TossYourCookies

__all__ = ["TossYourCookies"]
