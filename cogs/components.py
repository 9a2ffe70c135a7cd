"""What every cog's commands and components share: who clicked, a guard that turns any
failure into a sentence, answering privately, views that leave nothing behind.

Every button and select is a DynamicItem. A custom_id carries only a match id, a verb, and
for moves the decision's stamp and option indexes (or, in a race, a card kind lying face up
for all to see): never a card from a hand, never a user id (who clicked comes from Discord,
checked in the service). DynamicItems need no per-message registry, so buttons sent before
a restart keep working after it.

This module imports no cog: cogs import it.
"""

from __future__ import annotations

import contextlib
import logging
import re
import weakref
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

import discord
from discord import app_commands

from bot.errors import UserError
from bot.service import MatchService, Person
from bot.web.paths import WebLinks
from cogs.acknowledge import acknowledged_in_time
from cogs.speech import label as label_in
from cogs.speech import personal, say
from games.core.levels import LEVEL_HINTS, LEVEL_NAMES, LEVELS, Level
from games.core.protocol import IllegalAction
from games.core.text import Text, t, tc
from games.core.translations import ENGLISH

T = TypeVar("T")

log = logging.getLogger(__name__)

MID = r"(?P<mid>[0-9a-f]{10})"
LEVEL = r"(?P<level>easy|normal|hard)"  # a bot's level in a custom id (games/core/levels.py)
# A command's ``level:`` choices: each level named with what it means.
LEVEL_CHOICES = [
    app_commands.Choice(
        name=t("{level}: {hint}", level=LEVEL_NAMES[level], hint=LEVEL_HINTS[level]), value=level
    )
    for level in LEVELS
]
OOPS = t("Something went wrong on our side. Please try again in a moment.")
UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction answered too late
UNKNOWN_MESSAGE = 10008  # Discord's code for a message that is gone


def person(interaction: discord.Interaction) -> Person:
    user = interaction.user
    perms = getattr(interaction, "permissions", None)
    return Person(
        user_id=user.id,
        name=getattr(user, "display_name", user.name),
        can_manage=bool(perms and perms.manage_guild),
    )


def service_of(interaction: discord.Interaction) -> MatchService:
    return interaction.client.service  # type: ignore[attr-defined]


class PerClient(Generic[T]):
    """One object per client, given by the extension that owns it when it loads: a typed
    slot in place of an attribute set on the bot at run time. Held weakly: it goes with
    its client."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._held: weakref.WeakKeyDictionary[discord.Client, T] = weakref.WeakKeyDictionary()

    def give(self, client: discord.Client, value: T) -> None:
        self._held[client] = value

    def get(self, client: discord.Client) -> T | None:
        return self._held.get(client)

    def of(self, client: discord.Client) -> T:
        found = self._held.get(client)
        if found is None:
            raise LookupError(f"{self.what} is not set up for this bot (is its extension loaded?)")
        return found


class Explains(Protocol):
    """Answers a refused click (a sentence, or more: the table sends the current hand
    after a stale click)."""

    def __call__(
        self, interaction: discord.Interaction, text: str, error: Exception
    ) -> Awaitable[None]: ...  # text: a Text, rendered in the clicker's language


EXPLAINERS: PerClient[Explains] = PerClient("the explainer of refused clicks")


def components_view() -> discord.ui.View:
    """A view that only carries our components, stopped before it is sent.

    Every component is a DynamicItem: discord.py rebuilds it from the clicked message, so
    no view needs to listen. A stopped view is never put in discord.py's view store; an
    ephemeral one otherwise stays alive 15 minutes with a timeout task, and thousands of
    them made full garbage collections pause for seconds under load."""
    view = _SentOnce(timeout=None)
    view.stop()
    return view


def links_of(interaction: discord.Interaction) -> WebLinks:
    return interaction.client.web_links  # type: ignore[attr-defined, no-any-return]


async def add_web_link(
    view: discord.ui.View, links: WebLinks, guild_id: int | None, *parts: str, language: str
) -> None:
    """A link button to the server's web page of this table, replay or event, when the
    server turned its page on (``/settings web:on``); nothing otherwise."""
    url = await links.link(guild_id, *parts)
    if url is None:
        return
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        style=discord.ButtonStyle.link,
        url=url,
        label=label_in(t("Web page"), language),
        emoji="🌐",
    )
    # A full message keeps its buttons: the link is a convenience.
    with contextlib.suppress(ValueError):
        view.add_item(button)


class FreesClickedView:
    """Mixed into every DynamicItem of ours. To find the clicked item discord.py rebuilds the
    whole clicked message as a view, whose items point back at it: a cycle only a collection
    frees, on every click. None of our callbacks reads that view, so it is emptied before
    the callback runs and dies with its last reference."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        view = getattr(self, "view", None)
        if view is not None:
            view.clear_items()
        return True


