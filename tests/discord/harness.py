"""The offline Discord for the tests: every name of ``devtools.offline_discord`` (see its
docstring), and the ``no_error_logs`` fixture."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devtools.offline_discord import *  # noqa: F403  (the tests import it from here)
from devtools.offline_discord import ErrorLogCapture, capture_error_logs
from devtools.offline_discord import __all__ as _offline_names

__all__ = [*_offline_names, "no_error_logs"]


@pytest.fixture
def no_error_logs() -> Iterator[ErrorLogCapture]:
    """Fixture failing the test if discord.py or project code logged an ERROR during it.

    Enable with ``pytestmark = pytest.mark.usefixtures("no_error_logs")`` after importing it
    (``from tests.discord.harness import no_error_logs  # noqa: F401``) or via ``pytest_plugins``.
    """
    with capture_error_logs() as capture:
        yield capture
