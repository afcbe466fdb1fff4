"""A web server over a real store and session manager, with the toy game (tests/toygame) registered."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.core import drawing
from bot.core.i18n import catalogue
from bot.core.session import Session, UserInfo
from bot.core.sessions import SessionManager
from bot.core.store import Store
from bot.games import registry
from bot.web.server import RateLimits, WebServer
from bot.web.views import GameViews
from tests.toygame import MANIFEST

ALICE = UserInfo(1001, "alice")
BOB = UserInfo(1002, "<img src=x onerror=alert(1)>", "ru")


@pytest.fixture(autouse=True)
def toy_and_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy game known here; boards drawn on threads (no render process to start per test)."""
    monkeypatch.setitem(registry.GAMES, MANIFEST.key, MANIFEST)
    monkeypatch.setenv(drawing.ENV_WORKERS, "0")
    catalogue.cache_clear()
    drawing.reset_for_tests()
    yield
    monkeypatch.undo()
    catalogue.cache_clear()
    drawing.reset_for_tests()


@dataclass
class Site:
    store: Store
    sessions: SessionManager
    server: WebServer
    http: aiohttp.ClientSession
    clock: dict[str, float]

    async def game(self, seed: int = 7) -> Session:
        session = await self.sessions.create(guild_id=1, channel_id=50 + seed, host=ALICE, game_key=MANIFEST.key,
                                             options={}, deadline_s=3600)
        await self.sessions.join(session.id, ALICE)
        await self.sessions.join(session.id, BOB)
        await self.sessions.start(session.id, ALICE.id, seed=seed)
        return session

    async def move(self, session: Session, cell: int, secret: int = 2) -> None:
        assert session.game is not None
        seat = session.game.actors()[0]
        assert session.row.seat_users is not None
        user = session.row.seat_users[seat][0]
        await self.sessions.act(session.id, user, seat, {"type": "mark", "cell": cell, "secret": secret})

    def seat_of(self, session: Session, user: UserInfo) -> int:
        return session.seats_of(user.id)[0]

    async def get(self, path: str, **kwargs: Any) -> aiohttp.ClientResponse:
        response = await self.http.get(self.server.url("").rsplit("/w/", 1)[0] + path, **kwargs)
        await response.read()
        return response


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    store = await Store.open(tmp_path / "web.sqlite3")
    clock = {"now": 1_800_000_000.0}
    sessions = SessionManager(store, clock=lambda: clock["now"])
    views = GameViews(sessions)
    server = WebServer(views, store, port=0, rate=RateLimits(rate=1000, burst=1000, streams=50),
                       clock=lambda: clock["now"])
    sessions.on_change = server.changed
    await server.start()
    http = aiohttp.ClientSession()
    try:
        yield Site(store, sessions, server, http, clock)
    finally:
        await http.close()
        await server.close()
        await store.close()
