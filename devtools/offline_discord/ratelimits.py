"""Discord's request budget: the global limit of a bot token, the per-route buckets, and the
429 answers (body and headers) Discord gives a request over either.

The figures, and why these
==========================
Discord publishes one figure and the shape of the rest (docs/topics/rate-limits.md in
discord/discord-api-docs; the header and body names also in discord/discord-api-spec's
``openapi.json``: ``RatelimitedResponse``, ``X-RateLimit-*``):

* **Global**: "All bots can make up to 50 requests per second", per token, over every
  process of the application; "Interaction endpoints are not bound to the bot's Global
  Rate Limit" (the callback, and the follow-ups, ``@original`` edits and deletes made
  with the interaction's token under ``/webhooks/{application}/{token}``). Larger bots
  are granted more on request: :class:`RateLimits` takes the figure (``per_second``).
  Modelled as a fixed one-second window, the simplest reading of "per second"; a 429
  answers ``global: true`` with ``X-RateLimit-Global`` and ``X-RateLimit-Scope: global``
  and no bucket headers, as the documented example does.
* **Per route**: Discord documents that they exist, that they are counted per top-level
  resource (the channel for every route below) and reported in headers, and asks clients
  not to hard-code them. It publishes no figures, so these are the ones bot authors
  report from the headers (cited so the next reader can re-check them):

  ==========================================  =========  =====================================
  route                                        limit      source
  ==========================================  =========  =====================================
  POST /channels/{c}/messages                  5 / 5 s    long-observed "five in five seconds"
                                                          (discord-api-docs #20 launched 5/5;
                                                          discord-relay-chat/drc #17)
  PATCH /channels/{c}/messages/{m}             5 / 5 s    reported with the *same* bucket hash
                                                          as message create but counted apart
                                                          (discord-api-docs #981, #1442): so
                                                          here, one hash, two counters
  DELETE /channels/{c}/messages/{m}            3 / 1 s    eris #1173 (messages under two weeks)
  PUT|DELETE .../reactions/{emoji}/@me         1 / 0.25 s one bucket for both (eris #1173;
                                                          discord-api-docs #395, #981)
  POST /channels/{c}/threads,                  5 / 5 s    no figure found: assumed the message
  POST /channels/{c}/messages/{m}/threads                 figure, a thread start posts one
  ==========================================  =========  =====================================

  Other budgeted routes count against the global limit only. A per-route 429 carries
  ``X-RateLimit-Scope: user`` with the bucket's headers, as in Discord's example.

Every answer also carries ``Via`` on a 429: discord.py takes a 429 without it for a
Cloudflare ban and raises instead of waiting (``HTTPClient.request``).

A refused request takes nothing from any window (it was not served); one served takes one
from the global window and one from its route's.

Several processes of one application share the budget through :class:`SharedLedger` (a
small file under an exclusive lock, on the real monotonic clock, which Linux keeps for the
whole machine); one process alone keeps it in memory on the event loop's clock, which the
harness moves on in fake time, so a test's wait for a window costs no wall time.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from devtools.offline_discord.clock import _real_monotonic

DISCORD_GLOBAL_PER_SECOND = 50.0
_CHANNEL = r"(\d+)"


@dataclass(frozen=True)
class RouteLimit:
    """One of Discord's per-route buckets: ``method`` + ``path`` (its first group is the
    top-level resource) take one of ``limit`` requests per ``per`` seconds."""

    method: str
    path: re.Pattern[str]
    limit: int
    per: float
    bucket: str  # what X-RateLimit-Bucket says
    counter: str  # what is counted: routes may share a hash and still count apart

    def matches(self, method: str, path: str) -> str | None:
        """The resource this request is counted under, or None if it is not this route."""
        if method != self.method:
            return None
        found = self.path.fullmatch(path)
        return found.group(1) if found else None


def _limit(method: str, path: str, limit: int, per: float, bucket: str, counter: str) -> RouteLimit:
    return RouteLimit(method, re.compile(path), limit, per, bucket, counter)


_MESSAGE = rf"/channels/{_CHANNEL}/messages/\d+"
_REACTION = rf"{_MESSAGE}/reactions/[^/]+/@me"
DISCORD_ROUTE_LIMITS: tuple[RouteLimit, ...] = (
    _limit("POST", rf"/channels/{_CHANNEL}/messages", 5, 5.0, "messages", "message-create"),
    _limit("PATCH", _MESSAGE, 5, 5.0, "messages", "message-edit"),
    _limit("DELETE", _MESSAGE, 3, 1.0, "message-delete", "message-delete"),
    _limit("PUT", _REACTION, 1, 0.25, "reactions", "reactions"),
    _limit("DELETE", _REACTION, 1, 0.25, "reactions", "reactions"),
    _limit("POST", rf"/channels/{_CHANNEL}/threads", 5, 5.0, "threads", "thread-create"),
    _limit("POST", rf"{_MESSAGE}/threads", 5, 5.0, "threads", "thread-create"),
)


def is_free(path: str) -> bool:
    """Interaction endpoints: the callback and what is done with the interaction's token."""
    return path.startswith(("/interactions/", "/webhooks/"))


