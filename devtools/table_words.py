"""The words of Toss Your Cookies' and Cookie Chomper's data files, for the catalog.

Their names (context "card") and what a Chomper action card does, in full for /rules
("card text") and cut for a select's description ("card brief"), as the games show them
(games/toss/cards.py, games/chomper/cards.py)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

from games.core.words import brief

FILES = ("toss_your_cookies", "cookie_chomper")


def table_words(data: Path) -> Iterator[tuple[str, None, str]]:
    """(message, plural, context) for each word of the two files under ``data``."""
    for name in FILES:
        with (data / f"{name}.toml").open("rb") as handle:
            tables = tomllib.load(handle)
        looks = [*tables.get("cookies", []), *tables.get("specials", {}).values()]
        looks += tables.get("actions", {}).values()
        for look in looks:
            yield look["name"], None, "card"
            if "text" in look:
                yield look["text"], None, "card text"
                yield brief(look["text"]), None, "card brief"
