"""Every move a player is offered reads apart from the others of its decision and fits
where Discord shows it (a button: 80 characters; a select's option: 100), in every shipped
language, over random games of every ready-deck pairing."""

from __future__ import annotations

import itertools
import random

from games.braverse.decks import ready_options
from games.core import contract
from games.core.translations import LANGUAGES, render

from .conftest import GAME


def test_no_two_options_of_a_decision_read_alike_and_every_label_fits() -> None:
    offered = 0
    for first, second in itertools.product(("rush", "tempo", "fort"), repeat=2):
        rng = random.Random(f"labels:{first}:{second}")
        state = GAME.setup(ready_options(first, second), ("Ana", "Ben"), rng.getrandbits(63))
        while GAME.outcome(state) is None:
            decisions = GAME.decisions(state)
            for decision in decisions:
                for language in LANGUAGES:
                    labels = [render(o.label, language) for o in decision.options]
                    assert len(set(labels)) == len(labels), (decision.prompt, labels)
                    for o, label in zip(decision.options, labels, strict=True):
                        assert len(label) <= (100 if o.description else 80), label
                        assert len(render(o.description, language)) <= 100, o.description
                offered += len(decision.options)
            decision = rng.choice(decisions)
            state, _ = GAME.apply(
                state, decision.seat, contract.next_move(GAME, state, decision, rng)
            )
    assert offered > 1000
