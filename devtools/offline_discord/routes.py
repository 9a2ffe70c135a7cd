"""Discord's side of the REST conversation: identity, commands, messages, threads, DMs
and interaction callbacks, each refusing what Discord refuses."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import discord

from devtools.offline_discord.limits import (
    _Errors,
    _validate_command,
    _validate_message,
    _validate_modal,
)
from devtools.offline_discord.model import (
    BOT_ROLE_POSITION,
    EPHEMERAL,
    LOADING,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeUser,
    RecordedRequest,
    Rejection,
)
from devtools.offline_discord.ratelimits import is_free
from devtools.offline_discord.wire import (
    _ID,
    _ROUTES,
    _TOKEN,
    API_PREFIX,
    _FakeResponse,
    _Request,
    _route,
    error_response,
    http_error,
)
from devtools.offline_discord.world import World

_log = logging.getLogger(__name__)

# Seconds Discord waits for the first answer to an interaction (then 10062 Unknown
# interaction), in the event loop's time, which the harness moves on in fake time.
ANSWER_WITHIN = 3.0


class Routes(World):
    """The REST routes the bot calls, as methods registered with ``_route``."""

    async def _answer(
        self,
        method: str,
        url: str,
        body: Any,
        params: Mapping[str, Any] | None,
        files: list[FakeAttachment],
    ) -> _FakeResponse:
        """A bot REST call, answered at discord.py's session: within Discord's budget (or
        refused with Discord's 429, which discord.py's ``HTTPClient.request`` then handles),
        else as :meth:`_handle` would, as a response instead of an exception."""
        await asyncio.sleep(0)  # a real request is a suspension point
        request = self._read(method, url, body, params, files)
        headers: dict[str, str] = {}
        if self.rate_limits is not None and not is_free(request.path):
            verdict = self.rate_limits.check(request.method, request.path)
            if verdict.refused:
                self.calls.refuse(request.method, verdict.scope)
                return _FakeResponse(
                    429, "Too Many Requests", method, url, verdict.body, verdict.headers
                )
            headers = verdict.headers
        try:
            result = self._serve(request)
        except discord.HTTPException as refusal:
            response: _FakeResponse = refusal.response  # type: ignore[assignment]
            response.headers.update(headers)
            return response
        status = 204 if result is None else 200
        return _FakeResponse(status, "OK", method, url, result, headers)

    async def _handle(
        self,
        method: str,
        url: str,
        body: Any,
        params: Mapping[str, Any] | None,
        files: list[FakeAttachment],
    ) -> Any:
        """An interaction answer (discord.py's webhook adapter): outside Discord's budget;
        a refusal is raised as discord.py would raise it."""
        await asyncio.sleep(0)
        return self._serve(self._read(method, url, body, params, files))

    def _read(
        self,
        method: str,
        url: str,
        body: Any,
        params: Mapping[str, Any] | None,
        files: list[FakeAttachment],
    ) -> _Request:
        split = urlsplit(url)
        path = unquote(split.path.removeprefix(API_PREFIX))
        query = {k: str(v) for k, v in (params or {}).items()}
        query.update(parse_qsl(split.query))
        if body is not None:
            body = json.loads(discord.utils._to_json(body))  # what would go over the wire
        return _Request(method, path, body, query, files)

    def _serve(self, request: _Request) -> Any:
        """Carry out a request Discord accepted: its route's handler, or a fault."""
        self.requests.append(
            RecordedRequest(request.method, request.path, request.body, request.params)
        )
        for method, pattern, handler in _ROUTES:
            if method == request.method and (match := pattern.fullmatch(request.path)):
                request.args = match.groups()
                self.calls.count(request.path, handler)
                for fault in list(self.faults):
                    if (failure := fault.strike(request)) is not None:
                        raise failure
                return getattr(self, handler)(request)
        self.calls.count(request.path, "unknown")
        self.unknown_routes.append(f"{request.method} {request.path}")
        _log.debug("fake discord: unknown route %s %s", request.method, request.path)
        if request.method == "GET" and re.search(r"s$|/pins$|/archived/\w+$", request.path):
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
        payload: dict[str, Any] = {"code": code, "message": message}
        if tree:
            payload["errors"] = tree
        return http_error(error_response(status, request.method, request.path, payload))

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

    @_route("PUT", rf"/guilds/{_ID}/members/{_ID}/roles/{_ID}")
    @_route("DELETE", rf"/guilds/{_ID}/members/{_ID}/roles/{_ID}")
    def _member_role(self, request: _Request) -> Any:
        """Add or remove a member's role (204), with Discord's checks: the bot needs
        Manage Roles (403 50013) and may only manage roles below its own highest
        (403 50013 as well); an unknown role is 404 10011, an unknown member 404 10007."""
        guild, user_id, role_id = (int(arg) for arg in request.args)
        user = self.users.get(user_id)
        if user is None or guild != self.guild_id:
            raise self._reject(request, 404, 10007, "Unknown Member")
        role = self.roles.get(role_id)
        if role is None:
            raise self._reject(request, 404, 10011, "Unknown Role")
        if not self.bot_permissions.manage_roles or self.role_position(role) >= BOT_ROLE_POSITION:
            raise self._reject(request, 403, 50013, "Missing Permissions")
        if request.method == "PUT" and role_id not in user.roles:
            user.roles.append(role_id)
        elif request.method == "DELETE" and role_id in user.roles:
            user.roles.remove(role_id)
        if self._bot is not None and self._bot.intents.members:
            self._parse(
                "GUILD_MEMBER_UPDATE", {**self._member_json(user), "guild_id": str(self.guild_id)}
            )
        return None

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
        return self._copy(self.commands.get(self._commands_scope(request), []))

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
        return self._copy(stored)

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
        return self._copy(stored)

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
            **self._copy(dict(cmd)),
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
        data = self._new_thread(
            request, parent, self._new_id(), int((request.body or {}).get("type", 11))
        )
        if data["type"] == 11:
            self._thread_notice(parent, data["name"])
        return data

    def _thread_notice(self, parent: FakeChannel, name: str) -> None:
        """Discord announces a public thread started without a message in its parent: a
        system message (type 18, THREAD_CREATED) by the thread's creator, whose content is
        the thread's name ("Bot started a thread: R1 · T1 · Ana, Ben")."""
        notice = FakeMessage(
            id=self._new_id(),
            channel_id=parent.id,
            author_id=self.bot_user.id,
            content=name,
            type=18,
        )
        self.messages[notice.id] = notice
        self._log_public(notice)
        self._parse(
            "MESSAGE_CREATE", {**self._message_json(notice), "guild_id": str(self.guild_id)}
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
        sent_at = interaction.sent_at
        if sent_at is not None and asyncio.get_running_loop().time() - sent_at > ANSWER_WITHIN:
            raise self._reject(request, 404, 10062, "Unknown interaction")
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
        if kind in (4, 5):  # a message, or a deferred "thinking" one filled in later
            ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            loading = kind == 5
            msg = self._create_message(
                request,
                channel,
                {} if loading else data,
                flags=(LOADING | (EPHEMERAL if ephemeral else 0)) if loading else None,
                visible_to=user.id if ephemeral else None,
                interaction=interaction,
                prefix=("data",),
                message_type=20 if interaction.type == 2 else 0,
                check=not loading,
            )
            interaction.original_message_id = msg.id
            ack.update(
                response_message_id=str(msg.id),
                response_message_loading=loading,
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
        if not msg.ephemeral:  # a public message of an archived thread stays as it was
            self._check_not_archived(request, self.channels[msg.channel_id])
        return self._message_json(
            self._edit_message(request, msg, request.body or {}, interaction=interaction)
        )

    @_route("DELETE", rf"/webhooks/{_ID}/{_TOKEN}/messages/(@original|\d+)")
    def _delete_webhook_message(self, request: _Request) -> Any:
        msg = self._webhook_target(request)[1]
        msg.deleted = True
        return None
