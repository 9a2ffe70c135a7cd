"""Every pool card's effect does something in seeded games of the bot against random play."""

from __future__ import annotations

from bench.braverse import Recording, mono_colour_options, play

MOST_GAMES = 200  # seeds 0.. cover the pool in 45 games; other runs of seeds took up to 139


def test_seeded_bot_games_make_every_pool_cards_effect_do_something() -> None:
    """Four mono-colour decks (every card of a colour, four copies: legal, and together the
    whole pool); the bot takes each seat in turn against random play, which also plays the
    cards the bot saves (Whirlpool: the bot would rather faint a Cookie than discard it)."""
    game = Recording()
    with_effects = {c.number for c in game.pool.cards if c.effects()}
    for seed in range(MOST_GAMES):
        play(mono_colour_options(game, seed), seed, (seed % 2 == 0, seed % 2 == 1), game)
        if with_effects <= game.did:
            break
    assert sorted(with_effects - game.did) == []
