"""Sustained load: ``python -m bench load [--channels N] [--minutes M]``.

N channels of four people play Cover Your Assets (``--game``: another, with as many as it
seats up to four) on the offline Discord harness, through the real discord.py code and
the real bot (cogs, service, SQLite store), each person
clicking as fast as the bot answers: a move in their hand when they have one, otherwise
they wait until the table shows it is their turn (or look at their hand after a few quiet
seconds, as people do). A finished match is rematched at once. Per 30-second window it
prints the latency of every click apart: its acknowledgement (dispatch to the bot's first
answer, which Discord wants within 3 s) and its answer (to the message the person reads
next: the same moment, unless the bot acknowledged a slow click first and answered when its
turn came), failed interactions, RSS
and the longest garbage-collection pause; at the end, REST calls per move and moves/s against the
service's own bare figure measured in the same run (one match, no Discord).

A click first answered more than 3 s after it was made is refused with 10062 "Unknown
interaction", as Discord does, and counted as failed.

``--hard-bots`` seats hard bots in a third of the seats (their thinking in worker
processes, bot/thinking.py). ``--database postgres`` runs the bot on a throwaway
PostgreSQL (or ``BENCH_DATABASE_URL``) instead of SQLite; ``--channels 1000`` is the
overload run (1,000 active matches). ``--pictures both`` runs it twice in one go, pictures
off then on (``--pictures on|off``: once), and sets the two side by side: failed clicks,
RSS growth, and p99 on against off.
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import gc
import json
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import discord

from bench import budget, postgres, scale
from bench.collector import GcWatch
from bench.owed import Owed
from bench.service import service_cost
from bot.client import CookieJar
from bot.config import Settings
from bot.service import Change, MatchService
from bot.service.base import waiting_on
from cogs import components
from cogs.table import presenter_of
from devtools.offline_discord import (
    FakeDiscord,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    RateLimits,
)
from games import GAMES

GAME = "cover_your_assets"
WINDOW = 30.0  # seconds per report line
MINUTE = round(60 / WINDOW)  # windows a minute
ANSWER_LIMIT = 3.0  # Discord refuses an answer later than this
GIVE_UP = 10.0  # a click still unacknowledged after this is failed for good
ANSWER_GIVE_UP = 120.0  # an acknowledged click still unanswered after this is failed
DEFERRED = (5, 6)  # callback types that acknowledge a click and answer it later
LOOK_AFTER = 5.0  # a person with nothing to do looks at their hand after this long
LOOK_MOST = 40.0  # and, finding nothing again and again, after twice as long, up to this
PRUNE_EVERY = 5.0  # seconds between two clean-ups of the harness's records
MENTION = re.compile(r"<@(\d+)>")
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * PAGE / 2**20


def percentile(values: Sequence[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Interactions(list[FakeInteraction]):
    """The harness's list of interactions, also indexed by id: it looks one up for every
    message it hands the bot, and a long run makes thousands."""

    def __init__(self, items: Sequence[FakeInteraction] = ()) -> None:
        super().__init__(items)
        self.by_id = {record.id: record for record in items}

    def append(self, record: FakeInteraction) -> None:
        super().append(record)
        self.by_id[record.id] = record


def json_copy(data: Any) -> Any:
    """A deep copy of JSON data, several times faster than ``copy.deepcopy``."""
    return json.loads(json.dumps(data))


class LoadDiscord(FakeDiscord):
    """The harness, kept small over a long run: it forgets what nobody will look at again,
    counts REST calls instead of recording them, and tells waiters when a click is
    answered and when someone is pinged."""

    def __init__(self, rate_limits: RateLimits | None = None, first_id: int = 0) -> None:
        super().__init__(rate_limits=rate_limits, first_id=first_id)
        self.watch: budget.Hook = lambda msg: None  # sees every public message and edit
        self.posted: budget.Hook = lambda msg: None  # sees every public message posted
        self.late = 0
        self.sent_at: dict[int, float] = {}
        self.answers: dict[int, asyncio.Future[float]] = {}  # acknowledgements
        self.late_answers: dict[int, asyncio.Future[float]] = {}  # answers after deferring
        self.deferred = 0
        # Clicks whose handler has not ended (``timed_handlers``): their token is kept, as
        # Discord keeps it 15 minutes, however long ago the first answer came.
        self.working: set[int] = set()
        self.pinged: dict[int, asyncio.Event] = {}
        self.tables: dict[int, int] = {}  # channel id -> its table message id
        self._seen: dict[int, float] = {}  # public message id -> when pruning first saw it
        self.interactions = Interactions()

    def _copy(self, value: Any) -> Any:
        # The harness copies each message's JSON before handing it to the bot: the same
        # copy, through the json module's C code (harness cost is not the bot's).
        return json_copy(value)

    def _message_json(self, msg: FakeMessage) -> dict[str, Any]:
        if msg.interaction_id is None:
            return super()._message_json(msg)
        everyone = self.interactions
        self.interactions = [everyone.by_id[msg.interaction_id]]  # type: ignore[attr-defined]
        try:
            return super()._message_json(msg)
        finally:
            self.interactions = everyone

    def _serve(self, request: Any) -> Any:
        try:
            return super()._serve(request)
        finally:
            self.requests.clear()

    def _log_public(self, msg: FakeMessage) -> None:
        pass  # the harness keeps all public text for leak checks; a load run does not

    def _answered(self, interaction: FakeInteraction | None) -> None:
        """A deferred click's answer came (a followup or an edit through its token)."""
        if interaction is not None:
            self.handled(interaction.id)

    def handled(self, interaction_id: int) -> None:
        """The bot is done with a click (``timed_handlers``): its answer, whatever it was
        (a hand edited, or the lobby the click changed), is out."""
        future = self.late_answers.pop(interaction_id, None)
        if future is not None and not future.done():
            future.set_result(time.perf_counter() - self.sent_at[interaction_id])

    def _create_message(self, request: Any, channel: Any, body: Any, **kwargs: Any) -> FakeMessage:
        msg = super()._create_message(request, channel, body, **kwargs)
        self._answered(kwargs.get("interaction"))
        if msg.visible_to is None:
            self.watch(msg)
            self.posted(msg)
            if any(c.get("custom_id", "").startswith("cj:lobby:") for c in _flat(msg)):
                self.tables[msg.channel_id] = msg.id
            for user_id in MENTION.findall(msg.content):
                if (event := self.pinged.get(int(user_id))) is not None:
                    event.set()
        return msg

    def _edit_message(self, request: Any, msg: FakeMessage, body: Any, **kwargs: Any) -> Any:
        edited = super()._edit_message(request, msg, body, **kwargs)
        edited.history.clear()
        if edited.visible_to is None:
            self.watch(edited)
        self._answered(kwargs.get("interaction"))
        return edited

    def _callback(self, request: Any) -> Any:
        interaction = self._by_token.get(request.args[1])
        sent = self.sent_at.get(interaction.id) if interaction is not None else None
        if (
            interaction is not None
            and sent is not None
            and interaction.response_type is None
            and time.perf_counter() - sent > ANSWER_LIMIT
        ):
            self.late += 1
            raise self._reject(request, 404, 10062, "Unknown interaction")
        answer = super()._callback(request)
        if interaction is not None:
            future = self.answers.pop(interaction.id, None)
            if future is not None and not future.done():
                future.set_result(time.perf_counter() - self.sent_at[interaction.id])
            if interaction.response_type in DEFERRED:
                self.deferred += 1
            else:
                self._answered(interaction)
        return answer

    async def ask(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: list[str] | None
    ) -> tuple[FakeInteraction, float | None, float | None]:
        """A click (or a select) on ``message``: the seconds until it was acknowledged and
        until it was answered (None: never)."""
        loop = asyncio.get_running_loop()
        acknowledged: asyncio.Future[float] = loop.create_future()
        answered: asyncio.Future[float] = loop.create_future()
        started = time.perf_counter()
        if values is None:
            record = await self.click(user, message, custom_id, dispatch_only=True)
        else:
            record = await self.select(
                user, message, custom_id, values, expect_ack=False, dispatch_only=True
            )
        self.sent_at[record.id] = started
        self.working.add(record.id)
        self.answers[record.id] = acknowledged
        self.late_answers[record.id] = answered
        try:
            ack = await asyncio.wait_for(acknowledged, GIVE_UP)
        except TimeoutError:
            return record, None, None
        finally:
            self.answers.pop(record.id, None)
        try:
            return record, ack, await asyncio.wait_for(answered, ANSWER_GIVE_UP)
        except TimeoutError:
            return record, ack, None
        finally:
            self.late_answers.pop(record.id, None)

    def prune(self, keep: float = 60.0, clicks_kept: float = 60.0) -> None:
        """Forget answered interactions (``clicks_kept`` seconds after they were made) and
        messages nobody can click any more."""
        now = time.perf_counter()
        self.rejections.clear()
        latest: set[int] = set()
        for record in self._last_interaction.values():
            latest.update(record.reply_ids)
            latest.add(record.source_message_id or 0)
        for record in self.answers_pending():
            latest.add(record.source_message_id or 0)
        tables = set(self.tables.values())
        for message_id, msg in list(self.messages.items()):
            gone = msg.deleted or (
                msg.ephemeral and message_id not in latest and message_id not in tables
            )
            if gone or (
                # An old ping, announcement or finished table (a rematch posts a new one):
                # kept until it is deleted or ``keep`` seconds old. Old tables, kept for
                # good, and the clicks that made them, were a third of the heap by the end.
                msg.visible_to is None
                and message_id not in tables
                and now - self._seen.setdefault(message_id, now) > keep
            ):
                del self.messages[message_id]
                self._seen.pop(message_id, None)
        # A message's JSON names the interaction that made it: keep those.
        makers = {m.interaction_id for m in self.messages.values()}
        for record in list(self.interactions):
            if (
                record.id not in makers
                and record.id not in self.answers  # still waiting for its answer
                and record.id not in self.late_answers
                and now - self.sent_at.get(record.id, now) > clicks_kept  # now: being sent
                and (
                    record.id not in self.working
                    or now - self.sent_at.get(record.id, now) > ANSWER_GIVE_UP
                )
            ):
                self.working.discard(record.id)
                self._by_token.pop(record.token, None)
                self.sent_at.pop(record.id, None)
        self.interactions = Interactions(
            [r for r in self.interactions if r.token in self._by_token]
        )

    def answers_pending(self) -> list[FakeInteraction]:
        return [r for r in self.interactions if r.id in self.answers or r.id in self.late_answers]


