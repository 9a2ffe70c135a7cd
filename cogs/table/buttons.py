"""The table's buttons and selects: the lobby's, the hand view's, Show hand, Rematch, and a
player's own "always ask me" switch.

What a click does is asked of ``TableClicks`` (the presenter's click handlers, given by
``cogs.table`` when it loads): the buttons do not import the presenter that draws them.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot.errors import AlreadySeated, UserError
from bot.service import MatchService, Person
from bot.store import MatchRecord
from cogs.components import (
    LEVEL,
    MID,
    SIGNUP_LOOK,
    FreesClickedView,
    GuardedClick,
    PerClient,
    PicksLevel,
    VerbButton,
    components_view,
    guarded,
    level_picker,
    person,
    service_of,
)
from cogs.render import MORE, PACE, SWITCHES, seat_name
from cogs.speech import label as label_in
from cogs.speech import personal, say
from games.core.levels import LEVEL_NAMES, Level
from games.core.text import t, tc
from games.core.translations import ENGLISH


class TableClicks(Protocol):
    """What a click on the table asks for, answered by the presenter."""

    async def show_hand(self, interaction: discord.Interaction, match_id: str) -> None: ...

    async def rematch(self, interaction: discord.Interaction, match_id: str) -> None: ...

    async def spectate(self, interaction: discord.Interaction, match_id: str) -> None: ...

    async def im_back(self, interaction: discord.Interaction, match_id: str) -> None: ...

    async def details(self, interaction: discord.Interaction, match_id: str) -> None: ...

    async def move(
        self, interaction: discord.Interaction, match_id: str, stamp: str, picks: list[int]
    ) -> None: ...

    async def grab(
        self, interaction: discord.Interaction, match_id: str, race: str, action: str
    ) -> None: ...

    async def on_table(
        self,
        interaction: discord.Interaction,
        match_id: str,
        change: Awaitable[MatchRecord],
        *,
        command: bool = False,
    ) -> MatchRecord: ...


CLICKS: PerClient[TableClicks] = PerClient("the table's click handlers")


def clicks_of(interaction: discord.Interaction) -> TableClicks:
    return CLICKS.of(interaction.client)


class LobbyButton(
    VerbButton,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:lobby:{MID}:(?P<verb>join|leave|bot|start|cancel)",
):
    """The lobby's Join, Leave, Add bot, Start and Cancel."""

    PREFIX, KEY, LOOK = "lobby", "mid", SIGNUP_LOOK

    async def _run(self, interaction: discord.Interaction) -> None:
        """Each verb changes the lobby, which the click's answer redraws (free); Join and
        Add bot then say privately what more there is (a follow-up, free too)."""
        service, who, match_id = service_of(interaction), person(interaction), self.key
        clicks = clicks_of(interaction)
        if self.verb == "join":
            # The seat first; then, in its own control, the player's switch for lone passes
            # (said here once, privately, not in every public lobby). Pressing Join again
            # only shows it.
            said: list[str] = []
            await clicks.on_table(interaction, match_id, joined(service, match_id, who, said))
            mine = await service.user_settings(who.user_id)
            language = await personal(interaction)
            await interaction.followup.send(
                ephemeral=True, **always_ask_message(mine.always_ask, language, said[0])
            )
            return
        if self.verb == "bot":
            # Added at the server's level; the private answer offers the others.
            record = await clicks.on_table(interaction, match_id, service.add_bot(match_id, who))
            bot = record.seats[-1]
            said_bot = t("{bot} takes seat {seat}.", bot=seat_name(bot), seat=len(record.seats))
            language = await personal(interaction)
            picker = level_picker(bot_level_ids(match_id, bot.name), bot.level, said_bot, language)
            await interaction.followup.send(ephemeral=True, **picker)
            return
        verb = {
            "leave": service.leave,
            "start": service.start,
            "cancel": service.cancel,
        }[self.verb]
        # Start turns the lobby into the table in its answer: within Discord's 3 seconds
        # however many pings wait for the budget.
        await clicks.on_table(interaction, match_id, verb(match_id, who))


