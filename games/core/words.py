"""Words every game shares: counts with the right plural, said one way everywhere.

Each sentence is a ``Text`` from the catalog (games.core.text): a count takes the
language's plural (``tn("{n} card", "{n} cards", n=3)``), a list of names is ``Names``.
``plural``, ``noun``, ``join_names`` and ``ordinal`` glue English and stay only for code not
yet moved to the catalog: ``tn``, ``Names`` and ``place`` are their replacements.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from games.core.text import Text, joined, t, tc, tn

# The names bot seats take, first free one first: in lobbies, tournaments and the terminal.
BOT_NAMES = ("Abe", "Bea", "Cal", "Dot", "Eve", "Fin", "Gil", "Hal", "Ivy", "Jon", "Kit", "Lou")

# Plurals that are not the word plus "s".
IRREGULAR = {"die": "dice", "Die": "Dice"}


def plural_of(word: str) -> str:
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word.endswith(("ch", "sh", "s", "x")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def plural(count: int, word: str, *, many: str | None = None) -> str:
    """``plural(1, "card")`` is "1 card", ``plural(3, "card")`` is "3 cards"; the word as
    the caller capitalises it ("Batch" -> "Batches"). A count is always a whole number.

    English only: a sentence a player reads says ``tn("{n} card", "{n} cards", n=count)``."""
    return f"{int(count)} {noun(count, word, many=many)}"


def noun(count: int, word: str, *, many: str | None = None) -> str:
    """The word alone, singular or plural for ``count``."""
    return word if int(count) == 1 else (many or plural_of(word))


def points_word(value: float, *, short: bool = False) -> str:
    """The word after a number of points, which may be a fraction: 1 point, 2.5 points
    (``short``: pt, pts). English only: a sentence says ``points(value)``."""
    if value == 1:
        return "pt" if short else "point"
    return "pts" if short else "points"


def points(value: float, *, short: bool = False) -> Text:
    """A number of points with its word, in the reader's language: "1 point", "2.5 pts"."""
    if short:
        return tn("{n} pt", "{n} pts", n=value)
    return tn("{n} point", "{n} points", n=value)


def join_names(names: Sequence[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cleo". English only: pass ``Names(names)`` as
    a Text's argument, which the reader's language joins its own way."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def how_to_play_here(turn: str) -> Text:
    """The three lines that open a game's /rules: how a turn is played in Discord. ``turn``
    is the game's own second line (a Text)."""
    lines = (
        t("**How to play here**"),
        t("1. Press **Show hand** on the table: your cards and your moves, just for you."),
        t("2. {turn}", turn=turn),
        t("3. You are pinged when it is your move; the table shows what everyone may see."),
    )
    return joined(lines, "\n", end="\n\n")


def brief(text: str, limit: int = 100) -> str:
    """A card's effect in at most ``limit`` characters (a select option's description):
    asides in parentheses go first, then the sentence is cut at a comma or a semicolon."""
    if len(text) <= limit:
        return text
    plain = re.sub(r" \([^)]*\)", "", text)
    if len(plain) <= limit:
        return plain
    cut = max(plain.rfind(", ", 0, limit - 1), plain.rfind("; ", 0, limit - 1))
    return (plain[:cut] if cut > 0 else plain[: limit - 1].rstrip()) + "…"


# The headings that open a rulebook's rulings: what we decided where the rulebook is silent.
RULINGS_HEADINGS = ("**Our rulings.**", "**Rulings where the rulebook is silent**")

# /rules opens with a quick start no longer than this: a phone screen or two.
QUICK_START_LIMIT = 1500


def split_rulings(rulebook: str) -> tuple[str, str]:
    """A game's rulebook text as (how to play, our rulings): /rules shows them apart, so a
    newcomer reads the game first and our decisions only when they ask."""
    for heading in RULINGS_HEADINGS:
        at = rulebook.find(heading)
        if at >= 0:
            return rulebook[:at].rstrip() + "\n", rulebook[at:]
    return rulebook, ""


def place(number: int) -> Text:
    """A place in a ranking in the reader's language: 1st, 2nd, 3rd, 4th … 11th … 21st."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10)
    if suffix == "st":
        return tc("place", "{n}st", n=number)
    if suffix == "nd":
        return tc("place", "{n}nd", n=number)
    if suffix == "rd":
        return tc("place", "{n}rd", n=number)
    return tc("place", "{n}th", n=number)


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. English only: see ``place``."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def bullets(lines: Sequence[str]) -> Text:
    """One bullet a line: every list of problems reads alike, in Discord and out of it."""
    return joined(lines, "\n", lead="• ")
