"""A throwaway PostgreSQL server for the tests and benchmarks: initdb + pg_ctl on a Unix
socket in a temporary folder, no TCP port, stopped and deleted at the end.

Each pytest-xdist worker starts its own (a second or two), so workers need no coordination.
``TEST_DATABASE_URL`` (an admin URL of a server that may create databases) skips the start.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

HOW_TO_GET_IT = (
    "PostgreSQL tests skipped: PostgreSQL's server programs (initdb, pg_ctl) are not on this "
    "machine; install them (Debian: apt-get install postgresql) to run them"
)


def server_programs() -> Path | None:
    """The folder holding initdb and pg_ctl: on PATH, else Debian's newest version."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    folders = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2] or 0)
    )
    for folder in reversed(folders):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


class ThrowawayServer:
    def __init__(self, programs: Path, *, durable: bool = False) -> None:
        self.programs = programs
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="cj-pg-"))
        self.data = self.folder / "data"
        # PostgreSQL refuses to run as root: then the server runs as the postgres user.
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self._as, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    def start(self) -> str:
        self._run(
            str(self.programs / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        # Durability is not under test here (the restart tests reopen, they do not pull
        # the plug): fsync off keeps CREATE DATABASE per test cheap.
        options = f"-k {self.folder} -c listen_addresses='' -c max_connections=300"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            str(self.programs / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "server.log"),
            "-w",
            "start",
        )
        return f"postgresql://postgres@/postgres?host={self.folder}"

    def stop(self) -> None:
        try:
            self._run(
                str(self.programs / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"
            )
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


async def fresh_database(admin_url: str) -> tuple[str, str]:
    """A fresh, empty namespace: a schema of its own, named in the URL's search_path (asyncpg
    passes unknown URL parameters on as server settings). Far cheaper than CREATE DATABASE,
    and just as separate for the store, whose SQL never names a schema."""
    import asyncpg

    name = "cj_" + uuid.uuid4().hex[:16]
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    joiner = "&" if "?" in admin_url else "?"
    return f"{admin_url}{joiner}search_path={name}", name


async def drop_database(admin_url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
    finally:
        await conn.close()
