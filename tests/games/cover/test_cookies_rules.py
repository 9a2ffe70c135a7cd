"""Cover Your Cookies: one test per rule, on rigged decks with exact outcomes."""

from __future__ import annotations

import pytest

from games.core.protocol import Action, IllegalAction
from games.cover import CoverYourCookies
from games.cover.cookies_state import CookiesOptions, CookiesState
from games.cover.state import CoverSet

from .conftest import Table

GAME = CoverYourCookies()
NAMES = ("Carmela", "Ginger", "Cleo", "Dev")


def batch(*cards: str) -> CoverSet:
    return GAME.make_set(*cards)


def rig(
    *,
    hands: dict[str, list[str]],
    stacks: dict[str, list[CoverSet]] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    turn: str = "Carmela",
    names: tuple[str, ...] = NAMES,
    options: CookiesOptions | None = None,
) -> Table:
    state: CookiesState = GAME.setup(options or CookiesOptions(), names, seed=1)
    for i, name in enumerate(names):
        state.players[i].hand = GAME.cards.sort(hands.get(name, []))
        state.players[i].stack = list((stacks or {}).get(name, []))
        state.first_turn_done[i] = True
        state.laid_batch[i] = bool(state.players[i].stack)
    state.deck = list(deck if deck is not None else ["snickerdoodle"] * 30)
    state.discard = list(discard if discard is not None else ["churro"])
    state.turn = names.index(turn)
    return Table(GAME, state)


FULL = ["churro", "peanut_butter", "pink_sugar", "chocolate_chip", "snickerdoodle"]


# --- set-up --------------------------------------------------------------------------------


def test_mixers_are_shuffled_into_the_bottom_half_of_the_deck() -> None:
    state = GAME.setup(CookiesOptions(), NAMES, seed=4)
    assert all(len(p.hand) == 5 for p in state.players) and len(state.discard) == 1
    assert not any(GAME.is_action(c) for p in state.players for c in p.hand)
    half = (110 - 8 - 20) // 2  # the cookies and milk left after the deal, halved
    positions = [i for i, c in enumerate(state.deck) if GAME.is_action(c)]
    assert len(positions) == 8 and max(positions) < half + 8


def test_three_players_have_no_swap_hands_of_six_and_a_discard_row() -> None:
    state = GAME.setup(CookiesOptions(), NAMES[:3], seed=4)
    assert all(len(p.hand) == 6 for p in state.players)
    assert len(state.discard) == 3
    assert "mixer_swap" not in state.deck and state.deck.count("rotate") == 2


def test_without_mixers_the_deck_holds_none() -> None:
    state = GAME.setup(CookiesOptions(mixers=False), NAMES, seed=4)
    assert not any(GAME.is_action(c) for c in state.deck)


# --- starting a Batch ----------------------------------------------------------------------


def test_a_batch_is_two_identical_cookies_or_a_cookie_and_a_milk(rig_=None) -> None:
    t = rig(
        hands={"Carmela": ["lemon_glaze", "lemon_glaze", "fresh_milk", "chocolate_milk", "churro"]}
    )
    options = t.options("Carmela")
    assert "pair.lemon_glaze.lemon_glaze" in options and "pair.churro.fresh_milk" in options
    assert not [
        o
        for o in options
        if o in ("pair.fresh_milk.chocolate_milk", "pair.chocolate_milk.fresh_milk")
    ]
    with pytest.raises(IllegalAction):
        t.play("Carmela", "pair", "fresh_milk", "chocolate_milk")  # never two Milks
    t.play("Carmela", "pair", "churro", "fresh_milk")
    assert t.stack("Carmela") == [["fresh_milk", "churro"]]  # the Cookie on top


def test_a_batch_may_start_with_the_discard_pile_top(rig_=None) -> None:
    t = rig(hands={"Carmela": ["churro", "lemon_glaze"]}, discard=["pink_sugar", "churro"])
    t.play("Carmela", "take", "churro")
    assert t.stack("Carmela") == [["churro", "churro"]] and t.state.discard == ["pink_sugar"]


