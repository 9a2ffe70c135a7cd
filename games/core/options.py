"""Describe a game's options model so any front end can offer it without knowing the game.

Options are pydantic models whose defaults are the standard rules. A field whose type is a
``Literal`` or ``bool`` becomes a choice; labels come from ``json_schema_extra={"labels":
{...}}`` on the field. A field with ``json_schema_extra={"offered": False}`` is no choice
(a rule old matches keep so that they replay, which no new match may pick); with
``"before": value`` too, options written before the field existed read as ``value``
(``as_written``), since a match log replays only under the rule it was played by.
"""

from __future__ import annotations

import random
import typing
from functools import cache
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict

from games.core.text import Words


class Choice(BaseModel):
    model_config = ConfigDict(frozen=True)

    value: str
    label: Words


class OptionField(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    title: Words
    choices: tuple[Choice, ...]
    description: Words = ""  # what the option does (the field's description), for a select


BOOL_LABELS: dict[Any, str] = {True: "On", False: "Off"}


def as_text(value: Any) -> str:
    """The text form of a choice, as a select's value carries it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def choice_text(options: BaseModel, name: str) -> str:
    return as_text(getattr(options, name))


def _values(annotation: Any) -> list[Any]:
    if annotation is bool:
        return [False, True]
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    return []


@cache
def describe(model: type[BaseModel]) -> tuple[OptionField, ...]:
    hints = typing.get_type_hints(model)
    fields: list[OptionField] = []
    for name, info in model.model_fields.items():
        values = _values(hints[name])
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if not values or extra.get("offered") is False:
            continue
        labels: dict[str, str] = extra.get("labels", {})  # type: ignore[assignment]
        choices = tuple(
            Choice(value=as_text(v), label=labels.get(str(v), BOOL_LABELS.get(v, str(v))))
            for v in values
        )
        fields.append(
            OptionField(
                name=name,
                title=info.title or name,
                choices=choices,
                description=info.description or "",
            )
        )
    return tuple(fields)


def with_choice(options: BaseModel, name: str, value: str) -> BaseModel:
    """A copy of ``options`` with one field set from its text form; raises ValueError."""
    data = options.model_dump()
    data[name] = value
    return type(options).model_validate(data)


def summary(options: BaseModel) -> str:
    """One line naming every choice by its label, and the switches that are on."""
    parts = []
    for field in describe(type(options)):
        value = getattr(options, field.name)
        if isinstance(value, bool):
            if value:
                parts.append(field.title)
            continue
        text = as_text(value)
        parts.append(next((c.label for c in field.choices if c.value == text), text))
    return " · ".join(parts)


def switches(model: type[BaseModel]) -> list[OptionField]:
    """The on/off fields, which a front end may offer together as one multi-choice."""
    return [f for f in describe(model) if [c.value for c in f.choices] == ["false", "true"]]


def with_switches(options: BaseModel, on: set[str]) -> BaseModel:
    """A copy of ``options`` with exactly the named switches on; raises ValueError."""
    names = {f.name for f in switches(type(options))}
    if not on <= names:
        raise ValueError(f"unknown switches: {sorted(on - names)}")
    data = options.model_dump()
    data.update({name: name in on for name in names})
    return type(options).model_validate(data)


def random_options(model: type[BaseModel], rng: random.Random) -> BaseModel:
    """Options sampled from every choice field: for contract tests and simulations."""
    data = {}
    hints = typing.get_type_hints(model)
    for name in model.model_fields:
        values = _values(hints[name])
        if values:
            data[name] = rng.choice(values)
    return model.model_validate(data)


def as_written(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """Options as any version wrote them (an exported match, say): a field added by a rule
    change takes, where absent, the value its ``"before"`` names: the rule then."""
    filled = dict(data)
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if "before" in extra and name not in filled:
            filled[name] = extra["before"]
    return filled
