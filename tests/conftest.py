"""Fixtures shared by every test folder: the database each backend-parametrised test runs on.

``database_url`` runs a test once on SQLite (a file in its tmp_path) and once on PostgreSQL
(a fresh database on a throwaway server). Without PostgreSQL's server programs the second
run is skipped, with one line saying how to get them; under CI (``CI=true``) it fails.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from devtools.postgres_server import (
    HOW_TO_GET_IT,
    ThrowawayServer,
    drop_database,
    fresh_database,
    server_programs,
)
from games import GAMES
from tests.replay_check import check_exports, check_replays, postgres_exports

IN_CI = os.environ.get("CI", "").lower() == "true"


def postgres_available() -> bool:
    return bool(os.environ.get("TEST_DATABASE_URL")) or server_programs() is not None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    # One line at the end, even under -q, instead of a reason per skipped test.
    if not postgres_available():
        terminalreporter.write_line(HOW_TO_GET_IT, yellow=True)


@pytest.fixture(scope="session")
def postgres_admin_url() -> Iterator[str]:
    """An admin URL of a PostgreSQL server for this test process (one per xdist worker)."""
    if url := os.environ.get("TEST_DATABASE_URL"):
        yield url
        return
    programs = server_programs()
    if programs is None:
        if IN_CI:
            pytest.fail(
                "CI=true: the PostgreSQL tests must run, but initdb and pg_ctl are missing "
                "(.ci/run installs Debian's postgresql package)"
            )
        pytest.skip(HOW_TO_GET_IT)
    server = ThrowawayServer(programs)
    url = server.start()
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture
async def postgres_url(postgres_admin_url: str) -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL namespace (a schema), dropped after the test."""
    url, name = await fresh_database(postgres_admin_url)
    yield url
    await drop_database(postgres_admin_url, name)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
async def database_url(
    backend: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[str]:
    """When the test ends, every match it finished is replayed from seed and actions and
    compared with its saved state, on either backend (``monkeypatch`` is a dependency so
    that a game a test rigged is still in place for that replay)."""
    if backend == "sqlite":
        path = tmp_path / "cookie.db"
        yield f"sqlite:///{path}"
        check_replays(path, GAMES)
        return
    # The admin URL is a plain (session) fixture: an async one cannot be asked for here.
    admin_url = request.getfixturevalue("postgres_admin_url")
    url, name = await fresh_database(admin_url)
    try:
        yield url
        check_exports(await postgres_exports(url), GAMES)
    finally:
        await drop_database(admin_url, name)
