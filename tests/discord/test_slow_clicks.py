"""A click whose answer takes longer than Discord waits (3 s) is acknowledged in time and
answered when its turn comes; a quick one is answered at once, as before."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.runtime import CLICKS_AT_ONCE
from cogs.acknowledge import ACK_WITHIN
from cogs.components import waited_on
from tests.discord.conftest import (
    click_first_move,
    make_bot,
    mover_and_hand,
    open_game,
    table_of,
)
from tests.discord.harness import FakeDiscord

DEFERRED_UPDATE, UPDATE_MESSAGE = 6, 7


def slowed(service, seconds: float) -> None:  # type: ignore[no-untyped-def]
    """Every move waits ``seconds`` (in the loop's time) for its turn, as under overload."""
    act = service.act

    async def slow_act(*args, **kwargs):  # type: ignore[no-untyped-def]
        await asyncio.sleep(seconds)
        return await act(*args, **kwargs)

    service.act = slow_act


@pytest.mark.parametrize("delay", [2.5, 20.0])
async def test_a_slow_move_is_acknowledged_in_time_and_its_hand_follows(
    fake: FakeDiscord, db, delay: float
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        before = hand.text()
        version = (await bot.store.open_matches())[0].version
        slowed(bot.service, delay)
        click = await click_first_move(fake, mover, hand, buttons, selects)
        await fake.advance(delay)  # the move's turn comes
        # Acknowledged by itself (nothing changes on screen), then answered: the clicked
        # hand is edited to the hand after the move.
        assert click.response_type == DEFERRED_UPDATE
        assert (await bot.store.open_matches())[0].version == version + 1
        answered = fake.messages[hand.id]
        assert answered.text() != before
        assert hand.id in click.reply_ids
    fake.assert_clean()


async def test_a_quick_move_is_answered_at_once_without_an_acknowledgement_of_its_own(
    fake: FakeDiscord, db
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        slowed(bot.service, ACK_WITHIN / 2)
        click = await click_first_move(fake, mover, hand, buttons, selects)
        assert click.response_type == UPDATE_MESSAGE
    fake.assert_clean()


async def test_discord_refuses_an_answer_after_three_seconds_and_nothing_breaks(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Without the acknowledgement (as before), a 4-second move is refused by Discord: the
    move stands, and the refusal is a warning, not an error (the fake refuses as Discord
    does, so the test above proves the acknowledgement is what answers in time)."""
    import cogs.acknowledge

    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    monkeypatch.setattr(cogs.acknowledge, "ACK_WITHIN", 60.0)
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        version = (await bot.store.open_matches())[0].version
        slowed(bot.service, 4.0)
        click = await click_first_move(fake, mover, hand, buttons, selects, expect_ack=False)
        assert click.response_type is None  # "This interaction failed"
        assert (await bot.store.open_matches())[0].version == version + 1
    # Refused as Discord refuses a late first answer; logged as a warning, no error.
    assert [r.code for r in fake.rejections] == [10062]


async def test_behind_many_moves_a_click_is_acknowledged_at_once_and_answered_after(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Under overload a timer set for later fires late: a click that will wait behind many
    moves is acknowledged before its handler runs, however quick it turns out to be."""
    import cogs.acknowledge

    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        shown = hand.text()
        monkeypatch.setattr(cogs.acknowledge, "BUSY_FROM", 0)  # every click is behind enough
        click = await click_first_move(fake, mover, hand, buttons, selects)
        assert click.response_type == DEFERRED_UPDATE
        assert fake.messages[hand.id].text() != shown  # and the hand is redrawn after it
        assert bot.service.moves_under_way == 0
    fake.assert_clean()


async def test_behind_many_clicks_a_click_is_acknowledged_at_once_and_answered_after(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Clicks that are no moves (hands opened) hold the event loop as surely as moves: behind
    enough of them a click is acknowledged before its handler runs, few moves or not."""
    import cogs.acknowledge

    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        shown = hand.text()
        monkeypatch.setattr(cogs.acknowledge, "CLICKS_BUSY_FROM", 1)  # the click itself
        click = await click_first_move(fake, mover, hand, buttons, selects)
        assert click.response_type == DEFERRED_UPDATE
        assert fake.messages[hand.id].text() != shown  # and the hand is redrawn after it
        assert bot.runtime.answers_under_way == 0
    fake.assert_clean()


async def test_while_every_turn_is_taken_a_click_is_acknowledged_and_waits_for_one(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """No more than CLICKS_AT_ONCE handlers work at once: a click past them is acknowledged
    at once (fewer clicks under way make it busy than fill the turns), and its move is made
    and its hand redrawn when a turn frees."""
    import cogs.acknowledge

    assert cogs.acknowledge.CLICKS_BUSY_FROM < CLICKS_AT_ONCE
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        shown = hand.text()
        version = (await bot.store.open_matches())[0].version
        turns = bot.runtime.click_turns
        for _ in range(CLICKS_AT_ONCE):
            await turns.acquire()
        monkeypatch.setattr(cogs.acknowledge, "CLICKS_BUSY_FROM", 1)  # as the full turns would
        click = await click_first_move(fake, mover, hand, buttons, selects)
        assert click.response_type == DEFERRED_UPDATE
        assert (await bot.store.open_matches())[0].version == version  # waiting its turn
        turns.release()
        await fake.advance(0)
        assert (await bot.store.open_matches())[0].version == version + 1
        assert fake.messages[hand.id].text() != shown
        for _ in range(CLICKS_AT_ONCE - 1):
            turns.release()
    fake.assert_clean()


async def test_while_every_turn_is_taken_the_click_the_match_waits_on_goes_first(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Under overload the person the match waits on is answered before those with nothing
    to do: in one line, at 1,000 tables, each move waited behind thousands of looks."""
    import cogs.acknowledge

    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        mover, hand, buttons, selects = await mover_and_hand(fake, [ana, ben])
        other = ben if mover is ana else ana
        match_id = (await bot.store.open_matches())[0].match_id
        assert not bot.service.waits_on_others(match_id, mover.id)
        assert bot.service.waits_on_others(match_id, other.id)
        version = (await bot.store.open_matches())[0].version
        turns = bot.runtime.click_turns
        for _ in range(CLICKS_AT_ONCE):
            await turns.acquire()
        monkeypatch.setattr(cogs.acknowledge, "CLICKS_BUSY_FROM", 1)  # as the full turns would
        # The version of the match each of the other's looks was drawn from.
        seen: list[int] = []
        seat_view = bot.service.seat_view

        async def watched(match: str, user_id: int | None):  # type: ignore[no-untyped-def]
            view = await seat_view(match, user_id)
            if user_id == other.id:
                seen.append(view.version)
            return view

        monkeypatch.setattr(bot.service, "seat_view", watched)
        table = table_of(fake)
        look = await fake.click(other, table, table.find_button("Show hand"))
        await click_first_move(fake, mover, hand, buttons, selects)
        assert turns.waiting == 2 and look.acknowledged and not seen
        turns.release()  # one turn: the move's, though the look came first
        await fake.advance(0)
        assert (await bot.store.open_matches())[0].version == version + 1
        assert seen and set(seen) == {version + 1}  # the look was answered after the move
        assert look.reply_ids
        for _ in range(CLICKS_AT_ONCE - 1):
            turns.release()
    fake.assert_clean()


def test_only_a_click_on_a_match_that_waits_on_someone_else_waits_after_the_rest() -> None:
    """A look by a person with nothing to do, or a spectator's, waits; a move, Show hand
    to make one, a lobby's Start (no match runs yet) or any other click goes first."""
    running = "0123456789"

    class Service:
        def waits_on_others(self, match_id: str, user_id: int) -> bool:
            return match_id == running and user_id != 1  # it waits on user 1

    def click(custom_id: str, user_id: int) -> Any:
        return SimpleNamespace(
            client=SimpleNamespace(service=Service()),
            data={"custom_id": custom_id},
            user=SimpleNamespace(id=user_id),
        )

    assert waited_on(click(f"cj:hand:{running}", 1))
    assert not waited_on(click(f"cj:hand:{running}", 2))
    assert waited_on(click("cj:lobby:abcdef0123:start", 2))
    assert waited_on(click("cj:rules:page:2", 2))
