"""The gateway reconnect backoff (bot/discord_app/reconnect.py): capped at 16 s, jittered, and starting small again
after a quiet minute; installed for discord.py's unsharded client and its shards."""

from __future__ import annotations

import time
from pathlib import Path

import discord.client
import discord.shard
from discord.backoff import ExponentialBackoff

from bot.core.config import load_config
from bot.discord_app import reconnect
from bot.discord_app.app import create_bot


def test_delays_stop_growing_at_16_seconds_and_keep_their_jitter() -> None:
    backoff = reconnect.CappedBackoff()
    delays = [backoff.delay() for _ in range(40)]
    assert max(delays) <= 16
    assert max(delays[10:]) > 4  # still growing to the cap, not stuck at the first step
    assert len({round(d, 6) for d in delays}) > 30  # jittered, not one fixed value


def test_discord_py_alone_would_wait_minutes() -> None:
    """The reason for the cap: the library's own backoff after ten failures allows ~17 minutes."""
    backoff = ExponentialBackoff()
    for _ in range(10):
        backoff.delay()
    assert backoff._base * 2 ** backoff._exp == 1024


def test_after_a_quiet_minute_the_delays_start_small_again() -> None:
    backoff = reconnect.CappedBackoff()
    for _ in range(8):
        backoff.delay()
    backoff._last_invocation = time.monotonic() - reconnect.RESET_AFTER - 1
    assert backoff.delay() <= 2  # the first step again: uniform(0, 2)


def test_creating_the_bot_installs_it_for_the_client_and_the_shards(tmp_path: Path) -> None:
    config = load_config({"DISCORD_TOKEN": "x", "DATABASE_PATH": str(tmp_path / "t.sqlite3")}, read_dotenv=False)
    create_bot(config)
    assert discord.client.ExponentialBackoff is reconnect.CappedBackoff  # type: ignore[attr-defined]
    assert discord.shard.ExponentialBackoff is reconnect.CappedBackoff  # type: ignore[attr-defined]
