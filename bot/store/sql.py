"""SQL written once for both backends, and what a backend must give to run it.

Statements name their parameters (``:name``) and are rendered per backend, as the
``databases`` library does: ``?`` for SQLite, ``$1..$n`` for PostgreSQL, and a list
parameter written ``IN (:ids)`` becomes ``IN (?, ?, ?)`` or ``= any($1)``. The few
statements whose syntax differs are written once per dialect (``Dialects``).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

Dialect = Literal["sqlite", "postgres"]
Params = Mapping[str, Any]
# sqlite3.Row or asyncpg.Record: both read as row["name"], row[0] and dict(row).
Row = Any
EMPTY: Params = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Dialects:
    """A statement whose syntax differs between the backends."""

    sqlite: str
    postgres: str


SQL = str | Dialects

# A quoted literal (skipped), a list parameter, or a parameter (not a ``::type`` cast).
_TOKEN = re.compile(r"'(?:[^']|'')*'|\bIN\s*\(\s*:(\w+)\s*\)|(?<![:\w]):([A-Za-z_]\w*)", re.I)


@dataclass(slots=True)
class Rendered:
    """A statement in one dialect: its text and the parameter behind each mark."""

    dialect: Dialect
    pieces: tuple[str, ...]  # the text around the list parameters (SQLite)
    names: tuple[str, ...]  # a name per mark, in order (PostgreSQL: a name per number)
    lists: tuple[bool, ...]  # which names are lists (SQLite)
    _texts: dict[tuple[int, ...], str] = field(default_factory=dict)

    def bind(self, params: Params) -> tuple[str, Sequence[object]]:
        """The text to send and its values, in the order of its marks."""
        if self.dialect == "postgres":
            return self.pieces[0], [params[name] for name in self.names]
        if len(self.pieces) == 1:
            return self.pieces[0], tuple(_sqlite_value(params[name]) for name in self.names)
        values: list[object] = []
        lengths = []
        for name, is_list in zip(self.names, self.lists, strict=True):
            if is_list:
                lengths.append(len(params[name]))
                values += params[name]
            else:
                values.append(_sqlite_value(params[name]))
        key = tuple(lengths)
        text = self._texts.get(key)
        if text is None:
            marks = (", ".join("?" * n) for n in lengths)
            text = self._texts[key] = "".join(piece + next(marks, "") for piece in self.pieces)
        return text, values


def _sqlite_value(value: object) -> object:
    # SQLite keeps times as ISO 8601 text (what the store has always written).
    return value.isoformat() if isinstance(value, datetime) else value


@lru_cache(maxsize=1024)
def render(sql: SQL, dialect: Dialect) -> Rendered:
    """``sql`` for ``dialect``, ready to bind (cached: most statements are constants)."""
    text = sql if isinstance(sql, str) else getattr(sql, dialect)
    pieces, names, lists = [], [], []
    numbers: dict[str, int] = {}
    current, start = "", 0
    for token in _TOKEN.finditer(text):
        listed, name = token.group(1), token.group(2)
        if listed is None and name is None:
            continue  # a quoted literal
        current += text[start : token.start()]
        start = token.end()
        if dialect == "postgres":
            if (listed or name) not in numbers:
                numbers[listed or name] = len(numbers) + 1
                names.append(listed or name)
            number = numbers[listed or name]
            current += f"= any(${number})" if listed else f"${number}"
        elif listed:
            pieces.append(current + "IN (")
            current = ")"
            names.append(listed)
            lists.append(True)
        else:
            current += "?"
            names.append(name)
            lists.append(False)
    pieces.append(current + text[start:])
    return Rendered(dialect, tuple(pieces), tuple(names), tuple(lists))


def marks(columns: str) -> str:
    """``:a, :b`` for the column list ``a, b``."""
    return ", ".join(f":{name.strip()}" for name in columns.split(","))


def insert(table: str, columns: str, *, key: str = "", conflict: str = "") -> SQL:
    """An INSERT of ``columns`` (named as its parameters). On a row with the same ``key``:
    ``conflict="ignore"`` keeps the old row, ``"replace"`` puts the new one in its place
    (SQLite's ``OR IGNORE``/``OR REPLACE``; PostgreSQL's ``ON CONFLICT``)."""
    values = f"INTO {table} ({columns}) VALUES ({marks(columns)})"
    if not conflict:
        return f"INSERT {values}"
    keys = {name.strip() for name in key.split(",")}
    if conflict == "ignore":
        return Dialects(
            f"INSERT OR IGNORE {values}", f"INSERT {values} ON CONFLICT ({key}) DO NOTHING"
        )
    sets = ", ".join(
        f"{name} = excluded.{name}" for c in columns.split(",") if (name := c.strip()) not in keys
    )
    return Dialects(
        f"INSERT OR REPLACE {values}", f"INSERT {values} ON CONFLICT ({key}) DO UPDATE SET {sets}"
    )


class Step(NamedTuple):
    """One statement of a write, with its parameters, or with ``rows`` of them (the
    statement once per row). ``refuse``: raised, and the whole write undone, unless the
    statement changed exactly one row (a guard: the version it expects, a limit)."""

    sql: SQL
    params: Params = EMPTY
    rows: Sequence[Params] | None = None
    refuse: Exception | None = None


Fetch = Callable[[SQL, Params], Awaitable[list[Row]]]


class Executor(ABC):
    """What the shared reads and writes ask of a backend."""

    @abstractmethod
    async def _fetch(self, sql: SQL, params: Params = EMPTY) -> list[Row]:
        """One read."""

    @abstractmethod
    def _snapshot(self) -> AbstractAsyncContextManager[Fetch]:
        """Reads that see one state of the database, however many statements they take."""

    @abstractmethod
    async def _write(self, *steps: Step, serializable: bool = False) -> list[int]:
        """The steps in one transaction, all or nothing; each statement's row count.
        ``serializable``: the steps' reads may not be overtaken by another writer's."""

    @abstractmethod
    def _unique_violation(self, error: BaseException, constraint: str | None = None) -> bool:
        """``error`` says a row of that key exists already (in ``constraint``)."""

    async def _value(self, sql: SQL, params: Params = EMPTY) -> Any:
        """The first column of the first row, or None."""
        rows = await self._fetch(sql, params)
        return rows[0][0] if rows else None


def shipped(folder: str) -> list[tuple[int, str]]:
    """``(number, sql)`` for every ``NNN_name.sql`` in ``bot/store/<folder>``, in order."""
    found = []
    for entry in (resources.files("bot.store") / folder).iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text("utf-8")))
    return sorted(found)
