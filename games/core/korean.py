"""Korean particles after a name: 이/가, 을/를, 은/는, 와/과, (으)로, (이)라.

Which one a Korean sentence takes depends on how the word before it ends: after a final
consonant (김민준, Ben) 이, 을, 은, 과, 으로; after a vowel (김철수, Ana) 가, 를, 는, 와, 로
(and 로 after ㄹ, as in 서울로). A translation cannot know the name it will hold, so it
writes both, the way Korean software does (``{player}이(가)``), and ``particles`` picks the
one that reads right once the name is known: from its last syllable in Hangul, its last
digit as read in Korean, or a Latin name's last letter where the sound is clear (a vowel;
l, m, n). Where it is not (a kanji name, an emoji, "dark_knight"), both stay, as before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# A placeholder (maybe in markdown) and the two-way particle after it.
_DUAL = re.compile(r"(\{(\w+)\}\**)(이\(가\)|을\(를\)|은\(는\)|와\(과\)|\(으\)로|\(이\))")
# Each two-way particle: (after a final consonant, after a vowel).
_FORMS: dict[str, tuple[str, str]] = {
    "이(가)": ("이", "가"),
    "을(를)": ("을", "를"),
    "은(는)": ("은", "는"),
    "와(과)": ("과", "와"),
    "(으)로": ("으로", "로"),
    "(이)": ("이", ""),
}
CONSONANT, VOWEL, RIEUL = "consonant", "vowel", "rieul"  # how a word ends, said aloud
# Digits as read in Korean: 영 일 이 삼 사 오 육 칠 팔 구.
_DIGITS = {
    "0": CONSONANT,
    "1": RIEUL,
    "2": VOWEL,
    "3": CONSONANT,
    "4": VOWEL,
    "5": VOWEL,
    "6": CONSONANT,
    "7": RIEUL,
    "8": RIEUL,
    "9": VOWEL,
}
_TRAILING = "*_~`|\\ )]}>\"'»」』】.!?"  # markdown and closing marks after the word itself


def ending(word: str) -> str | None:
    """How ``word`` ends when read aloud: CONSONANT, RIEUL (ㄹ), VOWEL, or None (unknown)."""
    word = word.rstrip(_TRAILING)
    if not word:
        return None
    last = word[-1]
    if "가" <= last <= "힣":
        final = (ord(last) - ord("가")) % 28
        return VOWEL if final == 0 else RIEUL if final == 8 else CONSONANT
    if last in _DIGITS:
        return _DIGITS[last]
    lower = last.lower()
    if lower in "aeiouy":
        return VOWEL
    if lower == "l":
        return RIEUL
    if lower in "mn" or word.lower().endswith("ng"):
        return CONSONANT
    return None


def particles(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each two-way particle after a placeholder made the one its value
    takes (both kept where the value's sound is unknown)."""

    def pick(found: re.Match[str]) -> str:
        value = values.get(found[2])
        sound = ending(value) if value is not None else None
        if sound is None:
            return found[0]
        after_consonant, after_vowel = _FORMS[found[3]]
        if found[3] == "(으)로" and sound == RIEUL:
            return found[1] + after_vowel  # 서울로, not 서울으로
        return found[1] + (after_vowel if sound == VOWEL else after_consonant)

    return _DUAL.sub(pick, template)
