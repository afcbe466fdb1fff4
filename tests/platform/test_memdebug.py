"""Memory: the operator's report (bot/tools/memdebug.py), the allocator tuning, and two per-message caches
the soak found filling (tests/e2e/test_soak_e2e.py has the measurements)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.core.config import load_config
from bot.discord_app import livepanels
from bot.discord_app.app import create_bot
from bot.tools import memdebug

ROOT = Path(__file__).resolve().parents[2]


def summary(line: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}


async def test_a_report_names_the_line_whose_allocations_grew(tmp_path: Path) -> None:
    out = tmp_path / "memory.txt"
    report = memdebug.start(asyncio.get_running_loop(),
                            {memdebug.ENV: "1", f"{memdebug.ENV}_FILE": str(out)})
    assert report is not None and tracemalloc.is_tracing()
    try:
        first = summary(report.write())
        hoard = [bytes(1000) + bytes([i % 256]) for i in range(3000)]  # about 3 MB kept from this line
        second = summary(report.write())
    finally:
        tracemalloc.stop()
        asyncio.get_running_loop().remove_signal_handler(memdebug.signal.SIGUSR1)
    assert len(hoard) == 3000
    assert first["n"] == 1 and second["n"] == 2 and second["rss_kb"] > 0
    assert second["traced_kb"] - first["traced_kb"] >= 2900
    if "malloc_heap_kb" in second:  # glibc
        assert second["malloc_in_use_kb"] + second["malloc_free_kb"] == pytest.approx(second["malloc_heap_kb"], abs=2)
    text = out.read_text()
    assert text.count("# memory n=") == 2
    growth = text.split("growth since the first report (line):")[1].splitlines()[1]
    assert "test_memdebug.py" in growth and "+" in growth, growth


async def test_reports_are_off_unless_asked(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    assert memdebug.start(loop, {}) is None and memdebug.start(loop, {memdebug.ENV: "0"}) is None
    assert memdebug.start(loop, {memdebug.ENV: "many"}) is None
    assert not tracemalloc.is_tracing()


def test_allocator_tuning_leaves_an_operators_settings_alone() -> None:
    if not memdebug.malloc_kb():
        pytest.skip("not glibc")
    assert memdebug.tune_malloc({"MALLOC_ARENA_MAX": "4", "MALLOC_MMAP_THRESHOLD_": "65536"}) == {}
    assert memdebug.tune_malloc({"TABLETOP_MALLOC_TUNE": "0"}) == {}
    assert memdebug.tune_malloc({"MALLOC_ARENA_MAX": "4"}) == {"MALLOC_MMAP_THRESHOLD_": memdebug.MMAP_THRESHOLD}
    assert memdebug.tune_malloc({}) == {"MALLOC_ARENA_MAX": 2, "MALLOC_MMAP_THRESHOLD_": memdebug.MMAP_THRESHOLD}


CHURN = """
import json, sys, threading
from bot.tools import memdebug
if sys.argv[1] == "tuned":
    memdebug.tune_malloc({})
before = memdebug.rss_kb()
together = threading.Barrier(6)  # every thread holds its first buffers at once: six arenas in use, as on a
# loaded bot (threads that happened to run one after the other would share one arena and show little)
def draw(n):  # as boards are drawn on worker threads: buffers of several MB, and small objects
    for k in range(6):
        buffers = [bytearray(((n + k) % 7 + 2) << 20) for _ in range(4)]
        small = [bytes(100) for _ in range(2000)]
        if k == 0:
            together.wait()
        del buffers, small
threads = [threading.Thread(target=draw, args=(i,)) for i in range(6)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps({"rss_kb": memdebug.rss_kb() - before, **memdebug.malloc_kb()}))
"""


def test_buffers_freed_on_worker_threads_go_back_to_the_system() -> None:
    """The soak's growth in small: untuned, glibc keeps tens of MB freed by worker threads (in their
    arenas, under a raised mmap threshold); tuned, the process keeps next to nothing."""
    if not memdebug.malloc_kb():
        pytest.skip("not glibc")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    after = {mode: json.loads(subprocess.run([sys.executable, "-c", CHURN, mode], env=env, check=True,
                                             capture_output=True, text=True, cwd=ROOT).stdout)
             for mode in ("plain", "tuned")}
    assert after["plain"]["free"] > 8 * 1024, after
    assert after["tuned"]["free"] < 4 * 1024 and after["tuned"]["rss_kb"] < 8 * 1024, after


def test_the_bot_keeps_no_cache_of_received_messages(tmp_path: Path) -> None:
    config = load_config({"DISCORD_TOKEN": "x", "DATABASE_PATH": str(tmp_path / "t.sqlite3")}, read_dotenv=False)
    bot = create_bot(config)
    assert bot._connection.max_messages is None and bot._connection._messages is None


def entry(interaction_id: int, at: float) -> livepanels.Ephemeral:
    return livepanels.Ephemeral(SimpleNamespace(id=interaction_id), None, 0, at)  # type: ignore[arg-type]


def test_ephemeral_panels_are_forgotten_once_their_token_expired() -> None:
    panels = livepanels.LivePanels(SimpleNamespace())  # type: ignore[arg-type]
    now = time.monotonic()
    for game in range(50):  # games long over: each user's last ephemeral panel of each, remembered back then
        panels._ephemeral[(game, 1)] = entry(game, now - livepanels.EPHEMERAL_TTL - 60 + game)
    panels._remember(100, 1, entry(100, now))
    assert list(panels._ephemeral) == [(100, 1)]  # expired: they no longer edit, and are dropped
    panels._ephemeral[(7, 3)] = entry(7, now - livepanels.EPHEMERAL_TTL + 60)  # still editable: kept
    panels._remember(100, 2, entry(101, now))
    panels._remember(100, 1, entry(102, now))  # the user's newer panel of the same game replaces theirs
    ephemeral: Any = panels._ephemeral
    assert list(ephemeral) == [(7, 3), (100, 2), (100, 1)] and ephemeral[(100, 1)].interaction.id == 102
