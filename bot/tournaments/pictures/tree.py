"""Single and double elimination brackets as a picture: rounds in columns, each match a box
of two rows, lines joining a match to the one its winner goes to.

A bracket wider than four rounds would shrink its names below what a phone shows, so its
rounds are wrapped in bands of at most four columns stacked down the picture (a field of
64 is two bands of three); the first column of a band names who comes in. In a double
elimination the winners' bracket, the losers' bracket and the grand final are bands of
their own, and every match carries a number, so a loser dropping in reads "Loser of 5".
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from bot.tournaments.elimination import Bracket, BracketMatch, Source, Tree
from bot.tournaments.pictures.rows import BYE, FORFEIT, HEADER, Row, RowState, box, header, row
from bot.tournaments.results import Player, TableResult
from games.core.pictures import PAD, PALETTE, WIDTH, Canvas
from games.core.text import Text, t, tc
from games.core.translations import ENGLISH

MOST_COLUMNS = 4
ROW_HEIGHT = 30
BOX_HEIGHT = 2 * ROW_HEIGHT + 2
SPACE = 12  # between boxes of a column
GAP = 30  # between columns, where the joining lines run
TITLE_ROW = 30  # the round names above a band's columns
BAND_GAP = 22
STAGE_TITLES = {
    "winners": t("Winners' bracket"),
    "losers": t("Losers' bracket"),
    "final": tc("bracket", "Grand final"),
}


@dataclass(frozen=True)
class MatchBox:
    """One match as drawn: its rows, whether it is being played, its number. A walkover
    (a bye) is one row: the player going through, "bye" beside them, so a field with many
    byes stays short."""

    match: BracketMatch
    number: int
    rows: tuple[Row, ...]
    current: bool

    @property
    def walkover(self) -> bool:
        return len(self.rows) == 1

    @property
    def height(self) -> int:
        return len(self.rows) * ROW_HEIGHT + 2


@dataclass(frozen=True)
class Column:
    title: Text
    boxes: tuple[MatchBox, ...]


@dataclass(frozen=True)
class Band:
    """Columns drawn side by side, under an optional title (a double bracket's part)."""

    title: Text | str
    columns: tuple[Column, ...]


def numbered(bracket: Bracket) -> bool:
    """Whether the picture numbers its matches: when a side may come from a match no line
    reaches (another part of a double bracket, or a band above)."""
    rounds = {match.round for match in bracket.matches}
    return any(match.stage != "winners" for match in bracket.matches) or len(rounds) > MOST_COLUMNS


def match_boxes(tree: Tree, names: Mapping[Player, str]) -> list[MatchBox]:
    """Every match the picture shows, with each side's row. A reset the grand final did
    not need is left out once it is decided."""
    bracket, state = tree.bracket, tree.state
    said = numbered(bracket)
    seed_of = {player: index + 1 for index, player in enumerate(bracket.seeds)}
    numbers = {match.id: index + 1 for index, match in enumerate(bracket.matches)}
    ready = {match_id for match_id, _ in state.ready}
    boxes = []
    for match in bracket.matches:
        unneeded = "GF" in state.decided and match.id not in ready | set(state.decided)
        if match.stage == "reset" and unneeded:
            continue
        players = [_player(tree, source) for source in match.sides]
        result = tree.results.get(match.id)
        winner = state.decided.get(match.id, (None, None))[0]
        rows = []
        for source, player in zip(match.sides, players, strict=True):
            if player is _PENDING:
                rows.append(Row(_waiting(source, numbers) if said else "", "waiting"))
                continue
            if player is None:
                rows.append(Row(BYE, "bye"))
                continue
            assert isinstance(player, int)
            rows.append(
                Row(
                    names.get(player, "?"),
                    _state(match.id, player, winner, state.decided),
                    lead=str(seed_of[player]),
                    tail=_tail(player, result),
                )
            )
        byes = [line for line in rows if line.state == "bye"]
        if byes:  # one row: whoever goes through unplayed (or a bye meeting a bye)
            through = [line for line in rows if line.state != "bye"] or byes[:1]
            rows = [replace(through[0], tail=BYE) if through[0] is not byes[0] else byes[0]]
        boxes.append(MatchBox(match, numbers[match.id], tuple(rows), match.id in ready))
    return boxes


_PENDING = object()


def _waiting(source: Source, numbers: Mapping[str, int]) -> Text:
    """A side still to come, by the match it comes from: "Winner of 5", "Loser of 5"."""
    number = numbers[str(source.ref)]
    if source.kind == "winner":
        return t("Winner of {n}", n=number)
    return t("Loser of {n}", n=number)


def _player(tree: Tree, source: Source) -> object:
    """A side's player, None for a bye (or a loser who forfeited), _PENDING if unknown."""
    if source.kind == "seed":
        index = int(source.ref) - 1
        return tree.bracket.seeds[index] if index < len(tree.bracket.seeds) else None
    decided = tree.state.decided.get(str(source.ref))
    if decided is None:
        return _PENDING
    return decided[0] if source.kind == "winner" else decided[1]


def _state(
    match_id: str,
    player: Player,
    winner: Player | None,
    decided: Mapping[str, object],
) -> RowState:
    if match_id in decided:
        return "won" if player == winner else "lost"
    return "playing"  # known, whether the match is on (outlined) or waits for the other


def _tail(player: Player, result: TableResult | None) -> str | Text:
    """Games won at a best-of-three table; "forfeit" for a seat that left."""
    if result is None:
        return ""
    if player in result.gone:
        return FORFEIT
    if result.game_wins is not None and player in result.players:
        return str(result.game_wins[result.players.index(player)])
    return ""


def round_title(match: BracketMatch, last_round: int, double: bool) -> Text:
    """What a column is called: the last rounds by name, the rest by number."""
    if match.stage == "final":
        return tc("bracket", "Grand final")
    if match.stage == "reset":
        return tc("bracket", "Reset")
    if match.stage == "losers":
        if match.round == last_round:
            return t("Losers' final")
        return t("Losers {n}", n=match.round)
    left = last_round - match.round
    if left == 0:
        return t("Winners' final") if double else tc("bracket", "Final")
    if left == 1:
        return t("Semi-finals")
    if left == 2:
        return t("Quarter-finals")
    return t("Round {n}", n=match.round)


def bands(boxes: list[MatchBox], most: int = MOST_COLUMNS) -> list[Band]:
    """The columns of each part of the bracket, wrapped so no band is wider than ``most``
    columns (bands of a part share its columns evenly). The web page, which scrolls
    sideways, asks for one band per part."""
    double = any(b.match.stage == "losers" for b in boxes)
    parts: dict[str, dict[int, list[MatchBox]]] = {}
    for each in boxes:
        part = "final" if each.match.stage in ("final", "reset") else each.match.stage
        parts.setdefault(part, {}).setdefault(each.match.round, []).append(each)
    out = []
    for part, rounds in parts.items():
        last = max(rounds)
        columns = [
            Column(round_title(found[0].match, last, double), tuple(found))
            for _, found in sorted(rounds.items())
        ]
        count = math.ceil(len(columns) / most)
        size = math.ceil(len(columns) / count)
        for start in range(0, len(columns), size):
            title = STAGE_TITLES[part] if double and start == 0 else ""
            out.append(Band(title, tuple(columns[start : start + size])))
    return out


Placed = dict[str, tuple[int, int, int]]  # a match's column, top y and height in its band


def _band_layout(band: Band) -> tuple[Placed, int]:
    """Where each box sits within a band, and the band's height. A first column's boxes
    are stacked one under the other; a later box is centred on the boxes feeding it from
    the column before (or goes under the box above when none does)."""
    placed: Placed = {}
    bottom = 0
    for index, column in enumerate(band.columns):
        previous = {b.match.id for b in band.columns[index - 1].boxes} if index else set()
        below = 0
        for each in column.boxes:
            centres = [
                placed[str(s.ref)][1] + placed[str(s.ref)][2] // 2
                for s in each.match.sides
                if s.kind == "winner" and s.ref in previous
            ]
            top = below
            if centres:
                top = max(sum(centres) // len(centres) - each.height // 2, below)
            placed[each.match.id] = (index, top, each.height)
            below = top + each.height + SPACE
        bottom = max(bottom, below)
    return placed, bottom - SPACE


def draw_tree(
    tree: Tree,
    names: Mapping[Player, str],
    title: str,
    subtitle: str,
    language: str = ENGLISH,
) -> Canvas:
    """The bracket, highlighted where it is being played, its words in ``language``."""
    boxes = match_boxes(tree, names)
    laid = [(band, *_band_layout(band)) for band in bands(boxes)]
    height = HEADER + sum(
        (TITLE_ROW if band.title else 0) + TITLE_ROW + inner + BAND_GAP for band, _, inner in laid
    )
    canvas = Canvas(height + PAD - BAND_GAP, language=language)
    y = header(canvas, title, subtitle)
    for band, placed, inner in laid:
        if band.title:
            canvas.text((PAD, y + 4), band.title, 18, PALETTE.accent, bold=True)
            y += TITLE_ROW
        _draw_band(canvas, band, placed, y, numbered(tree.bracket))
        y += TITLE_ROW + inner + BAND_GAP
    return canvas


def _draw_band(canvas: Canvas, band: Band, placed: Placed, top: int, numbered: bool) -> None:
    count = len(band.columns)
    width = min((WIDTH - 2 * PAD - (count - 1) * GAP) // count, 340)
    size = 18 if width >= 220 else 16
    lefts = [PAD + index * (width + GAP) for index in range(count)]
    for index, column in enumerate(band.columns):
        playing = any(b.current for b in column.boxes)
        colour = PALETTE.accent if playing else PALETTE.muted
        canvas.text((lefts[index], top + 4), column.title, 15, colour, bold=True, width=width)
    top += TITLE_ROW
    for each in (b for column in band.columns for b in column.boxes):
        column_no, y, _ = placed[each.match.id]
        x0 = lefts[column_no]
        _join(canvas, each, placed, lefts, width, top)
        area = (x0, top + y, x0 + width, top + y + each.height)
        box(canvas, area, current=each.current, quiet=each.walkover)
        if numbered:
            canvas.text(
                (x0 + width - 4, top + y - 1), str(each.number), 11, PALETTE.muted, anchor="rb"
            )
        for side, line in enumerate(each.rows):
            y0 = top + y + 1 + side * ROW_HEIGHT
            row(canvas, (x0 + 1, y0, x0 + width - 1, y0 + ROW_HEIGHT), line, size)
        if not each.walkover:
            middle = top + y + 1 + ROW_HEIGHT
            canvas.draw.line((x0 + 6, middle, x0 + width - 6, middle), fill=PALETTE.empty)


def _join(
    canvas: Canvas,
    each: MatchBox,
    placed: Placed,
    lefts: list[int],
    width: int,
    top: int,
) -> None:
    """Lines from the boxes feeding this one (in the column before) to the row each
    winner takes here."""
    column_no, y, _ = placed[each.match.id]
    for side, source in enumerate(each.match.sides):
        feeder = placed.get(str(source.ref)) if source.kind == "winner" else None
        if feeder is None or feeder[0] != column_no - 1:
            continue
        start_x = lefts[column_no - 1] + width
        start_y = top + feeder[1] + feeder[2] // 2
        end_x = lefts[column_no]
        end_y = top + y + 1 + min(side, len(each.rows) - 1) * ROW_HEIGHT + ROW_HEIGHT // 2
        bend = start_x + GAP // 2
        points = [(start_x, start_y), (bend, start_y), (bend, end_y), (end_x, end_y)]
        canvas.draw.line(points, fill=PALETTE.border, width=2, joint="curve")
