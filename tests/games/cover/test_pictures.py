"""Snapshots of rigged Cover Your Assets and Cover Your Cookies tables and hands, compared
by eye-like difference (mean absolute pixel difference on Discord's dark background), not
by bytes: a Pillow upgrade may move an anti-aliased pixel without changing what is seen.

To redraw the references after a deliberate change: UPDATE_PICTURES=1 pytest this file,
then LOOK at every image in tests/games/cover/pictures/ before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from games import GAMES
from games.core.pictures import difference, hand_picture, text_width
from games.cover import picture
from games.cover.cookies_state import PendingMixer
from games.cover.state import Battle, CoverState, RoundResult
from tests.games.snapshots import TOLERANCE, difference_from_reference

REFERENCES = Path(__file__).parent / "pictures"
ASSETS, COOKIES = GAMES["cover_your_assets"], GAMES["cover_your_cookies"]
SIX = ("Anastasia the Unbreakable", "Ben", "Cleo", "Dev", "Eli", "Fay")


def rigged(game, names: tuple[str, ...], **changes: object) -> CoverState:  # type: ignore[no-untyped-def]
    """A dealt table with ``stacks`` ({seat: [cards of each set, bottom first]}), hands,
    deck size, discard and any other state field set by hand."""
    state = game.setup(game.options_model(), names, seed=11)
    for seat, sets in dict(changes.pop("stacks", {})).items():  # type: ignore[call-overload]
        state.players[seat].stack = [game.make_set(*cards) for cards in sets]
    for seat, hand in dict(changes.pop("hands", {})).items():  # type: ignore[call-overload]
        state.players[seat].hand = game.cards.sort(hand)
    if "deck" in changes:
        state.deck = state.deck[: int(changes.pop("deck"))]  # type: ignore[call-overload]
    for field, value in changes.items():
        setattr(state, field, value)
    return state


def assets_challenge() -> CoverState:
    """Four players; Ana challenges Ben's Jewels set: Jewels, Gold from Ben, Silver from Ana;
    Ben is to answer. Cleo has nothing yet; Dev's single set is safe."""
    return rigged(
        ASSETS,
        ("Ana", "Ben", "Cleo", "Dev"),
        stacks={
            0: [("cabin", "cabin"), ("piano", "silver")],
            1: [("toy_train", "toy_train"), ("scooter", "scooter", "gold"), ("jewels", "jewels")],
            3: [("cash", "cash")],
        },
        deck=23,
        discard=["piggy_bank", "sport_plane"],
        turn=0,
        battle=Battle(
            challenger=0,
            defender=1,
            asset="jewels",
            played=[(0, "jewels"), (1, "gold"), (0, "silver")],
            to_answer=1,
        ),
    )


def assets_six() -> CoverState:
    """The largest table: six stacks, a long name, a deep stack and a big set, after a round
    (totals and a round won), the deck empty; a long challenge of a second-from-top set
    (more cards than the strip holds: the earliest are counted) answered by a Penny Jar."""
    big = ("classic_auto", "classic_auto", "classic_auto", "gold", "silver", "silver", "gold")
    return rigged(
        ASSETS,
        SIX,
        stacks={
            0: [("cabin", "cabin")] * 3 + [("cash", "gold"), big],
            1: [("piano", "piano"), ("comic_books", "silver")],
            2: [("sport_plane", "sport_plane")],
            4: [("jewels", "jewels"), ("toy_train", "toy_train", "toy_train")],
            5: [("scooter", "scooter"), ("piggy_bank", "gold"), ("cabin", "cabin")],
        },
        hands={0: ["gold"], 1: [], 2: ["piano", "cabin"]},
        deck=0,
        discard=["comic_books"],
        turn=2,
        round=2,
        battle=Battle(
            challenger=2,
            defender=0,
            asset="cash",
            depth=1,
            played=[
                (2, "cash"),
                (2, "silver"),
                (0, "cash"),
                (2, "gold"),
                (0, "silver"),
                (2, "cash"),
                (0, "penny_jar"),
            ],
            to_answer=2,
            need=2,
        ),
        totals=[620_000, 180_000, 250_000, 90_000, 410_000, 300_000],
        round_wins=[1, 0, 0, 0, 0, 0],
        rounds=[RoundResult(number=1, scores=[620_000, 180_000], winners=[0])],
    )


def assets_drafts() -> CoverState:
    """Two players: the three draft piles, one of them empty."""
    return rigged(
        ASSETS,
        ("Ana", "Ben"),
        stacks={0: [("cabin", "cabin")], 1: [("piano", "piano"), ("gold", "jewels")]},
        drafts=[["piano", "scooter"], [], ["jewels", "silver"]],
        discard=[],
        deck=12,
    )