def _flat(msg: FakeMessage) -> list[dict[str, Any]]:
    found = []
    for row in msg.components:
        found.append(row)
        found.extend(row.get("components", []))
    return found


def why_failed(acknowledged: float | None, answered: float | None) -> str:
    """Why a click failed, in the person's words."""
    if acknowledged is None:
        return f"no first answer within {GIVE_UP:g} s (one after 3 s is refused)"
    if answered is None:
        return f"acknowledged, never answered within {ANSWER_GIVE_UP:g} s"
    return "answered, but Discord refused the acknowledgement"


def moves_in(message: FakeMessage) -> tuple[str, list[str] | None] | None:
    """The first move a hand offers: a button, or the first values of a select (none in
    a hand view since deleted)."""
    if message.deleted:
        return None
    for component in _flat(message):
        custom_id = component.get("custom_id", "")
        if component.get("disabled"):
            continue
        if custom_id.startswith("cj:do:"):
            return custom_id, None
        if custom_id.startswith("cj:pick:"):
            low = max(1, component.get("min_values", 1))
            return custom_id, [o["value"] for o in component["options"][:low]]
    return None


def button(message: FakeMessage, prefix: str) -> str | None:
    return next(
        (
            c["custom_id"]
            for c in _flat(message)
            if c.get("custom_id", "").startswith(prefix) and not c.get("disabled")
        ),
        None,
    )


