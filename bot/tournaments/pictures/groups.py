"""A group event as a picture: a band per round, each group a box of its members as they
stand in it (place, name, place points so far), those going on bold with an arrow, the
last group's winner with a star; a group still playing is outlined. Drawn like a
multiplayer elimination's rounds of tables (``pods.draw_bands``)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.tournaments.groups import NOT_STARTED, Group, GroupRounds
from bot.tournaments.pictures.pods import CHAMPION, GOES_ON, Boxes, draw_bands
from bot.tournaments.pictures.rows import Row
from bot.tournaments.results import Player
from games.core.pictures import Canvas
from games.core.text import Text, t, tc, tn
from games.core.translations import ENGLISH
from games.core.words import place as placed


def group_rows(group: Group, names: Mapping[Player, str]) -> list[Row]:
    """A group's members by their standing in it, with their points; a group with no
    result yet has no order: its members by name, with no places and no points."""
    if not group.started:
        members = sorted(names.get(q, "?") for q in group.members)
        return [Row(name, "playing") for name in members]
    rows = []
    for index, line in enumerate(group.standings, start=1):
        points = f"{float(line.points):g}"
        name = names.get(line.player, "?")
        if group.playing:
            rows.append(Row(name, "playing", lead=placed(index), tail=points))
        elif line.player in group.going_on:
            mark = CHAMPION if group.final else GOES_ON
            rows.append(Row(name, "won", lead=placed(index), tail=f"{points} {mark}"))
        else:
            rows.append(Row(name, "lost", lead=placed(index), tail=points))
    return rows


def band_title(groups: tuple[Group, ...], number: int) -> Text:
    if any(g.final for g in groups):
        return tc("groups", "Round {round} · the last group", round=number)
    going = max((len(g.going_on) for g in groups), default=1)
    return tn(
        "Round {round} · {n} group, the best {advance} of each go on",
        "Round {round} · {n} groups, the best {advance} of each go on",
        n=len(groups),
        round=number,
        advance=going,
    )


def group_label(group: Group) -> Text:
    """A group's name over its box; "not started" until one of its tables has a result."""
    name = tc("groups", "Last group") if group.final else t("Group {n}", n=group.number)
    if group.started:
        return name
    return t("{group} · {state}", group=name, state=NOT_STARTED)


def group_bands(stages: GroupRounds, names: Mapping[Player, str]) -> list[tuple[Text, Boxes]]:
    """Each round as (its title, a box a group): what the picture draws and the web page
    writes out."""
    return [
        (
            band_title(groups, number),
            [(group_label(g), group_rows(g, names), g.playing) for g in groups],
        )
        for number, groups in enumerate(stages.rounds, start=1)
    ]


def draw_groups(
    stages: GroupRounds,
    names: Mapping[Player, str],
    title: str,
    subtitle: str,
    language: str = ENGLISH,
) -> Canvas:
    return draw_bands(group_bands(stages, names), title, subtitle, language)
