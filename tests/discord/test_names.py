"""Names as people wrote them, in Discord (issue 38): a Toss Your Cookies match of players
named ``dark_knight``, ``Ana (EU)`` and ``<img src=x onerror=alert(1)>``, played to its
end, reads every name as written wherever it is shown: in markdown (message content, embed
titles, descriptions and fields) as the reader sees it, and in what shows no markdown
(buttons, selects, footers) without an escaping backslash."""

from __future__ import annotations

from typing import Any

from discord.utils import escape_markdown, escape_mentions

from devtools.offline_discord.markdown import shown
from tests.discord.conftest import make_bot, table_of
from tests.discord.harness import FakeDiscord
from tests.discord.test_toss_your_cookies import open_toss_lobby, play_to_the_end

NAMES = ("dark_knight", "Ana (EU)", "<img src=x onerror=alert(1)>")
# The deal. The three people press the first move their hands offer, whatever their cards:
# nobody plays for five of a cookie, so a round ends when luck puts them in one hand, which
# takes 10 to 900 and more of play_to_the_end's rounds (the same number every time for one
# seed) and, with a new seed each run, now and then more than its 1,500: "the match did not
# end". This deal ends in 156 of them.
SEED = 1


def escaped(name: str) -> str:
    return escape_mentions(escape_markdown(name))


def markdown_parts(message: dict[str, Any]) -> list[str]:
    """The parts of a message Discord renders as markdown."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for field in embed.get("fields") or []:
            parts += [field.get("name") or "", field.get("value") or ""]
    return [part for part in parts if part]


def plain_parts(message: dict[str, Any]) -> list[str]:
    """The parts shown as they are: footers, authors, and every component's words."""
    parts = []
    for embed in message.get("embeds") or []:
        parts += [
            (embed.get("footer") or {}).get("text", ""),
            (embed.get("author") or {}).get("name", ""),
        ]
    stack = list(message.get("components") or [])
    while stack:
        component = stack.pop()
        stack += component.get("components") or []
        stack += component.get("options") or []
        parts += [component.get(key) or "" for key in ("label", "placeholder", "description")]
    return [part for part in parts if part]


def everything(fake: FakeDiscord) -> list[dict[str, Any]]:
    """Every version of every message the bot sent: as posted, and each edit."""
    out = []
    for message in fake.messages.values():
        out.append(
            {"content": message.content, "embeds": message.embeds, "components": message.components}
        )
        out += message.history
    return out


def check_names_read_as_written(fake: FakeDiscord) -> None:
    seen = {name: False for name in NAMES}
    for message in everything(fake):
        for part in markdown_parts(message):
            for name in NAMES:
                if name in part or escaped(name) in part:
                    assert name in shown(part), (name, part)
                    seen[name] = True
        for part in plain_parts(message):
            for name in NAMES:
                if escaped(name) != name:
                    assert escaped(name) not in part, (name, part)
                seen[name] = seen[name] or name in part
    assert all(seen.values()), seen


async def test_a_match_of_players_named_with_markdown_characters_reads_their_names(
    fake: FakeDiscord, db
) -> None:
    users = [fake.add_user(f"player{n}", display_name=name) for n, name in enumerate(NAMES)]
    bot = make_bot(db)
    async with fake.running(bot):
        bot.service.new_seed = lambda: SEED
        await open_toss_lobby(fake, *users)
        table = table_of(fake)
        for name in NAMES:
            assert name in shown(table.text()), name
        await play_to_the_end(fake, users)
    check_names_read_as_written(fake)
