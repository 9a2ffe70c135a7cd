"""Snapshots of rigged Toss Your Cookies tables and hands (see tests/games/snapshots.py),
the largest table (eight players, long names) among them."""

from __future__ import annotations

from pathlib import Path

from games import GAMES
from games.core.pictures import difference, hand_picture, patch_difference
from games.toss.state import BlindTake, Roll, TossOptions
from games.toss.view import SeatLine, TossView
from tests.games.snapshots import PATCH_TOLERANCE, TOLERANCE, snapshot_test

REFERENCES = Path(__file__).parent / "pictures"
GAME = GAMES["toss_your_cookies"]
NAMES = ["Anastasia the Unbreakable", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]
COOKIES = ["sugar", "ginger", "fortune", "sandwich", "chip", "macadamia", "fudge", "fruit"]


def view(seats: int, **fields: object) -> TossView:
    base: dict[str, object] = dict(
        viewer=None,
        options=TossOptions(rounds="3"),
        round=2,
        turn=0,
        phase="roll",
        roll=None,
        count=0,
        players=[SeatLine(name=n, cards=7, round_wins=0) for n in NAMES[:seats]],
        cookies=COOKIES[:seats],
        middle=[],
        tosser=None,
        target=None,
        blind=None,
        hand=None,
        winners=[1],
        over=False,
        log=[],
        to_move=(0,),
    )
    return TossView(**{**base, **fields})  # type: ignore[arg-type]


def eight_passing() -> TossView:
    """Eight players pass two cards left; some have chosen (their hands are two short). The
    milk was last seen going to Ben."""
    players = [
        SeatLine(
            name=n,
            cards=5 if s % 3 == 0 else 7,
            round_wins=1 if s == 1 else 0,
            status="✅ chosen" if s % 3 == 0 else "⏳ choosing",
        )
        for s, n in enumerate(NAMES)
    ]
    waiting = tuple(s for s in range(8) if s % 3)
    return view(
        8,
        players=players,
        phase="choose",
        roll=Roll(action="left", number="2"),
        count=2,
        to_move=waiting,
        milk_seen=1,
    )


def scramble() -> TossView:
    """Everyone tossed everything: the middle holds every kind of card."""
    middle = [*COOKIES[:5] * 4, "chip", "wild", "wild", "half", "half", "milk"]
    players = [
        SeatLine(name=n, cards=c, round_wins=0, status=f"🏃 grabbing {7 - c}" if c < 7 else "")
        for n, c in zip(NAMES[:5], (2, 0, 7, 1, 0), strict=True)
    ]
    return view(
        5,
        players=players,
        phase="scramble",
        roll=Roll(action="toss", number="all"),
        count=7,
        middle=middle,
        turn=2,
        to_move=(0, 1, 3, 4),
    )


def swapping() -> TossView:
    """The roller takes three cards blindly from the hand they swapped with."""
    return view(
        3,
        phase="swap_take",
        roll=Roll(action="swap", number="3"),
        count=3,
        turn=1,
        target=2,
        blind=BlindTake(taker=1, source=2, count=3),
        to_move=(1,),
        players=[
            SeatLine(name=n, cards=c, round_wins=0)
            for n, c in zip(NAMES[:3], (7, 4, 7), strict=True)
        ],
    )


def game_over() -> TossView:
    players = [
        SeatLine(name=n, cards=7, round_wins=w)
        for n, w in zip(NAMES[:4], (0, 2, 1, 0), strict=True)
    ]
    return view(
        4,
        players=players,
        phase="roll",
        roll=Roll(action="right", number="milk"),
        over=True,
        result="Ben won 2 rounds of 3.",
        winners=[1, 2, 1],
        round=3,
        to_move=(),
    )


def a_hand() -> TossView:
    """Three chocolate chips, a wild and the milk, two cards picked to pass."""
    hand = ["chip", "chip", "chip", "wild", "milk"]
    return eight_passing().model_copy(update=dict(viewer=3, hand=hand, my_pick=["half", "fudge"]))


def a_winning_hand() -> TossView:
    """Five of one cookie (a wild among them) and the milk, with the must-shout rule."""
    hand = ["sugar", "chip", "chip", "chip", "chip", "wild", "milk"]
    board = view(4, options=TossOptions(must_shout=True), to_move=(2,))
    return board.model_copy(update=dict(viewer=2, hand=hand, can_shout=True))


SNAPSHOTS = {
    "eight_passing": lambda: GAME.table_picture(eight_passing()),
    "scramble": lambda: GAME.table_picture(scramble()),
    "swapping": lambda: GAME.table_picture(swapping()),
    "game_over": lambda: GAME.table_picture(game_over()),
    "hand": lambda: hand_picture(GAME, a_hand()),
    "winning_hand": lambda: hand_picture(GAME, a_winning_hand()),
}


test_pictures_match_their_references = snapshot_test(SNAPSHOTS, REFERENCES)


def test_a_chosen_player_reads_differently_from_one_choosing() -> None:
    """The tolerances see a one-player change (Ben having chosen) that the whole picture's
    mean hides."""
    board = eight_passing()
    players = list(board.players)
    players[1] = players[1].model_copy(update=dict(status="✅ chosen", cards=5))
    changed = board.model_copy(update=dict(players=players))
    before, after = GAME.table_picture(board), GAME.table_picture(changed)
    assert difference(before, after) < TOLERANCE
    assert patch_difference(before, after) > PATCH_TOLERANCE


def test_a_spectator_has_no_hand_picture() -> None:
    assert hand_picture(GAME, eight_passing()) is None
