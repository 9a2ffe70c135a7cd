"""Discord's request budget in the load bench (``python -m bench load``, bench/load.py).

The offline Discord keeps Discord's limits (devtools/offline_discord/ratelimits.py): the
token's global budget (``--budget``, 50 a second as Discord grants by default; ``off``: no
limits), per-route buckets, interaction endpoints free. Here is what the bench adds for it:

* ``--pace human``: a person thinks ``--move-every`` seconds (0.5x to 1.5x, 5 s by default)
  before each move, and the hosts press Start over the run's first 30 s, so a table moves
  every few seconds as people play; ``--pace fast`` (the default) clicks as fast as answered.
* ``--match-pace live|casual|async...``: the pace the hosts pick in the lobby (the server's
  default otherwise); it names the target below.
* ``--processes 2``: two bot processes of one application (one token): each a worker with
  half the channels in a guild of its own, sharing the one budget through a ledger file.
* ``--game all``: every game in turn, then one line per game.

And what it reports for issue 39's "Done when": budgeted and free calls per move apart (by
route), against the target (<= 1.0 budgeted call a move at a live table, <= 1.5 at an
async one with its ping); 429s Discord answered and those that reached the log as
warnings (discord.py logs one per 429); pings and results owed against those Discord
received (bench/owed.py), and those the bot's own warnings say it gave up; every click's
answer (target <= 3 s); the time from Start to the lobby turned into its table (<= 3 s);
and, once the people stop, how long each table takes to show its newest state (<= 10 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import re
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import discord

from bench.owed import Owed
from bot.outbox import RefusalsSaid
from bot.service import Change
from cogs.table import presenter_of
from devtools.offline_discord import FakeDiscord, FakeMessage, FakeUser, RateLimits

START_WITHIN = 30.0  # seconds over which the hosts press Start at a human pace
LOBBY_TARGET = 3.0  # seconds from Start to the table
ANSWER_TARGET = 3.0  # seconds from a click to its answer (the acknowledgement's own limit)
NEWEST_TARGET = 10.0  # seconds from a table's last move to the table showing it
TAIL_LIMIT = 60.0  # seconds the bench waits for the tables to catch up after the run
LIVE_TARGET, ASYNC_TARGET = 1.0, 1.5  # budgeted calls a move
# What the bot logs when it gives up a message for good (cogs/table/pings.py, notices.py,
# presenter.py): a lost ping, result, reminder or timeout notice; or a table edit (the
# table's next change redraws it: counted apart).
LOST = re.compile(r"^(could not (ping|post|remind|rename)|gave up on)")
TABLE_GIVEN_UP = "gave up on"
Hook = Callable[[FakeMessage], None]  # LoadDiscord.watch: every public message and edit
RESULT = "BUDGET "  # a worker's last line: its figures as JSON
SHOWN = ("title", "description", "fields")  # what of a table's embed says its state


@dataclass(frozen=True)
class BudgetOptions:
    per_second: float | None = 50.0  # None: the offline Discord serves everything at once
    pace: str = "fast"
    move_every: float = 5.0
    match_pace: str | None = None
    processes: int = 1
    worker: int = 0  # this process's index among ``processes``
    ledger: str | None = None  # the budget file the workers share
    table_tokens: bool = True  # False: every table edit budgeted, as past a token's 15 min
    sharing: int = 1  # processes of the application that share the budget (a worker's)

    @property
    def human(self) -> bool:
        return self.pace == "human"

    def rate_limits(self) -> RateLimits | None:
        if self.per_second is None:
            return None
        if self.ledger is not None:
            return RateLimits.shared(self.ledger, self.per_second)
        return RateLimits(self.per_second)

    def bot_settings(self) -> dict[str, float]:
        """What the bot is told of the budget, as its operator would set it: the
        application's ``REQUEST_BUDGET`` and how many processes share it
        (``REQUEST_PROCESSES``). Left at the defaults, a process at a 10-a-second budget (or
        one of two at 50) would spend 50 a second and meet 429s it need not."""
        if self.per_second is None:
            return {}
        return {"request_budget": self.per_second, "request_processes": float(self.sharing)}

    def think(self, rng: random.Random) -> float:
        """Seconds a person takes over a move."""
        return rng.uniform(0.5, 1.5) * self.move_every if self.human else 0.0

    def first_look(self, rng: random.Random) -> float:
        """Seconds before a host presses Start (at a human pace; at once otherwise)."""
        return rng.uniform(0.0, START_WITHIN) if self.human else 0.0

    def target(self) -> float:
        return LIVE_TARGET if self.match_pace == "live" else ASYNC_TARGET

    def describe(self) -> str:
        budget = "off" if self.per_second is None else f"{self.per_second:g}/s"
        pace = f"a move every ~{self.move_every:g} s a person" if self.human else "fast"
        share = f", process {self.worker + 1} of {self.sharing}" if self.sharing > 1 else ""
        edits = "" if self.table_tokens else "; every table edit budgeted (no token reaches it)"
        return (
            f"Discord's limits: budget {budget}{share}; pace {pace}; tables "
            f"{self.match_pace or 'at the default pace'}{edits}"
        )


DEFAULT = BudgetOptions()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--budget",
        default="50",
        help="the bot token's global budget, requests a second (Discord's default 50); "
        "'off': the offline Discord serves everything at once",
    )
    parser.add_argument(
        "--pace",
        choices=("fast", "human"),
        default="fast",
        help="fast: every person clicks as fast as answered; human: a move every few seconds",
    )
    parser.add_argument(
        "--move-every", type=float, default=5.0, help="human pace: seconds a move takes"
    )
    parser.add_argument(
        "--match-pace", help="the pace the hosts pick in the lobby (live, casual, async...)"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes of one application sharing the budget, each with its share "
        "of the channels",
    )
    parser.add_argument(
        "--table-tokens",
        choices=("on", "off"),
        default="on",
        help="on: a table is edited through the token of the last click that answered with "
        "it, free for 15 minutes; off: every table edit budgeted, as in a match whose last "
        "such click is older (a one-minute run otherwise never sees one)",
    )
    # A worker of --processes: which one, and the budget's file it shares.
    parser.add_argument("--worker", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--ledger", help=argparse.SUPPRESS)
    parser.add_argument("--sharing", type=int, default=1, help=argparse.SUPPRESS)


def options_from(args: Any) -> BudgetOptions:
    per_second = None if str(args.budget).lower() == "off" else float(args.budget)
    return BudgetOptions(
        per_second,
        args.pace,
        args.move_every,
        args.match_pace,
        args.processes,
        args.worker,
        args.ledger,
        args.table_tokens == "on",
        args.sharing,
    )


class LogTally(logging.Handler):
    """Counts what reaches the log: discord.py's warning per 429, and the bot's own warnings
    that it gave a message up."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.rate_limited = 0
        self.global_hits = 0
        self.refusals_said = 0  # the bot's line a minute saying how many 429s it waited out
        self.lost: Counter[str] = Counter()
        self.samples: list[str] = []

    def clear(self) -> None:
        self.rate_limited = self.global_hits = self.refusals_said = 0
        self.lost.clear()
        self.samples.clear()

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.name in RefusalsSaid.LOGGERS:
            # discord.py's warning per 429, from its HTTP client or its webhooks (the
            # interaction endpoints): the bot's filter keeps them out of the log.
            if message.startswith("Global rate limit"):
                self.global_hits += 1  # the same refusal's second line
            elif any(phrase in message for phrase in RefusalsSaid.PHRASES):
                self.rate_limited += 1
        elif record.name == "bot.outbox" and message.startswith("Discord refused"):
            self.refusals_said += 1
        elif record.name.startswith("cogs") and (found := LOST.match(message)):
            self.lost[found.group(0)] += 1
            if len(self.samples) < 3 and found.group(0) != TABLE_GIVEN_UP:
                self.samples.append(message)

    @contextlib.contextmanager
    def installed(self) -> Iterator[LogTally]:
        root = logging.getLogger()
        root.addHandler(self)
        # The bench quiets the root logger to ERROR: these loggers must still pass warnings
        # (to this tally; the terminal still shows errors only: one line per 429 is noise).
        names = (*RefusalsSaid.LOGGERS, "bot.outbox", "cogs")
        loggers = [logging.getLogger(name) for name in names]
        levels = [logger.level for logger in loggers]
        for logger in loggers:
            logger.setLevel(logging.WARNING)
        printers = [h for h in root.handlers if type(h) is logging.StreamHandler]
        printed = [h.level for h in printers]
        for handler in printers:
            handler.setLevel(max(handler.level, logging.ERROR))
        try:
            yield self
        finally:
            root.removeHandler(self)
            for logger, level in zip(loggers, levels, strict=True):
                logger.setLevel(level)
            for handler, level in zip(printers, printed, strict=True):
                handler.setLevel(level)


