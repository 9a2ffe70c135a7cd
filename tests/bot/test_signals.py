"""Ctrl-C and SIGTERM end the bot's whole process tree quietly: the bot and its children
(picture drawers, thinking workers) stop, none is left, and nothing prints a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STARTING = 120  # seconds a loaded machine may take to start the bot and its children
STOPPING = 60

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def children_of(pid: int) -> dict[int, str]:
    """The live processes whose parent is ``pid``, with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # ended meanwhile
        # The command may hold spaces and parentheses: the fields follow the last ')'.
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == pid and state != "Z":
            found[int(entry.name)] = command
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


def interrupts_as_at_a_terminal() -> None:
    # Whoever started the tests may have left SIGINT ignored (a shell's background job),
    # which a child would inherit: the bot starts as from a terminal, SIGINT default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("signum", "whole_group"),
    [
        (signal.SIGINT, True),  # Ctrl-C in the terminal of `make run`: every process of it
        (signal.SIGINT, False),  # kill -INT of the bot alone
        (signal.SIGTERM, False),  # docker stop, a rolling restart: the bot drains
        (signal.SIGTERM, True),  # systemd's stop: every process of the unit
    ],
    ids=["ctrl-c", "sigint-bot", "sigterm-bot", "sigterm-group"],
)
def test_a_signal_ends_every_process_quietly(
    tmp_path: Path, signum: signal.Signals, whole_group: bool
) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "fake-token",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "PICTURE_PROCESSES": "1",
        "BOT_THINKERS": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.bot_process"],
        cwd=tmp_path,  # no .env of the checkout's
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # a process group of its own, as a terminal's job
        preexec_fn=interrupts_as_at_a_terminal,
    )
    assert process.stdout is not None
    said = []
    try:
        for line in process.stdout:
            said.append(line.decode())
            if line.strip() == b"ready":
                break
        assert said and said[-1].strip() == "ready", "".join(said)
        children = children_of(process.pid)
        workers = [c for c in children.values() if "spawn_main" in c]
        assert len(workers) == 2, children  # one drawing process, one thinking worker
        if whole_group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        rest, _ = process.communicate(timeout=STOPPING)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    output = "".join(said) + rest.decode()
    assert process.returncode == 0, output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    assert " ERROR " not in output, output
    # Every child ends with the bot: the drawers and workers with its close, the
    # multiprocessing resource tracker when it reads the end of the bot's pipe (it may
    # still be cleaning up as the bot exits).
    left = [pid for pid in children if alive(pid)]
    deadline = time.monotonic() + STOPPING
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [pid for pid in left if alive(pid)]
    assert not left, {pid: children[pid] for pid in left}
