"""The catalogs: a ``Text`` rendered in a reader's language.

One gettext catalog a language, ``data/locales/<code>.po``, read once per process with
Babel. ``render`` looks a message up by its English id (and context), picks the plural form
the language's rule names, renders the arguments in the same language and fills the
placeholders; word order belongs to the translation. A message a catalog lacks falls back
to English, and a language Cookie Jar lacks falls back to English as a whole.

The pseudo-locale has no file: it is English made to look foreign (accented, about 40 %
longer, bracketed), so anyone who selects it sees at once any sentence that skipped the
catalog, and how a longer language fits a phone.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale
from babel.dates import get_day_names
from babel.lists import format_list
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from games.core import korean
from games.core.cards import DATA_DIR
from games.core.text import Names, Num, Text, Weekday, english_arg, english_list, laid_out

LOCALES_DIR: Path = DATA_DIR / "locales"
ENGLISH = "en"
PSEUDO = "pseudo"
COMMAND = "command"  # the catalog's context of slash command, group and option names
# Shipped languages, English first; the codes are the catalogs' file names.
LANGUAGES: tuple[str, ...] = ("en", "ko", "ja", "es", "pt_BR")
# The languages a server or a person may choose, with the pseudo-locale last.
SELECTABLE: tuple[str, ...] = (*LANGUAGES, PSEUDO)
# Each language as it calls itself, for menus (not translated: a reader finds their own).
NATIVE_NAMES: dict[str, str] = {
    "en": "English",
    "ko": "한국어",
    "ja": "日本語",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
    PSEUDO: "[Ƥšéûðö]",
}

# gettext's plural rules, as each catalog's header states them. CLDR adds a "many" form for
# Spanish and Portuguese millions, which no count in these games reaches: two forms each.
PLURAL_FORMS: dict[str, str] = {
    "ko": "nplurals=1; plural=0;",
    "ja": "nplurals=1; plural=0;",
    "es": "nplurals=2; plural=(n != 1);",
    "pt_BR": "nplurals=2; plural=(n > 1);",
}

Escape = Callable[[str], str]


def language_for(locale: str | None) -> str:
    """Our language for a Discord locale ("ko", "es-419", "pt-BR", "en-GB"), else English."""
    if not locale:
        return ENGLISH
    if locale in SELECTABLE:
        return locale
    code = locale.replace("-", "_")
    if code in LANGUAGES:
        return code
    base = code.split("_")[0]
    if base == "pt":
        return "pt_BR"  # the one Portuguese we ship: Brazil's, which most players speak
    return base if base in LANGUAGES else ENGLISH


Messages = dict[tuple[str | None, str], str | tuple[str, ...]]


@dataclass(frozen=True)
class Catalog:
    code: str
    messages: Messages
    plural_index: Callable[[int], int]
    babel_locale: Locale
    # Slash commands' and options' names as Discord lists them in this language.
    commands: Mapping[str, str] = field(default_factory=dict)
    # The language's particles chosen by the word before them, once it is known (Korean).
    particles: Callable[[str, Mapping[str, str]], str] | None = None


@cache
def catalog(code: str) -> Catalog:
    if code in (ENGLISH, PSEUDO):
        return Catalog(code, {}, lambda n: int(n != 1), Locale.parse("en_GB"))
    return read_catalog(code, LOCALES_DIR / f"{code}.po")


def read_catalog(code: str, path: Path) -> Catalog:
    messages: Messages = {}
    with path.open("rb") as handle:
        po = read_po(handle, locale=code)
    for message in po:
        if not message.id or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if isinstance(message.string, tuple):
            if all(message.string):
                messages[(message.context, key)] = tuple(message.string)
        elif message.string:
            messages[(message.context, key)] = message.string
    expression = PLURAL_FORMS[code].split("plural=", 1)[1].rstrip(";")
    names = command_names(messages)
    return Catalog(
        code,
        with_commands(messages, names),
        gettext.c2py(expression),
        Locale.parse(code),
        names,
        korean.particles if code == "ko" else None,
    )


# "/play", "/deck import", "game:", "pictures:False": a slash command or an option named in
# a sentence, written as the reader's Discord app lists it (its localised name).
_COMMAND_WORDS = re.compile(r"(?<![\w/.:<])/([a-z_]+)(?: ([a-z_]+)\b)?|(?<![\w/<])([a-z_]{2,}):")


def command_names(messages: Messages) -> dict[str, str]:
    """Every command's, group's and option's name in a catalog, as Discord lists it."""
    return {key[1]: str(value).lower() for key, value in messages.items() if key[0] == COMMAND}


