"""The wire's two ends inside discord.py, patched to the fake.

* Bot REST calls keep discord.py's own ``HTTPClient.request`` (its buckets, its global lock,
  its 429 handling); only the aiohttp session under it is the fake's (:class:`FakeSession`,
  installed by the patched ``static_login``), so the fake's rate-limit answers reach
  discord.py as Discord's do.
* Interaction answers (callback, follow-ups, ``@original``) are answered one level higher,
  at ``AsyncWebhookAdapter.request``: Discord's budget does not apply to them, so there is no
  rate-limit handling of discord.py's to feed.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

import discord
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

from devtools.offline_discord.model import FakeAttachment
from devtools.offline_discord.wire import _FakeResponse

# What the fake answers a request at the session: (method, url, body, params, files).
Answer = Callable[
    [str, str, Any, Mapping[str, Any] | None, list[FakeAttachment]], Awaitable[_FakeResponse]
]
# What it answers an interaction request, raising discord.py's exceptions itself.
Handle = Callable[[str, str, Any, Mapping[str, Any] | None, list[FakeAttachment]], Awaitable[Any]]

# A multipart request's parts as the bot gave them (``HTTPClient.request``'s ``form``),
# read by the session below it instead of taking aiohttp's FormData apart.
_FORM: contextvars.ContextVar[tuple[Any, list[FakeAttachment]] | None] = contextvars.ContextVar(
    "offline_discord_form", default=None
)


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


class FakeSession:
    """The aiohttp session of a bot run against the fake: ``request`` is answered by it."""

    def __init__(self, answer: Answer) -> None:
        self._answer = answer
        self.closed = False

    def request(self, method: str, url: str, **kwargs: Any) -> _Exchange:
        return _Exchange(self._answer, method, url, kwargs)

    async def close(self) -> None:
        self.closed = True


class _Exchange:
    """``async with session.request(...) as response``."""

    def __init__(self, answer: Answer, method: str, url: str, kwargs: dict[str, Any]) -> None:
        self._answer = answer
        self._method = method
        self._url = url
        self._kwargs = kwargs

    async def __aenter__(self) -> _FakeResponse:
        data = self._kwargs.get("data")
        form = _FORM.get()
        if isinstance(data, str):
            body, files = json.loads(data), []
        elif form is not None:
            body, files = form
        else:
            body, files = None, []
        return await self._answer(self._method, self._url, body, self._kwargs.get("params"), files)

    async def __aexit__(self, *exc: object) -> None:
        return None


def _make_http_patches(
    answer: Answer,
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``HTTPClient.static_login`` (the session is the fake's) and ``HTTPClient.request``
    (discord.py's own, with the multipart parts at hand for the session)."""
    original = HTTPClient.request

    async def static_login(http: HTTPClient, token: str) -> Any:
        # discord.py's static_login, with the fake's session instead of aiohttp's.
        http._HTTPClient__session = FakeSession(answer)  # type: ignore[attr-defined]
        http._global_over = asyncio.Event()
        http._global_over.set()
        http.token = token
        return await http.request(Route("GET", "/users/@me"))

    async def request(
        http: HTTPClient,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Iterable[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Any:
        reset = _FORM.set(_files_from_form(form) if form else None)
        try:
            return await original(http, route, files=files, form=form, **kwargs)
        finally:
            _FORM.reset(reset)

    return static_login, request


def _make_webhook_patch(handle: Handle) -> Callable[..., Any]:
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
        return await handle(route.method, route.url, body, params, attachments)

    return request
