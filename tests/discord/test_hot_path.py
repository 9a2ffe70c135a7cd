"""The path of one move stays cheap: decisions built once a state, a table edit reads
nothing it already holds."""

from __future__ import annotations

from collections import Counter
from typing import Any

import aiosqlite
import pytest

from cogs.table import presenter_of
from games import GAMES
from tests.discord.conftest import make_bot, move_components, open_game, show_hand, table_of
from tests.discord.harness import FakeDiscord


async def test_a_move_builds_each_states_decisions_once(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    game = GAMES["cover_your_assets"]
    built: Counter[int] = Counter()
    decisions = game.decisions

    def counted(state: Any) -> Any:
        built[state.version] += 1
        return decisions(state)

    monkeypatch.setattr(game, "decisions", counted)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)):
        await open_game(fake, "cover_your_assets", ana, ben)
        moved = 0
        for _ in range(4):
            for user in (ana, ben):
                hand = await show_hand(fake, user)
                buttons, selects = move_components(hand)
                if not (buttons or selects):
                    continue
                built.clear()
                if buttons:
                    await fake.click(user, hand, buttons[0])
                else:
                    values = [selects[0]["options"][0]["value"]]
                    await fake.select(user, hand, selects[0]["custom_id"], values)
                moved += 1
                # The click, its timers, the ping, the answer and the table edit all read
                # the new state's decisions, built once; the old state's were built already.
                assert max(built.values()) == 1 and len(built) == 1, built
        assert moved >= 4
    fake.assert_clean()


async def test_a_table_edit_reads_nothing_from_the_database(
    fake: FakeDiscord, db, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    async with fake.running(make_bot(db)) as bot:
        await open_game(fake, "cover_your_assets", ana, ben)
        await show_hand(fake, ana)  # every seat's settings seen once, as after a first edit
        match_id = table_of(fake).find_button("Show hand").custom_id.split(":")[2]
        queries: list[str] = []
        execute = aiosqlite.Connection.execute

        def counting(self: aiosqlite.Connection, sql: str, *args: Any) -> Any:
            queries.append(sql)
            return execute(self, sql, *args)

        monkeypatch.setattr(aiosqlite.Connection, "execute", counting)
        monkeypatch.setattr(
            aiosqlite.Connection,
            "execute_fetchall",
            lambda self, sql, *args: (queries.append(sql), _fetchall(self, sql, *args))[1],
        )
        before = len(table_of(fake).history)
        presenter_of(bot).shown.forget(match_id)  # else it shows this already: no edit
        await presenter_of(bot).refresh(match_id)
        assert len(table_of(fake).history) == before + 1  # the table was edited
        assert len(queries) <= 1, queries
        monkeypatch.undo()
    fake.assert_clean()


_fetchall = aiosqlite.Connection.execute_fetchall