class GuardedClick(FreesClickedView):
    """Mixed into a DynamicItem whose click is its ``_run``: a click must always be answered,
    so whatever ``_run`` raises is turned into a sentence by ``guarded``."""

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


Look = tuple[Text, discord.ButtonStyle, str]  # a button's label, style and emoji
# Wherever one signs up (a lobby, an event) these buttons look the same, so that a player
# who learnt one knows the other.
SIGNUP_LOOK: dict[str, Look] = {
    "join": (tc("button", "Join"), discord.ButtonStyle.success, "🙋"),
    "leave": (tc("button", "Leave"), discord.ButtonStyle.secondary, "🚪"),
    "bot": (tc("button", "Add bot"), discord.ButtonStyle.secondary, "🤖"),
    "start": (tc("button", "Start"), discord.ButtonStyle.primary, "▶️"),
    "cancel": (tc("button", "Cancel"), discord.ButtonStyle.danger, "✖️"),
}


class VerbButton(GuardedClick):
    """Mixed into a row of buttons on one thing (a lobby, an event), each a verb:
    ``cj:<PREFIX>:<key>:<verb>``, looking as ``LOOK`` says, its key read back from the
    template's group ``KEY``. A mixin, placed before ``discord.ui.DynamicItem[...]``, and not
    a base: discord.py asks every DynamicItem subclass for its own template."""

    PREFIX: ClassVar[str]
    KEY: ClassVar[str]
    LOOK: ClassVar[dict[str, Look]]

    def __init__(self, key: str, verb: str, language: str = ENGLISH) -> None:
        # ``language``: the message's readers'; one rebuilt from a click is never shown.
        label, style, emoji = self.LOOK[verb]
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label_in(label, language),
            style=style,
            emoji=emoji,
            custom_id=f"cj:{self.PREFIX}:{key}:{verb}",
        )
        super().__init__(button)  # type: ignore[call-arg]  # DynamicItem's, next in the MRO
        self.key, self.verb = key, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> Self:
        return cls(match[cls.KEY], match["verb"])


class _SentOnce(discord.ui.View):
    """A view emptied once discord.py has turned it into a message's components, whose
    items keep no reference back to it. An item pointing back at its view makes a cycle,
    garbage only a collection frees: under load, tens of thousands of objects a second that
    made every collection longer. A view built and never sent (a table edit replaced by a
    newer one before its turn) was still such a cycle: 3,000 views a minute at 300 tables,
    and a frozen one is never freed (bot/collector.py). Nothing dispatches a click to these
    items (each is a DynamicItem, rebuilt from the clicked message), so none needs its view."""

    def add_item(self, item: discord.ui.Item[Any]) -> Self:
        super().add_item(item)
        item._update_view(None)
        return self

    def to_components(self) -> list[dict[str, Any]]:
        components = super().to_components()
        self.clear_items()
        return components


def level_picker(
    custom_id: Callable[[Level], str], current: Level, said: str, language: str
) -> dict[str, Any]:
    """Add bot's private answer: what it did (``said``), and one button a level to pick how
    hard the bot plays (``custom_id`` names each), its level now highlighted."""
    view = components_view()
    for level in LEVELS:
        style = discord.ButtonStyle.primary if level == current else discord.ButtonStyle.secondary
        view.add_item(
            discord.ui.Button(
                label=label_in(LEVEL_NAMES[level], language),
                style=style,
                custom_id=custom_id(level),
            )
        )
    lines = [say(said, language), say(t("How hard should it play?"), language)]
    lines += [
        say(t("**{level}**: {hint}", level=LEVEL_NAMES[level], hint=LEVEL_HINTS[level]), language)
        for level in LEVELS
    ]
    return {"content": " ".join(lines[:2]) + "\n" + "\n".join(lines[2:]), "view": view}


class PicksLevel(GuardedClick):
    """Mixed into the level buttons of Add bot's answers (a lobby's, a tournament's): the
    pick is made, and the answer says so and keeps the buttons for another pick."""

    level: Level

    def ids(self) -> Callable[[Level], str]:
        raise NotImplementedError

    async def pick(self, interaction: discord.Interaction) -> str:
        """Make the pick; what it did, in a sentence."""
        raise NotImplementedError

    def button(self) -> discord.ui.Button:  # type: ignore[type-arg]
        return discord.ui.Button(label=LEVEL_NAMES[self.level], custom_id=self.ids()(self.level))

    async def _run(self, interaction: discord.Interaction) -> None:
        said = await self.pick(interaction)
        language = await personal(interaction)
        await interaction.response.edit_message(
            **level_picker(self.ids(), self.level, said, language)
        )


