"""Start-up: a bad DATABASE_URL is one line before logging in; no voice warnings."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.__main__ import silence_voice_warnings
from bot.client import CookieJar
from bot.config import Settings

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