class Seconds:
    """Durations, kept as an array (the collector does not walk it)."""

    def __init__(self) -> None:
        self.values: array[float] = array("d")

    def add(self, seconds: float) -> None:
        self.values.append(seconds)

    def percentile(self, share: float) -> float:
        if not self.values:
            return 0.0
        ordered = sorted(self.values)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def over(self, limit: float) -> int:
        return sum(1 for value in self.values if value > limit)


class TableWatch:
    """When each lobby turned into its table after Start, and each table's last move."""

    def __init__(self, fake: FakeDiscord, tables: dict[int, int]) -> None:
        self.fake = fake
        self.tables = tables  # channel -> its table (lobby) message, kept by the harness
        self.started: dict[int, float] = {}  # channel -> when its host pressed Start
        self.lobby_to_table = Seconds()
        self.never_turned = 0
        self.last_move: dict[int, tuple[float, str]] = {}  # channel -> (when, match id)
        # channel -> (what its table's embed says, when it last said something new)
        self.said: dict[int, tuple[str, float]] = {}

    def start_pressed(self, channel_id: int) -> None:
        self.started[channel_id] = time.perf_counter()

    def shown(self, msg: FakeMessage) -> None:
        """A public message was posted or edited: a lobby turned into its table? And when
        did the table last show something new?"""
        if self.tables.get(msg.channel_id) != msg.id:
            return
        said = saying(msg.embeds)
        if self.said.get(msg.channel_id, ("", 0.0))[0] != said:
            self.said[msg.channel_id] = (said, time.perf_counter())
        pressed = self.started.get(msg.channel_id)
        if pressed is None:
            return
        if not any(c.get("custom_id", "").startswith("cj:lobby:") for c in _flat(msg)):
            self.lobby_to_table.add(time.perf_counter() - pressed)
            del self.started[msg.channel_id]

    async def listen(self, change: Change) -> None:
        if change.kind in ("started", "action", "finished"):
            self.last_move[change.match.channel_id] = (time.perf_counter(), change.match.match_id)

    def stop(self) -> None:
        """The run is over: a Start still waiting for its table counts as too slow."""
        now = time.perf_counter()
        for pressed in self.started.values():
            self.lobby_to_table.add(now - pressed)
            self.never_turned += 1
        self.started.clear()


