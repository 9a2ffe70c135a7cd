"""Cover Your Cookies: its options and the state it adds to the Cover family's."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core.text import Text, t
from games.cover.state import CoverState

CookiesEnd = Literal["single", "first_to_750", "highest_after_3", "first_to_2"]

CRUMB_STEPS = 6  # assumed: the Crumb Collector track (our ruling, docs/games.md)
CRUMB_DOUGH = 10  # assumed: Dough per step

END_LABELS = {
    "single": t("One round: the most Dough wins"),
    "first_to_750": t("First to 750 Dough"),
    "highest_after_3": t("Highest total after 3 rounds"),
    "first_to_2": t("First to win 2 rounds"),
}
EXTRA_STRENGTH = t("Extra Strength Chocolate Milk")
TWO_ACTIONS = t("Two actions a turn")


class CookiesOptions(BaseModel):
    """Options of a match; the defaults are the rulebook's standard game, Mixers in."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    end_mode: CookiesEnd = Field(
        default="single",
        title=t("Game end"),
        json_schema_extra={"labels": END_LABELS},  # type: ignore[dict-item]
    )
    mixers: bool = Field(
        default=True,
        title=t("Mixers"),
        description=t("Mixer cards act as they are drawn: Rotate, Enhance, Swap, Exchange."),
    )
    extra_strength: bool = Field(
        default=False,
        title=EXTRA_STRENGTH,
        description=t("Chocolate Milk counts as two cards in a swipe."),
    )
    two_actions: bool = Field(
        default=False,
        title=TWO_ACTIONS,
        description=t("Take up to two actions each turn; draw up after both."),
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

    # The Cover Your Assets switches the family's engine asks about: never on here.
    hand_of_six: ClassVar[bool] = False
    improve: ClassVar[bool] = False
    action_cards: ClassVar[bool] = False
    second_from_top: ClassVar[bool] = False
    penny_jar: ClassVar[bool] = False
    one_move_for_two_sets: ClassVar[bool] = True  # (no Move cards here)

    @property
    def advanced(self) -> list[Text]:
        return [
            title
            for title, on in (
                (EXTRA_STRENGTH, self.extra_strength),
                (TWO_ACTIONS, self.two_actions),
            )
            if on
        ]


class PendingMixer(BaseModel):
    """A Mixer just drawn that waits for its drawer's choice; the draw resumes after it."""

    seat: int
    card: str


class CookiesState(CoverState):
    options: CookiesOptions
    crumbs: list[int] = []  # Crumb Collector steps, this round
    enhance_waiting: list[int] = []  # Enhance cards beside an empty stack, per seat
    mixer: PendingMixer | None = None
    draw_queue: list[int] = []  # seats still drawing back up, in order
    after_draws: Literal["pass_turn", "second_action"] | None = None
    first_turn_done: list[bool] = []
    missed_first: list[bool] = []  # could not start a Batch on their first turn
    laid_batch: list[bool] = []  # has laid down a Batch of their own this round
    single_allowed: list[bool] = []  # may lay a single Cookie as their first Batch now

    @model_validator(mode="after")
    def _fill_new_fields(self) -> CookiesState:
        """Snapshots saved before these fields existed: read what they meant then (the
        single Cookie was allowed after a missed first turn; a stack meant a Batch laid)."""
        n = len(self.players)
        if len(self.missed_first) != n:
            self.missed_first = list(self.single_allowed) or [False] * n
        if len(self.laid_batch) != n:
            self.laid_batch = [bool(p.stack) for p in self.players]
        return self
