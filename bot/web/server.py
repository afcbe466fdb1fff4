"""The web server of the game pages (issue 29): aiohttp, off unless ``WEB_PORT`` is set.

Routes (all ``GET``; nothing here can change a game):

  ``/w/<token>``                      the page: a running game live, a finished game's replay
  ``/w/<token>/events``               Server-Sent Events: the page's parts after each change
  ``/w/<token>/board/<seq>.png``      the public board (the game's renderer, in the render processes)
  ``/w/<token>/mine/<seq>.png``       a seat link's personal board (games that draw one)
  ``/w/<token>/step/<seq>.png``       a finished game's public board after action ``seq`` (0: the start)
  ``/static/web.js``, ``/static/web.css``

Every answer carries a strict Content Security Policy (no inline script or style, nothing from
elsewhere), ``nosniff``, ``no-referrer`` (the token is in the address) and no cookie. Each client
address has a token bucket (:class:`RateLimit`) and a cap on open event streams; behind the
operator's reverse proxy (the peer is a loopback address) the address is the last hop the proxy
appended to ``X-Forwarded-For``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

from bot.core.i18n import LANGS, lang_of
from bot.core.session import SessionError
from bot.core.store import Store
from bot.discord_app import limits
from bot.web import links, pages
from bot.web.links import Link, LinkError, Signer
from bot.web.model import Live
from bot.web.views import GameViews

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
EPOCH_TTL = 2.0
"""Seconds a game's link generation is trusted from memory (a revocation made by another process
on the same PostgreSQL takes effect within this; one made here at once)."""
KEEPALIVE_S = 15.0
"""An idle event stream sends a comment this often (proxies close silent connections)."""
STATUS_OF = {"forged": 404, "expired": 410, "revoked": 410, "seat": 403}


@dataclass(frozen=True)
class RateLimits:
    rate: float = 10.0
    """Requests per second an address earns back."""
    burst: float = 60.0
    """Requests an address may make at once."""
    streams: int = 6
    """Event streams one address may hold open."""


class RateLimit:
    """A token bucket per client address (bounded: the least recently seen addresses are forgotten)."""

    def __init__(self, limits_: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits_
        self.clock = clock
        self._buckets: limits.Lru[str, tuple[float, float]] = limits.Lru(50_000)
        self.streams: dict[str, int] = {}

    def take(self, address: str) -> float:
        """Charge one request; 0 when allowed, else the seconds until one would be."""
        now = self.clock()
        tokens, at = self._buckets.get(address) or (self.limits.burst, now)
        tokens = min(self.limits.burst, tokens + (now - at) * self.limits.rate)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return (1 - tokens) / self.limits.rate
        self._buckets[address] = (tokens - 1, now)
        return 0.0


def client_address(request: web.Request) -> str:
    """The client's address: the peer, or behind a reverse proxy on this host (a loopback peer) the
    last address the proxy appended to ``X-Forwarded-For``."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For", "")
    try:
        loopback = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        loopback = False
    if loopback and forwarded:
        last = forwarded.split(",")[-1].strip()
        try:
            return str(ipaddress.ip_address(last))
        except ValueError:
            return peer
    return peer


def reader_lang(request: web.Request) -> str:
    """``?lang=`` when it names one of ours, else the browser's first language."""
    asked = request.query.get("lang", "")
    if asked in LANGS:
        return asked
    accept = request.headers.get("Accept-Language", "")
    first = accept.split(",")[0].split(";")[0].strip()
    return lang_of(first or None)


