"""For the migrations that keep matches begun before a rule changed on the old rule: rows
written as the old code wrote them (without the new option), and a shipped migration run."""

from __future__ import annotations

from bot.store import Store
from bot.store.sql import Dialects, Step, shipped
from games import GAMES


async def as_old_code_wrote_it(
    store: Store, match_id: str, new: str, *later: str
) -> tuple[str, str | None]:
    """The row's options and state without ``new`` (the key and its value, as dumped) and
    the ``later`` keys other migrations append after it, as the old code saved them."""
    record = await store.get(match_id)
    assert record is not None and (record.status == "lobby" or new in record.options)
    options, state = record.options, record.state
    for key in (new, *later):
        options = options.replace(key, "")
        state = None if state is None else state.replace(key, "")
    await store._write(  # type: ignore[attr-defined]
        Step(
            "UPDATE matches SET options = :options, state = :state WHERE id = :id",
            {"options": options, "state": state, "id": match_id},
        )
    )
    return options, state


async def run_migration(store: Store, *numbers: int) -> None:
    """The shipped migrations ``numbers``, in order, in the store's own dialect."""
    lite, pg = dict(shipped("migrations")), dict(shipped("migrations_pg"))
    for number in numbers:
        migration = Dialects(sqlite=lite[number], postgres=pg[number])
        await store._write(Step(migration))  # type: ignore[attr-defined]


async def assert_kept_on_the_old_rule(
    store: Store, match_id: str, field: str, old: tuple[str, str | None], *later: str
) -> None:
    """The begun match now says ``field`` is false in its options and in its state's, in
    the very text a dump of the model writes (a replay compares the saved text), and is
    otherwise ``old``, as the old code wrote it (``later``: fields other migrations set)."""
    record = await store.get(match_id)
    assert record is not None and record.state is not None
    game = GAMES[record.game]
    options = game.load_options(record.options)
    state = game.load_state(record.state)
    assert getattr(options, field) is False
    assert getattr(state.options, field) is False  # type: ignore[attr-defined]
    assert record.options == options.model_dump_json()
    assert record.state == state.model_dump_json()
    saved = (record.options, record.state)
    for name in (field, *later):
        key = f',"{name}":false'
        saved = (saved[0].replace(key, ""), saved[1].replace(key, ""))
    assert saved == old