def with_commands(messages: Messages, names: Mapping[str, str]) -> Messages:
    """The catalog's sentences with the commands they name written in its language, once
    as it is read: a sentence's commands are the translator's words, never a name's (a
    player called "/play" keeps it), and no message pays for it each time it is rendered."""
    for key, value in messages.items():
        if key[0] != COMMAND:
            messages[key] = (
                tuple(commands_in(form, names) for form in value)
                if isinstance(value, tuple)
                else commands_in(value, names)
            )
    return messages


def commands_in(text: str, names: Mapping[str, str]) -> str:
    """``text`` with each slash command and option it names as ``names`` has it (else as
    it is: Discord knows the English name too)."""
    if "/" not in text and ":" not in text:
        return text

    def swap(found: re.Match[str]) -> str:
        if found[3] is not None:
            return names.get(found[3], found[3]) + ":"
        words = "/" + names.get(found[1], found[1])
        if found[2] is not None:
            words += " " + names.get(found[2], found[2])
        return words

    return _COMMAND_WORDS.sub(swap, text)


def render(value: str, language: str = ENGLISH, escape: Escape | None = None) -> str:
    """``value`` in ``language``; the data in it (names) passed through ``escape``.

    A plain ``str`` is returned as it is: older stored lines, and text that is not ours."""
    if not isinstance(value, Text):
        return value
    if language == ENGLISH and escape is None:
        return str(value)
    # Rendered before (a card's name, a button, a panel's line, at move after move): read
    # straight from its memo (``_render``'s, by the catalog's code, which is ``language``).
    # Without this a language other than English paid a catalog and two calls more for
    # each of the nine or so Texts of a message, 5 % of the move's rendering.
    memo = value.rendered
    if memo is not None:
        found = memo.get(language if escape is None else (language, escape))
        if found is not None:
            return found
    return render_in(catalog(language), value, escape)


def render_in(book: Catalog, value: str, escape: Escape | None = None) -> str:
    """``render`` with a catalog at hand (one read from elsewhere, as tests do)."""
    return _render(value, book, escape) if isinstance(value, Text) else value


def _render(text: Text, book: Catalog, escape: Escape | None) -> str:
    memo = text.rendered
    if memo is None:
        memo = text.rendered = {}
    # Unescaped (components, pictures) by the code alone: English needs no memo there, and
    # a tuple made and hashed at each look-up was a language's largest cost over English.
    key = book.code if escape is None else (book.code, escape)
    found = memo.get(key)
    if found is None:
        if len(memo) >= 8:  # an escape made afresh at each call must not grow it for ever
            memo.clear()
        found = memo[key] = _rendered(text, book, escape)
    return found


def _rendered(text: Text, book: Catalog, escape: Escape | None) -> str:
    if text.msgid is None:
        if "slash" in text.args:  # ours, not data: nothing to escape
            return commands_in(text.args["slash"], book.commands)
        if "parts" in text.args:
            parts = [_arg(part, book, escape) for part in text.args["parts"]]
            sep = text.args["sep"]  # a Text (", then ") is words; a plain str is layout
            return laid_out(
                parts, text.args, _render(sep, book, escape) if isinstance(sep, Text) else sep
            )
        data = str(text.args.get("", ""))
        return escape(data) if escape else data
    template = _template(text, book)
    if not text.args:
        return template
    values = {key: _arg(value, book, escape) for key, value in text.args.items()}
    if book.particles is not None and "(" in template:
        template = book.particles(template, values)
    return template.format_map(values)


