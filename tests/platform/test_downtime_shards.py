"""Downtime per shard (issue 14): several processes, each running some of ``SHARD_COUNT`` gateway shards,
share one store. A process away (its gateway cut, or crashed) must extend the deadlines of its own
shards' games only, for its own time away, and while it is away no other process may let those games'
deadlines pass (their players cannot reach the bot: Discord sends a guild's interactions to shard
``(guild_id >> 22) % shard_count`` alone).

Two "processes" are two Stores, SessionManagers and Downtimes on the throwaway PostgreSQL of
tests/pg_server.py, with shards 0 and 1 of 2; the clock is injected. The store's shard filter runs on
both backends. Expected shards come from how the test builds the guild ids, never from the bot's code.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.core.cluster import Cluster
from bot.core.config import Config
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Shards, Store
from bot.discord_app.app import HEARTBEAT_KEY, Downtime, TabletopBot
from bot.games import registry
from tests.pg_server import PgServer, new_pg_url
from tests.platform.toy import toy_manifest

ALICE, BOB = UserInfo(1, "alice"), UserInfo(2, "bob")
SPAN = 3600  # deadline_s of the test games
COUNT = 2
SNOWFLAKE_BASE = 1_100_000_000_000_000_000 >> 22  # the timestamp part of a 2024-ish Discord id


def guild_on(shard: int, n: int = 0, count: int = COUNT) -> int:
    """A realistic guild id Discord routes to ``shard`` of ``count``: its timestamp part (the id shifted
    right by 22 bits) is ``shard`` modulo ``count``; the low 22 bits are arbitrary."""
    stamp = SNOWFLAKE_BASE - SNOWFLAKE_BASE % count + shard + count * n
    return (stamp << 22) | 0x2A5F1


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Proc:
    """One bot process: its connection, session cache and per-shard downtime."""

    store: Store
    sessions: SessionManager
    downtime: Downtime


async def proc(url: str | Path, clock: Clock, shard: int | None) -> Proc:
    store = await Store.open(url)
    sessions = SessionManager(store, clock=clock)
    await sessions.restore()
    return Proc(store, sessions, Downtime(store, sessions, None if shard is None else Shards((shard,), COUNT)))


@pytest.fixture
async def url(pg_server: PgServer | None) -> str:
    return await new_pg_url(pg_server, "dts")


async def running_game(sessions: SessionManager, guild: int, channel: int) -> int:
    session = await sessions.create(guild_id=guild, channel_id=channel, host=ALICE, game_key="toy", options={},
                                    deadline_s=SPAN)
    await sessions.join(session.id, BOB)
    await sessions.start(session.id, ALICE.id, seed=3)
    return session.id


async def due_of(store: Store, game_id: int) -> float:
    (deadline,) = await store.deadlines(game_id)
    return deadline.due_at


@pytest.fixture
async def two(url: str) -> AsyncIterator[tuple[Proc, Proc, Clock, int, int]]:
    """A (shard 0) and B (shard 1) started and connected at T0; a game on each shard, both cached in
    both processes."""
    clock = Clock(float(int(time.time())))  # whole seconds: heartbeats are stored to the millisecond
    a, b = await proc(url, clock, 0), await proc(url, clock, 1)
    try:
        for p, shard in ((a, 0), (b, 1)):
            assert await p.downtime.started(clock.now) == 0.0  # a fresh database: nothing to extend
            assert await p.downtime.connected(clock.now, shard) == 0.0
        g0 = await running_game(a.sessions, guild_on(0), 700)
        g1 = await running_game(b.sessions, guild_on(1), 701)
        await a.sessions.get(g1)
        await b.sessions.get(g0)
        yield a, b, clock, g0, g1
    finally:
        for p in (a, b):
            await p.store.close()


async def test_a_gateway_outage_of_one_process_extends_only_its_shards_games(
        two: tuple[Proc, Proc, Clock, int, int]) -> None:
    a, b, clock, g0, g1 = two
    t0 = clock.now
    a.downtime.disconnected(t0 + 100, 0)
    assert a.downtime.away and not b.downtime.away
    assert await a.downtime.connected(t0 + 160, 0) == 60.0
    assert await due_of(a.store, g0) == pytest.approx(t0 + SPAN + 60)
    assert await due_of(a.store, g1) == pytest.approx(t0 + SPAN)  # shard 1's players could act all along
    # A's own copies: its game extended, its cached copy of B's game not
    assert a.sessions.sessions[g0].deadlines[0].due_at == pytest.approx(t0 + SPAN + 60)
    assert a.sessions.sessions[g1].deadlines[0].due_at == pytest.approx(t0 + SPAN)
    # B's cached copy of the shard-0 game is reloaded with the extension (the change stamp moved)
    assert (await b.sessions.get(g0)).deadlines[0].due_at == pytest.approx(t0 + SPAN + 60)
    # heartbeats: per shard, the unsharded key untouched
    assert float(await a.store.get_meta("last_alive:0/2") or 0) == pytest.approx(t0 + 160)
    assert float(await a.store.get_meta("last_alive:1/2") or 0) == pytest.approx(t0)
    assert await a.store.get_meta(HEARTBEAT_KEY) is None


async def test_a_restart_after_a_crash_extends_by_its_own_shards_time_away(
        url: str, two: tuple[Proc, Proc, Clock, int, int]) -> None:
    """B's heartbeat is fresh when A comes back: A still extends its games by the 100 s it was dead."""
    a, b, clock, g0, g1 = two
    t0 = clock.now
    await a.downtime.heartbeat(t0 + 40)  # A's last tick; it dies at ~t0 + 41
    await a.store.close()
    for t in (60, 80, 100, 120, 139):
        await b.downtime.heartbeat(t0 + t)  # B ticks on
    clock.now = t0 + 140
    again = await proc(url, clock, 0)
    try:
        assert await again.downtime.started(t0 + 140) == pytest.approx(100.0)
        assert await due_of(again.store, g0) == pytest.approx(t0 + SPAN + 100)
        assert await due_of(again.store, g1) == pytest.approx(t0 + SPAN)
        assert (await again.sessions.get(g0)).deadlines[0].due_at == pytest.approx(t0 + SPAN + 100)
        assert again.downtime.away  # until its shard connects: that time is added too
        assert await again.downtime.connected(t0 + 145, 0) == pytest.approx(5.0)
        assert await due_of(again.store, g0) == pytest.approx(t0 + SPAN + 105)
    finally:
        await again.store.close()


