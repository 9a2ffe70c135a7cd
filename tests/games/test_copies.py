"""The private copy ``apply`` hands to ``play``: shares what cannot change, copies the rest."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.copies import fresh_copy
from games.core.protocol import Event, GameState


class Rule(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    values: tuple[int, ...] = ()


class Pile(BaseModel):
    cards: list[str]
    owner: int | None = None


class Attack(BaseModel):
    kind: Literal["attack"] = "attack"
    picks: list[str] = []


class Flip(BaseModel):
    kind: Literal["flip"] = "flip"
    card: str


class Rigged(GameState):
    rule: Rule
    piles: list[Pile]
    hands: list[list[str]]
    current: Pile | None = None
    stack: list[Annotated[Attack | Flip, Field(discriminator="kind")]] = []
    undo: dict[str, object] | None = None
    seen: set[str] = set()


def rigged() -> Rigged:
    return Rigged(
        seed=1,
        names=("Ana", "Ben"),
        log=(Event(text="Ana dealt."),),
        rule=Rule(name="classic", values=(1, 2)),
        piles=[Pile(cards=["a", "b"], owner=0), Pile(cards=[])],
        hands=[["x"], ["y", "z"]],
        current=Pile(cards=["c"]),
        stack=[Attack(picks=["p"]), Flip(card="f")],
        undo={"cards": ["u"], "owner": 1},
        seen={"a"},
    )


def test_the_copy_equals_the_state_and_shares_only_what_cannot_change() -> None:
    state = rigged()
    copied = fresh_copy(state)
    assert copied == state and copied.model_dump_json() == state.model_dump_json()
    assert copied.rule is state.rule and copied.log is state.log  # frozen, immutable: shared
    assert copied.piles[0] is not state.piles[0]
    assert copied.piles[0].cards is not state.piles[0].cards
    assert copied.hands[1] is not state.hands[1]
    assert copied.current is not state.current
    assert copied.stack[0] is not state.stack[0] and isinstance(copied.stack[1], Flip)
    assert copied.undo is not state.undo and copied.undo["cards"] is not state.undo["cards"]
    assert copied.seen is not state.seen
    assert copied.model_fields_set == state.model_fields_set


def test_changing_the_copy_leaves_the_state_as_it_was() -> None:
    state = rigged()
    before = state.model_dump_json()
    copied = fresh_copy(state)
    assert copied is not None
    copied.piles[0].cards.append("d")
    copied.piles[1].owner = 1
    copied.hands[1].pop()
    copied.current.cards.clear()
    copied.stack[0].picks.append("q")
    copied.undo["cards"].append("v")
    copied.seen.add("b")
    copied.version = 5
    assert state.model_dump_json() == before and state.seen == {"a"}


def test_a_value_of_an_undeclared_type_gives_up_the_fast_copy() -> None:
    state = rigged()
    # A tuple where a list is declared (``play`` assigned it): the validated round trip
    # would turn it back into a list that ``play`` may append to, so the copy declines.
    object.__setattr__(state.piles[0], "cards", ("a", "b"))
    assert fresh_copy(state) is None
