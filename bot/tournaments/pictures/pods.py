"""A multiplayer elimination as a picture: a band per round, its tables as boxes in a grid
(seeds are snaked across tables, so no line could join one round to the next), each seat
a row. A decided table lists its seats by place, those who go on bold with an arrow, the
rest grey; a final's winner has a star. Players passing a round unplayed have a box too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.elimination import PlayedRound, PodRounds, advancing, round_fields
from bot.tournaments.pictures.rows import FORFEIT, HEADER, Row, box, header, row
from bot.tournaments.results import Player, TableResult
from games.core.pictures import PAD, PALETTE, WIDTH, Canvas
from games.core.text import Text, t, tc, tn
from games.core.translations import ENGLISH
from games.core.words import place as placed

ACROSS = 3  # tables side by side
GAP = 16
ROW_HEIGHT = 28
TABLE_TITLE = 26
BAND_TITLE = 34
GOES_ON = "→"
WIDEST = placed(8)  # the widest place a table of eight shows: its column's width
CHAMPION = "★"


def table_rows(
    seats: Sequence[Player],
    result: TableResult | None,
    going: set[Player],
    names: Mapping[Player, str],
    final: bool,
) -> list[Row]:
    """A table's seats: in seat order while it plays, by place once decided."""
    if result is None:
        return [Row(names.get(p, "?"), "playing") for p in seats]
    rows = []
    order = sorted(seats, key=lambda p: (p in result.gone, result.place_of(p)))
    for player in order:
        place = placed(result.place_of(player))
        if player in result.gone:
            rows.append(Row(names.get(player, "?"), "lost", lead="", tail=FORFEIT))
        elif player in going:
            tail = CHAMPION if final else GOES_ON
            rows.append(Row(names.get(player, "?"), "won", lead=place, tail=tail))
        else:
            rows.append(Row(names.get(player, "?"), "lost", lead=place))
    return rows


Boxes = list[tuple[Text, list[Row], bool]]  # each box's title, rows, and whether it plays


def round_boxes(
    played: PlayedRound, field: Sequence[Player], advance: int, names: Mapping[Player, str]
) -> Boxes:
    """Each box of a round as (title, rows, being played)."""
    rank = {player: index for index, player in enumerate(field)}
    out = []
    for number, (seats, result) in enumerate(zip(played.tables, played.results, strict=True)):
        going: set[Player] = set()
        if result is not None:
            going = set(advancing(result, 1 if played.final else advance, rank))
        title = t("Final table") if played.final else t("Table {n}", n=number + 1)
        out.append((title, table_rows(seats, result, going, names, played.final), result is None))
    if played.byes:
        rows = [Row(names.get(p, "?"), "won", tail=GOES_ON) for p in played.byes]
        out.append((t("Pass unplayed"), rows, False))
    return out


def band_title(played: PlayedRound, number: int, advance: int) -> Text:
    if played.final:
        return tc("bracket", "Final")
    tables = len(played.tables)
    if advance == 1:
        return tn(
            "Round {round} · {n} table, the winner of each goes on",
            "Round {round} · {n} tables, the winner of each goes on",
            n=tables,
            round=number,
        )
    return tn(
        "Round {round} · {n} table, the top {advance} of each go on",
        "Round {round} · {n} tables, the top {advance} of each go on",
        n=tables,
        round=number,
        advance=advance,
    )


def pod_bands(pods: PodRounds, names: Mapping[Player, str]) -> list[tuple[Text, Boxes]]:
    """Each round as (its title, its boxes): what the picture draws and the web page
    writes out."""
    fields = round_fields(pods)
    return [
        (band_title(played, number, pods.advance), round_boxes(played, field, pods.advance, names))
        for number, (played, field) in enumerate(zip(pods.rounds, fields, strict=True), start=1)
    ]


def draw_pods(
    pods: PodRounds,
    names: Mapping[Player, str],
    title: str,
    subtitle: str,
    language: str = ENGLISH,
) -> Canvas:
    return draw_bands(pod_bands(pods, names), title, subtitle, language)


def draw_bands(
    bands: Sequence[tuple[Text, Boxes]], title: str, subtitle: str, language: str = ENGLISH
) -> Canvas:
    """Bands of boxes in a grid, under the title: a multiplayer elimination's rounds of
    tables, a group event's rounds of groups."""
    width = (WIDTH - 2 * PAD - (ACROSS - 1) * GAP) // ACROSS

    def box_height(rows: list[Row]) -> int:
        return TABLE_TITLE + ROW_HEIGHT * len(rows) + 6

    def grid_rows(boxes: Boxes) -> list[int]:
        return [
            max(box_height(rows) for _, rows, _ in boxes[start : start + ACROSS])
            for start in range(0, len(boxes), ACROSS)
        ]

    height = HEADER + sum(BAND_TITLE + sum(h + GAP for h in grid_rows(b)) for _, b in bands)
    canvas = Canvas(height + PAD - GAP, language=language)
    y = header(canvas, title, subtitle)
    for band, boxes in bands:
        playing = any(current for *_, current in boxes)
        colour = PALETTE.accent if playing else PALETTE.muted
        canvas.text((PAD, y + 6), band, 17, colour, bold=True, width=WIDTH - 2 * PAD)
        y += BAND_TITLE
        for line, tall in enumerate(grid_rows(boxes)):
            for across, (name, rows, current) in enumerate(
                boxes[line * ACROSS : (line + 1) * ACROSS]
            ):
                x0 = PAD + across * (width + GAP)
                box(canvas, (x0, y, x0 + width, y + box_height(rows)), current=current)
                canvas.text((x0 + 10, y + 6), name, 14, PALETTE.muted, bold=True)
                top = y + TABLE_TITLE
                for index, each in enumerate(rows):
                    y0 = top + index * ROW_HEIGHT
                    row(
                        canvas, (x0 + 1, y0, x0 + width - 1, y0 + ROW_HEIGHT), each, 16, lead=WIDEST
                    )
            y += tall + GAP
    return canvas