def bot_level_ids(match_id: str, name: str) -> Callable[[Level], str]:
    """The custom ids of the level buttons for the lobby's bot ``name`` ("🤖 Abe")."""
    return lambda level: f"cj:botlevel:{match_id}:{name.removeprefix('🤖 ')}:{level}"


class BotLevelButton(
    PicksLevel,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:botlevel:{MID}:(?P<bot>[A-Za-z]{{1,12}}):{LEVEL}",
):
    """A level in Add bot's private answer: the lobby's bot plays at it."""

    def __init__(self, match_id: str, bot: str, level: Level) -> None:
        self.match_id, self.bot, self.level = match_id, f"🤖 {bot}", level
        super().__init__(self.button())

    def ids(self) -> Callable[[Level], str]:
        return bot_level_ids(self.match_id, self.bot)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> BotLevelButton:
        return cls(match["mid"], match["bot"], match["level"])

    async def pick(self, interaction: discord.Interaction) -> str:
        service = service_of(interaction)
        await service.set_bot_level(self.match_id, person(interaction), self.bot, self.level)
        return t("{bot} plays at {level}.", bot=self.bot, level=LEVEL_NAMES[self.level])


async def joined(service: MatchService, match_id: str, who: Person, said: list[str]) -> MatchRecord:
    """Join: the seat taken, or the one already held (nothing else changes); ``said``
    gets the sentence that answers it."""
    try:
        record = await service.join(match_id, who)
        seat = (record.seat_of(who.user_id) or 0) + 1
        said.append(t("🙋 You're in (seat {seat}).", seat=seat))
    except AlreadySeated:
        record = await service.get(match_id)
        seat = (record.seat_of(who.user_id) or 0) + 1
        said.append(t("🙋 You're already in (seat {seat}).", seat=seat))
    return record


