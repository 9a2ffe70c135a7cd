"""Clicks past those answered at once wait their turn, the ones a match waits on first
(bot/click_turns.py), and the others are never starved."""

from __future__ import annotations

import asyncio

import pytest

from bot.click_turns import ClickTurns


async def waiting_in_order(turns: ClickTurns, urgent: list[bool]) -> list[int]:
    """Each click in ``urgent`` waits for its turn (all turns are held); the order they
    are given in as the turns come back one at a time."""
    given: list[int] = []

    async def click(number: int, is_urgent: bool) -> None:
        async with turns.turn(is_urgent):
            given.append(number)

    tasks = [asyncio.create_task(click(n, u)) for n, u in enumerate(urgent)]
    await asyncio.sleep(0)  # every click is waiting now
    assert turns.waiting == len(urgent)
    turns.release()  # the held turn comes back; each click gives its own back in turn
    await asyncio.gather(*tasks)
    return given


async def test_a_click_the_match_waits_on_goes_before_those_waiting_longer() -> None:
    turns = ClickTurns(1)
    await turns.acquire()
    assert await waiting_in_order(turns, [False, False, True]) == [2, 0, 1]


async def test_the_others_get_one_turn_in_four_while_both_wait() -> None:
    turns = ClickTurns(1, fair=4)
    await turns.acquire()
    order = await waiting_in_order(turns, [False, False, True, True, True, True, True, True])
    assert order == [2, 3, 4, 0, 5, 6, 7, 1]


async def test_with_turns_free_a_click_is_answered_at_once() -> None:
    turns = ClickTurns(2)
    async with turns.turn(), turns.turn(urgent=True):
        assert turns.working == 2 and turns.waiting == 0
    assert turns.working == 0


async def test_a_click_that_gave_up_waiting_takes_no_turn() -> None:
    turns = ClickTurns(1)
    await turns.acquire()
    gone = asyncio.create_task(turns.acquire(urgent=True))
    await asyncio.sleep(0)
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert turns.waiting == 0
    turns.release()
    assert turns.working == 0
    async with turns.turn():
        assert turns.working == 1
