"""Standings as a picture: rank, name, points and the tiebreaks the format uses, one row
a player, every player (the embed's text stops at 25). The top three ranks sit on
medal-coloured discs (not a rank still shared for want of results); a dropped player's
row is grey and says so ("dropped", or the word ``gone`` gives it: "disqualified")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.pictures.rows import HEADER, header
from bot.tournaments.results import Player
from bot.tournaments.standings import Standing
from bot.tournaments.tiebreakers import tiebreak_name, tiebreaker_text
from games.core.pictures import PAD, PALETTE, WIDTH, Canvas
from games.core.text import t, tc
from games.core.translations import ENGLISH

ROW_HEIGHT = 34
COLUMN_TITLES = 28
RANK_WIDTH = 52
POINTS_WIDTH = 70
BREAKER_WIDTH = 84
NOTE_WIDTH = 300  # "Round 2, group 12: 10th" in the widest of the languages, at 16 px
SIZE = 18
DROPPED = tc("standings", "dropped")
MEDALS = {1: (232, 184, 40), 2: (186, 192, 204), 3: (196, 128, 72)}  # gold, silver, bronze


def draw_standings(
    standings: Sequence[Standing],
    names: Mapping[Player, str],
    title: str,
    subtitle: str,
    gone: Mapping[Player, str] | None = None,
    language: str = ENGLISH,
    notes: Mapping[Player, str] | None = None,
) -> Canvas:
    """``notes``: what explains each place beyond points (a group event's round and group
    reached), in a column of its own before the points."""
    breakers = [name for name, _ in standings[0].tiebreakers] if standings else []
    height = HEADER + COLUMN_TITLES + ROW_HEIGHT * max(len(standings), 1) + PAD
    canvas = Canvas(height, language=language)
    y = header(canvas, title, subtitle)
    right = WIDTH - PAD
    columns = [right - BREAKER_WIDTH * (len(breakers) - i) for i in range(len(breakers))]
    points_right = (columns[0] if columns else right) - 14
    name_x = PAD + RANK_WIDTH
    note_x = points_right - POINTS_WIDTH - NOTE_WIDTH
    name_room = (note_x if notes else points_right - POINTS_WIDTH) - name_x
    canvas.text((PAD + RANK_WIDTH // 2, y + 4), "#", 15, PALETTE.muted, bold=True, anchor="ma")
    canvas.text((name_x, y + 4), tc("column", "Player"), 15, PALETTE.muted, bold=True)
    canvas.text(
        (points_right, y + 4), tc("column", "Pts"), 15, PALETTE.muted, bold=True, anchor="ra"
    )
    if notes:
        canvas.text((note_x, y + 4), tc("column", "Reached"), 15, PALETTE.muted, bold=True)
    for x, name in zip(columns, breakers, strict=True):
        canvas.text(
            (x + BREAKER_WIDTH - 8, y + 4),
            tiebreak_name(name),
            15,
            PALETTE.muted,
            bold=True,
            anchor="ra",
        )
    y += COLUMN_TITLES
    if not standings:
        canvas.text(
            (name_x, y + ROW_HEIGHT // 2), t("No results yet."), SIZE, PALETTE.muted, anchor="lm"
        )
    for index, line in enumerate(standings):
        top, middle = y + index * ROW_HEIGHT, y + index * ROW_HEIGHT + ROW_HEIGHT // 2
        if index % 2 == 0:
            canvas.draw.rectangle(
                (PAD - 6, top, right + 6, top + ROW_HEIGHT - 1), fill=PALETTE.band
            )
        colour = PALETTE.muted if line.dropped else PALETTE.text
        centre = PAD + RANK_WIDTH // 2
        medal = MEDALS.get(line.rank) if not (line.dropped or line.undecided) else None
        if medal is not None:
            canvas.draw.ellipse((centre - 14, middle - 14, centre + 14, middle + 14), fill=medal)
        rank_colour = PALETTE.card_text if medal else colour
        canvas.text((centre, middle), str(line.rank), 16, rank_colour, bold=True, anchor="mm")
        name = names.get(line.player, "?")
        shown: str = name
        if line.dropped:
            said = (gone or {}).get(line.player, DROPPED)
            shown = t("{name} ({why})", name=name, why=said)
        canvas.text(
            (name_x, middle), shown, SIZE, colour, bold=line.rank <= 3, width=name_room, anchor="lm"
        )
        if notes and line.player in notes:
            canvas.text(
                (note_x, middle),
                notes[line.player],
                16,
                colour,
                width=NOTE_WIDTH - 12,
                anchor="lm",
            )
        canvas.text(
            (points_right, middle), f"{float(line.points):g}", SIZE, colour, bold=True, anchor="rm"
        )
        for x, (name, value) in zip(columns, line.tiebreakers, strict=False):
            canvas.text(
                (x + BREAKER_WIDTH - 8, middle),
                tiebreaker_text(name, value),
                16,
                PALETTE.muted,
                anchor="rm",
            )
    return canvas
