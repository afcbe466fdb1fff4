"""Delivery figures of ``python -m bot.bench`` (issue 22), measured on the real bot process against the
fake Discord of the tests (tests/fake_discord, so they run from a checkout, not an installed wheel):

- ``announce_after_fault_s_p50`` / ``_p99``: a two-player game (the platform benchmarks' game, Pobeda)
  played through ``/game hand``; before each move the fake answers the next five message edits with 500 (the previous panel's strip,
  the cosmetic edit that used to hold the next post for 20 s or more); the time from the move's commit
  to the channel post that shows it;
- ``publish_backlog_1k_s``: a database holding 1,000 moves no post has announced yet (a game of the
  first manifest asking for ``backlog``, Godstorm, played by random legal actions with nobody publishing,
  as after a crash), the bot started on it:
  seconds from its ``ready`` to everything announced; ``publish_backlog_posts`` how many channel
  messages that took; ``publish_backlog_stalls`` the loop watchdog's warnings meanwhile;
- ``publish_backlog_sigterm_s``: the same start, SIGTERM sent once the first post is out: seconds
  until the process has exited (``publish_backlog_sigterm_rc`` its exit status).
"""

from __future__ import annotations

import asyncio
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.tools.benchplay import platform_game, play_one, subject

ROOT = Path(__file__).resolve().parents[2]
BOT_ENV = {"TIMER_INTERVAL": "0.5", "PUBLISH_INTERVAL": "0"}


async def bench_announce_after_fault(moves: int) -> dict[str, float]:
    """The ``announce_after_fault_*`` figures (the module's docstring) on the platform benchmarks' game."""
    from tests.e2e.gaps import GapMeter, step
    from tests.e2e.helpers import game_row, make_table, open_lobby, start_lobby
    from tests.fake_discord import FakeDiscord

    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            table = await make_table(fake, Path(tmp), ["alice", "bob"])
            key = platform_game()
            try:
                lobby = await open_lobby(table, "alice", key, ["alice", "bob"])
                await start_lobby(table, "alice", lobby)
                row = await fake.wait_for(
                    lambda: (r := game_row(table.db, table.channel.id))["status"] == "running" and r, timeout=30)
                meter = GapMeter(table.db, row["id"])
                stop = asyncio.Event()
                sampler = asyncio.create_task(meter.run(stop))
                rnd = random.Random(5)
                for _ in range(moves):
                    fake.fail_requests(500, "/channels/", method="PATCH", count=5)
                    if not await step(table, key, rnd):
                        break
                await fake.wait_for(lambda: meter.caught_up(game_row(table.db, table.channel.id)["seq"]),
                                    timeout=60)
                stop.set()
                await sampler
                gaps = sorted(meter.gaps().values())
            finally:
                await table.bot.stop()
    return {"announce_after_fault_s_p50": round(statistics.median(gaps), 3),
            "announce_after_fault_s_p99": round(gaps[min(len(gaps) - 1, round(0.99 * (len(gaps) - 1)))], 3),
            "announce_after_fault_moves": len(gaps)}


async def backlog_db(db: Path, guild_id: int, channel_ids: list[int], user_ids: list[int], moves: int,
                     key: str | None = None) -> int:
    """Games of ``key`` (default: the first game asking for the ``backlog`` measurement) in ``channel_ids``
    (one after another as each ends) holding ``moves`` actions that were committed and never published;
    returns the number of games."""
    key = key or subject("backlog") or platform_game()
    store = await Store.open(db)
    sessions = SessionManager(store)
    rng = random.Random(11)
    made = 0
    games = 0
    for channel_id in channel_ids:
        users = [UserInfo(u, f"p{i}") for i, u in enumerate(user_ids)]
        session = await sessions.create(guild_id=guild_id, channel_id=channel_id, host=users[0], game_key=key,
                                        options={})
        for user in users[1:]:
            await sessions.join(session.id, user)
        await sessions.start(session.id, users[0].id, seed=channel_id % 1000)
        games += 1
        while made < moves and await play_one(sessions, session.id, rng):
            made += 1
        if made >= moves:
            break
    await store.close()
    return games


async def bench_backlog(moves: int) -> dict[str, Any]:
    from tests.e2e.helpers import db_query
    from tests.fake_discord import BotProcess, FakeDiscord

    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            guild = fake.create_guild("bench")
            channels = [fake.create_channel(guild, f"games-{i}") for i in range(8)]
            users = [fake.create_user(f"p{i}") for i in range(3)]
            for user in users:
                fake.add_member(guild, user)
            pristine = Path(tmp) / "pristine.sqlite3"
            games = await backlog_db(pristine, guild.id, [c.id for c in channels], [u.id for u in users], moves)

            def unpublished(db: Path) -> int:
                return int(db_query(db, "SELECT COUNT(*) FROM games WHERE published_seq < seq")[0][0])

            # everything announced, timed from ready
            db = Path(tmp) / "run.sqlite3"
            shutil.copy(pristine, db)
            before = sum(len(fake.channel_messages(c)) for c in channels)
            bot = BotProcess(fake, db, guild_ids=[guild.id], extra_env=BOT_ENV, cwd=ROOT)
            await bot.start(timeout=60)
            started = time.perf_counter()
            await fake.wait_for(lambda: unpublished(db) == 0, timeout=300, interval=0.05)
            result["publish_backlog_1k_s"] = round(time.perf_counter() - started, 2)
            result["publish_backlog_games"] = games
            result["publish_backlog_posts"] = sum(len(fake.channel_messages(c)) for c in channels) - before
            result["publish_backlog_stalls"] = bot.output().count("stalled for")
            await bot.stop()

            # SIGTERM while the backlog is being published
            db = Path(tmp) / "term.sqlite3"
            shutil.copy(pristine, db)
            fake.forget_nonces()  # the same announcements again: new messages, not the first run's
            before = sum(len(fake.channel_messages(c)) for c in channels)
            bot = BotProcess(fake, db, guild_ids=[guild.id], extra_env=BOT_ENV, cwd=ROOT)
            await bot.start(timeout=60)
            await fake.wait_for(lambda: sum(len(fake.channel_messages(c)) for c in channels) > before, timeout=60,
                                interval=0.01)
            stopping = time.perf_counter()
            await bot.stop(timeout=30)
            result["publish_backlog_sigterm_s"] = round(time.perf_counter() - stopping, 2)
            result["publish_backlog_sigterm_rc"] = bot.returncode
    return result


async def bench_delivery(quick: bool) -> dict[str, Any]:
    result = await bench_announce_after_fault(10 if quick else 30)
    result.update(await bench_backlog(1000))
    return result


if __name__ == "__main__":
    import json

    print(json.dumps(asyncio.run(bench_delivery(quick=True)), indent=1))