NO_PAIR = ["churro", "lemon_glaze", "pink_sugar", "peanut_butter", "confetti_cake"]


def first_turn_table(carmela: list[str]) -> CookiesState:
    """Carmela's first turn of the round, about to start; everyone else holds five Cookies."""
    state: CookiesState = GAME.setup(CookiesOptions(mixers=False), NAMES, seed=1)
    state.players[0].hand = GAME.cards.sort(carmela)
    for player in state.players[1:]:
        player.hand = list(FULL)
    state.deck = ["snickerdoodle"] * 30
    state.discard = ["raspberry"]
    state.first_turn_done = [False] * 4
    GAME.start_turn(state, 0)
    return state


def round_the_table(state: CookiesState) -> CookiesState:
    """Everyone discards in turn until it is Carmela's turn again."""
    while True:
        seat = state.turn
        card = next(c for c in state.players[seat].hand if not GAME.is_wild(c))
        state, _ = GAME.apply(state, seat, Action.of("discard", card))
        if state.turn == 0:
            return state


def singles(state: CookiesState, seat: int = 0) -> list[str]:
    decision = GAME.decision_for(state, seat)
    assert decision is not None
    return [o.action.encode() for o in decision.options if o.action.kind == "single"]


def test_a_single_cookie_first_batch_only_on_a_subsequent_turn() -> None:
    """ "If you weren't able to start a Batch on your first turn then on a *subsequent*
    turn you may choose to lay down a single Cookie as your first 'Batch.'" """
    state = first_turn_table(NO_PAIR)
    assert singles(state) == []  # nothing pairs, but this is the first turn itself
    with pytest.raises(IllegalAction, match="only from your second turn on"):
        GAME.apply(state, 0, Action.of("single", "lemon_glaze"))
    state = round_the_table(state)
    assert "single.lemon_glaze" in singles(state)
    state, _ = GAME.apply(state, 0, Action.of("single", "lemon_glaze"))
    assert [s.cards for s in state.players[0].stack] == [("lemon_glaze",)]
    assert state.laid_batch[0]


def test_a_single_cookie_first_batch_never_after_a_batch_was_laid() -> None:
    """ "This is the only time you can start a Batch with only one card": once a Batch of
    your own was laid this round, never again -- even if a Mixer took it away."""
    state = first_turn_table(NO_PAIR)
    state = round_the_table(state)
    state, _ = GAME.apply(state, 0, Action.of("single", "lemon_glaze"))
    state.players[0].stack = []  # rotated away, say
    state.players[0].hand = ["churro", "confetti_cake", "pink_sugar"]
    state.discard = ["raspberry"]
    for seat in (1, 2, 3):
        state.players[seat].hand = list(FULL)
    state = round_the_table(state)
    assert singles(state) == []


def test_a_single_cookie_is_not_offered_to_who_could_start_a_batch_on_the_first_turn() -> None:
    """ "If you weren't able to start a Batch on your first turn" -- and she was able."""
    state = first_turn_table(["churro", "churro", "pink_sugar", "peanut_butter", "confetti_cake"])
    assert not state.missed_first[0]
    state = round_the_table(state)
    assert singles(state) == []


def test_only_a_cookie_atop_the_discard_pile_starts_a_batch() -> None:
    """ "Pairing a Cookie from your hand with an identical Cookie atop the discard pile."
    A Milk lying there (the opening flip, or a Milk discarded by someone with no Cookie)
    is no Cookie: it starts no Batch."""
    t = rig(hands={"Carmela": ["churro", "lemon_glaze", "fresh_milk"]}, discard=["fresh_milk"])
    assert not [o for o in t.options("Carmela") if o.startswith("take")]
    with pytest.raises(IllegalAction, match="A Milk on the discard pile cannot be taken"):
        t.play("Carmela", "take", "churro")
    assert t.state.discard == ["fresh_milk"] and t.stack("Carmela") == []
    t = rig(hands={"Carmela": ["churro", "fresh_milk"]}, discard=["fresh_milk", "churro"])
    assert [o for o in t.options("Carmela") if o.startswith("take")] == [
        "take.churro",
        "take.fresh_milk",
    ]


