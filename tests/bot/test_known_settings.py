"""Servers' settings are read once per KNOWN_FOR seconds, and at once after a change here."""

from __future__ import annotations

from bot.known_settings import KNOWN_FOR, KnownSettings
from bot.timing import GuildSettings


async def test_settings_are_read_again_only_when_old_or_forgotten() -> None:
    reads: list[int] = []
    stored = {"pictures": True}
    now = [0.0]

    async def read(guild_id: int) -> GuildSettings:
        reads.append(guild_id)
        return GuildSettings(pictures=stored["pictures"])

    known = KnownSettings(read, clock=lambda: now[0])
    assert (await known.get(1)).pictures and (await known.get(1)).pictures
    assert reads == [1]
    stored["pictures"] = False  # changed by another process: trusted until KNOWN_FOR
    now[0] = KNOWN_FOR - 1
    assert (await known.get(1)).pictures and reads == [1]
    now[0] = KNOWN_FOR + 1
    assert not (await known.get(1)).pictures and reads == [1, 1]
    stored["pictures"] = True  # changed here: /settings forgets it, the next ask reads
    known.forget(1)
    assert (await known.get(1)).pictures and reads == [1, 1, 1]
    await known.get(2)  # each server its own
    assert reads == [1, 1, 1, 2]
