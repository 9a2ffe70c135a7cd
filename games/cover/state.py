"""Cover Your Assets state: everything, secrets included. Only ``view`` lets it out."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.options import switches
from games.core.protocol import GameState
from games.core.text import Text, Words, t

EndMode = Literal["classic", "quick", "highest_after_3", "first_to_2"]

END_MODE_LABELS = {
    "classic": t("Classic: rounds until someone passes $1,000,000"),
    "quick": t("Quick: one round"),
    "highest_after_3": t("Highest total after 3 rounds"),
    "first_to_2": t("First to win 2 rounds"),
}


def switch(title: Text, description: Text) -> object:
    """An advanced rule, off by default; ``description`` says what it does (≤ 100)."""
    return Field(default=False, title=title, description=description)


class CoverOptions(BaseModel):
    """Options of a match; the defaults are the rulebook's classic game.

    Each advanced rule is its own switch, as the rulebook offers them "one or all".
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    end_mode: EndMode = Field(
        default="classic",
        title=t("Game end"),
        json_schema_extra={"labels": END_MODE_LABELS},  # type: ignore[dict-item]
    )
    hand_of_six: bool = switch(t("Hand of six"), t("Hands of six cards instead of five."))
    two_actions: bool = switch(
        t("Two actions a turn"), t("Take up to two actions each turn; draw up after both.")
    )
    improve: bool = switch(
        t("Improve a set"), t("An action: add one matching asset (not a wild) to your top set.")
    )
    action_cards: bool = switch(
        t("Swap and Move cards"),
        t("Swap trades top sets; Move sends a top set to the bottom, or back."),
    )
    second_from_top: bool = switch(
        t("Challenge second-from-top sets"), t("Challenge the set under a top set, with two cards.")
    )
    penny_jar: bool = switch(
        t("Penny Jars"), t("Two $1,000 wilds that count as two cards in a challenge.")
    )

    # A side with no answer to a challenge is asked all the same, its lone answer (let go,
    # give up) played for it after the pause of any forced decision: settled at once, the
    # wait (or none) told the table what it did not hold. Matches begun before this rule
    # hold False (migration 019; an export of one holds no word of it: "before") and
    # replay so from their logs; no lobby offers the old rule. Last of the fields: the
    # migration appends it where a dump would write it.
    ask_unanswerable: bool = Field(
        default=True,
        title="Ask a side with no answer",
        json_schema_extra={"offered": False, "before": False},
    )
    # A Move on a stack of two sets is one move: its top set to the bottom and its bottom
    # set to the top leave the same stack, and offering both asked a turned-up Move's
    # decider to choose between them. Matches begun before hold False (migration 021; an
    # export of one holds no word of it: "before") and replay so; no lobby offers it.
    # Last of the fields: the migration appends it where a dump writes it.
    one_move_for_two_sets: bool = Field(
        default=True,
        title="One Move for a stack of two",
        json_schema_extra={"offered": False, "before": False},
    )

    @property
    def advanced(self) -> list[Words]:
        """Titles of the advanced rules that are on (the ones a lobby offers)."""
        return [field.title for field in switches(type(self)) if getattr(self, field.name)]


class CoverSet(BaseModel):
    """A set in a stack. ``cards`` run bottom to top: wilds are always placed below assets.

    Frozen: a set that gains cards is replaced (``CoverCards.add_to_set``), never changed,
    so the copy of a state each move makes shares every set instead of copying each."""

    model_config = ConfigDict(frozen=True)

    asset: str
    cards: tuple[str, ...]


class Player(BaseModel):
    hand: list[str] = []
    stack: list[CoverSet] = []  # bottom first; the last set is the exposed top set


class Battle(BaseModel):
    """A challenge in progress on one of the defender's sets. Every card in it is face up."""

    challenger: int
    defender: int
    asset: str
    depth: int = 0  # 0: the top set; 1: the set second from the top
    played: list[tuple[int, str]] = []  # (seat, card) in the order played
    to_answer: int
    need: int = 1  # cards the answer must weigh: 2 after a Penny Jar
    drafted: list[str] | None = None  # a freshly drafted set, not yet in anyone's stack


class Draft(BaseModel):
    """A set just drafted (2 and 3 players), waiting for the opponent beside it to react."""

    drafter: int
    cards: list[str]
    piles: list[int]
    opponent: int  # the only player who may challenge it


class Reveal(BaseModel):
    """A Move card turned up on a draft pile: ``decider`` chooses for ``target``'s stack."""

    decider: int
    target: int

    @property
    def defender_played(self) -> bool:
        return any(seat == self.defender for seat, _ in self.played)


class RoundResult(BaseModel):
    number: int
    scores: list[int]
    winners: list[int]


class CoverState(GameState):
    options: CoverOptions
    round: int = 1
    dealer: int
    turn: int
    deck: list[str]  # the top card is the last one
    discard: list[str]  # the top card is the last one
    players: list[Player]
    battle: Battle | None = None
    to_draw_after_turn: list[int] = []  # defenders who used cards during this turn
    actions_taken: int = 0  # in this turn (two actions a turn)
    barred: list[int] = []  # players this turn's player lost a challenge to
    removed: list[str] = []  # action cards played: out of the round
    drafts: list[list[str]] = []  # 2 and 3 players: three draft piles, top card last, face up
    draft: Draft | None = None
    reveals: list[Reveal] = []  # Move cards turned up in a draft pile, being decided
    flipping: list[int] = []  # draft piles still to turn up, waiting for a Move to settle
    totals: list[int]
    round_wins: list[int]
    rounds: list[RoundResult] = []
    end_reason: Words | None = None
