"""Copy a SQLite database of the bot into PostgreSQL (issue 14): for an operator moving to
``DATABASE_URL``.

    python -m bot.tools.copy_db var/tabletop.sqlite3 postgresql://user:password@host/dbname

Stop the bot first. The SQLite file is opened as the bot would open it (so an older file is migrated
forward first); the target gets the store's migrations, then every table of the file (tables made
by other parts of the bot, such as the stats, are created from their SQLite definitions) is copied
in one transaction, parents before children, and identity sequences continue after the copied ids.
A target that already holds games is refused and left unchanged, so running the command twice is
harmless.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot.core.db import PgConnection, is_pg_url, translate
from bot.core.store import Store

SKIP = {"schema_version"}


class Refused(Exception):
    """The copy cannot be made (the message says why); nothing was written."""


def _tables_in_order(src: sqlite3.Connection) -> list[str]:
    """User tables of the SQLite file, each after the tables its foreign keys point to."""
    names = [r[0] for r in src.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    names = [n for n in names if n not in SKIP]
    parents = {n: {r[2] for r in src.execute(f'PRAGMA foreign_key_list("{n}")')} - {n} for n in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:  # a cycle (none in this schema): keep the remaining order
            ready = [n for n in names if n not in ordered]
        ordered.extend(ready)
    return ordered


def _convert(value: Any, pg_type: str) -> Any:
    if value is None:
        return None
    if pg_type in ("bigint", "integer", "smallint"):
        return int(value)
    if pg_type in ("double precision", "real", "numeric"):
        return float(value)
    if pg_type == "text" and not isinstance(value, str):
        return value.decode() if isinstance(value, bytes) else str(value)
    return value


async def copy(sqlite_path: Path, url: str) -> dict[str, int]:
    """Copy; the number of rows copied per table. Raises :class:`Refused`."""
    if not sqlite_path.exists():
        raise Refused(f"{sqlite_path} does not exist")
    source = await Store.open(sqlite_path)  # migrated forward as the bot would
    await source.close()
    target = await Store.open(url)
    try:
        pg = target.db
        assert isinstance(pg, PgConnection)
        conn = pg.raw
        if await conn.fetchval("SELECT count(*) FROM games"):
            raise Refused("the target database already has games: nothing copied (copy into an empty database)")
        src = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
        try:
            counts: dict[str, int] = {}
            async with conn.transaction():
                for sql in [r[0] for r in src.execute(
                        "SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL"
                        " AND name NOT LIKE 'sqlite_%' ORDER BY name")]:
                    if sql.split("(", 1)[0].split()[-1].strip('"') in SKIP:
                        continue
                    if "IF NOT EXISTS" not in sql.upper():
                        sql = sql.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1)
                    await conn.execute(translate(sql).sql)
                for sql in [r[0] for r in src.execute(
                        "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")]:
                    if "IF NOT EXISTS" not in sql.upper():
                        sql = sql.replace("INDEX", "INDEX IF NOT EXISTS", 1)
                    await conn.execute(translate(sql).sql)
                for table in _tables_in_order(src):
                    types = {r["column_name"]: r["data_type"] for r in await conn.fetch(
                        "SELECT column_name, data_type FROM information_schema.columns"
                        " WHERE table_schema = current_schema() AND table_name = $1", table)}
                    cols = [r[1] for r in src.execute(f'PRAGMA table_info("{table}")') if r[1] in types]
                    if table == "meta":  # the target's own rows (none but what migrations wrote) give way
                        await conn.execute("DELETE FROM meta")
                    names = ", ".join(f'"{c}"' for c in cols)
                    rows = [tuple(_convert(v, types[c]) for v, c in zip(row, cols, strict=True))
                            for row in src.execute(f'SELECT {names} FROM "{table}"')]
                    if rows:
                        await conn.copy_records_to_table(table, records=rows, columns=cols)
                    counts[table] = len(rows)
                for r in await conn.fetch(
                        "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema()"
                        " AND column_name = 'id' AND is_identity = 'YES'"):
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('\"{r['table_name']}\"', 'id'),"
                        f" COALESCE((SELECT MAX(id) FROM \"{r['table_name']}\"), 0) + 1, false)")
        finally:
            src.close()
        return counts
    finally:
        await target.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.copy_db", description=__doc__.split("\n\n")[0])
    parser.add_argument("sqlite_path", type=Path, help="the bot's SQLite file (DATABASE_PATH)")
    parser.add_argument("url", help="postgresql://user:password@host:port/dbname (an empty database)")
    args = parser.parse_args(argv)
    if not is_pg_url(args.url):
        print("the target must be a postgresql:// URL", file=sys.stderr)
        return 2
    try:
        counts = asyncio.run(copy(args.sqlite_path, args.url))
    except Refused as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 1
    for table, n in counts.items():
        print(f"{table}: {n} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
