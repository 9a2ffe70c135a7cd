"""What users do: slash commands, autocomplete, clicks, selects and modals, delivered to
the bot as gateway interactions."""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from devtools.offline_discord.logs import _format_records
from devtools.offline_discord.model import (
    _EVERYONE_PERMISSIONS,
    _SELECT_TYPES,
    ButtonInfo,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeRole,
    FakeUser,
    _walk_components,
)
from devtools.offline_discord.settle import Settling


class Actions(Settling):
    """Users acting: each action is an ``INTERACTION_CREATE`` the bot handles, then a settle."""

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
        return await self._use_component(user, msg, data, expect_ack, dispatch_only)

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
        dispatch_only: bool = False,
    ) -> FakeInteraction:
        """``user`` picks ``values`` in the select ``custom_id`` of ``message``;
        ``dispatch_only``: hand the bot the interaction and return without settling."""
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
        return await self._use_component(user, msg, data, expect_ack, dispatch_only)

    async def _use_component(
        self,
        user: FakeUser,
        msg: FakeMessage,
        data: dict[str, Any],
        expect_ack: bool,
        dispatch_only: bool,
    ) -> FakeInteraction:
        """A click or a pick on ``msg``'s component named in ``data``, sent to the bot."""
        return await self._interact(
            3,
            user,
            self.channels[msg.channel_id],
            data,
            message=msg,
            name=data["custom_id"],
            expect_ack=expect_ack and not dispatch_only,
            dispatch_only=dispatch_only,
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
            role = self.fake_role_json(value)
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
            sent_at=asyncio.get_running_loop().time(),
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
            "guild": {"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
            "channel_id": str(channel.id),
            "channel": self._channel_json(channel, for_user=user),
            "member": self._member_json(user, with_permissions=True),
            "app_permissions": str(self.user_permissions(self.bot_user).value),
            "locale": user.locale,
            "guild_locale": self.guild_locale,
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
