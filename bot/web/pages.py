"""What the templates show, shaped from the reads: panel text as safe HTML, a replay's
steps, an event's rounds and standings, a rating curve. Everything people wrote is escaped
here or by the templates' autoescape, and nothing is marked safe before it was escaped."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

import jinja2
from markupsafe import Markup, escape

from bot.service.history import Replay
from bot.service.tournaments.models import TournamentView, points_text
from bot.tournaments.groups import GroupRounds
from bot.tournaments.tiebreakers import TIEBREAKS, tiebreak_name, tiebreaker_text
from bot.web.bracket import Part, bracket_parts
from bot.web.reader import Curve, TableNow, step_now
from games.core.protocol import Game
from games.core.text import Num, Text, t
from games.core.translations import ENGLISH, render

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])[*_](?!\s)(.+?)(?<!\s)[*_](?![\w*])")
_TIME = re.compile(r"&lt;t:(\d{1,12})(?::[tTdDfFR])?&gt;")
_SPOILER = re.compile(r"\|\|(.+?)\|\|")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # Discord's backslash before a punctuation mark
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_HELD = re.compile(r"\x00(\d+)\x00")


def inert(data: str) -> str:
    """Somebody's words (a name) made inert for the markdown below: each punctuation mark
    escaped as Discord escapes it, so ``*Cleo*`` is no emphasis and reads as written."""
    return _PUNCTUATION.sub(r"\\\1", data)


def discord_text(text: str, language: str = ENGLISH) -> Markup:
    """A panel's Discord markdown as HTML: escaped first, then bold and italics and
    Discord's timestamps turned into tags of our own; nothing of the text becomes a tag.
    A ``Text`` is rendered in ``language`` with its data (names) made ``inert``.
    A character escaped for Discord (a name's ``\\_`` or ``\\*``) reads as written, as it
    does in Discord, and takes no part in the emphasis; the zero-width space that keeps a
    name's ``@everyone`` from pinging is left out."""
    if isinstance(text, Text):
        text = render(text, language, escape=inert)
    kept: list[str] = []

    def hold(found: re.Match[str]) -> str:
        kept.append(found.group(1))
        return f"\x00{len(kept) - 1}\x00"

    safe = _ESCAPED.sub(hold, text.replace("\x00", "").replace("\u200b", ""))
    safe = str(escape(safe))
    safe = _BOLD.sub(r"<strong>\1</strong>", safe)
    safe = _ITALIC.sub(r"<em>\1</em>", safe)
    safe = _SPOILER.sub(r"\1", safe)
    safe = _TIME.sub(lambda m: when(float(m.group(1))) or m.group(0), safe)
    safe = _HELD.sub(lambda m: str(escape(kept[int(m.group(1))])), safe)
    return Markup(safe)


DOTS = 60  # points marked on a rating curve (the latest)


def moment(stamp: float | None) -> datetime | None:
    """None for no stamp, or one no calendar holds (a Discord timestamp typed as 10**12
    would otherwise turn a page into a server error)."""
    if stamp is None:
        return None
    try:
        return datetime.fromtimestamp(stamp, UTC)
    except (ValueError, OverflowError, OSError):
        return None


def day(stamp: float | None) -> str:
    found = moment(stamp)
    return "" if found is None else found.strftime("%Y-%m-%d")


def when(stamp: float | None) -> str:
    found = moment(stamp)
    return "" if found is None else found.strftime("%Y-%m-%d %H:%M UTC")


def table_text(env: jinja2.Environment, now: TableNow, language: str = ENGLISH) -> str:
    """The table fragment: the same HTML in the page and in each live update."""
    return env.get_template("_table.html").render(now=now, language=language)


@dataclass(frozen=True)
class Step:
    number: int
    who: str  # the seat that moved ("" for the deal or the table itself)
    label: str  # what was done (a Text, or an old stored line)
    now: TableNow


def replay_steps(found: Replay, game: Game) -> list[Step]:
    """Each step of a finished match as everyone saw it (the public view)."""
    record = found.record
    names = {s.seat: s.name for s in record.seats}
    steps = []
    for frame in found.frames:
        who = names.get(frame.seat, "") if frame.seat is not None else ""
        label = frame.label
        steps.append(
            Step(frame.step, who if label else "", label, step_now(record, game, frame.state))
        )
    return steps


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    points: str
    breakers: list[str]
    dropped: bool
    reached: Text | None = None  # a group event's: the round and group that explain the place


@dataclass(frozen=True)
class PairedTable:
    number: int
    names: list[str]
    result: str  # the places once decided, "playing", or ""
    match_id: str | None  # its table's page (live while played, then its replay)


@dataclass(frozen=True)
class RoundRows:
    number: int
    tables: list[PairedTable]
    byes: list[str]


@dataclass(frozen=True)
class EventPage:
    view: TournamentView
    entrants: list[tuple[str, str]]  # (name, state)
    rounds: list[RoundRows]
    breakers: list[str]  # the tiebreak names, in the order they break
    explained: list[tuple[str, str]]  # (name, words)
    standings: list[StandingRow]
    bracket: list[Part]  # empty: the event has no bracket (yet)
    groups: bool = False  # the bracket is a group event's rounds of groups

    @property
    def reached(self) -> bool:
        """Whether the standings have a column saying where each place comes from."""
        return any(row.reached is not None for row in self.standings)


def event_page(view: TournamentView) -> EventPage:
    names = {e.entrant: e.name for e in view.entrants}  # view.name scans: 512 × 2,304 lines
    notes = view.standing_notes()
    standings = [
        StandingRow(
            s.rank,
            names[s.player],
            points_text(s.points),
            [tiebreaker_text(name, value) for name, value in s.tiebreakers],
            s.dropped,
            notes.get(s.player),
        )
        for s in view.standings
    ]
    codes = [name for name, _ in view.standings[0].tiebreakers] if view.standings else []
    breakers = [tiebreak_name(name) for name in codes]
    drawn = view.drawn_bracket()
    rounds = []
    results = {(r.round, r.table_no): r for r in view.results}
    for number in sorted({p.round for p in view.tables} | {r.round for r in view.results}):
        tables = []
        at = sorted((p for p in view.tables if p.round == number), key=lambda p: p.table_no)
        for paired in at:
            result = results.get((number, paired.table_no))
            said = ""
            if result is not None and result.kind == "table":
                order = sorted(zip(result.places, result.players, strict=True))
                said = ", ".join(f"{place}. {names[p]}" for place, p in order)
            elif paired.status == "playing":
                said = "playing"
            tables.append(
                PairedTable(
                    paired.table_no, [names[p] for p in paired.seats], said, paired.match_id
                )
            )
        byes = [names[r.players[0]] for r in view.results if r.round == number and r.kind == "bye"]
        rounds.append(RoundRows(number, tables, byes))
    return EventPage(
        view,
        [(e.name, e.state) for e in view.entrants],
        rounds,
        breakers,
        [(tiebreak_name(name), TIEBREAKS[name]) for name in codes if name in TIEBREAKS],
        standings,
        [] if drawn is None else bracket_parts(drawn, names),
        isinstance(drawn, GroupRounds),
    )


@dataclass(frozen=True)
class CurveSvg:
    """A rating curve, drawn in the page as SVG by the server (no script draws it), or, with
    fewer than two rated matches, said in a sentence (one dot in an empty box says less)."""

    game: str
    last: int
    matches: int
    low: int
    high: int
    sentence: str = ""  # set (a Text): the curve is said, not drawn
    points: str = ""  # the polyline's "x,y x,y"
    dots: list[tuple[str, str]] = field(default_factory=list)  # the last DOTS points
    # (y, the rating labelled there, written in the page's language; None: no label)
    grid: list[tuple[str, int | None]] = field(default_factory=list)
    ticks: tuple[str, str] = ("", "")  # under the first and the last match
    width: int = 480
    height: int = 190
    left: int = 58  # the plot's edges: rating labels left of it, match labels under it
    right: int = 468
    top: int = 14
    bottom: int = 160


def curve_svg(curve: Curve) -> CurveSvg:
    """A rating curve: the line and its dots over light lines at the highest rating, the
    middle and the lowest (the baseline), the two ends labelled; the first and the last
    match named under it."""
    values = [value for _, value in curve.points]
    if len(values) < 2:
        said = (
            t("One rated match so far: {rating}.", rating=Num(values[0]))
            if values
            else t("No rated match yet.")
        )
        only = values[0] if values else 0
        return CurveSvg(curve.game, only, len(values), only, only, sentence=said)
    low, high = min(values), max(values)
    frame = CurveSvg(curve.game, values[-1], len(values), low, high)
    left, right, top, bottom = frame.left, frame.right, frame.top, frame.bottom
    step = (right - left) / (len(values) - 1)

    def y(value: int) -> float:
        if high == low:
            return (top + bottom) / 2  # one rating all along: a level line in the middle
        return bottom - (value - low) * (bottom - top) / (high - low)

    xy = [f"{left + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values)]
    if high == low:
        grid = [(f"{y(low):.1f}", low)]
    else:
        grid = [(f"{top:.1f}", high), (f"{(top + bottom) / 2:.1f}", None)]
        grid.append((f"{bottom:.1f}", low))
    return CurveSvg(
        curve.game,
        values[-1],
        len(values),
        low,
        high,
        points=" ".join(xy),
        dots=[(x, y) for x, y in (point.split(",") for point in xy[-DOTS:])],
        grid=grid,
        ticks=(t("match {n}", n=1), t("match {n}", n=len(values))),
    )
