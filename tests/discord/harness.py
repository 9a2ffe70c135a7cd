"""Offline Discord: drive a real ``discord.ext.commands.Bot`` through discord.py with no network.

Usage
=====

::

    fake = FakeDiscord()                       # guild + "general" channel
    alice = fake.add_user("alice")
    mod = fake.add_user("mod", manage_guild=True)
    games = fake.add_channel("games")
    async with fake.running(make_bot()):       # login + setup_hook + ready; closes the bot after
        await fake.slash(alice, "play", channel=games, game="cover_your_assets")
        panel = fake.public_messages(games)[-1]
        await fake.click(alice, panel, panel.find_button("Join"))
        assert fake.last_reply(alice).ephemeral
        await fake.select(alice, panel, "pick", values=["1", "2"])
    async with fake.running(make_bot()):       # "restart": recorded messages survive
        await fake.click(mod, panel, "some:custom:id")
    assert "secret" not in "\n".join(fake.all_public_text())
    fake.assert_clean()                        # no rejected payloads, no unanswered interactions

How it works
============

:class:`FakeDiscord` plays the Discord side of the conversation.  ``fake.running(bot)``

1. patches the two choke points through which discord.py talks HTTP (undone on exit):

   * ``discord.http.HTTPClient.request`` carries every bot REST call: ``GET /users/@me`` (login),
     ``GET /oauth2/applications/@me`` (application info, also done by ``login``), sending,
     editing, fetching and deleting channel messages, creating threads, DMs, syncing app
     commands (``PUT /applications/{app}/commands`` and the guild variant), ...
   * ``discord.webhook.async_.AsyncWebhookAdapter.request`` carries every interaction reply:
     the callback ``POST /interactions/{id}/{token}/callback`` and followups / edits of the
     original response under ``/webhooks/{app_id}/{token}/...``.

   Both are routed to small handlers that update an in-memory model (guild, channels, users,
   messages with every version) and answer realistic JSON, so discord.py builds real
   ``Message``/``Thread``/``AppCommand`` objects.  Unknown routes answer ``{}``/``[]`` and are
   listed in :attr:`FakeDiscord.unknown_routes`.

2. awaits ``bot.login("fake-token")`` (this runs ``setup_hook``), adds the guild to the
   connection state with ``ConnectionState._add_guild_from_data`` (no websocket is needed),
   then signals readiness exactly like ``_delay_ready`` does (``guild_available``, the
   ``ready`` handler which sets ``wait_until_ready``, and the ``on_ready`` event).

3. feeds users' actions as synthetic gateway payloads through
   ``bot._connection.parsers["INTERACTION_CREATE"]`` and then :meth:`FakeDiscord.settle`\\ s.

4. on exit settles, closes the bot, cancels the tasks it left behind (the "process" died) and
   fails the test if any ERROR record was logged by discord.py or the project (discord.py logs
   and swallows exceptions raised in callbacks, so without this a broken callback looks like a
   silent no-op).

The fake rejects what Discord rejects
-------------------------------------
Every message payload (send, edit, interaction response, followup, ``@original`` edit) is
checked against Discord's limits; a violation raises ``discord.HTTPException`` (status 400, code
50035 "Invalid Form Body" with Discord-style nested ``errors``; 50006 for an empty message)
inside the bot exactly as the real client would, and is recorded in
:attr:`FakeDiscord.rejections`.  Acknowledging an interaction twice answers 40060.  Editing or
fetching an ephemeral message through the channel routes answers 404 like Discord does.  The
first followup after a "thinking" defer replaces the loading message and inherits the defer's
visibility (an ``ephemeral=True`` followup after a public defer is public - a classic leak).

Waiting for the bot: :meth:`FakeDiscord.settle`
-----------------------------------------------
``settle`` returns when the event loop is quiet: nothing is ready to run, no task waits on a
worker thread (``run_in_executor``/``to_thread`` futures, aiosqlite) and no *pending* timer is
left.  A timer is pending when it is due within ``horizon`` (5 s) and belongs to a task created
during the action being settled (or to no identifiable task); pending timers are
fast-forwarded by shifting the clock (``running`` patches ``time.monotonic``, which
``loop.time()`` and discord.py's view timeouts read, and ``discord.utils.utcnow``).  So pacing
sleeps (debounced edits, bot-player delays, chains of them) cost no wall time, while view
timeouts, turn timers and background tasks that existed before the action are "idle" and do
not hang the test.  A per-settle ``budget`` (60 s of fake time) stops periodic loops started by
the action itself.  Corollaries: a ``wait_for(..., timeout=2)`` started by the action times out
during ``settle``, as it would if the user did nothing; measure wall time in tests with
``time.perf_counter``, not ``time.monotonic``.  :meth:`FakeDiscord.advance` moves the clock on
purpose (e.g. to expire a 180 s view).  ``settle`` gives up after ``timeout`` seconds of real
time with :class:`SettleTimeout` describing what was still busy.

Facts about discord.py 2.7.1 this relies on (learned the hard way)
------------------------------------------------------------------
* ``InteractionResponse`` sends ``?with_response=1`` and parses the answer as an
  ``InteractionCallbackResponse``: ``{"interaction": {"id", "type", "response_message_id",
  "response_message_loading", "response_message_ephemeral"}, "resource": {"type", "message"}}``.
  ``response_message_id`` is what ``store_view`` keys the sent view by.
* Component clicks are matched against the clicked message's *payload*: a ``DynamicItem`` is
  rebuilt with ``View.from_message(interaction.message)`` and silently dropped if the
  custom_id is not in ``message.components``; ordinary views are looked up by
  ``(message_id, component_type, custom_id)``.  The fake therefore always sends the message
  as it recorded it.
* ``interaction.permissions`` comes from ``member.permissions`` in the payload while
  ``member.guild_permissions`` comes from the guild's cached roles; the fake provides both
  (users with ``manage_guild`` get a "Managers" role).
* discord.py ``login`` can only run once per ``Client``; build a new bot to "restart".
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime
import enum
import json
import logging
import re
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, TypeVar
from unittest import mock
from urllib.parse import parse_qsl, unquote, urlsplit

import aiosqlite
import discord
import pytest
from discord import app_commands
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

__all__ = [
    "EPHEMERAL",
    "ButtonInfo",
    "ErrorLogCapture",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FakeModal",
    "FakeRole",
    "FakeUser",
    "Fault",
    "Rejection",
    "SettleTimeout",
    "capture_error_logs",
    "message_errors",
    "no_error_logs",
]

_log = logging.getLogger(__name__)

T = TypeVar("T")

EPHEMERAL = 1 << 6
"""Message flag: only the interacting user sees the message."""
LOADING = 1 << 7
"""Message flag: a deferred "Bot is thinking..." placeholder."""
COMPONENTS_V2 = 1 << 15
"""Message flag: the message uses layout components (``discord.ui.LayoutView``)."""

_DISCORD_EPOCH_MS = 1_420_070_400_000
_FIRST_ID_MS = 1_704_067_200_000  # 2024-01-01T00:00:00Z, so ids look like real snowflakes
_API_PREFIX = "/api/v10"
_SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
_THREAD_TYPES = frozenset({10, 11, 12})
_THREAD_BACKED_MODULES = ("aiosqlite",)
"""Tasks whose innermost awaiting frame is in these packages wait on a worker thread."""

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
_BOT_PERMISSIONS = discord.Permissions.text() | discord.Permissions(view_channel=True)


# --------------------------------------------------------------------------------------------
# Public model
# --------------------------------------------------------------------------------------------


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

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(frozen=True)
class FakeRole:
    """A server role without permissions of its own (a slash option may name it)."""

    id: int
    name: str

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


@dataclass
class Fault:
    """A failure :meth:`FakeDiscord.fail` injects into matching requests."""

    method: str
    path: re.Pattern[str]
    status: int
    code: int
    message: str
    times: int
    retry_after: float | None = None
    timeout: bool = False
    struck: list[str] = field(default_factory=list)

    def strike(self, fake: FakeDiscord, request: _Request) -> BaseException | None:
        if self.times <= 0 or request.method != self.method:
            return None
        if not self.path.fullmatch(request.path):
            return None
        self.times -= 1
        self.struck.append(f"{request.method} {request.path}")
        if self.timeout:
            return TimeoutError()
        response = _FakeResponse(
            self.status, _REASONS.get(self.status, "Error"), request.method, request.path
        )
        payload: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            payload["retry_after"] = self.retry_after
            response.headers["Retry-After"] = str(self.retry_after)
        kind = {403: discord.Forbidden, 404: discord.NotFound}.get(self.status)
        if kind is None and self.status >= 500:
            kind = discord.DiscordServerError
        return (kind or discord.HTTPException)(response, payload)  # type: ignore[arg-type]


class SettleTimeout(AssertionError):
    """The bot was still busy when :meth:`FakeDiscord.settle` gave up."""


# --------------------------------------------------------------------------------------------
# Error-log guard
# --------------------------------------------------------------------------------------------


class ErrorLogCapture(logging.Handler):
    """Collects ERROR (and worse) records from the given logger name prefixes.

    discord.py logs and swallows exceptions raised in command, view, modal and event
    callbacks; use this (or the :func:`no_error_logs` fixture, or ``FakeDiscord.running`` which
    uses it) so such a test fails instead of passing silently.
    """

    DEFAULT_PREFIXES: ClassVar[tuple[str, ...]] = (
        "discord",
        "asyncio",
        "aiosqlite",
        "bot",
        "cogs",
        "games",
        "tests",
    )

    def __init__(self, prefixes: Sequence[str] | None = None, level: int = logging.ERROR) -> None:
        super().__init__(level)
        self.prefixes: tuple[str, ...] = tuple(prefixes or self.DEFAULT_PREFIXES)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if any(record.name == p or record.name.startswith(p + ".") for p in self.prefixes):
            self.records.append(record)

    def install(self) -> None:
        logging.getLogger().addHandler(self)

    def uninstall(self) -> None:
        logging.getLogger().removeHandler(self)

    def __enter__(self) -> ErrorLogCapture:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def report(self) -> str:
        return _format_records(self.records)

    def assert_clean(self) -> None:
        if self.records:
            raise AssertionError(f"{len(self.records)} error(s) were logged:\n{self.report()}")


def _format_records(records: Iterable[logging.LogRecord]) -> str:
    formatter = logging.Formatter("%(levelname)s %(name)s: %(message)s")
    return "\n".join(formatter.format(r) for r in records)


@contextlib.contextmanager
def capture_error_logs(prefixes: Sequence[str] | None = None) -> Iterator[ErrorLogCapture]:
    """Context manager: fail on exit if an ERROR was logged (and no other exception is raised)."""
    with ErrorLogCapture(prefixes) as capture:
        yield capture
    capture.assert_clean()


@pytest.fixture
def no_error_logs() -> Iterator[ErrorLogCapture]:
    """Fixture failing the test if discord.py or project code logged an ERROR during it.

    Enable with ``pytestmark = pytest.mark.usefixtures("no_error_logs")`` after importing it
    (``from tests.discord.harness import no_error_logs  # noqa: F401``) or via ``pytest_plugins``.
    """
    with capture_error_logs() as capture:
        yield capture


# --------------------------------------------------------------------------------------------
# Payload helpers
# --------------------------------------------------------------------------------------------


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


class _Errors:
    """Discord-style nested form errors: ``{"embeds": {"0": {"title": {"_errors": [...]}}}}``."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Sequence[str | int], message: str, code: str = "BASE_TYPE_INVALID") -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.tree)

    def length(self, path: Sequence[str | int], value: Any, maximum: int, minimum: int = 0) -> int:
        """Check a string's length; returns it (0 for ``None``) for embed-total accounting."""
        if value is None:
            if minimum:
                self.add(path, "This field is required", "BASE_TYPE_REQUIRED")
            return 0
        if not isinstance(value, str):
            self.add(path, "Could not interpret value as string.", "BASE_TYPE_STRING")
            return 0
        if len(value) > maximum:
            self.add(path, f"Must be {maximum} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        elif len(value) < minimum:
            self.add(
                path, f"Must be between {minimum} and {maximum} in length.", "BASE_TYPE_BAD_LENGTH"
            )
        return len(value)

    def count(
        self, path: Sequence[str | int], items: Sequence[Any], maximum: int, minimum: int = 0
    ) -> None:
        if len(items) > maximum:
            self.add(path, f"Must be {maximum} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        elif len(items) < minimum:
            self.add(
                path, f"Must be between {minimum} and {maximum} in length.", "BASE_TYPE_BAD_LENGTH"
            )


def message_errors(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Discord-style nested form errors for a complete message payload (``{}`` when valid).

    Checks content, embed and component limits; not the "empty message" rule (code 50006).
    """
    errors = _Errors()
    _validate_message(payload, errors)
    return errors.tree


def _validate_message(
    msg: Mapping[str, Any], errors: _Errors, prefix: tuple[str | int, ...] = ()
) -> None:
    """Check a (complete, merged) message against Discord's limits."""
    errors.length((*prefix, "content"), msg.get("content"), 2000)
    embeds: list[Mapping[str, Any]] = msg.get("embeds") or []
    errors.count((*prefix, "embeds"), embeds, 10)
    total = 0
    for i, embed in enumerate(embeds):
        path = (*prefix, "embeds", i)
        total += errors.length((*path, "title"), embed.get("title"), 256)
        total += errors.length((*path, "description"), embed.get("description"), 4096)
        fields = embed.get("fields") or []
        errors.count((*path, "fields"), fields, 25)
        for j, f in enumerate(fields):
            total += errors.length((*path, "fields", j, "name"), f.get("name"), 256, 1)
            total += errors.length((*path, "fields", j, "value"), f.get("value"), 1024, 1)
        footer = embed.get("footer") or {}
        total += errors.length((*path, "footer", "text"), footer.get("text"), 2048)
        author = embed.get("author") or {}
        total += errors.length((*path, "author", "name"), author.get("name"), 256)
    if total > 6000:
        errors.add(
            (*prefix, "embeds"),
            "Embed size exceeds maximum size of 6000",
            "MAX_EMBED_SIZE_EXCEEDED",
        )
    v2 = bool((msg.get("flags") or 0) & COMPONENTS_V2)
    _validate_components(msg.get("components") or [], errors, (*prefix, "components"), v2=v2)
    if v2 and (msg.get("content") or msg.get("embeds")):
        errors.add(
            (*prefix, "content"),
            "The 'content' and 'embeds' fields cannot be used when using IS_COMPONENTS_V2",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        )


def _validate_components(
    components: Sequence[Mapping[str, Any]],
    errors: _Errors,
    prefix: tuple[str | int, ...],
    *,
    v2: bool,
    modal: bool = False,
) -> None:
    seen_ids: set[str] = set()
    total = 0

    # Depth first, in order, with a stack: a recursive closure holds itself, a cycle only a
    # collection frees on every message (the harness shares the load bench's process).
    stack: list[tuple[Mapping[str, Any], tuple[str | int, ...]]] = [
        (comp, (*prefix, i)) for i, comp in reversed(list(enumerate(components)))
    ]
    while stack:
        comp, path = stack.pop()
        total += 1
        kind = comp.get("type")
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            errors.length((*path, "custom_id"), custom_id, 100, 1)
            if custom_id in seen_ids:
                errors.add(
                    (*path, "custom_id"),
                    "Component custom id cannot be duplicated",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                )
            seen_ids.add(custom_id)
        if kind == 1:
            children = comp.get("components") or []
            errors.count((*path, "components"), children, 5, 1)
            kinds = [c.get("type") for c in children]
            if any(k in _SELECT_TYPES or k == 4 for k in kinds) and len(children) > 1:
                errors.add(
                    (*path, "components"),
                    "The specified component exceeds the maximum width",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                )
        elif kind == 2:
            _validate_button(comp, errors, path)
        elif kind in _SELECT_TYPES:
            _validate_select(comp, errors, path)
        elif kind == 4:
            if not modal:
                errors.add(
                    (*path, "type"),
                    "Text inputs are only valid in modals",
                    "COMPONENT_TYPE_INVALID",
                )
            errors.length((*path, "label"), comp.get("label"), 45)
            errors.length((*path, "placeholder"), comp.get("placeholder"), 100)
            errors.length((*path, "value"), comp.get("value"), 4000)
            if comp.get("style") not in (1, 2):
                errors.add((*path, "style"), "Value must be one of {1, 2}.", "BASE_TYPE_CHOICES")
        elif kind == 18:
            errors.length((*path, "label"), comp.get("label"), 45, 1)
            errors.length((*path, "description"), comp.get("description"), 100)
        elif kind == 10:
            errors.length((*path, "content"), comp.get("content"), 4000, 1)
        inner: list[tuple[Mapping[str, Any], tuple[str | int, ...]]] = [
            (child, (*path, "components", i))
            for i, child in enumerate(comp.get("components") or [])
        ]
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, Mapping):
                inner.append((child, (*path, key)))
        stack.extend(reversed(inner))

    if modal:
        errors.count(prefix, components, 5, 1)
    elif v2:
        errors.count(prefix, components, 40)
    else:
        errors.count(prefix, components, 5)
        for i, comp in enumerate(components):
            if comp.get("type") != 1:
                errors.add(
                    (*prefix, i, "type"),
                    "Top-level components must be action rows unless IS_COMPONENTS_V2 is set",
                    "COMPONENT_TYPE_INVALID",
                )
    if v2 and total > 40:
        errors.add(prefix, "Must be 40 or fewer in total.", "BASE_TYPE_MAX_LENGTH")


def _validate_button(comp: Mapping[str, Any], errors: _Errors, path: tuple[str | int, ...]) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add(
            (*path, "style"), "Value must be one of {1, 2, 3, 4, 5, 6}.", "BASE_TYPE_CHOICES"
        )
    errors.length((*path, "label"), comp.get("label"), 80)
    if style == 5:
        if not comp.get("url"):
            errors.add((*path, "url"), "This field is required", "BASE_TYPE_REQUIRED")
        if comp.get("custom_id") is not None:
            errors.add(
                (*path, "custom_id"),
                "A link button cannot have a custom id",
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
            )
    elif style == 6:
        if not comp.get("sku_id"):
            errors.add((*path, "sku_id"), "This field is required", "BASE_TYPE_REQUIRED")
    elif comp.get("custom_id") is None:
        errors.add((*path, "custom_id"), "This field is required", "BASE_TYPE_REQUIRED")
    if style != 6 and not comp.get("label") and not comp.get("emoji"):
        errors.add(
            (*path, "label"),
            "A button must have a label or an emoji",
            "BUTTON_COMPONENT_LABEL_REQUIRED",
        )


def _validate_select(comp: Mapping[str, Any], errors: _Errors, path: tuple[str | int, ...]) -> None:
    if comp.get("custom_id") is None:
        errors.add((*path, "custom_id"), "This field is required", "BASE_TYPE_REQUIRED")
    errors.length((*path, "placeholder"), comp.get("placeholder"), 150)
    min_values = comp.get("min_values", 1)
    max_values = comp.get("max_values", 1)
    if not 0 <= min_values <= 25:
        errors.add(
            (*path, "min_values"), "int value should be between 0 and 25.", "NUMBER_TYPE_MAX"
        )
    if not 1 <= max_values <= 25:
        errors.add(
            (*path, "max_values"), "int value should be between 1 and 25.", "NUMBER_TYPE_MAX"
        )
    if min_values > max_values:
        errors.add(
            (*path, "min_values"),
            "min_values must be less than or equal to max_values",
            "SELECT_COMPONENT_MIN_VALUES_TOO_HIGH",
        )
    if comp.get("type") != 3:
        return
    options = comp.get("options") or []
    errors.count((*path, "options"), options, 25, 1)
    values: set[str] = set()
    for i, option in enumerate(options):
        errors.length((*path, "options", i, "label"), option.get("label"), 100, 1)
        errors.length((*path, "options", i, "value"), option.get("value"), 100, 1)
        errors.length((*path, "options", i, "description"), option.get("description"), 100)
        if option.get("value") in values:
            errors.add(
                (*path, "options", i, "value"),
                "Select option values must be unique",
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
            )
        values.add(option.get("value"))
    if options and max_values > len(options):
        errors.add(
            (*path, "max_values"),
            f"Must be less than or equal to {len(options)}.",
            "BASE_TYPE_MAX_VALUE",
        )
    if options and min_values > len(options):
        errors.add(
            (*path, "min_values"),
            f"Must be less than or equal to {len(options)}.",
            "BASE_TYPE_MAX_VALUE",
        )


def _validate_modal(data: Mapping[str, Any], errors: _Errors) -> None:
    errors.length(("data", "title"), data.get("title"), 45, 1)
    errors.length(("data", "custom_id"), data.get("custom_id"), 100, 1)
    _validate_components(
        data.get("components") or [], errors, ("data", "components"), v2=False, modal=True
    )


_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _validate_command(cmd: Mapping[str, Any], errors: _Errors, path: tuple[str | int, ...]) -> None:
    kind = cmd.get("type", 1)
    name = cmd.get("name") or ""
    if kind in (1, None) and (not _COMMAND_NAME.match(name) or name != name.lower()):
        errors.add((*path, "name"), "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME")
    errors.length((*path, "name"), name, 32, 1)
    if kind in (1, None):
        errors.length((*path, "description"), cmd.get("description"), 100, 1)
    options = cmd.get("options") or []
    errors.count((*path, "options"), options, 25)
    seen_optional = False
    for i, option in enumerate(options):
        opath = (*path, "options", i)
        if option.get("type") in (1, 2):
            _validate_command({**option, "type": 1}, errors, opath)
            continue
        _validate_command(
            {"name": option.get("name"), "description": option.get("description"), "type": 1},
            errors,
            opath,
        )
        if option.get("required"):
            if seen_optional:
                errors.add(
                    (*opath, "required"),
                    "Required options must be placed before non-required options",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        errors.count((*opath, "choices"), choices, 25)
        for j, choice in enumerate(choices):
            errors.length((*opath, "choices", j, "name"), choice.get("name"), 100, 1)
            if isinstance(choice.get("value"), str):
                errors.length((*opath, "choices", j, "value"), choice.get("value"), 100, 1)


class _FakeResponse:
    """Just enough of ``aiohttp.ClientResponse`` for ``discord.HTTPException``."""

    def __init__(self, status: int, reason: str, method: str, url: str) -> None:
        self.status = status
        self.reason = reason
        self.method = method
        self.url = url
        self.headers: dict[str, str] = {}


_REASONS = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}


# --------------------------------------------------------------------------------------------
# Route table
# --------------------------------------------------------------------------------------------

_Handler = Callable[..., Any]
_ROUTES: list[tuple[str, re.Pattern[str], str]] = []


def _route(method: str, pattern: str) -> Callable[[_Handler], _Handler]:
    """Register a ``FakeDiscord`` method as the handler of ``method`` + path regex."""

    def decorate(fn: _Handler) -> _Handler:
        _ROUTES.append((method, re.compile(pattern), fn.__name__))
        return fn

    return decorate


_ID = r"(\d+)"
_TOKEN = r"([^/]+)"


@dataclass
class _Request:
    method: str
    path: str
    body: Any
    params: dict[str, str]
    files: list[FakeAttachment]
    args: tuple[str, ...] = ()


class _FakeClock:
    """A shiftable monotonic clock, so timers can be fast-forwarded.

    Patches ``time.monotonic`` (which ``BaseEventLoop.time`` reads, as do discord.py's view
    timeouts) and ``discord.utils.utcnow`` (``ext.tasks`` schedules with it) to add ``offset``.
    """

    def __init__(self) -> None:
        self.offset = 0.0
        self._patches: list[Any] = []

    def monotonic(self) -> float:
        return _real_monotonic() + self.offset

    def utcnow(self) -> datetime.datetime:
        return _real_utcnow() + datetime.timedelta(seconds=self.offset)

    def install(self) -> None:
        if time.monotonic is not _real_monotonic:
            raise RuntimeError("time.monotonic is already patched (two fakes running?)")
        self._patches = [
            mock.patch.object(time, "monotonic", self.monotonic),
            mock.patch.object(discord.utils, "utcnow", self.utcnow),
        ]
        for patch in self._patches:
            patch.start()

    def uninstall(self) -> None:
        for patch in reversed(self._patches):
            patch.stop()
        self._patches = []

    def advance_to(self, when: float) -> None:
        """Move the clock so that ``loop.time() >= when``."""
        now = self.monotonic()
        if when > now:
            self.offset += when - now


_real_monotonic = time.monotonic
_real_utcnow = discord.utils.utcnow
_active_fake: FakeDiscord | None = None


# --------------------------------------------------------------------------------------------
# The fake
# --------------------------------------------------------------------------------------------


class FakeDiscord:
    """An in-memory Discord with one guild; see the module docstring."""

    def __init__(
        self, *, guild_name: str = "Test Guild", bot_name: str = "Cookie Jar", first_id: int = 0
    ) -> None:
        # ``first_id``: where the snowflake counter starts, so fakes in several processes
        # can own disjoint ids (and a guild can be put in a chosen shard).
        self._counter = first_id
        self.guild_name = guild_name
        self.guild_id = self._new_id()
        self.bot_user = FakeUser(self._new_id(), bot_name, bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.app_owner_id: int = self._new_id()
        """Owner of the application (``bot.is_owner``); ``add_user(app_owner=True)`` moves it."""
        self.owner_id = self._new_id()  # guild owner: deliberately nobody the tests act as
        self.everyone_role_id = self.guild_id
        self.manager_role_id = self._new_id()
        self.bot_role_id = self._new_id()
        self.roles: dict[int, FakeRole] = {}
        """Roles added with :meth:`add_role` (beyond @everyone, Managers and the bot's)."""
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: list[FakeInteraction] = []
        self.rejections: list[Rejection] = []
        self.unknown_routes: list[str] = []
        self.requests: list[RecordedRequest] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        """Synced application commands per scope (``None`` = global, else guild id)."""
        self.error_logs: list[logging.LogRecord] = []
        self.faults: list[Fault] = []
        """Failures to inject: see :meth:`fail`."""
        self._by_token: dict[str, FakeInteraction] = {}
        self._last_interaction: dict[int, FakeInteraction] = {}
        self._modals: dict[int, list[FakeModal]] = {}
        self._public_text: list[str] = []
        self._bot: discord.Client | None = None
        self._clock: _FakeClock | None = None
        self.general = self.add_channel("general")

    # ---- building the world -----------------------------------------------------------------

    def _new_id(self) -> int:
        self._counter += 1
        return (_FIRST_ID_MS - _DISCORD_EPOCH_MS + self._counter) << 22

    def add_user(
        self,
        name: str,
        *,
        display_name: str | None = None,
        manage_guild: bool = False,
        app_owner: bool = False,
    ) -> FakeUser:
        """Add a guild member; ``manage_guild`` grants Manage Server through a role."""
        user = FakeUser(self._new_id(), name, display_name or name.capitalize(), manage_guild)
        self.users[user.id] = user
        if app_owner:
            self.app_owner_id = user.id
        if self._bot is not None and self._bot.intents.members:
            self._parse(
                "GUILD_MEMBER_ADD", {**self._member_json(user), "guild_id": str(self.guild_id)}
            )
        return user

    def add_role(self, name: str, *members: FakeUser) -> FakeRole:
        """Add a role to the guild and give it to ``members``."""
        role = FakeRole(self._new_id(), name)
        self.roles[role.id] = role
        if self._bot is not None:
            self._parse(
                "GUILD_ROLE_CREATE",
                {
                    "guild_id": str(self.guild_id),
                    "role": self._role_json(
                        role.id, name, discord.Permissions.none(), 3 + len(self.roles)
                    ),
                },
            )
        for member in members:
            member.roles.append(role.id)
        return role

    def add_channel(self, name: str) -> FakeChannel:
        """Add a text channel to the guild."""
        channel = FakeChannel(self._new_id(), name, 0)
        self.channels[channel.id] = channel
        if self._bot is not None:
            self._parse("CHANNEL_CREATE", self._channel_json(channel))
        return channel

    def channel(self, name: str) -> FakeChannel:
        """Look a channel or thread up by name."""
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise LookupError(f"no channel named {name!r}")

    def user_permissions(self, user: FakeUser) -> discord.Permissions:
        """Guild-level permissions of ``user`` (what ``member.permissions`` carries)."""
        if user.bot:
            return _EVERYONE_PERMISSIONS | _BOT_PERMISSIONS
        if user.manage_guild:
            return _EVERYONE_PERMISSIONS | discord.Permissions(manage_guild=True)
        return _EVERYONE_PERMISSIONS

    # ---- JSON -------------------------------------------------------------------------------

    def _time_of(self, snowflake: int) -> datetime.datetime:
        return discord.utils.snowflake_time(snowflake)

    def _user_json(self, user: FakeUser) -> dict[str, Any]:
        return {
            "id": str(user.id),
            "username": user.name,
            "discriminator": "0",
            "global_name": user.display_name,
            "avatar": None,
            "bot": user.bot,
            "public_flags": 0,
        }

    def _member_json(self, user: FakeUser, *, with_permissions: bool = False) -> dict[str, Any]:
        roles = []
        if user.manage_guild:
            roles.append(str(self.manager_role_id))
        if user.bot:
            roles.append(str(self.bot_role_id))
        roles += [str(role) for role in user.roles]
        data: dict[str, Any] = {
            "user": self._user_json(user),
            "roles": roles,
            "nick": None,
            "avatar": None,
            "joined_at": _iso(self._time_of(self.guild_id)),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.user_permissions(user).value)
        return data

    def _role_json(
        self, role_id: int, name: str, permissions: discord.Permissions, position: int
    ) -> dict[str, Any]:
        return {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "hoist": False,
            "position": position,
            "permissions": str(permissions.value),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def _channel_json(
        self, channel: FakeChannel, *, for_user: FakeUser | None = None
    ) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(channel.id), "type": channel.type, "name": channel.name}
        if channel.type == 1:
            recipient = self.users[channel.recipient_id or 0]
            data.update(recipients=[self._user_json(recipient)], last_message_id=None)
            return data
        data.update(
            guild_id=str(self.guild_id),
            position=list(self.channels).index(channel.id),
            permission_overwrites=[],
            nsfw=False,
            parent_id=str(channel.parent_id) if channel.parent_id else None,
            last_message_id=None,
            rate_limit_per_user=0,
            topic=None,
            flags=0,
        )
        if channel.type in _THREAD_TYPES:
            created = _iso(self._time_of(channel.id))
            count = sum(1 for m in self.messages.values() if m.channel_id == channel.id)
            data.update(
                owner_id=str(channel.owner_id),
                message_count=count,
                total_message_sent=count,
                member_count=len(channel.member_ids),
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": created,
                    "create_timestamp": created,
                    "locked": False,
                    "invitable": True,
                },
            )
        if for_user is not None:
            data["permissions"] = str(self.user_permissions(for_user).value)
        return data

    def _guild_json(self) -> dict[str, Any]:
        members = [u for u in self.users.values()]
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "owner_id": str(self.owner_id),
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "features": [],
            "roles": [
                self._role_json(self.everyone_role_id, "@everyone", _EVERYONE_PERMISSIONS, 0),
                self._role_json(
                    self.manager_role_id, "Managers", discord.Permissions(manage_guild=True), 1
                ),
                self._role_json(self.bot_role_id, self.bot_user.name, _BOT_PERMISSIONS, 2),
                *(
                    self._role_json(r.id, r.name, discord.Permissions.none(), 3 + i)
                    for i, r in enumerate(self.roles.values())
                ),
            ],
            "emojis": [],
            "stickers": [],
            "member_count": len(members),
            "members": [self._member_json(u) for u in members],
            "channels": [
                self._channel_json(c) for c in self.channels.values() if c.type in (0, 2, 4, 5)
            ],
            "threads": [
                self._channel_json(c) for c in self.channels.values() if c.type in _THREAD_TYPES
            ],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "afk_timeout": 300,
            "system_channel_flags": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "joined_at": _iso(self._time_of(self.guild_id)),
        }

    def _message_json(self, msg: FakeMessage) -> dict[str, Any]:
        author = self.users[msg.author_id]
        data: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "type": msg.type,
            "author": self._user_json(author),
            "content": msg.content,
            "timestamp": _iso(self._time_of(msg.id)),
            "edited_timestamp": _iso(discord.utils.utcnow()) if msg.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self._attachment_json(msg, a) for a in msg.attachments],
            "embeds": copy.deepcopy(msg.embeds),
            "components": copy.deepcopy(msg.components),
            "reactions": [],
            "pinned": msg.pinned,
            "flags": msg.flags,
        }
        if msg.interaction_id is not None:
            interaction = next(i for i in self.interactions if i.id == msg.interaction_id)
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": self._user_json(interaction.user),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
        return data

    def _attachment_json(self, msg: FakeMessage, attachment: FakeAttachment) -> dict[str, Any]:
        url = f"https://cdn.discordapp.com/attachments/{msg.channel_id}/{attachment.id}/{attachment.filename}"
        return {
            "id": str(attachment.id),
            "filename": attachment.filename,
            "size": len(attachment.data),
            "url": url,
            "proxy_url": url,
        }

    # ---- running a bot ----------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def running(
        self, bot: discord.Client, *, token: str = "fake-token", check_errors: bool = True
    ) -> AsyncIterator[discord.Client]:
        """Log ``bot`` in against this fake, make it ready, yield it, then shut it down.

        On exit the bot is closed and every task created since entering (background loops,
        view timeouts, ...) is cancelled, as if the process had stopped; recorded messages,
        commands and users stay, so another bot instance can be run on the same fake.

        With ``check_errors`` the block fails if an ERROR was logged by discord.py or project
        loggers while it ran (the records are kept in :attr:`error_logs` either way).
        """
        global _active_fake
        if _active_fake is not None:
            raise RuntimeError("another FakeDiscord is already running a bot")
        tasks_before = asyncio.all_tasks()
        capture = ErrorLogCapture()
        self.error_logs = capture.records
        clock = _FakeClock()
        async with contextlib.AsyncExitStack() as stack:
            _active_fake = self
            stack.callback(self._deactivate)
            capture.install()
            stack.callback(capture.uninstall)
            clock.install()
            self._clock = clock
            stack.callback(clock.uninstall)
            stack.enter_context(mock.patch.object(HTTPClient, "request", _make_http_patch(self)))
            stack.enter_context(
                mock.patch.object(AsyncWebhookAdapter, "request", _make_webhook_patch(self))
            )
            for owner, name in _db_choke_points():
                stack.enter_context(
                    mock.patch.object(owner, name, _counting_execute(getattr(owner, name)))
                )
            stack.push_async_callback(self._shutdown, bot, tasks_before)
            self._bot = bot
            await bot.login(token)  # runs setup_hook; the guild is not known to the bot yet
            state = bot._connection
            guild = state._add_guild_from_data(self._guild_json())  # type: ignore[arg-type]
            state.dispatch("connect")
            state.dispatch("guild_available", guild)
            state.call_handlers("ready")
            state.dispatch("ready")
            await self.settle(baseline=tasks_before)
            yield bot
            await self.settle()
        if check_errors:
            capture.assert_clean()

    def _deactivate(self) -> None:
        global _active_fake
        _active_fake = None
        self._bot = None
        self._clock = None

    async def _shutdown(self, bot: discord.Client, tasks_before: set[asyncio.Task[Any]]) -> None:
        if not bot.is_closed():
            await bot.close()
        current = asyncio.current_task()
        leftovers = [
            t for t in asyncio.all_tasks() - tasks_before if t is not current and not t.done()
        ]
        for task in leftovers:
            task.cancel()
        if leftovers:
            await asyncio.wait(leftovers, timeout=2)

    def _require_bot(self) -> discord.Client:
        if self._bot is None:
            raise RuntimeError("no bot is running: use `async with fake.running(bot):`")
        return self._bot

    def _parse(self, event: str, data: dict[str, Any]) -> None:
        """Deliver a gateway event to the running bot's connection state."""
        self._require_bot()._connection.parsers[event](data)

    # ---- faults -----------------------------------------------------------------------------

    def fail(
        self,
        method: str,
        path: str,
        status: int,
        code: int = 0,
        message: str = "",
        *,
        times: int = 1,
        retry_after: float | None = None,
        timeout: bool = False,
    ) -> Fault:
        """The next ``times`` requests ``method`` + ``path`` (a regex, matched in full) fail
        as Discord would fail them: ``status``/``code`` (``retry_after`` for a 429), or
        with a client-side timeout (``asyncio.TimeoutError``). Returns the fault, whose
        ``struck`` counts the requests it failed."""
        fault = Fault(method, re.compile(path), status, code, message, times, retry_after, timeout)
        self.faults.append(fault)
        return fault

    # ---- waiting ----------------------------------------------------------------------------

    async def settle(
        self,
        *,
        timeout: float = 10.0,
        horizon: float = 5.0,
        budget: float = 60.0,
        baseline: set[asyncio.Task[Any]] | None = None,
    ) -> None:
        """Wait until the bot is idle; see the module docstring.

        A timer is fast-forwarded (fake time) when it is due within ``horizon`` seconds of
        "now", is not owned by a task of ``baseline`` (default: the tasks alive when ``settle``
        was called - pre-existing background loops and timeouts are idle) and falls within
        ``budget`` seconds of the fake time settle started at (the safety net against periodic
        loops).  Raises :class:`SettleTimeout` after ``timeout`` seconds of real time.
        """
        loop = asyncio.get_running_loop()
        if baseline is None:
            baseline = set(asyncio.all_tasks())
        deadline = _real_monotonic() + timeout
        limit = loop.time() + budget
        quiet_rounds = 0
        while quiet_rounds < 2:
            await asyncio.sleep(0)
            if _real_monotonic() > deadline:
                raise SettleTimeout(
                    f"the bot did not settle within {timeout}s:\n{_describe_tasks()}"
                )
            if getattr(loop, "_ready", ()):
                quiet_rounds = 0
                continue
            if _thread_backed_tasks() or _DB_CALLS_IN_FLIGHT[0]:
                quiet_rounds = 0
                await asyncio.sleep(0.001)
                continue
            due = _next_pending_timer(loop, baseline, horizon=horizon, limit=limit)
            if due is not None:
                quiet_rounds = 0
                if self._clock is not None:
                    self._clock.advance_to(due)
                else:
                    await asyncio.sleep(max(0.0, due - loop.time()))
                continue
            quiet_rounds += 1

    async def settle_with(self, work: Awaitable[T]) -> T:
        """Run ``work`` (the scheduler firing what is due, say) to its end while settling, so
        that what it waits on (a channel's message rate limit) passes in fake time, not real
        time, as it does for the bot's own tasks."""
        baseline = set(asyncio.all_tasks())
        task = asyncio.ensure_future(work)
        await self.settle(baseline=baseline)
        return await task

    async def advance(self, seconds: float) -> None:
        """Move the fake clock forward (due timers fire, e.g. view timeouts), then settle."""
        if self._clock is None:
            raise RuntimeError("advance() needs a running bot")
        self._clock.offset += seconds
        await self.settle()

    # ---- user actions -----------------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        command: str,
        *,
        channel: FakeChannel | None = None,
        options: Mapping[str, Any] | None = None,
        expect_ack: bool = True,
        **kw_options: Any,
    ) -> FakeInteraction:
        """``user`` runs ``/command`` (``"group sub"`` for subcommands) in ``channel``.

        Options are given as keywords (or in ``options`` when an option is called ``channel``
        or ``options``); values may be ``str``/``int``/``float``/``bool``, a :class:`FakeUser`
        (user/mentionable options), a :class:`FakeChannel` or an ``app_commands.Choice``.
        """
        channel = channel or self.general
        values = {**(options or {}), **kw_options}
        root, cmd, scope = self._find_command(command)
        self._check_can_use(user, root)
        built, resolved = self._build_options(cmd, values, user)
        data = self._command_data(root, cmd, scope, built, resolved)
        return await self._interact(2, user, channel, data, name=command, expect_ack=expect_ack)

    async def autocomplete(
        self,
        user: FakeUser,
        command: str,
        focused: str,
        value: str,
        *,
        channel: FakeChannel | None = None,
        options: Mapping[str, Any] | None = None,
        **kw_options: Any,
    ) -> list[dict[str, Any]]:
        """``user`` types ``value`` into option ``focused``; returns the offered choices."""
        channel = channel or self.general
        root, cmd, scope = self._find_command(command)
        built, resolved = self._build_options(
            cmd, {**(options or {}), **kw_options}, user, partial=True
        )
        param = self._param(cmd, focused)
        built.append(
            {"name": param.display_name, "type": param.type.value, "value": value, "focused": True}
        )
        data = self._command_data(root, cmd, scope, built, resolved)
        interaction = await self._interact(4, user, channel, data, name=command, expect_ack=True)
        return interaction.autocomplete_choices or []

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str | ButtonInfo,
        *,
        expect_ack: bool = True,
        dispatch_only: bool = False,
    ) -> FakeInteraction:
        """``user`` clicks the button ``custom_id`` on the current version of ``message``.

        ``dispatch_only``: hand the event to the bot and return at once, unsettled."""
        if isinstance(custom_id, ButtonInfo):
            if custom_id.custom_id is None:
                raise ValueError(f"{custom_id} is a link button")
            custom_id = custom_id.custom_id
        msg, component = self._component(user, message, custom_id, {2})
        if component.get("disabled"):
            raise ValueError(f"button {custom_id!r} is disabled; Discord would not send the click")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(
            3,
            user,
            self.channels[msg.channel_id],
            data,
            message=msg,
            name=custom_id,
            expect_ack=expect_ack and not dispatch_only,
            dispatch_only=dispatch_only,
        )

    async def click_at_once(
        self, users: Sequence[FakeUser], message: FakeMessage, custom_id: str | ButtonInfo
    ) -> list[FakeInteraction]:
        """Every user clicks the same button in the same instant: all the gateway events
        arrive before the bot has handled any of them, as when a crowd races for a card."""
        baseline = asyncio.all_tasks()
        records = [await self.click(user, message, custom_id, dispatch_only=True) for user in users]
        await self.settle(baseline=baseline)
        return records

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str | FakeUser | FakeChannel],
        *,
        expect_ack: bool = True,
    ) -> FakeInteraction:
        """``user`` picks ``values`` in the select ``custom_id`` of ``message``."""
        msg, component = self._component(user, message, custom_id, set(_SELECT_TYPES))
        if component.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        kind = component["type"]
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if kind == 3:
            allowed = [o["value"] for o in component.get("options", [])]
            for value in values:
                if value not in allowed:
                    raise ValueError(f"{value!r} is not an option of {custom_id!r}: {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict[str, Any]] = {}
            data["values"] = [self._resolve_entity(v, resolved) for v in values]
            data["resolved"] = resolved
        return await self._interact(
            3,
            user,
            self.channels[msg.channel_id],
            data,
            message=msg,
            name=custom_id,
            expect_ack=expect_ack,
        )

    async def submit_modal(
        self,
        user: FakeUser,
        values: Mapping[str, str | Sequence[str]],
        *,
        modal: FakeModal | None = None,
        expect_ack: bool = True,
    ) -> FakeInteraction:
        """``user`` submits ``modal`` (default: the last one shown to them) with ``values``.

        ``values`` maps the text inputs' custom_ids to their text (selects: list of values).
        """
        modal = modal or self.last_modal(user)
        unknown = set(values) - {c.get("custom_id") for c in modal.fields()}
        if unknown:
            raise LookupError(f"modal {modal.custom_id!r} has no fields {sorted(unknown)}")

        def answer(comp: Mapping[str, Any]) -> dict[str, Any]:
            kind = comp.get("type")
            if kind == 1:
                return {"type": 1, "components": [answer(c) for c in comp.get("components", [])]}
            if kind == 18:
                return {"type": 18, "component": answer(comp["component"])}
            custom_id = comp.get("custom_id")
            if kind == 4:
                text = values.get(custom_id, comp.get("value") or "")
                if comp.get("required", True) and not text:
                    raise ValueError(f"text input {custom_id!r} is required")
                return {"type": 4, "custom_id": custom_id, "value": text}
            if kind in _SELECT_TYPES:
                chosen = values.get(custom_id, [])
                return {
                    "type": kind,
                    "custom_id": custom_id,
                    "values": [chosen] if isinstance(chosen, str) else list(chosen),
                }
            return {"type": kind, "id": comp.get("id")}

        data = {"custom_id": modal.custom_id, "components": [answer(c) for c in modal.components]}
        source = modal.interaction
        msg = self.messages.get(source.source_message_id) if source.source_message_id else None
        return await self._interact(
            5,
            user,
            self.channels[source.channel_id],
            data,
            message=msg,
            name=modal.custom_id,
            expect_ack=expect_ack,
        )

    def _component(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str, kinds: set[int]
    ) -> tuple[FakeMessage, dict[str, Any]]:
        msg = self.messages.get(message if isinstance(message, int) else message.id)
        if msg is None or msg.deleted:
            raise LookupError(f"message {message!r} does not exist (any more)")
        if msg.visible_to not in (None, user.id):
            raise PermissionError(f"{user.name} cannot see ephemeral message {msg.id}")
        for component in _walk_components(msg.components):
            if component.get("custom_id") == custom_id and component.get("type") in kinds:
                return msg, component
        present = [
            c.get("custom_id") for c in _walk_components(msg.components) if c.get("custom_id")
        ]
        raise LookupError(f"message {msg.id} has no component {custom_id!r}; it has {present}")

    def _resolve_entity(self, value: Any, resolved: dict[str, dict[str, Any]]) -> str:
        if isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = self._user_json(value)
            member = self._member_json(value, with_permissions=True)
            del member["user"]
            resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if isinstance(value, FakeRole):
            role = self._role_json(value.id, value.name, discord.Permissions.none(), 3)
            resolved.setdefault("roles", {})[str(value.id)] = role
            return str(value.id)
        if isinstance(value, FakeChannel):
            data = self._channel_json(value)
            data["permissions"] = str(_EVERYONE_PERMISSIONS.value)
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        return str(value)

    # ---- app command plumbing ---------------------------------------------------------------

    def _find_command(
        self, command: str
    ) -> tuple[Any, app_commands.Command[Any, ..., Any], int | None]:
        tree: app_commands.CommandTree[Any] | None = getattr(self._require_bot(), "tree", None)
        if tree is None:
            raise RuntimeError("the bot has no app command tree")
        first, *rest = command.split()
        scope: int | None = self.guild_id
        root = tree.get_command(first, guild=discord.Object(self.guild_id))
        if root is None:
            scope = None
            root = tree.get_command(first)
        if root is None:
            names = [c.qualified_name for c in tree.get_commands()]
            names += [
                c.qualified_name for c in tree.get_commands(guild=discord.Object(self.guild_id))
            ]
            raise LookupError(f"no slash command {first!r}; the bot has {names}")
        cmd: Any = root
        for part in rest:
            if not isinstance(cmd, app_commands.Group):
                raise LookupError(f"{cmd.qualified_name!r} has no subcommands")
            sub = cmd.get_command(part)
            if sub is None:
                raise LookupError(f"{cmd.qualified_name!r} has no subcommand {part!r}")
            cmd = sub
        if not isinstance(cmd, app_commands.Command):
            raise LookupError(f"{command!r} is a group; Discord cannot invoke groups")
        return root, cmd, scope

    def _check_can_use(self, user: FakeUser, root: Any) -> None:
        required: discord.Permissions | None = getattr(root, "default_permissions", None)
        if required is None or required.value == 0:
            return
        have = self.user_permissions(user)
        if not have.administrator and not required.is_subset(have):
            raise PermissionError(
                f"{user.name} lacks {required} for /{root.name}; Discord hides the command"
            )

    @staticmethod
    def _param(cmd: app_commands.Command[Any, ..., Any], name: str) -> app_commands.Parameter:
        for param in cmd.parameters:
            if name in (param.name, param.display_name):
                return param
        raise TypeError(f"/{cmd.qualified_name} has no option {name!r}")

    def _build_options(
        self,
        cmd: app_commands.Command[Any, ..., Any],
        values: Mapping[str, Any],
        user: FakeUser,
        *,
        partial: bool = False,
    ) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
        options: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        given = dict(values)
        for param in cmd.parameters:
            key = param.name if param.name in given else param.display_name
            if key not in given:
                if param.required and not partial:
                    raise TypeError(f"/{cmd.qualified_name} requires option {param.display_name!r}")
                continue
            value = given.pop(key)
            options.append(self._option(param, value, resolved))
        if given:
            raise TypeError(f"/{cmd.qualified_name} has no options {sorted(given)}")
        return options, resolved

    def _option(
        self, param: app_commands.Parameter, value: Any, resolved: dict[str, dict[str, Any]]
    ) -> dict[str, Any]:
        kind = param.type
        if isinstance(value, (app_commands.Choice, enum.Enum)):
            value = value.value
        opt = discord.AppCommandOptionType
        if kind in (opt.user, opt.mentionable, opt.channel, opt.role):
            raw: Any = (
                self._resolve_entity(value, resolved) if not isinstance(value, int) else str(value)
            )
        elif kind is opt.integer:
            raw = int(value)
        elif kind is opt.number:
            raw = float(value)
        elif kind is opt.boolean:
            raw = bool(value)
        elif kind is opt.string:
            raw = str(value)
        else:
            raise NotImplementedError(f"option type {kind} is not supported by the harness")
        if param.choices and raw not in [c.value for c in param.choices]:
            raise ValueError(f"{raw!r} is not a choice of {param.display_name!r}: {param.choices}")
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            if param.min_value is not None and raw < param.min_value:
                raise ValueError(f"{param.display_name} must be >= {param.min_value}")
            if param.max_value is not None and raw > param.max_value:
                raise ValueError(f"{param.display_name} must be <= {param.max_value}")
        if isinstance(raw, str) and kind is opt.string:
            if param.min_value is not None and len(raw) < param.min_value:
                raise ValueError(f"{param.display_name} must be at least {param.min_value} chars")
            if param.max_value is not None and len(raw) > param.max_value:
                raise ValueError(f"{param.display_name} must be at most {param.max_value} chars")
        return {"name": param.display_name, "type": kind.value, "value": raw}

    def _command_data(
        self,
        root: Any,
        cmd: app_commands.Command[Any, ..., Any],
        scope: int | None,
        options: list[dict[str, Any]],
        resolved: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        # Wrap leaf options in subcommand (type 1) / group (type 2) options, innermost first.
        chain: list[Any] = []
        node: Any = cmd
        while node is not None and node is not root:
            chain.append(node)
            node = node.parent
        for node in chain:
            options = [
                {
                    "name": node.name,
                    "type": 2 if isinstance(node, app_commands.Group) else 1,
                    "options": options,
                }
            ]
        synced = {c["name"]: c for c in self.commands.get(scope, [])}
        data: dict[str, Any] = {
            "id": synced.get(root.name, {}).get("id") or str(self._new_id()),
            "name": root.name,
            "type": 1,
            "options": options,
        }
        if scope is not None:
            data["guild_id"] = str(scope)
        if resolved:
            data["resolved"] = resolved
        return data

    # ---- interactions -----------------------------------------------------------------------

    async def _interact(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        name: str,
        message: FakeMessage | None = None,
        expect_ack: bool,
        dispatch_only: bool = False,
    ) -> FakeInteraction:
        self._require_bot()
        if channel.type == 1:
            raise NotImplementedError("interactions in DMs are not modelled")
        interaction_id = self._new_id()
        record = FakeInteraction(
            id=interaction_id,
            token=f"itoken-{interaction_id}",
            type=kind,
            user=user,
            channel_id=channel.id,
            source_message_id=message.id if message else None,
            name=name,
        )
        self.interactions.append(record)
        self._by_token[record.token] = record
        if kind != 4:  # autocomplete is not something one "replies" to
            self._last_interaction[user.id] = record
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": record.token,
            "version": 1,
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": self._channel_json(channel, for_user=user),
            "member": self._member_json(user, with_permissions=True),
            "app_permissions": str(self.user_permissions(self.bot_user).value),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
        }
        if message is not None:
            payload["message"] = self._message_json(message)
        if not dispatch_only:
            baseline = asyncio.all_tasks()
        self._parse("INTERACTION_CREATE", payload)
        if dispatch_only:
            return record
        await self.settle(baseline=baseline)
        if expect_ack and not record.acknowledged:
            raise AssertionError(
                f"interaction {name!r} by {user.name} was never acknowledged (Discord shows "
                f"'This interaction failed').\nLogged errors:\n"
                f"{_format_records(self.error_logs) or '(none)'}"
            )
        return record

    # ---- what users see ---------------------------------------------------------------------

    def public_messages(self, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Non-ephemeral, non-deleted messages of ``channel`` (default: general), oldest first."""
        channel = channel or self.general
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.channel_id == channel.id and m.visible_to is None and not m.deleted
        ]

    def ephemerals(self, user: FakeUser) -> list[FakeMessage]:
        """Ephemeral messages shown to ``user``, newest last."""
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.visible_to == user.id and m.ephemeral and not m.deleted
        ]

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """Messages the bot sent to ``user`` in DMs, oldest first."""
        ids = {c.id for c in self.channels.values() if c.type == 1 and c.recipient_id == user.id}
        return [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id)
            if m.channel_id in ids and not m.deleted
        ]

    def last_interaction(self, user: FakeUser) -> FakeInteraction:
        try:
            return self._last_interaction[user.id]
        except KeyError:
            raise LookupError(f"{user.name} has not interacted yet") from None

    def last_reply(self, user: FakeUser) -> FakeMessage:
        """The latest message created/edited in answer to ``user``'s last interaction."""
        interaction = self.last_interaction(user)
        for message_id in reversed(interaction.reply_ids):
            msg = self.messages[message_id]
            if not msg.deleted and msg.visible_to in (None, user.id):
                return msg
        raise AssertionError(
            f"{user.name}'s last interaction {interaction.name!r} got no visible reply "
            f"(response type {interaction.response_type})"
        )

    def modals(self, user: FakeUser) -> list[FakeModal]:
        return list(self._modals.get(user.id, []))

    def last_modal(self, user: FakeUser) -> FakeModal:
        try:
            return self._modals[user.id][-1]
        except (KeyError, IndexError):
            raise LookupError(f"no modal was shown to {user.name}") from None

    def all_public_text(self) -> list[str]:
        """Every string that was ever publicly visible: all versions of all public messages
        (content, embed texts, component labels/options/texts) and public thread names."""
        return list(self._public_text)

    def assert_clean(self) -> None:
        """No rejected requests, no unacknowledged interactions, no logged errors."""
        problems = [f"rejected: {r}" for r in self.rejections]
        problems += [
            f"never acknowledged: {i.name!r} by {i.user.name}"
            for i in self.interactions
            if not i.acknowledged
        ]
        if self.error_logs:
            problems.append(f"logged errors:\n{_format_records(self.error_logs)}")
        if problems:
            raise AssertionError("\n".join(problems))

    # ---- request dispatch -------------------------------------------------------------------

    async def _handle(
        self, route: Route, body: Any, params: Mapping[str, Any] | None, files: list[FakeAttachment]
    ) -> Any:
        await asyncio.sleep(0)  # a real request is a suspension point
        url = urlsplit(route.url)
        path = unquote(url.path.removeprefix(_API_PREFIX))
        query = {k: str(v) for k, v in (params or {}).items()}
        query.update(parse_qsl(url.query))
        if body is not None:
            body = json.loads(discord.utils._to_json(body))  # what would go over the wire
        self.requests.append(RecordedRequest(route.method, path, body, query))
        for method, pattern, handler in _ROUTES:
            if method == route.method and (match := pattern.fullmatch(path)):
                request = _Request(route.method, path, body, query, files, match.groups())
                for fault in list(self.faults):
                    if (failure := fault.strike(self, request)) is not None:
                        raise failure
                return getattr(self, handler)(request)
        self.unknown_routes.append(f"{route.method} {path}")
        _log.debug("fake discord: unknown route %s %s", route.method, path)
        if route.method == "GET" and re.search(r"s$|/pins$|/archived/\w+$", path):
            return []
        return {}

    def _reject(
        self,
        request: _Request,
        status: int,
        code: int,
        message: str,
        errors: _Errors | None = None,
    ) -> discord.HTTPException:
        tree = errors.tree if errors else {}
        self.rejections.append(
            Rejection(request.method, request.path, status, code, message, tree, request.body)
        )
        response = _FakeResponse(
            status, _REASONS.get(status, "Error"), request.method, request.path
        )
        payload: dict[str, Any] = {"code": code, "message": message}
        if tree:
            payload["errors"] = tree
        exc_type = {403: discord.Forbidden, 404: discord.NotFound}.get(
            status, discord.HTTPException
        )
        return exc_type(response, payload)  # type: ignore[arg-type]

    def _invalid(self, request: _Request, errors: _Errors) -> discord.HTTPException:
        return self._reject(request, 400, 50035, "Invalid Form Body", errors)

    def _check_message(
        self, request: _Request, merged: Mapping[str, Any], prefix: tuple[str, ...] = ()
    ) -> None:
        errors = _Errors()
        _validate_message(merged, errors, prefix)
        if errors:
            raise self._invalid(request, errors)
        content = (merged.get("content") or "").strip()
        if not (
            content
            or merged.get("embeds")
            or merged.get("components")
            or merged.get("attachments")
            or merged.get("poll")
            or merged.get("sticker_ids")
        ):
            raise self._reject(request, 400, 50006, "Cannot send an empty message")

    # ---- message model ----------------------------------------------------------------------

    def _channel_or_404(self, request: _Request, channel_id: str) -> FakeChannel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise self._reject(request, 404, 10003, "Unknown Channel")
        return channel

    def _message_or_404(
        self,
        request: _Request,
        message_id: str | int,
        *,
        channel_id: str | None = None,
        viewer: int | None = None,
    ) -> FakeMessage:
        msg = self.messages.get(int(message_id))
        if (
            msg is None
            or msg.deleted
            or (channel_id is not None and msg.channel_id != int(channel_id))
            or (msg.ephemeral and msg.visible_to != viewer)
        ):
            raise self._reject(request, 404, 10008, "Unknown Message")
        return msg

    def _attachments_for(
        self,
        body: Mapping[str, Any],
        files: list[FakeAttachment],
        existing: Sequence[FakeAttachment] = (),
    ) -> list[FakeAttachment]:
        kept = list(existing)
        if "attachments" in body:
            keep_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a for a in existing if str(a.id) in keep_ids]
        return kept + files

    def _create_message(
        self,
        request: _Request,
        channel: FakeChannel,
        body: Mapping[str, Any],
        *,
        visible_to: int | None = None,
        flags: int | None = None,
        interaction: FakeInteraction | None = None,
        prefix: tuple[str, ...] = (),
        message_type: int = 0,
        check: bool = True,
    ) -> FakeMessage:
        if flags is None:
            flags = (body.get("flags") or 0) & ~LOADING
        attachments = self._attachments_for(body, request.files)
        draft = {**body, "flags": flags, "attachments": attachments}
        if check:
            self._check_message(request, draft, prefix)
        msg = FakeMessage(
            id=self._new_id(),
            channel_id=channel.id,
            author_id=self.bot_user.id,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=flags,
            visible_to=visible_to,
            attachments=attachments,
            interaction_id=interaction.id if interaction else None,
            type=message_type,
        )
        for attachment in msg.attachments:
            attachment.id = attachment.id or self._new_id()
        self.messages[msg.id] = msg
        self._log_public(msg)
        if interaction is not None:
            interaction.reply_ids.append(msg.id)
        return msg

    def _edit_message(
        self,
        request: _Request,
        msg: FakeMessage,
        body: Mapping[str, Any],
        *,
        interaction: FakeInteraction | None = None,
        prefix: tuple[str, ...] = (),
    ) -> FakeMessage:
        """Apply a PATCH-style edit (absent fields are kept); the ephemeral bit cannot change."""
        merged: dict[str, Any] = {
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "flags": msg.flags & ~LOADING,
            "attachments": msg.attachments,
        }
        for key in ("content", "embeds", "components"):
            if key in body:
                merged[key] = (
                    body[key] if body[key] is not None else ("" if key == "content" else [])
                )
        if body.get("flags") is not None:
            merged["flags"] = (body["flags"] & ~EPHEMERAL & ~LOADING) | (msg.flags & EPHEMERAL)
        merged["attachments"] = self._attachments_for(body, request.files, msg.attachments)
        self._check_message(request, merged, prefix)
        msg.history.append(self._message_json(msg))
        msg.content = merged["content"] or ""
        msg.embeds = list(merged["embeds"])
        msg.components = list(merged["components"])
        msg.flags = merged["flags"]
        msg.attachments = merged["attachments"]
        for attachment in msg.attachments:
            attachment.id = attachment.id or self._new_id()
        msg.edited = True
        self._log_public(msg)
        if interaction is not None:
            interaction.reply_ids.append(msg.id)
        return msg

    def _log_public(self, msg: FakeMessage) -> None:
        channel = self.channels[msg.channel_id]
        if msg.visible_to is None and channel.is_public:
            self._public_text.extend(msg.strings())

    # ---- REST routes: identity, application, commands ---------------------------------------

    @_route("GET", r"/users/@me")
    def _get_me(self, request: _Request) -> Any:
        return {
            **self._user_json(self.bot_user),
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "locale": "en-US",
        }

    @_route("GET", r"/oauth2/applications/@me")
    def _get_application(self, request: _Request) -> Any:
        owner = self.users.get(self.app_owner_id) or FakeUser(self.app_owner_id, "owner", "Owner")
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": self._user_json(owner),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "interactions_endpoint_url": None,
            "bot": self._user_json(self.bot_user),
        }

    @_route("GET", rf"/users/{_ID}")
    def _get_user(self, request: _Request) -> Any:
        user = self.users.get(int(request.args[0]))
        if user is None:
            raise self._reject(request, 404, 10013, "Unknown User")
        return self._user_json(user)

    @_route("GET", rf"/guilds/{_ID}/members/{_ID}")
    def _get_member(self, request: _Request) -> Any:
        user = self.users.get(int(request.args[1]))
        if user is None or int(request.args[0]) != self.guild_id:
            raise self._reject(request, 404, 10007, "Unknown Member")
        return self._member_json(user)

    @_route("GET", rf"/guilds/{_ID}/channels")
    def _get_guild_channels(self, request: _Request) -> Any:
        return [self._channel_json(c) for c in self.channels.values() if c.type in (0, 2, 4, 5)]

    @_route("GET", rf"/channels/{_ID}")
    def _get_channel(self, request: _Request) -> Any:
        return self._channel_json(self._channel_or_404(request, request.args[0]))

    @_route("PATCH", rf"/channels/{_ID}")
    def _patch_channel(self, request: _Request) -> Any:
        """Rename a channel or thread, or (un)archive a thread."""
        channel = self._channel_or_404(request, request.args[0])
        body = request.body or {}
        if "name" in body:
            if not 1 <= len(body["name"]) <= 100:
                raise self._reject(request, 400, 50035, "Invalid Form Body")
            channel.name = body["name"]
            if channel.type == 11:
                self._public_text.append(channel.name)
        if "archived" in body:
            channel.archived = bool(body["archived"])
        return self._channel_json(channel)

    def archive(self, channel: FakeChannel) -> None:
        """Discord archives an idle thread: messages to it fail until it is un-archived."""
        channel.archived = True

    def _check_not_archived(self, request: _Request, channel: FakeChannel) -> None:
        if channel.archived:
            raise self._reject(request, 400, 50083, "Thread is archived")

    def _commands_scope(self, request: _Request) -> int | None:
        return int(request.args[1]) if len(request.args) > 1 else None

    @_route("GET", rf"/applications/{_ID}/commands")
    @_route("GET", rf"/applications/{_ID}/guilds/{_ID}/commands")
    def _get_commands(self, request: _Request) -> Any:
        return copy.deepcopy(self.commands.get(self._commands_scope(request), []))

    @_route("PUT", rf"/applications/{_ID}/commands")
    @_route("PUT", rf"/applications/{_ID}/guilds/{_ID}/commands")
    def _put_commands(self, request: _Request) -> Any:
        scope = self._commands_scope(request)
        errors = _Errors()
        body = request.body or []
        if len([c for c in body if c.get("type", 1) == 1]) > 100:
            errors.add((), "Must be 100 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        for i, cmd in enumerate(body):
            _validate_command(cmd, errors, (i,))
        if errors:
            raise self._invalid(request, errors)
        old = {(c["name"], c.get("type", 1)): c for c in self.commands.get(scope, [])}
        stored = [self._store_command(cmd, scope, old) for cmd in body]
        self.commands[scope] = stored
        return copy.deepcopy(stored)

    @_route("POST", rf"/applications/{_ID}/commands")
    @_route("POST", rf"/applications/{_ID}/guilds/{_ID}/commands")
    def _post_command(self, request: _Request) -> Any:
        scope = self._commands_scope(request)
        errors = _Errors()
        _validate_command(request.body, errors, ())
        if errors:
            raise self._invalid(request, errors)
        existing = self.commands.setdefault(scope, [])
        old = {(c["name"], c.get("type", 1)): c for c in existing}
        stored = self._store_command(request.body, scope, old)
        existing[:] = [c for c in existing if c["id"] != stored["id"]] + [stored]
        return copy.deepcopy(stored)

    def _store_command(
        self,
        cmd: Mapping[str, Any],
        scope: int | None,
        old: Mapping[tuple[str, int], Mapping[str, Any]],
    ) -> dict[str, Any]:
        previous = old.get((cmd["name"], cmd.get("type", 1)))
        stored = {
            "type": 1,
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **copy.deepcopy(dict(cmd)),
            "id": previous["id"] if previous else str(self._new_id()),
            "application_id": str(self.application_id),
            "version": str(self._new_id()),
        }
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored

    # ---- REST routes: messages ---------------------------------------------------------------

    @_route("POST", rf"/channels/{_ID}/messages")
    def _post_message(self, request: _Request) -> Any:
        channel = self._channel_or_404(request, request.args[0])
        self._check_not_archived(request, channel)
        body = request.body or {}
        flags = (body.get("flags") or 0) & ~EPHEMERAL & ~LOADING
        visible_to = channel.recipient_id if channel.type == 1 else None
        msg = self._create_message(request, channel, body, flags=flags, visible_to=visible_to)
        return self._message_json(msg)

    @_route("GET", rf"/channels/{_ID}/messages/{_ID}")
    def _get_message(self, request: _Request) -> Any:
        return self._message_json(
            self._message_or_404(request, request.args[1], channel_id=request.args[0])
        )

    @_route("GET", rf"/channels/{_ID}/messages")
    def _get_messages(self, request: _Request) -> Any:
        channel = self._channel_or_404(request, request.args[0])
        limit = int(request.params.get("limit", 50))
        before = int(request.params.get("before", 1 << 63))
        after = int(request.params.get("after", 0))
        found = [
            m
            for m in sorted(self.messages.values(), key=lambda m: m.id, reverse=True)
            if m.channel_id == channel.id
            and not m.deleted
            and not m.ephemeral
            and after < m.id < before
        ]
        return [self._message_json(m) for m in found[:limit]]

    @_route("PATCH", rf"/channels/{_ID}/messages/{_ID}")
    def _patch_message(self, request: _Request) -> Any:
        self._check_not_archived(request, self._channel_or_404(request, request.args[0]))
        msg = self._message_or_404(request, request.args[1], channel_id=request.args[0])
        if msg.author_id != self.bot_user.id:
            raise self._reject(
                request, 403, 50005, "Cannot edit a message authored by another user"
            )
        return self._message_json(self._edit_message(request, msg, request.body or {}))

    @_route("DELETE", rf"/channels/{_ID}/messages/{_ID}")
    def _delete_message(self, request: _Request) -> Any:
        msg = self._message_or_404(request, request.args[1], channel_id=request.args[0])
        msg.deleted = True
        return None

    @_route("POST", rf"/channels/{_ID}/messages/bulk-delete")
    def _bulk_delete(self, request: _Request) -> Any:
        for message_id in (request.body or {}).get("messages", []):
            if (msg := self.messages.get(int(message_id))) is not None and not msg.ephemeral:
                msg.deleted = True
        return None

    @_route("PUT", rf"/channels/{_ID}/messages/pins/{_ID}")
    @_route("DELETE", rf"/channels/{_ID}/messages/pins/{_ID}")
    def _pin(self, request: _Request) -> Any:
        msg = self._message_or_404(request, request.args[1], channel_id=request.args[0])
        msg.pinned = request.method == "PUT"
        return None

    @_route("PUT", rf"/channels/{_ID}/messages/{_ID}/reactions/([^/]+)/@me")
    def _react(self, request: _Request) -> Any:
        msg = self._message_or_404(request, request.args[1], channel_id=request.args[0])
        msg.reactions.append(request.args[2])
        return None

    @_route("POST", rf"/channels/{_ID}/typing")
    def _typing(self, request: _Request) -> Any:
        self._channel_or_404(request, request.args[0])
        return None

    # ---- REST routes: threads and DMs --------------------------------------------------------

    def _new_thread(self, request: _Request, parent: FakeChannel, thread_id: int, kind: int) -> Any:
        name = (request.body or {}).get("name")
        errors = _Errors()
        errors.length(("name",), name, 100, 1)
        if kind not in (11, 12):
            errors.add(("type",), "Value must be one of {11, 12}.", "BASE_TYPE_CHOICES")
        if parent.type != 0:
            raise self._reject(request, 400, 50024, "Cannot execute action on this channel type")
        if errors:
            raise self._invalid(request, errors)
        thread = FakeChannel(
            thread_id,
            name,
            kind,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            member_ids={self.bot_user.id},
        )
        self.channels[thread.id] = thread
        if thread.is_public:
            self._public_text.append(thread.name)
        data = self._channel_json(thread)
        self._parse("THREAD_CREATE", {**data, "newly_created": True})
        return data

    @_route("POST", rf"/channels/{_ID}/threads")
    def _post_thread(self, request: _Request) -> Any:
        parent = self._channel_or_404(request, request.args[0])
        return self._new_thread(
            request, parent, self._new_id(), int((request.body or {}).get("type", 11))
        )

    @_route("POST", rf"/channels/{_ID}/messages/{_ID}/threads")
    def _post_message_thread(self, request: _Request) -> Any:
        parent = self._channel_or_404(request, request.args[0])
        msg = self._message_or_404(request, request.args[1], channel_id=request.args[0])
        if msg.id in self.channels:
            raise self._reject(
                request, 400, 160004, "A thread has already been created for this message"
            )
        return self._new_thread(request, parent, msg.id, 11)  # Discord reuses the message id

    @_route("PUT", rf"/channels/{_ID}/thread-members/{_ID}")
    @_route("PUT", rf"/channels/{_ID}/thread-members/@me")
    def _join_thread(self, request: _Request) -> Any:
        thread = self._channel_or_404(request, request.args[0])
        user_id = int(request.args[1]) if len(request.args) > 1 else self.bot_user.id
        thread.member_ids.add(user_id)
        return None

    @_route("POST", r"/users/@me/channels")
    def _open_dm(self, request: _Request) -> Any:
        recipient = int((request.body or {}).get("recipient_id", 0))
        if recipient not in self.users or not self.users[recipient].dms_open:
            raise self._reject(request, 403, 50007, "Cannot send messages to this user")
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient_id == recipient:
                return self._channel_json(channel)
        channel = FakeChannel(self._new_id(), "", 1, recipient_id=recipient)
        self.channels[channel.id] = channel
        return self._channel_json(channel)

    # ---- interaction routes (webhook adapter) ------------------------------------------------

    def _interaction_or_404(
        self, request: _Request, token: str, *, code: int = 10015, message: str = "Unknown Webhook"
    ) -> FakeInteraction:
        interaction = self._by_token.get(token)
        if interaction is None:
            raise self._reject(request, 404, code, message)
        return interaction

    @_route("POST", rf"/interactions/{_ID}/{_TOKEN}/callback")
    def _callback(self, request: _Request) -> Any:
        interaction = self._interaction_or_404(
            request, request.args[1], code=10062, message="Unknown interaction"
        )
        if interaction.response_type is not None:
            raise self._reject(request, 400, 40060, "Interaction has already been acknowledged.")
        body = request.body or {}
        kind = body.get("type")
        data: dict[str, Any] = body.get("data") or {}
        channel = self.channels[interaction.channel_id]
        source = self.messages.get(interaction.source_message_id or 0)
        user = interaction.user
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[interaction.type]
        if kind not in allowed:
            raise self._reject(
                request,
                400,
                50035,
                f"Interaction response type {kind} is invalid for interaction type "
                f"{interaction.type}",
            )
        ack: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
        resource: dict[str, Any] | None = {"type": kind}
        if kind == 4:
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            msg = self._create_message(
                request,
                channel,
                data,
                visible_to=user.id if ephemeral else None,
                interaction=interaction,
                prefix=("data",),
                message_type=20 if interaction.type == 2 else 0,
            )
            interaction.original_message_id = msg.id
            ack.update(
                response_message_id=str(msg.id),
                response_message_loading=False,
                response_message_ephemeral=ephemeral,
            )
            resource = {"type": kind, "message": self._message_json(msg)}
        elif kind == 5:
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            flags = LOADING | (EPHEMERAL if ephemeral else 0)
            msg = self._create_message(
                request,
                channel,
                {},
                flags=flags,
                visible_to=user.id if ephemeral else None,
                interaction=interaction,
                message_type=20 if interaction.type == 2 else 0,
                check=False,
            )
            interaction.original_message_id = msg.id
            ack.update(
                response_message_id=str(msg.id),
                response_message_loading=True,
                response_message_ephemeral=ephemeral,
            )
            resource = {"type": kind, "message": self._message_json(msg)}
        elif kind == 6:
            interaction.original_message_id = source.id if source else None
            resource = None
        elif kind == 7:
            if source is None or source.deleted:
                raise self._reject(request, 404, 10008, "Unknown Message")
            msg = self._edit_message(
                request, source, data, interaction=interaction, prefix=("data",)
            )
            interaction.original_message_id = msg.id
            ack.update(
                response_message_id=str(msg.id),
                response_message_loading=False,
                response_message_ephemeral=msg.ephemeral,
            )
            resource = {"type": kind, "message": self._message_json(msg)}
        elif kind == 8:
            errors = _Errors()
            choices = data.get("choices") or []
            errors.count(("data", "choices"), choices, 25)
            for i, choice in enumerate(choices):
                errors.length(("data", "choices", i, "name"), choice.get("name"), 100, 1)
                if isinstance(choice.get("value"), str):
                    errors.length(("data", "choices", i, "value"), choice.get("value"), 100)
            if errors:
                raise self._invalid(request, errors)
            interaction.autocomplete_choices = choices
            resource = None
        elif kind == 9:
            errors = _Errors()
            _validate_modal(data, errors)
            if errors:
                raise self._invalid(request, errors)
            modal = FakeModal(
                data["custom_id"], data["title"], data["components"], user.id, interaction
            )
            interaction.modal = modal
            self._modals.setdefault(user.id, []).append(modal)
            resource = None
        interaction.response_type = kind
        answer: dict[str, Any] = {"interaction": ack}
        if resource is not None:
            answer["resource"] = resource
        return answer

    def _acknowledged_or_404(self, request: _Request, token: str) -> FakeInteraction:
        interaction = self._interaction_or_404(request, token)
        if interaction.response_type is None:
            raise self._reject(request, 404, 10015, "Unknown Webhook")
        return interaction

    @_route("POST", rf"/webhooks/{_ID}/{_TOKEN}")
    def _followup(self, request: _Request) -> Any:
        interaction = self._acknowledged_or_404(request, request.args[1])
        body = request.body or {}
        original = self.messages.get(interaction.original_message_id or 0)
        if interaction.response_type == 5 and original is not None and original.loading:
            # The first followup after a "thinking" defer replaces the placeholder and keeps
            # the defer's visibility, whatever flags it asks for.
            msg = self._edit_message(request, original, body, interaction=interaction)
        else:
            channel = self.channels[interaction.channel_id]
            ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
            msg = self._create_message(
                request,
                channel,
                body,
                visible_to=interaction.user.id if ephemeral else None,
                interaction=interaction,
            )
        interaction.followup_ids.append(msg.id)
        return self._message_json(msg)

    def _webhook_target(self, request: _Request) -> tuple[FakeInteraction, FakeMessage]:
        interaction = self._acknowledged_or_404(request, request.args[1])
        target = request.args[2]
        if target == "@original":
            if interaction.original_message_id is None:
                raise self._reject(request, 404, 10008, "Unknown Message")
            target = str(interaction.original_message_id)
        return interaction, self._message_or_404(request, target, viewer=interaction.user.id)

    @_route("GET", rf"/webhooks/{_ID}/{_TOKEN}/messages/(@original|\d+)")
    def _get_webhook_message(self, request: _Request) -> Any:
        return self._message_json(self._webhook_target(request)[1])

    @_route("PATCH", rf"/webhooks/{_ID}/{_TOKEN}/messages/(@original|\d+)")
    def _patch_webhook_message(self, request: _Request) -> Any:
        interaction, msg = self._webhook_target(request)
        return self._message_json(
            self._edit_message(request, msg, request.body or {}, interaction=interaction)
        )

    @_route("DELETE", rf"/webhooks/{_ID}/{_TOKEN}/messages/(@original|\d+)")
    def _delete_webhook_message(self, request: _Request) -> Any:
        msg = self._webhook_target(request)[1]
        msg.deleted = True
        return None


# --------------------------------------------------------------------------------------------
# Patches and event-loop introspection
# --------------------------------------------------------------------------------------------


def _files_from_form(form: Iterable[Mapping[str, Any]] | None) -> tuple[Any, list[FakeAttachment]]:
    body: Any = None
    files: list[FakeAttachment] = []
    for part in form or []:
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
        elif "filename" in part:
            value = part.get("value")
            data = value.read() if hasattr(value, "read") else bytes(value or b"")
            files.append(FakeAttachment(0, part["filename"], data))
    return body, files


def _make_http_patch(fake: FakeDiscord) -> Callable[..., Any]:
    async def request(
        http: HTTPClient,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Iterable[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Any:
        if form:
            body, attachments = _files_from_form(form)
        else:
            body, attachments = kwargs.get("json"), []
        return await fake._handle(route, body, kwargs.get("params"), attachments)

    return request


def _make_webhook_patch(fake: FakeDiscord) -> Callable[..., Any]:
    async def request(
        adapter: AsyncWebhookAdapter,
        route: Route,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        params: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        if multipart:
            body, attachments = _files_from_form(multipart)
        else:
            body, attachments = payload, []
        return await fake._handle(route, body, params, attachments)

    return request


def _timer_owner(
    handle: asyncio.TimerHandle, waiters: Mapping[int, asyncio.Task[Any]]
) -> asyncio.Task[Any] | None:
    """The task a timer will wake up, if it can be told.

    ``asyncio.sleep`` and ``wait_for`` schedule ``callback(future, ...)``; ``ext.tasks``
    schedules ``future.set_result``; ``asyncio.timeout`` schedules ``Timeout._on_timeout``.
    """
    callback = getattr(handle, "_callback", None)
    candidates = [*(getattr(handle, "_args", None) or ()), getattr(callback, "__self__", None)]
    for candidate in candidates:
        if candidate is None:
            continue
        if (task := waiters.get(id(candidate))) is not None:
            return task
        if isinstance(owner := getattr(candidate, "_task", None), asyncio.Task):
            return owner
    return None


def _next_pending_timer(
    loop: asyncio.AbstractEventLoop,
    baseline: set[asyncio.Task[Any]],
    *,
    horizon: float,
    limit: float,
) -> float | None:
    """When the earliest timer that ``settle`` should wait for is due (``None``: idle)."""
    now = loop.time()
    waiters = {
        id(waiter): task
        for task in asyncio.all_tasks()
        if (waiter := getattr(task, "_fut_waiter", None)) is not None
    }
    best: float | None = None
    scheduled: Iterable[asyncio.TimerHandle] = getattr(loop, "_scheduled", ())
    for handle in scheduled:
        if handle.cancelled():
            continue
        when = handle.when()
        if when <= now:
            return when  # already due: the loop runs it next
        if when - now > horizon or when > limit or (best is not None and when >= best):
            continue
        owner = _timer_owner(handle, waiters)
        if owner is not None and owner in baseline:
            continue
        best = when
    return best


def _innermost_frame_module(task: asyncio.Task[Any]) -> str:
    coro: Any = task.get_coro()
    while True:
        inner = (
            getattr(coro, "cr_await", None)
            or getattr(coro, "gi_yieldfrom", None)
            or getattr(coro, "ag_await", None)
        )
        if inner is None or not any(
            hasattr(inner, a) for a in ("cr_frame", "gi_frame", "ag_frame")
        ):
            break
        coro = inner
    frame = (
        getattr(coro, "cr_frame", None)
        or getattr(coro, "gi_frame", None)
        or getattr(coro, "ag_frame", None)
    )
    return frame.f_globals.get("__name__", "") if frame is not None else ""


def _waits_on_thread(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` waits for a worker thread (executor future or aiosqlite)."""
    waiter = getattr(task, "_fut_waiter", None)
    if waiter is None:
        return False
    for callback, *_ in getattr(waiter, "_callbacks", None) or ():
        if getattr(callback, "__qualname__", "").startswith("_chain_future."):
            return True
    module = _innermost_frame_module(task)
    return any(module == m or module.startswith(m + ".") for m in _THREAD_BACKED_MODULES)


# aiosqlite calls still waiting for their worker thread. Counted by a wrapper around
# ``aiosqlite.Connection._execute`` (installed by ``running``), because its ``execute``
# returns an awaitable whose frames the task-inspection heuristic cannot see into.
_DB_CALLS_IN_FLIGHT = [0]


def _counting_execute(original: Callable[..., Any]) -> Callable[..., Any]:
    async def _execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        _DB_CALLS_IN_FLIGHT[0] += 1
        try:
            return await original(self, *args, **kwargs)
        finally:
            _DB_CALLS_IN_FLIGHT[0] -= 1

    return _execute


def _db_choke_points() -> list[tuple[type, str]]:
    """The coroutines every database call goes through, counted while in flight: aiosqlite's
    worker-thread hop, and asyncpg's socket round trips (PostgreSQL answers over a socket, so
    a query in flight leaves the loop looking idle)."""
    points: list[tuple[type, str]] = [(aiosqlite.Connection, "_execute")]
    try:
        import asyncpg.connection
        import asyncpg.pool
    except ImportError:
        return points
    points += [
        (asyncpg.connection.Connection, name)
        for name in ("execute", "_execute", "_executemany", "reset")
    ]
    points += [(asyncpg.pool.Pool, "_acquire"), (asyncpg.pool.Pool, "release")]
    return points


def _thread_backed_tasks() -> list[asyncio.Task[Any]]:
    current = asyncio.current_task()
    return [
        t for t in asyncio.all_tasks() if t is not current and not t.done() and _waits_on_thread(t)
    ]


def _describe_tasks() -> str:
    current = asyncio.current_task()
    lines = []
    for task in asyncio.all_tasks():
        if task is current or task.done():
            continue
        stack = task.get_stack(limit=1)
        where = f"{stack[-1].f_code.co_filename}:{stack[-1].f_lineno}" if stack else "?"
        lines.append(f"  {task.get_name()}: {task.get_coro()!r} at {where}")
    return "\n".join(lines)
