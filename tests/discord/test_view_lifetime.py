"""No view outlives its message: every component is a DynamicItem, so nothing is stored."""

from __future__ import annotations

import asyncio
import gc
import weakref
from types import SimpleNamespace

import discord
import pytest

from cogs.components import FreesClickedView, components_view, guarded
from cogs.table import presenter_of
from cogs.table.buttons import MoveButton, TableButton
from cogs.table.reach import EDITABLE as HAND_EDITABLE
from tests.discord.conftest import make_a_move, make_bot, open_game, show_hand, table_of
from tests.discord.harness import FakeDiscord


def live_views() -> list[discord.ui.View]:
    return [o for o in gc.get_objects() if isinstance(o, discord.ui.View)]


@pytest.mark.discord_unlimited(
    "counts live objects with the collector off: discord.py's waits for a bucket hold frames"
)
async def test_hand_views_are_not_kept_and_buttons_work_after_fifteen_minutes(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        for _ in range(6):
            await make_a_move(fake, ana)
            await make_a_move(fake, ben)
        store = bot._connection._view_store
        # Nothing in discord.py's view store holds a message's view, and no view is alive
        # (each would keep a 15-minute timeout task and its whole tree of items).
        assert store._views == {} and store._synced_message_views == {}
        gc.collect()
        assert live_views() == []
        # Past the 15 minutes an ephemeral view would have lived, clicks still work.
        await fake.advance(16 * 60)
        hand = await show_hand(fake, ana)
        assert hand.ephemeral and "Refresh" in hand.text()
        await fake.click(ben, table_of(fake), table_of(fake).find_button("Spectate"))
        assert fake.last_reply(ben).ephemeral
    fake.assert_clean()


async def test_an_ended_match_lets_go_of_its_players_hand_messages(fake: FakeDiscord, db) -> None:  # type: ignore[no-untyped-def]
    """The newest hand message of each player is remembered so the next one can replace it;
    once the match ends nothing replaces them, and each kept interaction holds its message,
    member and components (under load they piled up for 15 minutes a match)."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        await show_hand(fake, ana)
        await show_hand(fake, ben)
        match_id = table_of(fake).find_button("hand").custom_id.split(":")[2]
        hands = presenter_of(bot).hands._kept
        assert {key for key in hands if key[0] == match_id} == {
            (match_id, ana.id),
            (match_id, ben.id),
        }
        # What is kept to delete a hand later is the token and the message id, not the
        # interaction with its message, member and components, nor even a webhook: numbers
        # and text in a plain tuple, which the collector stops tracking.
        kept = list(hands.values())
        assert kept and all(type(hand) is tuple for hand in kept)
        assert all(isinstance(value, int | str | float) for hand in kept for value in hand)
        gc.collect()
        assert not any(gc.is_tracked(hand) for hand in kept)
        # A hand shown again replaces the old one through that webhook.
        first = fake.last_reply(ana)
        await show_hand(fake, ana)
        assert first.deleted and not fake.last_reply(ana).deleted
        await fake.slash(ana, "cancel")
        await fake.settle()
        assert (await bot.service.get(match_id)).status == "cancelled"
        assert [key for key in hands if key[0] == match_id] == []
    fake.assert_clean()


async def test_hands_past_their_fifteen_minutes_are_let_go_of_oldest_first(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    """Kept oldest first, so each new hand drops only what expired: a sweep of every kept
    hand on every hand shown grew with the hands kept and slowed a long load run."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        hands = presenter_of(bot).hands._kept
        await show_hand(fake, ben)  # 0 s
        await fake.advance(60)
        await show_hand(fake, ana)  # 60 s
        assert [user for _, user in hands] == [ben.id, ana.id]
        await fake.advance(60)
        await show_hand(fake, ben)  # 120 s: Ben's hand is the youngest now
        assert [user for _, user in hands] == [ana.id, ben.id]
        # Ana's is past Discord's 15 minutes, Ben's not: his next hand drops hers alone.
        await fake.advance(HAND_EDITABLE - 40)
        await show_hand(fake, ben)
        assert [user for _, user in hands] == [ben.id]
    fake.assert_clean()


async def test_a_sent_view_is_freed_at_once_not_left_to_the_collector() -> None:
    """A view's items point back at it: once turned into components it is emptied, so it
    dies with its last reference instead of as cyclic garbage (under load, tens of
    thousands of objects a second for the collector)."""
    view = components_view()
    view.add_item(MoveButton("abcdef0123", "st", 0, "Play"))
    view.add_item(TableButton("hand", "abcdef0123", label="Refresh"))
    gc.disable()
    try:
        components = view.to_components()
        gone = weakref.ref(view)
        del view
        assert gone() is None
    finally:
        gc.enable()
    assert [c["custom_id"] for row in components for c in row["components"]] == [
        "cj:do:abcdef0123:st:0",
        "cj:hand:abcdef0123",
    ]


async def test_a_view_never_sent_is_freed_at_once_too() -> None:
    """A table edit replaced by a newer one before its turn drops its view unsent: its
    items keep no reference back, so it dies with its last reference (at 300 busy tables,
    3,000 such views a minute were cyclic garbage, and those a full pass froze stayed)."""
    view = components_view()
    view.add_item(MoveButton("abcdef0123", "st", 0, "Play"))
    view.add_item(TableButton("hand", "abcdef0123", label="Refresh"))
    gc.disable()
    try:
        gone = weakref.ref(view)
        del view
        assert gone() is None
    finally:
        gc.enable()


@pytest.mark.discord_unlimited(
    "counts live objects with the collector off: discord.py's waits for a bucket hold frames"
)
async def test_clicks_leave_no_view_behind_for_the_collector(fake: FakeDiscord, db) -> None:  # type: ignore[no-untyped-def]
    """discord.py rebuilds each clicked message as a view to find the item; emptied before
    our callback, it is freed at once rather than as cyclic garbage."""
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        # Every component of every cog, not only those this match shows.
        registered = bot._connection._view_store._dynamic_items.values()
        assert len(registered) >= 15
        assert all(issubclass(item, FreesClickedView) for item in registered)
        await open_game(fake, "cover_your_assets", ana, ben)
        gc.collect()
        gc.disable()
        try:
            for _ in range(3):
                await make_a_move(fake, ana)
                await make_a_move(fake, ben)
            assert live_views() == []
            # Nor the interactions: each handled one lets go of its cached response.
            assert [o for o in gc.get_objects() if isinstance(o, discord.Interaction)] == []
        finally:
            gc.enable()
    fake.assert_clean()


async def test_only_the_outermost_guard_lets_go_of_the_interaction() -> None:
    """A handler run inside another's guard must not drop the response the outer one may
    still answer with."""
    interaction = SimpleNamespace(_cs_response="the cached response")

    async def inner() -> None:
        await guarded(interaction, asyncio.sleep(0))
        assert interaction._cs_response == "the cached response"

    await guarded(interaction, inner())
    assert not hasattr(interaction, "_cs_response")
