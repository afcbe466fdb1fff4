"""Shared by the league tests: a ``LeagueStore`` on each backend."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.leagues.storage import LeagueStore
from bot.core.store import Store
from tests.pg_server import PgServer, new_pg_url


@pytest.fixture(params=["sqlite", "postgresql"])
async def leagues(request: pytest.FixtureRequest, tmp_path: Path,
                  pg_server: PgServer | None) -> AsyncIterator[LeagueStore]:
    """The league tables on SQLite and on PostgreSQL (a throwaway schema of tests/pg_server.py)."""
    target = tmp_path / "s.sqlite3" if request.param == "sqlite" else await new_pg_url(pg_server, "league")
    store = await Store.open(target)
    try:
        yield LeagueStore(store)
    finally:
        await store.close()

