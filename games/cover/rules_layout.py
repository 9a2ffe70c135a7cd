"""How a rulebook's messages are laid out: lines of a block one under another, blocks
apart, the way /rules has always shown them."""

from __future__ import annotations

from collections.abc import Sequence

from games.core.text import Text, joined


def blocks(parts: Sequence[Sequence[Text]]) -> Text:
    """Paragraphs (each a heading line and its list items) with a blank line between."""
    return joined((joined(block, "\n") for block in parts), "\n\n", end="\n")
