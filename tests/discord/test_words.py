"""Every text a player meets in Discord, for every game: the lobby (its selects too), the
table through a whole match, every hand view and private answer, read by ``tests/words``."""

from __future__ import annotations

import pytest

from games import GAMES
from tests.discord.conftest import make_bot, table_of
from tests.discord.harness import FakeDiscord
from tests.discord.test_toss_your_cookies import play_to_the_end
from tests.words import word_problems

BOTS = {"cover_your_assets": 2, "cover_your_cookies": 2, "toss_your_cookies": 2}


def problems_in(fake: FakeDiscord, key: str, texts: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for text in texts:
        for line in text.split("\n"):
            for problem in word_problems(line, key):
                found.setdefault(problem, line)
    return found


@pytest.mark.parametrize("key", list(GAMES))
async def test_every_message_of_a_whole_match_reads_well(fake, db, key: str) -> None:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        bot.service.new_seed = lambda: 7
        await fake.slash(ana, "play", game=key)
        lobby = table_of(fake)
        lobby_text = lobby.text()  # the embed, its buttons and every select option
        for user in (ana, ben):  # both want to click their lone passes themselves
            await fake.click(user, lobby, lobby.find_button("Join"))
            answer = fake.last_reply(user)
            await fake.click(user, answer, answer.find_button("Always ask me"))
        for _ in range(BOTS.get(key, 1)):
            await fake.click(ana, lobby, lobby.find_button("Add bot"))
        await fake.click(ana, lobby, lobby.find_button("Start"))
        await play_to_the_end(fake, [ana, ben])
        texts = [lobby_text, *(m.text() for m in fake.public_messages())]
        texts += [m.text() for user in (ana, ben) for m in fake.ephemerals(user)]
        found = problems_in(fake, key, texts)
        assert not found, "\n".join(f"{p}   in: {line!r}" for p, line in found.items())
    fake.assert_clean()
