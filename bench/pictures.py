"""Pictures: ``python -m bench pictures [--states N]``.

For every game that draws (``Picturing``), random playouts at every table size, the largest
included, give N states; each state's table picture (from a spectator's view) and one
seat's hand picture are drawn and timed one by one on this thread. Printed per game: the
drawing time (p50, p99) and the PNG's size (p50, max), against the issue's bar for the
Braverse board (p50 <= 25 ms, p99 <= 60 ms, at most 150 KB). ``--names world`` seats players
named in Hangul, Japanese, Thai, Cyrillic, Greek, Arabic and emoji (drawn by the fallback
fonts, games/core/fonts.py), ``--names both`` measures the two in the same run.
``--languages en ko ja`` draws each state's pictures with their words in each language, one
after another (English first: the same run's baseline), as a server or a player reading
that language gets them (issue 38).
Drawing is CPU-bound: on a machine other work shares the wall times read high, so the
thread's CPU time is printed beside them; compare figures from a quiet machine.

The Discord side of the cost, pictures on against off in the same run, is
``python -m bench load --pictures both`` (bench/load.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from pydantic import BaseModel

from games import GAMES
from games.core import contract
from games.core.options import random_options
from games.core.pictures import hand_picture
from games.core.protocol import Picturing
from games.core.translations import ENGLISH, LANGUAGES

# The bar, for the Braverse board.
BAR_P50_MS, BAR_P99_MS, BAR_KB = 25.0, 60.0, 150.0
# Names in every script the pictures draw (issue 38), against contract.NAMES (Latin).
WORLD = ("김철수", "田中太郎", "สมชาย", "Привет", "Γιάννης", "محمد", "Ana 🍪", "王小明")
NAMES = {"latin": contract.NAMES, "world": WORLD}


@dataclass
class Timings:
    """Times (seconds) and sizes (bytes) of one kind of picture."""

    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # this thread's CPU time: less shaken by
    sizes: list[int] = field(default_factory=list)  # other work on the machine than the wall

    def draw(self, picture: Callable[[BaseModel], bytes | None], view: BaseModel) -> None:
        start, cpu = time.perf_counter(), time.thread_time()
        png = picture(view)
        elapsed, used = time.perf_counter() - start, time.thread_time() - cpu
        if png is not None:
            self.times.append(elapsed)
            self.cpu.append(used)
            self.sizes.append(len(png))

    def line(self, what: str) -> str:
        if not self.times:
            return f"{what}: none drawn"
        return (
            f"{what}: {len(self.times)} drawn, p50 {percentile(self.times, 0.5) * 1e3:.1f} ms, "
            f"p99 {percentile(self.times, 0.99) * 1e3:.1f} ms (CPU p50 "
            f"{percentile(self.cpu, 0.5) * 1e3:.1f}, p99 {percentile(self.cpu, 0.99) * 1e3:.1f} ms)"
            f"; size p50 "
            f"{statistics.median(self.sizes) / 1024:.0f} KB, max {max(self.sizes) / 1024:.0f} KB"
        )


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def random_states(
    key: str, count: int, seed: int = 1, names: Sequence[str] = contract.NAMES
) -> list[BaseModel]:
    """``count`` states of random playouts, a third of them at the game's largest table,
    taken every few moves so a whole match is sampled, its end included."""
    game = GAMES[key]
    rng = random.Random(f"pictures:{key}:{seed}")
    states: list[BaseModel] = []
    while len(states) < count:
        largest = len(states) % 3 == 0
        seats = game.max_players if largest else rng.randint(game.min_players, game.max_players)
        options = random_options(game.options_model, rng)
        state = game.setup(options, tuple(names[:seats]), rng.getrandbits(63))
        every = rng.randint(3, 7)
        step = 0
        while game.outcome(state) is None and len(states) < count:
            if step % every == 0:
                states.append(state)
            decision = rng.choice(game.decisions(state))
            state, _ = game.apply(
                state, decision.seat, contract.next_move(game, state, decision, rng)
            )
            step += 1
        if len(states) < count:
            states.append(state)  # the end of the match
    return states


def measure(
    key: str,
    count: int,
    names: Sequence[str] = contract.NAMES,
    languages: Sequence[str] = (ENGLISH,),
) -> dict[str, tuple[Timings, Timings]]:
    """Each language's table and hand timings over the same states, drawn in turn state by
    state, so a machine that slows down slows every language alike; each state starts
    with the next language, so none always pays for the lettering the others then find
    cached (the names, the numbers)."""
    game = GAMES[key]
    assert isinstance(game, Picturing)
    rng = random.Random(key)
    timed = {language: (Timings(), Timings()) for language in languages}
    for index, state in enumerate(random_states(key, count, names=names)):
        table = game.view(state, None)
        seat = rng.randrange(len(state.names))  # type: ignore[attr-defined]
        hand = game.view(state, seat)
        turn = index % len(languages)
        for language in (*languages[turn:], *languages[:turn]):
            tables, hands = timed[language]
            tables.draw(partial(game.table_picture, language=language), table)
            hands.draw(partial(hand_picture, game, language=language), hand)
    return timed


def bar(tables: Timings) -> str:
    p50, p99 = percentile(tables.times, 0.5) * 1e3, percentile(tables.times, 0.99) * 1e3
    kb = max(tables.sizes) / 1024
    met = p50 <= BAR_P50_MS and p99 <= BAR_P99_MS and kb <= BAR_KB
    return (
        f"  the board against the bar (p50 <= {BAR_P50_MS:.0f} ms, p99 <= {BAR_P99_MS:.0f} ms, "
        f"<= {BAR_KB:.0f} KB): {'met' if met else 'NOT met'} on this machine now"
    )


def against(timings: Timings, baseline: Timings) -> str:
    """CPU p50 against the baseline's (the same states, the same run)."""
    mine, theirs = percentile(timings.cpu, 0.5), percentile(baseline.cpu, 0.5)
    return f"{mine / theirs:.2f}x" if theirs else "n/a"


