"""A headless Chromium driven over the Chrome DevTools Protocol, for the web page's tests.

Debian's ``chromium`` package and aiohttp's websocket client: nothing is downloaded at run
time and no WebDriver is needed. One browser, and a page in a context of its own for each
test; what the page logs as an error (a console error, an uncaught exception, a refused
resource, a Content-Security-Policy violation) is collected in ``errors``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp

NAMES = ("chromium", "chromium-browser", "google-chrome")
HOW_TO_GET_IT = "headless Chromium is missing: apt-get install chromium (Debian)"
STARTED_WITHIN = 60.0  # seconds for the browser to write its DevTools port (a guard)


def chromium_path() -> str | None:
    found = os.environ.get("CHROMIUM")
    if found:
        return found
    return next((path for name in NAMES if (path := shutil.which(name))), None)


class BrowserError(Exception):
    pass


class Page:
    """The browser's one tab: navigate, evaluate, press keys, take screenshots."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self._socket = socket
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._loaded = asyncio.Event()
        self.errors: list[str] = []
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self._socket:
            data = json.loads(message.data)
            if "id" in data:
                waiting = self._waiting.pop(data["id"], None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(data)
            else:
                self._event(data["method"], data.get("params", {}))

    def _event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Page.loadEventFired":
            self._loaded.set()
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append(details.get("exception", {}).get("description") or details["text"])
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            self.errors.append(" ".join(str(a.get("value", a)) for a in params["args"]))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            self.errors.append(f"{entry['text']} {entry.get('url', '')}".strip())

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = answer
        await self._socket.send_str(json.dumps({"id": number, "method": method, "params": params}))
        reply = await asyncio.wait_for(answer, 60)
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error']}")
        return reply.get("result", {})  # type: ignore[no-any-return]

    async def open(self, url: str) -> None:
        """Go to ``url`` and wait for its load event."""
        self._loaded.clear()
        await self.send("Page.navigate", url=url)
        await asyncio.wait_for(self._loaded.wait(), 60)

    async def evaluate(self, expression: str) -> Any:
        result = await self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise BrowserError(result["exceptionDetails"].get("text", expression))
        return result["result"].get("value")

    async def until(self, expression: str, tries: int = 600) -> Any:
        """Evaluate until the value is truthy (every 50 ms; a guard, not a timing)."""
        for _ in range(tries):
            value = await self.evaluate(expression)
            if value:
                return value
            await asyncio.sleep(0.05)
        raise BrowserError(f"never true: {expression}")

    async def press(self, key: str) -> None:
        """A key press (``ArrowRight``) on the focused page."""
        codes = {"ArrowLeft": 37, "ArrowRight": 39}
        for kind in ("keyDown", "keyUp"):
            await self.send(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                code=key,
                windowsVirtualKeyCode=codes.get(key, 0),
            )

    async def resize(self, width: int, *, mobile: bool) -> None:
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=800,
            deviceScaleFactor=1,
            mobile=mobile,
        )

    async def screenshot(self) -> bytes:
        """The whole page, as tall as its content, at the current width."""
        shot = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        return base64.b64decode(shot["data"])


class Chromium:
    """Chromium headless with a fresh profile, started once for many pages (it takes a
    second or two of CPU to start: the browser tests once started one per test)."""

    def __init__(self, path: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="cookie-jar-chromium-")
        self.process = subprocess.Popen(
            [
                path,
                "--headless=new",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-gpu",
                "--disable-extensions",
                "--disable-background-networking",
                "--no-sandbox",  # CI containers run as root, where the sandbox refuses to start
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            self.port = _devtools_port(Path(self.profile) / "DevToolsActivePort", self.process)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


@contextlib.asynccontextmanager
async def page_in(chromium: Chromium) -> AsyncIterator[Page]:
    """A page of its own browser context (as an incognito window: no cookies or storage
    of another page's), closed with its context at the end."""
    base = f"127.0.0.1:{chromium.port}"
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://{base}/json/version") as version:
            browser_url = (await version.json())["webSocketDebuggerUrl"]
        async with session.ws_connect(browser_url, max_msg_size=0) as browser_socket:
            browser = Page(browser_socket)
            try:
                context = (await browser.send("Target.createBrowserContext"))["browserContextId"]
                target = await browser.send(
                    "Target.createTarget", url="about:blank", browserContextId=context
                )
                try:
                    page_url = f"ws://{base}/devtools/page/{target['targetId']}"
                    async with session.ws_connect(page_url, max_msg_size=0) as socket:
                        page = Page(socket)
                        for domain in ("Page", "Runtime", "Log"):
                            await page.send(f"{domain}.enable")
                        try:
                            yield page
                        finally:
                            page._reader.cancel()
                finally:
                    await browser.send("Target.disposeBrowserContext", browserContextId=context)
            finally:
                browser._reader.cancel()


def _devtools_port(file: Path, process: subprocess.Popen[bytes]) -> int:
    for _ in range(int(STARTED_WITHIN / 0.05)):
        if process.poll() is not None:
            raise BrowserError(f"chromium exited with {process.returncode}")
        with contextlib.suppress(FileNotFoundError, ValueError, IndexError):
            return int(file.read_text().splitlines()[0])
        time.sleep(0.05)
    raise BrowserError("chromium did not open its DevTools port")
