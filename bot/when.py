"""A moment someone types: ``in 2h``, ``18:00``, ``2026-12-24 18:00``, an ISO date.

Times without a zone are UTC (Discord shows every stored time back in each reader's own
zone as a timestamp, so the organiser sees at once what they set).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from bot.errors import UserError
from games.core.text import t

LATEST = 365 * 86_400.0  # further ahead than this is a typo more likely than a plan
_UNITS = {"m": 60, "min": 60, "h": 3600, "hour": 3600, "d": 86_400, "day": 86_400}
_SPAN = re.compile(r"(\d+)\s*(min|m|hour|h|day|d)(?:ute)?s?\s*")
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})")


def parse_moment(text: str, now: float) -> float:
    """The unix time ``text`` names, which must lie ahead of ``now`` (within a year)."""
    typed = text.strip().lower()
    when = _after(typed, now) or _clock(typed, now) or _date(typed)
    if when is None:
        raise UserError(
            t("Write the start as `in 2h`, `in 30m`, `18:00` (UTC) or `2026-12-24 18:00` (UTC).")
        )
    if when <= now:
        raise UserError(
            t(
                "That time has passed: give one in the future, as `in 2h`, `in 30m`, "
                "`18:00` (UTC) or `2026-12-24 18:00` (UTC)."
            )
        )
    if when - now > LATEST:
        raise UserError(t("That is more than a year away: give a nearer time."))
    return when


def _after(typed: str, now: float) -> float | None:
    """``in 2h``, ``in 1h 30m``, ``90 minutes``: a span from now."""
    rest = typed.removeprefix("in ").strip()
    if not rest or _SPAN.sub("", rest):
        return None  # something besides spans: not this form
    return now + sum(int(n) * _UNITS[unit] for n, unit in _SPAN.findall(rest))


def _clock(typed: str, now: float) -> float | None:
    """``18:00``: the next time the UTC clock shows it (today, else tomorrow)."""
    found = _CLOCK.fullmatch(typed)
    if found is None:
        return None
    hour, minute = int(found[1]), int(found[2])
    if hour > 23 or minute > 59:
        raise UserError(
            t(
                "That is not a time of day: write the start as `in 2h`, `in 30m`, `18:00` "
                "(UTC) or `2026-12-24 18:00` (UTC)."
            )
        )
    today = datetime.fromtimestamp(now, UTC).replace(hour=hour, minute=minute, second=0)
    when = today if today.timestamp() > now else today + timedelta(days=1)
    return when.timestamp()


def _date(typed: str) -> float | None:
    """``2026-12-24``, ``2026-12-24 18:00``, ``2026-12-24T18:00+02:00``: ISO 8601."""
    try:
        when = datetime.fromisoformat(typed.upper())
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()
