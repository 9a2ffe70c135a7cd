"""Statements written once with named parameters, rendered for each backend."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.store.sql import Dialects, insert, render

QUERY = (
    "SELECT a FROM t WHERE x = :x AND y IN (:ys) AND z = :x "
    "AND w::text = 'not:a_param' AND at = :at"
)
STAMP = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def test_sqlite_gets_a_mark_per_use_and_a_list_spelled_out() -> None:
    text, values = render(QUERY, "sqlite").bind({"x": 1, "ys": [4, 5, 6], "at": STAMP})
    assert text == (
        "SELECT a FROM t WHERE x = ? AND y IN (?, ?, ?) AND z = ? "
        "AND w::text = 'not:a_param' AND at = ?"
    )
    # Times as the ISO 8601 text SQLite has always kept.
    assert list(values) == [1, 4, 5, 6, 1, STAMP.isoformat()]
    text, values = render(QUERY, "sqlite").bind({"x": 1, "ys": [], "at": None})
    assert "y IN ()" in text and list(values) == [1, 1, None]


def test_postgres_numbers_each_name_once_and_takes_a_list_whole() -> None:
    text, values = render(QUERY, "postgres").bind({"x": 1, "ys": [4, 5], "at": STAMP})
    assert text == (
        "SELECT a FROM t WHERE x = $1 AND y = any($2) AND z = $1 "
        "AND w::text = 'not:a_param' AND at = $3"
    )
    assert values == [1, [4, 5], STAMP]


def test_an_insert_that_keeps_or_replaces_is_each_dialects_own() -> None:
    assert insert("t", "a, b") == "INSERT INTO t (a, b) VALUES (:a, :b)"
    assert insert("t", "a, b, c", key="a, b", conflict="ignore") == Dialects(
        "INSERT OR IGNORE INTO t (a, b, c) VALUES (:a, :b, :c)",
        "INSERT INTO t (a, b, c) VALUES (:a, :b, :c) ON CONFLICT (a, b) DO NOTHING",
    )
    assert insert("t", "a, b, c", key="a", conflict="replace") == Dialects(
        "INSERT OR REPLACE INTO t (a, b, c) VALUES (:a, :b, :c)",
        "INSERT INTO t (a, b, c) VALUES (:a, :b, :c) "
        "ON CONFLICT (a) DO UPDATE SET b = excluded.b, c = excluded.c",
    )
