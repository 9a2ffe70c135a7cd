"""What every answer of the web page carries, and the limit on requests per address."""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web

# Nothing but the page's own files: no inline script or style, no other site, no frames.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the path is the key: it never leaves in a Referer
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
RATE = 10.0  # requests a second each address may keep up
BURST = 60.0  # requests an address may make at once (a page and its pictures)
ADDRESSES_KEPT = 10_000

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Buckets:
    """A token bucket per address: ``BURST`` at once, ``RATE`` a second after that."""

    def __init__(
        self, rate: float = RATE, burst: float = BURST, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, address: str) -> float:
        """0 if the request may go on, else the seconds until it may."""
        now = self.clock()
        tokens, then = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate
        self._buckets[address] = (tokens, now)
        while len(self._buckets) > ADDRESSES_KEPT:
            self._buckets.popitem(last=False)  # the address heard from longest ago
        return wait


def guarded(buckets: Buckets) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        wait = buckets.take(request.remote or "?")
        if wait > 0:
            raise web.HTTPTooManyRequests(
                text="Too many requests: slow down a little.\n",
                headers={**HEADERS, "Retry-After": str(math.ceil(wait))},
            )
        try:
            response = await handler(request)
        except web.HTTPException as exc:  # a 404, a 405: said with the same headers
            exc.headers.update(HEADERS)
            raise
        if not response.prepared:  # a stream sent its headers already
            response.headers.update(HEADERS)
        return response

    return middleware


def with_headers(response: web.StreamResponse) -> web.StreamResponse:
    """A stream answers before the middleware sees it: it sets the headers itself."""
    response.headers.update(HEADERS)
    return response