class Histogram:
    """Latencies of the whole run in bins of ``step`` (0.1 ms: 10 s and over in the last):
    a fixed 400 KB. Kept as arrays of every click, the bench's own record grew by 400 KB a
    window at 400 moves/s, most of the RSS growth it was there to measure."""

    BINS = 100_001

    def __init__(self, step: float = 1e-4) -> None:
        self.step = step
        self.counts = array("I", [0]) * self.BINS
        self.total = 0

    def add(self, seconds: float) -> None:
        self.counts[min(self.BINS - 1, int(seconds / self.step))] += 1
        self.total += 1

    def over(self, limit: float) -> int:
        """How many took longer than ``limit`` seconds (to the bin)."""
        return sum(self.counts[int(limit / self.step) + 1 :])

    def percentile(self, share: float) -> float:
        wanted = min(self.total - 1, int(share * self.total))
        seen = 0
        for index, count in enumerate(self.counts):
            seen += count
            if seen > wanted:
                return index * self.step
        return 0.0


@dataclass
class Window:
    # An array, not a list: the collector does not walk its numbers (a list of a
    # window's latencies is thousands of references to visit in every full collection).
    latencies: array[float] = field(default_factory=lambda: array("d"))
    moves: int = 0
    failed: int = 0
    reference: float = 0.0  # the machine's speed meanwhile: median ms of ``bench.speed``
    fsync: float = 0.0  # and the disk's: median ms of a 4 KB write and its fsync
    # The same latencies by what was clicked (``do``, ``pick``, ``hand``, ``rematch``...):
    # which clicks make the tail.
    kinds: dict[str, array[float]] = field(default_factory=dict)
    # From the click to its answer: the acknowledgement's moment, unless the bot deferred.
    answers: array[float] = field(default_factory=lambda: array("d"))