class Recorder:
    """The publisher as the timer sees it: the cluster (for the timer lease) and reminders recorded."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.cluster = Cluster(store, clock=clock)
        self.reminded: list[tuple[int, int, str | None]] = []

    async def remind(self, game_id: int, seat: int, kind: str | None = None) -> None:
        self.reminded.append((game_id, seat, kind))

    def request(self, game_id: int) -> None:
        pass


def timer_of(p: Proc, shard: int, clock: Clock, tmp_path: Path) -> TabletopBot:
    bot = TabletopBot(Config(token="x", database_path=tmp_path / "unused.sqlite3", shard_count=COUNT,
                             shard_ids=(shard,), timer_interval=1.0))
    bot.store, bot.sessions, bot.downtime = p.store, p.sessions, p.downtime
    bot.publisher = Recorder(p.store, clock)  # type: ignore[assignment]
    return bot


async def timeouts(store: Store, game_id: int) -> int:
    return sum(1 for a in await store.actions(game_id) if any(e.get("type") == "platform.timeout" for e in a.events))


async def test_the_timer_holds_the_deadlines_of_a_shard_whose_heartbeat_is_stale(
        two: tuple[Proc, Proc, Clock, int, int], tmp_path: Path) -> None:
    a, b, clock, g0, g1 = two
    t0 = clock.now
    timer = timer_of(b, 1, clock, tmp_path)
    a.downtime.disconnected(t0 + 10, 0)  # A's gateway is cut: it writes no heartbeat from here on
    clock.now = t0 + SPAN + 30  # both deadlines are past; A's heartbeat is an hour old
    await b.downtime.heartbeat(clock.now)  # the timer loop: heartbeat, then tick
    await timer.tick(clock.now)
    assert await timeouts(b.store, g1) == 1  # shard 1's player could have acted: timed out
    assert await timeouts(b.store, g0) == 0  # shard 0's could not: held
    assert await b.store.due_deadlines(clock.now) != []  # still due, only held
    # A is back: its game gets the time it was away, then times out once that has passed as well
    assert await a.downtime.connected(clock.now, 0) == pytest.approx(SPAN + 20)
    await b.downtime.heartbeat(clock.now)
    await timer.tick(clock.now)
    assert await timeouts(b.store, g0) == 0  # not due any more
    clock.now = t0 + 2 * SPAN + 21
    await a.downtime.heartbeat(clock.now)
    await b.downtime.heartbeat(clock.now)
    await timer.tick(clock.now)
    assert await timeouts(b.store, g0) == 1


async def test_a_heartbeat_older_than_three_ticks_and_15_s_counts_as_stale(
        two: tuple[Proc, Proc, Clock, int, int], tmp_path: Path) -> None:
    """A process that just missed a tick or two is still alive: its deadlines fire."""
    a, b, clock, g0, _ = two
    t0 = clock.now
    timer = timer_of(b, 1, clock, tmp_path)
    await a.downtime.heartbeat(t0 + SPAN)
    clock.now = t0 + SPAN + 14  # 14 s old: fresh (the limit: max(3 ticks of 1 s, 15 s))
    await b.downtime.heartbeat(clock.now)
    await timer.tick(clock.now)
    assert await timeouts(b.store, g0) == 1


async def test_a_shard_whose_gateway_drops_is_held_at_once_not_only_once_its_heartbeat_is_stale(
        url: str, two: tuple[Proc, Proc, Clock, int, int], tmp_path: Path) -> None:
    """A marks its shard's heartbeat away when the gateway drops: B's timer holds the shard-0 game
    although A's heartbeat is only 6 s old; A, crashing meanwhile, extends from the moment it went."""
    a, b, clock, g0, g1 = two
    t0 = clock.now
    timer = timer_of(b, 1, clock, tmp_path)
    await a.downtime.heartbeat(t0 + SPAN - 10)
    a.downtime.disconnected(t0 + SPAN - 5, 0)
    await a.downtime.mark_away(0)
    await a.downtime.heartbeat(t0 + SPAN - 1)  # a timer-loop pass meanwhile writes nothing for shard 0
    assert await a.store.get_meta("last_alive:0/2") == f"{t0 + SPAN - 5:.3f} away"
    clock.now = t0 + SPAN + 1
    await b.downtime.heartbeat(clock.now)
    await timer.tick(clock.now)
    assert (await timeouts(b.store, g0), await timeouts(b.store, g1)) == (0, 1)
    await a.store.close()  # A crashes while away; back 65 s after its gateway went
    again = await proc(url, clock, 0)
    try:
        assert await again.downtime.started(t0 + SPAN + 60) == pytest.approx(65.0)
        assert await due_of(again.store, g0) == pytest.approx(t0 + SPAN + 65)
        assert await again.downtime.connected(t0 + SPAN + 60, 0) == 0.0
        assert await again.store.get_meta("last_alive:0/2") == f"{t0 + SPAN + 60:.3f}"
        clock.now = t0 + SPAN + 66
        await b.downtime.heartbeat(clock.now)
        await timer.tick(clock.now)
        assert await timeouts(b.store, g0) == 1
    finally:
        await again.store.close()


