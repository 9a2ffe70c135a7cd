"""Every pool card's effect does something in seeded games of the bot against random play."""

from __future__ import annotations

import random

from bench.braverse import play
from games.braverse import Braverse
from games.braverse.cards import Op
from games.braverse.state import BraverseOptions, BraverseState, EffectFrame
from games.core.protocol import Action, Event

COLOURS = "RYGB"
MOST_GAMES = 200  # seeds 0.. cover the pool in 45 games; other runs of seeds took up to 139


class Recording(Braverse):
    """Notes each card one of whose ops changed the table: a card whose effect only started
    (its condition failed, an up-to draw of none, a target op with nothing to hit) is not
    counted."""

    def __init__(self) -> None:
        super().__init__()
        self.did: set[str] = set()

    def footprint(self, state: BraverseState) -> tuple[str, int | None, int]:
        attack = self.current_attack(state)
        damage = attack.damage if attack is not None else None
        # frames pushed (damage, cards dealt) count: they resolve as the op's own doing
        return state.model_dump_json(include={"sides"}), damage, len(state.stack)

    def resolve(
        self,
        state: BraverseState,
        frame: EffectFrame,
        op: Op,
        events: list[Event],
        rng: random.Random,
    ) -> None:
        before = self.footprint(state)
        super().resolve(state, frame, op, events, rng)
        if self.footprint(state) != before:
            self.did.add(frame.card)

    def answer_effect(
        self, state: BraverseState, frame: EffectFrame, action: Action, events: list[Event]
    ) -> None:
        before = self.footprint(state)
        super().answer_effect(state, frame, action, events)
        if self.footprint(state) != before:
            self.did.add(frame.card)


def test_seeded_bot_games_make_every_pool_cards_effect_do_something() -> None:
    """Four mono-colour decks (every card of a colour, four copies: legal, and together the
    whole pool); the bot takes each seat in turn against random play, which also plays the
    cards the bot saves (Whirlpool: the bot would rather faint a Cookie than discard it)."""
    game = Recording()
    decks = {
        c: tuple(n for card in game.pool.cards if card.colour == c for n in [card.number] * 4)
        for c in COLOURS
    }
    with_effects = {c.number for c in game.pool.cards if c.effects()}
    for seed in range(MOST_GAMES):
        first, second = COLOURS[seed % 4], COLOURS[(seed // 4 + seed + 1) % 4]
        options = BraverseOptions(decks=(decks[first], decks[second]))
        play(options, seed, (seed % 2 == 0, seed % 2 == 1), game)
        if with_effects <= game.did:
            break
    assert sorted(with_effects - game.did) == []
