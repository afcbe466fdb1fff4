"""Deadlines respect outages: time the bot is stopped, crashed or cut off from the gateway does not
count against a player (issue 16, point 5). Real SQLite; a fake clock for the session layer.

From first principles: players cannot act while the bot is away, so a deadline with R seconds left
when the bot went away must still have R seconds left when it is back.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from pathlib import Path

import pytest

from bot.core.config import Config
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app.app import HEARTBEAT_KEY, Downtime, TabletopBot
from bot.games import registry
from tests.platform.toy import toy_manifest

ALICE, BOB = UserInfo(1, "alice"), UserInfo(2, "bob")
SPAN = 3600  # deadline_s of the test games: due at start + 3600, reminder at start + 1800


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def running_game(sessions: SessionManager, channel: int = 100) -> int:
    session = await sessions.create(guild_id=5, channel_id=channel, host=ALICE, game_key="toy", options={},
                                    deadline_s=SPAN)
    await sessions.join(session.id, BOB)
    await sessions.start(session.id, ALICE.id, seed=99)
    return session.id


async def rows(store: Store) -> list[tuple[int, int, float, float | None]]:
    async with store.db.execute("SELECT game_id, seat, due_at, remind_at FROM deadlines ORDER BY game_id") as cur:
        return [(r[0], r[1], r[2], r[3]) for r in await cur.fetchall()]


async def test_store_shift_moves_every_deadline_and_pending_reminder(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "s.sqlite3")
    clock = Clock(1000.0)
    sessions = SessionManager(store, clock=clock)
    first = await running_game(sessions, 100)
    second = await running_game(sessions, 101)
    (seat,) = [s for g, s, _, _ in await rows(store) if g == second]
    await store.clear_reminder(second, seat)  # this one was already sent
    assert await store.shift_deadlines(250.0) == 2
    got = await rows(store)
    assert [(g, due, remind) for g, _, due, remind in got] == [
        (first, 1000 + SPAN + 250, 1000 + SPAN / 2 + 250),
        (second, 1000 + SPAN + 250, None),  # a sent reminder stays sent
    ]
    await store.close()


async def test_restart_extends_deadlines_by_the_time_since_the_last_heartbeat(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    store = await Store.open(db)
    clock = Clock(1000.0)
    sessions = SessionManager(store, clock=clock)
    downtime = Downtime(store, sessions)
    assert await downtime.started(1000.0) == 0.0  # a fresh install: nothing to extend
    game_id = await running_game(sessions)
    assert await downtime.connected(1000.0) == 0.0
    await downtime.heartbeat(1040.0)  # the last tick before a crash at ~1041
    await store.close()

    # restart at 1100: 60 s since the last heartbeat
    store = await Store.open(db)
    clock.now = 1100.0
    sessions = SessionManager(store, clock=clock)
    await sessions.restore()
    downtime = Downtime(store, sessions)
    assert await downtime.started(1100.0) == 60.0
    ((_, seat, due, remind),) = await rows(store)
    # 1040 -> due: 2560 s left at the heartbeat; 1100 -> due: the same 2560 s left now
    assert (due, remind) == (1000 + SPAN + 60, 1000 + SPAN / 2 + 60)
    assert await store.get_meta(HEARTBEAT_KEY) == "1100.000"
    # until the gateway is connected the bot is still away: that time is added too
    assert downtime.away
    assert await downtime.connected(1130.0) == 30.0
    assert not downtime.away
    ((_, _, due, remind),) = await rows(store)
    assert (due, remind) == (1000 + SPAN + 90, 1000 + SPAN / 2 + 90)
    # the old due time passes without a timeout; the extended one times the seat out
    clock.now = 1000 + SPAN + 1
    assert await store.due_deadlines(clock.now) == []
    assert await sessions.expire(game_id, seat) is None
    clock.now = 1000 + SPAN + 90
    assert await store.due_deadlines(clock.now) == [(game_id, seat)]
    events = await sessions.expire(game_id, seat)
    assert events and events[0]["type"] == "platform.timeout"
    await store.close()


async def test_gateway_outage_extends_memory_and_database_alike(tmp_path: Path) -> None:
    """After an outage, a move by the other player keeps the waiting seat's extended deadline
    (the in-memory copy the session layer writes back must be extended too)."""
    store = await Store.open(tmp_path / "o.sqlite3")
    clock = Clock(1000.0)
    sessions = SessionManager(store, clock=clock)
    downtime = Downtime(store, sessions)
    await downtime.started(1000.0)
    await downtime.connected(1000.0)
    game_id = await running_game(sessions)
    session = sessions.sessions[game_id]
    downtime.disconnected(1200.0)
    downtime.disconnected(1210.0)  # discord.py reports every failed reconnection: the first counts
    assert downtime.away
    assert await downtime.connected(1500.0) == 300.0
    ((_, seat, due, remind),) = await rows(store)
    assert (due, remind) == (1000 + SPAN + 300, 1000 + SPAN / 2 + 300)
    assert session.deadlines == {seat: (due, remind)}
    await store.close()


async def test_a_second_outage_during_the_catch_up_is_counted_on_its_own(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.sqlite3")
    clock = Clock(1000.0)
    sessions = SessionManager(store, clock=clock)
    downtime = Downtime(store, sessions)
    await downtime.started(1000.0)
    await downtime.connected(1000.0)
    game_id = await running_game(sessions)
    session = sessions.sessions[game_id]
    downtime.disconnected(1100.0)
    async with session.lock:  # a move in progress holds the game's lock
        back = asyncio.create_task(downtime.connected(1150.0))
        await asyncio.sleep(0.05)
        assert downtime.away  # still catching up: the timer loop must not fire anything yet
        downtime.disconnected(1160.0)
    assert await back == 50.0
    assert downtime.away
    assert await downtime.connected(1200.0) == 40.0
    ((_, _, due, _),) = await rows(store)
    assert due == 1000 + SPAN + 90
    await store.close()


class RecordingPublisher:
    """Stands in for Discord delivery: records reminders, has nothing in flight."""

    def __init__(self) -> None:
        self.reminded: list[tuple[int, int]] = []

    async def remind(self, game_id: int, seat: int, kind: str | None = None) -> None:
        self.reminded.append((game_id, seat))

    def request(self, game_id: int) -> None:
        pass

    async def idle(self) -> None:
        pass


async def test_timer_loop_fires_nothing_while_disconnected(tmp_path: Path) -> None:
    """The real timer loop: a deadline already past and a reminder already due stay untouched while
    the gateway is away, and no heartbeat is written; once back, both are acted on."""
    store = await Store.open(tmp_path / "t.sqlite3")
    clock = Clock(time.time() - 10 * SPAN)  # this game started long ago: its deadline is long past
    sessions = SessionManager(store, clock=clock)
    game_id = await running_game(sessions)
    clock.now = time.time() - 0.75 * SPAN  # this one's reminder (at half time) is due, its deadline not
    reminded_id = await running_game(sessions, channel=101)
    (reminded_seat,) = sessions.sessions[reminded_id].deadlines
    clock.now = time.time()
    bot = TabletopBot(Config(token="x", database_path=tmp_path / "t.sqlite3", timer_interval=0.2))
    publisher = RecordingPublisher()
    bot.store, bot.sessions, bot.publisher = store, sessions, publisher  # type: ignore[assignment]
    sessions.on_change = publisher.request
    bot.downtime = downtime = Downtime(store, sessions)
    await downtime.started(time.time())
    heartbeat = await store.get_meta(HEARTBEAT_KEY)
    loop = asyncio.create_task(bot._timer_loop())
    try:
        await asyncio.sleep(1.0)  # five ticks while away
        assert publisher.reminded == []
        assert await store.due_reminders(time.time()) == [(reminded_id, reminded_seat)]
        assert sessions.sessions[game_id].row.seq == 0
        assert await store.get_meta(HEARTBEAT_KEY) == heartbeat
        clock.now = time.time() + 2
        await bot._gateway_back()  # on_connect: the 1 s away moves the long-past deadline by 1 s
        for _ in range(50):
            await asyncio.sleep(0.1)
            if sessions.sessions.get(game_id) is None or sessions.sessions[game_id].row.seq >= 1:
                break
        async with store.db.execute("SELECT events FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)) as cur:
            first = await cur.fetchone()
        assert first is not None and json.loads(first[0])[0]["type"] == "platform.timeout"
        assert float(await store.get_meta(HEARTBEAT_KEY) or 0) > float(heartbeat or 0)
        assert publisher.reminded == [(reminded_id, reminded_seat)]
    finally:
        loop.cancel()
        await store.close()


async def test_timer_loop_waits_out_a_database_held_past_the_busy_timeout(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Another writer holds SQLite's write lock past the busy timeout (an operator's backup; in the suite,
    a test's holds back to back): the ticks meanwhile are skipped with one warning line each, never a
    traceback, and the first tick after the lock is released writes the heartbeat."""
    path = tmp_path / "t.sqlite3"
    store = await Store.open(path)
    await store.db.execute("PRAGMA busy_timeout=50")  # the bot's is 5 s: the same path, sooner
    sessions = SessionManager(store)
    bot = TabletopBot(Config(token="x", database_path=path, timer_interval=0.1))
    publisher = RecordingPublisher()
    bot.store, bot.sessions, bot.publisher = store, sessions, publisher  # type: ignore[assignment]
    bot.downtime = downtime = Downtime(store, sessions)
    await downtime.started(time.time())
    await bot._gateway_back()
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    held = await store.get_meta(HEARTBEAT_KEY)
    caplog.set_level(logging.WARNING, logger="bot.discord_app.app")
    loop = asyncio.create_task(bot._timer_loop())
    try:
        await asyncio.sleep(0.6)
        assert await store.get_meta(HEARTBEAT_KEY) == held  # nothing written while held
        skipped = [r for r in caplog.records if "database is busy" in r.getMessage()]
        assert skipped and all(r.exc_info is None and r.levelno == logging.WARNING for r in skipped)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        other.execute("COMMIT")
        for _ in range(30):
            await asyncio.sleep(0.1)
            if await store.get_meta(HEARTBEAT_KEY) != held:
                break
        assert float(await store.get_meta(HEARTBEAT_KEY) or 0) > float(held or 0)
    finally:
        loop.cancel()
        other.close()
        await store.close()
