"""/rules opens short: a quick start (the goal, a turn, how it ends) a phone shows whole,
with buttons for the full rules and for our rulings, kept apart (issue 27, item 3)."""

from __future__ import annotations

import pytest

from games import GAMES
from tests.discord.conftest import make_bot
from tests.discord.harness import FakeDiscord, FakeMessage, FakeUser

QUICK_START_LIMIT = 1500  # characters: a phone screen or two
RULINGS_HEADINGS = ("Our rulings.", "Rulings where the rulebook is silent")

# A few words of each game's how-to that its full rules must still say, and one ruling.
HOW_TO = {
    "cover_your_assets": ("Form a set", "first (bottom) set is safe", "Draft a set", "Penny Jars"),
    "cover_your_cookies": ("Start a Batch", "Swipe", "Mixer", "Crumb Collector"),
    "toss_your_cookies": ("Swap N", "scramble", "Snickerdoodle!"),
    "cookie_chomper": ("modifier round", "Golden Cookie", "Number Chain", "Think Again!"),
    "braverse": ("unofficial fan implementation", "Break Area", "Support"),
}
A_RULING = {
    "cover_your_assets": "Equal final figures share a place.",
    "cover_your_cookies": "Rulings where the rulebook is silent",
    "toss_your_cookies": "The first roller is drawn at random",
    "cookie_chomper": "Each player may play several modifiers",
    "braverse": "One Support card pays one cost symbol.",
}


async def open_part(fake: FakeDiscord, user: FakeUser, quick: FakeMessage, label: str) -> str:
    """Press ``label`` under the quick start; the answer's pages, as one text."""
    before = len(fake.ephemerals(user))
    await fake.click(user, quick, quick.find_button(label))
    pages = fake.ephemerals(user)[before:]
    assert pages and all(page.ephemeral for page in pages)
    return "\n".join(page.text() for page in pages)


@pytest.mark.parametrize("game", list(GAMES))
async def test_rules_open_with_a_quick_start_and_buttons_for_the_rest(fake, db, game) -> None:
    ana = fake.add_user("ana")
    async with fake.running(make_bot(db)):
        await fake.slash(ana, "rules", game=game)
        replies = fake.ephemerals(ana)
        assert len(replies) == 1, "one message, not a wall"
        quick = replies[0]
        assert quick.ephemeral and len(quick.embeds) == 1
        description = quick.embeds[0]["description"]
        assert len(description) <= QUICK_START_LIMIT
        # The goal, a turn, how it ends: and nothing of our rulings.
        for part in ("**Goal.**", "turn.**", "**The end.**"):
            assert part in description, part
        assert not any(heading in quick.text() for heading in RULINGS_HEADINGS)
        assert A_RULING[game] not in quick.text()
        assert [b.label for b in quick.buttons()] == ["Full rules", "Our rulings"]
        low, high = GAMES[game].min_players, GAMES[game].max_players
        players = f"{low} players" if low == high else f"{low}–{high} players"
        assert quick.embeds[0]["footer"]["text"].startswith(players + " · ")

        full = await open_part(fake, ana, quick, "Full rules")
        for words in HOW_TO[game]:
            assert words in full, words
        assert not any(heading in full for heading in RULINGS_HEADINGS)
        assert A_RULING[game] not in full

        rulings = await open_part(fake, ana, quick, "Our rulings")
        assert A_RULING[game] in rulings
        assert HOW_TO[game][0] not in rulings
    fake.assert_clean()