async def test_a_clean_stop_marks_the_shards_away(url: str, two: tuple[Proc, Proc, Clock, int, int],
                                                 tmp_path: Path) -> None:
    """A stops (SIGTERM): B's timer holds the shard-0 game at once; A's restart counts from the stop."""
    a, b, clock, g0, g1 = two
    t0 = clock.now
    timer = timer_of(b, 1, clock, tmp_path)
    await a.downtime.heartbeat(t0 + SPAN - 3)
    await a.downtime.close(t0 + SPAN - 2)
    await a.store.close()
    assert await b.store.get_meta("last_alive:0/2") == f"{t0 + SPAN - 2:.3f} away"
    clock.now = t0 + SPAN + 1
    await b.downtime.heartbeat(clock.now)
    await timer.tick(clock.now)
    assert (await timeouts(b.store, g0), await timeouts(b.store, g1)) == (0, 1)
    again = await proc(url, clock, 0)
    try:
        assert await again.downtime.started(t0 + SPAN + 8) == pytest.approx(10.0)
        assert await due_of(again.store, g0) == pytest.approx(t0 + SPAN + 10)
    finally:
        await again.store.close()


async def test_a_process_with_one_shard_down_beats_only_for_the_connected_one(url: str) -> None:
    clock = Clock(1000.0)
    p = await proc(url, clock, None)
    p.downtime = Downtime(p.store, p.sessions, Shards((0, 1), COUNT))
    try:
        await p.downtime.started(1000.0)
        await p.downtime.connected(1001.0, 0)
        assert p.downtime.away  # shard 1 is not connected yet
        await p.downtime.heartbeat(1010.0)
        assert await p.store.get_meta("last_alive:0/2") == "1010.000"
        assert await p.store.get_meta("last_alive:1/2") == "1000.000 away"  # start-up's, until it connects
    finally:
        await p.store.close()


