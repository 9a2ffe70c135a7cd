"""Snapshots of rigged Braverse tables and a hand, compared by eye-like difference (mean
absolute pixel difference on Discord's dark background), not by bytes: a Pillow upgrade
may move an anti-aliased pixel without changing what a player sees.

To redraw the references after a deliberate change: UPDATE_PICTURES=1 pytest this file,
then LOOK at every image in tests/games/braverse/pictures/ before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games import GAMES
from games.braverse.view import AttackLine, BraverseView, CookieLine, SideView, SupportLine
from games.core.pictures import difference, hand_picture
from tests.games.snapshots import TOLERANCE, difference_from_reference

REFERENCES = Path(__file__).parent / "pictures"
GAME = GAMES["braverse"]


def side(name: str, **fields: object) -> SideView:
    base: dict[str, object] = dict(
        name=name,
        deck=30,
        hand_count=5,
        hand=None,
        support=[],
        battle=[],
        stage=None,
        stage_rested=False,
        discard=[],
        break_area=[],
        break_level=0,
        attack_bonus=0,
        chosen=True,
    )
    return SideView(**{**base, **fields})  # type: ignore[arg-type]


def view(sides: list[SideView], **fields: object) -> BraverseView:
    base: dict[str, object] = dict(
        viewer=None,
        phase="main",
        turn=0,
        first=0,
        round=3,
        sides=sides,
        attack=None,
        doing="",
        over=False,
        winner=None,
        result="",
        log=[],
        to_move=(0,),
    )
    return BraverseView(**{**base, **fields})  # type: ignore[arg-type]


def support(*cards: tuple[str, bool]) -> list[SupportLine]:
    return [SupportLine(card=c, rested=r) for c, r in cards]


def opening() -> BraverseView:
    """Turn 1: one Cookie each, nothing else on the board."""
    return view(
        [
            side("Ana", battle=[CookieLine(uid=1, card="S1-001", hp_left=2, rested=False)]),
            side("Ben", battle=[CookieLine(uid=2, card="S1-047", hp_left=1, rested=False)]),
        ],
        round=1,
    )


def choosing() -> BraverseView:
    """Set-up: Ana has chosen her starting Cookie (face down), Ben has not."""
    return view(
        [side("Ana", chosen=True, hand_count=5), side("Ben", chosen=False, hand_count=6)],
        phase="starting",
        round=0,
        to_move=(1,),
    )


def full_board() -> BraverseView:
    """Both Battle Areas full, a rested Cookie, every colour in Support, Stages, an attack
    on its way and a Break Area one level from losing, with long names."""
    ana = side(
        "Anastasia the Unbreakable",
        battle=[
            CookieLine(uid=1, card="S1-038", hp_left=6, rested=True),
            CookieLine(uid=3, card="S1-023", hp_left=2, rested=False),
        ],
        support=support(("S1-001", False), ("S1-016", True), ("S1-031", False), ("S1-046", True))
        + support(("S1-002", False), ("S1-017", False)),
        stage="S1-060",
        break_level=4,
        discard=["S1-010"] * 7,
        attack_bonus=1,
    )
    ben = side(
        "Ben",
        battle=[
            CookieLine(uid=2, card="S1-053", hp_left=1, rested=False),
            CookieLine(uid=4, card="S1-009", hp_left=4, rested=True),
        ],
        support=support(("S1-048", True), ("S1-049", True), ("S1-050", False)),
        stage="S1-015",
        stage_rested=True,
        break_level=9,
        deck=3,
        hand_count=9,
    )
    attack = AttackLine(
        seat=0,
        attacker="S1-038",
        target="S1-053",
        attacker_uid=1,
        target_uid=2,
        damage=4,
        locked=False,
    )
    return view([ana, ben], attack=attack, doing="🪤 Ben may answer the attack.", to_move=(1,))


def game_over() -> BraverseView:
    board = full_board()
    return board.model_copy(
        update=dict(over=True, winner=0, result="Ben's Break Area reached LV 10.", to_move=())
    )


def a_hand() -> BraverseView:
    board = full_board()
    hand = ["S1-038", "S1-038", "S1-007", "S1-013", "S1-030", "S1-041", "S1-054"]
    sides = [board.sides[0].model_copy(update=dict(hand=hand)), board.sides[1]]
    return board.model_copy(update=dict(viewer=0, sides=sides, hand=hand, looked=["S1-026"]))


SNAPSHOTS = {
    "opening": lambda: GAME.table_picture(opening()),
    "choosing": lambda: GAME.table_picture(choosing()),
    "full_board": lambda: GAME.table_picture(full_board()),
    "game_over": lambda: GAME.table_picture(game_over()),
    "hand": lambda: hand_picture(GAME, a_hand()),
}


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_pictures_match_their_references(name: str) -> None:
    drawn = SNAPSHOTS[name]()
    assert difference_from_reference(drawn, REFERENCES / f"{name}.png") < TOLERANCE


def test_the_references_are_told_apart() -> None:
    """The tolerance is tight enough to see a change of state: the full board and the same
    board once the game is over differ by more than it."""
    full, over = (REFERENCES / "full_board.png").read_bytes(), (REFERENCES / "game_over.png")
    assert difference(full, over.read_bytes()) > TOLERANCE


def test_a_spectator_has_no_hand_picture() -> None:
    assert hand_picture(GAME, full_board()) is None
