"""A private copy of a state for ``play`` to change, without validating it again.

``apply`` used to copy by a round trip through plain data (``model_validate(model_dump())``):
a deep copy that also re-checked every field of a state the engine itself had made, and
it was the largest cost of a move after the commit. Here each model class gets a plan,
built once from its field annotations: what cannot change in place (numbers, strings,
tuples of them, frozen models of them, the log) is shared, each list, dict and set is
copied, and each mutable sub-model is copied by its own plan.

A container of another type than its field declares (a tuple where a list is declared:
the round trip would have turned it back into a list) makes ``fresh_copy`` give up and
return ``None``; the caller then copies the old way. Shared values are taken on trust (a
check of each would cost what the copy saves): the contract tests check, at every step of
every game, that this copy equals the round trip and shares nothing that can change.
"""

from __future__ import annotations

import copy
import enum
import types
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

ModelT = TypeVar("ModelT", bound=BaseModel)
Copier = Callable[[Any], Any]

_ATOMS: frozenset[type] = frozenset({int, str, float, bool, bytes, type(None)})


class _Mismatch(Exception):
    """A value whose type is not the one its field declares."""


def fresh_copy(model: ModelT) -> ModelT | None:
    """A deep copy of ``model`` that shares only what cannot be changed in place, or
    ``None`` if a field holds a value of an undeclared type."""
    try:
        return _copy_model(model)  # type: ignore[no-any-return]
    except _Mismatch:
        return None


# --- plans ---------------------------------------------------------------------------
# A plan is None (share the value) or a function returning a copy. Plans of models are
# filled in lazily, so that models that refer to themselves still get one.
_model_plans: dict[type[BaseModel], tuple[tuple[str, Copier], ...] | None] = {}
_building: set[type[BaseModel]] = set()


def _plan_of_model(cls: type[BaseModel]) -> tuple[tuple[str, Copier], ...] | None:
    """The fields of ``cls`` that need copying, with their copiers; None: share it whole
    (a frozen model whose every field is immutable)."""
    if cls in _model_plans:
        return _model_plans[cls]
    if cls in _building:
        # A model that contains itself: copy it, whatever its fields turn out to be.
        return ()
    _building.add(cls)
    try:
        fields = []
        for name, info in cls.model_fields.items():
            copier = _copier(info.annotation)
            if copier is not None:
                fields.append((name, copier))
    finally:
        _building.discard(cls)
    shared = (
        not fields
        and bool(cls.model_config.get("frozen"))
        and cls.model_config.get("extra") != "allow"
        and not cls.__private_attributes__
    )
    plan = None if shared else tuple(fields)
    _model_plans[cls] = plan
    return plan


def _copy_model(model: BaseModel) -> BaseModel:
    cls = type(model)
    plan = _model_plans[cls] if cls in _model_plans else _plan_of_model(cls)
    if plan is None:
        return model
    fresh = cls.__new__(cls)
    values = model.__dict__.copy()
    for name, copier in plan:
        values[name] = copier(values[name])
    _set(fresh, "__dict__", values)
    _set(fresh, "__pydantic_fields_set__", model.__pydantic_fields_set__.copy())
    extra, private = model.__pydantic_extra__, model.__pydantic_private__
    _set(fresh, "__pydantic_extra__", extra if extra is None else _any(extra))
    _set(fresh, "__pydantic_private__", private if private is None else _any(private))
    return fresh


_set = object.__setattr__


def _copier(annotation: Any) -> Copier | None:
    """How to copy a value declared as ``annotation``; None: it is immutable, share it."""
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Annotated:
        return _copier(args[0])
    if annotation in _ATOMS or origin is Literal:
        return None
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model_copier(annotation)
    if origin in (Union, types.UnionType):
        arms = [_copier(arm) for arm in args]
        if all(arm is None for arm in arms):
            return None
        return _any
    if origin is list:
        item = _copier(args[0]) if args else _any
        return _list_copier(item)
    if origin is tuple:
        items = [_copier(a) for a in args if a is not Ellipsis]
        return None if all(i is None for i in items) else _any
    if origin is frozenset:
        return None  # its items are hashable: immutable in any state a game keeps
    if origin is set:
        return _set_copier(_copier(args[0]) if args else _any)
    if origin is dict:
        value = _copier(args[1]) if len(args) == 2 else _any
        return _dict_copier(value)
    return _any


def _model_copier(cls: type[BaseModel]) -> Copier | None:
    if _plan_of_model(cls) is None and not cls.__subclasses__():
        return None  # frozen all the way down, and no subclass could be stored instead

    def copy_one(value: Any) -> Any:
        if not isinstance(value, cls):
            raise _Mismatch
        return _copy_model(value)

    return copy_one


def _list_copier(item: Copier | None) -> Copier:
    if item is None:

        def copy_list(value: Any) -> Any:
            if type(value) is not list:
                raise _Mismatch
            return value.copy()

        return copy_list

    def copy_items(value: Any) -> Any:
        if type(value) is not list:
            raise _Mismatch
        return [item(v) for v in value]

    return copy_items


def _set_copier(item: Copier | None) -> Copier:
    def copy_set(value: Any) -> Any:
        if type(value) is not set:
            raise _Mismatch
        return value.copy() if item is None else {item(v) for v in value}

    return copy_set


def _dict_copier(value_copier: Copier | None) -> Copier:
    def copy_dict(value: Any) -> Any:
        if type(value) is not dict:
            raise _Mismatch
        if value_copier is None:
            return value.copy()
        return {k: value_copier(v) for k, v in value.items()}

    return copy_dict


def _any(value: Any) -> Any:
    """A value of a loosely declared field (a union, ``object``): copied by what it is."""
    kind = type(value)
    if kind in _ATOMS or kind is frozenset:
        return value
    if kind is list:
        return [_any(v) for v in value]
    if kind is tuple:
        return tuple(_any(v) for v in value)
    if kind is dict:
        return {k: _any(v) for k, v in value.items()}
    if kind is set:
        return {_any(v) for v in value}
    if isinstance(value, BaseModel):
        return _copy_model(value)
    return copy.deepcopy(value)
