"""The offline Discord keeps Discord's request budget: the global limit per token, shared by
every process of the application; per-route buckets; interaction endpoints outside it; and
429 answers that discord.py's own rate-limit handling reads as it reads Discord's."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.ext import commands

from devtools.offline_discord.ratelimits import Ledger, RateLimits, RouteLimit
from tests.discord.harness import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limits(per_second: float = 50, **kwargs: Any) -> tuple[RateLimits, Clock]:
    clock = Clock()
    return RateLimits(per_second, ledger=Ledger(clock), **kwargs), clock


def test_a_burst_over_the_global_budget_is_refused_with_discords_429() -> None:
    budget, clock = limits(per_second=5)
    served = [budget.check("GET", f"/channels/{n}") for n in range(5)]
    refused = budget.check("GET", "/channels/6")
    assert not any(v.refused for v in served) and refused.refused
    assert refused.scope == "global"
    assert refused.body == {
        "message": "You are being rate limited.",
        "retry_after": 1.0,
        "global": True,
        "code": 0,
    }
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.headers["Retry-After"] == "1"
    assert "Via" in refused.headers  # without it discord.py takes the 429 for a ban
    clock.now += 0.6
    again = budget.check("GET", "/channels/6")
    assert again.refused and again.body is not None and again.body["retry_after"] == 0.4
    clock.now += 0.4  # the next second: a new window
    assert not budget.check("GET", "/channels/6").refused


def test_message_create_is_counted_per_channel_with_the_buckets_headers() -> None:
    budget, clock = limits()
    first = budget.check("POST", "/channels/1/messages")
    assert first.headers["X-RateLimit-Limit"] == "5"
    assert first.headers["X-RateLimit-Remaining"] == "4"
    assert first.headers["X-RateLimit-Reset-After"] == "5.000"
    assert first.headers["X-RateLimit-Bucket"] == "messages"
    for _ in range(4):
        assert not budget.check("POST", "/channels/1/messages").refused
    refused = budget.check("POST", "/channels/1/messages")
    assert refused.refused and refused.scope == "user"
    assert refused.body is not None and refused.body["global"] is False
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["X-RateLimit-Bucket"] == "messages"
    assert "X-RateLimit-Global" not in refused.headers
    # Another channel has its own bucket; an edit in this one its own counter.
    assert not budget.check("POST", "/channels/2/messages").refused
    assert not budget.check("PATCH", "/channels/1/messages/9").refused
    clock.now += 5
    assert not budget.check("POST", "/channels/1/messages").refused


@pytest.mark.parametrize(
    ("method", "path", "limit"),
    [
        ("PATCH", "/channels/1/messages/7", 5),
        ("DELETE", "/channels/1/messages/7", 3),
        ("PUT", "/channels/1/messages/7/reactions/%F0%9F%8D%AA/@me", 1),
        ("POST", "/channels/1/threads", 5),
        ("POST", "/channels/1/messages/7/threads", 5),
    ],
)
def test_edits_deletes_reactions_and_threads_have_their_buckets(
    method: str, path: str, limit: int
) -> None:
    budget, _ = limits()
    for _ in range(limit):
        assert not budget.check(method, path).refused
    assert budget.check(method, path).scope == "user"
    assert not budget.check(method, path.replace("/1/", "/2/")).refused


def test_a_refused_request_takes_nothing_from_the_budget() -> None:
    budget, _ = limits(per_second=6)
    for _ in range(5):
        budget.check("POST", "/channels/1/messages")
    for _ in range(3):
        assert budget.check("POST", "/channels/1/messages").scope == "user"
    assert not budget.check("GET", "/users/@me").refused  # the sixth served this second
    assert budget.check("GET", "/users/@me").scope == "global"


def test_two_processes_of_one_application_share_one_budget(tmp_path: Path) -> None:
    """Another process takes the channel's bucket; this one's next request is refused."""
    ledger = tmp_path / "budget.json"
    hour = "RouteLimit('POST', re.compile(r'/channels/(\\d+)/messages'), 2, 3600, 'm', 'm')"
    other = (
        "import re\n"
        "from devtools.offline_discord.ratelimits import RateLimits, RouteLimit\n"
        f"budget = RateLimits.shared({str(ledger)!r}, per_second=1000)\n"
        f"budget.routes = [{hour}]\n"
        "assert not budget.check('POST', '/channels/1/messages').refused\n"
        "assert not budget.check('POST', '/channels/1/messages').refused\n"
    )
    subprocess.run([sys.executable, "-c", other], cwd=ROOT, check=True)
    budget = RateLimits.shared(ledger, per_second=1000)
    budget.routes = [RouteLimit("POST", re.compile(r"/channels/(\d+)/messages"), 2, 3600, "m", "m")]
    assert budget.check("POST", "/channels/1/messages").scope == "user"
    assert not budget.check("POST", "/channels/2/messages").refused


def test_processes_taking_from_the_ledger_at_once_lose_no_count(tmp_path: Path) -> None:
    """Two processes hammer one ledger together: every request is counted once, and each
    reads whole what the other wrote (a write still in a buffer when the lock is let go
    was read half-written: 'Extra data')."""
    ledger = tmp_path / "budget.json"
    hour = "RouteLimit('POST', re.compile(r'/channels/(\\d+)/messages'), 10**6, 3600, 'm', 'm')"
    taker = (
        "import re\n"
        "from devtools.offline_discord.ratelimits import RateLimits, RouteLimit\n"
        f"budget = RateLimits.shared({str(ledger)!r}, per_second=10**6)\n"
        f"budget.routes = [{hour}]\n"
        "for _ in range(400):\n"
        "    assert not budget.check('POST', '/channels/1/messages').refused\n"
    )
    takers = [subprocess.Popen([sys.executable, "-c", taker], cwd=ROOT) for _ in range(2)]
    assert [process.wait() for process in takers] == [0, 0]
    assert json.loads(ledger.read_text())["m:1"][1] == 800


def test_processes_sharing_a_ledger_share_the_global_second(tmp_path: Path) -> None:
    first = RateLimits.shared(tmp_path / "budget.json", per_second=4)
    second = RateLimits.shared(tmp_path / "budget.json", per_second=4)
    verdicts = [budget.check("GET", "/users/@me") for budget in (first, second) * 3]
    # Four served in the second between them, whichever asked; unless the second turned
    # over meanwhile (a loaded machine), when the window starts again.
    assert sum(v.refused for v in verdicts) in (1, 2)
    assert all(v.scope == "global" for v in verdicts if v.refused)


class Sender(commands.Bot):
    """A bot whose ``/send`` posts ``count`` messages at once, in one channel or in as many
    channels as the fake has: a burst, through discord.py's own HTTP client."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def burst(self, channels: list[int], count: int) -> None:
        await asyncio.gather(
            *(
                self.get_partial_messageable(channels[n % len(channels)]).send(f"message {n}")
                for n in range(count)
            )
        )


