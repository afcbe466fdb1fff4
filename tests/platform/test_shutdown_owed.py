"""Shutdown: the owed DMs' retriers end before the store closes under them."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

from bot.discord_app.delivery import Publisher


async def test_shutdown_lets_owed_dm_retriers_finish_their_step_or_cancels_them() -> None:
    """Seen once in a CI-like run: an owed DM went through during SIGTERM, and its retrier's next store read
    found the store closed (a traceback in the log). The retriers now end before the store closes."""
    finished: list[str] = []

    async def quick() -> None:
        await asyncio.sleep(0.05)
        finished.append("quick")  # its step's store writes happen here, before the store closes

    async def stuck() -> None:
        await asyncio.sleep(3600)  # a retrier pausing between tries

    tasks = {(1, 1): asyncio.create_task(quick()), (1, 2): asyncio.create_task(stuck())}
    publisher = SimpleNamespace(_owed_tasks=tasks, _stopping=False)
    started = time.monotonic()
    await Publisher.stop_owed(publisher, timeout=0.3)  # type: ignore[arg-type]
    assert finished == ["quick"] and all(task.done() for task in tasks.values())
    assert tasks[(1, 2)].cancelled() and time.monotonic() - started < 2.0
    assert publisher._stopping  # no retrier starts another step (Publisher._closing)