class WebServer:
    """The pages' server. ``port=0`` picks a free port (tests); read it from :attr:`port` after :meth:`start`."""

    def __init__(self, views: GameViews, store: Store, *, port: int, host: str = "127.0.0.1",
                 base_url: str | None = None, rate: RateLimits | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.views = views
        self.store = store
        self.host = host
        self.port = port
        self.base_url = (base_url or "").rstrip("/")
        self.clock = clock
        self.limiter = RateLimit(rate or RateLimits())
        self.signer: Signer | None = None
        self._epochs: limits.Lru[int, tuple[float, int]] = limits.Lru(10_000)
        self._runner: web.AppRunner | None = None
        self._viewed: dict[int, float] = {}  # game -> when a link of it was last used
        self._keeper: asyncio.Task[None] | None = None
        # what every viewer of one link is sent, made once per version (a burst of 100 viewers shares it)
        self._made: limits.Lru[tuple[object, ...], bytes] = limits.Lru(1024)
        self._static = {name: (STATIC / name).read_bytes() for name in ("web.js", "web.css")}
        self.served = 0
        self.timings: list[float] = []
        """Seconds each page answer took (kept only while :attr:`timing` is set: the bench)."""
        self.timing = False

    # ---- links ---------------------------------------------------------------------------
    def url(self, token: str) -> str:
        return f"{self.base_url}/w/{token}"

    async def link(self, game_id: int, *, seat: int | None = None, user_id: int = 0) -> tuple[str, int]:
        """(address, expiry) of a new link to ``game_id``'s page (``seat``: that seat's private view)."""
        assert self.signer is not None, "start() first"
        now = self.clock()
        token = self.signer.make(game_id, now=now, epoch=await self._epoch(game_id), seat=seat, user_id=user_id)
        return self.url(token), int(now) + links.LINK_TTL_S

    async def revoke(self, game_id: int) -> None:
        """End every link of the game made so far; its open streams close."""
        new = await links.revoke(self.store, game_id)
        self._epochs[game_id] = (self.clock(), new)
        self.views.changed(game_id)  # streams wake, see the new generation and close

    async def _epoch(self, game_id: int) -> int:
        now = self.clock()
        self._viewed[game_id] = now
        cached = self._epochs.get(game_id)
        if cached is not None and now - cached[0] < EPOCH_TTL:
            return cached[1]
        epoch = await links.epoch_of(self.store, game_id)
        self._epochs[game_id] = (now, epoch)
        return epoch

    async def _keep_epochs(self) -> None:
        """Re-read the generation of every game viewed in the last minute before it is :data:`EPOCH_TTL`
        old, so a page request never waits for the database for it (a burst of viewers right after a
        move would queue that read behind all of them)."""
        while True:
            await asyncio.sleep(EPOCH_TTL / 2)
            now = self.clock()
            for game_id, seen in list(self._viewed.items()):
                if now - seen > 60:
                    del self._viewed[game_id]
                    continue
                try:
                    self._epochs[game_id] = (self.clock(), await links.epoch_of(self.store, game_id))
                except Exception as exc:  # the store is closing, or failing: a request reads it itself
                    log.debug("web: re-reading the link generation of game %s failed: %s", game_id, exc)

    async def _open(self, request: web.Request) -> Link:
        """The request's link, checked: signature, generation, expiry (raises :class:`LinkError`)."""
        assert self.signer is not None
        link = self.signer.parse(request.match_info.get("token", ""))
        Signer.check(link, now=self.clock(), epoch=await self._epoch(link.game_id))
        return link

    @staticmethod
    def _check_seat(link: Link, live: Live) -> None:
        """A seat's link opens that seat only while the user it was given to still holds it."""
        if link.seat is None:
            return
        if link.seat >= len(live.seat_users) or link.user_id not in live.seat_users[link.seat]:
            raise LinkError("seat")

    # ---- server --------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        app.router.add_get("/w/{token}", self._page)
        app.router.add_get("/w/{token}/events", self._events)
        app.router.add_get("/w/{token}/board/{seq:[0-9]{1,9}}.png", self._board)
        app.router.add_get("/w/{token}/mine/{seq:[0-9]{1,9}}.png", self._mine)
        app.router.add_get("/w/{token}/step/{seq:[0-9]{1,9}}.png", self._step)
        app.router.add_get("/static/{name}", self._static_file)
        return app

    async def start(self) -> None:
        self.signer = Signer(await links.store_key(self.store))
        # a client that goes away cancels its handler: an event stream frees its place at once
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=1.0, handler_cancellation=True)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET6 if ":" in self.host else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError:
            sock.close()
            await self.close()
            raise
        self.port = int(sock.getsockname()[1])
        if not self.base_url:
            self.base_url = f"http://{self.host}:{self.port}"
        await web.SockSite(self._runner, sock).start()
        self._keeper = asyncio.get_running_loop().create_task(self._keep_epochs())
        log.info("game pages on http://%s:%d (links point to %s)", self.host, self.port, self.base_url)

    async def close(self) -> None:
        self.views.close()
        if self._keeper is not None:
            self._keeper.cancel()
            self._keeper = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def changed(self, game_id: int) -> None:
        """A change notification (a commit here, or another process's ``NOTIFY``)."""
        self.views.changed(game_id)

    # ---- every request -------------------------------------------------------------------
    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            response: web.StreamResponse = self._error(request, 405, "web.error.missing")
            response.headers["Allow"] = "GET, HEAD"
        elif (wait := self.limiter.take(client_address(request))) > 0:
            response = self._error(request, 429, "web.error.rate")
            response.headers["Retry-After"] = str(max(1, round(wait + 0.5)))
        else:
            try:
                response = await handler(request)
            except LinkError as exc:
                response = self._error(request, STATUS_OF.get(exc.kind, 404), f"web.error.{exc.kind}")
            except SessionError:  # no such game (deleted): like a forged link, no existence oracle
                response = self._error(request, 404, "web.error.forged")
            except web.HTTPException as exc:
                if exc.status < 400:
                    raise
                response = self._error(request, exc.status, "web.error.missing")
        if not response.prepared:  # an event stream sent its headers itself
            response.headers.update(SECURITY_HEADERS)
        return response

    @staticmethod
    def _error(request: web.Request, status: int, key: str) -> web.Response:
        return web.Response(status=status, text=pages.error_page(reader_lang(request), key),
                            content_type="text/html", charset="utf-8", headers={"Cache-Control": "no-store"})

    # ---- handlers ------------------------------------------------------------------------
    async def _page(self, request: web.Request) -> web.Response:
        started = time.perf_counter()
        link = await self._open(request)
        lang = reader_lang(request)
        base = request.match_info["token"]  # relative: the pages work under a proxy's path prefix too
        # a public page may be the previous version while the current one is built (its stream brings it)
        live = await self.views.live(link.game_id, lang, link.seat, stale_ok=link.seat is None)
        self._check_seat(link, live)
        key = ("page", link.game_id, live.version, lang, link.seat, base)
        body = self._made.get(key)
        if body is None:
            if live.status == "finished":
                text = pages.replay_page(await self.views.replay(link.game_id, lang), base, lang)
            else:
                text = pages.live_page(live, base, lang, link.seat)
            body = self._made[key] = text.encode()
        self.served += 1
        if self.timing:
            self.timings.append(time.perf_counter() - started)
        return web.Response(body=body, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store"})

    async def _png(self, png: bytes | None) -> web.Response:
        if png is None:
            raise web.HTTPNotFound()
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "private, max-age=60"})

    async def _board(self, request: web.Request) -> web.Response:
        link = await self._open(request)
        lang = reader_lang(request)
        live = await self.views.live(link.game_id, lang, link.seat)
        self._check_seat(link, live)
        return await self._png(await self.views.board(link.game_id, lang))

    async def _mine(self, request: web.Request) -> web.Response:
        link = await self._open(request)
        if link.seat is None:
            raise web.HTTPNotFound()
        lang = reader_lang(request)
        live = await self.views.live(link.game_id, lang, link.seat)
        self._check_seat(link, live)
        return await self._png(await self.views.personal(link.game_id, link.seat, lang))

    async def _step(self, request: web.Request) -> web.Response:
        link = await self._open(request)
        lang = reader_lang(request)
        live = await self.views.live(link.game_id, lang, link.seat)
        self._check_seat(link, live)
        if live.status != "finished":  # a running game's past boards could be stepped back to hidden moments
            raise web.HTTPNotFound()
        return await self._png(await self.views.step_board(link.game_id, int(request.match_info["seq"]), lang))

    async def _static_file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        body = self._static.get(name)
        if body is None:
            raise web.HTTPNotFound()
        kind = "application/javascript" if name.endswith(".js") else "text/css"
        return web.Response(body=body, content_type=kind, charset="utf-8",
                            headers={"Cache-Control": "public, max-age=86400"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The page's parts after every change of the game, until it ends, the link stops working or
        the client goes away."""
        link = await self._open(request)
        lang = reader_lang(request)
        base = request.match_info["token"]  # relative: the pages work under a proxy's path prefix too
        live = await self.views.live(link.game_id, lang, link.seat)
        self._check_seat(link, live)
        address = client_address(request)
        if self.limiter.streams.get(address, 0) >= self.limiter.limits.streams:
            response = self._error(request, 429, "web.error.rate")
            response.headers["Retry-After"] = "5"
            return response
        self.limiter.streams[address] = self.limiter.streams.get(address, 0) + 1
        stream = web.StreamResponse(headers={**SECURITY_HEADERS, "Content-Type": "text/event-stream",
                                             "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        try:
            await stream.prepare(request)
            seen = request.query.get("v", "")
            await stream.write(b"retry: 1000\n\n")
            while not self.views.closed:
                version = self.views.version(link.game_id)
                live = await self.views.live(link.game_id, lang, link.seat)
                if str(live.version) != seen:
                    key = ("state", link.game_id, live.version, lang, link.seat, base)
                    message = self._made.get(key)
                    if message is None:
                        message = self._made[key] = pages.event("state", live.update(base, lang, link.seat))
                    await stream.write(message)
                    seen = str(live.version)
                if live.ended:
                    await stream.write(pages.event("end", {"status": live.status}))
                    break
                if not await self.views.wait_change(link.game_id, version, KEEPALIVE_S):
                    await stream.write(b": keep-alive\n\n")
                try:  # still valid? (revoked meanwhile, expired, or the seat's user left it)
                    await self._open(request)
                    self._check_seat(link, await self.views.live(link.game_id, lang, link.seat))
                except LinkError as exc:
                    await stream.write(pages.event("gone", {"why": exc.kind}))
                    break
        except ConnectionResetError:  # the client went away
            pass
        finally:
            left = self.limiter.streams.get(address, 1) - 1
            if left > 0:
                self.limiter.streams[address] = left
            else:
                self.limiter.streams.pop(address, None)
        return stream
