"""End to end with gateway shards (issue 14): one real bot process running both shards of
``SHARD_COUNT=2`` against the fake Discord routing as Discord does. The game's guild lives on
shard 1, so its channel's interactions reach the bot there, while every DM interaction comes on
shard 0. Also: /readyz follows the shards, the commands are synced once, logs are JSON lines with
the shard ids.

Two processes with one shard each on one PostgreSQL: sync once, each answers only its shard's
events. Two processes on one SQLite file are not a deployment this project supports (several
processes share PostgreSQL; the bot warns at start), so there is no such test. The two-process game
with a process killed mid-game uses :func:`tests.e2e.shards.start_shard_bot` too.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.e2e.helpers import (
    NO_WINDOW,
    Table,
    actor_ids,
    assert_clean_output,
    game_row,
    latest_panel,
    open_lobby,
    play_panel,
    start_lobby,
    turn_posts,
    wait_dm_panel,
)
from tests.e2e.shards import ShardBot, free_port, guild_on_shard, json_log_lines, start_shard_bot
from tests.fake_discord import FakeDiscord
from tests.pg_server import PgServer, new_pg_url

"""Pobeda's undo window (issue 27) off: these tests are about the platform, and a turn here is one play."""


pytestmark = pytest.mark.e2e


async def readyz(port: int) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/readyz") as answer:
        return answer.status, await answer.json()


