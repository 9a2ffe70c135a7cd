"""Tournament pictures, pure: rigged brackets and standings drawn and compared with small
references by eye-like difference (not bytes), what each box says, and the largest fields
drawn whole within Discord's limits.

To redraw the references after a deliberate change: UPDATE_PICTURES=1 pytest this file,
then LOOK at every image in tests/bot/pictures/ before committing them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

from bot.tournaments import elimination as elim
from bot.tournaments.pictures import bracket_picture, standings_picture
from bot.tournaments.pictures.pods import band_title, round_boxes
from bot.tournaments.pictures.tree import (
    BOX_HEIGHT,
    MOST_COLUMNS,
    bands,
    draw_tree,
    match_boxes,
)
from bot.tournaments.results import TableResult
from games.core.pictures import DISCORD_LIMIT, PAD, PALETTE, WIDTH, difference
from tests.bot import tournament_rigs as rigs

REFERENCES = Path(__file__).parent / "pictures"
# Mean per-channel difference (0-255). A bracket is mostly bare panel, so one letter of a
# name changed moves it by ~0.008 and a result by ~0.9: the tolerance sits well below both,
# above the anti-aliasing noise of the same drawing.
TOLERANCE = 0.004


def snapshot(name: str, png: bytes) -> None:
    path = REFERENCES / f"{name}.png"
    if os.environ.get("UPDATE_PICTURES"):
        REFERENCES.mkdir(exist_ok=True)
        path.write_bytes(png)
    assert difference(png, path.read_bytes()) <= TOLERANCE, f"{name} looks different"


def size_of(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def boxes_by_id(tree: elim.Tree, count: int) -> dict[str, object]:
    return {b.match.id: b for b in match_boxes(tree, rigs.names(count, long=True))}


# --- single elimination ----------------------------------------------------------------------
def test_a_rigged_eight_player_single_elimination_matches_its_reference() -> None:
    tree = rigs.single(8, 5)  # the quarter-finals and one semi-final played
    snapshot(
        "single-8",
        bracket_picture(tree, rigs.names(8, long=True), "Cover Your Assets", "Semi-finals"),
    )


def test_a_winner_goes_on_to_the_next_box_and_the_match_being_played_is_marked() -> None:
    tree = rigs.single(8, 5)
    boxes = boxes_by_id(tree, 8)
    final = boxes["W3-1"]
    # Seed 1 beat seed 4 in the first semi-final: she waits in the final, named, for
    # the other semi-final, which is being played.
    assert [r.name for r in final.rows] == ["Ana", ""]  # type: ignore[attr-defined]
    assert final.rows[1].state == "waiting" and not final.current  # type: ignore[attr-defined]
    semi = boxes["W2-2"]
    assert semi.current and {r.state for r in semi.rows} == {"playing"}  # type: ignore[attr-defined]
    first = boxes["W2-1"]
    assert [(r.name, r.state) for r in first.rows] == [("Ana", "won"), ("Dev", "lost")]  # type: ignore[attr-defined]


def test_a_bye_is_one_quiet_row_and_the_seed_goes_through() -> None:
    tree = rigs.single(5, 0)  # a bracket of eight: seeds 1-3 have byes
    boxes = match_boxes(tree, rigs.names(5))
    walkovers = [b for b in boxes if b.walkover]
    assert [(b.rows[0].lead, b.rows[0].state, b.rows[0].tail) for b in walkovers] == [
        ("1", "won", "bye"),
        ("3", "won", "bye"),
        ("2", "won", "bye"),
    ]
    assert all(b.height < BOX_HEIGHT * 2 // 3 for b in walkovers)  # a short box
    assert sum(b.current for b in boxes) == 2  # 4-5 and 2-3 are on at once


def test_many_byes_keep_the_picture_short() -> None:
    names = rigs.names(33)
    byes = size_of(bracket_picture(rigs.single(33, 0), names, "T", "S"))[1]
    full = size_of(bracket_picture(rigs.single(64, 0), rigs.names(64), "T", "S"))[1]
    assert byes < full * 3 // 4


def test_a_best_of_three_shows_the_games_won() -> None:
    tree = rigs.single(4, 3, best_of=3)
    final = boxes_by_id(tree, 4)["W2-1"]
    assert [r.tail for r in final.rows] == ["2", "1"]  # type: ignore[attr-defined]


# --- double elimination ----------------------------------------------------------------------
def test_a_double_elimination_with_its_losers_bracket_matches_its_reference() -> None:
    tree = rigs.double(8, 9, judge=rigs.upsets)
    assert any(m.stage == "losers" for m in tree.bracket.matches)
    snapshot("double-8", bracket_picture(tree, rigs.names(8), "Cookie Chomper", "Losers 2"))


def test_a_loser_drops_into_the_losers_bracket_by_the_match_number() -> None:
    tree = rigs.double(8, 4)  # only the first winners' round played
    boxes = boxes_by_id(tree, 8)
    drop_in = boxes["L2-1"]
    # The losers of the quarter-finals met in L1; L2 waits for a semi-final's loser.
    assert drop_in.rows[1].name.startswith("Loser of ")  # type: ignore[attr-defined]
    parts = [band.title for band in bands(list(boxes.values()))]  # type: ignore[arg-type]
    assert parts[0] == "Winners' bracket" and "Losers' bracket" in parts
    assert parts[-1] == "Grand final"


def test_the_reset_shows_until_the_grand_final_is_won_by_the_unbeaten() -> None:
    before = rigs.double(4, 5)  # everything but the grand final
    assert "GF2" in boxes_by_id(before, 4)
    after = rigs.double(4, 6)  # seed 1 wins the grand final unbeaten: no reset
    assert after.state.finished and "GF2" not in boxes_by_id(after, 4)


# --- multiplayer elimination -----------------------------------------------------------------
def test_a_multiplayer_pod_bracket_matches_its_reference() -> None:
    pods = rigs.pods(16)
    snapshot("pods-16", bracket_picture(pods, rigs.names(16), "Toss Your Cookies", "Round 2"))


def test_a_round_says_how_many_of_each_table_go_on() -> None:
    first = rigs.pods(16).rounds[0]
    assert band_title(first, 1, 2) == "Round 1 · 4 tables, the top 2 of each go on"
    assert band_title(first, 1, 1) == "Round 1 · 4 tables, the winner of each goes on"


def test_a_pod_lists_its_seats_by_place_and_marks_who_goes_on() -> None:
    pods = rigs.pods(16)
    first, second = pods.rounds
    boxes = round_boxes(first, pods.seeds, pods.advance, rigs.names(16))
    title, rows, current = boxes[0]
    assert title == "Table 1" and not current
    assert [r.lead for r in rows] == ["1st", "2nd", "3rd", "4th"]
    assert [r.state for r in rows] == ["won", "won", "lost", "lost"]
    assert rows[0].tail == "→" and rows[2].tail == ""
    forfeit = boxes[1][1]
    assert forfeit[-1].tail == "forfeit" and forfeit[-1].state == "lost"
    playing = round_boxes(second, list(pods.seeds), pods.advance, rigs.names(16))
    assert [current for *_, current in playing] == [False, True]


# --- standings -------------------------------------------------------------------------------
def test_swiss_standings_match_their_reference() -> None:
    standings = rigs.swiss(8, 3)
    names = rigs.names(8, long=True)
    snapshot("standings-8", standings_picture(standings, names, "Standings", "Swiss · 3 rounds"))


# --- the largest fields ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "drawn",
    [rigs.single(64, 40), rigs.double(64, 100, judge=rigs.upsets), rigs.pods(64, decided_rounds=2)],
    ids=["single", "double", "pods"],
)
def test_sixty_four_entrants_draw_whole_within_discords_limits(drawn: object) -> None:
    png = bracket_picture(drawn, rigs.names(64, long=True), "Sixty-four", "Everyone")  # type: ignore[arg-type]
    width, height = size_of(png)
    assert width == WIDTH and len(png) < DISCORD_LIMIT // 20 and height < 8000


def test_no_band_is_wider_than_a_phone_reads_and_every_box_is_on_the_picture() -> None:
    tree = rigs.double(64, 100, judge=rigs.upsets)
    boxes = match_boxes(tree, rigs.names(64))
    assert all(len(band.columns) <= MOST_COLUMNS for band in bands(boxes))
    shown = sum(len(c.boxes) for band in bands(boxes) for c in band.columns)
    assert shown == len(boxes) == len(tree.bracket.matches)  # the reset is still to come
    canvas = draw_tree(tree, rigs.names(64), "Sixty-four", "Everyone")
    # The panel's margin under the last band is bare: no box runs into it or off the end.
    bottom = canvas.image.crop(
        (PAD + 8, canvas.height - PAD + 2, WIDTH - PAD - 8, canvas.height - 4)
    )
    assert bottom.convert("RGB").getcolors() == [(bottom.width * bottom.height, PALETTE.panel)]


def test_a_long_name_is_cut_and_an_emoji_left_out() -> None:
    tree = rigs.single(8, 5)
    narrow = bracket_picture(tree, rigs.names(8, long=True), "T", "S")
    short = bracket_picture(tree, {**rigs.names(8, long=True), 2: "Ben"}, "T", "S")
    assert size_of(narrow) == size_of(short)  # a long name never widens the picture


def test_a_result_changes_the_picture() -> None:
    names = rigs.names(8)
    before = bracket_picture(rigs.single(8, 4), names, "T", "S")
    after = bracket_picture(rigs.single(8, 5), names, "T", "S")
    assert difference(before, after) > TOLERANCE


def test_a_forfeit_says_so_in_the_bracket() -> None:
    bracket = elim.single_elimination([1, 2])
    results = {"W1-1": TableResult.ranked(1, [1], [2], gone=frozenset({2}))}
    tree = elim.Tree(bracket, elim.progress(bracket, results), results)
    (only,) = match_boxes(tree, {1: "Ana", 2: "Ben"})
    assert [(r.state, r.tail) for r in only.rows] == [("won", ""), ("lost", "forfeit")]
