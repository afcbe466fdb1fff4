"""Boards drawn in the render processes (bot/core/drawing.py, issue 22): the same bytes as a render in the
bot's own process, a worker that dies is replaced (the render drawn again), a render's own error
reaches the caller, threads when processes are off, and a stop that leaves no worker behind.
Also the PNG writer's kept bands (render/common.py): the bytes never depend on what was kept."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.core import drawing
from bot.games.pobeda.render import compose
from bot.games.registry import renderer
from bot.tools.bench import bench_state, random_action
from render import common


def view_of(key: str, moves: int = 0, seed: int = 1) -> dict[str, Any]:
    game = bench_state(key)
    rng = random.Random(seed)
    for _ in range(moves):
        choice = random_action(game, rng)
        if choice is None:
            break
        game.apply(*choice)
    view: dict[str, Any] = json.loads(json.dumps(game.view(None)))
    view["seat_names"] = [f"Player {i + 1}" for i in range(8)]
    return view


def die_once(marker: str) -> int:
    """Kill the process it runs in the first time (while ``marker`` exists), then answer its pid."""
    if os.path.exists(marker):
        os.remove(marker)
        os._exit(3)
    return os.getpid()


def fails() -> None:
    raise ValueError("a renderer's own error")


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(drawing.ENV_WORKERS, "1")
    drawing.reset_for_tests()
    yield
    drawing.reset_for_tests()


@pytest.mark.parametrize("key", ["pobeda", "godstorm", "coldwar", "byallmeans"])
async def test_a_board_from_the_pool_is_the_in_process_board_byte_for_byte(pool: None, key: str) -> None:
    view = view_of(key)
    render = renderer(key)
    here = getattr(render, "uncached", render)(json.loads(json.dumps(view)), "ru")
    before = dict(drawing.stats)
    there = await drawing.draw(render, view, "ru")
    assert drawing.stats["pool"] == before["pool"] + 1 and drawing.stats["thread"] == before["thread"]
    assert there == here
    assert drawing.pids() and os.getpid() not in drawing.pids()


async def test_a_zoom_and_a_personal_board_come_from_the_pool_too(pool: None) -> None:
    from bot.games.pobeda import render as pobeda

    view = view_of("pobeda")
    zoom = pobeda.zoom_choices(view, "en")[0][0]
    expected = pobeda.render_zoom(json.loads(json.dumps(view)), "en", zoom)
    asked = dict(view, **{drawing.ZOOM_KEY: zoom})
    assert await drawing.draw(drawing.zoom_png, "pobeda", asked, "en") == expected
    assert drawing.ZOOM_KEY in asked  # the caller's view is left as it was
    mine = json.loads(json.dumps(bench_state("pobeda").view(0)))
    assert await drawing.draw(pobeda.render_personal, mine, "en") == pobeda.render_personal.uncached(mine, "en")


async def test_a_killed_worker_is_replaced(pool: None) -> None:
    first = await drawing.draw(os.getpid)
    assert first != os.getpid() and drawing.pids() == [first]
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(first, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    restarts = drawing.stats["restarts"]
    second = await drawing.draw(os.getpid)  # the broken pool is dropped and the call drawn in a new one
    assert second not in (first, os.getpid())
    assert drawing.stats["restarts"] == restarts + 1
    view = view_of("coldwar")
    assert await drawing.draw(renderer("coldwar"), view, "en") == renderer("coldwar").uncached(view, "en")


async def test_a_worker_dying_mid_render_is_replaced_and_the_render_drawn_again(pool: None, tmp_path: Path) -> None:
    marker = tmp_path / "die"
    marker.write_text("")
    restarts, threads = drawing.stats["restarts"], drawing.stats["thread"]
    pid = await drawing.draw(die_once, str(marker))
    assert not marker.exists()  # the first worker took it and died
    assert pid != os.getpid() and drawing.stats["restarts"] == restarts + 1 and drawing.stats["thread"] == threads


async def test_a_renderers_own_error_reaches_the_caller_and_the_pool_lives_on(pool: None) -> None:
    worker = await drawing.draw(os.getpid)
    with pytest.raises(ValueError, match="own error"):
        await drawing.draw(fails)
    assert await drawing.draw(os.getpid) == worker


async def test_without_processes_boards_are_drawn_on_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(drawing.ENV_WORKERS, "0")
    drawing.reset_for_tests()
    threads = drawing.stats["thread"]
    assert await drawing.draw(os.getpid) == os.getpid()
    assert drawing.stats["thread"] == threads + 1 and drawing.pids() == []


async def test_stop_leaves_no_worker_and_the_next_board_starts_a_new_pool(pool: None) -> None:
    worker = await drawing.draw(os.getpid)
    started = time.monotonic()
    await drawing.stop()
    assert time.monotonic() - started < drawing.STOP_GRACE + 1
    assert drawing.pids() == []
    with pytest.raises(ProcessLookupError):
        for _ in range(100):  # reaped by the pool's own thread: gone from the process table
            os.kill(worker, 0)
            time.sleep(0.05)
    assert await drawing.draw(os.getpid) not in (worker, os.getpid())


def test_workers_setting() -> None:
    assert drawing.workers({}) == drawing.RENDER_WORKERS
    assert drawing.workers({drawing.ENV_WORKERS: "0"}) == 0
    assert drawing.workers({drawing.ENV_WORKERS: "2"}) == 2
    assert drawing.workers({drawing.ENV_WORKERS: "many"}) == drawing.RENDER_WORKERS


# ---- the PNG writer's kept bands ----------------------------------------------------------------
def test_kept_bands_give_the_same_bytes_as_a_cold_encode() -> None:
    """Successive boards of a game share most bands: an encode that reuses them is byte for byte the
    encode that deflates everything, and decodes to the board's pixels."""
    boards = [compose(view_of("pobeda", moves), "ru") for moves in (0, 1, 2)]  # type: ignore[arg-type]
    common.clear_deflated()
    warm = [common.encode_png(board) for board in boards]
    cold = []
    for board in boards:
        common.clear_deflated()
        cold.append(common.encode_png(board))
    assert warm == cold
    assert warm[1] != warm[2]
    for png, board in zip(warm, boards, strict=True):
        back = Image.open(io.BytesIO(png))
        assert back.tobytes() == board.tobytes()


