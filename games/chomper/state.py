"""Everything a Cookie Chomper match holds, secrets included."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.protocol import GameState
from games.core.text import Words, t
from games.core.windows import RoundTable

Mode = Literal["standard", "golden", "middle", "hoarder", "hoarder_plus", "chain"]
MODES = {
    "standard": t("Standard: avoid the poison cookie"),
    "golden": t("Golden Cookie: take it to win"),
    "middle": t("Poison in the middle, with Flip"),
    "hoarder": t("Cookie Hoarder: collect the most"),
    "hoarder_plus": t("Cookie Hoarder with the poison and golden cookies"),
    "chain": t("Number Chain: empty your hand"),
}
STACKS = {size: t("Stack of {n}", n=int(size)) for size in ("20", "30", "39", "50")}
HANDS = {
    "default": t("Hand: standard"),
    **{size: t("Hand of {n}", n=int(size)) for size in ("3", "4", "5")},
}
ROUND_SECONDS = {
    seconds: t("Modifier round: {n} s a player (live)", n=int(seconds))
    for seconds in ("20", "10", "5")
}

COOKIE, POISON, GOLDEN = "c", "p", "g"  # tokens; bandits are "b1".."b5"


class ChomperOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: Mode = Field(default="standard", title=t("Mode"), json_schema_extra={"labels": MODES})
    stack_size: Literal["20", "30", "39", "50"] = Field(
        default="39", title=t("Stack"), json_schema_extra={"labels": STACKS}
    )
    hand_size: Literal["default", "3", "4", "5"] = Field(
        default="default", title=t("Hand"), json_schema_extra={"labels": HANDS}
    )
    # Live play only: how long each player has to play a modifier or pass before the clock
    # passes for them (a six-player round where nobody clicks takes six times this).
    round_seconds: Literal["20", "10", "5"] = Field(
        default="20", title=t("Modifier round (live)"), json_schema_extra={"labels": ROUND_SECONDS}
    )

    @property
    def hoarder(self) -> bool:
        return self.mode in ("hoarder", "hoarder_plus")


class Entry(BaseModel):
    """A card in the queue this turn, and what it does."""

    owner: int
    card: str  # the card itself ("n135", "add", "copy"...)
    acts_as: str  # what it does: the card, or for a Copy the card it copies
    companion: str | None = None  # the number card played with Add, Subtract or Multiply
    choice: int | None = None  # the number chosen (or rolled)
    pick: str | None = None  # Seek: the card chosen from the Played Cards Pile
    opposite: bool = False  # Opposites was played against it
    target: int | None = None  # Veto, Opposites, Think Again!: the entry aimed at
    undo: dict[str, object] | None = None  # what the target was before, should this be vetoed
    vetoed: bool = False
    opener: bool = False  # played to open the turn (a main card, or a Copy standing for one)


class Redo(BaseModel):
    """Opposites or Think Again! made a player choose again."""

    seat: int
    entry: int
    different: bool = True  # Think Again!: a different choice; Opposites: any of the new set


class ChomperState(GameState):
    options: ChomperOptions
    stack: list[str]  # tokens, top first
    deck: list[str]
    played: list[str]  # the Played Cards Pile, face up, newest last
    hands: list[list[str]]
    out: list[bool]
    eliminated: list[int] = []  # seats in the order they took the poison
    turn: int
    step: int = 0
    phase: Literal["main", "round", "chain", "over"] = "main"
    seeks: int = 0  # times Seek (or a Copy as Seek) started this turn again
    queue: list[Entry] = []
    window: RoundTable | None = None
    redo: Redo | None = None
    barred: list[list[str]]  # vetoed cards that cannot be played again this turn
    piles: list[list[str]]  # Cookie Hoarder: each player's tokens, in the order taken
    # Cards in each hand that every player has seen go there (a vetoed card back to its
    # owner, a Seek's pick): public knowledge the search's worlds keep. Empty in a state
    # saved before it was kept (nothing known).
    shown: list[list[str]] = []
    bandit_pile: int = 0
    winner: int | None = None  # the Golden Cookie's taker
    chain_top: str | None = None  # Number Chain: the card on top
    trail: Words = ""  # the last settled turn's running calculation