def _flat(msg: FakeMessage) -> list[dict[str, Any]]:
    found = []
    for row in msg.components:
        found.append(row)
        found.extend(row.get("components", []))
    return found


def saying(embeds: Sequence[dict[str, Any]]) -> str:
    """What of a table's embed tells its state: its title, text and fields (the picture
    may lag behind, as it may in play)."""
    first = embeds[0] if embeds else {}
    return json.dumps([first.get(key) for key in SHOWN])


async def newest_shown(bot: discord.Client, watch: TableWatch) -> Seconds:
    """Once the people stop: for every table, the seconds from its last move until its
    message showed what the saved match renders to now (the moment its embed last said
    something new, ``TableWatch.shown``). Checked until every table shows it or for
    ``TAIL_LIMIT``; a table still behind then counts as its wait so far."""
    presenter, service = presenter_of(bot), bot.service  # type: ignore[attr-defined]
    waiting = dict(watch.last_move)
    found = Seconds()
    give_up = time.perf_counter() + TAIL_LIMIT
    while waiting and time.perf_counter() < give_up:
        for channel_id, (moved_at, match_id) in list(waiting.items()):
            record = await service.current(match_id)
            said, when = watch.said.get(channel_id, ("", 0.0))
            if record.message_id != watch.tables.get(channel_id):
                continue  # a rematch's lobby is not posted yet
            drawn = await presenter.table_message(record)
            if saying([e.to_dict() for e in drawn.embeds]) == said:
                found.add(max(0.0, when - moved_at))
                del waiting[channel_id]
        await asyncio.sleep(0.25)
    for moved_at, _ in waiting.values():
        found.add(time.perf_counter() - moved_at)
    return found


