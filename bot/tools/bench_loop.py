"""Benchmark: how long the event loop stalls while a very long finished game is replayed and recorded.

``bench_loop()`` returns the figures ``python -m bot.bench`` reports (issue 22, "the event loop is
never blocked"):

- ``loop_lag_ms_max``: the longest stall of the event loop (a 5 ms ticker's lateness) while a
  finished game of 25,000 actions is replayed through ``cogs/stats.py`` (every text page, then the
  animated history) and, at the same time, its stats are recorded (``Stats.record``);
- ``status_answer_ms_max`` / ``_p50``: meanwhile another user's ``/game status``-like request
  (``SessionManager.get`` of another running game and its status text), one every 20 ms;
- ``loop_replay_s`` (pages and animation, wall), ``loop_record_s``, ``loop_replay_pages``,
  ``loop_game_actions`` and ``loop_stalls_logged`` (warnings of :mod:`bot.core.loopwatch`, threshold 250 ms);
- ``loop_gc_full_ms_max`` / ``loop_gc_full_count``: the full garbage collections meanwhile (each one
  stops every thread, the loop's too, for as long as the whole heap takes to scan).

The game is realistic rather than synthetic: the first registered game asking for the ``loop``
measurement (:class:`bot.games.manifest.Bench`), with its manifest's ``long_game`` options, between five
players (classic Godstorm: world domination) who, for most of the game, avoid the manifest's ``patient``
action types (Godstorm's players attack one die roll at a time, the way a game played over weeks by
clicking piles up actions), then press on with the conformance kit's choices until one of them wins;
every action goes through the rules, with the events they produce, a ``platform.prompt`` for the seats
newly asked to act (as the session layer records) and timestamps 2-90 s apart. It is created through
the session layer and its log written in one transaction, as a finished game is stored.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from bot.core.i18n import t
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store, dumps
from bot.games.base import Action, Game
from bot.games.registry import available, manifest
from bot.tools.benchplay import Chooser, chooser, platform_game, subject

PLAYERS = 5
TICK = 0.005
"""The ticker's sleep: its lateness is the loop's lag."""
STATUS_EVERY = 0.02


def patient(key: str) -> Chooser:
    """The game's random player (:func:`bot.tools.benchplay.chooser`), but avoiding the manifest's
    ``bench.patient`` action types while it has another choice."""
    avoid = manifest(key).bench.patient
    choose = chooser(manifest(key))

    def pick(game: Game, seat: int, legal: list[Action], rnd: random.Random) -> Action:
        return choose(game, seat, [a for a in legal if a.get("type") not in avoid] or legal, rnd)

    return pick


async def finished_game(store: Store, actions: int, key: str, options: dict[str, Any], seed: int = 5) -> int:
    """A finished game of ``key`` of at least ``actions`` actions (see the module's docstring; a game
    that ends sooner, such as Godstorm's five-epoch ruleset, is for quick tests)."""
    sessions = SessionManager(store)
    users = [UserInfo(1000 + i, name) for i, name in enumerate(("Anna", "Boris", "Clara", "Dmitri", "Eve"))]
    session = await sessions.create(guild_id=1, channel_id=77, host=users[0], game_key=key, options=options)
    for user in users[1:PLAYERS]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, users[0].id, seed=seed)
    game = session.game
    row = session.row
    assert game is not None and row.seat_users is not None
    slow, choose = patient(key), chooser(manifest(key))
    rnd = random.Random(seed)
    clock = time.time() - 86400 * 30
    rows: list[tuple[Any, ...]] = []
    seq = row.seq
    asked = set(game.actors())
    while game.outcome() is None:
        seat = game.actors()[0]
        legal = game.legal_actions(seat)
        action = (slow if seq < actions else choose)(game, seat, legal, rnd)
        events = list(game.apply(seat, action))
        now_acting = set(game.actors())
        if fresh := sorted(now_acting - asked):
            events.append({"type": "platform.prompt", "seats": fresh})
        asked = now_acting
        seq += 1
        clock += rnd.uniform(2.0, 90.0)
        rows.append((row.id, seq, seat, row.seat_users[seat][0], dumps(action), dumps(events), clock))
    async with store.transaction() as db:
        await db.executemany("INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        await db.execute("UPDATE games SET state = ?, seq = ?, published_seq = ?, status = 'finished',"
                         " updated_at = ? WHERE id = ?", (game.to_json_text(), seq, seq, clock, row.id))
        await db.execute("DELETE FROM deadlines WHERE game_id = ?", (row.id,))
    return row.id


