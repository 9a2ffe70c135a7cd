"""Discord's limits: every payload the bot sends is checked as Discord checks it, with
Discord's nested form errors."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from devtools.offline_discord.model import _SELECT_TYPES, COMPONENTS_V2


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
_LOCALES = frozenset(locale.value for locale in discord.Locale)


def _validate_localizations(
    cmd: Mapping[str, Any], errors: _Errors, path: tuple[str | int, ...], *, name: bool = True
) -> None:
    """``name_localizations``/``description_localizations``: Discord's locales only, each
    name as valid as the name itself (lowercase for a slash command), each as long."""
    for key, limit in (
        ("name_localizations", 32 if name else 100),
        ("description_localizations", 100),
    ):
        for locale, value in (cmd.get(key) or {}).items():
            where = (*path, key, locale)
            if locale not in _LOCALES:
                errors.add(where, "Invalid Form Body", "LOCALE_INVALID")
            errors.length(where, value, limit, 1)
            if (
                name
                and key == "name_localizations"
                and (
                    not isinstance(value, str)
                    or not _COMMAND_NAME.match(value)
                    or value != value.lower()
                )
            ):
                errors.add(where, "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME")


def _validate_command(cmd: Mapping[str, Any], errors: _Errors, path: tuple[str | int, ...]) -> None:
    kind = cmd.get("type", 1)
    name = cmd.get("name") or ""
    if kind in (1, None) and (not _COMMAND_NAME.match(name) or name != name.lower()):
        errors.add((*path, "name"), "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME")
    errors.length((*path, "name"), name, 32, 1)
    if kind in (1, None):
        errors.length((*path, "description"), cmd.get("description"), 100, 1)
    _validate_localizations(cmd, errors, path, name=kind in (1, None))
    options = cmd.get("options") or []
    errors.count((*path, "options"), options, 25)
    seen_optional = False
    for i, option in enumerate(options):
        opath = (*path, "options", i)
        if option.get("type") in (1, 2):
            _validate_command({**option, "type": 1}, errors, opath)
            continue
        _validate_command(
            {
                "name": option.get("name"),
                "description": option.get("description"),
                "name_localizations": option.get("name_localizations"),
                "description_localizations": option.get("description_localizations"),
                "type": 1,
            },
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
            _validate_localizations(choice, errors, (*opath, "choices", j), name=False)
            if isinstance(choice.get("value"), str):
                errors.length((*opath, "choices", j, "value"), choice.get("value"), 100, 1)