@dataclass
class Load:
    fake: LoadDiscord
    users: list[list[FakeUser]]
    channels: list[int]
    deadline: float
    window: Window = field(default_factory=Window)
    windows: list[tuple[Window, float, float]] = field(default_factory=list)
    every_click: Histogram = field(default_factory=Histogram)  # acknowledgements
    # 1 ms bins (to 100 s): an answer may wait its turn well past Discord's 3 s.
    every_answer: Histogram = field(default_factory=lambda: Histogram(step=1e-3))
    moves: int = 0
    failed: int = 0
    clicks: int = 0
    moves_at_start: int = 0
    # Moves and seconds until the people stopped: the clicks still being answered after
    # (a queue of many seconds at 1,000 tables) are no moves the people asked for meanwhile.
    played: tuple[int, float] = (0, 0.0)
    failures: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, why)
    options: budget.BudgetOptions = field(default_factory=budget.BudgetOptions)
    tables: budget.TableWatch | None = None
    # MB the bot's bounded caches hold (pictures, running matches), read at each window's
    # end beside RSS: a cache filling to the size it is set to is not a leak.
    caches: Callable[[], tuple[float, float]] = lambda: (0.0, 0.0)
    caches_at: list[tuple[float, float]] = field(default_factory=list)

    async def person(self, table: int, user: FakeUser, host: bool) -> None:
        fake = self.fake
        event = fake.pinged.setdefault(user.id, asyncio.Event())
        hand: FakeMessage | None = None
        rng = random.Random(user.id)
        quiet = LOOK_AFTER
        if host and (wait := self.options.first_look(rng)):  # a human pace: Start comes later
            await asyncio.sleep(wait)
            hand = await self.look(table, user, host)
        while time.perf_counter() < self.deadline:
            move = moves_in(hand) if hand is not None and hand.id in fake.messages else None
            if move is not None and (thinking := self.options.think(rng)):
                await asyncio.sleep(thinking)
                if time.perf_counter() >= self.deadline:
                    break
                # Meanwhile the hand may have changed under the person's eyes.
                move = moves_in(hand) if hand is not None and hand.id in fake.messages else None
            if move is None:
                # A person who looked and found nothing to do waits longer before looking
                # again, until the table says it is their turn. Looking every few seconds
                # without end made a thousand slow tables a load of hand views (5.6 a
                # move, against 1 at 30 fast tables), not of moves.
                try:
                    async with asyncio.timeout(quiet * rng.uniform(0.8, 1.2)):
                        await event.wait()  # awaited here: no task, no timer handle to collect
                    quiet = LOOK_AFTER
                except TimeoutError:
                    quiet = min(LOOK_MOST, quiet * 2)
                event.clear()
                hand = await self.look(table, user, host)
                continue
            hand = await self.click(user, hand, *move)

    async def look(self, channel: int, user: FakeUser, host: bool) -> FakeMessage | None:
        """Open the hand from the table; the host rematches and starts a finished match."""
        fake = self.fake
        table = fake.messages.get(fake.tables.get(channel, 0))
        if table is None or time.perf_counter() >= self.deadline:
            return None
        if (hand := button(table, "cj:hand:")) is not None and button(table, "cj:rematch:") is None:
            return await self.click(user, table, hand, None)
        if not host:
            return None
        if (rematch := button(table, "cj:rematch:")) is not None:
            await self.click(user, table, rematch, None)
            table = fake.messages.get(fake.tables.get(channel, 0))
        if table is not None and (start := button(table, "cj:lobby:")) is not None:
            start = start.rsplit(":", 1)[0] + ":start"
            if self.tables is not None:
                self.tables.start_pressed(channel)
            await self.click(user, table, start, None)
        return None

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: list[str] | None
    ) -> FakeMessage | None:
        record, seconds, answered = await self.fake.ask(user, message, custom_id, values)
        self.clicks += 1
        if seconds is None or answered is None or not record.acknowledged:
            self.failed += 1
            self.window.failed += 1
            self.failures[(custom_id.split(":", 2)[1], why_failed(seconds, answered))] += 1
            return None
        self.window.latencies.append(seconds)
        self.every_click.add(seconds)
        self.window.answers.append(answered)
        self.every_answer.add(answered)
        kind = custom_id.split(":", 2)[1]
        self.window.kinds.setdefault(kind, array("d")).append(seconds)
        if custom_id.startswith(("cj:do:", "cj:pick:")):
            self.window.moves += 1
        replies = [self.fake.messages.get(i) for i in record.reply_ids]
        return next((m for m in reversed(replies) if m is not None and m.ephemeral), None)

    def count(self, change: Change, service: MatchService) -> None:
        """Count moves; and people watching the table see when it is their turn, pinged
        or not (pings are paced, a person at the table is not)."""
        if change.kind in ("action", "finished"):
            self.moves += 1
        if change.state is None or change.kind not in ("started", "action", "finished"):
            return
        game = service.game_of(change.match)
        now = waiting_on(service.decisions(game, change.state))
        before = waiting_on(service.decisions(game, change.previous)) if change.previous else ()
        for seat in change.match.seats:
            turn = seat.seat in now and seat.seat not in before
            event = self.fake.pinged.get(seat.user_id or 0)
            if event is not None and (turn or not now):  # not now: the match ended
                event.set()


