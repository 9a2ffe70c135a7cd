"""Decks: the text format (``4 S1-007 Cinder Scout``), the deck rules, the ready decks.

The text format is what players paste and what export prints: one line per card number;
a count may be written ``4``, ``4x`` or ``x4`` (before or after), or left out (one copy);
the card may be named by number (the name after it is a reminder) or by name alone, in any
case; blank lines, ``#`` comments and section lines (``Cookies:``) are skipped.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cache

from pydantic import BaseModel, ConfigDict

from games.braverse.cards import CardListError, CardPool, braverse_pool, pool_path
from games.braverse.state import BraverseOptions
from games.core.cards import DATA_DIR
from games.core.text import Text, Words, t, tn

DECK_SIZE = 60
MAX_COPIES = 4
MAX_FLIP = 16
DECKS_DIR = DATA_DIR / "braverse" / "decks"
COUNT = re.compile(r"^(?:(\d+)x?|x(\d+))$", re.IGNORECASE)
NUMBER = re.compile(r"^[A-Z0-9]{1,4}-[0-9]{3}$", re.IGNORECASE)
SECTIONS = {"cookie", "cookies", "item", "items", "trap", "traps", "stage", "stages"}
TYPE_ORDER = ("cookie", "item", "trap", "stage")


class ParsedDeck(BaseModel):
    model_config = ConfigDict(frozen=True)

    cards: tuple[str, ...]  # card numbers, one entry per copy
    problems: tuple[Words, ...]  # lines that could not be read
    unknown: tuple[str, ...] = ()  # what those lines named, as written


class ReadyDeck(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    name: str
    cards: tuple[str, ...]


def _count(token: str) -> int | None:
    found = COUNT.match(token)
    if found is None:
        return None
    return int(found.group(1) or found.group(2))


def parse_deck(text: str, pool: CardPool) -> ParsedDeck:
    cards: list[str] = []
    problems: list[Text] = []
    unknown: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or line.endswith(":"):
            continue
        if line.casefold() in SECTIONS:
            continue
        words = line.split()
        count = _count(words[0])
        if count is not None and len(words) > 1:
            words = words[1:]
        elif len(words) > 1 and (last := _count(words[-1])) is not None:
            count, words = last, words[:-1]
        else:
            count = 1
        if NUMBER.match(words[0]):
            wanted = words[0].upper()
            card = pool.by_number.get(wanted)
            shown = words[0]
        else:
            shown = " ".join(words)
            card = pool.lookup(shown)
        if card is None:
            problems.append(t("Line {n}: '{card}' is not a card here.", n=number, card=shown))
            unknown.append(shown)
            continue
        cards += [card.number] * count
    return ParsedDeck(cards=tuple(cards), problems=tuple(problems), unknown=tuple(unknown))


def deck_problems(cards: Iterable[str], pool: CardPool) -> list[Text]:
    """Every rule the deck breaks, each as a sentence; empty means legal."""
    cards = list(cards)
    problems: list[Text] = []
    if len(cards) != DECK_SIZE:
        problems.append(
            tn(
                "The deck has {n} card; it needs exactly {size}.",
                "The deck has {n} cards; it needs exactly {size}.",
                n=len(cards),
                size=DECK_SIZE,
            )
        )
    counted = Counter(cards)
    for number, copies in sorted(counted.items()):
        if number not in pool:
            problems.append(t("'{card}' is not a card here.", card=number))
        elif copies > MAX_COPIES:
            problems.append(
                t(
                    "{number} {card}: {n} copies; at most {most} of one card number.",
                    number=number,
                    card=pool[number].title,
                    n=copies,
                    most=MAX_COPIES,
                )
            )
    known = [c for c in cards if c in pool]
    flips = sum(1 for c in known if pool[c].is_flip)
    if flips > MAX_FLIP:
        problems.append(t("{n} FLIP cards; at most {most}.", n=flips, most=MAX_FLIP))
    if not any(pool[c].type == "cookie" for c in known):
        problems.append(t("No Cookie card; a deck needs at least one."))
    return problems


def export_deck(cards: Iterable[str], pool: CardPool) -> str:
    """The text format, grouped by type, in card-number order."""
    counted = Counter(cards)
    blocks = []
    for kind in TYPE_ORDER:
        numbers = sorted(n for n in counted if pool[n].type == kind)
        if numbers:
            lines = [f"{counted[n]} {n} {pool[n].name}" for n in numbers]
            blocks.append(f"# {kind.capitalize()}s\n" + "\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def playable_ready_decks(pool: CardPool, source: str) -> dict[str, ReadyDeck]:
    """The ready decks shipped in ``data/braverse/decks/*.txt`` (first line: ``# name``)
    that are legal under ``pool``. A host's own card list may lack some: those are not
    offered. Lacking every one, the list is refused (``source`` names it), as a broken list
    is, since a lobby, a bot and a default set-up all need one."""
    decks: dict[str, ReadyDeck] = {}
    why_not: list[str] = []
    for path in sorted(DECKS_DIR.glob("*.txt")):
        text = path.read_text()
        name = text.splitlines()[0].lstrip("# ").strip()
        parsed = parse_deck(text, pool)
        if parsed.unknown:
            why_not.append(f"{name} ({path.name}) needs {parsed.unknown[0]}")
        elif problems := deck_problems(parsed.cards, pool):
            why_not.append(f"{name} ({path.name}): {problems[0].rstrip('.')}")
        else:
            decks[path.stem] = ReadyDeck(key=path.stem, name=name, cards=parsed.cards)
    if not decks:
        raise CardListError(
            f"{source}: no ready deck can be played with this card list "
            f"({'; '.join(why_not)}), so it cannot be used."
        )
    return decks


@cache
def ready_decks() -> dict[str, ReadyDeck]:
    """The ready decks legal under this host's card list, checked once at start-up."""
    return playable_ready_decks(braverse_pool(), pool_path().name)


def ready_options(first: str, second: str, *, always_ask: bool = True) -> BraverseOptions:
    """Options dealing two ready decks (by key), as a lobby would write them at Start."""
    ready = ready_decks()
    return BraverseOptions(decks=(ready[first].cards, ready[second].cards), always_ask=always_ask)
