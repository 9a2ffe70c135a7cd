"""What a reader sees of Discord markdown: the text with its formatting taken out, the way
Discord's client shows it (for tests that a name reads as written, not emphasised away).

Covered: backslash escapes, inline code (shown literally), bold, italics (``*`` and ``_``,
the latter only at word edges), underline, strike-through, spoilers, headings, subtext,
quotes, list bullets, masked links, and the zero-width space that defuses a mention.
"""

from __future__ import annotations

import re

_CODE = re.compile(r"`([^`]+)`")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_HELD = re.compile(r"\x00(\d+)\x00")
_PAIRS = (
    re.compile(r"\*\*(.+?)\*\*"),
    re.compile(r"__(.+?)__"),
    re.compile(r"~~(.+?)~~"),
    re.compile(r"\|\|(.+?)\|\|"),
    re.compile(r"(?<!\*)\*(?![\s*])(.+?)(?<![\s*])\*(?!\*)"),
    re.compile(r"(?<![\w_])_(?!_)(.+?)(?<!_)_(?![\w_])"),
)
_LINK = re.compile(r"\[([^\]]+)\]\((?:https?://[^)\s]+)\)")
_LINE_START = re.compile(r"^(?:#{1,3} |-# |>>> |> |[-*] )", re.MULTILINE)


def shown(text: str) -> str:
    """The text as Discord shows it, formatting taken out."""
    held: list[str] = []

    def hold(value: str) -> str:
        held.append(value)
        return f"\x00{len(held) - 1}\x00"

    text = text.replace("\x00", "").replace("\u200b", "")
    # An escaped backtick opens no code (a backslash inside code is rare in our messages).
    text = _ESCAPE.sub(lambda m: hold(m.group(1)), text)
    text = _CODE.sub(lambda m: hold(m.group(1)), text)
    text = _LINE_START.sub("", text)
    text = _LINK.sub(r"\1", text)
    for _ in range(3):  # nested emphasis: ***bold italic***, **_both_**
        for pair in _PAIRS:
            text = pair.sub(r"\1", text)
    while _HELD.search(text):
        text = _HELD.sub(lambda m: held[int(m.group(1))], text)
    return text
