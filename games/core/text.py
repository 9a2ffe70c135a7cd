"""Words a player reads, kept as data: a message id and its arguments.

Engines, cogs and pages never hold a finished sentence in one language. They hold a
``Text``: the English source (the catalog's message id) with named arguments, rendered in
the reader's language at the very edge (``games.core.translations.render``), so a stored log
line, a table and a web page each speak their reader's language.

A ``Text`` *is* a ``str`` whose value is its English rendering. Everything that only needs
English (the terminal, tests, a log file) keeps working on it as a string; whatever needs
another language asks the Text for its id and arguments. Concatenating Texts with ``+`` or
an f-string makes a plain English string again, which the pseudo-locale shows up as
untranslated: compose with a message of its own instead (``t("{a}\\n{b}", a=..., b=...)``).

Arguments:

- a plain ``str`` is data someone wrote (a name, a deck's name): never translated, escaped
  for Discord markdown where it is shown, drawn as written in pictures;
- a ``Text`` is rendered in the same language;
- an ``int`` is written as digits (ids, years and ratings take no separators); ``Num`` for
  a quantity that takes the language's grouping; a ``float`` in the language's decimals;
- ``Weekday`` is a day of the week, by its name in the language;
- ``Names`` is a list, joined the language's way ("Ana, Ben and Cleo", "Ana、Ben、Cleo").

Message ids use named ``{placeholders}`` only (no format specs), so a translation may put
them in any order; plural messages take their count as ``n``.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from typing import Annotated, Any

from pydantic import PlainSerializer, WrapValidator

Arg = Any  # str | int | float | Text | Num | Weekday | Names: checked where rendered


class Num(float):
    """A quantity written with the language's digit grouping and decimals (1,500 / 1.500)."""

    __slots__ = ()


class Weekday(int):
    """A day of the week (Monday 0 ... Sunday 6), named as the reader's language names it."""

    __slots__ = ()


# English's names, for the Text's own value (other languages' are CLDR's, through Babel).
WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class Names(tuple):
    """Items joined as a list in the reader's language: names (escaped) or Texts."""

    __slots__ = ()

    def __new__(cls, items: Iterable[Any] = ()) -> Names:
        return super().__new__(cls, tuple(items))


_FORMATTER = string.Formatter()


def placeholders(template: str) -> frozenset[str]:
    """The names of a message's placeholders: what every translation must use alike."""
    return frozenset(field for _, field, _, _ in _FORMATTER.parse(template) if field)


class Text(str):
    """A message id, its plural and context, and its arguments; its value is the English."""

    __slots__ = ("args", "context", "dumped", "msgid", "plural", "rendered")
    msgid: str | None  # None: verbatim data (``plain``), no catalog entry
    plural: str | None
    context: str | None
    args: Mapping[str, Arg]
    # Its renderings so far, by language (and escape, if any): a Text never changes, and the same
    # one (a card's name, a button, a set's line) is shown at move after move.
    rendered: dict[str | tuple[str, object], str] | None
    # Its JSON form, once made: a match's state is stored after every move with its whole
    # log, and re-walking every line's arguments was two thirds of writing a Toss state.
    dumped: dict[str, Any] | None

    def __new__(
        cls,
        msgid: str | None,
        args: Mapping[str, Arg] | None = None,
        *,
        plural: str | None = None,
        context: str | None = None,
        english: str | None = None,
    ) -> Text:
        args = args or {}
        if english is None:
            english = _english(msgid, plural, args)
        self = super().__new__(cls, english)
        self.msgid = msgid
        self.plural = plural
        self.context = context
        self.args = args
        self.rendered = None
        self.dumped = None
        return self

    def __copy__(self) -> Text:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Text:
        # Never changed once made, as a str: a state's private copy shares its Texts, and
        # with them what each has rendered and dumped so far.
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pictures are drawn in another process: a Text crosses it whole, not as English.
        return (_restore, (self.msgid, dict(self.args), self.plural, self.context, str(self)))

    def data(self) -> dict[str, Any]:
        """The JSON form kept in the database: ``{"t": id, "a": {...}}``, plus ``p``/``c``.
        Made once and shared: read it, never change it."""
        if self.dumped is not None:
            return self.dumped
        out: dict[str, Any] = {"t": self.msgid}
        if self.plural is not None:
            out["p"] = self.plural
        if self.context is not None:
            out["c"] = self.context
        if self.args:
            out["a"] = {key: _dump_arg(value) for key, value in self.args.items()}
        self.dumped = out
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Text:
        args = {key: _load_arg(value) for key, value in data.get("a", {}).items()}
        return cls(data["t"], args, plural=data.get("p"), context=data.get("c"))


