"""``python -m bot``: read the settings, start the bot. A bad setting is one line, exit 2."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import sys

from pydantic import ValidationError

from bot.config import Settings


def load_settings() -> Settings:
    try:
        return Settings()  # type: ignore[call-arg]
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            name = str(error["loc"][0]).upper() if error["loc"] else "settings"
            missing = error["type"] in ("missing", "string_too_short", "too_short")
            problems.append(f"{name} is required" if missing else f"{name}: {error['msg']}")
        print(
            f"cookie-jar: {'; '.join(problems)} (set it in the environment or .env)",
            file=sys.stderr,
        )
        raise SystemExit(2) from None


def ratings_command(args: list[str]) -> int:
    """``python -m bot ratings rebuild``: replay every rated match into fresh ratings."""
    if args != ["rebuild"]:
        print("usage: python -m bot ratings rebuild", file=sys.stderr)
        return 2
    from bot.config import StoreSettings
    from bot.service.ratings import rebuild
    from bot.store import open_store
    from games import GAMES

    async def run() -> str:
        store = open_store(StoreSettings().database_url)
        await store.connect()
        try:
            done = await rebuild(store, GAMES)
        finally:
            await store.close()
        return (
            f"ratings rebuilt: {done.matches} matches replayed, {done.ratings} ratings, "
            f"{done.changed} rows differed from the stored ones"
        )

    print(asyncio.run(run()))
    return 0


async def reach_postgres(url: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url, timeout=10)
    await connection.close()


def check_database(url: str) -> None:
    """Open the database once before logging in: a bad DATABASE_URL is one line, exit 2."""
    import sqlite3

    from bot.store import open_store
    from bot.store.sqlite import SQLiteStore

    try:
        store = open_store(url)
        if isinstance(store, SQLiteStore):
            sqlite3.connect(store.path).close()  # plain sqlite3: no thread left behind
        else:
            asyncio.run(reach_postgres(url))
    except Exception as exc:
        print(f"cookie-jar: DATABASE_URL cannot be opened: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def silence_voice_warnings() -> None:
    """The bot never joins voice: discord.py's warnings about voice libraries are noise."""
    import discord

    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def web_command(args: list[str]) -> int:
    """``python -m bot web``: the web pages alone, on the bot's database (no token)."""
    from pydantic import ValidationError

    from bot.config import WebSettings
    from bot.web.app import serve_alone

    if args:
        print(
            "usage: python -m bot web   (reads WEB_PORT, PUBLIC_URL, DATABASE_URL)", file=sys.stderr
        )
        return 2
    try:
        settings = WebSettings()
    except ValidationError as exc:
        print(f"cookie-jar: {exc.errors()[0]['msg']}", file=sys.stderr)
        return 2
    if settings.web_port is None:
        print("cookie-jar: WEB_PORT is required to serve the web pages", file=sys.stderr)
        return 2
    logging.basicConfig(level="INFO", format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    check_database(settings.database_url)
    if (threshold := settings.gc_thresholds) is not None:
        gc.set_threshold(*threshold)

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await serve_alone(settings.database_url, settings.web_port, stop)

    asyncio.run(run())
    return 0


def main() -> None:
    if sys.argv[1:2] == ["web"]:
        raise SystemExit(web_command(sys.argv[2:]))
    if sys.argv[1:2] == ["ratings"]:
        raise SystemExit(ratings_command(sys.argv[2:]))
    if sys.argv[1:2] == ["copy-db"]:  # a tool, not the bot: needs no token
        from bot.store.copy import main as copy_db

        raise SystemExit(copy_db(sys.argv[2:]))
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    check_database(settings.database_url)
    silence_voice_warnings()
    from bot.client import make_client

    async def run() -> None:
        # ``async with`` closes the client (and so the store) however start() ends.
        async with make_client(settings) as client:
            # SIGTERM (docker stop, systemd, a rolling restart) drains: see CookieJar.drain.
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, client.request_drain)
            await client.start(settings.discord_token.get_secret_value())

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # a bad token, no network: one line, not a traceback
        logging.getLogger("bot").error("could not run: %s", exc.__class__.__name__)
        print(f"cookie-jar: could not run: {exc}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
