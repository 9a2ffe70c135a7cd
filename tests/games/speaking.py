"""What tests of a game's languages share: every word a match shows, and the English left
in a text rendered in the pseudo-locale.

The pseudo-locale swaps every ASCII letter of a translated message for an accented one, so
an ASCII word left in its rendering is English that skipped the catalog, unless it is a
name a player wrote (or a product's name, which stays as published)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from games.core.panels import Panels
from games.core.pictures import Canvas
from games.core.protocol import Game, GameState
from games.core.translations import PSEUDO, render

WORD = re.compile(r"[A-Za-z]{2,}")
CODE = re.compile(r"`[^`]*`")  # a command as typed (`/always_ask`) stays as it is
PRODUCTS = ("Toss Your Cookies", "Cookie Chomper")


def english_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The ASCII words of ``text`` outside ``names``, the product names and inline code."""
    text = CODE.sub(" ", text)
    for kept in sorted((*names, *PRODUCTS), key=len, reverse=True):
        text = text.replace(kept, " ")
    return WORD.findall(text)


def untranslated(texts: Iterable[str], names: Iterable[str]) -> dict[str, list[str]]:
    """Each text whose pseudo rendering keeps English words, with those words."""
    found = {}
    names = tuple(names)
    for text in texts:
        words = english_words(render(text, PSEUDO), names)
        if words:
            found[str(text)] = words
    return found


def panel_words(panels: Panels) -> Iterator[str]:
    for panel in (panels.table, panels.hand, panels.details):
        if panel is None:
            continue
        yield from (panel.title, panel.description, panel.footer, panel.brief)
        for field in panel.fields:
            yield from (field.name, field.value, field.brief)


def played_through(
    game: Game, options: BaseModel, names: tuple[str, ...], seed: int, *, panels: bool = True
) -> Iterator[tuple[GameState, list[str]]]:
    """A match played by the built-in bot to its end (or 4000 moves): each state and the
    words a player may read at it (decisions, log lines and, with ``panels``, every seat's
    panels)."""
    state = game.setup(options, names, seed)
    for _ in range(4000):
        words: list[str] = [e.text for e in state.log]
        decisions = game.decisions(state)
        for decision in decisions:
            words.append(decision.prompt)
            for option in decision.options:
                words += [option.label, option.group, option.description]
        for seat in (None, *range(len(names))) if panels else ():
            words += panel_words(game.panels(game.view(state, seat)))
        outcome = game.outcome(state)
        if outcome is not None:
            words.append(outcome.reason)
        yield state, [w for w in words if w]
        if not decisions:
            return
        decision = decisions[0]
        action = game.bot_action(state, decision.seat, decision=decision)
        state, _ = game.apply(state, decision.seat, action)


def record_drawing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string a picture hands the canvas to draw from now on, in order."""
    said: list[str] = []
    text, paragraph = Canvas.text, Canvas.paragraph

    def record_text(self: Canvas, xy: Any, words: str, *args: Any, **kw: Any) -> None:
        said.append(words)
        text(self, xy, words, *args, **kw)

    def record_paragraph(self: Canvas, xy: Any, words: str, *args: Any, **kw: Any) -> int:
        said.append(words)
        return paragraph(self, xy, words, *args, **kw)

    monkeypatch.setattr(Canvas, "text", record_text)
    monkeypatch.setattr(Canvas, "paragraph", record_paragraph)
    return said


# Discord's limits on what a decision becomes: a button's label, a select option's label
# and description. A label may become a button, so it is held to the button's limit.
LABEL_LIMIT, DESCRIPTION_LIMIT = 80, 100
# Names as long as Discord allows, in the scripts that take the most room.
LONG_NAMES = ("W" * 32, "Ěłęňá Żółć-Kowalska the Great!!", "김" * 32)


def over_the_limits(
    game: Game, options: BaseModel, languages: Iterable[str], seed: int
) -> list[tuple[str, str]]:
    """Every option label or description of a match among long names that is longer than
    Discord takes, in any of ``languages``: (language, the text)."""
    found = []
    for state, _ in played_through(game, options, LONG_NAMES, seed, panels=False):
        for decision in game.decisions(state):
            for option in decision.options:
                for language in languages:
                    label = render(option.label, language)
                    description = render(option.description, language)
                    if len(label) > LABEL_LIMIT:
                        found.append((language, label))
                    if len(description) > DESCRIPTION_LIMIT:
                        found.append((language, description))
    return found