class LobbyOption(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"cj:lopt:{MID}:(?P<field>_?[a-z_]{{1,40}})",
):
    """The host's select for one option of the game (how it ends, variants...)."""

    def __init__(self, match_id: str, field: str, select: discord.ui.Select) -> None:
        super().__init__(select)
        self.match_id, self.field = match_id, field

    @classmethod
    def build(
        cls, match_id: str, field: str, choices: list[tuple[str, str, bool, str]], language: str
    ) -> LobbyOption:
        many = field == SWITCHES  # every on/off rule in one select: pick the ones you want
        shared = field == MORE  # several fields: the current ones are named in the placeholder
        placeholder = label_in(t("Advanced rules: none (pick any)"), language) if many else None
        if shared:
            placeholder = " · ".join(
                label_in(label, language) for _, label, current, _ in choices if current
            )[:150]
        return cls(
            match_id,
            field,
            discord.ui.Select(
                custom_id=f"cj:lopt:{match_id}:{field}",
                placeholder=placeholder,
                min_values=0 if many else 1,
                max_values=len(choices) if many else 1,
                options=[
                    discord.SelectOption(
                        label=label_in(label, language)[:100],
                        value=value,
                        default=current and not shared,
                        description=label_in(description, language)[:100] or None,
                    )
                    for value, label, current, description in choices
                ],
            ),
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> LobbyOption:
        return cls(match["mid"], match["field"], item)  # Discord's item carries the values

    async def _run(self, interaction: discord.Interaction) -> None:
        # The answer to the pick shows it (a Start pressed a moment later sees it too).
        await clicks_of(interaction).on_table(interaction, self.match_id, self._pick(interaction))

    async def _pick(self, interaction: discord.Interaction) -> MatchRecord:
        values = self.item.values  # type: ignore[attr-defined]
        service, who = service_of(interaction), person(interaction)
        if self.field == SWITCHES:
            return await service.set_switches(self.match_id, who, set(values))
        if self.field == PACE and values:
            return await service.set_pace(self.match_id, who, values[0])
        if self.field == MORE and values:
            name, _, value = values[0].partition("=")
            return await service.set_option(self.match_id, who, name, value)
        if values:
            return await service.set_option(self.match_id, who, self.field, values[0])
        raise UserError(t("Pick one of the choices."))


class TableButton(
    FreesClickedView,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:(?P<verb>hand|rematch|watch|back|more):{MID}",
):
    """A button that needs nothing but the match: Show hand (or Refresh), Rematch,
    Spectate, I'm back."""

    LOOK = {
        "hand": (tc("button", "Show hand"), discord.ButtonStyle.primary, "🃏"),
        "rematch": (tc("button", "Rematch"), discord.ButtonStyle.success, "🔁"),
        "watch": (tc("button", "Spectate"), discord.ButtonStyle.secondary, "👀"),
        "back": (tc("button", "I'm back"), discord.ButtonStyle.success, "👋"),
        "more": (tc("button", "More"), discord.ButtonStyle.secondary, "📚"),
    }

    def __init__(
        self,
        verb: str,
        match_id: str,
        label: str | None = None,
        style: discord.ButtonStyle | None = None,
        language: str = ENGLISH,
    ) -> None:
        default_label, default_style, emoji = self.LOOK[verb]
        super().__init__(
            discord.ui.Button(
                label=label_in(label or default_label, language)[:80],
                style=style or default_style,
                emoji=emoji,
                custom_id=f"cj:{verb}:{match_id}",
            )
        )
        self.verb, self.match_id = verb, match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> TableButton:
        return cls(match["verb"], match["mid"])

    async def callback(self, interaction: discord.Interaction) -> None:
        clicks = clicks_of(interaction)
        handler = {
            "hand": clicks.show_hand,
            "rematch": clicks.rematch,
            "watch": clicks.spectate,
            "back": clicks.im_back,
            "more": clicks.details,
        }[self.verb]
        await guarded(interaction, handler(interaction, self.match_id))


class MoveButton(
    FreesClickedView,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:do:{MID}:(?P<stamp>[0-9a-z]{{1,8}}):(?P<index>\d{{1,3}})",
):
    def __init__(
        self,
        match_id: str,
        stamp: str,
        index: int,
        label: str = "Move",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        language: str = ENGLISH,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label_in(label, language)[:80],
                style=style,
                custom_id=f"cj:do:{match_id}:{stamp}:{index}",
                row=row,
            )
        )
        self.match_id, self.stamp, self.index = match_id, stamp, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> MoveButton:
        return cls(match["mid"], match["stamp"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(
            interaction,
            clicks_of(interaction).move(interaction, self.match_id, self.stamp, [self.index]),
        )


class MoveSelect(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"cj:pick:{MID}:(?P<stamp>[0-9a-z]{{1,8}}):(?P<row>\d)",
):
    """A select of moves (several moves of one kind, or a multi-pick decision)."""

    def __init__(self, match_id: str, stamp: str, row: int, select: discord.ui.Select) -> None:
        super().__init__(select)
        self.match_id, self.stamp = match_id, stamp

    @classmethod
    def build(
        cls,
        match_id: str,
        stamp: str,
        row: int,
        placeholder: str,
        options: list[tuple[str, str, str]],
        language: str,
        *,
        picks: tuple[int, int] = (1, 1),
    ) -> MoveSelect:
        """A select of a decision's options: ``(value, label, description)`` rows whose
        value names an option number; Discord asks for ``picks`` rows."""
        select = discord.ui.Select(
            custom_id=f"cj:pick:{match_id}:{stamp}:{row}",
            placeholder=label_in(placeholder, language)[:150],
            min_values=min(picks[0], len(options)),
            max_values=min(picks[1], len(options)),
            options=[
                discord.SelectOption(
                    label=label_in(label, language)[:100],
                    value=value,
                    description=label_in(description, language)[:100] or None,
                )
                for value, label, description in options
            ],
            row=row,
        )
        return cls(match_id, stamp, row, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> MoveSelect:
        return cls(match["mid"], match["stamp"], int(match["row"]), select=item)

    async def _run(self, interaction: discord.Interaction) -> None:
        try:
            values = self.item.values  # type: ignore[attr-defined]
            # "3.4": a row for two identical cards, in selects sent before a row was
            # one card; they stay good while their decision stands.
            picks = [int(n) for value in values for n in value.split(".")]
        except ValueError:
            raise UserError(t("That choice could not be read; open your hand again.")) from None
        await clicks_of(interaction).move(interaction, self.match_id, self.stamp, picks)


class RaceButton(
    FreesClickedView,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:grab:{MID}:(?P<race>[0-9a-z]{{1,8}}):(?P<action>[A-Za-z0-9_.-]{{1,60}})",
):
    """A card lying face up on the public table in a race: the first click takes it.

    Its custom_id holds the race's stamp and the grab's action, which names only what
    everyone can see in the middle; who clicked comes from Discord."""

    def __init__(
        self,
        match_id: str,
        race: str,
        action: str,
        label: str = "Grab",
        *,
        disabled: bool = False,
        row: int | None = None,
        language: str = ENGLISH,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label_in(label, language)[:80],
                style=discord.ButtonStyle.secondary if disabled else discord.ButtonStyle.success,
                custom_id=f"cj:grab:{match_id}:{race}:{action}",
                disabled=disabled,
                row=row,
            )
        )
        self.match_id, self.race_stamp, self.action = match_id, race, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RaceButton:
        return cls(match["mid"], match["race"], match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(
            interaction,
            clicks_of(interaction).grab(interaction, self.match_id, self.race_stamp, self.action),
        )


def always_ask_message(on: bool, language: str, note: str | None = None) -> dict[str, Any]:
    """A player's own switch: is a decision with nothing to choose answered for them?"""
    if on:
        text = t("**Always ask me: on.** You're asked even when passing is your only move.")
    else:
        text = t("**Always ask me: off.** A lone Pass is played for you after a moment.")
    view = components_view()
    view.add_item(AskButton(not on, language))
    said = say(text, language)
    return {"content": f"{say(note, language)}\n{said}" if note else said, "view": view}


class AskButton(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cj:ask:(?P<on>[01])",
):
    """Turns the clicker's "always ask me" on or off, in every match (a user setting)."""

    def __init__(self, on: bool, language: str = ENGLISH) -> None:
        words = t("Always ask me") if on else t("Pass for me when it is my only move")
        super().__init__(
            discord.ui.Button(
                label=label_in(words, language),
                style=discord.ButtonStyle.secondary,
                emoji="🔔" if on else "⏩",  # not Join's 🙋: a different control
                custom_id=f"cj:ask:{int(on)}",
            )
        )
        self.on = on

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> AskButton:
        return cls(match["on"] == "1")

    async def _run(self, interaction: discord.Interaction) -> None:
        await service_of(interaction).set_always_ask(interaction.user.id, self.on)
        language = await personal(interaction)
        await interaction.response.edit_message(**always_ask_message(self.on, language))


class LeaveButton(
    GuardedClick,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"cj:quit:{MID}",
):
    """/leave's confirmation: the seat goes to a bot for good."""

    def __init__(self, match_id: str, language: str = ENGLISH) -> None:
        super().__init__(
            discord.ui.Button(
                label=label_in(t("Leave for good"), language),
                style=discord.ButtonStyle.danger,
                emoji="🚪",
                custom_id=f"cj:quit:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LeaveButton:
        return cls(match["mid"])

    async def _run(self, interaction: discord.Interaction) -> None:
        # Leaving may end the match, and a tournament table's end posts results and
        # standings before the answer: past Discord's 3 seconds when its channel is busy.
        await interaction.response.defer()
        record = await service_of(interaction).leave_match(self.match_id, interaction.user.id)
        if record.status == "cancelled":
            text = t("You left; nobody is left to play, so the match has ended.")
        elif record.status == "finished":
            text = t("You left, so the match has ended: you are last, as a forfeit.")
        else:
            text = t("You left the match. A bot plays your seat to the end, for good.")
        language = await personal(interaction)
        await interaction.edit_original_response(content=say(text, language), view=None)


DYNAMIC_ITEMS = (
    BotLevelButton,
    LeaveButton,
    LobbyButton,
    LobbyOption,
    TableButton,
    MoveButton,
    MoveSelect,
    RaceButton,
    AskButton,
)
