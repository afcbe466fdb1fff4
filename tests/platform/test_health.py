"""/healthz and /readyz (issue 14) on a real aiohttp server on 127.0.0.1, the bot's readiness from
its shards and a real SQLite store, the per-shard bookkeeping, and LOG_FORMAT=json lines."""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.core.config import Config, ConfigError, load_config
from bot.core.health import HealthServer
from bot.core.logs import JsonFormatter, handler_for, logged_game_id, process_shards
from bot.core.shards import ShardLinks
from bot.core.store import Store
from bot.discord_app.app import TabletopBot, create_bot


async def get(port: int, path: str) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.json()


async def test_server_answers_alive_and_ready_or_not() -> None:
    state: dict[str, Any] = {"ready": False}

    async def readiness() -> tuple[bool, dict[str, Any]]:
        if state.get("boom"):
            raise ConnectionError("store gone")
        return state["ready"], {"shards": {"0": state["ready"]}}

    server = HealthServer(readiness, port=0)
    await server.start()
    try:
        assert server.port > 0
        assert await get(server.port, "/healthz") == (200, {"alive": True})
        assert await get(server.port, "/readyz") == (503, {"ready": False, "shards": {"0": False}})
        state["ready"] = True
        assert await get(server.port, "/readyz") == (200, {"ready": True, "shards": {"0": True}})
        state["boom"] = True
        assert await get(server.port, "/readyz") == (503, {"ready": False, "error": "ConnectionError"})
        assert (await get(server.port, "/healthz"))[0] == 200  # liveness does not depend on readiness
    finally:
        await server.close()
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(server.port, "/healthz")


async def test_a_taken_port_fails_clearly() -> None:
    async def readiness() -> tuple[bool, dict[str, Any]]:
        return True, {}

    first = HealthServer(readiness, port=0)
    await first.start()
    try:
        with pytest.raises(OSError):
            await HealthServer(readiness, port=first.port).start()
    finally:
        await first.close()


def config(tmp_path: Path, **env: str) -> Config:
    return load_config({"DISCORD_TOKEN": "x", "DATABASE_PATH": str(tmp_path / "t.sqlite3"), **env},
                       read_dotenv=False)


async def test_bot_is_ready_only_with_every_own_shard_and_the_store(tmp_path: Path) -> None:
    bot = create_bot(config(tmp_path, SHARD_COUNT="3", SHARD_IDS="0,2"))
    assert type(bot).__name__ == "ShardedTabletopBot" and bot.syncs_commands
    assert await bot.readiness() == (False, {"shards": {"0": False, "2": False}, "store": "not open yet"})
    bot.store = await Store.open(tmp_path / "t.sqlite3")
    try:
        await bot._gateway_back(0)
        ready, details = await bot.readiness()
        assert not ready and details == {"shards": {"0": True, "2": False}, "store": "ok"}
        await bot._gateway_back(2)
        assert await bot.readiness() == (True, {"shards": {"0": True, "2": True}, "store": "ok"})
        await bot._gateway_lost(2)
        assert not (await bot.readiness())[0]
        await bot._gateway_back(2)
        assert (await bot.readiness())[0]
    finally:
        await bot.store.close()
    ready, details = await bot.readiness()  # the store no longer answers
    assert not ready and details["store"].startswith("error: ")


async def test_health_port_serves_the_bots_readiness(tmp_path: Path) -> None:
    bot = create_bot(replace(config(tmp_path), health_port=0))  # 0: a free port
    assert type(bot) is TabletopBot and bot.syncs_commands
    async with bot:
        assert bot.health is not None
        port = bot.health.port
        assert await get(port, "/readyz") == (503, {"ready": False, "shards": {"0": False},
                                                    "store": "not open yet"})
        assert (await get(port, "/healthz"))[0] == 200
        bot.store = await Store.open(tmp_path / "t.sqlite3")
        await bot._gateway_back()  # unsharded: the one connection counts as shard 0
        assert await get(port, "/readyz") == (200, {"ready": True, "shards": {"0": True}, "store": "ok"})
        await bot._gateway_lost()
        assert (await get(port, "/readyz"))[0] == 503
    with pytest.raises(aiohttp.ClientConnectionError):  # closed with the bot
        await get(port, "/healthz")


def test_only_the_process_with_shard_0_syncs_commands(tmp_path: Path) -> None:
    assert create_bot(config(tmp_path, SHARD_COUNT="2")).syncs_commands
    assert create_bot(config(tmp_path, SHARD_COUNT="2", SHARD_IDS="0")).syncs_commands
    assert not create_bot(config(tmp_path, SHARD_COUNT="2", SHARD_IDS="1")).syncs_commands
    assert create_bot(config(tmp_path, SHARD_COUNT="auto")).syncs_commands