async def test_discord_py_waits_out_a_global_429_and_every_message_arrives(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = FakeDiscord(rate_limits=RateLimits(per_second=5))
    channels = [fake.add_channel(f"c{n}").id for n in range(12)]
    bot = Sender()
    async with fake.running(bot):
        fake.calls.clear()
        with caplog.at_level(logging.WARNING, logger="discord.http"):
            await fake.settle_with(bot.burst(channels, 12))
    sent = [r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]
    assert len(sent) == 12 and fake.calls.budgeted["post_message"] == 12
    assert fake.calls.refused["global POST"] > 0
    assert any("Global rate limit has been hit" in r.getMessage() for r in caplog.records)


async def test_discord_py_paces_a_channel_by_the_buckets_headers() -> None:
    """Twelve messages in one channel, five allowed in five seconds: discord.py reads
    X-RateLimit-Remaining and waits for the bucket's reset itself, so every message arrives
    and none was refused (the fake would have refused the sixth had it come early)."""
    fake = FakeDiscord(rate_limits=RateLimits())
    channel = fake.add_channel("one")
    bot = Sender()
    async with fake.running(bot):
        await fake.settle_with(bot.burst([channel.id], 12))
    assert sorted(m.content for m in fake.public_messages(channel)) == sorted(
        f"message {n}" for n in range(12)
    )
    assert fake.calls.budgeted["post_message"] == 12 and not fake.calls.refused


class Answerer(commands.Bot):
    """``/hello`` answers through the interaction, then edits the answer and adds a
    follow-up: every call made with the interaction's token."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        @self.tree.command(name="hello", description="Say hello")
        async def hello(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("hello", ephemeral=True)
            await interaction.edit_original_response(content="hello again")
            await interaction.followup.send("and once more", ephemeral=True)

        await self.tree.sync()


async def test_interaction_endpoints_are_outside_the_budget() -> None:
    fake = FakeDiscord(rate_limits=RateLimits(per_second=1))
    people = [fake.add_user(f"p{n}") for n in range(5)]
    async with fake.running(Answerer()):
        fake.calls.clear()  # logging in and syncing commands took the budget's first calls
        for person in people:
            await fake.slash(person, "hello")
            assert fake.last_reply(person).content == "and once more"
    assert fake.calls.free == {"callback": 5, "patch_webhook_message": 5, "followup": 5}
    assert not fake.calls.budgeted and not fake.calls.refused
    fake.assert_clean()


async def test_without_limits_nothing_is_refused_and_calls_are_still_counted() -> None:
    fake = FakeDiscord(rate_limits=None)
    channels = [fake.add_channel(f"c{n}").id for n in range(3)]
    bot = Sender()
    async with fake.running(bot):
        await fake.settle_with(bot.burst(channels, 60))
    assert fake.calls.budgeted["post_message"] == 60 and not fake.calls.refused
