"""Everything a Toss Your Cookies match holds, secrets included."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.protocol import GameState
from games.core.text import t
from games.toss.cards import ActionFace, NumberFace

ROUNDS = {"1": t("One round"), "3": t("Best of 3 rounds"), "5": t("Best of 5 rounds")}
SECONDS = {
    "10": t("10 seconds"),
    "20": t("20 seconds"),
    "30": t("30 seconds"),
    "60": t("1 minute"),
}


class TossOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: Literal["1", "3", "5"] = Field(
        default="1", title=t("Match"), json_schema_extra={"labels": ROUNDS}
    )
    scramble_seconds: Literal["10", "20", "30", "60"] = Field(
        default="20", title=t("Scramble window (live)"), json_schema_extra={"labels": SECONDS}
    )
    must_shout: bool = Field(
        default=False,
        title=t('Must shout "Snickerdoodle!"'),
        description=t("A winning hand counts only once its holder presses Snickerdoodle!"),
    )


Phase = Literal[
    "roll",  # the active player rolls
    "swap_target",  # Swap: the roller picks a player
    "swap_give",  # Swap: the roller picks the cards to give
    "swap_take",  # Swap: the roller takes as many blindly
    "choose",  # Pass or Toss: everyone picks cards at once, in secret
    "scramble",  # Toss: the tossed cards lie face up; first come, first served
    "milk_take",  # the milk changes hands: its giver takes a card blindly first
]


class Roll(BaseModel):
    action: ActionFace
    number: NumberFace

    @property
    def milk(self) -> bool:
        return self.number == "milk"


class Scramble(BaseModel):
    middle: list[str]  # face up, for all to see
    quota: list[int]  # per seat: cards still to grab
    tosser: int | None = None  # a milk toss: the tosser may not grab it
    # Who grabbed each kind of card last: a click that came too late is told who beat it.
    # (Empty in a scramble saved before it was kept.)
    taken: dict[str, int] = {}


class BlindTake(BaseModel):
    """``taker`` picks ``count`` cards blindly from ``source``'s hand; then, for the milk,
    ``source`` receives it (the rulebook: "before adding the milk")."""

    taker: int
    source: int
    count: int = 1
    milk_to_source: bool = False


class TossState(GameState):
    options: TossOptions
    cookies: list[str]  # the cookie kinds in play: one set per player
    hands: list[list[str]]
    round: int = 1
    first: int  # who started this round
    turn: int
    step: int = 0  # counts decisions opened: their keys name one occasion each
    phase: Phase = "roll"
    roll: Roll | None = None
    count: int = 0  # cards each player passes, tosses or swaps now
    chosen: list[list[str] | None] = []  # Pass/Toss picks, secret until all have chosen
    target: int | None = None  # Swap: the player the roller swaps with
    given: list[str] = []  # Swap: the roller's cards, lying in front of the target
    scramble: Scramble | None = None
    blind: BlindTake | None = None
    round_wins: list[int]
    winners: list[int] = []  # each round's winner, in order
    shouter: int | None = None  # must-shout rule: who may shout now
    # What every player saw (never a secret), for bots to reason with: the seat the milk
    # was last seen going to, and the cookies each seat grabbed face up this round. Cards
    # passed face down may have moved on since: these are sightings, not certainties.
    milk_seen: int | None = None
    grabbed: list[list[str]] = []