async def test_the_first_sharded_start_counts_from_the_deployment_before(url: str) -> None:
    """No heartbeat of this shard yet: the newest of the unsharded one or another shard count's counts
    (here a resharding from 2 to 4 shards after an earlier unsharded life)."""
    clock = Clock(5000.0)
    old = await proc(url, clock, None)
    game = await running_game(old.sessions, guild_on(0, count=4), 710)  # shard 0 of 4 (and of 2)
    await old.store.set_meta(HEARTBEAT_KEY, "4000.000")  # unsharded long ago
    await old.store.set_meta("last_alive:0/2", "4900.000")
    await old.store.set_meta("last_alive:1/2", "4950.000")  # the 2-shard deployment stopped at ~4950
    await old.store.close()
    clock.now = 5000.0
    store = await Store.open(url)
    sessions = SessionManager(store, clock=clock)
    await sessions.restore()
    downtime = Downtime(store, sessions, Shards((0,), 4))
    try:
        assert await downtime.started(5000.0) == pytest.approx(50.0)
        assert await due_of(store, game) == pytest.approx(5000 + SPAN + 50)
    finally:
        await store.close()


async def test_unsharded_downtime_is_as_before(tmp_path: Path) -> None:
    """One process without SHARD_COUNT: the single ``last_alive`` heartbeat, and every game in the
    store extended whatever its guild."""
    db = tmp_path / "u.sqlite3"
    clock = Clock(1000.0)
    p = await proc(db, clock, None)
    await p.downtime.started(1000.0)
    await p.downtime.connected(1000.0)
    g0 = await running_game(p.sessions, guild_on(0), 720)
    g1 = await running_game(p.sessions, guild_on(1), 721)
    await p.downtime.heartbeat(1040.0)
    await p.store.close()
    clock.now = 1100.0
    p = await proc(db, clock, None)
    try:
        assert await p.downtime.started(1100.0) == 60.0
        assert [await due_of(p.store, g) for g in (g0, g1)] == [1000 + SPAN + 60] * 2
        assert await p.store.get_meta(HEARTBEAT_KEY) == "1100.000"
        assert await p.store.meta_prefixed(HEARTBEAT_KEY + ":") == {}
    finally:
        await p.store.close()


# ---- the store's shard filter, on both backends -------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path, pg_server: PgServer | None) -> AsyncIterator[Store]:
    st = await Store.open(tmp_path / "f.sqlite3" if request.param == "sqlite" else await new_pg_url(pg_server, "dtf"))
    try:
        yield st
    finally:
        await st.close()


async def test_the_store_shifts_and_selects_deadlines_by_shard(store: Store) -> None:
    clock = Clock(2000.0)
    sessions = SessionManager(store, clock=clock)
    on0 = await running_game(sessions, guild_on(0, 3), 730)
    on1 = await running_game(sessions, guild_on(1, 5), 731)
    on1b = await running_game(sessions, guild_on(1, 8), 732)
    none = await running_game(sessions, guild_on(0, 1), 733)
    await store.write("UPDATE games SET guild_id = NULL WHERE id = ?", (none,))  # no guild: shard 0 (DMs)
    assert await store.shift_deadlines(30.0, Shards((1,), COUNT)) == 2
    assert [await due_of(store, g) for g in (on0, on1, on1b, none)] == [2000 + SPAN, 2000 + SPAN + 30,
                                                                          2000 + SPAN + 30, 2000 + SPAN]
    assert await store.shift_deadlines(5.0, Shards((0,), COUNT)) == 2
    assert [await due_of(store, g) for g in (on0, none)] == [2000 + SPAN + 5] * 2
    late = 2000 + SPAN + 40
    assert {g for g, _ in await store.due_deadlines(late, Shards((0,), COUNT))} == {on0, none}
    assert {g for g, _ in await store.due_deadlines(late, Shards((1,), COUNT))} == {on1, on1b}
    assert await store.due_deadlines(late, Shards((), COUNT)) == []
    assert {g for g, _ in await store.due_deadlines(late)} == {on0, on1, on1b, none}
    half = 2000 + SPAN / 2 + 31  # every pending reminder (at half time, shifted by 5 or 30 s) is due
    assert {g for g, _ in await store.due_reminders(half, Shards((1,), COUNT))} == {on1, on1b}
    assert {g for g, _ in await store.due_reminders(half, Shards((0, 1), COUNT))} == {on0, on1, on1b, none}
    assert await store.shift_deadlines(7.0) == 4  # unfiltered: every game, as before
