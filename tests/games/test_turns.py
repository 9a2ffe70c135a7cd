"""One truth about whose turn it is: every game's table marks exactly the seats its
decisions wait on, and a closed table marks nobody."""

from __future__ import annotations

import random

import pytest

from games import GAMES
from games.core import contract
from games.core.views import closed, to_move

TURN_WORDS = ("▶", "'s turn", "grabbing", "choosing", "plays a card", "may play a modifier")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_turn_markers_come_from_the_decisions_and_a_closed_table_has_none(key: str) -> None:
    game = GAMES[key]
    rng = random.Random(f"turns:{key}")
    seats = min(max(game.min_players, 4), game.max_players)
    state = game.setup(game.options_model(), contract.NAMES[:seats], seed=3)
    seen_markers = 0
    for _ in range(120):
        deciding = game.decisions(state)
        view = game.view(state, None)
        over = game.outcome(state) is not None
        assert view.to_move == to_move(deciding, over=over)  # type: ignore[attr-defined]
        table = game.panels(view).table.as_text()
        assert table.count("▶") == len(view.to_move)  # type: ignore[attr-defined]
        marked = [line for line in table.splitlines() if "▶" in line]
        for seat in view.to_move:  # type: ignore[attr-defined]
            assert any(state.names[seat] in line for line in marked), (seat, marked)
        seen_markers += table.count("▶")
        panel = game.panels(closed(view)).table  # type: ignore[type-var]
        # The log may tell of turns past; everything else must not name a turn now.
        shown = [panel.description] + [
            f.value for f in panel.fields if f.name not in ("Log", "Last moves")
        ]
        shut = "\n".join(shown + [f.name for f in panel.fields])
        for word in TURN_WORDS:
            assert word not in shut, (word, shut)
        if over:
            break
        decision = rng.choice(deciding)
        state, _ = game.apply(state, decision.seat, contract.next_move(game, state, decision, rng))
    assert seen_markers
