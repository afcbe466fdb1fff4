"""End to end with two bot processes sharing one PostgreSQL (issue 14): ``SHARD_COUNT=2``, one process
with ``SHARD_IDS=0`` (it receives every DM) and one with ``SHARD_IDS=1`` (the game's guild), both
on the same throwaway server, against the fake Discord routing by shard as Discord does.

A Pobeda game is played from DMs (applied by process 0) and from the channel (process 1); one
deadline is left to pass; the game ends by a concession. Process 0 applies a DM move whose post
Discord holds back, and the process holding that game's publishing lease is SIGKILLed: the other
takes over after the lease expires; the killed one is started again. Every move is applied once
(the log has no gap and no double), the channel shows each announcement once, and the deadline
fired once although two timers run.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.core.store import SCHEMA_VERSION, Store
from tests.e2e.helpers import (
    Table,
    actor_ids,
    assert_clean_output,
    custom_ids,
    latest_panel,
    open_lobby,
    play_panel,
    start_lobby,
    turn_posts,
    wait_dm_panel,
)
from tests.e2e.shards import ROOT, guild_on_shard, start_shard_bot
from tests.fake_discord import BotProcess, FakeDiscord
from tests.pg_server import PgServer, new_pg_url

pytestmark = pytest.mark.e2e

DEADLINE_HOURS = 0.01  # 36 s per move: moves (and the takeover of a killed publisher) come well within it
SPAN = DEADLINE_HOURS * 3600


async def query(url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


async def game(url: str) -> asyncpg.Record:
    (row,) = await query(url, "SELECT id, status, seq, published_seq FROM games ORDER BY id DESC LIMIT 1")
    return row


def what_the_processes_said(fake: FakeDiscord, panel: Any) -> str:
    """For a refused click: the panel's controls, and each process's lines about games, sessions,
    panels and interactions (which process built the panel, which one refused it, and why)."""
    keys = ("game ", "interaction", "panel", "reload", "lease", "stale", "WARNING", "ERROR")
    parts = [f"panel {panel.id}: {[c.get('custom_id') for c in panel.all_components()]}"]
    for n, proc in enumerate(fake._processes):
        lines = [line for line in proc.output().splitlines() if any(k in line for k in keys)]
        parts.append(f"--- process {n} ---\n" + "\n".join(lines[-40:]))
    return "\n".join(parts)


async def move(table: Table, url: str, *, from_channel: bool) -> int:
    """The player pinged by the latest turn post moves from the channel (/game hand: shard 1, process 1)
    or from their DM panel (shard 0, process 0). Returns the number of actions taken (✅ answers)."""
    fake = table.fake
    seq = (await game(url))["seq"]
    user = table.by_id(actor_ids(table)[0])
    if from_channel:
        r = await fake.slash(user, table.channel, "game hand", timeout=20)
        assert r.ephemeral, r.content
        panel = r.message
    else:
        panel = await wait_dm_panel(table, user, timeout=40)
    r = await play_panel(fake, user, panel)
    assert r.content.startswith("✅"), f"{r.content}\n{what_the_processes_said(fake, panel)}"
    taken = 1
    while latest_panel([r.message]) is not None:  # a follow-up decision of the same seat
        r = await play_panel(fake, user, r.message)
        assert r.content.startswith("✅"), r.content
        taken += 1
    assert (await game(url))["seq"] >= seq + taken
    return taken


async def announced(table: Table, url: str, timeout: float = 40) -> None:
    """Wait until every committed move is announced (and a turn post names who acts now)."""
    for _ in range(int(timeout * 10)):
        row = await game(url)
        if row["published_seq"] >= row["seq"] and turn_posts(table):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"moves not announced within {timeout} s: {dict(await game(url))}")


async def test_two_processes_share_a_game_and_survive_a_kill(tmp_path: Path, pg_server: PgServer | None) -> None:
    url = await new_pg_url(pg_server, "ce")
    async with FakeDiscord(shard_count=2) as fake:
        guild = await guild_on_shard(fake, 1, 2)
        channel = fake.create_channel(guild, "games")
        users = {name: fake.create_user(name) for name in ("alice", "bob")}
        for user in users.values():
            fake.add_member(guild, user)
        # both start at once on an empty database: one migrates, the other waits and finds it done
        p0, p1 = await asyncio.gather(
            start_shard_bot(fake, tmp_path / "p0.sqlite3", shard_count=2, shard_ids=[0], guild_ids=[guild.id],
                            database_url=url),
            start_shard_bot(fake, tmp_path / "p1.sqlite3", shard_count=2, shard_ids=[1], guild_ids=[guild.id],
                            database_url=url))
        table = Table(fake, p1, tmp_path / "unused.sqlite3", guild, channel, users)
        try:
            lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"], deadline_hours=DEADLINE_HOURS)
            started = await start_lobby(table, "alice", lobby)
            for _ in range(100):  # committed before its answer, unless the answer was deferred
                if (row := await game(url))["status"] == "running":
                    break
                await asyncio.sleep(0.1)
            assert row["status"] == "running", (dict(row), started.text)
            await announced(table, url)
            taken = 0
            for n in range(3):  # DM (process 0), channel (process 1), DM
                taken += await move(table, url, from_channel=n % 2 == 1)
                await announced(table, url)
            # a DM move applied by process 0; Discord holds its post back (429, retry in 8 s). The process
            # holding the game's publishing lease meanwhile (whichever claimed it first) is SIGKILLed: the
            # other announces the move once the lease has expired, and goes on alone
            game_id = (await game(url))["id"]
            posts_path = f"/channels/{channel.id}/messages"
            fake.rate_limit_next(retry_after=8, route_contains=posts_path, method="POST")
            taken += await move(table, url, from_channel=False)
            await fake.wait_for(lambda: any(r.status == 429 for r in fake.requests_matching(posts_path, "POST")),
                                timeout=10)
            (lease,) = await query(url, "SELECT owner FROM leases WHERE name = $1", f"publish:{game_id}")
            owner_pid = int(lease["owner"].split(":")[1])
            victim, survivor = (p0, p1) if owner_pid == p0.pid else (p1, p0)
            assert victim.pid == owner_pid
            await victim.kill()
            killed_at = time.monotonic()
            await announced(table, url, timeout=60)
            took_over = time.monotonic() - killed_at
            assert took_over > 8  # not the dead owner's retry: the survivor, after the lease expired
            taken += await move(table, url, from_channel=survivor is p1)  # the survivor alone goes on
            await announced(table, url)
            await victim.start(timeout=90)
            for n in range(2):  # DM, channel: both processes again
                taken += await move(table, url, from_channel=n % 2 == 1)
                await announced(table, url)
            # nobody moves: the deadline passes, and two timers run
            seq = (await game(url))["seq"]
            for _ in range(int(SPAN + 30) * 10):
                if (await game(url))["seq"] > seq:
                    break
                await asyncio.sleep(0.1)
            await announced(table, url)
            await asyncio.sleep(3)  # several more ticks of both timers
            # the game ends: a player concedes in the channel
            alice = table.user("alice")
            r = await fake.slash(alice, channel, "game leave")
            assert r.message is not None, r.content
            done = await fake.click(alice, r.message, custom_id=custom_ids(r.message, "tt:")[0])
            assert done.content.startswith("✅"), done.content
            await fake.wait_for(lambda: any(m.content.startswith("🏁") for m in fake.channel_messages(channel)),
                                timeout=20)
            row = await game(url)
            assert row["status"] == "finished"
        finally:
            await asyncio.gather(p0.stop(), p1.stop(), return_exceptions=True)

        game_id = row["id"]
        actions = await query(url, "SELECT seq, user_id, events, created_at FROM actions WHERE game_id = $1 ORDER BY seq",
                          game_id)
        seqs = [a["seq"] for a in actions]
        assert seqs == list(range(1, len(seqs) + 1))  # no gap, no double
        timeouts = [a["seq"] for a in actions if any(e.get("type") == "platform.timeout"
                                                      for e in json.loads(a["events"]))]
        assert timeouts, "the deadline left to pass did not fire"
        # Pobeda's turns follow one another: a seat's deadline starts with the move before; a deadline
        # fired twice (by both timers) would be a second timeout right after the first
        for seq in (s for s in timeouts if s > 1):
            waited = actions[seq - 1]["created_at"] - actions[seq - 2]["created_at"]
            assert waited >= SPAN - 1, (seq, waited)
        assert len(actions) == taken + len(timeouts)  # every ✅ answer is one action, plus the timeouts
        assert row["published_seq"] == row["seq"] == len(actions)

        messages = fake.channel_messages(channel)
        # each publish posts (or edits in) the board named after the last move it announces: a move
        # announced twice would leave two messages naming one sequence number
        names = [a.filename for m in messages for a in m.attachments if a.is_png]
        boards = [int(m.group(1)) for name in names if (m := re.fullmatch(rf"pobeda-{game_id}-(\d+)\.png", name))]
        assert len(boards) == len(names) and len(boards) == len(set(boards)), names
        assert max(boards) == row["seq"]  # the last move is on the board
        # each timeout is told once in the channel
        told = [m.id for m in messages for line in m.content.splitlines() if "ran out of time" in line]
        assert len(told) == len(timeouts), told
        # one post per announcement nonce reached Discord as a new message
        posts = Counter(json.dumps(r.json.get("nonce")) for r in fake.requests_matching(
            f"/channels/{channel.id}/messages", method="POST") if r.status == 200 and isinstance(r.json, dict))
        for process in (p0, p1):
            assert "cluster: process" in process.output()  # both ran the cluster side (leases, listener)
            assert_clean_output(process.output())
        print(f"\ncluster e2e: {len(actions)} actions, {len(messages)} channel messages, "
              f"{sum(posts.values())} channel POSTs ({sum(n - 1 for n in posts.values() if n > 1)} repeated "
              f"nonces); process {0 if victim is p0 else 1} held the lease and was killed, process {0 if survivor is p0 else 1} "
              f"announced the move {took_over:.1f} s later")


async def test_a_bot_older_than_the_database_refuses_to_start(tmp_path: Path, pg_server: PgServer | None) -> None:
    """Another process migrated the database further than this bot knows: it stops at once with one
    line naming the problem (exit status 2, no traceback), changing nothing."""
    url = await new_pg_url(pg_server, "old")
    store = await Store.open(url)
    await store.write("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    await store.close()
    async with FakeDiscord() as fake:
        bot = BotProcess(fake, tmp_path / "unused.sqlite3", extra_env={"DATABASE_URL": url}, cwd=ROOT)
        with pytest.raises(RuntimeError, match="exited with 2"):
            await bot.start(timeout=60)
        output = bot.output()
    assert "Traceback" not in output, output[-3000:]
    last = output.strip().splitlines()[-1]
    assert last.startswith(f"error: the database's schema version {SCHEMA_VERSION + 1} is newer than this bot's"), last
    assert [r["version"] for r in await query(url, "SELECT version FROM schema_version")] == [SCHEMA_VERSION + 1]