def test_only_a_cookie_in_the_three_player_row_starts_a_batch() -> None:
    """Three players: "Any cookie in the row is accessible and may be used to start a
    Batch by pairing it with a matching Cookie or Milk Card (wild) from your hand." """
    t = rig(
        names=("Carmela", "Ginger", "Cleo"),
        hands={"Carmela": ["churro", "fresh_milk"]},
        discard=["chocolate_milk", "raspberry", "fresh_milk"],
    )
    assert [o for o in t.options("Carmela") if o.startswith("take")] == ["take.fresh_milk.1"]
    with pytest.raises(IllegalAction, match="A Milk on the discard pile"):
        t.play("Carmela", "take", "churro", 0)
    with pytest.raises(IllegalAction):
        t.play("Carmela", "take", "churro", "x")  # malformed: a sentence, no traceback
    assert t.state.discard == ["chocolate_milk", "raspberry", "fresh_milk"]


def test_who_may_swipe_is_who_has_laid_down_a_batch() -> None:
    """ "On their turn, another player, who has laid down at least 1 Batch of their own,
    may attempt to swipe your top Batch." Our reading: a Batch you laid this round counts
    even after a Rotate carried it off; one you only received by a Rotate does not."""
    t = rig(
        hands={
            "Carmela": ["churro", "lemon_glaze", "pink_sugar", "peanut_butter", "raspberry"],
            "Ginger": ["lemon_glaze", "pink_sugar", "peanut_butter", "churro", "raspberry"],
            "Cleo": FULL,
            "Dev": FULL,
        },
        stacks={
            "Carmela": [batch("churro", "churro")],
            "Cleo": [
                batch("peanut_butter", "peanut_butter"),
                batch("lemon_glaze", "lemon_glaze"),
                batch("raspberry", "raspberry"),
            ],
        },
        deck=["snickerdoodle"] * 10 + ["rotate"],
        discard=["confetti_cake"],
    )
    t.play("Carmela", "discard", "pink_sugar")
    t.play("Carmela", "rotate", "left")
    assert t.stack("Carmela") == [] and t.stack("Ginger") == [["churro", "churro"]]
    assert t.stack("Cleo")[-1] == ["lemon_glaze", "lemon_glaze"]  # exposed again
    # Ginger holds a Batch now, but never laid one down: she may not swipe.
    assert not [o for o in t.options("Ginger") if o.startswith("challenge")]
    with pytest.raises(IllegalAction, match="start at least one Batch"):
        t.play("Ginger", "challenge", t.seat("Cleo"), "lemon_glaze")
    t.play("Ginger", "discard", "pink_sugar")
    t.play("Cleo", "discard", "churro")
    t.play("Dev", "discard", "churro")
    # Carmela laid hers down this round; the Rotate took it, not her right to swipe.
    assert f"challenge.{t.seat('Cleo')}.lemon_glaze" in t.options("Carmela")
    t.play("Carmela", "challenge", t.seat("Cleo"), "lemon_glaze")  # Cleo cannot answer
    assert t.stack("Carmela") == [["lemon_glaze", "lemon_glaze", "lemon_glaze"]]


def test_the_bot_swipes_only_when_it_may() -> None:
    """The bot picks among the offered moves, so it never tries a swipe the rule forbids."""
    t = rig(
        hands={"Ginger": ["lemon_glaze", "lemon_glaze", "fresh_milk", "pink_sugar", "churro"]},
        stacks={
            "Ginger": [batch("churro", "churro")],
            "Cleo": [batch("peanut_butter", "peanut_butter"), batch("lemon_glaze", "fresh_milk")],
        },
        turn="Ginger",
    )
    t.state.laid_batch[1] = False  # received, not laid
    assert GAME.bot_action(t.state, 1).kind != "challenge"
    t.state.laid_batch[1] = True
    assert GAME.bot_action(t.state, 1).kind == "challenge"


