"""The takeback tests' environment: a SQLite store and a session layer on a clock the test moves
(``Env.tick``). A module that needs another backend defines its own ``env`` (tests/takeback/test_takeback_pg.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.sessions import SessionManager
from bot.core.store import Store
from tests.takeback.common import Env


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    store = await Store.open(tmp_path / "takeback.sqlite3")
    clock = {"now": 1_000_000.0}
    yield Env(store, SessionManager(store, clock=lambda: clock["now"]), clock)
    await store.close()