async def ready_soon(port: int, timeout: float = 15.0, wanted: int = 200) -> tuple[int, dict[str, Any]]:
    """/readyz once it answers ``wanted`` (the fake sees a shard come or go a moment before the bot
    has read its READY or noticed the close), or its last answer after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        status, body = await readyz(port)
        if status == wanted or loop.time() > deadline:
            return status, body
        await asyncio.sleep(0.1)


async def move(table: Table, *, from_channel: bool) -> None:
    """The player pinged by the latest turn post moves, from the channel (/game hand, an ephemeral
    panel: guild interactions) or from their DM panel (DM interactions)."""
    fake = table.fake
    posts = len(turn_posts(table))
    seq = game_row(table.db, table.channel.id)["seq"]
    user = table.by_id(actor_ids(table)[0])
    if from_channel:
        r = await fake.slash(user, table.channel, "game hand", timeout=20)
        assert r.ephemeral, r.content
        panel = r.message
    else:
        panel = await wait_dm_panel(table, user)
    r = await play_panel(fake, user, panel)
    assert r.content.startswith("✅"), r.content
    while latest_panel([r.message]) is not None:  # a follow-up decision of the same seat
        r = await play_panel(fake, user, r.message)
        assert r.content.startswith("✅"), r.content
    await fake.wait_for(lambda: len(turn_posts(table)) > posts, timeout=20)
    assert game_row(table.db, table.channel.id)["seq"] > seq


async def test_one_process_with_two_shards_plays_from_channel_and_dms(tmp_path: Path) -> None:
    async with FakeDiscord(shard_count=2) as fake:
        guild = await guild_on_shard(fake, 1, 2)
        other = await guild_on_shard(fake, 0, 2, "other")  # a guild of shard 0 beside it
        channel = fake.create_channel(guild, "games")
        users = {name: fake.create_user(name) for name in ("alice", "bob")}
        for user in users.values():
            fake.add_member(guild, user)
        port = free_port()
        db = tmp_path / "bot.sqlite3"
        bot = await start_shard_bot(fake, db, shard_count=2, guild_ids=[guild.id],
                                    extra_env={"HEALTH_PORT": str(port), "LOG_FORMAT": "json"})
        table = Table(fake, bot, db, guild, channel, users)
        assert fake.shard_of(guild) == 1 and fake.shard_of(other) == 0
        # the identifies named both shards of 2, from the one process, and the commands went out once
        assert sorted(d["shard"] for _, d in fake.identifies) == [[0, 2], [1, 2]]
        assert [g for _, g in fake.sync_log if g == guild.id] == [guild.id]
        status, body = await ready_soon(port)
        assert (status, body) == (200, {"ready": True, "shards": {"0": True, "1": True}, "store": "ok"})

        lobby = await open_lobby(table, "alice", "pobeda", ["alice", "bob"], options=NO_WINDOW)  # on shard 1
        await start_lobby(table, "alice", lobby)
        await fake.wait_for(lambda: turn_posts(table), timeout=20)
        for n in range(4):
            await move(table, from_channel=n % 2 == 1)  # DM (shard 0), channel (shard 1), ...
        row = game_row(table.db, channel.id)
        assert row["status"] == "running" and row["seq"] >= 4

        # shard 1 cut off (the gateway refuses it for a while): not ready until it is back
        fake.gateway_down = True
        await fake.disconnect_gateway(shard=1)
        await fake.wait_for(lambda: not fake.shard_connected(1), timeout=5)
        status, body = await ready_soon(port, wanted=503)
        assert status == 503 and body["shards"] == {"0": True, "1": False}, body
        fake.gateway_down = False
        await fake.wait_for(lambda: fake.shard_connected(1), timeout=30)
        status, body = await ready_soon(port)
        assert status == 200, body
        await move(table, from_channel=True)  # shard 1 resumed: the channel answers again

        await bot.stop()
        assert bot.returncode == 0
        assert_clean_output(bot.output())
        lines = json_log_lines(bot.output())
        assert lines and all(line["shards"] == [0, 1] for line in lines)
        assert {"time", "level", "logger", "message"} <= set(lines[0])
        assert any(line["message"].startswith("ready as") for line in lines)
        assert any(line.get("game_id") == row["id"] for line in lines)  # "game %s: ..." lines carry it


async def test_two_processes_split_the_shards(tmp_path: Path, pg_server: PgServer | None) -> None:
    """Processes with SHARD_IDS=0 and SHARD_IDS=1 of 2 on one PostgreSQL: only the first syncs the
    commands; a guild-1 channel is answered by the second alone and DMs by the first alone (each
    keeps working while the other process is stopped). The game across processes, and a process
    killed mid-game, are the cross-process tests' part."""
    url = await new_pg_url(pg_server, "shards")
    async with FakeDiscord(shard_count=2) as fake:
        guild = await guild_on_shard(fake, 1, 2)
        channel = fake.create_channel(guild, "games")
        alice = fake.create_user("alice")
        fake.add_member(guild, alice)
        ports = [free_port(), free_port()]
        first = await start_shard_bot(fake, tmp_path / "unused0.sqlite3", shard_count=2, shard_ids=[0],
                                      guild_ids=[guild.id], database_url=url,
                                      extra_env={"HEALTH_PORT": str(ports[0])})
        second = await start_shard_bot(fake, tmp_path / "unused1.sqlite3", shard_count=2, shard_ids=[1],
                                       guild_ids=[guild.id], database_url=url,
                                       extra_env={"HEALTH_PORT": str(ports[1])})
        assert [g for _, g in fake.sync_log] == [guild.id, None]  # one guild PUT (+ /mygames globally), once
        assert "not synced by this process" in second.output()
        for port, shards in zip(ports, ({"0": True}, {"1": True}), strict=True):
            assert await ready_soon(port) == (200, {"ready": True, "shards": shards, "store": "ok"})

        await first.stop()  # shard 0 gone: the channel of guild 1 still answers, DMs cannot
        status = await fake.slash(alice, channel, "game status", timeout=20)
        assert status.ephemeral and status.content
        with pytest.raises(RuntimeError, match="shard 0"):
            await fake.slash(alice, fake.open_dm_channel(alice), "mygames", timeout=1)
        await first.start()
        await second.stop()  # and the other way round
        dm = await fake.slash(alice, fake.open_dm_channel(alice), "mygames", timeout=20)
        assert dm.content and dm.channel.guild_id is None
        with pytest.raises(RuntimeError, match="shard 1"):
            await fake.slash(alice, channel, "game status", timeout=1)
        await first.stop()
        for bot in (first, second):
            assert bot.returncode == 0
            assert_clean_output(bot.output())
        assert not (tmp_path / "unused0.sqlite3").exists() and not (tmp_path / "unused1.sqlite3").exists()


async def test_auto_takes_the_count_discord_recommends(tmp_path: Path) -> None:
    async with FakeDiscord(shard_count=3) as fake:
        guild = await guild_on_shard(fake, 2, 3)
        port = free_port()
        bot = ShardBot(fake, tmp_path / "bot.sqlite3", [0, 1, 2], guild_ids=[guild.id],
                       extra_env={"SHARD_COUNT": "auto", "HEALTH_PORT": str(port)})
        await bot.start(timeout=90)
        assert sorted(d["shard"] for _, d in fake.identifies) == [[0, 3], [1, 3], [2, 3]]
        ready = await ready_soon(port)
        assert ready == (200, {"ready": True, "shards": {"0": True, "1": True, "2": True}, "store": "ok"}), ready
        await bot.stop()
        assert bot.returncode == 0
        assert_clean_output(bot.output())
