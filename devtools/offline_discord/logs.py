"""The error-log guard: discord.py logs and swallows what a callback raises, so a test
fails on an ERROR record instead of passing silently."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Iterator, Sequence
from typing import ClassVar


class ErrorLogCapture(logging.Handler):
    """Collects ERROR (and worse) records from the given logger name prefixes.

    discord.py logs and swallows exceptions raised in command, view, modal and event
    callbacks; use this (or the :func:`no_error_logs` fixture, or ``FakeDiscord.running`` which
    uses it) so such a test fails instead of passing silently.
    """

    DEFAULT_PREFIXES: ClassVar[tuple[str, ...]] = (
        "discord",
        "asyncio",
        "aiosqlite",
        "bot",
        "cogs",
        "games",
        "tests",
        "devtools",
    )

    def __init__(self, prefixes: Sequence[str] | None = None, level: int = logging.ERROR) -> None:
        super().__init__(level)
        self.prefixes: tuple[str, ...] = tuple(prefixes or self.DEFAULT_PREFIXES)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if any(record.name == p or record.name.startswith(p + ".") for p in self.prefixes):
            self.records.append(record)

    def install(self) -> None:
        logging.getLogger().addHandler(self)

    def uninstall(self) -> None:
        logging.getLogger().removeHandler(self)

    def __enter__(self) -> ErrorLogCapture:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def report(self) -> str:
        return _format_records(self.records)

    def assert_clean(self) -> None:
        if self.records:
            raise AssertionError(f"{len(self.records)} error(s) were logged:\n{self.report()}")


def _format_records(records: Iterable[logging.LogRecord]) -> str:
    formatter = logging.Formatter("%(levelname)s %(name)s: %(message)s")
    return "\n".join(formatter.format(r) for r in records)


@contextlib.contextmanager
def capture_error_logs(prefixes: Sequence[str] | None = None) -> Iterator[ErrorLogCapture]:
    """Context manager: fail on exit if an ERROR was logged (and no other exception is raised)."""
    with ErrorLogCapture(prefixes) as capture:
        yield capture
    capture.assert_clean()
