"""``/healthz`` and ``/readyz`` on a local port (``HEALTH_PORT``), for a container's health check.

``/healthz`` (liveness) answers 200 as long as the event loop runs. ``/readyz`` answers 200 only
when this process's gateway shards are all connected and the store answers a trivial query within
:data:`CHECK_TIMEOUT`, else 503; both bodies are small JSON objects with no private data.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

CHECK_TIMEOUT = 2.0  # seconds; a store that answers slower than this is not ready
Readiness = Callable[[], Awaitable[tuple[bool, dict[str, Any]]]]


class HealthServer:
    """The aiohttp server; ``port=0`` picks a free port (tests), read it from :attr:`port` after
    :meth:`start`."""

    def __init__(self, readiness: Readiness, port: int, host: str = "127.0.0.1") -> None:
        self.readiness = readiness
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._alive)
        app.router.add_get("/readyz", self._ready)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError:
            sock.close()
            await self.close()
            raise
        self.port = int(sock.getsockname()[1])
        await web.SockSite(self._runner, sock).start()
        log.info("health checks on http://%s:%d/healthz and /readyz", self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _alive(self, request: web.Request) -> web.Response:
        return web.json_response({"alive": True})

    async def _ready(self, request: web.Request) -> web.Response:
        try:
            ready, details = await asyncio.wait_for(self.readiness(), timeout=CHECK_TIMEOUT)
        except TimeoutError:
            ready, details = False, {"error": f"readiness check took over {CHECK_TIMEOUT:.0f} s"}
        except Exception as exc:  # the check itself failed: not ready, and say what kind of failure
            ready, details = False, {"error": type(exc).__name__}
        return web.json_response({"ready": ready, **details}, status=200 if ready else 503)
