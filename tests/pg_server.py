"""The tests' throwaway PostgreSQL server (issue 14) as a session fixture; the server itself is
:mod:`bot.tools.pg_temp` (the benchmarks use it too)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.tools.pg_temp import PgServer, find_binaries

__all__ = ["PgServer", "find_binaries", "new_pg_url", "pg_server"]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer | None]:
    """The session's server (None, with the reason printed, when no PostgreSQL is installed); stopped
    at the end. ``tests/conftest.py`` declares it for the whole suite, so one server serves every module of a
    test process: a module must not import it again (its own copy would start a second server)."""
    bindir, why = find_binaries()
    if bindir is None:
        print(f"\nPostgreSQL tests skipped: {why}")
        yield None
        return
    server = PgServer.start(bindir)
    try:
        yield server
    finally:
        server.stop()


_names: dict[str, int] = {}


async def new_pg_url(server: PgServer | None, prefix: str = "t") -> str:
    """A fresh empty schema on ``server``, as a URL (skips the test when there is no server)."""
    if server is None:
        _, why = find_binaries()
        pytest.skip(f"PostgreSQL not available: {why}")
    _names[prefix] = _names.get(prefix, 0) + 1
    return await server.fresh_schema(f"{prefix}{_names[prefix]}")
