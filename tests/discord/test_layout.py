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
        ({"A": 3, "B": 4, "C": 2, "D": 1, "E": 2, "F": 1}, ["select"]),
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