# --- swiping -------------------------------------------------------------------------------


def test_the_rulebook_example_carmela_swipes_gingers_lemon_glaze() -> None:
    t = rig(
        hands={
            "Carmela": ["lemon_glaze", "fresh_milk", "churro", "churro", "pink_sugar"],
            "Ginger": ["chocolate_milk", "peanut_butter", "snickerdoodle", "churro", "raspberry"],
        },
        stacks={
            "Carmela": [batch("peanut_butter", "peanut_butter")],
            "Ginger": [batch("churro", "churro"), batch("lemon_glaze", "lemon_glaze")],
        },
        deck=["raspberry", "pink_sugar", "lemon_glaze", "churro", "peanut_butter"],
    )
    t.play("Carmela", "challenge", t.seat("Ginger"), "lemon_glaze")
    t.play("Ginger", "counter", "chocolate_milk")  # Chocolate Milk does not outrank Fresh
    t.play("Carmela", "counter", "fresh_milk")
    assert t.state.battle is None  # Ginger has no Lemon Glaze and no Milk left
    assert t.stack("Carmela")[-1] == [
        "fresh_milk",
        "chocolate_milk",
        "lemon_glaze",
        "lemon_glaze",
        "lemon_glaze",
    ]
    # Carmela draws back up to five, then Ginger does: her new card is a Lemon Glaze.
    assert len(t.hand("Carmela")) == 5 and "lemon_glaze" in t.hand("Ginger")
    assert t.state.crumbs == [0, 1, 0, 0]  # Ginger's Crumb Collector moves up a step
    # The log tells the attempt from the take, in the rulebook's words.
    assert t.public_log()[:4] == [
        "⚔️ Carmela tried to swipe Ginger's Lemon Glaze Batch with 🍋 Lemon Glaze.",
        "Ginger defended with 🍫 Chocolate Milk.",
        "Carmela tried to swipe again with 🥛 Fresh Milk.",
        "Ginger let the Batch go.",
    ]
    assert "Carmela swiped the Lemon Glaze Batch (5 cards, 105 Dough)." in t.public_log()


def test_you_need_a_batch_to_swipe_and_a_first_batch_is_safe() -> None:
    t = rig(
        hands={"Carmela": ["lemon_glaze", "churro"]},
        stacks={
            "Ginger": [batch("churro", "churro"), batch("lemon_glaze", "lemon_glaze")],
            "Cleo": [batch("churro", "churro")],
        },
    )
    assert not [o for o in t.options("Carmela") if o.startswith("challenge")]
    t.state.players[0].stack = [batch("raspberry", "raspberry")]
    t.state.laid_batch[0] = True
    assert [o for o in t.options("Carmela") if o.startswith("challenge")] == [
        f"challenge.{t.seat('Ginger')}.lemon_glaze"
    ]


def test_extra_strength_chocolate_milk_counts_as_two_cards() -> None:
    t = rig(
        hands={
            "Carmela": ["chocolate_milk", "churro"],
            "Ginger": ["lemon_glaze", "fresh_milk", "churro"],
        },
        stacks={
            "Carmela": [batch("peanut_butter", "peanut_butter")],
            "Ginger": [batch("churro", "churro"), batch("lemon_glaze", "lemon_glaze")],
        },
        options=CookiesOptions(extra_strength=True),
    )
    t.play("Carmela", "challenge", t.seat("Ginger"), "chocolate_milk")
    assert t.options("Ginger") == ["counter.lemon_glaze.fresh_milk", "concede"]


# --- discarding, drawing and the Mixers ------------------------------------------------------


