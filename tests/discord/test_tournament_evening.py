"""A tournament as a new community meets it (issue 27, item 5): between rounds the
standings say when the next round starts and the organiser may start it now; the
tiebreaks are explained where they are shown; the organiser's views speak plain words."""

from __future__ import annotations

import re

import pytest

from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord, FakeMessage
from tests.discord.test_tournaments import (
    PatientDiscord,
    bots_only_event,
    create_event,
    move_on,
    settle_all,
    the_event,
    until_standings,
    use_manual_clock,
)


@pytest.fixture
def fake() -> FakeDiscord:
    """Round 1 of bots plays itself out inside a click: patient on a busy machine."""
    return PatientDiscord()


def standings_after(fake: FakeDiscord, round_no: int) -> FakeMessage:
    return next(
        m for m in fake.public_messages() if f"standings after round {round_no}" in m.text()
    )


async def test_the_standings_say_when_the_next_round_starts_and_the_organiser_starts_it_now(
    fake, db
) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)) as bot:
        clock = use_manual_clock(bot)
        # Live: two minutes between rounds, so round 1 ends and round 2 waits.
        await bots_only_event(fake, bot, mod, 4, format="swiss", pace="live", rounds=3)
        assert (await the_event(bot)).round == 1
        standings = standings_after(fake, 1)
        found = re.search(r"Round 2 starts <t:(\d+):R>", standings.text())
        assert found is not None, standings.text()
        assert 119 <= int(found[1]) - clock.now() <= 120  # the two minutes' pause
        # The tiebreaks shown are explained where they are shown.
        footer = standings.embeds[0]["footer"]["text"]
        assert "OMW% (opponents' average match-win rate)" in footer
        assert "OOMW% (their opponents' OMW%)" in footer

        await fake.click(ana, standings, standings.find_button("Start now"))
        assert "Only the organiser" in fake.last_reply(ana).text()
        assert (await the_event(bot)).round == 1  # refused: nothing changed

        await fake.click(mod, standings, standings.find_button("Start now"))
        assert "Round 2 is paired" in fake.last_reply(mod).text()
        assert fake.last_reply(mod).ephemeral
        await settle_all(fake, bot)
        assert (await the_event(bot)).round >= 2
        # The countdown and its button are gone from the standings; My standing stays.
        assert [b.label for b in standings.buttons()] == ["My standing"]
        assert "starts <t:" not in standings.text()

        await fake.slash(mod, "tournament log")
        log = fake.last_reply(mod).text()
        assert "started round 2 early" in log
        # The channel keeps to sign-up, pairings, standings and results: Discord's notice of
        # each table's new thread ("R1 · T1 · 🤖 Bea, 🤖 Abe") is gone.
        notices = [m.text() for m in fake.public_messages() if m.type == 18]
        assert notices == []
        assert any(m.type == 18 and m.deleted for m in fake.messages.values())

        # Left alone, the next round starts on time and the countdown goes as well.
        await until_standings(fake, bot, clock, 2)
        standings = standings_after(fake, 2)
        assert "Start now" in [b.label for b in standings.buttons()]
        await move_on(fake, bot, clock, 121)
        assert (await the_event(bot)).round == 3
        assert [b.label for b in standings.buttons()] == ["My standing"]
        assert "starts <t:" not in standings.text()
    fake.assert_clean()


async def test_the_organisers_views_speak_plain_words(fake, db) -> None:
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(make_bot(db)) as bot:
        signup = await create_event(
            fake, mod, game="cover_your_assets", format="swiss", pace="live", rounds=2
        )
        await fake.click(mod, signup, signup.find_button("Add bot"))
        added = fake.last_reply(mod).text()
        # One robot, not two; its level said, and the others offered.
        assert added.startswith("🤖 Abe (Normal) joins the tournament. How hard"), added
        await fake.click(mod, signup, signup.find_button("Add bot"))
        await fake.click(mod, signup, signup.find_button("Start"))
        await settle_all(fake, bot)

        await fake.slash(mod, "tournament log")
        log = fake.last_reply(mod).text()
        assert "created the tournament: Swiss (2 players a table), 2 rounds, live pace" in log
        assert "added 🤖 Abe" in log and "started the tournament with 2 players" in log
        for jargon in ("None", "False", "best_of", "paused_at", "advance:"):
            assert jargon not in log, jargon
    fake.assert_clean()
