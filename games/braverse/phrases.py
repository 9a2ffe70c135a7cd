"""Braverse's words put together. A join that carries a word or a language's punctuation
("Cookie or Item", "A, B", sentences one after another) is a catalog message of its own, so
a language joins them its way; pure layout (lines, " · ", " + ", "/") is ``joined``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.core.text import Text, joined, plain, t

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