def test_only_a_cookie_may_be_discarded_unless_you_hold_no_cookie() -> None:
    t = rig(hands={"Carmela": ["churro", "fresh_milk"]})
    assert [o for o in t.options("Carmela") if o.startswith("discard")] == ["discard.churro"]
    t = rig(hands={"Carmela": ["fresh_milk", "chocolate_milk"]})
    assert [o for o in t.options("Carmela") if o.startswith("discard")] == [
        "discard.fresh_milk",
        "discard.chocolate_milk",
    ]


def test_rotate_moves_every_top_batch_the_way_the_drawer_says_and_drawing_resumes() -> None:
    t = rig(
        hands={
            "Carmela": ["churro", "pink_sugar", "raspberry", "peanut_butter", "lemon_glaze"],
            "Ginger": FULL,
            "Cleo": FULL,
            "Dev": FULL,
        },
        stacks={
            "Carmela": [batch("churro", "churro")],
            "Ginger": [batch("raspberry", "raspberry")],
            "Dev": [batch("pink_sugar", "fresh_milk")],
        },
        deck=["snickerdoodle", "rotate"],  # the Rotate comes first
    )
    t.play("Carmela", "discard", "churro")
    assert [d.seat for d in t.game.decisions(t.state)] == [0]
    assert t.options("Carmela") == ["rotate.left", "rotate.right"]
    # A list in Discord has no left or right: each way says where her own Batch goes.
    rotate = GAME.decision_for(t.state, t.seat("Carmela"))
    assert rotate is not None and [o.description for o in rotate.options] == [
        "Every top Batch moves one seat to the left: yours to Ginger, Dev's to you.",
        "Every top Batch moves one seat to the right: yours to Dev, Ginger's to you.",
    ]
    t.play("Carmela", "rotate", "left")
    assert t.stack("Carmela") == [["fresh_milk", "pink_sugar"]]  # from Dev, on her right
    assert t.stack("Ginger") == [["churro", "churro"]]
    assert t.stack("Cleo") == [["raspberry", "raspberry"]]
    assert t.stack("Dev") == []
    assert "snickerdoodle" in t.hand("Carmela") and len(t.hand("Carmela")) == 5
    assert t.state.removed == ["rotate"] and t.state.turn == t.seat("Ginger")


def test_enhance_joins_the_top_batch_and_travels_with_it() -> None:
    t = rig(
        hands={
            "Carmela": ["churro", "churro", "pink_sugar", "raspberry", "peanut_butter"],
            "Ginger": ["churro"] * 5,
        },
        stacks={"Carmela": [batch("lemon_glaze", "lemon_glaze")]},
        deck=["snickerdoodle", "snickerdoodle", "enhance"],
    )
    t.play("Carmela", "pair", "churro", "churro")
    assert t.stack("Carmela")[-1] == ["churro", "churro", "enhance"]
    assert GAME.set_value(t.state.players[0].stack[-1]) == 60
    assert t.state.removed == []  # Enhance is not discarded: it stays in its Batch
    t.state.turn = t.seat("Ginger")
    t.state.players[1].stack = [batch("peanut_butter", "peanut_butter")]
    t.state.laid_batch[1] = True
    t.play("Ginger", "challenge", 0, "churro")  # Carmela holds no Churro and no Milk now
    assert t.stack("Ginger")[-1] == ["churro", "churro", "churro", "enhance"]


def test_an_enhance_drawn_without_a_batch_waits_for_the_first_one() -> None:
    t = rig(
        hands={"Carmela": ["churro", "pink_sugar", "raspberry", "peanut_butter", "lemon_glaze"]},
        deck=["snickerdoodle", "enhance"],
        discard=["lemon_glaze"],
    )
    t.play("Carmela", "discard", "raspberry")
    assert t.state.enhance_waiting == [1, 0, 0, 0]
    t.state.turn, t.state.actions_taken = 0, 0
    t.state.players[0].hand = ["lemon_glaze", "lemon_glaze"]
    t.play("Carmela", "pair", "lemon_glaze", "lemon_glaze")
    assert t.stack("Carmela") == [["lemon_glaze", "lemon_glaze", "enhance"]]
    assert t.state.enhance_waiting == [0, 0, 0, 0]


