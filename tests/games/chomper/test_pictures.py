"""Snapshots of rigged Cookie Chomper tables and a hand (see tests/games/snapshots.py)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from games import GAMES
from games.chomper.picture import HEADER, TOKEN, TOKEN_STEP
from games.chomper.state import ChomperOptions, Entry
from games.chomper.view import ChomperView, SeatLine
from games.core.pictures import PAD, PALETTE, hand_picture, on_background
from tests.games.snapshots import snapshot_test

REFERENCES = Path(__file__).parent / "pictures"
GAME = GAMES["cookie_chomper"]
NAMES = ["Anastasia the Unbreakable", "Ben", "Cleo", "Dev", "Eli", "Fay"]


def view(seats: int, **fields: object) -> ChomperView:
    base: dict[str, object] = dict(
        viewer=None,
        options=ChomperOptions(),
        players=[SeatLine(name=n, cards=3, out=False) for n in NAMES[:seats]],
        turn=0,
        phase="main",
        stack=["c"] * 39 + ["p"],
        stack_left={"c": 39, "p": 1},
        queue=[],
        trail="",
        amount=0,
        last_trail="",
        played=[],
        deck_count=30,
        chain_top=None,
        bandit_pile=0,
        hand=None,
        over=False,
        log=[],
        to_move=(0,),
    )
    return ChomperView(**{**base, **fields})  # type: ignore[arg-type]


def modifier_round() -> ChomperView:
    """Six players, one out: Ben opened with 1/3/5 choosing 3, Cleo doubled, Dev's Veto of
    it was vetoed in turn... the Stack rings the six tokens the number would take."""
    players = [SeatLine(name=n, cards=3, out=s == 4) for s, n in enumerate(NAMES)]
    queue = [
        Entry(owner=1, card="135", acts_as="135", choice=3, opener=True),
        Entry(owner=2, card="add", acts_as="add", companion="24", choice=4),
        Entry(owner=3, card="double", acts_as="double", vetoed=True),
        Entry(owner=5, card="copy", acts_as="double"),
        Entry(owner=0, card="negate", acts_as="negate", vetoed=True),
    ]
    return view(
        6,
        players=players,
        turn=1,
        phase="round",
        stack=["c"] * 22 + ["p"],
        queue=queue,
        trail="3 → +4 = 7 → ×2 = 14",
        amount=14,
        played=["0", "roll", "12345", "seek", "veto"],
        to_move=(2,),
    )


def aimed_round() -> ChomperView:
    """Cards aimed at others: Cleo's Opposites made Ben's 1/3/5 an opposite choice (4);
    Dev's Think Again! at the same card was vetoed by Ana's Veto."""
    queue = [
        Entry(owner=1, card="135", acts_as="135", choice=4, opposite=True, opener=True),
        Entry(owner=2, card="opposites", acts_as="opposites", target=0),
        Entry(owner=3, card="again", acts_as="again", target=0, vetoed=True),
        Entry(owner=0, card="veto", acts_as="veto", target=2),
    ]
    return view(4, turn=1, phase="round", queue=queue, trail="4", amount=4, to_move=(1,))


def hoarder_over() -> ChomperView:
    """Cookie Hoarder at its end: points, the bandits' pile, the face-down Stack empty."""
    players = [
        SeatLine(name=n, cards=c, out=False, score=p)
        for n, c, p in zip(NAMES[:4], (3, 3, 2, 3), (9, 4, 12, 0), strict=True)
    ]
    return view(
        4,
        options=ChomperOptions(mode="hoarder_plus"),
        players=players,
        stack=None,
        stack_left={},
        last_trail="5 → ×2 = 10",
        bandit_pile=7,
        played=["3", "mulligan", "flip"],
        over=True,
        result="Cleo wins with 12 points.",
        to_move=(),
    )


def hoarder_running() -> ChomperView:
    return hoarder_over().model_copy(
        update=dict(over=False, result="", stack_left={"c": 11, "b": 6, "g": 1}, to_move=(1,))
    )


def chain() -> ChomperView:
    return view(
        2,
        options=ChomperOptions(mode="chain"),
        players=[SeatLine(name=n, cards=c, out=False) for n, c in (("Ana", 4), ("Ben", 6))],
        stack=[],
        stack_left={},
        chain_top="245",
        deck_count=17,
        to_move=(1,),
    )


def a_hand() -> ChomperView:
    """A number card, actions with their text, and a card vetoed this turn."""
    board = modifier_round()
    hand = ["135", "0", "veto", "opposites", "roll"]
    return board.model_copy(update=dict(viewer=2, hand=hand, barred=["veto"]))


SNAPSHOTS = {
    "modifier_round": lambda: GAME.table_picture(modifier_round()),
    "aimed_round": lambda: GAME.table_picture(aimed_round()),
    "hoarder_over": lambda: GAME.table_picture(hoarder_over()),
    "hoarder_running": lambda: GAME.table_picture(hoarder_running()),
    "chain": lambda: GAME.table_picture(chain()),
    "hand": lambda: hand_picture(GAME, a_hand()),
}


test_pictures_match_their_references = snapshot_test(SNAPSHOTS, REFERENCES)


def ringed(picture: Image.Image, index: int) -> bool:
    """Whether the ``index``-th token of the Stack's first row wears the accent's ring."""
    x = PAD + 4 + TOKEN // 2 + index * TOKEN_STEP + TOKEN // 2 + 2  # just outside the token
    pixel = picture.getpixel((x, HEADER + 30 + TOKEN // 2))
    return sum(abs(a - b) for a, b in zip(pixel, PALETTE.accent, strict=True)) < 12


def test_the_tokens_a_number_takes_are_ringed() -> None:
    """A Produced Number of 14 rings the 14th token from the top and not the 15th."""
    picture = on_background(GAME.table_picture(modifier_round()), (49, 51, 56))
    assert ringed(picture, 0) and ringed(picture, 13) and not ringed(picture, 14)


def test_a_flip_rings_the_tokens_at_the_other_end() -> None:
    """Flip settles before the cookies are taken: the rings move to the Stack's end."""
    board = modifier_round()
    flip = Entry(owner=3, card="flip", acts_as="flip")
    flipped = board.model_copy(update=dict(queue=[*board.queue, flip], amount=3))
    picture = on_background(GAME.table_picture(flipped), (49, 51, 56))
    assert [ringed(picture, i) for i in (0, 19, 20, 22)] == [False, False, True, True]


def test_a_spectator_has_no_hand_picture() -> None:
    assert hand_picture(GAME, modifier_round()) is None