@dataclass
class BudgetFigures:
    """One run's (or one worker's) figures against Discord's budget."""

    game: str
    moves: int
    budgeted: int
    free: int
    by_route: dict[str, int]
    refused: int  # 429s the offline Discord answered
    refused_by: dict[str, int]  # ... by scope and method ("global POST", "user PATCH")
    warned: int  # 429 warnings that reached the log
    lost: int  # pings, results, reminders, notices given up
    lost_samples: list[str]
    lobby_p50: float
    lobby_max: float
    lobby_over: int
    lobby_count: int
    newest_max: float
    newest_over: int
    newest_count: int
    failed: int
    answer_p50: float
    answer_p99: float
    answer_max: float
    target: float
    tables_given_up: int = 0  # table edits given up (the next change redraws the table)
    answers_over: int = 0  # clicks answered more than 3 s after they were made
    pings_owed: int = 0  # pings the bot set out to send (bench/owed.py)
    pings_delivered: int = 0  # ... that reached the offline Discord
    pings_queued: int = 0  # ... still waiting for the budget when the bench stopped
    results_owed: int = 0  # matches finished
    results_delivered: int = 0  # ... whose result message reached the offline Discord
    refusals_said: int = 0  # the bot's once-a-minute lines counting the 429s it waited out
    errors: int = 0  # ERROR lines logged
    processes: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def budgeted_per_move(self) -> float:
        return self.budgeted / max(1, self.moves)

    @property
    def free_per_move(self) -> float:
        return self.free / max(1, self.moves)

    @property
    def missing(self) -> int:
        """Pings and results owed that never reached Discord (still queued included)."""
        return self.pings_owed - self.pings_delivered + self.results_owed - self.results_delivered

    def dump(self) -> str:
        return RESULT + json.dumps(asdict(self))

    @classmethod
    def load(cls, line: str) -> BudgetFigures:
        return cls(**json.loads(line.removeprefix(RESULT)))


def figures_of(
    game: str,
    options: BudgetOptions,
    moves: int,
    calls: tuple[Counter[str], Counter[str], Counter[str]],
    tally: LogTally,
    watch: TableWatch,
    newest: Seconds,
    failed: int,
    answers: Any,
    owed: Owed,
    errors: int = 0,
) -> BudgetFigures:
    budgeted, free, refused = calls
    lobby = watch.lobby_to_table
    return BudgetFigures(
        game=game,
        moves=moves,
        budgeted=budgeted.total(),
        free=free.total(),
        by_route=dict(budgeted.most_common()),
        refused=refused.total(),
        refused_by=dict(refused.most_common()),
        warned=tally.rate_limited,
        lost=tally.lost.total() - tally.lost[TABLE_GIVEN_UP],
        lost_samples=tally.samples,
        tables_given_up=tally.lost[TABLE_GIVEN_UP],
        lobby_p50=lobby.percentile(0.5),
        lobby_max=lobby.percentile(1.0),
        lobby_over=lobby.over(LOBBY_TARGET),
        lobby_count=len(lobby.values),
        newest_max=newest.percentile(1.0),
        newest_over=newest.over(NEWEST_TARGET),
        newest_count=len(newest.values),
        failed=failed,
        answer_p50=answers.percentile(0.5),
        answer_p99=answers.percentile(0.99),
        answer_max=answers.percentile(1.0),
        target=options.target(),
        answers_over=answers.over(ANSWER_TARGET),
        pings_owed=owed.pings_owed,
        pings_delivered=owed.pings_delivered,
        pings_queued=owed.pings_queued,
        results_owed=len(owed.results_owed),
        results_delivered=len(owed.results_owed & owed.results_delivered),
        refusals_said=tally.refusals_said,
        errors=errors,
    )


def without_table_tokens(bot: discord.Client) -> None:
    """``--table-tokens off``: no interaction's token reaches any table (as 15 minutes after
    the last click that answered with it), so each of its edits is budgeted."""
    shown = presenter_of(bot).shown
    shown.reach = lambda match_id, message_id: None  # type: ignore[method-assign]


def calls_since(fake: FakeDiscord, before: tuple[Counter[str], ...]) -> tuple[Counter[str], ...]:
    now = (fake.calls.budgeted, fake.calls.free, fake.calls.refused)
    return tuple(Counter(after) - then for after, then in zip(now, before, strict=True))


def calls_now(fake: FakeDiscord) -> tuple[Counter[str], ...]:
    return (Counter(fake.calls.budgeted), Counter(fake.calls.free), Counter(fake.calls.refused))


