"""A database at an older schema, for the league tests that read what an older bot stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.core.store import MIGRATIONS


def schema_database(path: Path, version: int) -> sqlite3.Connection:
    """A SQLite file as a bot of schema ``version`` left it (its migrations only), open for the test's rows."""
    con = sqlite3.connect(path)
    for statements in MIGRATIONS[:version]:
        for sql in statements:
            con.execute(sql)
    con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    con.execute("INSERT INTO schema_version VALUES (?)", (version,))
    return con