@dataclass
class CallCounts:
    """The requests Discord served, apart: ``budgeted`` (within the token's budget) and
    ``free`` (interaction endpoints), by the fake's route handler; and those it ``refused``
    with a 429, by scope and method."""

    budgeted: Counter[str] = field(default_factory=Counter)
    free: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)

    def count(self, path: str, route: str) -> None:
        (self.free if is_free(path) else self.budgeted)[route.lstrip("_")] += 1

    def refuse(self, method: str, scope: str | None) -> None:
        self.refused[f"{scope} {method}"] += 1

    def clear(self) -> None:
        for counter in (self.budgeted, self.free, self.refused):
            counter.clear()


@dataclass(frozen=True)
class Verdict:
    """Discord's answer to a budgeted request before it is carried out: served (with the
    route's headers) or refused with a 429 (``body`` set)."""

    headers: dict[str, str]
    body: dict[str, Any] | None = None
    scope: str | None = None  # "global" or "user" when refused

    @property
    def refused(self) -> bool:
        return self.body is not None


@dataclass(frozen=True)
class _Check:
    key: str
    limit: int
    per: float


@dataclass(frozen=True)
class _Taken:
    """The outcome of taking one request from some windows: refused by ``blocked`` (its
    index among the checks, and the seconds until its window resets), or served, with each
    window's requests left and seconds to reset."""

    blocked: int | None
    retry_after: float
    left: tuple[tuple[int, float], ...] = ()


# Discord counts in milliseconds: a window with less than one left is over (else a waiter
# woken a hair early, as the harness's fake clock wakes it, would be refused for nothing).
_TICK = 1e-3


def _take(state: dict[str, list[float]], checks: Sequence[_Check], now: float) -> _Taken:
    """Take one request from every window in ``checks`` or from none (``state``: key ->
    [window start, requests taken in it]); fixed windows that start at their first request."""
    windows = []
    for index, check in enumerate(checks):
        window = state.get(check.key)
        if window is None or now >= window[0] + check.per - _TICK:
            window = [now, 0.0]
        if window[1] >= check.limit:
            return _Taken(index, window[0] + check.per - now)
        windows.append(window)
    left = []
    for check, window in zip(checks, windows, strict=True):
        window[1] += 1
        state[check.key] = window
        left.append((check.limit - int(window[1]), window[0] + check.per - now))
    return _Taken(None, 0.0, tuple(left))


def _forget_expired(state: dict[str, list[float]], now: float, longest: float) -> None:
    for key in [k for k, (start, _) in state.items() if now >= start + longest]:
        del state[key]


