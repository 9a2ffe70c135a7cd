"""What the fake Discord holds: users, roles, channels, messages, modals, interactions,
and what a user can read on a message."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

import discord

T = TypeVar("T")

EPHEMERAL = 1 << 6
"""Message flag: only the interacting user sees the message."""
LOADING = 1 << 7
"""Message flag: a deferred "Bot is thinking..." placeholder."""
COMPONENTS_V2 = 1 << 15
"""Message flag: the message uses layout components (``discord.ui.LayoutView``)."""

_DISCORD_EPOCH_MS = 1_420_070_400_000
_FIRST_ID_MS = 1_704_067_200_000  # 2024-01-01T00:00:00Z, so ids look like real snowflakes
_SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
_THREAD_TYPES = frozenset({10, 11, 12})

_EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    add_reactions=True,
    embed_links=True,
    attach_files=True,
    external_emojis=True,
    use_application_commands=True,
)
# The invite's (bot.permissions.INVITE_PERMISSIONS): Manage Events for recurring events.
_BOT_PERMISSIONS = discord.Permissions.text() | discord.Permissions(
    view_channel=True, manage_events=True
)
BOT_ROLE_POSITION = 2  # @everyone is 0, the Managers role 1


@dataclass
class FakeUser:
    """A guild member as the fake knows it."""

    id: int
    name: str
    display_name: str
    manage_guild: bool = False
    bot: bool = False
    dms_open: bool = True  # False: they blocked the bot or closed DMs from server members
    roles: list[int] = field(default_factory=list)  # roles of :meth:`FakeDiscord.add_role`
    locale: str = "en-US"  # their Discord client's language, sent with each interaction

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(frozen=True)
class FakeRole:
    """A server role without permissions of its own (a slash option may name it).
    ``position``: its place in the role list (the bot's own role is at ``BOT_ROLE_POSITION``);
    None: above the bot's, in the order the roles were added."""

    id: int
    name: str
    position: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass
class FakeChannel:
    """A text channel (type 0), a thread (11 public / 12 private) or a DM (type 1)."""

    id: int
    name: str
    type: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    member_ids: set[int] = field(default_factory=set)
    archived: bool = False  # a thread Discord archived for inactivity: posting there fails

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_public(self) -> bool:
        """Whether every guild member can read this channel (text channels, public threads)."""
        return self.type in (0, 5, 11)


class ButtonInfo(NamedTuple):
    """A button as a user sees it: ``(label, custom_id, disabled)``."""

    label: str | None
    custom_id: str | None
    disabled: bool


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes = b""


@dataclass
class FakeMessage:
    """A message as recorded by the fake.

    The object is *live*: edits update it in place and push the previous version (as the JSON
    dict discord.py got) onto :attr:`history`.
    """

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    """``None`` when everyone in the channel sees it, otherwise the one user who does."""
    attachments: list[FakeAttachment] = field(default_factory=list)
    interaction_id: int | None = None
    type: int = 0
    pinned: bool = False
    deleted: bool = False
    edited: bool = False
    reactions: list[str] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred "thinking" placeholder that was never filled in."""
        return bool(self.flags & LOADING)

    def buttons(self) -> list[ButtonInfo]:
        """All buttons, in display order (including section accessories)."""
        return [
            ButtonInfo(c.get("label"), c.get("custom_id"), bool(c.get("disabled", False)))
            for c in _walk_components(self.components)
            if c.get("type") == 2
        ]

    def links(self) -> list[str]:
        """The addresses of its link buttons (style 5), in display order."""
        return [
            c["url"]
            for c in _walk_components(self.components)
            if c.get("type") == 2 and c.get("url")
        ]

    def selects(self) -> list[dict[str, Any]]:
        """The raw dicts of every select menu (string, user, role, mentionable, channel)."""
        return [c for c in _walk_components(self.components) if c.get("type") in _SELECT_TYPES]

    def find_button(self, label_substring: str) -> ButtonInfo:
        """The first button whose label contains ``label_substring``."""
        for button in self.buttons():
            if button.label is not None and label_substring in button.label:
                return button
        labels = [b.label for b in self.buttons()]
        raise LookupError(
            f"no button containing {label_substring!r} in message {self.id}: {labels}"
        )

    def strings(self) -> list[str]:
        """Every visible string: content, embed texts, component labels/texts."""
        return _visible_strings(self.content, self.embeds, self.components)

    def text(self) -> str:
        """All visible text, newline-joined."""
        return "\n".join(self.strings())


@dataclass
class FakeModal:
    """A modal shown to a user in answer to one of their interactions."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    user_id: int
    interaction: FakeInteraction = field(repr=False, compare=False)
    """The interaction that opened the modal."""

    def fields(self) -> list[dict[str, Any]]:
        """The text inputs / selects of the modal."""
        return [c for c in _walk_components(self.components) if c.get("type") in (3, 4, 5, 6, 7, 8)]


@dataclass
class FakeInteraction:
    """One interaction sent to the bot and what the bot did with it."""

    id: int
    token: str
    type: int
    """2 application command, 3 component, 4 autocomplete, 5 modal submit."""
    user: FakeUser
    channel_id: int
    source_message_id: int | None = None
    name: str = ""
    """Command name or the custom_id that was used."""
    response_type: int | None = None
    """The callback type the bot answered with (4, 5, 6, 7, 8, 9) or ``None``."""
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    reply_ids: list[int] = field(default_factory=list)
    """Ids of messages created/edited through this interaction's token, oldest first."""
    autocomplete_choices: list[dict[str, Any]] | None = None
    modal: FakeModal | None = None
    sent_at: float | None = None
    """The event loop's (fake) time the interaction was sent at: Discord refuses a first
    answer more than 3 seconds later."""

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None


@dataclass
class Rejection:
    """A request the fake refused, as Discord would have."""

    method: str
    path: str
    status: int
    code: int
    message: str
    errors: dict[str, Any]
    body: Any

    def __str__(self) -> str:
        flat = discord.errors._flatten_error_dict(self.errors) if self.errors else {}
        detail = "; ".join(f"{k}: {v}" for k, v in flat.items())
        return f"{self.method} {self.path} -> {self.status} {self.message} ({self.code}) {detail}"


@dataclass
class RecordedRequest:
    method: str
    path: str
    body: Any
    params: dict[str, str]


def _walk_components(components: Iterable[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """Depth-first over components, including section accessories and label children."""
    for component in components:
        yield component  # type: ignore[misc]
        yield from _walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, Mapping):
                yield from _walk_components([child])


def _embed_strings(embeds: Iterable[Mapping[str, Any]]) -> list[str]:
    out: list[str] = []
    for embed in embeds:
        out.append((embed.get("author") or {}).get("name") or "")
        out.append(embed.get("title") or "")
        out.append(embed.get("description") or "")
        for f in embed.get("fields") or []:
            out.extend((f.get("name") or "", f.get("value") or ""))
        out.append((embed.get("footer") or {}).get("text") or "")
    return [s for s in out if s]


def _component_strings(components: Iterable[Mapping[str, Any]]) -> list[str]:
    out: list[str] = []
    for c in _walk_components(components):
        for key in ("label", "placeholder", "content", "description", "title"):
            value = c.get(key)
            if isinstance(value, str) and value:
                out.append(value)
        for option in c.get("options") or []:
            out.extend(s for s in (option.get("label"), option.get("description")) if s)
    return out


def _visible_strings(
    content: str | None,
    embeds: Iterable[Mapping[str, Any]],
    components: Iterable[Mapping[str, Any]],
) -> list[str]:
    return [
        s for s in [content or "", *_embed_strings(embeds), *_component_strings(components)] if s
    ]


def _iso(moment: datetime.datetime) -> str:
    return moment.isoformat()