def report(
    count: int,
    only: Sequence[str] | None = None,
    names: Sequence[str] = ("latin",),
    languages: Sequence[str] = (ENGLISH,),
) -> list[str]:
    lines = []
    drawing = [k for k in sorted(GAMES) if isinstance(GAMES[k], Picturing)]
    for key in only or drawing:
        if key not in drawing:
            lines.append(f"pictures {key}: this game draws no pictures yet")
            continue
        for kind in names:
            timed = measure(key, count, NAMES[kind], languages)
            first = timed[languages[0]]
            for language, (tables, hands) in timed.items():
                label = key if names == ("latin",) else f"{key} ({kind} names)"
                if languages != (ENGLISH,):
                    label += f" in {language}"
                line = f"pictures {label}: " + tables.line("table") + "; " + hands.line("hand")
                if language != languages[0] and tables.times and hands.times:
                    line += (
                        f"; CPU p50 against {languages[0]}: table "
                        f"{against(tables, first[0])}, hand {against(hands, first[1])}"
                    )
                lines.append(line)
                if key == "braverse" and tables.times:
                    lines.append(bar(tables))
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench pictures", description=__doc__)
    parser.add_argument("--states", type=int, default=300, help="random states per game")
    parser.add_argument("--only", nargs="*", help="game keys (default: every game that draws)")
    parser.add_argument(
        "--names",
        choices=["latin", "world", "both"],
        default="latin",
        help="the players' names: Latin, every script the pictures draw, or both in one run",
    )
    parser.add_argument(
        "--languages",
        nargs="+",
        default=[ENGLISH],
        choices=LANGUAGES,
        help="the languages the pictures' words are drawn in, the first the baseline",
    )
    args = parser.parse_args(argv)
    names = ("latin", "world") if args.names == "both" else (args.names,)
    for line in report(args.states, args.only, names, tuple(args.languages)):
        print(line, flush=True)


if __name__ == "__main__":
    main()
