"""Planning a decision's rows: every move reachable, never more rows than Discord allows."""

from __future__ import annotations

import pytest

from cogs.render import layout
from games.core.protocol import Action, Decision, option


def decision(groups: dict[str, int]) -> Decision:
    options = [
        option(Action.of("move", group, i), label=f"{group} {i}", group=group)
        for group, count in groups.items()
        for i in range(count)
    ]
    return Decision(key="k", seat=0, prompt="p", options=tuple(options))


@pytest.mark.parametrize(
    ("groups", "kinds"),
    [
        ({"A": 3, "B": 5, "C": 2}, ["button", "button", "button"]),
        ({"A": 3, "B": 30, "C": 2}, ["button", "select", "select", "button"]),
        # Too many groups: the smallest neighbours share a row (C+D, then E+F).
        ({"A": 3, "B": 4, "C": 2, "D": 1, "E": 2, "F": 1}, ["button"] * 4),
        # Braverse's Main Phase: Cookies, Items, Stage, Activate, Attacks, End.
        (
            {"A": 5, "B": 8, "C": 1, "D": 1, "E": 9, "F": 1},
            ["button", "select", "select", "button"],
        ),
        ({"A": 12, "B": 12, "C": 12, "D": 12, "E": 12}, ["select"] * 4),
        ({"A": 20, "B": 20, "C": 20, "D": 20, "E": 20}, ["select"] * 4),  # all in 4 selects
        ({"A": 40, "B": 30, "C": 20}, ["select"] * 4),
    ],
)
def test_rows_fit_and_every_move_is_reachable(groups: dict[str, int], kinds: list[str]) -> None:
    made = decision(groups)
    plan = layout(made)
    assert [kind for kind, _, _ in plan] == kinds
    assert len(plan) <= 4  # the fifth row is the hand view's Refresh button
    reachable = [index for _, _, options in plan for index, _ in options]
    assert sorted(reachable) == list(range(len(made.options)))
    assert all(len(options) <= 25 for _, _, options in plan)
    assert all(len(options) <= 5 for kind, _, options in plan if kind == "button")
