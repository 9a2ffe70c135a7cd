"""Self-test of the offline Discord harness against a tiny real ``commands.Bot``."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.discord.harness import (
    EPHEMERAL,
    FakeDiscord,
    SettleTimeout,
    capture_error_logs,
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
    async def reveal(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="revealed: 42", view=None)


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="pick:fruit",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=f, value=f.lower()) for f in ("Apple", "Pear", "Plum")],
    )
    async def pick(self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"picked {', '.join(select.values)}")


class ExpiringView(discord.ui.View):
    message: discord.InteractionMessage | None = None

    @discord.ui.button(label="Quick", custom_id="expiring:quick")
    async def quick(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()

    async def on_timeout(self) -> None:
        assert self.message is not None
        await self.message.edit(content="expired", view=None)


class Feedback(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Your thoughts", custom_id="fb:text")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"thanks for: {self.text.value}", ephemeral=True)


class DemoBot(commands.Bot):
    def __init__(self, *, sleeper: bool = False) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.sleeper = sleeper
        self.seen_codes: list[int] = []
        self.background: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.add_dynamic_items(DemoButton)
        tree = self.tree
        if self.sleeper:
            self.background = asyncio.create_task(asyncio.sleep(3600))

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


async def test_settle_ignores_long_sleepers() -> None:
    fake = FakeDiscord()
    alice = fake.add_user("alice")
    bot = DemoBot(sleeper=True)
    async with fake.running(bot):
        started = time.perf_counter()
        await fake.slash(alice, "ping")
        await fake.settle()
        assert time.perf_counter() - started < 0.5
        assert bot.background is not None and not bot.background.done()
    assert bot.background.cancelled()  # the "process" died with the bot


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
        await fake.advance(30)
        assert hurry.content == "hurry"
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

        with pytest.raises(PermissionError):
            await fake.slash(alice, "admin")
        await fake.slash(mod, "admin")
        assert fake.last_reply(mod).content == "True True"
    fake.assert_clean()
