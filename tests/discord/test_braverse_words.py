"""Braverse as a new player reads it (issue 27): costs in colour words, every target told
apart, a follow-up that says why it asks, a Support prompt that says what Support is for."""

from __future__ import annotations

from tests.discord.conftest import make_bot, show_hand, table_of
from tests.discord.test_braverse_tables import RiggedBraverse, choose, move_labels, start
from tests.games.braverse.conftest import FILLER, side

BLAZE_FENCER, FLARE_JUGGLER, MOSSY_PORTER, RED = "S1-006", "S1-007", "S1-032", "S1-001"


def fencer_against_two_porters() -> RiggedBraverse:
    """Ana's Blaze Fencer (2 damage for Red + any; then 1 damage to an LV1 Cookie) faces
    two Mossy Porters of Ben's, both LV1 with 3 HP."""
    return RiggedBraverse(
        side(battle=[(BLAZE_FENCER, [FILLER] * 4)], support=[RED, RED], hand=[FLARE_JUGGLER]),
        side(battle=[(MOSSY_PORTER, [FILLER] * 3), (MOSSY_PORTER, [FILLER] * 3)]),
    )


async def test_costs_read_as_colours_and_two_alike_targets_read_apart(
    fake, db, monkeypatch
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, fencer_against_two_porters(), ana, ben)
        table = table_of(fake).text()
        assert "Support (pays costs): 🟥 Red 2 of 2 active" in table
        assert "Left: 🟩 Mossy Porter LV1 — HP 3/3" in table
        assert "Right: 🟩 Mossy Porter LV1 — HP 3/3" in table
        hand = await show_hand(fake, ana)
        assert (
            "🟥 Flare Juggler — Red Cookie LV2, HP 2 · attack: 2 damage for 1 Red + 1 any "
            "colour · FLIP: fires when flipped from HP"
        ) in hand.text()
        labels = move_labels(hand)
        assert len(labels) == len(set(labels))  # no two moves read alike
        assert "Blaze Fencer → Mossy Porter (left, HP 3): 2 dmg (pay 2 Red)" in labels
        assert "Blaze Fencer → Mossy Porter (right, HP 3): 2 dmg (pay 2 Red)" in labels
        await choose(fake, ana, hand, "Blaze Fencer → Mossy Porter (right, HP 3)")
        hand = await show_hand(fake, ben)
        await choose(fake, ben, hand, "No response")
        # The right Porter took 2; the attack's "then" asks Ana where its 1 damage goes.
        hand = await show_hand(fake, ana)
        assert "Blaze Fencer's attack also deals 1 damage: pick a target." in hand.text()
        assert sorted(move_labels(hand)) == [
            "Ben's Mossy Porter (left, HP 3)",
            "Ben's Mossy Porter (right, HP 1)",
        ]
        await choose(fake, ana, hand, "Ben's Mossy Porter (left, HP 3)")
        table = table_of(fake).text()
        assert "Left: 🟩 Mossy Porter LV1 — HP 2/3" in table
        assert "Right: 🟩 Mossy Porter LV1 — HP 1/3" in table
    fake.assert_clean()


async def test_the_support_prompt_says_what_support_pays_for_and_skip_comes_last(
    fake, db, monkeypatch
) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    rigged = RiggedBraverse(
        side(battle=[(BLAZE_FENCER, [FILLER] * 4)], hand=[FLARE_JUGGLER, MOSSY_PORTER]),
        side(battle=[(MOSSY_PORTER, [FILLER] * 3)]),
        phase="support",
    )
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        hand = await show_hand(fake, ana)
        assert (
            "Each Support card pays one symbol of its colour, every turn, for attacks, Items, "
            "Traps and Stages."
        ) in hand.text()
        assert move_labels(hand) == [
            "🟥 Flare Juggler (pays Red)",
            "🟩 Mossy Porter (pays Green)",
            "Skip",
        ]
        await choose(fake, ana, hand, "Flare Juggler (pays Red)")
        assert "Support (pays costs): 🟥 Red 1 of 1 active" in table_of(fake).text()
    fake.assert_clean()


async def test_the_tables_footer_points_at_no_button_that_is_not_there(
    fake, db, monkeypatch
) -> None:
    """The footer said "Discard Piles and Break Areas: Details": no button is called
    Details, and a Spectate copy, a finished table and a replay page have no such button
    at all. The button says what it shows; the footer says what the game is."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, fencer_against_two_porters(), ana, ben)
        table = table_of(fake)
        assert table.find_button("Discard Piles and Break Areas")
        await fake.click(ben, table, table.find_button("Spectate"))
        for message in (table, fake.last_reply(ben)):
            footer = message.embeds[0]["footer"]["text"]
            assert footer == "Unofficial fan implementation · a Break Area of LV 10 loses"
    fake.assert_clean()


async def test_one_card_is_one_card_not_one_cards(fake, db, monkeypatch) -> None:
    """A hand of one read "Your hand (1 cards)"; a deck of one "1 cards"."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    rigged = RiggedBraverse(
        side(battle=[(BLAZE_FENCER, [FILLER] * 4)], hand=[FLARE_JUGGLER]),
        side(battle=[(MOSSY_PORTER, [FILLER] * 3)]),
    )
    async with fake.running(make_bot(db)):
        await start(fake, monkeypatch, rigged, ana, ben)
        assert "Your hand (1 card)" in (await show_hand(fake, ana)).text()
        await fake.slash(ana, "deck import", name="One")
        await fake.submit_modal(ana, {"deck:cards": "S1-001"})
        assert "1 card. It cannot be played" in fake.last_reply(ana).text()
        await fake.slash(ana, "deck list")
        assert "**One** · 📝 draft (1 card): cannot be played yet" in fake.last_reply(ana).text()
        await fake.slash(ana, "deck show", name="One")
        assert "📝 Draft: cannot be played yet · 1 card" in fake.last_reply(ana).text()
    fake.assert_clean()