class SpeedMeter:
    """The machine's speed beside the bot: ``bench.speed`` in a process of its own (on the
    other core), its samples gathered per window: a fixed piece of CPU work, and a 4 KB
    write with its fsync on the disk of the bot's database."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.samples: array[float] = array("d")
        self.fsyncs: array[float] = array("d")
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.speed",
            self.folder,
            stdout=asyncio.subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[1],
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        async for line in self._process.stdout:
            work, disk = line.split()
            self.samples.append(float(work))
            self.fsyncs.append(float(disk))

    def take(self) -> tuple[float, float]:
        """The median CPU sample and fsync (ms) since the last call (0 if none came)."""
        taken, self.samples = self.samples, array("d")
        synced, self.fsyncs = self.fsyncs, array("d")
        return (
            statistics.median(taken) if taken else 0.0,
            statistics.median(synced) if synced else 0.0,
        )

    async def stop(self) -> None:
        if self._process is not None and self._process.returncode is None:
            self._process.kill()
            await self._process.wait()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


async def report_windows(load: Load, gcw: GcWatch, started: float, speed: SpeedMeter) -> None:
    print(
        f"{'window':>8} {'moves/s':>8} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7} "
        f"{'ans p99':>7} {'ans max':>7} "
        f"{'failed':>6} {'RSS MB':>7} {'GC max':>7} {'GC CPU':>7} {'ref ms':>7} {'fsync':>6} "
        f"{'CPU':>5}",
        flush=True,
    )
    index = 0
    cpu_at = time.process_time()
    while time.perf_counter() < load.deadline:
        end = started + WINDOW * (index + 1)
        await asyncio.sleep(max(0.0, end - time.perf_counter()))
        # The process's share of a core: answers waiting while it is under 100 % wait on
        # something other than the CPU.
        cpu, cpu_at = (time.process_time() - cpu_at) / WINDOW, time.process_time()
        window, load.window = load.window, Window()
        window.reference, window.fsync = speed.take()
        rss = rss_mb()
        load.windows.append((window, rss, gcw.longest))
        load.caches_at.append(load.caches())
        if len(load.windows) > 2 * MINUTE:
            # The summary compares the first minute's windows with the last minute's: the
            # ones between are printed and their clicks forgotten (the histogram has them).
            between = load.windows[-MINUTE - 1][0]
            between.latencies, between.kinds, between.answers = array("d"), {}, array("d")
        lat = window.latencies
        print(
            f"{int(WINDOW * index):>6}s+ {window.moves / WINDOW:>8.1f} "
            f"{percentile(lat, 0.5) * 1e3:>5.0f}ms {percentile(lat, 0.95) * 1e3:>5.0f}ms "
            f"{percentile(lat, 0.99) * 1e3:>5.0f}ms {max(lat, default=0) * 1e3:>5.0f}ms "
            f"{percentile(window.answers, 0.99) * 1e3:>5.0f}ms "
            f"{max(window.answers, default=0) * 1e3:>5.0f}ms "
            f"{window.failed:>6} {rss:>7.1f} {gcw.longest * 1e3:>5.0f}ms "
            f"{gcw.longest_cpu * 1e3:>5.0f}ms {window.reference:>7.2f} {window.fsync:>6.2f} "
            f"{cpu:>5.0%}",
            flush=True,
        )
        gcw.longest = gcw.longest_cpu = 0.0
        index += 1
    load.played = (load.moves - load.moves_at_start, time.perf_counter() - started)


async def prune_often(load: Load) -> None:
    """The harness's records of answered clicks were most of the heap a full collection
    walks (11k interactions after 36 s): forget them within seconds."""
    while True:
        await asyncio.sleep(PRUNE_EVERY)
        # The harness shares the bot's process and so its collector: its records were a
        # third of what a full collection walked, a pause the bot alone would not have.
        # At a human pace there are few clicks to keep, and a click's answer may wait its
        # turn behind the budget well past seconds: its token is kept as long as the bench
        # waits for an answer (Discord keeps it 15 minutes), or the bot's late answer
        # would find it gone.
        kept = ANSWER_GIVE_UP if load.options.human else PRUNE_EVERY
        load.fake.prune(keep=PRUNE_EVERY * 3, clicks_kept=kept)


def hard_seats(table: int) -> int:
    """``--hard-bots``: a third of the seats, every third table two, the others one."""
    return 2 if table % 3 == 0 else 1


async def open_tables(
    fake: LoadDiscord,
    channels: int,
    hard_bots: bool = False,
    game: str = GAME,
    options: budget.BudgetOptions = budget.DEFAULT,
) -> tuple[list[int], list[list[FakeUser]]]:
    """A lobby in each channel, its people joined; started at once unless at a human pace
    (the host presses Start in the run, ``Load.person``)."""
    ids, people = [], []
    seats = min(4, GAMES[game].max_players)
    for number in range(channels):
        channel = fake.add_channel(f"table-{number}")
        bots = hard_seats(number) if hard_bots else 0
        users = [fake.add_user(f"p{number}-{seat}") for seat in range(seats - bots)]
        level = {"bots": bots, "level": "hard"} if bots else {}
        await fake.slash(users[0], "play", channel=channel, game=game, **level)
        lobby = fake.messages[fake.tables[channel.id]]
        await budget.set_match_pace(fake, users[0], lobby, options.match_pace)
        for user in users[1:]:
            await fake.click(user, lobby, lobby.find_button("Join"))
        if not options.human:
            await fake.click(users[0], lobby, lobby.find_button("Start"))
        ids.append(channel.id)
        people.append(users)
    return ids, people


async def run(
    channels: int,
    seconds: float,
    *,
    freeze: bool,
    threshold: str | None = None,
    database: str = "sqlite",
    hard_bots: bool = False,
    pictures: bool = True,
    game: str = GAME,
    options: budget.BudgetOptions = budget.DEFAULT,
    profile: str | None = None,
) -> Figures | None:
    # Discord's own library logs a refused late answer at WARNING, and ours too: quiet
    # them here, they are counted (a 429's warning and a message given up too: LogTally).
    logging.basicConfig(level=logging.ERROR)
    cost = await service_cost(300)
    bare = 1 / cost.per_action
    print(
        f"bare service (one match, no Discord): {bare:,.0f} moves/s "
        f"({cost.per_action * 1e3:.2f} ms a move; a bare commit {cost.bare * 1e3:.2f} ms)",
        flush=True,
    )
    async with contextlib.AsyncExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        url = f"sqlite:///{Path(folder) / 'load.db'}"
        if database == "postgres":
            found = await stack.enter_async_context(postgres.database())
            if found is None:
                return None  # postgres.database said why
            url = found
        print(f"database: {database}; {game}; pictures {'on' if pictures else 'off'}", flush=True)
        print(options.describe(), flush=True)
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_token="fake-token",
            database_url=url,
            bot_delay=0,
            gc_freeze=freeze,
            pictures=pictures,
            **({} if threshold is None else {"gc_threshold": threshold}),
            **options.bot_settings(),
        )
        # Setting up is not measured: the limits come on when the run starts (a worker's
        # shared ledger counts in real time, while opening the tables fast-forwards).
        fake = LoadDiscord(None, budget.worker_first_id(options))
        stack.enter_context(timed_handlers(fake))
        tally = stack.enter_context(budget.LogTally().installed())
        bot = CookieJar(settings)
        async with fake.running(bot, check_errors=False):
            if not options.table_tokens:
                budget.without_table_tokens(bot)
            opening = time.perf_counter()
            ids, people = await open_tables(fake, channels, hard_bots, game, options)
            print(f"{channels} tables opened in {time.perf_counter() - opening:.0f} s", flush=True)
            # The run starts as in a process whose tables came one by one: the full passes
            # meanwhile froze what they hold (bot/collector.py). Opened all at once here,
            # they would be one pass's walk in the middle of the measured run.
            gc.collect()
            watch = budget.TableWatch(fake, fake.tables)
            owed = Owed()
            owed.install(bot)

            def shown(msg: FakeMessage) -> None:
                watch.shown(msg)
                owed.seen(msg)

            fake.watch, fake.posted = shown, owed.posted
            bot.service.listeners += [watch.listen, owed.listen]
            speed = SpeedMeter(folder)
            await speed.start()
            speed.take()  # from the start of the measured run on
            with GcWatch() as gcw:
                started = time.perf_counter()
                load = Load(
                    fake, people, ids, deadline=started + seconds, options=options, tables=watch
                )
                bot.service.listeners.append(_counter(load, bot.service))
                fake.rate_limits = options.rate_limits()
                owed.counting = True
                calls_at_start = budget.calls_now(fake)
                tally.clear()
                base_rss = rss_mb()
                asked_at = bot.service.asked, bot.service.read
                load.caches = partial(caches_mb, bot)
                tasks = [
                    asyncio.create_task(load.person(channel, user, seat == 0))
                    for channel, users in zip(ids, people, strict=True)
                    for seat, user in enumerate(users)
                ]
                reporter = asyncio.create_task(report_windows(load, gcw, started, speed))
                pruner = asyncio.create_task(prune_often(load))
                cpu_at_start = time.process_time()
                profiler = cProfile.Profile() if profile else None
                if profiler is not None:
                    profiler.enable()
                await asyncio.gather(*tasks)
                elapsed = time.perf_counter() - started
                cpu = time.process_time() - cpu_at_start
                if profiler is not None:
                    profiler.disable()
                    profiler.dump_stats(f"{profile}-{channels}.pstats")
                watch.stop()  # the people stopped: how soon does each table catch up?
                newest = asyncio.create_task(budget.newest_shown(bot, watch))
                await reporter
                pruner.cancel()
                await speed.stop()
                lags = await newest
                await owed.settled(budget.TAIL_LIMIT)  # and each ping and result arrives?
                # After the tables caught up: a move's cost includes the calls it queued.
                calls = budget.calls_since(fake, calls_at_start)
            errors = len(fake.error_logs)
            print(scale.cache_line(bot.service, *asked_at), flush=True)
            if pictures:
                kept, clicks = presenter_of(bot).pictures, presenter_of(bot).clicks
                views = max(1, kept.answered + kept.answered_without)
                print(
                    f"pictures: of {views:,} hand views answering clicks, "
                    f"{kept.answered / views:.0%} carried their picture; of the rest (the "
                    f"drawers were busy), {clicks.followed / views:.0%} had it follow, "
                    f"{clicks.passed_over / views:.0%} were answered over first (the player "
                    f"clicked on); {len(kept.cache)} pictures kept, "
                    f"{kept.cache.size / 2**20:.1f} MB",
                    flush=True,
                )
            # The run is over: what is still being sent is not measured.
            for task in [t for t in bot._background if not t.done()]:
                task.cancel()
    figures = print_summary(load, gcw, elapsed, bare, errors, base_rss)
    # Saturated or not: answers waiting with a core free point at a cap, not at the CPU.
    print(
        f"the process's CPU over the run: {cpu:.0f} s of {elapsed:.0f} s = {cpu / elapsed:.0%} "
        f"of a core; {cpu / max(1, load.moves) * 1e3:.1f} ms a move",
        flush=True,
    )
    figures.budget = budget.figures_of(
        game,
        options,
        load.moves,
        calls,
        tally,
        watch,
        lags,
        load.failed,
        load.every_answer,
        owed,
        errors,
    )
    budget.report(figures.budget)
    if options.ledger is not None:  # a worker of --processes: its figures for the parent
        print(figures.budget.dump(), flush=True)
    if hard_bots:
        thinker = bot.bots.thinker
        print(
            f"hard bots ({thinker.workers} thinking workers): {thinker.answered} moves thought "
            f"in time, {thinker.fell_back} past the deadline played the normal move"
        )
    return figures


@contextlib.contextmanager
def timed_handlers(fake: LoadDiscord) -> Iterator[None]:
    """Tell the fake when the bot is done with each click: a click the bot acknowledged
    for a slow handler is answered then (or by its handler deliberately deferring, the
    lobby being edited instead)."""
    original = components.acknowledged_in_time

    async def timed(interaction: discord.Interaction, work: Any, **kwargs: Any) -> None:
        try:
            await original(interaction, work, **kwargs)
        finally:
            fake.handled(interaction.id)
            fake.working.discard(interaction.id)

    components.acknowledged_in_time = timed  # type: ignore[assignment]
    try:
        yield
    finally:
        components.acknowledged_in_time = original  # type: ignore[assignment]


def caches_mb(bot: CookieJar) -> tuple[float, float]:
    """MB the picture cache and the running matches' cache hold now."""
    pictures = presenter_of(bot).pictures.cache.size if bot.settings.pictures else 0
    return pictures / 2**20, bot.service.cache_fill[1] / 2**20