def test_a_waiting_enhance_joins_the_next_batch_laid_not_one_a_rotate_hands_over() -> None:
    """Our ruling: an Enhance drawn with no Batch waits for the next Batch its drawer lays
    down; a Batch a Rotate hands them is not one they laid."""
    t = rig(
        hands={"Carmela": ["churro", "churro"], "Ginger": FULL},
        stacks={"Ginger": [batch("raspberry", "raspberry")]},
        deck=["snickerdoodle"] * 5 + ["rotate"],
        turn="Ginger",
    )
    t.state.enhance_waiting[0] = 1
    t.play("Ginger", "discard", "churro")
    t.play("Ginger", "rotate", "right")
    assert t.stack("Carmela") == [["raspberry", "raspberry"]] and t.state.enhance_waiting[0] == 1
    t.state.turn, t.state.actions_taken = 0, 0
    t.play("Carmela", "pair", "churro", "churro")
    assert t.stack("Carmela")[-1] == ["churro", "churro", "enhance"]
    assert t.state.enhance_waiting[0] == 0


def test_swap_makes_two_other_players_swap_their_top_batches() -> None:
    t = rig(
        hands={"Carmela": FULL, "Ginger": FULL, "Cleo": FULL, "Dev": FULL},
        stacks={
            "Carmela": [batch("churro", "churro")],
            "Ginger": [batch("raspberry", "raspberry")],
            "Cleo": [batch("lemon_glaze", "fresh_milk")],
            "Dev": [],
        },
        deck=["snickerdoodle", "mixer_swap"],
    )
    t.play("Carmela", "discard", "churro")
    assert t.options("Carmela") == ["mixer_swap.1.2"]  # Dev has no Batch; never herself
    t.play("Carmela", "mixer_swap", 1, 2)
    assert t.stack("Ginger") == [["fresh_milk", "lemon_glaze"]]
    assert t.stack("Cleo") == [["raspberry", "raspberry"]]


def test_exchange_takes_blindly_from_the_neighbour_and_skips_short_hands() -> None:
    t = rig(
        hands={
            "Carmela": FULL,
            "Ginger": ["raspberry"] * 4,
            "Cleo": ["lemon_glaze"] * 2,
            "Dev": ["peanut_butter"] * 4,
        },
        deck=["snickerdoodle", "exchange_left"],
    )
    t.play("Carmela", "discard", "churro")
    exchange = GAME.decision_for(t.state, t.seat("Carmela"))
    assert exchange is not None and exchange.prompt == (
        "You drew Exchange: everyone takes cards from their left neighbour (you, from "
        "Ginger). How many?"
    )
    t.play("Carmela", "exchange", 2)
    # Left is the next seat. Cleo (two cards) is skipped: Ginger takes from Dev instead.
    assert t.hand("Cleo") == ["lemon_glaze", "lemon_glaze"]
    assert t.hand("Ginger").count("peanut_butter") == 2
    assert t.hand("Dev").count("raspberry") == 0 and len(t.hand("Dev")) == 4
    assert len(t.hand("Carmela")) == 5 and t.hand("Carmela").count("raspberry") == 2
    assert t.state.removed == ["exchange_left"]


