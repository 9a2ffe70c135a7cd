"""Neutral presentation: what a table or a hand shows, with no Discord types.

The Discord layer turns a ``Panel`` into an embed; ``Panel.as_text`` renders the same thing
for a terminal, the README and tests.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Accent = Literal["neutral", "turn", "battle", "done"]


class PanelField(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    value: str
    inline: bool = False


class Panel(BaseModel):
    model_config = ConfigDict(frozen=True)

    title: str
    description: str = ""
    fields: tuple[PanelField, ...] = ()
    footer: str = ""
    accent: Accent = "neutral"

    def as_text(self) -> str:
        lines = [self.title, "=" * len(self.title)]
        if self.description:
            lines += [self.description, ""]
        for field in self.fields:
            lines.append(field.name)
            lines += [f"  {line}" for line in field.value.splitlines()]
        if self.footer:
            lines += ["", self.footer]
        return "\n".join(lines)


class Panels(BaseModel):
    """The table panel everyone sees, and the hand panel of the viewing seat (if seated)."""

    model_config = ConfigDict(frozen=True)

    table: Panel
    hand: Panel | None = None
    details: Panel | None = None  # public but long (a whole discard pile): shown on request
