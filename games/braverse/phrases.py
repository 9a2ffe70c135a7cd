"""Braverse's words put together: each way of joining parts is a catalog message of its
own, so a language may join them its way ("2 Red + 1 any colour", "Cookie or Item")."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.core.text import Text, t

Join = Callable[[Text | str, Text | str], Text]


def _chain(parts: Sequence[Text | str], join: Join) -> Text:
    """``parts`` joined left to right: a, join(a, b), join(join(a, b), c)..."""
    if not parts:
        return t("—")
    first = parts[0]
    text = first if isinstance(first, Text) else _verbatim(first)
    for part in parts[1:]:
        text = join(text, part)
    return text


def _verbatim(value: str) -> Text:
    return Text(None, {"": value}, english=value)


def slashed(parts: Sequence[Text | str]) -> Text:
    return _chain(parts, lambda a, b: t("{a}/{b}", a=a, b=b))


def plussed(parts: Sequence[Text | str]) -> Text:
    return _chain(parts, lambda a, b: t("{a} + {b}", a=a, b=b))


def commas(parts: Sequence[Text | str]) -> Text:
    return _chain(parts, lambda a, b: t("{a}, {b}", a=a, b=b))


def ored(parts: Sequence[Text | str]) -> Text:
    return _chain(parts, lambda a, b: t("{a} or {b}", a=a, b=b))


def anded(parts: Sequence[Text | str]) -> Text:
    return _chain(parts, lambda a, b: t("{a} and {b}", a=a, b=b))


def dotted(parts: Sequence[Text | str]) -> Text:
    """Facts side by side: "Cookie · Red · LV1"."""
    return _chain(parts, lambda a, b: t("{a} · {b}", a=a, b=b))


def sentences(parts: Sequence[Text | str]) -> Text:
    """Whole sentences one after another (a language may leave out the space)."""
    return _chain(parts, lambda a, b: t("{a} {b}", a=a, b=b))


def lined(parts: Sequence[Text | str]) -> Text:
    """One part a line."""
    return _chain(parts, lambda a, b: t("{a}\n{b}", a=a, b=b))


def paragraphs(parts: Sequence[Text | str]) -> Text:
    """Paragraphs, a blank line between them."""
    return _chain(parts, lambda a, b: t("{a}\n\n{b}", a=a, b=b))
