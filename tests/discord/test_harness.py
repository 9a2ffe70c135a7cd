"""Self-test of the offline Discord harness against a tiny real ``commands.Bot``."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any

import aiosqlite
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.discord.harness import (
    EPHEMERAL,
    FakeDiscord,
    SettleTimeout,
    capture_error_logs,
    message_errors,
    no_error_logs,  # noqa: F401  (fixture, used via usefixtures)
)


class DemoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:(?P<n>\d+)"):
    """A persistent counter button: every click bumps the number in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Bump {n}", custom_id=f"demo:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> DemoButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"you bumped {self.n}", ephemeral=True)
        assert interaction.message is not None and interaction.channel is not None
        view = discord.ui.View(timeout=None)
        view.add_item(DemoButton(self.n + 1))
        await interaction.message.edit(view=view)
        await interaction.channel.send(f"{interaction.user.display_name} bumped to {self.n + 1}")  # type: ignore[union-attr]


class SecretView(discord.ui.View):
    """An ordinary (non-persistent) view, sent ephemerally."""

    @discord.ui.button(label="Reveal", custom_id="secret:reveal")
    async def reveal(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.edit_message(content="revealed: 42", view=None)


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="pick:fruit",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=f, value=f.lower()) for f in ("Apple", "Pear", "Plum")],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"picked {', '.join(select.values)}")


