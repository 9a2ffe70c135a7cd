"""When a recurring event's occurrences fall: weekdays and a local time in an IANA time
zone (``zoneinfo``), so a summer-time change keeps the local time, or one date.

What an organiser types: ``fri``, ``mon, thu``, ``friday`` or a date ``2027-01-15`` for
one occurrence; ``20:00``; ``Europe/Berlin``. Each bad piece is refused in one sentence."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.errors import UserError
from games.core.text import t

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_CLOCK = re.compile(r"(\d{1,2}):(\d{2})")


def parse_days(text: str) -> str:
    """``fri`` / ``mon, thu`` as stored ("4", "0,3"), or one ISO date ("2027-01-15")."""
    typed = text.strip().lower()
    try:
        return date.fromisoformat(typed).isoformat()
    except ValueError:
        pass
    days: set[int] = set()
    for word in re.split(r"[\s,]+", typed):
        if not word:
            continue
        day = next((n for n, name in enumerate(WEEKDAYS) if word.startswith(name)), None)
        if day is None:
            raise _bad_days()
        days.add(day)
    if not days:
        raise _bad_days()
    return ",".join(str(day) for day in sorted(days))


def _bad_days() -> UserError:
    return UserError(
        t("Write the days as weekdays, like `fri` or `mon, thu`, or one date like `2027-01-15`.")
    )


def parse_clock(text: str) -> str:
    """``20:00`` as stored (``HH:MM``)."""
    found = _CLOCK.fullmatch(text.strip())
    if found is None or int(found[1]) > 23 or int(found[2]) > 59:
        raise UserError(t("Write the time of day as `20:00` (24-hour clock)."))
    return f"{int(found[1]):02d}:{found[2]}"


def zone_of(name: str) -> ZoneInfo:
    try:
        if not name.strip() or name.startswith(("/", ".")) or ".." in name:
            raise ValueError(name)
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise UserError(
            t(
                "There is no time zone called '{zone}': give an IANA name like `Europe/Berlin`, "
                "`America/New_York` or `Asia/Seoul`.",
                zone=name.strip()[:60],
            )
        ) from None


def is_one_date(days: str) -> bool:
    return "-" in days


def next_start(days: str, at: str, zone: str, after: float) -> float | None:
    """The first occurrence strictly after ``after`` (None: a one-date schedule whose date
    has passed). The local time is kept whatever the offset that day: 20:00 in
    Europe/Berlin is 18:00 UTC in summer and 19:00 in winter."""
    where = ZoneInfo(zone)
    hour, minute = (int(part) for part in at.split(":"))
    if is_one_date(days):
        moment = datetime.combine(date.fromisoformat(days), time(hour, minute), tzinfo=where)
        return moment.timestamp() if moment.timestamp() > after else None
    weekdays = {int(day) for day in days.split(",")}
    local = datetime.fromtimestamp(after, where).date()
    for offset in range(8):
        day = local + timedelta(days=offset)
        if day.weekday() in weekdays:
            moment = datetime.combine(day, time(hour, minute), tzinfo=where).timestamp()
            if moment > after:
                return moment
    return None  # unreachable for a non-empty set of weekdays
