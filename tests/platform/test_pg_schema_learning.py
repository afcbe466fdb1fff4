"""A PostgreSQL store that connected before another process created the tables (issue 14's compose
deployment: two bot processes starting at once on an empty database; the first migrates, the second
waits for the migration lock and finds nothing to do) still gets the new row's id from an INSERT and
knows the primary keys its upserts need. Found by the compose rehearsal: the second process's first
game got id 0, and its lobby could not start."""

from __future__ import annotations

from bot.core.db import PgConnection
from bot.core.store import GameSettings, LobbyEntry, Store
from tests.pg_server import PgServer, new_pg_url


async def test_tables_created_by_another_process_after_connecting(pg_server: PgServer | None) -> None:
    url = await new_pg_url(pg_server, "learn")
    late = await PgConnection.connect(url)  # connected to the empty schema
    other = await PgConnection.connect(url)
    try:
        await other.execute("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        await other.execute("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT)")
        first = await late.execute("INSERT INTO things (name) VALUES (?)", ("a",))
        second = await late.execute("INSERT INTO things (name) VALUES (?)", ("b",))
        assert (first.lastrowid, second.lastrowid) == (1, 2)
        for value in ("1", "2"):  # the upsert needs kv's primary key
            await late.execute("INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)", ("x", value))
        async with late.execute("SELECT k, v FROM kv") as cur:
            assert [tuple(r) for r in await cur.fetchall()] == [("x", "2")]
    finally:
        await late.close()
        await other.close()


async def test_two_stores_opened_at_once_both_create_games(pg_server: PgServer | None) -> None:
    url = await new_pg_url(pg_server, "learn")
    late = await PgConnection.connect(url)  # as a process that connected while the other migrated
    first = await Store.open(url)
    second = Store(late, first.path, dialect="postgresql")  # type: ignore[arg-type]
    second.url = url
    try:
        await second._migrate()  # nothing left to do: no CREATE runs in this process
        lobby = [LobbyEntry(user=1, name="a", lang="en")]
        made = [await store.create_game(guild_id=1, channel_id=10 + n, game="pobeda", host_id=1, lang="en",
                                        options={}, lobby=lobby, settings=GameSettings())
                for n, store in enumerate((first, second))]
        async with second.db.execute("SELECT id FROM games ORDER BY id") as cur:
            ids = [r[0] for r in await cur.fetchall()]
        assert [g.id for g in made] == ids and len(set(ids)) == 2 and min(ids) > 0
    finally:
        await first.close()
        await second.close()
