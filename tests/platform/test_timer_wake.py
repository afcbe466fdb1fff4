"""The timer wakes for a deadline sooner than its next tick (issue 27: an undo window of a few seconds
must close on time even when ``TIMER_INTERVAL`` is 20 s), and a deadline it has already seen does not
make it spin."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

from bot.core.events import GameCommitted
from bot.core.store import SeatTimer
from bot.discord_app.app import DUE_SLACK_S, TabletopBot


def fake_bot(deadlines: dict[int, dict[int, SeatTimer]]) -> Any:
    sessions = {gid: SimpleNamespace(deadlines=timers) for gid, timers in deadlines.items()}
    bot = SimpleNamespace(sessions=SimpleNamespace(sessions=sessions), _timer_wake=asyncio.Event(),
                          _wake_at=0.0, _ticked=0.0)
    bot._soonest_due = lambda after: TabletopBot._soonest_due(bot, after)  # type: ignore[arg-type]
    return bot


async def sleep_of(bot: Any, ticked: float, next_tick: float) -> float:
    start = time.monotonic()
    await TabletopBot._timer_sleep(bot, ticked, next_tick)
    return time.monotonic() - start


async def test_a_deadline_before_the_next_tick_wakes_the_timer() -> None:
    now = time.time()
    bot = fake_bot({1: {0: SeatTimer(now + 0.3, None)}, 2: {1: SeatTimer(now + 50, now + 25)}})
    slept = await sleep_of(bot, now, now + 20)
    assert 0.3 + DUE_SLACK_S - 0.05 <= slept < 2.0


async def test_a_commit_without_a_sooner_deadline_lets_it_sleep() -> None:
    now = time.time()
    timers: dict[int, SeatTimer] = {}
    bot = fake_bot({1: timers})

    async def commit() -> None:
        await asyncio.sleep(0.1)
        timers[0] = SeatTimer(time.time() + 3600, None)  # a turn of an hour: the next tick comes first
        TabletopBot._timer_news(bot, GameCommitted(1, 5, "running"))

    task = asyncio.create_task(commit())
    slept = await sleep_of(bot, now, now + 0.6)
    await task
    assert slept >= 0.55


async def test_a_deadline_the_last_tick_saw_does_not_wake_it_again() -> None:
    now = time.time()
    bot = fake_bot({1: {0: SeatTimer(now - 5, None)}})  # held by a pause, say: the tick at ``now`` saw it
    slept = await sleep_of(bot, now, now + 0.4)
    assert slept >= 0.35


async def test_a_commit_with_a_sooner_deadline_shortens_the_sleep() -> None:
    now = time.time()
    timers: dict[int, SeatTimer] = {}
    bot = fake_bot({1: timers})

    async def commit() -> None:
        await asyncio.sleep(0.1)
        timers[0] = SeatTimer(time.time() + 0.2, None)  # a move opened a short window
        TabletopBot._timer_news(bot, GameCommitted(1, 5, "running"))

    task = asyncio.create_task(commit())
    slept = await sleep_of(bot, now, now + 20)
    await task
    assert 0.25 <= slept < 2.0

