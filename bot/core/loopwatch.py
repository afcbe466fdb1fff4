"""A watchdog for the event loop: one WARNING for every stall over 250 ms, naming what was running.

Everything the bot does for every server runs on one asyncio loop, so a callback that computes for
a second (a long replay paginated on the loop, a stats recording reading a huge log) freezes all of
them, and a stall of tens of seconds makes Discord drop the gateway. This module finds such code in
production: the loop beats (a callback it schedules for itself every ``interval`` notes the time) and
a daemon thread wakes when the last beat would be ``threshold`` old; when it is, the thread takes the
loop thread's stack (``sys._current_frames()``) at that moment, waits for the stall to end and logs one
warning with the
stall's length and the stack's innermost frames (or logs at ``long_stall`` if it is still going, so
a loop stuck for good is reported too). The warning also says how much of the stall went to
garbage collections (a full one stops every thread, whichever started it), since then the loop's
own stack (often just waiting in ``select``) is not the culprit. A loop that is not running (stopping, or stopped before
being closed) is not stalled. The thread ends with :meth:`LoopWatch.stop`, when the loop is closed,
or with the process (it is a daemon).

Why the loop beats rather than the thread pinging it: a ping from another thread
(``call_soon_threadsafe``) writes to the loop's wake-up pipe and wakes the watcher for every answer. Pinged
every 20 ms, an idle bot spent about 2 % of a core on the watchdog alone (0.25 s of CPU per 10 s idle
against 0.06 s without it) and a busy one a tenth of its loop's wake-ups. A timer the loop sets itself
wakes nothing else, and the thread sleeps until a stall could have begun.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import logging
import sys
import threading
import time
import traceback

log = logging.getLogger(__name__)

THRESHOLD = 0.25
"""Seconds without an answer from the loop that make a stall worth a warning."""
INTERVAL = 0.05
"""Seconds between the beats of a healthy loop (a stall's measured length is this precise)."""
LONG_STALL = 5.0
"""A stall still going after this many seconds is reported at once rather than at its end."""
FRAMES = 8
"""Innermost frames of the loop thread's stack shown in a warning."""


class LoopWatch:
    """Watches one running loop from a daemon thread (see the module's docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, loop_thread: int, *, threshold: float = THRESHOLD,
                 interval: float = INTERVAL, long_stall: float = LONG_STALL, frames: int = FRAMES,
                 logger: logging.Logger = log) -> None:
        self.loop = loop
        self.loop_thread = loop_thread
        self.threshold = threshold
        self.interval = interval
        self.long_stall = long_stall
        self.frames = frames
        self.log = logger
        self.stalls = 0
        """Stalls reported so far."""
        self.longest = 0.0
        """The longest stall reported so far, in seconds."""
        self._stop = threading.Event()
        self._pong_at = time.monotonic()
        self._gc_start: float | None = None
        self._collections: collections.deque[tuple[float, float, int]] = collections.deque(maxlen=32)
        """Recent garbage collections: (start, end, generation), monotonic seconds."""
        self._beat_handle: asyncio.TimerHandle | None = None
        self._thread = threading.Thread(target=self._run, name="loopwatch", daemon=True)

    @classmethod
    def start(cls, loop: asyncio.AbstractEventLoop | None = None, *, threshold: float = THRESHOLD,
              interval: float = INTERVAL, long_stall: float = LONG_STALL, logger: logging.Logger = log) -> LoopWatch:
        """Start watching ``loop`` (default: the running one). Call it from the loop's own thread."""
        watch = cls(loop or asyncio.get_running_loop(), threading.get_ident(), threshold=threshold,
                    interval=interval, long_stall=long_stall, logger=logger)
        gc.callbacks.append(watch._gc_callback)
        watch._beat()
        watch._thread.start()
        return watch

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread and wait for it (it never waits on the loop, so this is quick). Called on the loop's
        thread, the next beat is cancelled too; from another, the beats end at the next one."""
        self._stop.set()
        if self._beat_handle is not None and threading.get_ident() == self.loop_thread:
            self._beat_handle.cancel()
        if self._gc_callback in gc.callbacks:
            gc.callbacks.remove(self._gc_callback)
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _gc_callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = time.monotonic()
        elif self._gc_start is not None:
            self._collections.append((self._gc_start, time.monotonic(), info.get("generation", -1)))
            self._gc_start = None

    def _collected(self, since: float) -> tuple[float, int]:
        """Seconds spent in garbage collections since ``since``, and the oldest generation collected."""
        spent, oldest = 0.0, -1
        for start, end, generation in list(self._collections):
            if end > since:
                spent += end - max(start, since)
                oldest = max(oldest, generation)
        return spent, oldest

    # ---- the beat, on the loop ------------------------------------------------------------------
    def _beat(self) -> None:
        self._pong_at = time.monotonic()  # on the loop: it was free at this moment
        if not self._stop.is_set():
            self._beat_handle = self.loop.call_later(self.interval, self._beat)

    # ---- the watcher thread ------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._watch()
        finally:
            if self._gc_callback in gc.callbacks:
                gc.callbacks.remove(self._gc_callback)

    def _watch(self) -> None:
        while not self._stop.is_set():
            if self.loop.is_closed():
                return  # nothing left to watch
            last_free = self._pong_at
            due = last_free + self.threshold - time.monotonic()
            if due > 0:
                self._stop.wait(due)
                continue
            if not self.loop.is_running():  # stopping or stopped, not stalled: its beat resumes with it
                self._pong_at = time.monotonic()
                self._stop.wait(self.threshold / 2)
                continue
            frame = sys._current_frames().get(self.loop_thread)
            stack = traceback.format_list(traceback.extract_stack(frame)[-self.frames:]) if frame else []
            del frame
            reported = False
            while self._pong_at == last_free:
                if self._stop.wait(self.interval) or self.loop.is_closed():
                    return
                if not self.loop.is_running():
                    break  # it stopped rather than stalled (or stalled, then stopped): not ours to report
                if not reported and time.monotonic() - last_free >= self.long_stall:
                    self._report(time.monotonic() - last_free, stack, going=True)
                    reported = True
            else:
                if not reported:
                    self._report(self._pong_at - last_free, stack, going=False, since=last_free)

    def _report(self, seconds: float, stack: list[str], *, going: bool, since: float | None = None) -> None:
        self.stalls += 1
        self.longest = max(self.longest, seconds)
        what = "has been stalled for" if going else "was stalled for"
        spent, generation = self._collected(since if since is not None else time.monotonic() - seconds)
        collecting = (f" (garbage collection up to generation {generation}: {spent * 1000:.0f} ms of it)"
                      if spent >= 0.001 else "")
        self.log.warning("event loop %s %.0f ms%s; it was running (innermost last):\n%s", what, seconds * 1000,
                         collecting, "".join(stack).rstrip() or "  (no Python frame)")


def start(loop: asyncio.AbstractEventLoop | None = None) -> LoopWatch:
    """Start the watchdog with the default threshold (``bot.__main__`` does, once the loop runs)."""
    return LoopWatch.start(loop)