def _restore(
    msgid: str | None,
    args: dict[str, Arg],
    plural: str | None,
    context: str | None,
    english: str,
) -> Text:
    return Text(msgid, args, plural=plural, context=context, english=english)


def t(message: str, /, **args: Arg) -> Text:
    """A sentence for the catalog: ``t("{name} draws a card.", name=seat_name)``."""
    return Text(message, args)


def tn(singular: str, plural: str, /, n: float, **args: Arg) -> Text:
    """A sentence that agrees with a count ``n``: ``tn("{n} card", "{n} cards", n=3)``."""
    return Text(singular, {"n": n, **args}, plural=plural)


def tc(context: str, message: str, /, **args: Arg) -> Text:
    """A word whose English is ambiguous without its context: ``tc("card", "Gold")``."""
    return Text(message, args, context=context)


def tnc(context: str, singular: str, plural: str, /, n: float, **args: Arg) -> Text:
    return Text(singular, {"n": n, **args}, plural=plural, context=context)


def plain(value: str) -> Text:
    """Somebody's own words shown alone (a name as a field title): escaped, never translated."""
    return Text(None, {"": value}, english=value)


def slash(syntax: str) -> Text:
    """A slash command as typed ("/play", "/settings language:"), which the reader sees
    as their Discord app lists it (its localised names): ours, not a name to escape."""
    return Text(None, {"slash": syntax}, english=syntax)


def joined(parts: Iterable[str], sep: str = "\n", *, lead: str = "", end: str = "") -> Text:
    """Complete lines (or sentences) shown together, each in the reader's language: a list of
    problems, a bulleted block, a rulebook's paragraphs. Never for pieces of one sentence:
    that is one message. ``lead`` goes before each part (a bullet, ``**`` around a name with
    ``end``) and ``end`` after the last; neither holds a word."""
    items = Names(parts)
    args: dict[str, Arg] = {"parts": items, "sep": sep}
    if lead:
        args["lead"] = lead
    if end:
        args["end"] = end
    return Text(None, args, english=laid_out([str(item) for item in items], args, str(sep)))


def laid_out(parts: list[str], args: Mapping[str, Arg], sep: str) -> str:
    """A ``joined`` Text's parts (each rendered already) and its separator, laid out."""
    lead = args.get("lead", "")
    return sep.join(lead + part for part in parts) + args.get("end", "")


def english_plural(n: float) -> bool:
    return n != 1


def _english(msgid: str | None, plural: str | None, args: Mapping[str, Arg]) -> str:
    if msgid is None:
        if "slash" in args:
            return str(args["slash"])
        if "parts" in args:
            return laid_out([str(part) for part in args["parts"]], args, str(args["sep"]))
        return str(args.get("", ""))
    template = msgid
    if plural is not None and english_plural(args.get("n", 1)):
        template = plural
    if not args:
        return template
    return template.format_map({key: english_arg(value) for key, value in args.items()})


def english_arg(value: Arg) -> str:
    if isinstance(value, Names):
        return english_list([english_arg(item) for item in value])
    if isinstance(value, bool):
        raise TypeError("a bool is no word: pass a Text")
    if isinstance(value, Weekday):
        return WEEKDAY_NAMES[value]
    if isinstance(value, float):
        return f"{value:,.10g}" if isinstance(value, Num) else f"{value:.10g}"
    return str(value)


def english_list(items: list[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cleo": British English's list, no serial comma."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _dump_arg(value: Arg) -> Any:
    if isinstance(value, Text):
        return value.data()
    if isinstance(value, Names):
        return {"l": [_dump_arg(item) for item in value]}
    if isinstance(value, Num):
        return {"q": float(value)}
    if isinstance(value, Weekday):
        return {"w": int(value)}
    return value if isinstance(value, int | float) else str(value)


def _load_arg(value: Any) -> Arg:
    if isinstance(value, dict):
        if "t" in value:
            return Text.from_data(value)
        if "l" in value:
            return Names(_load_arg(item) for item in value["l"])
        if "q" in value:
            return Num(value["q"])
        if "w" in value:
            return Weekday(value["w"])
    return value


def _keep_text(value: Any, handler: Any) -> str:
    if isinstance(value, Text):
        return value
    if isinstance(value, dict) and "t" in value:
        return Text.from_data(value)
    return handler(value)


def _dump_words(value: str) -> Any:
    return value.data() if isinstance(value, Text) else value


# A pydantic field a player reads: a Text stays a Text (a plain str stays a str, as older
# stored matches have it), and is stored as its id and arguments.
Words = Annotated[
    str, WrapValidator(_keep_text), PlainSerializer(_dump_words, when_used="json-unless-none")
]
