"""Starting sharded bot processes against the fake Discord (issue 14), for the sharding tests and
the multi-process ones: :func:`start_shard_bot` (a :class:`ShardBot`), :func:`guild_on_shard`, :func:`free_port`."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tests.fake_discord import BotProcess, FakeDiscord, Guild
from tests.fake_discord.models import DISCORD_EPOCH_MS

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def guild_on_shard(fake: FakeDiscord, shard: int, count: int, name: str = "Tabletop test") -> Guild:
    """A new guild whose events Discord sends to ``shard`` of ``count``: ``(id >> 22) % count``,
    i.e. its creation millisecond; waits for a millisecond that fits (a miss is dropped and retried,
    so call it before the bot connects)."""
    while True:
        if (int(time.time() * 1000) - DISCORD_EPOCH_MS) % count == shard:
            guild = fake.create_guild(name)
            if (guild.id >> 22) % count == shard:
                return guild
            fake.guilds.pop(guild.id)  # created across a millisecond boundary: not this shard's
        await asyncio.sleep(0.0005)


class ShardBot(BotProcess):
    """A bot process running ``shard_ids``: :meth:`start` (also after :meth:`kill`) returns once
    every one of its shards has a new session connected to the fake (discord.py waits 5 s between
    two IDENTIFYs of one process)."""

    def __init__(self, fake: FakeDiscord, db_path: str | Path, shard_ids: list[int], **kwargs: Any) -> None:
        super().__init__(fake, db_path, **kwargs)
        self.shard_ids = shard_ids

    async def start(self, timeout: float = 90.0) -> None:
        fake = self.fake
        before = fake.shard_sessions
        await super().start(timeout=timeout)

        def all_connected() -> bool:
            if not self.running:
                raise RuntimeError(f"bot exited with {self.returncode}:\n{self.output()[-4000:]}")
            now = fake.shard_sessions
            return all(now.get(i) not in (None, before.get(i)) and fake.shard_connected(i) for i in self.shard_ids)

        try:
            await fake.wait_for(all_connected, timeout=timeout)
        except TimeoutError:
            raise TimeoutError(f"shards {self.shard_ids} did not all connect within {timeout} s\n"
                               f"{self.output()[-4000:]}") from None


async def start_shard_bot(
    fake: FakeDiscord,
    db_path: str | Path,
    *,
    shard_count: int,
    shard_ids: Iterable[int] | None = None,
    guild_ids: Iterable[int] = (),
    database_url: str | None = None,
    extra_env: Mapping[str, str] | None = None,
    timeout: float = 90.0,
) -> ShardBot:
    """Start ``python -m bot`` with ``SHARD_COUNT=shard_count`` (and ``SHARD_IDS`` when given; all
    shards otherwise), optionally ``DATABASE_URL``, and wait as :meth:`ShardBot.start` does. Only
    the process holding shard 0 syncs the commands, so only its start waits for the sync.
    ``TIMER_INTERVAL=0.5`` and ``PUBLISH_INTERVAL=0`` unless ``extra_env`` overrides them."""
    ids = sorted(shard_ids) if shard_ids is not None else list(range(shard_count))
    env: dict[str, str] = {"TIMER_INTERVAL": "0.5", "PUBLISH_INTERVAL": "0", "SHARD_COUNT": str(shard_count)}
    if shard_ids is not None:
        env["SHARD_IDS"] = ",".join(map(str, ids))
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    env.update(extra_env or {})
    bot = ShardBot(fake, db_path, ids, guild_ids=guild_ids, extra_env=env, cwd=ROOT, wait_for_sync=0 in ids)
    await bot.start(timeout=timeout)
    return bot


def json_log_lines(output: str) -> list[dict[str, Any]]:
    """The bot's ``LOG_FORMAT=json`` lines (other output, e.g. the run separators, is skipped)."""
    import json

    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]