def level_of(choice: app_commands.Choice[str] | None) -> Level | None:
    """A command's ``level:`` as a level; None when it was left out (the server's default)."""
    if choice is None:
        return None
    if choice.value not in LEVELS:
        raise UserError(t("Pick a level from the list: Easy, Normal or Hard."))
    return choice.value  # type: ignore[return-value]


async def tell(interaction: discord.Interaction, text: str, **extra: Any) -> None:
    """An ephemeral sentence (a ``Text``), in the reader's language, whether or not the
    interaction was answered already."""
    text = say(text, await personal(interaction))
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(text, ephemeral=True, **extra)


def match_id_of(interaction: discord.Interaction) -> str | None:
    """The match a component's custom_id names (``cj:<verb>:<match>...``), if any."""
    custom_id = str((interaction.data or {}).get("custom_id", ""))  # type: ignore[union-attr]
    found = re.search(rf"^cj:[a-z]+:{MID}", custom_id)
    return found["mid"] if found else None


def came_too_late(error: BaseException) -> bool:
    """Discord refused the answer: its 3 seconds had passed (10062 Unknown interaction)."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def message_gone(error: BaseException) -> bool:
    """The message an answer would edit is gone (10008 Unknown Message): replaced or
    deleted while the answer was on its way."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_MESSAGE


async def guarded(interaction: discord.Interaction, work: Any) -> None:
    """Run a handler; any failure becomes a short ephemeral sentence, never a silent fail.
    The outermost one lets go of the interaction once it is handled (``let_go``)."""
    outermost = not _GUARDING.get()
    token = _GUARDING.set(True)
    client = getattr(interaction, "client", None)
    runtime = getattr(client, "runtime", None) if outermost else None
    try:
        with runtime.answering() if runtime is not None else contextlib.nullcontext():
            await _guarded(
                interaction,
                acknowledged_in_time(interaction, work, urgent=waited_on(interaction))
                if outermost
                else work,
            )
    finally:
        _GUARDING.reset(token)
        if outermost:
            let_go(interaction)


_GUARDING: ContextVar[bool] = ContextVar("guarding", default=False)


def waited_on(interaction: discord.Interaction) -> bool:
    """Under overload a click is answered before the others waiting unless it is on a
    running match that waits on someone else (a look by a person with nothing to do, a
    spectator's): a move, Show hand to make it, a lobby's Start or a Rematch go first."""
    service = getattr(getattr(interaction, "client", None), "service", None)
    if service is None:
        return False
    match_id = match_id_of(interaction)
    return match_id is None or not service.waits_on_others(match_id, interaction.user.id)


async def _guarded(interaction: discord.Interaction, work: Any) -> None:
    try:
        try:
            await work
        except (UserError, IllegalAction) as exc:
            explain = EXPLAINERS.get(interaction.client)
            if explain is None:
                await tell(interaction, exc.text)
            else:
                await explain(interaction, exc.text, exc)
    except Exception as exc:
        if came_too_late(exc):
            # Whatever the handler saved stands; only its answer is lost, and nobody is
            # left to tell (the interaction's token died with it).
            log.warning(
                "answer to interaction %s (match %s) came too late; Discord refused it",
                getattr(interaction, "id", "?"),
                match_id_of(interaction),
            )
            return
        if message_gone(exc) and interaction.response.is_done():
            # Acknowledged first and answered later, in a message deleted meanwhile (a hand
            # view a newer one replaced): what the handler saved stands.
            log.info(
                "the message interaction %s (match %s) would answer in is gone",
                getattr(interaction, "id", "?"),
                match_id_of(interaction),
            )
            return
        log.exception("interaction %s failed", getattr(interaction, "id", "?"))
        try:
            await tell(interaction, OOPS)
        except discord.HTTPException:
            log.warning("could not tell the user about the failure")


def let_go(interaction: discord.Interaction) -> None:
    """A handled interaction and the response object discord.py caches on it point at each
    other, so the interaction, its message, member and components were garbage only a
    collection frees: on every click, most of what full collections had to free under load.
    Dropping the cached response once the handler is done (nothing answers it after that)
    lets them die with their last reference. ``_cs_response`` is discord.py's cache slot for
    ``Interaction.response``; a test fails if a new version names it otherwise."""
    with contextlib.suppress(AttributeError):
        del interaction._cs_response


def page_button(
    slot: str, labels: tuple[str, str], custom_id: str, language: str, *, disabled: bool = False
) -> discord.ui.Button[Any]:
    """One arrow of a paged message (/history, /leaderboard, a round's pairings): slot a
    goes back (◀ and the first label), b goes on (▶ and the second)."""
    label, emoji = (labels[0], "◀") if slot == "a" else (labels[1], "▶")
    return discord.ui.Button(
        label=label_in(label, language),
        emoji=emoji,
        style=discord.ButtonStyle.secondary,
        disabled=disabled,
        custom_id=custom_id,
    )
