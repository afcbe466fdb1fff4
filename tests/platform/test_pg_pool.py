"""The PostgreSQL store's pool of connections (bot/core/db.py, issue 14): a transaction holds its own
connection for the task that opened it, so other tasks' reads neither wait for it nor see what it has
not committed (PostgreSQL's read-committed isolation), a task started inside it does not run on its
connection, and two processes racing for one move end with one commit and one :class:`Conflict`
(the seq check comes before the action's row), while reads beside the loser go on working."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.core.store import Conflict, GameSettings, LobbyEntry, Store
from tests.pg_server import PgServer, new_pg_url


@pytest.fixture
async def url(pg_server: PgServer | None) -> str:
    return await new_pg_url(pg_server, "pool")


@pytest.fixture
async def store(url: str) -> AsyncIterator[Store]:
    st = await Store.open(url)
    try:
        yield st
    finally:
        await st.close()


async def test_reads_beside_an_open_transaction_see_only_committed_rows(store: Store) -> None:
    inside, finish = asyncio.Event(), asyncio.Event()

    async def writer() -> None:
        async with store.transaction() as db:
            await db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("k", "v"))
            # a task started here inherits the context, not the transaction's connection
            assert await asyncio.create_task(store.get_meta("k")) is None
            assert await store.get_meta("k") == "v"  # the transaction's own task sees its write
            inside.set()
            await finish.wait()

    task = asyncio.create_task(writer())
    await asyncio.wait_for(inside.wait(), 10)
    assert await asyncio.wait_for(store.get_meta("k"), 10) is None  # not blocked, not uncommitted
    finish.set()
    await task
    assert await store.get_meta("k") == "v"


async def test_two_processes_racing_for_a_move_one_commits_the_other_conflicts(store: Store, url: str) -> None:
    row = await store.create_game(guild_id=1, channel_id=5, game="pobeda", host_id=1, lang="en", options={},
                                  lobby=[LobbyEntry(1, "a", "en")], settings=GameSettings())
    row.status, row.seat_users, row.seat_info, row.seed = "running", [[1]], [{}], 1
    await store.start_game(row, '{"s": 0}')
    other = await Store.open(url)  # a second process's store
    try:
        async def move(st: Store, seat: int) -> str:
            try:
                await st.commit_action(row.id, old_seq=0, new_seq=1, status="running", seat_counts=[1],
                                       settings=GameSettings(), seat=seat, user_id=1, action={"n": seat},
                                       events=[], state_text=f'{{"s": {seat}}}')
            except Conflict:
                return "conflict"
            return "ok"

        for _ in range(5):  # the transactions overlap in most rounds; each round one wins
            results = await asyncio.gather(move(store, 0), move(other, 1), other.game_version(row.id))
            assert sorted(results[:2]) == ["conflict", "ok"]
            assert results[2] is not None
            loaded = await other.load_game(row.id)
            assert loaded is not None and loaded.seq == 1
            (stored,) = await store.actions(row.id)
            assert stored.action == {"n": 0 if results[0] == "ok" else 1}
            assert loaded.state == {"s": stored.seat}
            # back to seq 0 for the next round
            await store.write("DELETE FROM actions WHERE game_id = ?", (row.id,))
            await store.write("UPDATE games SET seq = 0 WHERE id = ?", (row.id,))
    finally:
        await other.close()
