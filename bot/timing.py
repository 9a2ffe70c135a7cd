"""Paces and deadlines: how long a decision may take, and when its player is reminded."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from bot.forward_compatible import FORWARD_COMPATIBLE
from games.core.levels import DEFAULT_LEVEL, Level
from games.core.text import t, tn

Pace = Literal["live", "casual", "async", "correspondence", "custom"]

# Seconds for an ordinary decision, and for a reaction (answering a challenge, say).
PACES: dict[str, tuple[float, float]] = {
    "live": (60, 20),
    "casual": (10 * 60, 10 * 60),
    "async": (24 * 3600, 24 * 3600),
    "correspondence": (72 * 3600, 72 * 3600),
}
PACE_LABELS = {
    "live": t("Live: 1 minute a move"),
    "casual": t("Casual: 10 minutes a move"),
    "async": t("Async: 24 hours a move"),
    "correspondence": t("Correspondence: 72 hours a move"),
    "custom": t("Custom: the server's custom_minutes a move"),
}
REMINDED_FROM = 10 * 60  # a clock this long or longer gets reminders; a live table is watched


Policy = Literal["default_move", "bot", "forfeit"]
POLICY_LABELS = {
    "default_move": t("Play the default move for them"),
    "bot": t("A bot takes the seat until they are back"),
    "forfeit": t("Default moves, then forfeit after repeated timeouts"),
}


class MatchSettings(BaseModel):
    """How a match is run (not the game's rules): pace, and what a timeout does."""

    model_config = FORWARD_COMPATIBLE

    pace: Pace = Field(default="casual", title="Pace", json_schema_extra={"labels": PACE_LABELS})
    on_timeout: Policy = Field(
        default="default_move", title="On timeout", json_schema_extra={"labels": POLICY_LABELS}
    )
    forfeit_after: int = Field(default=3, ge=1, le=10, title="Timeouts in a row to forfeit")
    thread: bool = False  # the match lives in a thread the bot created for it
    custom_minutes: int | None = Field(default=None, ge=1, le=14 * 24 * 60)
    # The tournament this match is a table of; set by the tournaments service. Under a
    # server's ``ratings: events`` only such matches are rated.
    event: str | None = None
    # The lobby's per-seat choice (a deck), by user id: a ready value or ``mine:<name>``.
    # Kept by user, so leaving and re-joining or a rematch keeps a player's pick.
    picks: dict[int, str] = {}

    @model_validator(mode="after")
    def _custom_needs_minutes(self) -> MatchSettings:
        if self.pace == "custom" and self.custom_minutes is None:
            raise ValueError("a custom pace needs its minutes")
        return self

    def budget(self, reaction: bool = False) -> float:
        """Seconds a decision may take (reactions are shorter in live games)."""
        if self.pace == "custom":
            return float(self.custom_minutes or 0) * 60
        return PACES[self.pace][1 if reaction else 0]

    @property
    def pace_label(self) -> str:
        if self.pace == "custom":
            return t("Custom: {duration} a move", duration=duration(self.budget()))
        return PACE_LABELS[self.pace]

    def pace_choices(self) -> list[tuple[str, str]]:
        """The paces a lobby may pick: the standard four, and the server's own if it has one."""
        paces = [(k, v) for k, v in PACE_LABELS.items() if k != "custom"]
        if self.custom_minutes:
            custom = duration(self.custom_minutes * 60.0)
            paces.append(("custom", t("Custom: {duration} a move", duration=custom)))
        return paces


def duration(seconds: float) -> str:
    """A whole span in its largest exact unit: "2 days", "90 minutes", "45 seconds"."""
    if seconds >= 86_400 and seconds % 86_400 == 0:
        return tn("{n} day", "{n} days", n=int(seconds // 86_400))
    if seconds >= 3_600 and seconds % 3_600 == 0:
        return tn("{n} hour", "{n} hours", n=int(seconds // 3_600))
    if seconds >= 60 and seconds % 60 == 0:
        return tn("{n} minute", "{n} minutes", n=int(seconds // 60))
    return tn("{n} second", "{n} seconds", n=int(seconds))


RatingsMode = Literal["all", "events", "off"]
RATINGS_LABELS = {
    "all": t("Every finished match with two or more people"),
    "events": t("Only tournament matches"),
    "off": t("No match is rated"),
}


class GuildSettings(BaseModel):
    """A server's defaults for new matches, set by its admins with /settings."""

    model_config = FORWARD_COMPATIBLE

    match: MatchSettings = MatchSettings()
    threads: bool = False  # /play opens each match in a thread of its own
    ratings: RatingsMode = "all"  # which finished matches move ratings
    # Members of this role may create and run tournaments here, besides Manage Server.
    organiser_role: int | None = None
    # Tables, hands and replays carry pictures; off, the messages are text only.
    pictures: bool = True
    bot_level: Level = DEFAULT_LEVEL  # how hard bots play when /play or Add bot names none
    # The server's read-only web page (bot/web): off unless an admin turns it on. Its pages
    # live under an unguessable path made of this token (``secrets.token_urlsafe``); a new
    # token (``/settings web_renew``) makes the old path answer 404 at once.
    web: bool = False
    web_token: str = ""
    # The language of the server's public messages (tables, pings, results, lobbies): a code
    # of games.core.translations.SELECTABLE; empty follows the server's preferred locale.
    language: str = ""
    # The server's preferred locale as Discord last told the bot ("ko", "es-ES"; empty: not
    # yet heard): what an empty ``language`` follows where Discord's cache is not at hand
    # (the web pages, served by a process of their own too).
    preferred_locale: str = ""
    # The server's time zone (an IANA name): recurring events are scheduled in it unless
    # the organiser names another, so a summer-time change keeps their local time.
    time_zone: str = "UTC"


TimerKind = Literal["timeout", "remind_half", "remind_final"]


def plan(budget: float, since: float) -> list[tuple[TimerKind, float]]:
    """The timeout of one decision, and its reminders at half time and near the end: each
    as (kind, due_at). Plain pairs: every move plans, and the store's ``Timer`` is the
    one model they become."""
    timers: list[tuple[TimerKind, float]] = [("timeout", since + budget)]
    if budget >= REMINDED_FROM:
        timers += [("remind_half", since + budget / 2), ("remind_final", since + budget * 0.9)]
    return timers


VACATION_DAYS_A_MONTH = 14
DAY = 86_400.0
PAUSED_FROM = DAY  # vacations stop clocks of a day or more: async, correspondence, custom


class UserSettings(BaseModel):
    """One person's preferences, across servers: reminders by DM, forced moves, vacations."""

    model_config = FORWARD_COMPATIBLE

    notify: bool = False  # reminders also come as direct messages
    # Asked even when there is nothing to choose (a lone Pass), for those who like to bluff
    # a pause; otherwise such a decision is answered for them after a short random pause.
    always_ask: bool = False
    away_from: float | None = None
    away_until: float | None = None
    vacation_month: str = ""  # "YYYY-MM" the days below were booked in
    vacation_days: float = 0.0
    # The language of this person's own answers (hands, errors, /help...): a code of
    # games.core.translations.SELECTABLE; empty follows their Discord client's locale.
    language: str = ""

    def away_at(self, now: float) -> bool:
        return self.away_until is not None and (self.away_from or 0) <= now < self.away_until


def paused_due(due_at: float, budget: float, away_from: float, away_until: float) -> float:
    """A deadline that falls in a vacation: the clock stood still while its player was away,
    so what was left of it when the vacation began counts again from their return."""
    left = min(budget, due_at - away_from)
    return away_until + max(0.0, left)
