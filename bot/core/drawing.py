"""Where boards are drawn: a small pool of render processes, one async entry point (issue 22).

The bot process runs with glibc tuned to give memory back (``bot.tools.memdebug.tune_malloc``: two arenas,
big blocks mapped one by one), which keeps its resident size flat over a long run but made every
board's several-MB buffers fault in fresh pages, a third slower. Boards are therefore drawn in
``RENDER_WORKERS`` separate processes (started with *spawn*, so they run with glibc's defaults and
import only Pillow, the renderers and the game data). A board that takes longer than ``RENDER_TIMEOUT``
replaces the pool and is drawn on a thread. The bot process keeps neither render buffers nor
render caches; a worker keeps the static board layers and the parts of recent boards a move seldom
changes (Pobeda's chip sprites and line bars, Cold War's target card and panel bodies), glyph masks and
text wraps, the PNGs of recent views and the deflated bands of recent boards (``render.common``), all
bounded.

:func:`draw` is the one entry point: ``await draw(bot.games.pobeda.render.render, view, lang)``. The function
and its arguments must pickle (a module-level function, a JSON-like view). The pool starts on the
first call. A worker that dies (killed, out of memory) breaks the pool: it is replaced and the
render tried once more in the new one; if that fails too, or processes cannot be started here, the
render runs on a thread of the bot process, as it did before. ``TABLETOP_RENDER_WORKERS=0`` keeps
every render on a thread (no processes). :func:`stop` (bot shutdown) ends the workers within a
couple of seconds whatever they are doing.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

ENV_WORKERS = "TABLETOP_RENDER_WORKERS"
RENDER_WORKERS = 1
"""Render processes (default). One keeps a game's successive boards in the same process, where the
deflated bands of its previous board are reused; a board's PNG bands are deflated on two threads there."""
RENDER_TASKS: int | None = None
"""Renders after which a worker would be replaced. None: never. CPython 3.11's ProcessPoolExecutor can
hang for good when a worker leaves after ``max_tasks_per_child`` (long e2e games stalled right after
some hundreds of boards), and the worker's caches are bounded anyway."""
RENDER_TIMEOUT = 20.0
"""Seconds a board may take in the pool; past it the pool is replaced (its processes killed) and the
board drawn on a thread: a stuck worker must never hold a game's posts."""
ZOOM_KEY = "_zoom"
"""Where a zoom's name travels inside the view handed to :func:`zoom_png`."""
STOP_GRACE = 2.0  # seconds a worker may take to finish at stop before it is terminated

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()
_disabled = False  # processes could not be started here: threads from now on
stats = {"pool": 0, "thread": 0, "restarts": 0}
"""Renders done in the pool and on threads, and pools replaced after a worker died (for tests and logs)."""


def workers(env: dict[str, str] | Any = os.environ) -> int:
    """Render processes wanted: ``TABLETOP_RENDER_WORKERS`` (0: render on threads), default 1."""
    raw = str(env.get(ENV_WORKERS, "")).strip()
    try:
        return max(0, min(8, int(raw))) if raw else RENDER_WORKERS
    except ValueError:
        log.warning("%s takes a number of processes; using %d", ENV_WORKERS, RENDER_WORKERS)
        return RENDER_WORKERS


def _worker_init(level: int, fmt: str | None) -> None:
    """In each worker: log like the bot (its DEBUG line per render counts in tests) to the inherited stderr,
    end with the bot process, however it ends (see :func:`_exit_with_parent`), and know the registered
    games' strings (the registry hands them to :mod:`bot.core.i18n` as it loads)."""
    import bot.games.registry  # noqa: F401  (games registered from elsewhere bring their own strings)

    logging.basicConfig(level=level, format=fmt or "%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("PIL").setLevel(max(logging.INFO, level))
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with_parent, args=(parent.sentinel,), name="parent-watch", daemon=True).start()