def test_kept_bands_are_bounded_and_a_band_is_reused_only_for_the_same_rows_and_dictionary(
        monkeypatch: pytest.MonkeyPatch) -> None:
    deflated: list[int] = []
    real = common._deflate_band

    def counting(data: bytes, start: int, end: int, last: bool, level: int, window_bits: int) -> bytes:
        deflated.append(start)
        return real(data, start, end, last, level, window_bits)

    monkeypatch.setattr(common, "_deflate_band", counting)
    common.clear_deflated()
    board = compose(view_of("pobeda"), "ru")  # type: ignore[arg-type]
    common.encode_png(board)
    bands = len(deflated)
    assert bands > 8
    deflated.clear()
    common.encode_png(board)
    assert deflated == []  # all kept
    changed = board.copy()
    changed.putpixel((5, board.height // 2), (changed.getpixel((5, board.height // 2)) + 1) % 256)  # type: ignore[operator]
    common.encode_png(changed)
    # the band holding the pixel, and the next (its dictionary holds the pixel's row) at most
    assert 1 <= len(deflated) <= 2
    monkeypatch.setattr(common, "DEFLATED_MAX_BYTES", 50_000)
    common.encode_png(compose(view_of("pobeda", 3), "ru"))  # type: ignore[arg-type]
    assert common._deflated_bytes <= 50_000
    common.clear_deflated()


KILLED_PARENT = """
import asyncio, sys
from bot.core import drawing
from bot.games.coldwar.render import render
from bot.games.coldwar import bench_state
view = bench_state().view(None)
asyncio.run(drawing.draw(render, view, "en"))
print(" ".join(map(str, drawing.pids())), flush=True)
sys.stdin.read()
"""


def test_workers_end_with_a_killed_bot(tmp_path: Path) -> None:
    """SIGKILL of the bot process: its render workers exit too (they used to live on under init,
    holding its output pipes, so whoever waited for the output waited forever)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    env = {**os.environ, "TABLETOP_RENDER_WORKERS": "1"}
    proc = subprocess.Popen([sys.executable, "-c", KILLED_PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, cwd=Path(__file__).resolve().parents[2], env=env)
    assert proc.stdout is not None
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert pids, "no render worker was started"
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    ends = time.monotonic() + 10
    while any(alive(p) for p in pids) and time.monotonic() < ends:
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)


def test_warm_starts_the_worker_with_the_renderers_imported() -> None:
    """warm() starts the render process at bot start (the first post must not wait for it)."""
    drawing.reset_for_tests()
    os.environ[drawing.ENV_WORKERS] = "1"
    try:
        drawing.warm()
        deadline = time.monotonic() + 60
        while not drawing.pids() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert drawing.pids(), "warm() started no render process"
    finally:
        os.environ.pop(drawing.ENV_WORKERS, None)
        drawing.stop_sync()
        drawing.reset_for_tests()


async def test_a_worker_that_does_not_answer_is_replaced_and_the_board_drawn_on_a_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A stuck render process must never hold a game's posts: past RENDER_TIMEOUT its pool is killed
    and the work runs on a thread."""
    drawing.reset_for_tests()
    monkeypatch.setenv(drawing.ENV_WORKERS, "1")
    monkeypatch.setattr(drawing, "RENDER_TIMEOUT", 1.0)
    try:
        assert await drawing.draw(pow, 2, 10) == 1024  # the pool is up
        stuck = drawing.pids()
        before = dict(drawing.stats)
        assert await drawing.draw(time.sleep, 3.0) is None  # too slow in the pool: a thread does it
        assert drawing.stats["thread"] == before["thread"] + 1 and drawing.stats["restarts"] == before["restarts"] + 1
        time.sleep(0.5)
        assert not any(os.path.exists(f"/proc/{pid}") and open(f"/proc/{pid}/stat").read().split()[2] != "Z"
                       for pid in stuck)
        assert await drawing.draw(pow, 2, 3) == 8  # a new pool works
    finally:
        drawing.stop_sync()
        drawing.reset_for_tests()
