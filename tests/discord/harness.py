"""The offline Discord for the tests: ``devtools.offline_discord`` (see its docstring), and
the ``no_error_logs`` fixture."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devtools.offline_discord import (
    EPHEMERAL,
    ButtonInfo,
    ErrorLogCapture,
    FakeAttachment,
    FakeChannel,
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeRole,
    FakeUser,
    Fault,
    Rejection,
    SettleTimeout,
    capture_error_logs,
    message_errors,
)

__all__ = [
    "EPHEMERAL",
    "ButtonInfo",
    "ErrorLogCapture",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeInteraction",
    "FakeMessage",
    "FakeModal",
    "FakeRole",
    "FakeUser",
    "Fault",
    "Rejection",
    "SettleTimeout",
    "capture_error_logs",
    "message_errors",
    "no_error_logs",
]


@pytest.fixture
def no_error_logs() -> Iterator[ErrorLogCapture]:
    """Fixture failing the test if discord.py or project code logged an ERROR during it.

    Enable with ``pytestmark = pytest.mark.usefixtures("no_error_logs")`` after importing it
    (``from tests.discord.harness import no_error_logs  # noqa: F401``) or via ``pytest_plugins``.
    """
    with capture_error_logs() as capture:
        yield capture
