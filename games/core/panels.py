"""Neutral presentation: what a table or a hand shows, with no Discord types.

The Discord layer turns a ``Panel`` into an embed; ``Panel.as_text`` renders the same thing
for a terminal, the README and tests.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.core.text import Words

Accent = Literal["neutral", "turn", "battle", "done"]


class PanelField(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: Words
    value: Words
    inline: bool = False
    # The value in fewer words, shown under a picture that says the rest (a screen reader
    # still reads what matters); empty: the value itself.
    brief: Words = ""


class Panel(BaseModel):
    model_config = ConfigDict(frozen=True)

    title: Words
    description: Words = ""
    fields: tuple[PanelField, ...] = ()
    footer: Words = ""
    accent: Accent = "neutral"
    brief: Words = ""  # the description in fewer words, under a picture (empty: the same)

    def pictured(self) -> Panel:
        """This panel as the text beneath a picture of it: each part's brief where it has one."""
        fields = tuple(
            f.model_copy(update={"value": f.brief}) if f.brief else f for f in self.fields
        )
        return self.model_copy(
            update={"description": self.brief or self.description, "fields": fields}
        )

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
