"""What goes over the wire between the bot and the offline Discord: a request as the fake
reads it, the response it answers, the route table its handlers register in, and the
failures a test injects."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
from multidict import CIMultiDict

from devtools.offline_discord.model import FakeAttachment

API_PREFIX = "/api/v10"

_REASONS = {
    200: "OK",
    204: "No Content",
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
}


class _FakeResponse:
    """Just enough of ``aiohttp.ClientResponse`` for discord.py's ``HTTPClient.request``
    (status, headers, text) and for ``discord.HTTPException``."""

    def __init__(
        self,
        status: int,
        reason: str,
        method: str,
        url: str,
        payload: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.status = status
        self.reason = reason
        self.method = method
        self.url = url
        self.payload = payload
        self.headers: CIMultiDict[str] = CIMultiDict(headers or {})
        if payload is not None:
            self.headers.setdefault("Content-Type", "application/json")

    async def text(self, encoding: str = "utf-8") -> str:
        return "" if self.payload is None else json.dumps(self.payload)

    async def __aenter__(self) -> _FakeResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


def error_response(status: int, method: str, path: str, payload: Any) -> _FakeResponse:
    return _FakeResponse(status, _REASONS.get(status, "Error"), method, path, payload)


def http_error(response: _FakeResponse) -> discord.HTTPException:
    """The exception discord.py raises for this error response."""
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(response.status)
    if kind is None and response.status >= 500:
        kind = discord.DiscordServerError
    return (kind or discord.HTTPException)(response, response.payload)  # type: ignore[arg-type]


_Handler = Callable[..., Any]
_ROUTES: list[tuple[str, re.Pattern[str], str]] = []


def _route(method: str, pattern: str) -> Callable[[_Handler], _Handler]:
    """Register a ``FakeDiscord`` method as the handler of ``method`` + path regex."""

    def decorate(fn: _Handler) -> _Handler:
        _ROUTES.append((method, re.compile(pattern), fn.__name__))
        return fn

    return decorate


_ID = r"(\d+)"
_TOKEN = r"([^/]+)"


@dataclass
class _Request:
    method: str
    path: str
    body: Any
    params: dict[str, str]
    files: list[FakeAttachment]
    args: tuple[str, ...] = ()


@dataclass
class Fault:
    """A failure :meth:`FakeDiscord.fail` injects into matching requests."""

    method: str
    path: re.Pattern[str]
    status: int
    code: int
    message: str
    times: int
    retry_after: float | None = None
    timeout: bool = False
    struck: list[str] = field(default_factory=list)

    def strike(self, request: _Request) -> BaseException | None:
        if self.times <= 0 or request.method != self.method:
            return None
        if not self.path.fullmatch(request.path):
            return None
        self.times -= 1
        self.struck.append(f"{request.method} {request.path}")
        if self.timeout:
            return TimeoutError()
        response = error_response(
            self.status, request.method, request.path, {"code": self.code, "message": self.message}
        )
        if self.status == 429:
            # As Discord answers a 429 (ratelimits.py), so discord.py waits and retries.
            retry_after = 1.0 if self.retry_after is None else self.retry_after
            response.payload.update(retry_after=retry_after, **{"global": False})
            response.headers.update({"X-RateLimit-Scope": "user", "Via": "1.1 google"})
        if self.retry_after is not None:
            response.payload["retry_after"] = self.retry_after
            response.headers["Retry-After"] = str(self.retry_after)
        return http_error(response)
