"""Braverse's words put together. A join that carries a word or a language's punctuation
("Cookie or Item", "A, B", sentences one after another) is a catalog message of its own, so
a language joins them its way; pure layout (lines, " · ", " + ", "/") is ``joined``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.core.text import Text, joined, plain, t
from games.core.translations import LANGUAGES, render

Join = Callable[[Text | str, Text | str], Text]


def _chain(parts: Sequence[Text | str], join: Join) -> Text:
    """``parts`` joined left to right: a, join(a, b), join(join(a, b), c)..."""
    if not parts:
        return plain("")
    first = parts[0]
    text = first if isinstance(first, Text) else plain(first)
    for part in parts[1:]:
        text = join(text, part)
    return text


def slashed(parts: Sequence[Text | str]) -> Text:
    return joined(parts, "/")


def plussed(parts: Sequence[Text | str]) -> Text:
    return joined(parts, " + ")


def commas(parts: Sequence[Text | str]) -> Text:
    return _chain(parts, lambda a, b: t("{a}, {b}", a=a, b=b))


def ored(parts: Sequence[Text | str]) -> Text:
    return _chain(parts, lambda a, b: t("{a} or {b}", a=a, b=b))


def anded(parts: Sequence[Text | str]) -> Text:
    return _chain(parts, lambda a, b: t("{a} and {b}", a=a, b=b))


def dotted(parts: Sequence[Text | str]) -> Text:
    """Facts side by side: "Cookie · Red · LV1"."""
    return joined(parts, " · ")


def sentences(parts: Sequence[Text | str]) -> Text:
    """Whole sentences one after another (a language may leave out the space)."""
    return _chain(parts, lambda a, b: t("{a} {b}", a=a, b=b))


def lined(parts: Sequence[Text | str]) -> Text:
    """One part a line."""
    return joined(parts, "\n")


def paragraphs(parts: Sequence[Text | str]) -> Text:
    """Paragraphs, a blank line between them."""
    return joined(parts, "\n\n")


# A Text's widest rendering, by its English with every digit read as 0: digits are the same
# in every language, so Texts that differ only in their figures are as wide.
_WIDEST: dict[str, int] = {}
_ZEROS = str.maketrans("123456789", "000000000")


def widest(text: Text) -> int:
    """A Text's length in the longest of the shipped languages: what must fit a Discord
    limit (a button's 80 characters, a field's 1,024) in every one of them."""
    key = text.translate(_ZEROS)
    found = _WIDEST.get(key)
    if found is None:
        if len(_WIDEST) > 8192:
            _WIDEST.clear()
        found = _WIDEST[key] = max(len(render(text, code)) for code in LANGUAGES)
    return found
