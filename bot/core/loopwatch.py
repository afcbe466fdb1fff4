"""A watchdog for the event loop: one WARNING for every stall over 250 ms, naming what was running.

Everything the bot does for every server runs on one asyncio loop, so a callback that computes for
a second (a long replay paginated on the loop, a stats recording reading a huge log) freezes all of
them, and a stall of tens of seconds makes Discord drop the gateway. This module finds such code in
production: a daemon thread pings the loop (``call_soon_threadsafe``) every ``interval``; when the
loop has not answered for ``threshold`` since it last did, the thread takes the loop thread's stack
(``sys._current_frames()``) at that moment, waits for the stall to end and logs one warning with the
stall's length and the stack's innermost frames (or logs at ``long_stall`` if it is still going, so
a loop stuck for good is reported too). The warning also says how much of the stall went to
garbage collections (a full one stops every thread, whichever started it), since then the loop's
own stack (often just waiting in ``select``) is not the culprit. A loop that is not running (stopping, or stopped before
being closed) is not stalled. The thread ends with :meth:`LoopWatch.stop`, when the loop is closed,
or with the process (it is a daemon).
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
INTERVAL = 0.02
"""Seconds between pings of a healthy loop (a stall's measured length is this precise)."""
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
        self._thread = threading.Thread(target=self._run, name="loopwatch", daemon=True)

    @classmethod
    def start(cls, loop: asyncio.AbstractEventLoop | None = None, *, threshold: float = THRESHOLD,
              interval: float = INTERVAL, long_stall: float = LONG_STALL, logger: logging.Logger = log) -> LoopWatch:
        """Start watching ``loop`` (default: the running one). Call it from the loop's own thread."""
        watch = cls(loop or asyncio.get_running_loop(), threading.get_ident(), threshold=threshold,
                    interval=interval, long_stall=long_stall, logger=logger)
        gc.callbacks.append(watch._gc_callback)
        watch._thread.start()
        return watch

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread and wait for it (it never waits on the loop, so this is quick)."""
        self._stop.set()
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

    # ---- the watcher thread ------------------------------------------------------------------
    def _pong(self, answered: threading.Event) -> None:
        self._pong_at = time.monotonic()  # on the loop: it was free at this moment
        answered.set()

    def _run(self) -> None:
        try:
            self._watch()
        finally:
            if self._gc_callback in gc.callbacks:
                gc.callbacks.remove(self._gc_callback)

    def _watch(self) -> None:
        while not self._stop.is_set():
            answered = threading.Event()
            try:
                self.loop.call_soon_threadsafe(self._pong, answered)
            except RuntimeError:  # the loop is closed: nothing left to watch
                return
            last_free = self._pong_at
            if answered.wait(max(0.0, last_free + self.threshold - time.monotonic())):
                self._stop.wait(self.interval)
                continue
            if not self.loop.is_running() or self._stop.is_set():
                self._stop.wait(self.interval)  # stopping or stopped, not stalled
                continue
            frame = sys._current_frames().get(self.loop_thread)
            stack = traceback.format_list(traceback.extract_stack(frame)[-self.frames:]) if frame else []
            del frame
            reported = False
            while not answered.wait(self.interval):
                if self._stop.is_set() or self.loop.is_closed():
                    return
                if not reported and time.monotonic() - last_free >= self.long_stall:
                    self._report(time.monotonic() - last_free, stack, going=True)
                    reported = True
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
