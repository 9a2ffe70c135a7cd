"""What every tournament picture shares: the title band, and a player's row in a match
box or a table box (seed or place, name, score), styled by where that player stands.

A row's state is told by more than colour, for colour-blind players: a winner is bold
with a green bar and an arrow, a player out is grey and thin, a player still to come is a
grey line of words ("Winner of 5").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.core.pictures import PAD, PALETTE, WIDTH, Box, Canvas
from games.core.text import Text, tc

RowState = Literal["won", "lost", "playing", "waiting", "bye"]
TITLE_SIZE = 24
SUBTITLE_SIZE = 16
HEADER = PAD + TITLE_SIZE + 8 + SUBTITLE_SIZE + PAD  # the title band's height
BOX_FILL = PALETTE.band
BOX_EDGE = PALETTE.empty
CURRENT_EDGE = PALETTE.accent  # the round being played
BYE = tc("bracket", "bye")  # beside a player going through unplayed, or a side nobody takes
FORFEIT = tc("bracket", "forfeit")  # beside a seat that left its table


@dataclass(frozen=True)
class Row:
    """One player's line: ``lead`` (a seed or a place), the name, ``tail`` (games won,
    "forfeit", an arrow) and the state it is drawn in. A name is drawn as written; the
    words of ours (a place, "Winner of 5", "bye") are Texts, drawn in the reader's
    language."""

    name: str
    state: RowState
    lead: str = ""
    tail: str = ""


def header(canvas: Canvas, title: str, subtitle: str) -> int:
    """The title and a muted line under it; returns the y below the band."""
    width = canvas.width - 2 * PAD
    canvas.text((PAD, PAD), title, TITLE_SIZE, PALETTE.text, bold=True, width=width)
    y = PAD + TITLE_SIZE + 8
    canvas.text((PAD, y), subtitle, SUBTITLE_SIZE, PALETTE.muted, width=width)
    return HEADER


def box(canvas: Canvas, area: Box, *, current: bool, quiet: bool = False) -> None:
    """A match's or a table's box; the ones being played are outlined in the accent, a
    bye's sinks into the panel (nothing was played there)."""
    edge, width = (CURRENT_EDGE, 3) if current else (BOX_EDGE, 1)
    fill = PALETTE.panel if quiet else BOX_FILL
    canvas.draw.rounded_rectangle(area, 8, fill=fill, outline=edge, width=width)


def row(canvas: Canvas, area: Box, line: Row, size: int, lead: str | Text = "00") -> None:
    """A player's row inside a box: the lead in a column as wide as ``lead`` (the widest
    a box holds), the name cut to fit."""
    x0, y0, x1, y1 = area
    middle = (y0 + y1) // 2
    won = line.state == "won"
    if won:
        canvas.draw.rectangle((x0, y0 + 3, x0 + 4, y1 - 3), fill=PALETTE.good)
    colour = {
        "won": PALETTE.text,
        "playing": PALETTE.text,
        "lost": PALETTE.muted,
        "waiting": PALETTE.muted,
        "bye": PALETTE.muted,
    }[line.state]
    lead_width = canvas.measure(lead, size - 3) + 8
    if line.lead:
        canvas.text(
            (x0 + 10 + lead_width - 6, middle), line.lead, size - 3, PALETTE.muted, anchor="rm"
        )
    # A winner's score or arrow stands out; a bye is how they went through, said quietly.
    loud = won and line.tail != BYE
    tail_width = canvas.measure(line.tail, size - 1, bold=loud) + 8 if line.tail else 0
    if line.tail:
        tail_colour = PALETTE.good if loud else PALETTE.muted
        canvas.text((x1 - 8, middle), line.tail, size - 1, tail_colour, bold=loud, anchor="rm")
    name_x = x0 + 10 + lead_width
    room = max(x1 - 8 - tail_width - name_x, 8)
    canvas.text((name_x, middle), line.name, size, colour, bold=won, width=room, anchor="lm")


__all__ = ["BYE", "FORFEIT", "HEADER", "PAD", "WIDTH", "Row", "RowState", "box", "header", "row"]
