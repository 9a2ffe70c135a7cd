"""Bot-against-bot runs: how a rules change or a bot change is judged.

Each game is independent (its own seed), so games are spread over processes. The report
gives win shares by seat and by bot kind with 95% Wilson intervals, game length
percentiles, moves per second, and a determinism check: a sample of games is replayed
from seed and actions and must end in the same state, byte for byte.
"""

from __future__ import annotations

import csv
import hashlib
import math
import multiprocessing
import random
import signal
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table as RichTable

from games import GAMES
from games.core import contract
from games.core.protocol import Action, Decision, Game, GameState, Searching
from games.core.replay import round_of

KINDS = ("heuristic", "random", "search")
MAX_MOVES = 20_000
SEARCH_WORLDS = 8  # worlds per decision of a simulated search bot: reproducible, unlike a clock


@dataclass(frozen=True)
class Job:
    index: int
    game: str
    options: dict[str, Any]
    kinds: tuple[str, ...]  # the bot kind of every seat
    seed: int
    keep_actions: bool = False
    search_worlds: int = SEARCH_WORLDS


@dataclass
class Result:
    index: int
    seed: int
    kinds: tuple[str, ...]
    places: tuple[int, ...] = ()  # by seat; empty: no outcome within MAX_MOVES
    scores: tuple[int, ...] = ()
    moves: int = 0
    rounds: int = 0
    seconds: float = 0.0
    digest: str = ""  # sha256 of the final state's JSON
    actions: list[tuple[int, str]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return bool(self.places)

    @property
    def winners(self) -> list[int]:
        return [s for s, place in enumerate(self.places) if place == 1]


def seat_kinds(spec: str, players: int, index: int) -> tuple[str, ...]:
    """``heuristic``, ``random``, ``search``, ``mix`` (heuristic and random alternating,
    rotated every game so that each kind sits in every seat), or one kind per seat
    separated by commas."""
    if spec in KINDS:
        return (spec,) * players
    if spec == "mix":
        mixed = KINDS[:2]
        return tuple(mixed[(seat + index) % len(mixed)] for seat in range(players))
    kinds = tuple(k.strip() for k in spec.split(","))
    if len(kinds) != players or any(k not in KINDS for k in kinds):
        raise ValueError(
            f"--bots takes heuristic, random, search, mix, or {players} kinds separated by commas."
        )
    return kinds


def bot_move(
    game: Game,
    kind: str,
    state: GameState,
    decision: Decision,
    rng: random.Random,
    *,
    worlds: int | None = SEARCH_WORLDS,
    seconds: float = 1.0,
    seed: int = 0,
) -> Action:
    """A bot's answer: the built-in heuristic, a random legal move, or the game's search
    bot (``worlds`` sampled worlds per decision, or about ``seconds`` if None)."""
    if kind == "search":
        if not isinstance(game, Searching):
            raise ValueError(f"{game.name} has no search bot; use heuristic or random.")
        return game.search_action(
            state, decision.seat, decision=decision, worlds=worlds, seconds=seconds, seed=seed
        )
    if kind == "heuristic":
        return game.bot_action(state, decision.seat, decision=decision)  # type: ignore[attr-defined]
    return contract.next_move(game, state, decision, rng)  # type: ignore[arg-type]


def next_decision(decisions: Sequence[Decision]) -> Decision:
    """Chances first (a bot shouts as soon as it may), then the first duty."""
    return next((d for d in decisions if d.optional), None) or next(
        d for d in decisions if not d.optional
    )


def play_one(job: Job) -> Result:
    game = GAMES[job.game]
    rng = random.Random(job.seed)
    names = [f"{kind[0].upper()}{seat + 1}" for seat, kind in enumerate(job.kinds)]
    options = game.options_model.model_validate(job.options)
    start = time.perf_counter()
    state = game.setup(options, names, job.seed)
    actions: list[tuple[int, str]] = []
    while game.outcome(state) is None and len(actions) < MAX_MOVES:
        decision = next_decision(game.decisions(state))
        kind = job.kinds[decision.seat]
        action = bot_move(game, kind, state, decision, rng, worlds=job.search_worlds, seed=job.seed)
        state, _ = game.apply(state, decision.seat, action)
        actions.append((decision.seat, action.encode()))
    seconds = time.perf_counter() - start
    outcome = game.outcome(state)
    result = Result(
        index=job.index,
        seed=job.seed,
        kinds=job.kinds,
        moves=len(actions),
        rounds=round_of(state),
        seconds=seconds,
        digest=digest(state),
        actions=actions if job.keep_actions else [],
    )
    if outcome is not None:
        by_seat = sorted(outcome.placements, key=lambda p: p.seat)
        result.places = tuple(p.place for p in by_seat)
        result.scores = tuple(p.score for p in by_seat)
    return result


def digest(state: GameState) -> str:
    return hashlib.sha256(state.model_dump_json().encode()).hexdigest()


def replays_identically(game: Game, job: Job, result: Result) -> bool:
    names = [f"{kind[0].upper()}{seat + 1}" for seat, kind in enumerate(job.kinds)]
    state = game.setup(game.options_model.model_validate(job.options), names, job.seed)
    for seat, text in result.actions:
        state, _ = game.apply(state, seat, Action.decode(text))
    return digest(state) == result.digest


def run_jobs(jobs: Sequence[Job], workers: int, console: Console | None) -> list[Result]:
    results: list[Result] = []
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=console is None,
        transient=True,
    )
    with progress:
        task = progress.add_task("Playing", total=len(jobs))
        if workers > 1:
            chunk = max(1, len(jobs) // (workers * 8))
            with multiprocessing.get_context().Pool(workers, initializer=_quiet_worker) as pool:
                for result in pool.imap_unordered(play_one, jobs, chunksize=chunk):
                    results.append(result)
                    progress.advance(task)
        else:
            for job in jobs:
                results.append(play_one(job))
                progress.advance(task)
    return sorted(results, key=lambda r: r.index)


def _quiet_worker() -> None:
    # Ctrl-C is the parent's to handle: workers stop when it ends the pool, without a
    # traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- figures -----------------------------------------------------------------------------
def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (shared wins count fractionally)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Report:
    game: str
    players: int
    games: int
    finished: int
    seat_wins: list[float]
    kind_wins: dict[str, float]
    kind_seats: dict[str, int]
    moves: list[int]
    rounds: list[int]
    busy_seconds: float
    wall_seconds: float
    checked: int
    identical: int


def summarise(
    game: str, players: int, results: Sequence[Result], wall: float, checked: Iterable[bool]
) -> Report:
    seat_wins = [0.0] * players
    kind_wins: dict[str, float] = {}
    kind_seats: dict[str, int] = {}
    done = [r for r in results if r.finished]
    for result in done:
        winners = result.winners
        for seat, kind in enumerate(result.kinds):
            kind_seats[kind] = kind_seats.get(kind, 0) + 1
            kind_wins.setdefault(kind, 0.0)
            if seat in winners:
                seat_wins[seat] += 1 / len(winners)
                kind_wins[kind] += 1 / len(winners)
    checks = list(checked)
    return Report(
        game=game,
        players=players,
        games=len(results),
        finished=len(done),
        seat_wins=seat_wins,
        kind_wins=kind_wins,
        kind_seats=kind_seats,
        moves=[r.moves for r in done],
        rounds=[r.rounds for r in done],
        busy_seconds=sum(r.seconds for r in results),
        wall_seconds=wall,
        checked=len(checks),
        identical=sum(checks),
    )


def print_report(report: Report, console: Console, game_name: str) -> None:
    console.print(
        f"[bold]{game_name}[/bold]: {report.games} games, {report.players} players, "
        f"{report.finished} finished"
        + (
            ""
            if report.finished == report.games
            else f" ({report.games - report.finished} hit the {MAX_MOVES}-move cap)"
        )
    )
    seats = RichTable(title="Win share by seat (95% CI)", title_justify="left")
    for column in ("Seat", "Wins", "Share", "95% CI"):
        seats.add_column(column, justify="right")
    for seat, wins in enumerate(report.seat_wins):
        low, high = wilson(wins, report.finished)
        share = wins / report.finished if report.finished else 0.0
        seats.add_row(str(seat + 1), f"{wins:g}", f"{share:.1%}", f"{low:.1%}–{high:.1%}")
    console.print(seats)
    kinds = RichTable(
        title=f"Win share per seat by bot kind (fair: {1 / report.players:.1%})",
        title_justify="left",
    )
    for column in ("Bot", "Seats played", "Wins", "Share", "95% CI"):
        kinds.add_column(column, justify="right")
    for kind, seats_played in sorted(report.kind_seats.items()):
        wins = report.kind_wins.get(kind, 0.0)
        low, high = wilson(wins, seats_played)
        kinds.add_row(
            kind,
            str(seats_played),
            f"{wins:g}",
            f"{wins / seats_played:.1%}",
            f"{low:.1%}–{high:.1%}",
        )
    console.print(kinds)
    lengths = RichTable(title="Game length", title_justify="left")
    for column in ("", "p10", "p50", "p90", "max"):
        lengths.add_column(column, justify="right")
    for name, values in (("moves", report.moves), ("rounds", report.rounds)):
        lengths.add_row(name, *(f"{percentile(values, q):g}" for q in (10, 50, 90, 100)))
    console.print(lengths)
    total = sum(report.moves)
    per_core = total / report.busy_seconds if report.busy_seconds else 0.0
    overall = total / report.wall_seconds if report.wall_seconds else 0.0
    console.print(
        f"Speed: {per_core:,.0f} moves/s per process, {overall:,.0f} moves/s overall "
        f"({report.wall_seconds:.1f} s)"
    )
    verdict = "ok" if report.identical == report.checked else "MISMATCH"
    console.print(
        f"Determinism: {report.identical}/{report.checked} sampled games replayed to the same "
        f"state, byte for byte: {verdict}"
    )


def write_csv(path: Path, results: Sequence[Result]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["game", "seed", "kinds", "places", "scores", "winners", "moves", "rounds", "seconds"]
        )
        for r in results:
            writer.writerow(
                [
                    r.index,
                    r.seed,
                    " ".join(r.kinds),
                    " ".join(map(str, r.places)),
                    " ".join(map(str, r.scores)),
                    " ".join(str(s + 1) for s in r.winners),
                    r.moves,
                    r.rounds,
                    f"{r.seconds:.4f}",
                ]
            )
