"""End to end on PostgreSQL (issue 14, phase 1): the real bot process with ``DATABASE_URL`` against
the fake Discord plays moves, is killed with SIGKILL after a move, and resumes from PostgreSQL. No
SQLite file is made. (Several processes sharing the database is phase 2.)
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.e2e.helpers import (
    NO_WINDOW,
    assert_clean_output,
    last_turn_post,
    make_table,
    open_lobby,
    play_panel,
    start_lobby,
    turn_posts,
    wait_dm_panel,
)
from tests.fake_discord import FakeDiscord
from tests.pg_server import PgServer, new_pg_url

"""Pobeda's undo window (issue 27) off: these tests are about the platform, and a turn here is one play."""


pytestmark = pytest.mark.e2e


async def game(url: str) -> tuple[int, int, int]:
    """(seq, published_seq, number of actions) of the only game."""
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow("SELECT id, seq, published_seq FROM games WHERE status = 'running'")
        assert row is not None
        count = await conn.fetchval("SELECT count(*) FROM actions WHERE game_id = $1", row["id"])
        return int(row["seq"]), int(row["published_seq"]), int(count)
    finally:
        await conn.close()


async def test_a_game_on_postgresql_survives_a_kill(tmp_path: Path, pg_server: PgServer | None) -> None:
    url = await new_pg_url(pg_server, "e")
    async with FakeDiscord() as fake:
        table = await make_table(fake, tmp_path, ["alice", "bob"], extra_env={"DATABASE_URL": url})
        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"], options=NO_WINDOW)
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: turn_posts(table), timeout=20)
        actor = table.by_id(last_turn_post(table).mentions[0])
        r = await play_panel(fake, actor, await wait_dm_panel(table, actor))
        assert r.content.startswith("✅")
        await fake.wait_for(lambda: len(turn_posts(table)) == 2, timeout=20)
        for _ in range(100):  # the post is out; its checkpoint follows
            if (await game(url))[1] == 1:
                break
            await asyncio.sleep(0.1)
        assert await game(url) == (1, 1, 1)  # one move: applied once, announced once
        await table.bot.kill()
        await table.bot.start(timeout=60)  # resumes from PostgreSQL
        actor = table.by_id(last_turn_post(table).mentions[0])
        r = await play_panel(fake, actor, await wait_dm_panel(table, actor))
        assert r.content.startswith("✅")
        await fake.wait_for(lambda: len(turn_posts(table)) == 3, timeout=20)
        await table.bot.stop()
        assert await game(url) == (2, 2, 2)
        conn = await asyncpg.connect(url)
        game_id = await conn.fetchval("SELECT id FROM games")
        await conn.close()
        replay = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.core.replay", url, str(game_id),
                                                      stdout=asyncio.subprocess.PIPE)
        out, _ = await replay.communicate()
        assert replay.returncode == 0 and out.startswith(b"ok"), out  # the same replay tool reads PostgreSQL
        assert not table.db.exists()  # nothing went to the SQLite file
        assert_clean_output(table.bot.output())