def test_a_hand_says_what_an_exchange_and_a_draw_brought_it() -> None:
    """A hand is shown sorted: without a word, nobody could tell which card a neighbour
    took from them or which they took (as at a table they would see)."""
    t = rig(
        hands={
            "Carmela": FULL,
            "Ginger": ["raspberry"] * 4,
            "Cleo": ["lemon_glaze"] * 4,
            "Dev": ["peanut_butter"] * 4,
        },
        deck=["snickerdoodle", "exchange_left"],
    )
    t.play("Carmela", "discard", "churro")
    t.play("Carmela", "exchange", 1)
    ginger = GAME.panels(GAME.view(t.state, t.seat("Ginger"))).hand
    assert ginger is not None and ginger.description.endswith(
        "*You gave Carmela 🍓 Raspberry Cheesecake and took 🍋 Lemon Glaze from Cleo.*"
    )
    carmela = GAME.panels(GAME.view(t.state, t.seat("Carmela"))).hand
    assert carmela is not None
    assert carmela.description.splitlines()[-2:] == [
        "*You gave Dev 🥜 Peanut Butter and took 🍓 Raspberry Cheesecake from Ginger.*",
        "*You drew 🟤 Snickerdoodle.*",
    ]
    spectator = GAME.view(t.state, None)
    assert spectator.news == []


# --- the end, crumbs and longer games ----------------------------------------------------


def test_after_the_deck_runs_out_a_cookie_may_top_up_your_own_batch() -> None:
    t = rig(
        hands={"Carmela": ["churro", "pink_sugar"], "Ginger": ["raspberry"]},
        stacks={"Carmela": [batch("churro", "churro")]},
        deck=[],
        discard=[],
    )
    assert "improve.churro" in t.options("Carmela")
    t.play("Carmela", "improve", "churro")
    assert t.stack("Carmela") == [["churro", "churro", "churro"]]
    # In its rulebook's words, as the button says: "improve" is Cover Your Assets'.
    assert t.public_log()[0] == "Carmela added 🌀 Churro to their top Batch."


def test_topping_up_is_only_for_when_the_deck_is_gone() -> None:
    t = rig(
        hands={"Carmela": ["churro", "pink_sugar"]},
        stacks={"Carmela": [batch("churro", "churro")]},
        discard=[],
    )
    assert "improve.churro" not in t.options("Carmela")


def test_crumbs_add_ten_dough_a_step_at_the_end() -> None:
    t = rig(
        hands={"Carmela": ["churro"]},
        stacks={"Ginger": [batch("churro", "churro")]},
        deck=[],
        discard=[],
    )
    t.state.crumbs = [0, 3, 0, 0]
    t.play("Carmela", "discard", "churro")
    assert t.state.rounds[0].scores == [0, 30 + 30, 0, 0]  # two Churros, three crumbs
    assert t.state.end_reason == "Ginger baked the most Dough: 60 Dough."


def test_first_to_750_plays_rounds_until_someone_reaches_it() -> None:
    t = rig(
        hands={"Carmela": ["churro"]},
        stacks={"Ginger": [batch("raspberry", "raspberry")]},
        deck=[],
        discard=[],
        options=CookiesOptions(end_mode="first_to_750"),
    )
    t.state.totals = [0, 700, 0, 0]
    t.play("Carmela", "discard", "churro")
    assert t.state.end_reason is None and t.state.round == 2
    assert t.state.totals == [0, 740, 0, 0]


# --- three players -------------------------------------------------------------------------


def test_three_players_may_use_any_cookie_in_the_discard_row() -> None:
    t = rig(
        names=("Carmela", "Ginger", "Cleo"),
        hands={"Carmela": ["churro", "lemon_glaze"]},
        discard=["raspberry", "churro", "peanut_butter"],
    )
    assert "take.churro.1" in t.options("Carmela")
    t.play("Carmela", "take", "churro", 1)
    assert t.state.discard == ["raspberry", "peanut_butter"]
    t.state.turn, t.state.actions_taken = 0, 0
    t.play("Carmela", "discard", "lemon_glaze")
    assert t.state.discard == ["raspberry", "peanut_butter", "lemon_glaze"]  # to the right