class Ledger:
    """The windows of one process's token, in memory, on the event loop's clock."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        # time.monotonic looked up on each call: the harness patches it with its fake clock.
        self._clock = clock or (lambda: time.monotonic())
        self._state: dict[str, list[float]] = {}
        self._served = 0

    def take(self, checks: Sequence[_Check], longest: float) -> _Taken:
        now = self._clock()
        taken = _take(self._state, checks, now)
        self._served += 1
        if self._served % 1024 == 0:  # a long run touches thousands of channels
            _forget_expired(self._state, now, longest)
        return taken


class SharedLedger(Ledger):
    """The windows of a token shared by several processes: a JSON file under ``flock``.

    Every process of one application opens the same ``path``; each budgeted request reads,
    updates and writes it under an exclusive lock (about 0.1 ms at Discord's 50 a second).
    The clock is the real monotonic one: Linux keeps CLOCK_MONOTONIC for the whole machine,
    while each harness shifts its own fake clock.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(_real_monotonic)
        self.path = Path(path)
        self.path.touch()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[tuple[Any, dict[str, list[float]]]]:
        with open(self.path, "r+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                text = handle.read()
                yield handle, json.loads(text) if text else {}
            finally:
                handle.flush()  # written out before another process may read it
                fcntl.flock(handle, fcntl.LOCK_UN)

    def take(self, checks: Sequence[_Check], longest: float) -> _Taken:
        now = self._clock()
        with self._locked() as (handle, state):
            taken = _take(state, checks, now)
            if taken.blocked is None:
                _forget_expired(state, now, longest)
                handle.seek(0)
                handle.truncate()
                handle.write(json.dumps(state))
        return taken


@dataclass
class RateLimits:
    """The limits the offline Discord keeps for one bot token (see the module docstring).

    ``per_second``: the global budget (Discord's 50 unless granted more; a process's share
    in a bench). ``routes``: the per-route buckets (``()``: the global budget only).
    ``ledger``: where the windows are counted (:class:`SharedLedger` for several
    processes of one application).
    """

    per_second: float = DISCORD_GLOBAL_PER_SECOND
    routes: Sequence[RouteLimit] = DISCORD_ROUTE_LIMITS
    ledger: Ledger = field(default_factory=Ledger)
    # How long a window may live: older ones are forgotten.
    _longest: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._longest = max([1.0, *(r.per for r in self.routes)])

    @classmethod
    def shared(
        cls, path: str | os.PathLike[str], per_second: float = DISCORD_GLOBAL_PER_SECOND
    ) -> RateLimits:
        """The budget of one token, shared with the other processes that open ``path``."""
        return cls(per_second, ledger=SharedLedger(path))

    def check(self, method: str, path: str) -> Verdict:
        """Take this budgeted request from the windows, or refuse it as Discord would."""
        checks = [_Check("global", max(1, math.floor(self.per_second)), 1.0)]
        route = self._route_of(method, path)
        if route is not None:
            limit, resource = route
            checks.append(_Check(f"{limit.counter}:{resource}", limit.limit, limit.per))
        taken = self.ledger.take(checks, self._longest)
        if taken.blocked == 0:
            return _global_429(taken.retry_after)
        headers: dict[str, str] = {}
        if route is not None:
            limit = route[0]
            if taken.blocked is not None:
                return _route_429(limit, taken.retry_after)
            remaining, reset_after = taken.left[1]
            headers = _bucket_headers(limit, remaining, reset_after)
        return Verdict(headers)

    def _route_of(self, method: str, path: str) -> tuple[RouteLimit, str] | None:
        for limit in self.routes:
            if (resource := limit.matches(method, path)) is not None:
                return limit, resource
        return None


def _bucket_headers(limit: RouteLimit, remaining: int, reset_after: float) -> dict[str, str]:
    reset = discord.utils.utcnow().timestamp() + reset_after
    return {
        "X-RateLimit-Limit": str(limit.limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{reset:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": limit.bucket,
    }


def _refusal(retry_after: float, *, is_global: bool) -> dict[str, Any]:
    return {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
        "code": 0,
    }


def _refused_headers(retry_after: float, scope: str) -> dict[str, str]:
    return {
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": scope,
        "Via": "1.1 google",  # discord.py reads a 429 without it as a Cloudflare ban
    }


def _global_429(retry_after: float) -> Verdict:
    headers = {**_refused_headers(retry_after, "global"), "X-RateLimit-Global": "true"}
    return Verdict(headers, _refusal(retry_after, is_global=True), "global")


def _route_429(limit: RouteLimit, retry_after: float) -> Verdict:
    headers = {
        **_bucket_headers(limit, 0, retry_after),
        **_refused_headers(retry_after, "user"),
    }
    return Verdict(headers, _refusal(retry_after, is_global=False), "user")