def cookies_swipe() -> CoverState:
    """Four players of Cover Your Cookies: Cleo swipes Ana's Lemon Glaze Batch (the
    rulebook's example), Ana answered with Chocolate Milk; Crumbs, an Enhance waiting and
    an Enhanced Batch."""
    return rigged(
        COOKIES,
        ("Ana", "Ben", "Cleo", "Dev"),
        stacks={
            0: [("churro", "churro"), ("lemon_glaze", "lemon_glaze")],
            1: [("raspberry", "fresh_milk"), ("pink_sugar", "pink_sugar", "enhance")],
            2: [("snickerdoodle", "snickerdoodle")],
        },
        crumbs=[2, 0, 1, 6],
        enhance_waiting=[0, 0, 0, 1],
        turn=2,
        battle=Battle(
            challenger=2,
            defender=0,
            asset="lemon_glaze",
            played=[(2, "lemon_glaze"), (0, "chocolate_milk")],
            to_answer=2,
        ),
    )


def cookies_row() -> CoverState:
    """Three players: the discard row (every card can be taken) and a Mixer being chosen."""
    row = ["chocolate_chip", "raspberry", "churro", "churro", "fresh_milk", "peanut_butter"]
    return rigged(
        COOKIES,
        ("Ana", "Ben", "Cleo"),
        stacks={0: [("confetti_cake", "confetti_cake")], 2: [("churro", "chocolate_milk")]},
        discard=[*row, "cookies_cream", "lemon_glaze", "snickerdoodle", "pink_sugar"],
        turn=1,
        mixer=PendingMixer(seat=1, card="rotate"),
    )


def cookies_over() -> CoverState:
    """The game is over: the winner and each place on the bands, the Mixer gone."""
    state = cookies_row()
    state.mixer = None
    state.end_reason = "Cleo has the most Dough."
    state.totals = [30, 0, 65]
    state.rounds = [RoundResult(number=1, scores=state.totals, winners=[2])]
    state.round_wins = [0, 0, 1]
    return state


def table(game, state: Callable[[], CoverState]) -> Callable[[], bytes]:  # type: ignore[no-untyped-def]
    return lambda: game.table_picture(game.view(state(), None))


def hand(game, state: Callable[[], CoverState], seat: int) -> Callable[[], bytes | None]:  # type: ignore[no-untyped-def]
    return lambda: hand_picture(game, game.view(state(), seat))


SNAPSHOTS: dict[str, Callable[[], bytes | None]] = {
    "assets_challenge": table(ASSETS, assets_challenge),
    "assets_six": table(ASSETS, assets_six),
    "assets_drafts": table(ASSETS, assets_drafts),
    "assets_hand": hand(ASSETS, assets_challenge, 1),
    "cookies_swipe": table(COOKIES, cookies_swipe),
    "cookies_row": table(COOKIES, cookies_row),
    "cookies_over": table(COOKIES, cookies_over),
    "cookies_hand": hand(COOKIES, cookies_swipe, 0),
}


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_pictures_match_their_references(name: str) -> None:
    drawn = SNAPSHOTS[name]()
    assert difference_from_reference(drawn, REFERENCES / f"{name}.png") < TOLERANCE


def test_the_tolerance_sees_a_challenge_answered() -> None:
    """One more card in the challenge is a change the snapshots must see."""
    state = assets_challenge()
    assert state.battle is not None
    state.battle.played.append((1, "jewels"))
    answered = ASSETS.table_picture(ASSETS.view(state, None))
    reference = (REFERENCES / "assets_challenge.png").read_bytes()
    assert difference(answered, reference) > TOLERANCE


def test_a_spectator_has_no_hand_picture() -> None:
    assert hand_picture(ASSETS, ASSETS.view(assets_challenge(), None)) is None
    assert hand_picture(COOKIES, COOKIES.view(cookies_swipe(), None)) is None


def test_each_kind_of_card_has_its_own_look() -> None:
    """Assets of one value share a band (their tier); wilds and actions look like neither
    assets nor each other, in both games."""
    assets, cookies = picture.looks(ASSETS), picture.looks(COOKIES)
    assert assets["piano"] == assets["comic_books"] != assets["cabin"]
    papers = {assets["piano"].paper, assets["silver"].paper, assets["gold"].paper}
    assert len(papers | {assets["swap"].paper}) == 4
    assert assets["swap"] == assets["move"]
    assert cookies["fresh_milk"].paper != cookies["chocolate_milk"].paper
    assert cookies["rotate"].paper not in {cookies["churro"].paper, cookies["fresh_milk"].paper}


def test_a_long_word_in_a_name_shrinks_instead_of_being_cut() -> None:
    size = picture.title_size("Snickerdoodle", picture.FACE_W - 20)
    assert size < 16 and text_width("Snickerdoodle", size, True) <= picture.FACE_W - 20
    assert picture.title_size("Cash under the Mattress", picture.FACE_W - 20) == 16