def test_a_hand_starts_a_batch_under_one_heading_in_the_rulebooks_words() -> None:
    """From the hand or from the row, it is one move, "Start a Batch": the hand showed
    two headings for it (Assets' "Form a Batch" beside "Start a Batch")."""
    t = rig(
        names=("Carmela", "Ginger", "Cleo"),
        hands={"Carmela": ["churro", "churro", "lemon_glaze"]},
        discard=["raspberry", "lemon_glaze", "peanut_butter"],
    )
    decision = GAME.decision_for(t.state, t.seat("Carmela"))
    assert decision is not None
    assert decision.prompt == "Your turn: start a Batch, swipe a top Batch, or discard."
    assert {o.group for o in decision.options} == {"Start a Batch", "Discard"}
    t.play("Carmela", "pair", "churro", "churro")
    assert "Carmela started a Batch: 🌀 Churro + 🌀 Churro." in t.public_log()


# --- two actions -----------------------------------------------------------------------------


def test_two_actions_discard_and_draw_first_then_a_failed_swipe_bars_that_batch() -> None:
    t = rig(
        hands={
            "Carmela": ["lemon_glaze", "churro", "pink_sugar", "peanut_butter", "raspberry"],
            "Ginger": ["lemon_glaze", "churro"],
        },
        stacks={
            "Carmela": [batch("raspberry", "raspberry")],
            "Ginger": [batch("churro", "churro"), batch("lemon_glaze", "lemon_glaze")],
        },
        deck=["snickerdoodle"] * 5,
        options=CookiesOptions(two_actions=True),
    )
    t.play("Carmela", "discard", "pink_sugar")
    assert len(t.hand("Carmela")) == 5 and t.state.turn == 0  # drew, and may act again
    t.play("Carmela", "challenge", t.seat("Ginger"), "lemon_glaze")
    t.play("Ginger", "counter", "lemon_glaze")  # Carmela has no more: the swipe failed
    assert t.state.turn == t.seat("Ginger")  # her two actions are used up


def test_a_failed_swipe_cannot_be_tried_again_on_that_batch_in_the_same_turn() -> None:
    t = rig(
        hands={
            "Carmela": ["lemon_glaze", "raspberry", "raspberry", "churro", "pink_sugar"],
            "Ginger": ["lemon_glaze", "churro"],
            "Cleo": ["churro"],
        },
        stacks={
            "Carmela": [batch("peanut_butter", "peanut_butter")],
            "Ginger": [batch("churro", "churro"), batch("lemon_glaze", "lemon_glaze")],
            "Cleo": [batch("churro", "churro"), batch("raspberry", "raspberry")],
        },
        options=CookiesOptions(two_actions=True),
    )
    t.play("Carmela", "challenge", t.seat("Ginger"), "lemon_glaze")
    t.play("Ginger", "counter", "lemon_glaze")  # the swipe failed; Carmela's turn goes on
    assert t.state.turn == 0 and "done" in t.options("Carmela")
    swipes = [o for o in t.options("Carmela") if o.startswith("challenge")]
    assert swipes and all(not o.startswith(f"challenge.{t.seat('Ginger')}.") for o in swipes)


@pytest.mark.parametrize(
    ("mode", "round_", "wins", "reason"),
    [
        (
            "highest_after_3",
            3,
            [0, 0, 0, 0],
            "After 3 rounds, Ginger has the most Dough: 730 Dough.",
        ),
        ("first_to_2", 1, [0, 1, 0, 0], "Ginger won 2 rounds first."),
    ],
)
def test_the_longer_games_end_as_the_rulebook_says(mode, round_, wins, reason) -> None:  # type: ignore[no-untyped-def]
    t = rig(
        hands={"Carmela": ["churro"]},
        stacks={"Ginger": [batch("churro", "churro")]},
        deck=[],
        discard=[],
        options=CookiesOptions(end_mode=mode),
    )
    t.state.round, t.state.round_wins, t.state.totals = round_, wins, [0, 700, 0, 0]
    t.play("Carmela", "discard", "churro")
    assert t.state.end_reason == reason


def test_the_lobby_names_every_mixer() -> None:
    """The Mixers switch listed three of the four: Enhance is a Mixer too."""
    mixers = CookiesOptions.model_fields["mixers"].description or ""
    assert all(name in mixers for name in ("Rotate", "Enhance", "Swap", "Exchange"))
