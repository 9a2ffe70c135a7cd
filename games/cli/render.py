"""Neutral panels (games/core/panels.py) rendered in a terminal with ``rich``: the same
table and hand a Discord embed shows."""

from __future__ import annotations

import re

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel as RichPanel
from rich.text import Text

from games.core.panels import Panel
from games.core.translations import ENGLISH, render

ACCENTS = {"neutral": "yellow", "turn": "green", "battle": "red", "done": "bright_yellow"}
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")
_MENTION_TIME = re.compile(r"<t:(\d+):[a-zA-Z]>")


def markup(text: str) -> Text:
    """Discord's **bold** and *italic* as terminal styles; anything else stays literal."""
    safe = escape(_MENTION_TIME.sub("a moment", text))
    safe = _BOLD.sub(r"[bold]\1[/bold]", safe)
    safe = _ITALIC.sub(r"[italic]\1[/italic]", safe)
    return Text.from_markup(safe)


def panel(source: Panel, language: str = ENGLISH, *, title: str | None = None) -> RenderableType:
    """A panel with its words in ``language``."""
    parts: list[RenderableType] = []
    if source.description:
        parts.append(markup(render(source.description, language)))
    for field in source.fields:
        if parts:
            parts.append(Text(""))
        parts.append(markup(f"**{render(field.name, language)}**"))
        parts.append(Padding(markup(render(field.value, language)), (0, 0, 0, 2)))
    if source.footer:
        # In the body rather than on the border, where a long footer would be cut short.
        parts += [Text(""), Text(render(source.footer, language), style="dim italic")]
    return RichPanel(
        Group(*parts) if parts else Text(""),
        title=markup(title or render(source.title, language)),
        title_align="left",
        border_style=ACCENTS.get(source.accent, "yellow"),
        box=box.ROUNDED,
    )
