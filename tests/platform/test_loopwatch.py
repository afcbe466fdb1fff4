"""bot/core/loopwatch.py: a stall of the event loop is logged once, naming what was running."""

from __future__ import annotations

import asyncio
import gc
import logging
import subprocess
import sys
import time

import pytest

from bot.core import loopwatch


def sleepy_handler() -> None:
    time.sleep(0.4)  # a blocking call on the loop, as a CPU-heavy callback would be


async def test_a_blocking_call_is_logged_once_with_its_function(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="bot.core.loopwatch")
    watch = loopwatch.LoopWatch.start()
    try:
        await asyncio.sleep(0.1)
        sleepy_handler()
        await asyncio.sleep(0.2)  # the watcher logs once the loop answers again
    finally:
        watch.stop()
    warnings = [r for r in caplog.records if r.name == "bot.core.loopwatch"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    message = warnings[0].getMessage()
    assert warnings[0].levelno == logging.WARNING
    assert "sleepy_handler" in message and "time.sleep(0.4)" in message
    stalled_ms = float(message.split("stalled for ")[1].split(" ms")[0])
    assert 300 <= stalled_ms <= 1000
    assert watch.stalls == 1 and not watch.running


async def test_a_healthy_loop_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="bot.core.loopwatch")
    watch = loopwatch.LoopWatch.start()
    try:
        for _ in range(40):  # busy but never blocked for long: 20 ms of work, then a yield
            time.sleep(0.02)
            await asyncio.sleep(0)
    finally:
        watch.stop()
    assert not [r for r in caplog.records if r.name == "bot.core.loopwatch"]
    assert watch.stalls == 0


async def test_a_stall_still_going_is_reported_before_it_ends(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="bot.core.loopwatch")
    watch = loopwatch.LoopWatch.start(threshold=0.1, long_stall=0.3)
    try:
        await asyncio.sleep(0.05)
        start = time.monotonic()
        seen = False
        while time.monotonic() - start < 1.0:  # blocked for a second, looking for the warning meanwhile
            seen = seen or any(r.name == "bot.core.loopwatch" for r in caplog.records)
            time.sleep(0.01)
        await asyncio.sleep(0.1)
    finally:
        watch.stop()
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.core.loopwatch"]
    assert seen and len(warnings) == 1
    assert "has been stalled" in warnings[0] and "test_a_stall_still_going" in warnings[0]


async def test_watching_an_idle_loop_never_wakes_it_from_another_thread() -> None:
    """The loop's own timer beats; nothing writes to its wake-up pipe (a cross-thread ping every 20 ms
    cost an idle bot about 2 % of a core)."""
    loop = asyncio.get_running_loop()
    original = loop._write_to_self  # type: ignore[attr-defined]
    writes = 0

    def counted() -> None:
        nonlocal writes
        writes += 1
        original()

    loop._write_to_self = counted  # type: ignore[attr-defined]
    watch = loopwatch.LoopWatch.start()
    try:
        await asyncio.sleep(1.0)
        beat_at = watch._pong_at
    finally:
        watch.stop()
        loop._write_to_self = original  # type: ignore[attr-defined]
    assert writes == 0
    assert time.monotonic() - beat_at < 2 * loopwatch.INTERVAL  # it did beat all along
    assert watch.stalls == 0 and not watch.running


def test_the_watchdog_does_not_keep_the_process_alive() -> None:
    code = ("import asyncio, time\n"
            "from bot.core import loopwatch\n"
            "async def main():\n"
            "    loopwatch.start()\n"
            "    await asyncio.sleep(0.1)\n"
            "asyncio.run(main())\n"
            "time.sleep(0.5)\n"  # the loop is closed but the process goes on: no bogus stall either
            "print('done')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0 and out.stdout.strip() == "done"
    assert "stalled" not in out.stderr


def collect_and_wait() -> None:
    gc.collect()  # a full collection stops every thread; the warning says how much of the stall it took
    time.sleep(0.3)


async def test_a_stall_with_a_full_collection_says_so(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="bot.core.loopwatch")
    garbage = [[i] for i in range(200_000)]  # a heap worth scanning
    watch = loopwatch.LoopWatch.start()
    try:
        await asyncio.sleep(0.05)
        collect_and_wait()
        await asyncio.sleep(0.2)
    finally:
        watch.stop()
    del garbage
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.core.loopwatch"]
    assert len(warnings) == 1 and "garbage collection up to generation 2" in warnings[0], warnings
    assert "collect_and_wait" in warnings[0]
    assert watch._gc_callback not in gc.callbacks
