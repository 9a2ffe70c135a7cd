"""What a language costs at the Discord edge: a move's messages (the table's embed and every
seat's hand view, with its buttons and selects) rendered in each language we ship and the
pseudo-locale, against English measured in the same run.

``python -m bench languages [--smoke]``. The figures are per message, CPU on one core; a busy
machine makes each slower, the ratio to English much less so: each state's messages are
rendered in every language in turn, and the median round's ratio is printed with the range.

Instructions, which a busy machine does not change: ``--only LANG`` renders the same states
in one language, inside ``itertools.starmap`` so that callgrind counts that alone::

    valgrind --tool=callgrind --toggle-collect=starmap_next \
        .venv/bin/python -m bench languages --only ko
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import statistics
import time
from datetime import UTC, datetime
from types import SimpleNamespace

from bot.pictures import Pictures
from bot.service import MatchService, SeatView
from bot.store import MatchRecord, SeatRecord
from cogs import render
from cogs.table.drawing import Drawing
from games import GAMES
from games.core import contract
from games.core.text import t
from games.core.translations import ENGLISH, SELECTABLE

# Rounds over every state; in each, a state's messages are rendered in every language one
# after another, so a burst of other work on the machine falls on all languages alike (a
# language timed as a block of its own, Korean read 0.98x to 1.13x of English from run to
# run on a busy machine). The median round's ratio is printed.
ROUNDS = 9


def record_for(key: str, state) -> MatchRecord:  # type: ignore[no-untyped-def]
    """A running match's record around ``state``, as the store would give it (the
    tests' table and hand views are drawn from the same)."""
    stamp = datetime.now(UTC)
    return MatchRecord(
        match_id="abcdef0123",
        guild_id=1,
        channel_id=2,
        message_id=3,
        game=key,
        status="active",
        host_id=10,
        options=state.options.model_dump_json(),
        state=state.model_dump_json(),
        version=state.version,
        created_at=stamp,
        updated_at=stamp,
        seats=[SeatRecord(seat=i, user_id=10 + i, name=n) for i, n in enumerate(state.names)],
    )


def moves(states_per_game: int) -> list[tuple[list[SeatView], object]]:
    """Some states of every game: each with its seats' views and the table's panel."""
    rng = random.Random(7)
    found = []
    for key in sorted(GAMES):
        game = GAMES[key]
        seats = min(4, game.max_players)
        state = game.setup(game.options_model(), contract.NAMES[:seats], 1)
        for _ in range(states_per_game):
            if game.outcome(state) is not None:
                break
            record = record_for(key, state)
            views = [SeatView.of(record, game, state, seat) for seat in range(seats)]
            found.append((views, game.panels(game.view(state, None)).table))
            decision = rng.choice(game.decisions(state))
            state, _ = game.apply(
                state, decision.seat, contract.next_move(game, state, decision, rng)
            )
    return found


def render_all(drawing: Drawing, found: list, language: str) -> int:  # type: ignore[type-arg]
    messages = 0
    note = [t("✋ Got it.")]
    for views, table in found:
        render.embed_from_panel(table, language)
        messages += 1
        for seen in views:
            drawn = drawing.hand_text(seen, note, None, language)
            if drawn.view is not None:
                drawn.view.to_components()
            messages += 1
    return messages


def figures(smoke: bool = False) -> list[str]:
    service = MatchService(store=None, games=GAMES)  # type: ignore[arg-type]
    drawing = Drawing(SimpleNamespace(service=service), Pictures(service.guild_settings))  # type: ignore[arg-type]
    found = moves(10 if smoke else 60)
    for language in SELECTABLE:  # catalogs read, caches warm
        render_all(drawing, found, language)
    # The states, views and catalogs made above stay for the whole run: out of the
    # collector's full passes, which would otherwise land on whichever language allocated
    # last, whatever it cost (young passes, which each language's own garbage sets off,
    # still count).
    gc.collect()
    gc.freeze()
    spent: dict[str, list[float]] = {language: [] for language in SELECTABLE}
    messages = 0
    for _ in range(3 if smoke else ROUNDS):
        took = dict.fromkeys(SELECTABLE, 0.0)
        messages = 0
        for index, one in enumerate(found):
            turn = index % len(SELECTABLE)  # none always first (after another's garbage)
            for language in (*SELECTABLE[turn:], *SELECTABLE[:turn]):
                start = time.process_time()
                count = render_all(drawing, [one], language)
                took[language] += time.process_time() - start
            messages += count
        for language in SELECTABLE:
            spent[language].append(took[language])
    lines = []
    for language in SELECTABLE:
        ratios = [
            mine / english for mine, english in zip(spent[language], spent[ENGLISH], strict=False)
        ]
        lines.append(
            f"languages: {language} {min(spent[language]) / messages * 1e6:.0f} µs a message "
            f"(best round), {statistics.median(ratios):.3f}x English (median of {len(ratios)} "
            f"rounds, {min(ratios):.3f}-{max(ratios):.3f}) over {messages} tables and hand views"
        )
    return lines


def one_language(language: str, rounds: int = 4) -> None:
    """The bench's states rendered ``rounds`` times in ``language`` alone, after the same
    warm-up, the rounds inside ``itertools.starmap`` (callgrind's ``--toggle-collect``)."""
    service = MatchService(store=None, games=GAMES)  # type: ignore[arg-type]
    drawing = Drawing(SimpleNamespace(service=service), Pictures(service.guild_settings))  # type: ignore[arg-type]
    found = moves(15)
    for each in SELECTABLE:
        render_all(drawing, found, each)

    def measured(language: str) -> None:
        for _ in range(rounds):
            render_all(drawing, found, language)

    list(itertools.starmap(measured, [(language,)]))


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench languages", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="a small, quick run")
    parser.add_argument("--only", choices=SELECTABLE, help="one language, for callgrind")
    args = parser.parse_args(argv)
    if args.only:
        one_language(args.only)
        return
    print("\n".join(figures(args.smoke)))