async def bench_loop(actions: int = 25_000, db: Path | None = None, key: str | None = None,
                     **options: Any) -> dict[str, float]:
    """The figures of the module's docstring, on a fresh database (in ``db``'s place or a temporary one),
    for game ``key`` (default: the first asking for ``loop``) with its ``long_game`` options, ``options``
    overriding them."""
    if key is None:
        key = subject("loop") or available()[0]
    if db is None:
        with tempfile.TemporaryDirectory() as tmp:
            return await bench_loop(actions, Path(tmp) / "loop.sqlite3", key, **options)
    from bot.core.loopwatch import LoopWatch
    from bot.core.stats import Stats
    from cogs.common import status_text
    from cogs.stats import StatsCog

    store = await Store.open(db)
    try:
        stats = Stats(store)
        await stats.setup()
        game_id = await finished_game(store, actions, key, {**manifest(key).bench.long_game, **options})
        sessions = SessionManager(store)
        host = UserInfo(1, "Host")
        other_key = platform_game([k for k in available() if k != key] or [key])
        other = await sessions.create(guild_id=1, channel_id=5, host=host, game_key=other_key, options={})
        for i in (2, 3):
            await sessions.join(other.id, UserInfo(i, f"Guest {i}"))
        await sessions.start(other.id, host.id, seed=3)
        cog = StatsCog(cast(Any, SimpleNamespace(store=store, stats=stats)))
        done = asyncio.Event()
        lags: list[float] = []
        answers: list[float] = []

        async def ticker() -> None:
            while not done.is_set():
                start = time.perf_counter()
                await asyncio.sleep(TICK)
                lags.append(time.perf_counter() - start - TICK)

        async def status_requests() -> None:
            # one request arrives every STATUS_EVERY whatever the loop does: a request that arrives
            # during a stall waits for it, so its answer time counts from its arrival
            due = time.perf_counter()
            while not done.is_set():
                due += STATUS_EVERY
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                session = await sessions.get(other.id)
                status_text(session, "en")
                answers.append(time.perf_counter() - due)

        async def replay() -> tuple[float, int, int]:
            start = time.perf_counter()
            row = await store.load_game(game_id)
            assert row is not None
            pages = await cog._replay_pages(row, "ru")
            for page in range(len(pages)):  # every page, as the buttons ask for them
                cog._page(pages, page, t(f"{key}.name", "ru"), game_id, "ru")
            animation = await cog._animation(row, "ru")
            return time.perf_counter() - start, len(pages), animation.frames

        async def record() -> float:
            start = time.perf_counter()
            recorded = await stats.record(game_id)
            assert recorded is not None
            return time.perf_counter() - start

        collections: list[float] = []
        started: list[float] = []

        def gc_timer(phase: str, info: dict[str, int]) -> None:
            if info["generation"] == 2:
                if phase == "start":
                    started[:] = [time.perf_counter()]
                elif started:
                    collections.append(time.perf_counter() - started.pop())

        watch = LoopWatch.start()
        gc.callbacks.append(gc_timer)
        background = [asyncio.create_task(ticker()), asyncio.create_task(status_requests())]
        try:
            await asyncio.sleep(0.05)
            (replay_s, pages, frames), record_s = await asyncio.gather(replay(), record())
        finally:
            done.set()
            await asyncio.gather(*background)
            watch.stop()
            gc.callbacks.remove(gc_timer)
        async with store.db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)) as cur:
            found = await cur.fetchone()
        return {
            "loop_lag_ms_max": round(max(lags) * 1000, 1),
            "loop_lag_ms_p99": round(sorted(lags)[int(0.99 * (len(lags) - 1))] * 1000, 1),
            "status_answer_ms_max": round(max(answers) * 1000, 1),
            "status_answer_ms_p50": round(statistics.median(answers) * 1000, 2),
            "loop_replay_s": round(replay_s, 2),
            "loop_record_s": round(record_s, 2),
            "loop_replay_pages": pages,
            "loop_replay_frames": frames,
            "loop_game_actions": int(found[0]) if found else 0,
            "loop_stalls_logged": watch.stalls,
            "loop_gc_full_ms_max": round(max(collections, default=0.0) * 1000, 1),
            "loop_gc_full_count": len(collections),
        }
    finally:
        await store.close()


if __name__ == "__main__":
    print(json.dumps(asyncio.run(bench_loop())))
