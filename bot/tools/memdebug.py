"""The process's memory: glibc tuned at start, and reports for operators on where it goes.

:func:`tune_malloc` runs at every start (see its docstring). The reports are off unless
``TABLETOP_TRACEMALLOC`` is set (tracemalloc slows allocation about threefold and holds its own records):

* ``TABLETOP_TRACEMALLOC=<frames>``: trace Python allocations with that many frames per traceback
  (1: grouped by line; 10-25: by call path, slower);
* ``TABLETOP_TRACEMALLOC_START``: seconds after start before tracing begins (default 0); reports
  before that carry the counters only, and what is traced is then only what was allocated since,
  which is what a leak is made of (a huge value: counters only, at full speed);
* ``TABLETOP_TRACEMALLOC_FILE``: where reports are appended (default
  ``tabletop-memory-<pid>.txt`` in the temporary directory);
* ``TABLETOP_TRACEMALLOC_INTERVAL``: seconds between reports (default 0: only on ``SIGUSR1``,
  e.g. ``kill -USR1 <pid>`` or ``docker kill -s USR1 <container>``).

Each report gives the process's resident size, the Python heap that tracemalloc sees, glibc's
malloc counters (memory held by the allocator but free inside it is fragmentation, not objects),
the object types the garbage collector tracks, and the top allocation sites, also as a difference
against the first report and the previous one: a site that keeps growing between reports is a
leak; RSS growing while the traced heap stays flat points at the allocator or at C buffers.
A ``# memory`` line per report carries the figures in ``key=value`` form for scripts.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import os
import signal
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

ENV = "TABLETOP_TRACEMALLOC"
TOP = 30


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                 "fordblks", "keepcost")]


def rss_kb(pid: int | None = None) -> int:
    """The resident set size in kB of this process (or of ``pid``; 0 where /proc is missing)."""
    try:
        for line in Path(f"/proc/{pid or 'self'}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def malloc_kb() -> dict[str, int]:
    """glibc's counters in kB: ``heap`` (obtained from the system for small blocks), ``in_use`` and
    ``free`` within it, ``mmap`` (big blocks mapped one by one). Empty where glibc has no mallinfo2."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallinfo2 = libc.mallinfo2
    except (OSError, AttributeError):
        return {}
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return {"heap": info.arena // 1024, "in_use": info.uordblks // 1024, "free": info.fordblks // 1024,
            "mmap": info.hblkhd // 1024}


M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8  # glibc's mallopt parameters
ARENA_MAX = 2
MMAP_THRESHOLD = 256 * 1024


def tune_malloc(env: dict[str, str] | Any = os.environ) -> dict[str, int]:
    """Keep glibc from hoarding freed memory (call once at start, before threads exist).

    Boards are drawn in render processes (``bot.core.drawing``), which keep glibc's defaults; what big
    buffers the bot process still makes (a thread's render when there is no render process, replay
    animations, stats images) are of several MB. By default glibc gives
    each thread its own arena (up to 8 per core) and, once a big block is freed, raises its mmap
    threshold so later big blocks come from those arenas: the freed space stays in the process,
    split across arenas, and resident memory crept up with every new peak (the soak measured it,
    see tests/e2e/test_soak_e2e.py). Two arenas and a fixed threshold (blocks of 256 KiB and more
    are mapped and unmapped on their own, and the heap is trimmed) keep it flat, at a price: fresh
    pages fault in for every big buffer, a board's render took 20-50% more CPU in a one-thread check
    (Pobeda 48-55 -> 58-70 ms, Godstorm 48-51 -> 75-95 ms on the shared 2-core machine). Variables an operator
    set (``MALLOC_ARENA_MAX``, ``MALLOC_MMAP_THRESHOLD_``) win; ``TABLETOP_MALLOC_TUNE=0`` leaves glibc's
    defaults (to compare). Returns what was set."""
    if env.get("TABLETOP_MALLOC_TUNE", "").strip() == "0":
        return {}
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return {}  # not glibc
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    wanted = {"MALLOC_ARENA_MAX": (M_ARENA_MAX, ARENA_MAX), "MALLOC_MMAP_THRESHOLD_": (M_MMAP_THRESHOLD, MMAP_THRESHOLD)}
    done: dict[str, int] = {}
    for name, (param, value) in wanted.items():
        if name not in env and mallopt(param, value) == 1:
            done[name] = value
    return done


class MemoryReport:
    """Appends reports to ``path``; keeps the first and the previous snapshot to diff against."""

    def __init__(self, path: Path, frames: int) -> None:
        self.path = path
        self.frames = frames
        self.first: tracemalloc.Snapshot | None = None
        self.previous: tracemalloc.Snapshot | None = None
        self.count = 0
        self.task: asyncio.Task[None] | None = None  # the periodic reports, if any

    @staticmethod
    def _filtered(snapshot: tracemalloc.Snapshot) -> tracemalloc.Snapshot:
        return snapshot.filter_traces((tracemalloc.Filter(False, tracemalloc.__file__),
                                       tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
                                       tracemalloc.Filter(False, "<unknown>")))

    def write(self) -> str:
        """Take a snapshot and append its report; returns the ``# memory`` summary line."""
        started = time.perf_counter()
        snapshot = self._filtered(tracemalloc.take_snapshot()) if tracemalloc.is_tracing() else None
        traced, peak = tracemalloc.get_traced_memory()
        heap = malloc_kb()
        types = Counter(type(o).__name__ for o in gc.get_objects())
        self.count += 1
        summary = " ".join([f"# memory n={self.count} t={time.time():.0f} rss_kb={rss_kb()}",
                            f"traced_kb={traced // 1024} traced_peak_kb={peak // 1024}",
                            *(f"malloc_{k}_kb={v}" for k, v in heap.items()),
                            f"gc_objects={sum(types.values())}"])
        lines = [summary, "", "gc-tracked objects by type (top 25):"]
        lines += [f"  {n:9d} {name}" for name, n in types.most_common(25)]
        if snapshot is not None:
            lines += self._sites(snapshot)
        lines += ["", f"(report took {time.perf_counter() - started:.1f} s)", "", ""]
        with self.path.open("a", encoding="utf-8") as out:
            out.write("\n".join(lines))
        return summary

    def _sites(self, snapshot: tracemalloc.Snapshot) -> list[str]:
        lines = ["", f"top {TOP} allocation sites (line):"]
        lines += [f"  {stat}" for stat in snapshot.statistics("lineno")[:TOP]]
        for label, base in (("first report", self.first), ("previous report", self.previous)):
            if base is None:
                continue
            lines += ["", f"growth since the {label} (line):"]
            lines += [f"  {stat}" for stat in snapshot.compare_to(base, "lineno")[:TOP]]
        if self.frames > 1 and self.previous is not None:
            lines += ["", "growth since the previous report (call path, top 8):"]
            for stat in snapshot.compare_to(self.previous, "traceback")[:8]:
                lines.append(f"  {stat.size_diff / 1024:+.1f} KiB in {stat.count_diff:+d} blocks, now "
                             f"{stat.size / 1024:.1f} KiB:")
                lines += [f"      {frame}" for frame in stat.traceback.format()[-2 * self.frames:]]
        if self.first is None:
            self.first = snapshot
        self.previous = snapshot
        return lines


def start(loop: asyncio.AbstractEventLoop, env: dict[str, str] | Any = os.environ) -> MemoryReport | None:
    """Turn memory reports on when ``TABLETOP_TRACEMALLOC`` asks for them: on SIGUSR1 and, with an
    interval, periodically. Returns None (and does nothing) when it is not set."""
    raw = env.get(ENV, "").strip()
    if not raw or raw == "0":
        return None
    try:
        frames = max(1, int(raw))
        interval = float(env.get(f"{ENV}_INTERVAL", "0") or 0)
        delay = float(env.get(f"{ENV}_START", "0") or 0)
    except ValueError:
        log.warning("%s, %s_INTERVAL and %s_START take numbers; memory reports stay off", ENV, ENV, ENV)
        return None
    path = Path(env.get(f"{ENV}_FILE") or Path(tempfile.gettempdir()) / f"tabletop-memory-{os.getpid()}.txt")
    report = MemoryReport(path, frames)

    def dump() -> None:
        try:
            log.info("memory report written to %s: %s", path, report.write())
        except OSError as exc:
            log.warning("could not write the memory report to %s: %s", path, exc)

    def trace() -> None:
        if not tracemalloc.is_tracing():
            tracemalloc.start(frames)
            log.info("tracing memory allocations (%d frames)", frames)

    try:
        loop.add_signal_handler(signal.SIGUSR1, dump)
    except (NotImplementedError, AttributeError, ValueError):  # pragma: no cover - Windows
        pass
    if delay > 0:
        loop.call_later(delay, trace)
    else:
        trace()
    if interval > 0:
        async def every() -> None:
            while True:
                await asyncio.sleep(interval)
                dump()

        report.task = loop.create_task(every())
    log.info("memory reports go to %s on SIGUSR1%s%s", path, f" and every {interval:g} s" if interval > 0 else "",
             f"; allocations traced from {delay:g} s on" if delay > 0 else "")
    return report
