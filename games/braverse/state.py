"""Everything a Braverse match holds, secrets included: two sides and a stack of frames.

Decks keep their top card last (``deck.pop()`` draws). An HP pile keeps its bottom card
first: the first card taken from the deck lies at the bottom, and damage flips from the
top (the end of the list).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.protocol import GameState
from games.core.text import Words, tc

DeckKey = Literal["rush", "tempo", "fort"]
# The ready decks' names, as data/braverse/decks/*.txt write them on their first line.
DECK_LABELS = {
    "rush": tc("deck", "R+Y Rush"),
    "tempo": tc("deck", "B+G Tempo"),
    "fort": tc("deck", "Y+G Fort"),
}
READY_BY_SEAT: tuple[DeckKey, DeckKey] = ("rush", "tempo")
WIN_LEVEL = 10
POSITIONS = ("left", "right")  # the Battle Area's two places, as the table lists them


class BraverseOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # Full deck lists per seat (card numbers, one per copy), written by the lobby at Start
    # from each player's pick, so that seed + options + log replay the match; None: the
    # ready decks ``READY_BY_SEAT`` (the contract, the simulator and bots need no choice).
    decks: tuple[tuple[str, ...], ...] | None = None
    cards: str = ""  # the card list's digest; empty: whatever this host loaded
    # The trap window opens after every attack: if it opened only when the defender could
    # answer, the wait (or none) would tell the attacker whether they hold a payable Trap
    # or a "when attacked" Cookie. A defender with nothing to answer passes after the
    # pause of any forced decision. Matches stored before this rule hold False (the window
    # opened only when the defender could answer) and replay so from their logs; no lobby
    # offers the old rule, and Start writes True into every new match's options.
    always_ask: bool = Field(
        default=True,
        title=tc("game option", "Always open the trap window"),
        json_schema_extra={"offered": False},
    )
    # A side whose hand leaves it one choice or none is asked all the same (its lone
    # answer played after the pause of any forced decision): after a Cookie faints or
    # leaves, whether to place another with no Cookie in hand ("Place no more"); which
    # card to discard from a hand of one kind. Skipped, the game going straight on would
    # tell the table what that hand holds. Matches begun before this rule hold False
    # (migration 020; an export of one holds no word of it: "before") and replay so from
    # their logs; no lobby offers the old rule. Last of the fields: the migration appends
    # it where a dump writes it.
    ask_lone_choice: bool = Field(
        default=True,
        title=tc("game option", "Ask a hand with one choice"),
        json_schema_extra={"offered": False, "before": False},
    )


class Cookie(BaseModel):
    """A Cookie in a Battle Area with its face-down HP pile (bottom first)."""

    uid: int
    card: str
    hp: list[str]
    rested: bool = False


class SupportCard(BaseModel):
    card: str
    rested: bool = False


class Side(BaseModel):
    deck: list[str]  # top last
    hand: list[str] = []
    support: list[SupportCard] = []
    battle: list[Cookie] = []  # left to right, at most 2
    stage: str | None = None
    stage_rested: bool = False
    discard: list[str] = []
    break_area: list[str] = []
    left: int = 0  # Cookies that left the Battle Area since this side's last re-placement
    attack_bonus: int = 0  # modify_attack outside an attack: the rest of this turn
    flip_off: bool = False  # disable_flip: until the end of this turn
    mulligan: bool | None = None  # answered at set-up
    start: str | None = None  # the secret starting Cookie, until both have chosen


# --- the stack of frames: what is being resolved, innermost last -----------------------------
class AttackFrame(BaseModel):
    kind: Literal["attack"] = "attack"
    seat: int  # the attacker's side
    attacker: int  # uid
    target: int  # uid
    damage: int  # declared; trap and when-attacked effects change it until it is locked
    step: Literal["window", "damage", "then", "done"] = "window"
    dealt: bool = False


class TrapWindow(BaseModel):
    kind: Literal["trap_window"] = "trap_window"
    seat: int  # the defender


class DamageFrame(BaseModel):
    kind: Literal["damage"] = "damage"
    seat: int  # whose Cookie
    uid: int
    left: int  # points still to flip
    source: str  # a card number, for the log


class FlipFrame(BaseModel):
    kind: Literal["flip"] = "flip"
    seat: int
    card: str


class EffectFrame(BaseModel):
    kind: Literal["effect"] = "effect"
    seat: int  # who controls it
    card: str
    trigger: str
    source: int | None = None  # the Cookie it came from (``self`` targets)
    started: bool = False
    chosen: bool = False  # played or chosen by a player: its condition held then, before paying
    at: int = 0
    opened: bool = False  # search: the top cards have been looked at  # the op being resolved
    picks: list[str] = []  # targets chosen so far for this op
    looked: list[str] = []  # search: the cards looked at (seen by the controller only)
    done: int = 0  # search, recover, discard...: how many of n are done


class RevealFrame(BaseModel):
    kind: Literal["reveal"] = "reveal"
    seat: int
    uid: int


class DealFrame(BaseModel):
    """Cards from the top of a deck, one at a time (so a refresh can come in between)."""

    kind: Literal["deal"] = "deal"
    seat: int
    to: Literal["hand", "hp", "discard", "support"]
    left: int
    uid: int | None = None  # to an HP pile: whose
    rested: bool = False  # to support


class ReplaceFrame(BaseModel):
    kind: Literal["replace"] = "replace"
    order: list[int]  # seats still to place, the turn player first


class RefreshFrame(BaseModel):
    kind: Literal["refresh"] = "refresh"
    seat: int


Frame = Annotated[
    AttackFrame
    | TrapWindow
    | DamageFrame
    | FlipFrame
    | EffectFrame
    | RevealFrame
    | DealFrame
    | ReplaceFrame
    | RefreshFrame,
    Field(discriminator="kind"),
]

Phase = Literal[
    "order",  # the rock-paper-scissors winner chooses first or second
    "mulligan",  # first player, then second
    "redraw",  # a hand without a Cookie is shown and redrawn
    "starting",  # both choose a starting Cookie in secret
    "active",
    "draw",
    "support",
    "main",
    "end",
    "handover",
    "over",
]


class BraverseState(GameState):
    options: BraverseOptions
    cards: str  # the card list's digest
    sides: list[Side]
    phase: Phase = "order"
    chooser: int = 0  # the rock-paper-scissors winner
    first: int = 0
    turn: int = 0
    round: int = 0  # turns played so far, counting both players' (1 = the first turn)
    at: int = 0  # set-up: whose mulligan or forced redraw is next (0 first, 1 second)
    step: int = 0  # decision keys never repeat
    next_uid: int = 1
    stack: list[Frame] = []
    winner: int | None = None
    reason: Words = ""