def report(figures: BudgetFigures) -> None:
    """The budget's part of a run's summary."""
    f = figures
    routes = ", ".join(
        f"{route} {count / max(1, f.moves):.3f}" for route, count in list(f.by_route.items())[:6]
    )
    verdict = "within" if f.budgeted_per_move <= f.target else "OVER"
    refusals = ", ".join(f"{why} {n}" for why, n in f.refused_by.items())
    refusals = f" ({refusals})" if refusals else ""
    print(
        f"budgeted calls per move: {f.budgeted_per_move:.2f} ({verdict} the target <= "
        f"{f.target:g}); free (interaction answers): {f.free_per_move:.2f}; by route: {routes}"
    )
    print(
        f"429s: {f.refused} answered by the offline Discord{refusals}, {f.warned} reached the "
        f"log as "
        f"warnings (target 0; the bot's own count of them, once a minute at most: "
        f"{f.refusals_said} lines); table edits given up: {f.tables_given_up}"
    )
    print(
        f"pings owed {f.pings_owed}, delivered {f.pings_delivered} "
        f"({f.pings_queued} still queued when the bench stopped waiting); results owed "
        f"{f.results_owed}, delivered {f.results_delivered}; given up by the bot's own log: "
        f"{f.lost} (target 0)"
        + (f", e.g. {f.lost_samples[0]!r}" if f.lost_samples else "")
        + f"; owed and not delivered: {f.missing} (target 0)"
    )
    print(
        f"clicks answered: p50 {f.answer_p50:.2f} s, p99 {f.answer_p99:.2f} s, max "
        f"{f.answer_max:.2f} s, {f.answers_over} over {ANSWER_TARGET:g} s (target 0); failed "
        f"{f.failed} (target 0)"
    )
    print(
        f"Start to table: {f.lobby_count} lobbies, p50 {f.lobby_p50:.2f} s, max "
        f"{f.lobby_max:.2f} s, {f.lobby_over} over {LOBBY_TARGET:g} s (target 0); newest state "
        f"shown after the last move: {f.newest_count} tables, max {f.newest_max:.2f} s, "
        f"{f.newest_over} over {NEWEST_TARGET:g} s (target 0)"
    )


def merged(parts: Sequence[BudgetFigures]) -> BudgetFigures:
    """Several workers' figures as one application's: counts added, the worst of each
    latency (a p50 or p99 of the whole is not recoverable from the parts: their worst)."""
    first = parts[0]
    routes: Counter[str] = Counter()
    refused_by: Counter[str] = Counter()
    for part in parts:
        routes.update(part.by_route)
        refused_by.update(part.refused_by)
    return BudgetFigures(
        game=first.game,
        moves=sum(p.moves for p in parts),
        budgeted=sum(p.budgeted for p in parts),
        free=sum(p.free for p in parts),
        by_route=dict(routes.most_common()),
        refused=sum(p.refused for p in parts),
        refused_by=dict(refused_by.most_common()),
        warned=sum(p.warned for p in parts),
        lost=sum(p.lost for p in parts),
        tables_given_up=sum(p.tables_given_up for p in parts),
        answers_over=sum(p.answers_over for p in parts),
        pings_owed=sum(p.pings_owed for p in parts),
        pings_delivered=sum(p.pings_delivered for p in parts),
        pings_queued=sum(p.pings_queued for p in parts),
        results_owed=sum(p.results_owed for p in parts),
        results_delivered=sum(p.results_delivered for p in parts),
        refusals_said=sum(p.refusals_said for p in parts),
        errors=sum(p.errors for p in parts),
        lost_samples=[s for p in parts for s in p.lost_samples][:3],
        lobby_p50=max(p.lobby_p50 for p in parts),
        lobby_max=max(p.lobby_max for p in parts),
        lobby_over=sum(p.lobby_over for p in parts),
        lobby_count=sum(p.lobby_count for p in parts),
        newest_max=max(p.newest_max for p in parts),
        newest_over=sum(p.newest_over for p in parts),
        newest_count=sum(p.newest_count for p in parts),
        failed=sum(p.failed for p in parts),
        answer_p50=max(p.answer_p50 for p in parts),
        answer_p99=max(p.answer_p99 for p in parts),
        answer_max=max(p.answer_max for p in parts),
        target=first.target,
        processes=len(parts),
    )


