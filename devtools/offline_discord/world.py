"""The world the fake Discord keeps (one guild, its users, roles, channels and messages) and
the JSON discord.py reads of it."""

from __future__ import annotations

import copy
import datetime
import logging
from typing import Any

import discord

from devtools.offline_discord.clock import _FakeClock
from devtools.offline_discord.model import (
    _BOT_PERMISSIONS,
    _DISCORD_EPOCH_MS,
    _EVERYONE_PERMISSIONS,
    _FIRST_ID_MS,
    _THREAD_TYPES,
    BOT_ROLE_POSITION,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeRole,
    FakeUser,
    RecordedRequest,
    Rejection,
    T,
    _iso,
)
from devtools.offline_discord.ratelimits import CallCounts, RateLimits
from devtools.offline_discord.wire import Fault

_DISCORDS: Any = object()  # a fresh RateLimits() at Discord's figures for each fake


class World:
    """The in-memory guild and what was sent in it; the base of :class:`FakeDiscord`."""

    def __init__(
        self,
        *,
        guild_name: str = "Test Guild",
        bot_name: str = "Cookie Jar",
        first_id: int = 0,
        rate_limits: RateLimits | None = _DISCORDS,
    ) -> None:
        # ``first_id``: where the snowflake counter starts, so fakes in several processes
        # can own disjoint ids (and a guild can be put in a chosen shard).
        self._counter = first_id
        self.guild_name = guild_name
        self.guild_id = self._new_id()
        self.guild_locale = "en-US"
        """The guild's preferred locale (a community server's language): see set_guild_locale."""
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
        self.bot_permissions = _BOT_PERMISSIONS
        """The bot's role's permissions: see :meth:`grant_bot`."""
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.channels: dict[int, FakeChannel] = {}
        # Each channel's place in ``channels`` (its position), rebuilt when one was added:
        # every interaction's payload names its channel's, and looking it up in a list of
        # the channels was a walk of all 1,000 at 1,000 tables (channels are never removed).
        self._positions: dict[int, int] = {}
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
        self.rate_limits = RateLimits() if rate_limits is _DISCORDS else rate_limits
        """Discord's request budget (``ratelimits``), or None: every request served."""
        self.calls = CallCounts()
        """Requests served, budgeted and free, by route; and refused with 429."""
        self._by_token: dict[str, FakeInteraction] = {}
        self._last_interaction: dict[int, FakeInteraction] = {}
        self._modals: dict[int, list[FakeModal]] = {}
        self._public_text: list[str] = []
        self._bot: discord.Client | None = None
        self._clock: _FakeClock | None = None
        # Fake seconds earlier runs moved the clock on: the next run's clock starts there.
        # Discord's rate limit windows (kept here) outlive a bot's restart, and with fake
        # time going back they would reset half a minute in the future: a post after a
        # restart then waited that half minute in real time.
        self._clock_offset = 0.0
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

    def set_guild_locale(self, locale: str) -> None:
        """Change the guild's preferred locale, as an admin does in Server Settings."""
        self.guild_locale = locale
        if self._bot is not None:
            self._parse("GUILD_UPDATE", self._guild_json())

    def add_role(self, name: str, *members: FakeUser, below_bot: bool = False) -> FakeRole:
        """Add a role to the guild and give it to ``members``; above the bot's own role
        unless ``below_bot`` (where the bot may give it, with Manage Roles)."""
        role = FakeRole(self._new_id(), name, BOT_ROLE_POSITION - 1 if below_bot else None)
        self.roles[role.id] = role
        if self._bot is not None:
            self._parse(
                "GUILD_ROLE_CREATE",
                {"guild_id": str(self.guild_id), "role": self.fake_role_json(role)},
            )
        for member in members:
            member.roles.append(role.id)
        return role

    def role_position(self, role: FakeRole) -> int:
        if role.position is not None:
            return role.position
        return BOT_ROLE_POSITION + 1 + list(self.roles).index(role.id)

    def fake_role_json(self, role: FakeRole) -> dict[str, Any]:
        return self._role_json(
            role.id, role.name, discord.Permissions.none(), self.role_position(role)
        )

    def grant_bot(self, **permissions: bool) -> None:
        """Change the bot's role's permissions (``manage_roles=True``), as an admin does in
        Server Settings → Roles."""
        self.bot_permissions = discord.Permissions(self.bot_permissions.value)
        self.bot_permissions.update(**permissions)
        if self._bot is not None:
            self._parse(
                "GUILD_ROLE_UPDATE",
                {
                    "guild_id": str(self.guild_id),
                    "role": self._role_json(
                        self.bot_role_id,
                        self.bot_user.name,
                        self.bot_permissions,
                        BOT_ROLE_POSITION,
                    ),
                },
            )

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
            return _EVERYONE_PERMISSIONS | self.bot_permissions
        if user.manage_guild:
            return _EVERYONE_PERMISSIONS | discord.Permissions(manage_guild=True)
        return _EVERYONE_PERMISSIONS

    def _require_bot(self) -> discord.Client:
        if self._bot is None:
            raise RuntimeError("no bot is running: use `async with fake.running(bot):`")
        return self._bot

    def _parse(self, event: str, data: dict[str, Any]) -> None:
        """Deliver a gateway event to the running bot's connection state."""
        self._require_bot()._connection.parsers[event](data)

    # ---- JSON -------------------------------------------------------------------------------

    def _copy(self, value: T) -> T:
        """What the fake hands the bot is a copy: the bot must never share the fake's records."""
        return copy.deepcopy(value)

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

    def _position(self, channel_id: int) -> int:
        if len(self._positions) != len(self.channels):
            self._positions = {known: place for place, known in enumerate(self.channels)}
        return self._positions[channel_id]

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
            position=self._position(channel.id),
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
                self._role_json(
                    self.bot_role_id, self.bot_user.name, self.bot_permissions, BOT_ROLE_POSITION
                ),
                *(self.fake_role_json(r) for r in self.roles.values()),
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
            "preferred_locale": self.guild_locale,
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
            "embeds": self._copy(msg.embeds),
            "components": self._copy(msg.components),
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