def _counter(load: Load, service: MatchService) -> Any:
    async def listen(change: Change) -> None:
        load.count(change, service)

    return listen


@dataclass
class Figures:
    """What a run with pictures on is set against the same run with them off."""

    p99: float  # seconds, every click's acknowledgement
    failed: int
    growth: float  # MB of RSS after the first minute
    throughput: scale.Throughput
    budget: budget.BudgetFigures | None = None


def growth_after_minute(
    rss: Sequence[float], caches: Sequence[tuple[float, float]]
) -> tuple[float, float, Sequence[tuple[float, float]]]:
    """RSS growth (MB) from the end of the first minute to the last window's end; how much
    of it the bounded caches filling account for; and the caches' MB over those windows."""
    start = MINUTE - 1  # the window ending at 60 s
    if len(rss) - start < 2:
        return 0.0, 0.0, ()
    kept = caches[start:]
    filled = sum(kept[-1]) - sum(kept[0]) if len(kept) > 1 else 0.0
    return rss[-1] - rss[start], filled, kept


def print_summary(
    load: Load,
    gcw: GcWatch,
    elapsed: float,
    bare: float,
    errors: int,
    base_rss: float,
) -> Figures:
    rate = load.moves / elapsed
    first, last = load.windows[0], load.windows[-1]
    p99_first, p99_last = percentile(first[0].latencies, 0.99), percentile(last[0].latencies, 0.99)
    rss = [rss for _, rss, _ in load.windows]
    growth, filled, caches = growth_after_minute(rss, load.caches_at)
    every = load.every_click
    print(
        f"\n{len(load.channels)} channels, {elapsed:.0f} s: {load.moves} moves, {rate:.1f} moves/s "
        f"= {rate / bare:.2f}x the bare service ({bare:,.0f} moves/s); {load.clicks} clicks, "
        f"p50 {every.percentile(0.5) * 1e3:.0f} ms, p99 {every.percentile(0.99) * 1e3:.0f} ms"
    )
    answer = load.every_answer
    print(
        f"acknowledged: max {every.percentile(1.0) * 1e3:.0f} ms (Discord's limit 3,000 ms); "
        f"answered: p50 {answer.percentile(0.5) * 1e3:.0f} ms, p99 "
        f"{answer.percentile(0.99) * 1e3:.0f} ms, max {answer.percentile(1.0) * 1e3:.0f} ms; "
        f"{load.fake.deferred} clicks acknowledged with a deferred update (the handler's own, or "
        "the bot's for a slow one)"
    )
    print(
        f"failed interactions: {load.failed} (answered late, refused: {load.fake.late}); "
        f"ERRORs logged: {errors} (target 0)"
    )
    if load.failures:
        print(
            "  failed by click: "
            + "; ".join(f"{kind} {why}: {n}" for (kind, why), n in load.failures.most_common())
        )
    print(
        f"p99 last window / first: {p99_last * 1e3:.0f} / {p99_first * 1e3:.0f} ms = "
        f"{p99_last / max(p99_first, 1e-9):.2f}x (target <= 1.2x)"
    )
    if len(load.windows) >= 2 * MINUTE:
        first_minute, last_minute = (
            percentile([x for w, _, _ in windows for x in w.latencies], 0.99)
            for windows in (load.windows[:MINUTE], load.windows[-MINUTE:])
        )
        print(
            f"p99 last minute / first minute: {last_minute * 1e3:.0f} / "
            f"{first_minute * 1e3:.0f} ms = {last_minute / max(first_minute, 1e-9):.2f}x "
            "(the soak's target <= 1.2x)"
        )
    for name, (window, _, _) in (("first", first), ("last", last)):
        parts = [
            f"{kind} {len(values)} p50 {percentile(values, 0.5) * 1e3:.0f} "
            f"p99 {percentile(values, 0.99) * 1e3:.0f} ms"
            for kind, values in sorted(window.kinds.items(), key=lambda kv: -len(kv[1]))
        ]
        print(f"  by click, {name} window: " + "; ".join(parts))
    ref_first, ref_last = first[0].reference, last[0].reference
    if ref_first and ref_last:
        # Saturated, the bot's latencies scale with the machine's speed: set against the
        # same window's reference time, what is left is the bot's own drift.
        own = (p99_last / ref_last) / max(p99_first / ref_first, 1e-9)
        print(
            f"the machine meanwhile (bench.speed, median ms): {ref_first:.2f} in the first "
            f"window, {ref_last:.2f} in the last ({ref_last / ref_first:.2f}x); p99 last/first "
            f"in the machine's time: {own:.2f}x"
        )
    if first[0].fsync and last[0].fsync:
        print(
            f"the disk meanwhile (4 KB write and fsync, median ms): {first[0].fsync:.2f} in the "
            f"first window, {last[0].fsync:.2f} in the last "
            f"({last[0].fsync / first[0].fsync:.2f}x)"
        )
    print(
        f"RSS: {base_rss:.0f} MB at start, growth after the first minute {growth:+.1f} MB"
        + (
            f"; of it the bounded caches filling (pictures {caches[0][0]:.1f} -> "
            f"{caches[-1][0]:.1f} MB, running matches {caches[0][1]:.1f} -> {caches[-1][1]:.1f}"
            f" MB) {filled:+.1f} MB; the rest {growth - filled:+.1f} MB (target < 30 MB: the "
            "rest, a leak's measure)"
            if len(caches) > 1
            else " (target < 30 MB)"
        )
    )
    print(
        f"longest GC pause: {gcw.longest_ever * 1e3:.0f} ms wall, "
        f"{gcw.longest_cpu_ever * 1e3:.0f} ms CPU ({gcw.worst}); {gcw.full} full collections "
        f"(target < 100 ms); thresholds {gc.get_threshold()}, {gcw.collections} collections "
        f"took {gcw.total:.1f} s wall, {gcw.total_cpu:.1f} s CPU "
        f"({gcw.total_cpu / elapsed:.1%} of the run)"
    )
    print(f"  by generation: {gcw.by_generation_line(load.moves)}; {gcw.frozen_line()}")
    moves, seconds = load.played
    playing = moves / max(seconds, 1e-9)
    print(
        f"while the people played ({seconds:.0f} s): {playing:.1f} moves/s; the "
        f"{elapsed - seconds:.0f} s after, answering the clicks still waiting, are left out "
        "of the figure set against the baseline"
    )
    throughput = scale.Throughput(
        len(load.channels),
        playing,
        load.clicks / elapsed,
        gcw.longest_ever,
        gcw.longest_cpu_ever,
    )
    return Figures(every.percentile(0.99), load.failed, growth, throughput)


