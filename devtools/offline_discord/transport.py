"""The wire: discord.py's two HTTP choke points patched to the fake, the route table,
and the failures a test injects."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

from devtools.offline_discord.model import FakeAttachment

if TYPE_CHECKING:
    from devtools.offline_discord.fake import FakeDiscord


_API_PREFIX = "/api/v10"


class _FakeResponse:
    """Just enough of ``aiohttp.ClientResponse`` for ``discord.HTTPException``."""

    def __init__(self, status: int, reason: str, method: str, url: str) -> None:
        self.status = status
        self.reason = reason
        self.method = method
        self.url = url
        self.headers: dict[str, str] = {}


_REASONS = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}


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

    def strike(self, fake: FakeDiscord, request: _Request) -> BaseException | None:
        if self.times <= 0 or request.method != self.method:
            return None
        if not self.path.fullmatch(request.path):
            return None
        self.times -= 1
        self.struck.append(f"{request.method} {request.path}")
        if self.timeout:
            return TimeoutError()
        response = _FakeResponse(
            self.status, _REASONS.get(self.status, "Error"), request.method, request.path
        )
        payload: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            payload["retry_after"] = self.retry_after
            response.headers["Retry-After"] = str(self.retry_after)
        kind = {403: discord.Forbidden, 404: discord.NotFound}.get(self.status)
        if kind is None and self.status >= 500:
            kind = discord.DiscordServerError
        return (kind or discord.HTTPException)(response, payload)  # type: ignore[arg-type]


def _files_from_form(form: Iterable[Mapping[str, Any]] | None) -> tuple[Any, list[FakeAttachment]]:
    body: Any = None
    files: list[FakeAttachment] = []
    for part in form or []:
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
        elif "filename" in part:
            value = part.get("value")
            data = value.read() if hasattr(value, "read") else bytes(value or b"")
            files.append(FakeAttachment(0, part["filename"], data))
    return body, files


def _make_http_patch(fake: FakeDiscord) -> Callable[..., Any]:
    async def request(
        http: HTTPClient,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Iterable[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Any:
        if form:
            body, attachments = _files_from_form(form)
        else:
            body, attachments = kwargs.get("json"), []
        return await fake._handle(route, body, kwargs.get("params"), attachments)

    return request


def _make_webhook_patch(fake: FakeDiscord) -> Callable[..., Any]:
    async def request(
        adapter: AsyncWebhookAdapter,
        route: Route,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        params: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        if multipart:
            body, attachments = _files_from_form(multipart)
        else:
            body, attachments = payload, []
        return await fake._handle(route, body, params, attachments)

    return request
