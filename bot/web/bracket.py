"""An event's bracket written out for the page: the same parts, rounds and boxes the
picture draws (bot.tournaments.pictures), as text a browser lays out, reads aloud and
lets people search, select and zoom on a phone. The picture stays one link away."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.elimination import PodRounds, Tree
from bot.tournaments.groups import GroupRounds
from bot.tournaments.pictures.groups import group_bands
from bot.tournaments.pictures.pods import Boxes, pod_bands
from bot.tournaments.pictures.rows import Row
from bot.tournaments.pictures.tree import bands, match_boxes, numbered
from bot.tournaments.results import Player
from games.core.text import Text

ONE_BAND = 1_000  # the page scrolls sideways: a part's rounds are never wrapped


@dataclass(frozen=True)
class Box:
    """A match (``label`` its number, when the picture numbers them) or a multiplayer
    table ("Table 2"); ``current`` while it is being played. Its words are Texts the
    template says in the page's language; names stay as written."""

    label: str
    rows: tuple[Row, ...]
    current: bool


@dataclass(frozen=True)
class Round:
    title: str
    boxes: tuple[Box, ...]


@dataclass(frozen=True)
class Part:
    """A double bracket's winners', losers' or final part, a single bracket whole, or one
    round of a multiplayer elimination (``tables``: its boxes in a grid, no lines)."""

    title: str
    rounds: tuple[Round, ...]
    tables: bool


def grid_parts(bands: Sequence[tuple[Text, Boxes]]) -> list[Part]:
    """Rounds of tables (multiplayer elimination) or of groups: boxes in a grid, a part a
    round."""
    return [
        Part(title, (Round("", tuple(Box(*each) for each in boxes)),), tables=True)
        for title, boxes in bands
    ]


def bracket_parts(drawn: Tree | PodRounds | GroupRounds, names: Mapping[Player, str]) -> list[Part]:
    if isinstance(drawn, GroupRounds):
        return grid_parts(group_bands(drawn, names))
    if isinstance(drawn, PodRounds):
        return grid_parts(pod_bands(drawn, names))
    said = numbered(drawn.bracket)
    return [
        Part(
            band.title,
            tuple(
                Round(
                    column.title,
                    tuple(
                        Box(str(b.number) if said else "", b.rows, b.current) for b in column.boxes
                    ),
                )
                for column in band.columns
            ),
            tables=False,
        )
        for band in bands(match_boxes(drawn, names), most=ONE_BAND)
    ]