def test_links_are_all_up_only_when_every_expected_shard_is() -> None:
    links = ShardLinks(None)  # SHARD_COUNT=auto before discord.py knows the count
    assert not links.back(0) and links.status() == {}
    links.expect(range(2))
    assert links.status() == {"0": True, "1": False} and not links.all_up
    assert links.back(1) and links.all_up
    links.lost(0)
    assert not links.all_up and not ShardLinks([]).all_up


def record(message: str, *args: object, **extra: Any) -> logging.LogRecord:
    rec = logging.LogRecord("bot.discord_app.app", logging.WARNING, __file__, 1, message, args, None)
    rec.__dict__.update(extra)
    return rec


def test_json_lines_carry_shards_and_game_id(tmp_path: Path) -> None:
    formatter = JsonFormatter(process_shards(config(tmp_path, SHARD_COUNT="4", SHARD_IDS="1,3")))
    line = formatter.format(record("game %d: %s", 7, "ваш ход", game_id=7))
    entry = json.loads(line)
    assert "\n" not in line
    assert entry["level"] == "WARNING" and entry["logger"] == "bot.discord_app.app" and entry["message"] == "game 7: ваш ход"
    assert entry["shards"] == [1, 3] and entry["game_id"] == 7 and entry["time"].endswith("Z")
    plain = json.loads(JsonFormatter([0]).format(record("x")))
    assert "game_id" not in plain and plain["shards"] == [0]
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        failed = record("failed")
        failed.exc_info = sys.exc_info()
    entry = json.loads(formatter.format(failed))
    assert "ValueError: bad" in entry["exception"] and "\n" not in formatter.format(failed)
    assert process_shards(config(tmp_path)) == [0] and process_shards(config(tmp_path, SHARD_COUNT="auto")) == "auto"
    assert handler_for(config(tmp_path)) is None
    assert isinstance(handler_for(config(tmp_path, LOG_FORMAT="json")).formatter, JsonFormatter)  # type: ignore[union-attr]


@pytest.mark.parametrize(("msg", "args", "game_id"), [
    ("game %s: change forwarded to the publisher", (12,), 12),
    ("could not refresh the DM panel of game %s: %s", ("34", "boom"), 34),
    ("%d%% done; reminder of game %s seat %s failed", (50, 7, 2), 7),
    ("%d unfinished games cannot be indexed", (3,), None),  # "games", not a game id
    ("game %s (%s) in channel %s", ("pobeda",), None),  # not an id
    ("stats: recorded %d games", (5,), None),
    ("restored %d unfinished games", (), None),
])
def test_game_id_is_taken_from_the_argument_after_game(msg: str, args: tuple[object, ...],
                                                       game_id: int | None) -> None:
    assert logged_game_id(record(msg, *args)) == game_id
    assert logged_game_id(record(msg, *args, game_id=99)) == 99  # an explicit one wins


async def test_a_taken_health_port_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    async def readiness() -> tuple[bool, dict[str, Any]]:
        return True, {}

    taken = HealthServer(readiness, port=0)
    await taken.start()
    try:
        bot = create_bot(replace(config(tmp_path), health_port=taken.port))
        with pytest.raises(ConfigError, match=f"HEALTH_PORT {taken.port}: cannot listen on 127.0.0.1"):
            async with bot:
                pass
        assert bot.health is None
        await bot.close()
    finally:
        await taken.close()


async def test_python_m_bot_exits_2_on_a_taken_health_port(tmp_path: Path) -> None:
    import asyncio
    import os

    async def readiness() -> tuple[bool, dict[str, Any]]:
        return True, {}

    taken = HealthServer(readiness, port=0)
    await taken.start()
    try:
        env = {**os.environ, "DISCORD_TOKEN": "x", "DATABASE_PATH": str(tmp_path / "t.sqlite3"),
               "HEALTH_PORT": str(taken.port), "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env,
                                                    cwd=Path(__file__).resolve().parents[2],
                                                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    finally:
        await taken.close()
    assert proc.returncode == 2
    lines = err.decode().strip().splitlines()
    assert lines[-1].startswith(f"error: HEALTH_PORT {taken.port}: cannot listen"), err.decode()
    assert "Traceback" not in err.decode()


async def test_an_event_after_close_is_dropped_not_a_traceback(tmp_path: Path) -> None:
    """discord.py's READY-delaying task can dispatch after ``close()`` unset the client's loop
    (seen in an e2e run stopped soon after a start); the bot drops such an event instead of raising."""
    import discord

    bot = create_bot(config(tmp_path))
    await bot.close()
    assert bot.loop is discord.utils.MISSING
    bot.dispatch("ready")  # raised AttributeError: '_MissingSentinel' object has no attribute 'create_task'