def games_table(rows: Sequence[BudgetFigures]) -> str:
    """One line per game: issue 39's Done-when figures side by side."""
    head = (
        f"{'game':<20} {'moves':>6} {'budg/mv':>7} {'target':>6} {'free/mv':>7} {'failed':>6} "
        f"{'ans p50':>7} {'p99':>6} {'max':>6} {'>3s':>4} {'start max':>9} {'>3s':>4} "
        f"{'newest max':>10} {'>10s':>4} {'pings':>9} {'results':>7} {'miss':>4} "
        f"{'gave up':>7} {'429s':>5} {'warned':>6} {'ERRORs':>6}  budget"
    )
    lines = [head]
    for f in rows:
        lines.append(
            f"{f.game:<20} {f.moves:>6} {f.budgeted_per_move:>7.2f} {f.target:>6g} "
            f"{f.free_per_move:>7.2f} {f.failed:>6} {f.answer_p50 * 1e3:>5.0f}ms "
            f"{f.answer_p99 * 1e3:>4.0f}ms {f.answer_max * 1e3:>4.0f}ms {f.answers_over:>4} "
            f"{f.lobby_max:>8.2f}s {f.lobby_over:>4} {f.newest_max:>9.2f}s {f.newest_over:>4} "
            f"{f.pings_delivered:>4}/{f.pings_owed:<4} "
            f"{f.results_delivered:>3}/{f.results_owed:<3} {f.missing:>4} "
            f"{f.lost:>7} {f.refused:>5} {f.warned:>6} {f.errors:>6}  "
            + ("within" if f.budgeted_per_move <= f.target else "OVER")
        )
    return "\n".join(lines)


async def set_match_pace(
    fake: FakeDiscord, host: FakeUser, lobby: FakeMessage, pace: str | None
) -> None:
    """The host picks the match's pace in the lobby (``--match-pace``)."""
    if pace is None:
        return
    select = next(s for s in lobby.selects() if s["custom_id"].endswith(":_pace"))
    await fake.select(host, lobby, select["custom_id"], [pace])


def worker_first_id(options: BudgetOptions) -> int:
    """Where a worker's snowflake counter starts: its channels' ids (the buckets' keys in
    the shared ledger) apart from the other workers'."""
    return options.worker * 10**9


def run_workers(argv: Sequence[str], options: BudgetOptions, channels: int) -> list[str]:
    """``--processes N``: N bot processes of one application, each ``python -m bench load``
    with its share of the channels and the one ledger; their output is passed through and
    their figures (their last lines) returned, per game."""
    with tempfile.TemporaryDirectory() as folder:
        ledger = str(Path(folder) / "budget.json")
        commands = [_spawn(argv) for argv in worker_argvs(argv, options, channels, ledger)]
        return asyncio.run(_gather(commands))


def worker_argvs(
    argv: Sequence[str], options: BudgetOptions, channels: int, ledger: str
) -> list[list[str]]:
    """Each worker's command line: the parent's, with its share of the channels."""
    # A worker plays its share alone: the parent sets the workers' figures side by side
    # per game, and a worker's 30-table baseline (``scale``) would be counted among them.
    rest = [*_without(argv, "--processes", "--channels", "--baseline"), "--baseline", "0"]
    shares = [channels // options.processes] * options.processes
    for index in range(channels % options.processes):
        shares[index] += 1
    return [
        [
            *rest,
            *("--channels", str(share), "--worker", str(index), "--ledger", ledger),
            *("--processes", "1", "--sharing", str(options.processes)),
        ]
        for index, share in enumerate(shares)
    ]


def _without(argv: Sequence[str], *names: str) -> Iterator[str]:
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in names:
            skip = "=" not in arg
            continue
        yield arg


def _spawn(argv: list[str]) -> list[str]:
    return [sys.executable, "-m", "bench", "load", *argv]


async def _gather(commands: list[list[str]]) -> list[str]:
    async def one(index: int, command: list[str]) -> list[str]:
        process = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).resolve().parents[1]
        )
        assert process.stdout is not None
        results = []
        async for raw in process.stdout:
            line = raw.decode().rstrip("\n")
            if line.startswith(RESULT):
                results.append(line)
            else:
                print(f"[process {index + 1}] {line}", flush=True)
        await process.wait()
        return results

    found = await asyncio.gather(*(one(i, c) for i, c in enumerate(commands)))
    return [line for lines in found for line in lines]


def figures_by_game(lines: Sequence[str]) -> list[BudgetFigures]:
    """The workers' figures, merged per game in the order the games ran."""
    parts: dict[str, list[BudgetFigures]] = {}
    for line in lines:
        figures = BudgetFigures.load(line)
        parts.setdefault(figures.game, []).append(figures)
    return [merged(group) for group in parts.values()]
