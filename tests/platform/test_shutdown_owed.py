"""Shutdown: the owed DMs' retriers, and the panel bookkeeping they start, end before the HTTP session and
the store close under them."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

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
    side: set[asyncio.Task[None]] = set()
    publisher = SimpleNamespace(_owed_tasks=tasks, _stopping=False, _side=side)
    started = time.monotonic()
    await Publisher.stop_owed(publisher, timeout=0.3)  # type: ignore[arg-type]
    assert finished == ["quick"] and all(task.done() for task in tasks.values())
    assert tasks[(1, 2)].cancelled() and time.monotonic() - started < 2.0
    assert publisher._stopping  # no retrier starts another step (Publisher._closing)


async def test_shutdown_ends_the_panel_bookkeeping_a_last_dm_started() -> None:
    """Seen in a full run: an owed DM went through during SIGTERM, its retrier ended, and the DM panel's
    bookkeeping it had started in the background (``LivePanels.dm_shown``, stripping the old panel) then
    ran into the closed HTTP session ("Session is closed", a traceback). Such side tasks get what is left
    of the grace, then are cancelled."""
    done: list[str] = []

    async def retrier() -> None:
        await asyncio.sleep(0.05)
        side.add(asyncio.create_task(bookkeeping(0.05, "strip")))  # started as the DM went through
        side.add(asyncio.create_task(bookkeeping(3600, "slow")))

    async def bookkeeping(pause: float, name: str) -> None:
        await asyncio.sleep(pause)
        done.append(name)

    side: set[asyncio.Task[None]] = set()
    tasks = {(1, 1): asyncio.create_task(retrier())}
    publisher = SimpleNamespace(_owed_tasks=tasks, _stopping=False, _side=side)
    started = time.monotonic()
    await Publisher.stop_owed(publisher, timeout=0.5)  # type: ignore[arg-type]
    assert done == ["strip"] and all(task.done() for task in side) and time.monotonic() - started < 2.0
    assert [task for task in side if task.cancelled()] and len(side) == 2


async def test_a_ready_event_after_shutdown_began_starts_no_housekeeping() -> None:
    """Seen in a fresh-clone CI run: SIGTERM arrived 50 ms before the gateway's ready event, whose DM
    housekeeping (owed DMs, stale panels) then read the store after it had closed (a traceback). Once the
    shutdown began, the housekeeping is left to the next start."""
    reads: list[str] = []

    class Store:
        async def messages_with_prefix(self, prefix: str) -> list[tuple[int, str, object]]:
            reads.append(prefix)
            return []

    side: set[asyncio.Task[None]] = set()
    publisher: Any = SimpleNamespace(_owed_tasks={}, _stopping=False, _side=side, store=Store())
    publisher._background = lambda coro: Publisher._background(publisher, coro)
    publisher._resume_housekeeping = lambda: Publisher._resume_housekeeping(publisher)
    await Publisher.stop_owed(publisher, timeout=0.1)
    Publisher.resume_housekeeping(publisher)
    await asyncio.sleep(0.05)
    assert not side and reads == []
