"""The store's unit tests on both backends (issue 14, phase 1): the SQLite file and PostgreSQL.

Every test below takes the parametrised ``store`` fixture and runs once per backend. The PostgreSQL
variants use a throwaway server (tests/pg_server.py) started once per session; they are skipped only
when no PostgreSQL binaries are found, and the reason is printed.

Expected values come from what the store promises (bot/core/store.py docstrings and issue 14): one
transaction per move guarded by the optimistic ``seq`` check, one open game per channel, deadlines
dropped when a game ends, 64-bit Discord ids kept exactly.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.db import translate
from bot.core.sessions import SessionManager, UserInfo
from bot.core.stats import Stats
from bot.core.store import SCHEMA_VERSION, ChannelBusy, Conflict, Deadline, GameSettings, LobbyEntry, Store
from bot.games import registry
from tests.pg_server import PgServer, new_pg_url
from tests.platform.toy import toy_manifest

BIG_ID = 1_234_567_890_123_456_789  # a Discord snowflake: does not fit 32 bits


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path, pg_server: PgServer | None) -> AsyncIterator[Store]:
    target: str | Path
    target = tmp_path / "s.sqlite3" if request.param == "sqlite" else await new_pg_url(pg_server)
    st = await Store.open(target)
    try:
        yield st
    finally:
        await st.close()


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


async def new_game(store: Store, channel: int = 10, guild: int | None = BIG_ID, host: int = BIG_ID) -> int:
    row = await store.create_game(guild_id=guild, channel_id=channel, game="toy", host_id=host, lang="en",
                                  options={"x": "ё"}, lobby=[LobbyEntry(host, "Алиса", "ru")],
                                  settings=GameSettings(deadline_s=60))
    return row.id


async def started(store: Store, channel: int = 10) -> int:
    game_id = await new_game(store, channel)
    row = await store.load_game(game_id)
    assert row is not None
    row.status, row.seat_users, row.seat_info, row.seed, row.seat_counts = "running", [[BIG_ID], [7]], [{}, {}], 5, [1, 1]
    await store.start_game(row, '{"turn":0}', [Deadline(0, 100.5, 50.25)])
    return game_id


async def commit(store: Store, game_id: int, old: int, new: int, *, status: str = "running",
                 deadlines: list[Deadline] | None = None) -> None:
    await store.commit_action(game_id, old_seq=old, new_seq=new, status=status, seat_counts=[1, 1],
                              settings=GameSettings(deadline_s=60), seat=new % 2, user_id=BIG_ID,
                              action={"n": new}, events=[{"e": new}], state_text=f'{{"turn":{new}}}',
                              deadlines=deadlines)


async def test_migrations_reach_the_current_version_and_reopen(store: Store) -> None:
    assert await store.schema_version() == SCHEMA_VERSION


async def test_a_game_round_trips_with_64_bit_ids_and_unicode(store: Store) -> None:
    game_id = await new_game(store)
    assert game_id >= 1
    row = await store.load_game(game_id)
    assert row is not None
    assert (row.guild_id, row.host_id, row.status, row.options) == (BIG_ID, BIG_ID, "lobby", {"x": "ё"})
    assert row.lobby == [LobbyEntry(BIG_ID, "Алиса", "ru")]
    assert row.settings.deadline_s == 60
    assert isinstance(row.created_at, float) and row.created_at > 1.7e9


async def test_one_open_game_per_channel(store: Store) -> None:
    await new_game(store, channel=10)
    with pytest.raises(ChannelBusy):
        await new_game(store, channel=10)
    other = await new_game(store, channel=11)
    await store.set_status(other, "aborted")
    assert await new_game(store, channel=11) > other  # a finished game frees its channel


async def test_commit_is_guarded_by_seq_and_writes_nothing_on_conflict(store: Store) -> None:
    game_id = await started(store)
    await commit(store, game_id, 0, 1)
    with pytest.raises(Conflict):
        await commit(store, game_id, 0, 2)  # a stale writer: still believes the game is at seq 0
    row = await store.load_game(game_id)
    assert row is not None and (row.seq, row.state) == (1, {"turn": 1})
    assert [a.seq for a in await store.actions(game_id)] == [1]  # the conflicting action was rolled back


async def test_concurrent_commits_on_one_game_apply_exactly_one(store: Store) -> None:
    game_id = await started(store)
    results = await asyncio.gather(*(commit(store, game_id, 0, 1) for _ in range(5)), return_exceptions=True)
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, (Conflict, sqlite3.IntegrityError)) for r in results if r is not None)
    assert [a.seq for a in await store.actions(game_id)] == [1]


async def test_many_games_commit_concurrently(store: Store) -> None:
    games = [await started(store, channel=100 + i) for i in range(6)]

    async def play(g: int) -> None:
        for s in range(5):
            await commit(store, g, s, s + 1)

    await asyncio.gather(*(play(g) for g in games))
    for g in games:
        row = await store.load_game(g)
        assert row is not None and row.seq == 5


async def test_actions_in_order_and_the_latest_n(store: Store) -> None:
    game_id = await started(store)
    for s in range(4):
        await commit(store, game_id, s, s + 1)
    assert [a.seq for a in await store.actions(game_id, after_seq=1)] == [2, 3, 4]
    latest = await store.actions(game_id, limit=2)
    assert [(a.seq, a.action, a.events, a.user_id) for a in latest] == [(3, {"n": 3}, [{"e": 3}], BIG_ID),
                                                                         (4, {"n": 4}, [{"e": 4}], BIG_ID)]
    assert await store.last_seq_of_seat(game_id, 0) == 4
    assert await store.last_seq_of_seat(game_id, 1) == 3


async def test_published_seq_only_grows(store: Store) -> None:
    game_id = await started(store)
    await store.mark_published(game_id, 3)
    await store.mark_published(game_id, 2)  # a late publisher must not move it back
    row = await store.load_game(game_id)
    assert row is not None and row.published_seq == 3


async def test_deadlines_reminders_and_shift(store: Store) -> None:
    game_id = await started(store)
    assert await store.deadlines(game_id) == [Deadline(0, 100.5, 50.25)]
    assert [tuple(d) for d in await store.due_reminders(60.0)] == [(game_id, 0)]
    assert await store.due_deadlines(60.0) == []
    assert await store.shift_deadlines(10.0) == 1
    assert await store.deadlines(game_id) == [Deadline(0, 110.5, 60.25)]
    await store.clear_reminder(game_id, 0)
    assert await store.due_reminders(100.0) == []
    await store.set_reminder(game_id, 0, 70.0)
    await commit(store, game_id, 0, 1, deadlines=[Deadline(1, 200.0, None)])
    assert await store.deadlines(game_id) == [Deadline(1, 200.0, None)]
    assert [tuple(d) for d in await store.due_deadlines(200.0)] == [(game_id, 1)]
    await store.set_status(game_id, "finished")
    assert await store.deadlines(game_id) == []  # an ended game has no deadlines


async def test_messages_meta_and_user_sets(store: Store) -> None:
    game_id = await started(store)
    await store.set_message(game_id, "board", BIG_ID, BIG_ID + 1, {"k": 1})
    await store.set_message(game_id, "board", BIG_ID, BIG_ID + 2)
    msg = await store.get_message(game_id, "board")
    assert msg is not None and (msg.channel_id, msg.message_id, msg.data) == (BIG_ID, BIG_ID + 2, {})
    assert await store.get_message(game_id, "none") is None
    assert await store.get_meta("k") is None
    await store.set_meta("k", "a")
    await store.set_meta("k", "b")
    assert await store.get_meta("k") == "b"
    await store.mark_dm_closed(BIG_ID)
    await store.mark_dm_closed(BIG_ID)  # already marked: ignored
    assert await store.dm_closed_users() == {BIG_ID}
    await store.clear_dm_closed(BIG_ID)
    assert await store.dm_closed_users() == set()
    assert await store.set_following(game_id, 7, True) is True
    assert await store.set_following(game_id, 7, True) is False
    assert await store.followers(game_id) == [7]
    assert await store.set_following(game_id, 7, False) is True
    await store.set_remind_dm(BIG_ID, True)
    await store.set_remind_dm(8, True)
    await store.set_remind_dm(8, False)
    assert await store.remind_dm([BIG_ID, 8, 9]) == {BIG_ID}


async def test_broken_games_are_marked_once(store: Store) -> None:
    game_id = await started(store)
    assert await store.mark_broken(game_id, "bad state") is True
    assert await store.mark_broken(game_id, "bad state") is False
    assert await store.broken_games() == {game_id: "bad state"}
    assert await store.deadlines(game_id) == []
    await store.clear_broken(game_id)
    assert await store.broken_games() == {}


async def test_indexes_of_open_games_by_guild_and_by_user(store: Store) -> None:
    lobby = await new_game(store, channel=20, guild=3, host=5)
    running = await started(store, channel=21)  # seats [[BIG_ID], [7]]
    done = await started(store, channel=22)
    await store.set_status(done, "finished")
    assert sorted(r.id for r in await store.open_games()) == [lobby, running]
    assert [r.id for r in await store.games_in_guild(3)] == [lobby]
    assert [r.id for r in await store.games_of_user(7)] == [running]
    assert [r.id for r in await store.games_of_user(5)] == [lobby]
    assert [r.id for r in await store.games_of_user(77)] == []  # "7" occurs in "77" only as text


async def test_save_state_is_guarded_by_seq(store: Store) -> None:
    game_id = await started(store)
    await store.save_state(game_id, 0, '{"turn":9}', GameSettings(), {"o": 1})
    with pytest.raises(Conflict):
        await store.save_state(game_id, 5, '{"turn":8}', GameSettings(), {})
    row = await store.load_game_text(game_id)
    assert row is not None and row[1] == '{"turn":9}' and row[0].options == {"o": 1}


async def test_a_session_plays_through_the_store(store: Store) -> None:
    """The session layer on top (create, join, start, a move) works unchanged on the backend."""
    sessions = SessionManager(store)
    alice, bob = UserInfo(1, "alice"), UserInfo(2, "bob")
    session = await sessions.create(guild_id=5, channel_id=300, host=alice, game_key="toy", options={})
    await sessions.join(session.id, bob)
    await sessions.start(session.id, alice.id, seed=3)
    row = await store.load_game(session.id)
    assert row is not None and row.status == "running" and row.seq == 0


async def test_the_connection_runs_other_modules_sqlite_sql(store: Store) -> None:
    """Tables other parts of the bot create on the store's connection (the stats, issue 18) and their
    upserts that read the existing row's column bare (``n = n + excluded.n``) work on both."""
    async with store.transaction() as db:
        await db.execute("CREATE TABLE IF NOT EXISTS tally (k INTEGER NOT NULL, who TEXT, n INTEGER NOT NULL,"
                         " t REAL NOT NULL DEFAULT 0, PRIMARY KEY (k, who))")
    for add in (1, 2, 4):
        await store.write("INSERT INTO tally (k, who, n, t) VALUES (?, ?, ?, ?) ON CONFLICT (k, who) DO UPDATE SET"
                          " n = n + excluded.n, t = MAX(t, excluded.t)", (BIG_ID, "ё", add, add / 2))
    await store.write("INSERT OR IGNORE INTO tally (k, who, n) VALUES (?, ?, ?)", (BIG_ID, "ё", 100))
    async with store.db.execute("SELECT k, who, n, t FROM tally") as cur:
        assert [tuple(r) for r in await cur.fetchall()] == [(BIG_ID, "ё", 7, 2.0)]


