"""Start-up: a bad DATABASE_URL is one line before logging in; no voice warnings."""

from __future__ import annotations

import gc
import logging
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from pydantic import ValidationError

from bot.__main__ import silence_voice_warnings
from bot.client import CookieJar
from bot.config import Settings
from tests.discord.harness import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://db.example/cookies", "unsupported DATABASE_URL scheme: mysql"),
        ("sqlite:////no/such/folder/cookie.db", "unable to open database file"),
        ("postgresql://cookie@/cookies?host=/no/such/folder", "No such file or directory"),
    ],
)
def test_a_bad_database_url_fails_in_one_line_before_logging_in(
    tmp_path: Path, url: str, says: str
) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "DATABASE_URL": url}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cookie-jar: DATABASE_URL cannot be opened")
    assert says in lines[0]


def test_discord_voice_warnings_are_silenced(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # As on a fresh install without the voice libraries: discord.py would warn twice.
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    caplog.set_level(logging.WARNING)
    silence_voice_warnings()
    CookieJar(Settings(_env_file=None, discord_token="x"))  # type: ignore[call-arg]
    assert not [r for r in caplog.records if "voice" in r.getMessage()]


def test_make_run_installs_only_what_running_needs(tmp_path: Path) -> None:
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), "run", f"VENV={tmp_path / 'venv'}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    installs = [line for line in done.stdout.splitlines() if "pip install" in line and "-e" in line]
    assert installs and all("[dev]" not in line for line in installs)
    test = subprocess.run(
        ["make", "-n", "-C", str(ROOT), "test", f"VENV={tmp_path / 'venv'}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "[dev]" in test.stdout  # the test tools come with `make test`


@pytest.mark.parametrize(
    ("text", "thresholds"),
    [("20000,4,10", (20000, 4, 10)), (" 700, 10, 10 ", (700, 10, 10)), ("", None)],
)
def test_gc_threshold_is_three_counts_or_empty_for_pythons_own(
    text: str, thresholds: tuple[int, int, int] | None
) -> None:
    settings = Settings(_env_file=None, discord_token="x", gc_threshold=text)  # type: ignore[call-arg]
    assert settings.gc_thresholds == thresholds


@pytest.mark.parametrize("text", ["20000,4", "lots,4,10", "0,10,10", "1,2,3,4", "-5,1,1"])
def test_a_gc_threshold_that_is_not_three_counts_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(ValidationError, match="GC_THRESHOLD must be three whole numbers"):
        Settings(_env_file=None, discord_token="x", gc_threshold=text)  # type: ignore[call-arg]


async def test_start_up_sets_the_collectors_thresholds(tmp_path: Path) -> None:
    before = gc.get_threshold()
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="fake-token",
        database_url=f"sqlite:///{tmp_path / 'cookie.db'}",
        gc_freeze=False,
        gc_threshold="12345,6,7",
    )
    try:
        async with FakeDiscord().running(CookieJar(settings)):
            assert gc.get_threshold() == (12345, 6, 7)
    finally:
        gc.set_threshold(*before)


def test_the_pages_alone_set_the_collectors_thresholds_as_the_bot_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m bot web`` computes a large event's standings as the bot's process does:
    with a young generation of GC_THRESHOLD, not Python's 700 objects."""
    import bot.web.app
    from bot.__main__ import web_command

    seen: list[tuple[int, ...]] = []

    async def serve_alone(url: str, port: int, stop: object) -> None:
        seen.append(gc.get_threshold())

    monkeypatch.setattr(bot.web.app, "serve_alone", serve_alone)
    monkeypatch.chdir(tmp_path)  # no .env of the project's
    monkeypatch.setenv("WEB_PORT", "8123")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cookie.db'}")
    monkeypatch.setenv("GC_THRESHOLD", "23456,5,9")
    before = gc.get_threshold()
    try:
        assert web_command([]) == 0
    finally:
        gc.set_threshold(*before)
    assert seen == [(23456, 5, 9)]