class ExpiringView(discord.ui.View):
    message: discord.InteractionMessage | None = None

    @discord.ui.button(label="Quick", custom_id="expiring:quick")
    async def quick(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()  # type 6: edits below target the clicked message
        await interaction.edit_original_response(content="quick!")

    async def on_timeout(self) -> None:
        assert self.message is not None
        await self.message.edit(content="expired", view=None)


class Feedback(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Your thoughts", custom_id="fb:text"
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"thanks for: {self.text.value}", ephemeral=True)


class DemoBot(commands.Bot):
    def __init__(self, *, sleeper: bool = False) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.sleeper = sleeper
        self.seen_codes: list[int] = []
        self.ticks = 0
        self.background: list[asyncio.Task[None]] = []

    async def tick_forever(self) -> None:
        while True:
            await asyncio.sleep(2)
            self.ticks += 1

    async def setup_hook(self) -> None:
        self.add_dynamic_items(DemoButton)
        tree = self.tree
        if self.sleeper:
            self.background.append(asyncio.create_task(asyncio.sleep(3600)))
            self.background.append(asyncio.create_task(self.tick_forever()))

        @tree.command(description="Ping with a persistent button")
        async def ping(interaction: discord.Interaction[Any]) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(DemoButton(1))
            embed = discord.Embed(title="Pong", description="Press the button")
            await interaction.response.send_message(embed=embed, view=view)

        @tree.command(description="Defers, then follows up")
        async def slow(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.5)  # fast-forwarded by settle()
            await interaction.followup.send("done slowly")

        @tree.command(description="Public defer, 'ephemeral' followup")
        async def leaky(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer()
            await interaction.followup.send("your hand: ace of spades", ephemeral=True)

        @tree.command(description="Sends an oversize embed")
        async def huge(interaction: discord.Interaction[Any]) -> None:
            try:
                await interaction.response.send_message(embed=discord.Embed(description="x" * 5000))
            except discord.HTTPException as exc:
                self.seen_codes.append(exc.code)
                await interaction.response.send_message("too big", ephemeral=True)

        @tree.command(description="Acknowledges twice")
        async def twice(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("first")
            interaction.response._response_type = None  # defeat discord.py's own guard
            try:
                await interaction.response.send_message("second")
            except discord.HTTPException as exc:
                self.seen_codes.append(exc.code)

        @tree.command(description="Uses a worker thread and aiosqlite")
        async def threaded(interaction: discord.Interaction[Any]) -> None:
            await asyncio.to_thread(time.sleep, 0.02)
            async with aiosqlite.connect(":memory:") as db:
                query = (
                    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c"
                    " WHERE x < 200000) SELECT count(*) FROM c"
                )
                async with db.execute(query) as cursor:
                    row = await cursor.fetchone()
            await interaction.response.send_message(f"counted {row[0] if row else None}")

        @tree.command(description="Bad components sent over REST")
        async def badrow(interaction: discord.Interaction[Any]) -> None:
            view = discord.ui.View()
            for i in range(6):
                view.add_item(
                    discord.ui.Button(label=f"b{i}", custom_id=f"same:{i % 5}", row=i // 5)
                )
            assert interaction.channel is not None
            try:
                await interaction.channel.send("rows", view=view)  # type: ignore[union-attr]
            except discord.HTTPException as exc:
                self.seen_codes.append(exc.code)
            await interaction.response.send_message("tried", ephemeral=True)

        async def fruit_names(
            interaction: discord.Interaction[Any], current: str
        ) -> list[app_commands.Choice[str]]:
            names = ["Apple", "Pear", "Peach"]
            return [app_commands.Choice(name=n, value=n.lower()) for n in names if current in n]

        @tree.command(description="Autocomplete + an unmodelled route")
        @app_commands.autocomplete(name=fruit_names)
        async def fruit(interaction: discord.Interaction[Any], name: str) -> None:
            assert interaction.guild is not None
            roles = await interaction.guild.fetch_roles()
            await interaction.response.send_message(f"{name} ({len(roles)} roles)")

        @tree.command(description="A chain of paced background steps, like bot players")
        async def chain(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("starting")
            assert interaction.channel is not None
            channel = interaction.channel

            async def step(n: int) -> None:
                await asyncio.sleep(1.5)
                await channel.send(f"step {n}")  # type: ignore[union-attr]
                if n < 5:
                    self.background.append(asyncio.create_task(step(n + 1)))

            self.background.append(asyncio.create_task(step(1)))

        @tree.command(description="Raises")
        async def boom(interaction: discord.Interaction[Any]) -> None:
            raise RuntimeError("kaboom")

        @tree.command(description="Ephemeral button")
        async def secret(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("a secret", view=SecretView(), ephemeral=True)

        @tree.command(description="Select")
        async def pick(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("pick fruit", view=PickView())

        @tree.command(description="Times out")
        async def expiring(interaction: discord.Interaction[Any]) -> None:
            view = ExpiringView(timeout=60)
            await interaction.response.send_message("hurry", view=view)
            view.message = await interaction.original_response()

        @tree.command(description="Modal")
        async def feedback(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_modal(Feedback())

        @tree.command(description="Managers only")
        @app_commands.default_permissions(manage_guild=True)
        async def admin(interaction: discord.Interaction[Any]) -> None:
            member = interaction.user
            assert isinstance(member, discord.Member)
            await interaction.response.send_message(
                f"{interaction.permissions.manage_guild} {member.guild_permissions.manage_guild}",
                ephemeral=True,
            )

        game = app_commands.Group(name="game", description="Games")

        @game.command(description="Start a game")
        async def start(
            interaction: discord.Interaction[Any],
            name: str,
            rounds: int,
            opponent: discord.Member,
            fast: bool = False,
        ) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            thread = await interaction.channel.create_thread(
                name=f"{name} vs {opponent.display_name}", type=discord.ChannelType.public_thread
            )
            await thread.send(f"{rounds} rounds, fast={fast}")
            await opponent.send(f"{interaction.user.display_name} challenged you")
            await interaction.response.send_message(f"started in {thread.mention}", ephemeral=True)

        tree.add_command(game)
        await tree.sync()


async def test_slash_click_and_restart() -> None:
    fake = FakeDiscord()
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    games = fake.add_channel("games")

    async with fake.running(DemoBot()):
        assert {c["name"] for c in fake.commands[None]} >= {"ping", "game"}
        await fake.slash(alice, "ping", channel=games)
        (ping,) = fake.public_messages(games)
        assert ping.embeds[0]["title"] == "Pong"
        assert ping.buttons() == [("Bump 1", "demo:1", False)]
        assert fake.last_reply(alice) is ping

        await fake.click(bob, ping, ping.find_button("Bump"))
        assert fake.last_reply(bob).content == "you bumped 1"
        assert fake.last_reply(bob).ephemeral
        assert fake.last_reply(bob).flags & EPHEMERAL
        assert fake.ephemerals(bob)[-1].content == "you bumped 1"
        assert fake.ephemerals(alice) == []
        assert ping.buttons() == [("Bump 2", "demo:2", False)]  # edited in place
        assert fake.public_messages(games)[-1].content == "Bob bumped to 2"

    # "Restart": a fresh bot instance on the same fake keeps the recorded messages.
    async with fake.running(DemoBot()):
        await fake.click(alice, ping, "demo:2")
        assert fake.last_reply(alice).content == "you bumped 2"
        assert ping.buttons()[0].custom_id == "demo:3"

    assert "you bumped 1" not in fake.all_public_text()
    assert "Bump 1" in fake.all_public_text()  # old versions count too
    fake.assert_clean()


async def test_fake_time_never_goes_back_when_the_bot_restarts() -> None:
    """The fake keeps Discord's rate limit windows across a restart, on fake time: had the
    new run's clock started over, a window would reset as far in the future as the last run
    had moved time on, and a post after the restart waited that long in real time."""
    fake = FakeDiscord()
    post = ("POST", f"/channels/{fake.general.id}/messages")
    async with fake.running(DemoBot()):
        await fake.advance(40)
        fake.rate_limits.check(*post)  # a post opens the channel's five-second window
        last_seen = time.monotonic()
    async with fake.running(DemoBot()):
        assert time.monotonic() >= last_seen
        verdict = fake.rate_limits.check(*post)
        assert float(verdict.headers["X-RateLimit-Reset-After"]) <= 5


class SlowStartBot(DemoBot):
    """Its setup waits three seconds, as a bot's first requests wait for its request budget."""

    async def setup_hook(self) -> None:
        await asyncio.sleep(3)
        await super().setup_hook()


async def test_logging_in_waits_in_fake_time() -> None:
    fake = FakeDiscord()
    async with fake.running(SlowStartBot()):
        # Fast-forwarded, not waited: less the real moments the login took before the sleep.
        assert fake._clock is not None and fake._clock.offset > 2.5


async def test_defer_followup_and_leak_detection() -> None:
    fake = FakeDiscord()
    alice = fake.add_user("alice")
    async with fake.running(DemoBot()):
        started = time.perf_counter()
        await fake.slash(alice, "slow")
        assert time.perf_counter() - started < 0.4  # the 0.5 s sleep was fast-forwarded
        reply = fake.last_reply(alice)
        assert reply.content == "done slowly"
        assert not reply.loading and not reply.ephemeral
        assert len(fake.public_messages()) == 1  # the followup replaced the "thinking" message

        await fake.slash(alice, "leaky")
        assert not fake.last_reply(alice).ephemeral
        assert any("ace of spades" in s for s in fake.all_public_text())


async def test_discord_limits_are_enforced() -> None:
    fake = FakeDiscord()
    alice = fake.add_user("alice")
    bot = DemoBot()
    async with fake.running(bot):
        await fake.slash(alice, "huge")
        assert bot.seen_codes == [50035]
        (rejection,) = fake.rejections
        assert rejection.status == 400
        assert "data.embeds.0.description" in str(rejection)
        assert fake.last_reply(alice).content == "too big"

        await fake.slash(alice, "twice")
        assert bot.seen_codes == [50035, 40060]
        assert fake.rejections[-1].code == 40060


async def test_error_logs_are_caught() -> None:
    with pytest.raises(AssertionError, match="kaboom"), capture_error_logs():
        logging.getLogger("discord.test").error("kaboom")

    fake = FakeDiscord()
    alice = fake.add_user("alice")
    with pytest.raises(AssertionError, match="never acknowledged"):
        async with fake.running(DemoBot(), check_errors=False):
            await fake.slash(alice, "boom")
    assert any("kaboom" in str(r.exc_info) for r in fake.error_logs)

    with pytest.raises(AssertionError, match="error"):
        async with fake.running(DemoBot()):
            await fake.slash(alice, "boom", expect_ack=False)


async def test_settle_ignores_long_sleepers_and_old_loops() -> None:
    fake = FakeDiscord()
    alice = fake.add_user("alice")
    bot = DemoBot(sleeper=True)
    async with fake.running(bot):
        ticks_at_start = bot.ticks  # the startup settle stops the 2 s loop at its 60 s budget
        assert 0 < ticks_at_start <= 30
        started = time.perf_counter()
        await fake.slash(alice, "ping")
        await fake.settle()
        await fake.slash(alice, "expiring")  # a 60 s view: must not expire by itself
        await fake.slash(alice, "ping")
        assert time.perf_counter() - started < 0.5
        assert bot.ticks == ticks_at_start  # pre-existing loops are idle for later settles
        assert fake.public_messages()[1].content == "hurry"
        sleeper, _ticker = bot.background
        assert not sleeper.done()
    assert all(t.cancelled() for t in bot.background)  # the "process" died with the bot


async def test_settle_fast_forwards_chains_of_new_tasks() -> None:
    fake = FakeDiscord()
    alice = fake.add_user("alice")
    async with fake.running(DemoBot()):
        started = time.perf_counter()
        await fake.slash(alice, "chain")
        assert time.perf_counter() - started < 0.3  # 7.5 s of sleeps, fast-forwarded
        contents = [m.content for m in fake.public_messages()]
        assert contents == ["starting"] + [f"step {n}" for n in range(1, 6)]


async def test_settle_times_out_on_busy_loop() -> None:
    fake = FakeDiscord()

    async def spin() -> None:
        while True:
            await asyncio.sleep(0)

    task = asyncio.create_task(spin())
    try:
        with pytest.raises(SettleTimeout):
            await fake.settle(timeout=0.05)
    finally:
        task.cancel()


async def test_ephemeral_components_select_modal_timeout() -> None:
    fake = FakeDiscord()
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    async with fake.running(DemoBot()):
        await fake.slash(alice, "secret")
        secret = fake.last_reply(alice)
        assert secret.ephemeral and secret.visible_to == alice.id
        with pytest.raises(PermissionError):
            await fake.click(bob, secret, "secret:reveal")
        await fake.click(alice, secret, "secret:reveal")
        assert secret.content == "revealed: 42" and secret.components == []
        assert "revealed: 42" not in fake.all_public_text()

        await fake.slash(alice, "pick")
        menu = fake.last_reply(alice)
        assert [o["value"] for o in menu.selects()[0]["options"]] == ["apple", "pear", "plum"]
        with pytest.raises(ValueError):
            await fake.select(alice, menu, "pick:fruit", values=["kiwi"])
        await fake.select(alice, menu, "pick:fruit", values=["apple", "plum"])
        assert menu.content == "picked apple, plum"

        await fake.slash(alice, "feedback")
        assert fake.last_modal(alice).title == "Feedback"
        await fake.submit_modal(alice, {"fb:text": "lovely"})
        assert fake.last_reply(alice).content == "thanks for: lovely"

        await fake.slash(alice, "expiring")
        hurry = fake.last_reply(alice)
        await fake.click(alice, hurry, "expiring:quick")
        assert hurry.content == "quick!" and hurry.buttons()  # deferred update + @original edit
        await fake.advance(30)
        assert hurry.content == "quick!"
        await fake.advance(31)
        assert hurry.content == "expired" and hurry.components == []


async def test_options_subcommands_threads_permissions() -> None:
    fake = FakeDiscord()
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", display_name="Bobby")
    mod = fake.add_user("mod", manage_guild=True)
    async with fake.running(DemoBot()):
        await fake.slash(alice, "game start", name="duel", rounds=3, opponent=bob, fast=True)
        thread = fake.channel("duel vs Bobby")
        assert thread.type == 11 and thread.parent_id == fake.general.id
        assert [m.content for m in fake.public_messages(thread)] == ["3 rounds, fast=True"]
        assert fake.last_reply(alice).content == f"started in <#{thread.id}>"
        assert "duel vs Bobby" in fake.all_public_text()
        assert [m.content for m in fake.dms(bob)] == ["Alice challenged you"]
        assert "Alice challenged you" not in fake.all_public_text()

        with pytest.raises(PermissionError):
            await fake.slash(alice, "admin")
        await fake.slash(mod, "admin")
        assert fake.last_reply(mod).content == "True True"

        choices = await fake.autocomplete(alice, "fruit", "name", "Pe")
        assert choices == [{"name": "Pear", "value": "pear"}, {"name": "Peach", "value": "peach"}]
        await fake.slash(alice, "fruit", name="pear")
        assert fake.last_reply(alice).content == "pear (0 roles)"
        assert fake.unknown_routes == [f"GET /guilds/{fake.guild_id}/roles"]
    fake.assert_clean()


@pytest.mark.usefixtures("no_error_logs")
async def test_settle_waits_for_threads_and_rest_rejections() -> None:
    fake = FakeDiscord()
    alice = fake.add_user("alice")
    bot = DemoBot()
    async with fake.running(bot):
        await fake.slash(alice, "threaded")
        assert fake.last_reply(alice).content == "counted 200000"

        await fake.slash(alice, "badrow")
        assert bot.seen_codes == [50035]
        (rejection,) = fake.rejections
        assert rejection.path == f"/channels/{fake.general.id}/messages"
        assert "COMPONENT_CUSTOM_ID_DUPLICATED" in str(rejection.errors)
        assert [m.content for m in fake.public_messages()] == ["counted 200000"]


def _button(custom_id: str, label: str = "ok", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _select(custom_id: str, n: int, **extra: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


@pytest.mark.parametrize(
    ("payload", "where"),
    [
        ({"content": "x" * 2001}, "content"),
        ({"embeds": [{"title": "t"}] * 11}, "embeds"),
        ({"embeds": [{"title": "x" * 257}]}, "title"),
        ({"embeds": [{"description": "x" * 4097}]}, "description"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "fields"),
        ({"embeds": [{"fields": [{"name": "x" * 257, "value": "v"}]}]}, "name"),
        ({"embeds": [{"fields": [{"name": "n", "value": "x" * 1025}]}]}, "value"),
        ({"embeds": [{"footer": {"text": "x" * 2049}}]}, "footer"),
        ({"embeds": [{"author": {"name": "x" * 257}}]}, "author"),
        ({"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]}, "6000"),
        ({"components": [_row(_button(f"b{i}")) for i in range(6)]}, "components"),
        ({"components": [_row(*[_button(f"b{i}") for i in range(6)])]}, "components"),
        ({"components": [_row(_select("s", 2), _button("b"))]}, "width"),
        ({"components": [_row(_button("b"), _button("b"))]}, "duplicated"),
        ({"components": [_row(_button("x" * 101))]}, "custom_id"),
        ({"components": [_row(_button(""))]}, "custom_id"),
        ({"components": [_row(_button("b", label="x" * 81))]}, "label"),
        ({"components": [_row(_select("s", 26))]}, "options"),
        ({"components": [_row(_select("s", 0))]}, "options"),
        ({"components": [_row(_select("s", 2, max_values=3))]}, "max_values"),
        ({"components": [_row(_select("s", 2, min_values=3, max_values=2))]}, "min_values"),
        (
            {
                "components": [
                    _row({**_select("s", 1), "options": [{"label": "x" * 101, "value": "v"}]})
                ]
            },
            "label",
        ),
    ],
)
def test_message_limits(payload: dict[str, Any], where: str) -> None:
    errors = message_errors(payload)
    assert errors
    assert where in str(errors)


def test_valid_message_has_no_errors() -> None:
    payload = {
        "content": "x" * 2000,
        "embeds": [{"title": "t" * 256, "fields": [{"name": "n", "value": "v"}] * 25}],
        "components": [_row(_select("s", 25, max_values=25))]
        + [_row(*[_button(f"b{r}{i}") for i in range(5)]) for r in range(4)],
    }
    assert message_errors(payload) == {}