# ---- the translation itself (no server needed) --------------------------------------------------
def test_translation_of_placeholders_and_sqlite_constructs() -> None:
    tr = translate("SELECT a FROM t WHERE b = ? AND c = '?' AND d = ?")
    assert (tr.sql, tr.kind) == ("SELECT a FROM t WHERE b = $1 AND c = '?' AND d = $2", "rows")
    assert translate("SELECT 1 WHERE instr(x, ?2) > 0 OR y = ?1").sql == "SELECT 1 WHERE strpos(x, $2) > 0 OR y = $1"
    assert translate("UPDATE g SET p = MAX(p, ?) WHERE id = ?").sql == "UPDATE g SET p = GREATEST(p, $1) WHERE id = $2"
    assert translate("INSERT OR IGNORE INTO f (a, b) VALUES (?, ?)").sql == (
        "INSERT INTO f (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING")
    assert translate("INSERT OR REPLACE INTO f (a, b) VALUES (?, ?)", (), {"f": ["a"]}).sql == (
        "INSERT INTO f (a, b) VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET b = excluded.b")
    ins = translate("INSERT INTO games (x) VALUES (?)", {"games"})
    assert ins.sql.endswith("RETURNING id") and ins.returns_id
    ddl = translate("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL, n INTEGER, s TEXT DEFAULT 'REAL')")
    assert ddl.sql == ("CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, at DOUBLE PRECISION,"
                       " n BIGINT, s TEXT DEFAULT 'REAL')")
    assert translate("INSERT INTO u (k, n) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET n = n + excluded.n").sql == (
        "INSERT INTO u (k, n) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET n = u.n + excluded.n")
    assert translate("PRAGMA foreign_keys=ON").kind == "noop"
    assert translate("BEGIN IMMEDIATE").sql == "BEGIN"


