"""A real headless Chromium for the web tests, driven through chromedriver's W3C WebDriver protocol
(plain HTTP with aiohttp: no extra package). Debian's ``chromium`` and ``chromium-driver``."""

from __future__ import annotations

import asyncio
import base64
import io
import shutil
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
from PIL import Image, ImageChops, ImageStat

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
MISSING = None if CHROMIUM and DRIVER else "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Browser:
    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http = http
        self.base = base

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        async with self.http.request(method, f"{self.base}{path}", json=body) as r:
            answer = await r.json()
        if r.status != 200:
            raise RuntimeError(f"webdriver {method} {path}: {answer}")
        return answer.get("value")

    async def go(self, url: str) -> None:
        await self.call("POST", "/url", {"url": url})

    async def js(self, script: str, *args: Any) -> Any:
        return await self.call("POST", "/execute/sync", {"script": script, "args": list(args)})

    async def size(self, width: int, height: int) -> None:
        await self.call("POST", "/window/rect", {"width": width, "height": height})
        # the window's outer size: make the page's viewport exactly this wide
        inner = await self.js("return [window.innerWidth, window.innerHeight]")
        await self.call("POST", "/window/rect", {"width": 2 * width - inner[0], "height": 2 * height - inner[1]})

    async def screenshot(self) -> Image.Image:
        data = await self.call("GET", "/screenshot")
        image = Image.open(io.BytesIO(base64.b64decode(data)))
        image.load()
        return image.convert("RGB")

    async def wait(self, script: str, timeout: float, *args: Any) -> Any:
        """Poll ``script`` until it returns something truthy (every 50 ms); its value."""
        loop = asyncio.get_running_loop()
        ends = loop.time() + timeout
        while True:
            value = await self.js(script, *args)
            if value:
                return value
            if loop.time() > ends:
                raise TimeoutError(f"{script!r} stayed falsy for {timeout} s")
            await asyncio.sleep(0.05)


@asynccontextmanager
async def browser() -> AsyncIterator[Browser]:
    """A headless Chromium session (root needs --no-sandbox)."""
    assert CHROMIUM and DRIVER
    port = free_port()
    driver = await asyncio.create_subprocess_exec(DRIVER, f"--port={port}", stdout=asyncio.subprocess.DEVNULL,
                                                  stderr=asyncio.subprocess.DEVNULL)
    try:
        async with aiohttp.ClientSession() as http:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    async with http.get(f"{base}/status") as r:
                        if r.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.05)
            caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--force-device-scale-factor=1", "--hide-scrollbars", "--window-size=400,900"]}}}}
            async with http.post(f"{base}/session", json=caps) as r:
                session = (await r.json())["value"]["sessionId"]
            try:
                yield Browser(http, f"{base}/session/{session}")
            finally:
                async with http.delete(f"{base}/session/{session}"):
                    pass
    finally:
        driver.terminate()
        await driver.wait()


async def board_shown(page: Browser, png: bytes, element: str = "board") -> float:
    """How far the screenshot's board region is from the board PNG scaled to it: the mean absolute
    difference per channel (0-255) over the part of the board inside the viewport."""
    rect = await page.js(f"const r = document.getElementById('{element}').getBoundingClientRect();"
                         "return [r.left, r.top, r.width, r.height, window.innerWidth, window.innerHeight]")
    left, top, width, height, view_w, view_h = (round(v) for v in rect)
    assert width > 50 and height > 50, rect
    shot = await page.screenshot()
    board = Image.open(io.BytesIO(png)).convert("RGB").resize((width, height))
    right, bottom = min(left + width, view_w, shot.width), min(top + height, view_h, shot.height)
    assert right - left > 50 and bottom - top > 50, (rect, shot.size)
    seen = shot.crop((left, top, right, bottom))
    expected = board.crop((0, 0, right - left, bottom - top))
    return sum(ImageStat.Stat(ImageChops.difference(seen, expected)).mean) / 3
