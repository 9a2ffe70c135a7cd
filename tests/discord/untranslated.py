"""What a play-through in the pseudo-locale left in English.

The pseudo-locale turns every letter of a translated message into an accented look-alike,
so any plain ASCII word left on screen skipped the catalog. ``untranslated(fake)`` reads
everything the offline Discord recorded (each message's content, embeds, buttons, selects
and their options, every earlier version of an edited message, and the modals shown) and
lists every ASCII word of two letters or more that is not a name someone gave, a number,
an emoji, a link, Discord's own syntax (mentions, timestamps, /commands and their
options, custom emoji, inline code) or a product's published name.

    words = untranslated(fake, names=["Ana", "Ben", "My deck"])
    assert not words, report(words)

A picture's words are pixels by the time Discord has them, so they are read where they are
drawn: ``record_pictures(monkeypatch)`` keeps, for every table and hand picture drawn from
then on, the language the bot asked it in and each line of text it drew, as drawn.

    drawn = record_pictures(monkeypatch)
    ...
    assert not picture_words(drawn, names=["Ana"])
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.tournaments.tiebreakers import SHOWN_NAMES, TIEBREAKS
from games import GAMES
from games.core.pictures import Canvas
from games.core.translations import ENGLISH
from tests.discord.harness import FakeDiscord, FakeMessage

# Published names stay as published in every language (docs/translating.md).
PRODUCT_NAMES = (
    "CookieRun: Braverse",
    "Cover Your Assets",
    "Cover Your Cookies",
    "Toss Your Cookies",
    "Cookie Chomper",
    "Cookie Jar",
    "CookieRun",
    "Braverse",
    "Discord",
)
# A tiebreak's short name (OMW%, SB) reads the same in every language, as players write
# it; a word among them (Firsts) is translated.
ABBREVIATIONS = tuple(name for name in TIEBREAKS if name not in SHOWN_NAMES)
# Discord's syntax, which is not words: mentions and channels, timestamps, command
# mentions, custom emoji, links, inline code, a /command with its sub-command and its
# option names ("/settings pictures:False", "/deck import"), and the bot names' emoji.
_SYNTAX = re.compile(
    r"<(?:@[!&]?\d+|#\d+|t:-?\d+(?::[tTdDfFR])?|/[-_\w ]+:\d+|a?:\w+:\d+)>"
    r"|https?://\S+|attachment://\S+"
    r"|`[^`\n]*`"
    r"|(?<![\w/])/[-_a-z]+(?: [-_a-z]+(?![:\w]))?(?=[\s.,:;!?)…]|$)"
    r"|(?<![\w])[a-z_]+:(?:\S+)?(?=[\s.,;!?)…]|$)"
    r"|:[a-z0-9_]+:|<[a-z_]+>"
)
_WORD = re.compile(r"(?<![A-Za-z0-9_'’\\])[A-Za-z]{2,}(?![A-Za-z0-9_])")


@dataclass(frozen=True)
class Found:
    """An English word left on screen: the word, and the text it was found in."""

    word: str
    text: str


def untranslated(fake: FakeDiscord, names: Iterable[str] = ()) -> list[Found]:
    """Every ASCII word on screen that skipped the catalog (empty: none)."""
    return words_in(recorded_strings(fake), names)


def words_in(strings: Iterable[str], names: Iterable[str] = ()) -> list[Found]:
    """The ASCII words of ``strings`` outside names, numbers, emoji, links, Discord
    syntax and product names, each once."""
    kept = sorted({*PRODUCT_NAMES, *(n for n in names if n)}, key=len, reverse=True)
    found: dict[tuple[str, str], Found] = {}
    for text in strings:
        rest = _unescaped(text)
        for name in kept:
            rest = rest.replace(name, " ")
        rest = _SYNTAX.sub(" ", rest)
        for word in _WORD.findall(rest):
            found.setdefault((word, text), Found(word, text))
    return list(found.values())


def recorded_strings(fake: FakeDiscord) -> Iterator[str]:
    """Every string a user could read in what the fake recorded, edits included."""
    for message in fake.messages.values():
        yield from message_strings(message)
    for user in list(fake.users.values()):
        for modal in fake.modals(user):
            yield modal.title
            for field in modal.fields():
                for key in ("label", "placeholder"):
                    if field.get(key):
                        yield field[key]
                for option in field.get("options") or []:
                    yield from (s for s in (option.get("label"), option.get("description")) if s)


def message_strings(message: FakeMessage) -> Iterator[str]:
    """What a message shows now and showed before each of its edits."""
    yield from message.strings()
    for before in message.history:
        earlier = FakeMessage(
            id=message.id,
            channel_id=message.channel_id,
            author_id=message.author_id,
            content=before.get("content") or "",
            embeds=before.get("embeds") or [],
            components=before.get("components") or [],
        )
        yield from earlier.strings()


def report(found: Iterable[Found], most: int = 40) -> str:
    """The words found, grouped by the text each was read in, for a failing test's message."""
    by_text: dict[str, list[str]] = {}
    for f in found:
        by_text.setdefault(f.text, []).append(f.word)
    lines = [f"{' '.join(words)!r} in {text[:160]!r}" for text, words in by_text.items()]
    more = f"\n… and {len(lines) - most} more" if len(lines) > most else ""
    return "\n".join(lines[:most]) + more


