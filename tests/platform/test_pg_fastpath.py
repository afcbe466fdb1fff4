"""The PostgreSQL move path's CPU savings keep its guarantees (issue 14's latency aim):

* :class:`bot.core.db.Pool`, the store's own connection pool: never more than its size, a connection
  given back inside a transaction is rolled back, one the server cut is replaced, a waiter cancelled
  while a connection was being handed to it passes it on;
* NOTIFY after the commit (:meth:`Store._announce`): every committed game reaches a listening
  process, the games committed together share notifications, a closing store sends what is pending,
  and a listener sees the committed move when it hears of it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from bot.core import store as store_mod
from bot.core.db import PgConnection, Pool
from bot.core.store import CHANGED_CHANNEL, Deadline, GameSettings, LobbyEntry, Store, changed_ids
from tests.pg_server import PgServer, new_pg_url
from tests.platform.test_cluster import wait_for


@pytest.fixture
async def url(pg_server: PgServer | None) -> str:
    return await new_pg_url(pg_server, "fast")


@pytest.fixture
async def store(url: str) -> AsyncIterator[Store]:
    st = await Store.open(url)
    try:
        yield st
    finally:
        await st.close()


# ---- the pool -------------------------------------------------------------------------------------------
async def test_pool_lends_at_most_its_size_and_every_statement_runs(url: str) -> None:
    pool = Pool(lambda: asyncpg.connect(url), 3)
    try:
        busy = 0
        most = 0

        async def sleeper() -> None:
            nonlocal busy, most
            conn = await pool.acquire()
            busy += 1
            most = max(most, busy)
            try:
                await conn.execute("SELECT pg_sleep(0.02)")
            finally:
                busy -= 1
                await pool.release(conn)

        await asyncio.gather(*(sleeper() for _ in range(12)))
        assert most == 3
        assert pool.idle == 3
    finally:
        await pool.close()


async def test_pool_rolls_back_what_a_connection_left_open(url: str) -> None:
    pool = Pool(lambda: asyncpg.connect(url), 1)
    try:
        conn = await pool.acquire()
        await conn.execute("CREATE TABLE IF NOT EXISTS left_open (n INT)")
        await conn.execute("BEGIN")
        await conn.execute("INSERT INTO left_open VALUES (1)")
        await pool.release(conn)
        again = await pool.acquire()
        assert again is conn  # the same connection, usable, its transaction undone
        assert not again.is_in_transaction()
        assert await again.fetchval("SELECT count(*) FROM left_open") == 0
        await pool.release(again)
    finally:
        await pool.close()


async def test_pool_replaces_a_connection_the_server_cut(url: str) -> None:
    pg_conn = await PgConnection.connect(url, pool_size=2)
    try:
        async with pg_conn.execute("SELECT 1") as cur:
            assert await cur.fetchone() == (1,)
        killer = await asyncpg.connect(url)
        try:
            await killer.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                 " WHERE pid <> pg_backend_pid() AND datname = current_database()"
                                 " AND backend_type = 'client backend'")
        finally:
            await killer.close()
        answers = []
        for _ in range(4):  # each cut connection fails its next statement once, then is replaced
            try:
                async with pg_conn.execute("SELECT 2") as cur:
                    answers.append(await cur.fetchone())
            except Exception:  # noqa: BLE001 - the statement on a cut connection
                answers.append(None)
        assert answers[-1] == (2,)
        assert answers.count(None) <= 2
    finally:
        await pg_conn.close()


async def test_a_waiter_cancelled_as_it_is_handed_a_connection_passes_it_on(url: str) -> None:
    pool = Pool(lambda: asyncpg.connect(url), 1)
    try:
        held = await pool.acquire()
        waiter = asyncio.create_task(pool.acquire())
        await asyncio.sleep(0.01)  # it waits for the only connection
        await pool.release(held)  # handed to the waiter ...
        waiter.cancel()  # ... which is cancelled before it runs
        with pytest.raises(asyncio.CancelledError):
            await waiter
        conn = await asyncio.wait_for(pool.acquire(), 2)  # not lost
        assert await conn.fetchval("SELECT 3") == 3
        await pool.release(conn)
    finally:
        await pool.close()


async def test_a_statement_cancelled_midway_leaves_the_pool_working(url: str) -> None:
    pg_conn = await PgConnection.connect(url, pool_size=1)
    try:
        slow = asyncio.create_task(pg_conn.execute("SELECT pg_sleep(5)").__aenter__())
        await asyncio.sleep(0.1)
        slow.cancel()  # its connection is still cancelling the query on the server when it comes back
        with pytest.raises(asyncio.CancelledError):
            await slow
        started = time.monotonic()
        async with pg_conn.execute("SELECT 4") as cur:
            assert await cur.fetchone() == (4,)
        assert time.monotonic() - started < 3  # not queued behind the cancelled sleep
    finally:
        await pg_conn.close()


async def test_closing_waits_for_a_running_statement(url: str) -> None:
    pg_conn = await PgConnection.connect(url, pool_size=2)
    running = asyncio.create_task(pg_conn.execute("SELECT pg_sleep(0.2)").__aenter__())
    await asyncio.sleep(0.05)
    await pg_conn.close()
    assert (await running).rowcount == -1  # it finished, then its connection closed


# ---- notifications -------------------------------------------------------------------------------------
class Listener:
    """A raw LISTEN on the channel (another process's), recording each payload and the stored seq of
    each game it names at the moment the notification arrived."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.payloads: list[str] = []
        self.seen: dict[int, int] = {}
        self._reads: list[asyncio.Task[None]] = []
        self._one_read = asyncio.Lock()

    async def __aenter__(self) -> Listener:
        self.conn = await asyncpg.connect(self.url)
        self.reader = await asyncpg.connect(self.url)
        await self.conn.add_listener(CHANGED_CHANNEL, self._heard)
        return self

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self.payloads.append(payload)
        self._reads.append(asyncio.create_task(self._read(changed_ids(payload))))

    async def _read(self, ids: list[int]) -> None:
        async with self._one_read:  # one connection reads
            for game_id in ids:
                seq = await self.reader.fetchval("SELECT seq FROM games WHERE id = $1", game_id)
                self.seen[game_id] = max(self.seen.get(game_id, -1), seq)

    def ids(self) -> list[int]:
        return [i for p in self.payloads for i in changed_ids(p)]

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.gather(*self._reads)
        await self.conn.close()
        await self.reader.close()


async def running_game(st: Store, channel: int) -> int:
    row = await st.create_game(guild_id=1, channel_id=channel, game="pobeda", host_id=1, lang="en", options={},
                               lobby=[LobbyEntry(1, "a", "en")], settings=GameSettings())
    row.status, row.seat_users, row.seat_info, row.seed = "running", [[1]], [{}], 1
    await st.start_game(row, '{"s": 0}')
    return row.id


async def move(st: Store, game_id: int, seq: int, deadlines: list[Deadline] | None = None) -> None:
    await st.commit_action(game_id, old_seq=seq, new_seq=seq + 1, status="running", seat_counts=[seq + 1],
                           settings=GameSettings(), seat=0, user_id=1, action={"n": seq}, events=[],
                           state_text=f'{{"s": {seq + 1}}}', deadlines=deadlines)


async def test_every_committed_game_is_heard_after_its_commit(store: Store, url: str) -> None:
    async with Listener(url) as heard:
        games = [await running_game(store, 700 + i) for i in range(20)]
        await wait_for(lambda: set(heard.ids()) >= set(games))  # the starts
        heard.payloads.clear()
        await asyncio.gather(*(move(store, g, 0) for g in games))
        await wait_for(lambda: set(heard.ids()) >= set(games))
        await asyncio.gather(*heard._reads)
        # the committed move is visible to whoever hears of it
        assert all(heard.seen[g] == 1 for g in games)
        # twenty commits at once share a few notifications (at most one per NOTIFY_SPACING_S)
        assert len(heard.payloads) < len(games)


async def test_a_move_that_changes_deadlines_notifies_too(store: Store, url: str) -> None:
    async with Listener(url) as heard:
        game_id = await running_game(store, 720)
        await wait_for(lambda: game_id in heard.ids())
        heard.payloads.clear()
        await move(store, game_id, 0, deadlines=[Deadline(0, time.time() + 60, None)])  # its own transaction
        await wait_for(lambda: game_id in heard.ids())
        await asyncio.gather(*heard._reads)
        assert heard.seen[game_id] == 1


async def test_closing_the_store_sends_the_pending_notification(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_mod, "NOTIFY_SPACING_S", 0.3)  # the second commit waits for its turn
    st = await Store.open(url)
    async with Listener(url) as heard:
        first = await running_game(st, 730)
        second = await running_game(st, 731)
        await st.close()  # right away: the second game's notification is still waiting
        await wait_for(lambda: {first, second} <= set(heard.ids()))


async def test_a_lost_race_sends_no_notification(store: Store, url: str) -> None:
    game_id = await running_game(store, 740)
    await move(store, game_id, 0)
    if store._announcer is not None:
        await store._announcer  # the start's and the move's notifications are out
    async with Listener(url) as heard:
        with pytest.raises(store_mod.Conflict):
            await move(store, game_id, 0)  # seq 0 is gone: the seq check refuses, nothing is written
        await asyncio.sleep(0.1)
        assert heard.payloads == []
    assert [a.seq for a in await store.actions(game_id)] == [1]


def test_payloads_name_one_or_several_games() -> None:
    assert changed_ids("12") == [12]
    assert changed_ids("3,5,8") == [3, 5, 8]
    assert changed_ids("x,4,") == [4]


# ---- lz4 ---------------------------------------------------------------------------------------------
async def test_states_are_compressed_with_lz4_where_the_server_has_it(store: Store, url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        try:
            await conn.execute("CREATE TEMP TABLE probe (x TEXT COMPRESSION lz4)")
        except asyncpg.PostgresError as exc:
            pytest.skip(f"this PostgreSQL has no lz4: {exc}")
        method = await conn.fetchval("SELECT CAST(attcompression AS TEXT) FROM pg_attribute"
                                     " WHERE attrelid = CAST('games' AS regclass) AND attname = 'state'")
        assert method == "l"
        game_id = await running_game(store, 750)
        big = '{"s": 1, "pad": "' + "ход " * 2000 + '"}'  # well past the size PostgreSQL compresses at
        await store.commit_action(game_id, old_seq=0, new_seq=1, status="running", seat_counts=[1],
                                  settings=GameSettings(), seat=0, user_id=1, action={"n": 0}, events=[],
                                  state_text=big)
        assert await conn.fetchval("SELECT pg_column_compression(state) FROM games WHERE id = $1", game_id) == "lz4"
        loaded = await store.load_game(game_id)
        assert loaded is not None and loaded.state == {"s": 1, "pad": "ход " * 2000}
    finally:
        await conn.close()


# ---- a move that replaces the deadlines: one statement on PostgreSQL, as the transaction on SQLite --------
@pytest.mark.parametrize("backend", ["postgresql", "sqlite"])
async def test_a_move_replaces_the_deadlines_only_when_its_seq_check_passes(
        backend: str, url: str, tmp_path: Any) -> None:
    st = await Store.open(url if backend == "postgresql" else tmp_path / "t.sqlite3")
    try:
        game_id = await running_game(st, 760)
        await st.commit_deadlines(game_id, [Deadline(0, 100.0, 50.0), Deadline(1, 200.0, None)])
        # seat 0 is done, seat 1's deadline moves and loses its reminder time, seat 2 gets one
        await move(st, game_id, 0, deadlines=[Deadline(1, 300.0, None), Deadline(2, 400.0, 350.0)])
        assert await st.deadlines(game_id) == [Deadline(1, 300.0, None), Deadline(2, 400.0, 350.0)]
        # a lost race (seq 0 is gone) writes neither the action nor the deadlines
        with pytest.raises(store_mod.Conflict):
            await move(st, game_id, 0, deadlines=[Deadline(0, 999.0, None)])
        assert await st.deadlines(game_id) == [Deadline(1, 300.0, None), Deadline(2, 400.0, 350.0)]
        assert [a.seq for a in await st.actions(game_id)] == [1]
        # the change stamp guards it too (a pause or vote stored by another process since)
        stamp = st.own_stamp(game_id)
        assert stamp is not None
        with pytest.raises(store_mod.Conflict):
            await st.commit_action(game_id, old_seq=1, new_seq=2, status="running", seat_counts=[2],
                                   settings=GameSettings(), seat=0, user_id=1, action={"n": 1}, events=[],
                                   state_text='{"s": 2}', deadlines=[], expect_updated=stamp - 1)
        assert len(await st.deadlines(game_id)) == 2
        # the game ends: no deadline is left
        await st.commit_action(game_id, old_seq=1, new_seq=2, status="finished", seat_counts=[2],
                               settings=GameSettings(), seat=0, user_id=1, action={"n": 1}, events=[],
                               state_text='{"s": 2}', deadlines=[], expect_updated=stamp)
        assert await st.deadlines(game_id) == []
        loaded = await st.load_game(game_id)
        assert loaded is not None and (loaded.seq, loaded.status, loaded.state) == (2, "finished", {"s": 2})
    finally:
        await st.close()
