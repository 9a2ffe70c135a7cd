"""When a recurring event's occurrences fall: weekdays and a local time in an IANA time
zone (``zoneinfo``), so a summer-time change keeps the local time, or one date.

What an organiser types: weekdays in any language we ship (``fri``, ``mon, thu``,
``friday``; ``월, 목`` or ``월수금``; ``月曜日、木曜日``; ``lunes y jueves``, ``miercoles``;
``segunda, quinta``, ``sáb.``), or a date ``2027-01-15`` for one occurrence; ``20:00``;
``Europe/Berlin``. Each bad piece is refused in one sentence. Shown back, the days are
named in the reader's language (``days_text``)."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import get_day_names

from bot.errors import UserError
from games.core.text import Names, Text, Weekday, t
from games.core.translations import LANGUAGES

_CLOCK = re.compile(r"(\d{1,2}):(\d{2})")
# Between days: spaces and commas (ASCII, Japanese and full-width), slashes, "・", "·", "&".
_BETWEEN = re.compile(r"[\s,，、/・·&;]+")
# A word joining the last two days, as each language writes it ("mon and thu", "lunes y
# jueves", "segunda e quinta", "월 및 목", "月と木" written with spaces).
_AND = frozenset({"and", "y", "e", "및", "와", "과", "と"})


def _plain(word: str) -> str:
    """Lower case, a Latin letter's accents dropped ("Miércoles" reads "miercoles"), the
    abbreviation's dot dropped ("sáb." reads "sab"); Hangul and kanji as they are."""
    letters = (
        unicodedata.normalize("NFD", ch)[0] if ord(ch) < 0x250 else ch for ch in word.lower()
    )
    return "".join(letters).rstrip(".")


def _day_forms() -> list[tuple[str, int]]:
    """Every language's names of the days, wide and abbreviated (CLDR's, by Babel), plain,
    longest first: a typed word names the day whose form it starts with."""
    forms: dict[str, int] = {}
    for code in LANGUAGES:
        for width in ("wide", "abbreviated"):
            for day, name in get_day_names(width, locale=code).items():
                forms[_plain(str(name))] = day
                if code == "ja" and width == "wide":
                    forms[_plain(str(name))[:-1]] = day  # 月曜 for 月曜日, as often written
    return sorted(forms.items(), key=lambda form: -len(form[0]))


DAY_FORMS = _day_forms()
# What may join days written without spaces in Korean and Japanese ("월요일과", "月と木").
_JOINING = frozenset("와과및랑と")


def parse_days(text: str) -> str:
    """Weekdays ("fri", "mon, thu", "월수금", "lunes y jueves") as stored ("4", "0,3"), or
    one ISO date ("2027-01-15")."""
    typed = text.strip()
    try:
        return date.fromisoformat(typed).isoformat()
    except ValueError:
        pass
    days: set[int] = set()
    for word in _BETWEEN.split(_plain(typed)):
        if word and word not in _AND:
            days.update(_days_in(word))
    if not days:
        raise _bad_days()
    return ",".join(str(day) for day in sorted(days))


def _days_in(word: str) -> list[int]:
    """The days one word names: a Latin word by the name it starts with ("fridays",
    "thurs", "miercoles"); Hangul and kanji read through, day after day ("월수금",
    "月曜日と木曜日"), so nothing in it is left unread."""
    if not any(ord(ch) >= 0x1100 for ch in word):
        day = next((day for form, day in DAY_FORMS if word.startswith(form)), None)
        if day is None:
            raise _bad_days()
        return [day]
    found: list[int] = []
    rest = word
    while rest:
        if rest[0] in _JOINING:
            rest = rest[1:]
            continue
        match = next(((form, day) for form, day in DAY_FORMS if rest.startswith(form)), None)
        if match is None:
            raise _bad_days()
        found.append(match[1])
        rest = rest[len(match[0]) :]
    return found


def _bad_days() -> UserError:
    return UserError(
        t(
            "Write the days as weekdays, like `{one}` or `{two}`, or one date like `2027-01-15`.",
            one=Weekday(4),
            two=Names([Weekday(0), Weekday(3)]),
        )
    )


def days_text(weekdays: str) -> Text:
    """A schedule's stored days ("0,3") in the reader's language: "Monday and Thursday",
    "월요일 및 목요일", "lunes y jueves"; a one-date schedule's date as written."""
    if is_one_date(weekdays):
        return t("on {date}", date=weekdays)
    return t("every {days}", days=Names(Weekday(int(day)) for day in weekdays.split(",")))


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
