"""Tournament pictures, pure functions from what a format knows to PNG bytes, drawn with
the shared kit (``games.core.pictures``): an elimination bracket (single, double,
multiplayer) and the standings. No Discord here; the cog attaches them.

Names are drawn as written (cut with an ellipsis); the words of ours are Texts, drawn in
the reader's ``language`` (a public post's: the server's). Nothing secret is in them:
brackets, results and standings are public."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.elimination import PodRounds, Tree
from bot.tournaments.groups import GroupRounds
from bot.tournaments.pictures.groups import draw_groups
from bot.tournaments.pictures.pods import draw_pods
from bot.tournaments.pictures.standings import draw_standings
from bot.tournaments.pictures.tree import draw_tree
from bot.tournaments.results import Player
from bot.tournaments.standings import Standing
from games.core.translations import ENGLISH


def bracket_picture(
    drawn: Tree | PodRounds | GroupRounds,
    names: Mapping[Player, str],
    title: str,
    subtitle: str,
    language: str = ENGLISH,
) -> bytes:
    """The bracket as a PNG: a tree for single and double elimination, a band of tables
    per round for multiplayer elimination, a band of groups per round for group events."""
    if isinstance(drawn, GroupRounds):
        return draw_groups(drawn, names, title, subtitle, language).png()
    if isinstance(drawn, PodRounds):
        return draw_pods(drawn, names, title, subtitle, language).png()
    return draw_tree(drawn, names, title, subtitle, language).png()


def standings_picture(
    standings: Sequence[Standing],
    names: Mapping[Player, str],
    title: str,
    subtitle: str,
    gone: Mapping[Player, str] | None = None,
    language: str = ENGLISH,
    notes: Mapping[Player, str] | None = None,
) -> bytes:
    return draw_standings(standings, names, title, subtitle, gone, language, notes).png()


__all__ = ["bracket_picture", "standings_picture"]