def _exit_with_parent(sentinel: int) -> None:
    """A killed bot (SIGKILL, out of memory) cannot stop its workers: without this they lived on under
    init, holding the bot's stdout and stderr and their memory. The parent's sentinel becomes ready
    the moment it dies."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _log_setup() -> tuple[int, str | None]:
    root = logging.getLogger()
    fmt = None
    for handler in root.handlers:
        formatter = handler.formatter
        if formatter is not None and type(formatter) is logging.Formatter:
            fmt = formatter._fmt
            break
    return root.getEffectiveLevel(), fmt


def _get_pool() -> ProcessPoolExecutor | None:
    global _pool, _disabled
    with _lock:
        if _pool is not None or _disabled:
            return _pool
        count = workers()
        if count == 0:
            return None
        try:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(max_workers=count, mp_context=context, initializer=_worker_init,
                                        initargs=_log_setup(), max_tasks_per_child=RENDER_TASKS)
        except (OSError, ValueError, NotImplementedError) as exc:
            _disabled = True
            log.warning("render processes cannot be started here (%s); boards are drawn on threads", exc)
            return None
        log.info("render pool: %d process(es)", count)
        return _pool


def _drop(pool: ProcessPoolExecutor) -> None:
    """Forget a broken pool (the next call starts a new one)."""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
            stats["restarts"] += 1
    pool.shutdown(wait=False, cancel_futures=True)


def _kill(pool: ProcessPoolExecutor) -> None:
    """End a pool whose worker does not answer: its processes are killed, then it is forgotten."""
    for process in list(getattr(pool, "_processes", {}).values()):
        try:
            process.kill()
        except (OSError, ValueError):
            pass
    _drop(pool)


async def draw(func: Callable[..., T], *args: Any) -> T:
    """``func(*args)`` in a render process (or on a thread when there is none); the bot's loop waits
    without blocking. A render that raises raises here; a worker that died is replaced and the render
    tried once more, then on a thread."""
    loop = asyncio.get_running_loop()
    for _attempt in range(2):
        pool = _get_pool()
        if pool is None:
            break
        try:
            result: T = await asyncio.wait_for(asyncio.wrap_future(pool.submit(func, *args), loop=loop),
                                               RENDER_TIMEOUT)
        except TimeoutError:
            log.warning("a render process did not answer in %.0f s; replacing it, drawing on a thread",
                        RENDER_TIMEOUT)
            _kill(pool)
            break
        except BrokenProcessPool:
            log.warning("a render process died; starting a new one and drawing again")
            _drop(pool)
            continue
        except RuntimeError as exc:  # submitted while the pool was being shut down (bot stopping)
            if "shutdown" not in str(exc):
                raise
            break
        stats["pool"] += 1
        return result
    stats["thread"] += 1
    return await asyncio.to_thread(func, *args)


def _preload() -> int:
    """In a worker: import every game's renderer (what the first board would otherwise wait for)."""
    from bot.games import registry

    keys = registry.available()
    for key in keys:
        registry.board_renderer(key)
    return len(keys)


def warm() -> None:
    """Start the render process now, with the renderers imported, instead of on the first board: the
    first post after a restart would otherwise wait for a process to spawn and import Pillow and the
    games (seconds on a loaded machine, enough to let that turn's DM overtake its post)."""
    pool = _get_pool()
    if pool is None:
        return
    try:
        pool.submit(_preload)  # fire and forget: a failure shows at the first real render
    except RuntimeError:  # shutting down
        pass


_zooms: dict[str, Callable[[dict[str, Any], str], bytes]] = {}


def zoom_png(game: str, view: dict[str, Any], lang: str) -> bytes:
    """A zoom of ``game``'s board (its name under ``ZOOM_KEY`` in ``view``), the PNGs of identical
    requests reused (``render.common.rendered_once``). Module-level, so it pickles for a worker."""
    draw = _zooms.get(game)
    if draw is None:
        from bot.games.registry import board_renderer
        from render.common import rendered_once

        render_zoom = board_renderer(game).zoom
        if render_zoom is None:
            raise ValueError(f"{game} offers no zoom")

        def zoom(view: dict[str, Any], lang: str) -> bytes:
            name = view.pop(ZOOM_KEY)
            png = render_zoom(view, lang, name)
            if png is None:
                raise ValueError(f"{game} offers no zoom {name!r}")
            return bytes(png)

        draw = _zooms.setdefault(game, rendered_once(f"{game}-zoom")(zoom))
    return draw(dict(view), lang)


def pids() -> list[int]:
    """The process ids of the live render workers (for the bench's memory figures and tests)."""
    pool = _pool
    processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
    return [p.pid for p in list(processes.values()) if p.pid is not None and p.is_alive()]


def stop_sync(grace: float = STOP_GRACE) -> None:
    """End the pool: queued renders are cancelled, a running one gets ``grace`` seconds, then its
    worker is terminated (and killed if it ignores that)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is None:
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.terminate()
            process.join(1.0)
            if process.is_alive():
                process.kill()
                process.join(1.0)


async def stop(grace: float = STOP_GRACE) -> None:
    """:func:`stop_sync` off the event loop (the bot's shutdown)."""
    await asyncio.to_thread(stop_sync, grace)


def reset_for_tests() -> None:
    """Stop the pool and allow processes again (tests switch the environment between cases)."""
    global _disabled
    stop_sync()
    _disabled = False
