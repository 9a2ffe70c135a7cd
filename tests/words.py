"""What no text a player reads may say: "(s)", a word twice, "1 <plural>", a count with a
decimal point, or the other Cover game's words."""

from __future__ import annotations

import re

# A token (word or emoji) said twice in a row: "Hand: Hand:", "✋ ✋", "card card".
DOUBLED = re.compile(r"(?<![\w*])([^\s\d|·—•…/:,.()*-][^\s]*) \1(?=[\s,.!?:;]|$)")
ONE_PLURAL = re.compile(
    r"(?<![\w$.,/:])1 ((?:(?!and |or |to |then |from |of |in )[a-z]+ )?[a-z]+s)\b"
)
BAD_PLURAL = re.compile(r"\b\w+(?:ch|sh|x)s\b")  # "Batchs"
FLOAT_COUNT = re.compile(r"(?<![\w$.])\d+\.\d+ (?!Dough|k\b|M\b)[a-z]+")
# Plural-looking words that are no plural after "1" ("1 of", "1 plays" never occur).
NOT_PLURAL = {"is", "was", "has", "its", "this", "us", "plus", "bonus", "less"}

# The other family's words, as whole words (Cover Your Assets vs Cover Your Cookies).
FAMILY = {
    "cover_your_assets": re.compile(r"\b(Batch\w*|[Ss]wip\w*|Dough|Mixer\w*)\b"),
    "cover_your_cookies": re.compile(r"\b([Ss]ets?|[Cc]halleng\w*|[Aa]ssets?)\b|\$\d"),
}


def word_problems(text: str, game: str = "") -> list[str]:
    """What is wrong with ``text``, each problem as a short quote."""
    problems = []
    for match in re.finditer(r"\S*\(s\)", text):
        problems.append(f"(s): {match.group(0)!r}")
    for match in DOUBLED.finditer(text):
        problems.append(f"doubled {match.group(0)!r}")
    for match in ONE_PLURAL.finditer(text):
        last = match.group(1).split()[-1]
        if last not in NOT_PLURAL and not last.endswith("ss"):
            problems.append(f"singular count with a plural: {match.group(0)!r}")
    for match in BAD_PLURAL.finditer(text):
        problems.append(f"a misspelt plural: {match.group(0)!r}")
    for match in FLOAT_COUNT.finditer(text):
        problems.append(f"a count with decimals: {match.group(0)!r}")
    if game in FAMILY:
        for match in FAMILY[game].finditer(text):
            problems.append(f"the other family's word {match.group(0)!r}")
    return problems