def _unescaped(text: str) -> str:
    # A name escaped for markdown ("dark\_knight") reads as written.
    return re.sub(r"\\(.)", r"\1", text)


@dataclass
class PictureDrawn:
    """A picture drawn: a table's or a hand's, the language it was asked in, and each line
    of text it drew (as drawn: rendered, cut or wrapped)."""

    kind: str
    language: str
    lines: list[str] = dataclasses.field(default_factory=list)


def record_lettering(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every line of words a picture draws from now on, as drawn (in its language): the
    one call every drawing's words go through, in whichever thread draws them."""
    drawn: list[str] = []
    lettering = Canvas.lettering

    def recorded(self: Canvas, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(text)
        lettering(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(Canvas, "lettering", recorded)
    return drawn


_drawing = threading.local()  # the picture the current thread is drawing (drawer threads)


def record_pictures(monkeypatch: pytest.MonkeyPatch) -> list[PictureDrawn]:
    """Every table and hand picture drawn from now on (in the test's process: the bot's
    drawers are threads there), with its words read at the drawing call they all pass
    through (``Canvas.lettering``)."""
    drawn: list[PictureDrawn] = []
    lettering = Canvas.lettering

    def recorded_lettering(self: Canvas, xy: Any, text: str, *args: Any, **kw: Any) -> None:
        picture = getattr(_drawing, "picture", None)
        if picture is not None:
            picture.lines.append(text)
        lettering(self, xy, text, *args, **kw)

    monkeypatch.setattr(Canvas, "lettering", recorded_lettering)
    for kind, method in (("table", "table_picture"), ("hand", "draw_hand")):
        # Each class that defines the drawing (a game may inherit its sibling's), once.
        owners = {_owner(type(game), method) for game in GAMES.values()}
        for owner in owners:
            draw = owner.__dict__[method]
            monkeypatch.setattr(owner, method, _recording(kind, draw, drawn))
    return drawn


def _owner(kind: type, method: str) -> type:
    return next(c for c in kind.__mro__ if method in c.__dict__)


def _recording(
    kind: str, draw: Callable[..., bytes | None], drawn: list[PictureDrawn]
) -> Callable[..., bytes | None]:
    def drawing(game: object, shown: object, language: str = ENGLISH) -> bytes | None:
        picture = PictureDrawn(kind, language)
        _drawing.picture = picture
        try:
            return draw(game, shown, language)
        finally:
            _drawing.picture = None
            drawn.append(picture)

    return drawing


def picture_words(drawn: Iterable[PictureDrawn], names: Iterable[str] = ()) -> list[Found]:
    """The English words the pictures drew (as ``words_in``), each found in a text that says
    which picture and language it was read in. A picture wraps a long line between words,
    a name's too: each word of a name is a name there."""
    names = tuple({*names, *(word for name in names for word in name.split())})
    found = []
    for picture in drawn:
        where = f"{picture.kind} picture in {picture.language!r}: "
        for word in words_in(picture.lines, names):
            found.append(Found(word.word, where + word.text))
    return list({(f.word, f.text): f for f in found}.values())
