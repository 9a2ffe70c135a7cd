"""Clicks on a component that the clicked message no longer shows.

discord.py looks for a DynamicItem's component in the message the interaction carries, and
drops the click without a word when it is not there. Discord sends that message as it is
now, so a click made on what a client still showed a moment before an edit (Join pressed
as the host presses Start, which turns the lobby into the table) would fail with "This
interaction failed". Such a click goes here to the item its custom_id names, whose callback
checks it as it checks any click: a sentence, and nothing changed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import discord

BUTTON, STRING_SELECT = 2, 3  # Discord's component types that our items are


def components_of(message: discord.Message) -> Iterator[Any]:
    """Every component of the message, rows, containers and sections opened."""
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        yield component
        stack.extend(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            stack.append(accessory)


def shows(message: discord.Message, custom_id: str) -> bool:
    return any(getattr(c, "custom_id", None) == custom_id for c in components_of(message))


async def answer_unclaimed(
    interaction: discord.Interaction, factories: Sequence[type[discord.ui.DynamicItem[Any]]]
) -> bool:
    """Answer a click discord.py will drop (its component is gone from the message) through
    the first of ``factories`` whose template matches; False: not such a click."""
    if interaction.type is not discord.InteractionType.component or interaction.message is None:
        return False
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str) or kind not in (BUTTON, STRING_SELECT):
        return False
    if shows(interaction.message, custom_id):
        return False  # discord.py dispatches it
    for factory in factories:
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is None:
            continue
        base: discord.ui.Item[Any] = (
            discord.ui.Button(custom_id=custom_id)
            if kind == BUTTON
            else discord.ui.Select(custom_id=custom_id)
        )
        item = await factory.from_custom_id(interaction, base, match)
        item._refresh_state(interaction, data)  # type: ignore[arg-type]  # a select's values
        await item.callback(interaction)
        return True
    return False