def _template(text: Text, book: Catalog) -> str:
    assert text.msgid is not None
    found = book.messages.get((text.context, text.msgid))
    count = text.args.get("n", 1) if text.plural is not None else None
    if isinstance(found, tuple):
        index = book.plural_index(_plural_operand(count))
        return found[min(index, len(found) - 1)]
    if found is not None and text.plural is None:
        return found
    english = text.msgid
    if text.plural is not None and count != 1:
        english = text.plural
    return pseudo(english) if book.code == PSEUDO else english


def _plural_operand(count: object) -> int:
    # gettext's rules take whole numbers; a fraction (2.5 points) reads as "many"
    # everywhere we ship, so any non-whole count is taken as 2.
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    if isinstance(count, float) and count.is_integer():
        return int(count)
    return 2


def _arg(value: object, book: Catalog, escape: Escape | None) -> str:
    if isinstance(value, Text):
        return _render(value, book, escape)
    if isinstance(value, Names):
        items = [_arg(item, book, escape) for item in value]
        if book.code == ENGLISH or len(items) < 2:
            return english_list(items)
        if book.code == PSEUDO:  # its "and" looks foreign too
            return ", ".join(items[:-1]) + f" {'and'.translate(_ACCENTED)} " + items[-1]
        return _list(tuple(items), book.code)
    if isinstance(value, Weekday):
        return weekday_name(int(value), book.code)
    if isinstance(value, Num):
        return _number(float(value), book.code, grouped=True)
    if isinstance(value, float):
        return _number(value, book.code, grouped=False)
    if isinstance(value, str):
        return escape(value) if escape else value
    return english_arg(value)


@lru_cache(maxsize=4096)
def _list(items: tuple[str, ...], code: str) -> str:
    return format_list(list(items), locale=code) if items else ""


@lru_cache(maxsize=64)
def weekday_name(day: int, code: str) -> str:
    """Monday (0) to Sunday (6) as ``code`` writes it in a sentence (CLDR's, by Babel)."""
    if code == PSEUDO:  # a word inside a sentence: accented, as its "and" is
        return english_arg(Weekday(day)).translate(_ACCENTED)
    if code == ENGLISH:
        return english_arg(Weekday(day))
    return str(get_day_names("wide", locale=code)[day])


def number(value: float, language: str) -> str:
    """A quantity alone (a rating on a chart's axis) as ``language`` groups it: 1,120 in
    English, 1.120 in Spanish and Portuguese."""
    return _number(float(value), language, grouped=True)


@lru_cache(maxsize=4096)
def _number(value: float, code: str, *, grouped: bool) -> str:
    if code in (ENGLISH, PSEUDO):
        return english_arg(Num(value) if grouped else value)
    return format_decimal(value, locale=code, group_separator=grouped)


# The pseudo-locale: each letter swapped for an accented look-alike, about 40 % added,
# and brackets, leaving placeholders, markdown, mentions, emoji and links untouched.
_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
# What pseudo-translation must leave as it is: placeholders, Discord's <...> mentions and
# timestamps, links, inline code, and markdown's own characters (which are not letters).
_KEEP = re.compile(r"\{[^{}]*\}|<[^<>\s]+>|https?://\S+|`[^`]*`")


@lru_cache(maxsize=8192)
def pseudo(english: str) -> str:
    if not english.strip():
        return english
    parts: list[str] = []
    position = 0
    letters = 0
    for kept in _KEEP.finditer(english):
        chunk = english[position : kept.start()]
        letters += sum(ch.isalpha() for ch in chunk)
        parts.append(chunk.translate(_ACCENTED))
        parts.append(kept.group())
        position = kept.end()
    tail = english[position:]
    letters += sum(ch.isalpha() for ch in tail)
    parts.append(tail.translate(_ACCENTED))
    padding = "·" * max(1, round(letters * 0.4))
    # Markdown that opens a line (a heading, a list item, a quote) must stay at its start.
    body = "".join(parts)
    lead = re.match(r"^(#{1,3} |[-*] |> |\d+\. )", body)
    head, body = (lead.group(), body[lead.end() :]) if lead else ("", body)
    end = len(body) - len(body.rstrip("\n"))
    return f"{head}⟦{body.rstrip(chr(10))} {padding}⟧" + "\n" * end