# ---- copying a SQLite database into PostgreSQL -----------------------------------------------------
async def test_copy_db_copies_everything_once(tmp_path: Path, pg_server: PgServer | None) -> None:
    url = await new_pg_url(pg_server)
    src = await Store.open(tmp_path / "src.sqlite3")
    game_id = await started(src)
    await commit(src, game_id, 0, 1)
    await src.set_message(game_id, "board", 1, 2, {"k": "ё"})
    await src.set_meta("secret", "s3")
    await src.mark_dm_closed(BIG_ID)
    lobby = await new_game(src, channel=11)
    await Stats(src).setup()  # a table made by another module on the store's connection
    await src.write("INSERT INTO stat_totals (guild_id, game, result, games, moves, timed_moves, think_s)"
                    " VALUES (?, 'toy', 'finished', 1, 3, 2, 1.5)", (BIG_ID,))
    await src.close()

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot.tools.copy_db", str(tmp_path / "src.sqlite3"), url],
                              capture_output=True, text=True, timeout=60)

    first = await asyncio.to_thread(run)
    assert first.returncode == 0, first.stderr
    dst = await Store.open(url)
    try:
        row = await dst.load_game(game_id)
        assert row is not None and (row.seq, row.state, row.host_id) == (1, {"turn": 1}, BIG_ID)
        assert [a.action for a in await dst.actions(game_id)] == [{"n": 1}]
        assert await dst.deadlines(game_id) == [Deadline(0, 100.5, 50.25)]
        msg = await dst.get_message(game_id, "board")
        assert msg is not None and msg.data == {"k": "ё"}
        assert await dst.get_meta("secret") == "s3"
        assert await dst.dm_closed_users() == {BIG_ID}
        assert sorted(r.id for r in await dst.open_games()) == [game_id, lobby]
        async with dst.db.execute("SELECT guild_id, moves, think_s FROM stat_totals") as cur:
            assert [tuple(r) for r in await cur.fetchall()] == [(BIG_ID, 3, 1.5)]
        await Stats(dst).setup()  # its schema version came along: nothing to create again
        fresh = await new_game(dst, channel=99)
        assert fresh > lobby  # the id sequence continues after the copied games
    finally:
        await dst.close()
    again = await asyncio.to_thread(run)  # the target has games now: refuse, change nothing
    assert again.returncode != 0 and "already" in again.stderr