def side_by_side(off: Figures, on: Figures) -> str:
    return (
        f"\npictures on against off: p99 {on.p99 * 1e3:.0f} / {off.p99 * 1e3:.0f} ms = "
        f"{on.p99 / max(off.p99, 1e-9):.2f}x (target <= 1.5x); failed clicks {on.failed} / "
        f"{off.failed} (target 0); RSS growth {on.growth:+.1f} / {off.growth:+.1f} MB "
        "(target < 30 MB)"
    )


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench load", description=__doc__)
    parser.add_argument("--channels", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--no-freeze", action="store_true", help="GC_FREEZE=false for the bot")
    parser.add_argument(
        "--gc-threshold",
        help="GC_THRESHOLD for the bot, e.g. 700,10,10 (default: the bot's own)",
    )
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--hard-bots",
        action="store_true",
        help="hard bots in a third of the seats, thinking in worker processes",
    )
    parser.add_argument(
        "--pictures",
        choices=("on", "off", "both"),
        default="on",
        help="tables and hands with pictures (the bot's default), without, or both in turn",
    )
    parser.add_argument(
        "--game",
        choices=[*sorted(GAMES), "all"],
        default=GAME,
        help="the game every table plays (four people, or as many as it seats); all: each in turn",
    )
    parser.add_argument(
        "--profile",
        metavar="PREFIX",
        help="cProfile the measured run of the bot's process into PREFIX-<channels>.pstats",
    )
    scale.add_arguments(parser)
    budget.add_arguments(parser)
    args = parser.parse_args(argv)
    options = budget.options_from(args)
    games = sorted(GAMES) if args.game == "all" else [args.game]
    if options.processes > 1:
        lines = budget.run_workers(sys.argv[1:] if argv is None else argv, options, args.channels)
        print(f"\n{options.processes} processes of one application, one budget:")
        print(budget.games_table(budget.figures_by_game(lines)))
        return

    def once(channels: int, pictures: str, game: str) -> Figures | None:
        return asyncio.run(
            run(
                channels,
                args.minutes * 60,
                freeze=not args.no_freeze,
                threshold=args.gc_threshold,
                database=args.database,
                hard_bots=args.hard_bots,
                pictures=pictures == "on",
                game=game,
                options=options,
                profile=args.profile,
            )
        )

    runs = ("off", "on") if args.pictures == "both" else (args.pictures,)
    base = None
    if scale.wants_baseline(args.channels, args.baseline):
        print(f"first the same-run baseline: {args.baseline} channels", flush=True)
        base = once(args.baseline, runs[-1], games[0])
        print(f"\nthen {args.channels} channels", flush=True)
    per_game = []
    for game in games:
        figures = {pictures: once(args.channels, pictures, game) for pictures in runs}
        off, on = figures.get("off"), figures.get("on")
        if off is not None and on is not None:
            print(side_by_side(off, on))
        per_game += [f.budget for f in figures.values() if f is not None and f.budget]
        big = figures[runs[-1]]
        if base is not None and big is not None and game == games[0]:
            print(scale.against(base.throughput, big.throughput))
    if len(per_game) > 1:
        print("\n" + budget.games_table(per_game))


if __name__ == "__main__":
    main()
