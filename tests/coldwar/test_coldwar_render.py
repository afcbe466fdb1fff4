"""The table PNG: decodes, stays within the limits, uses only the public view."""

import io
import statistics
import time

from PIL import Image

from bot.games.base import Rng
from bot.games.coldwar import ColdWar, bench_state
from render.coldwar import render


def _check(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.format == "PNG" and max(img.size) <= 2048 and len(png) <= 800_000
    return img


def _views() -> list[dict]:
    views = []
    g = ColdWar.new([{}, {}], {}, 21)
    rng = Rng(5)
    while g.outcome() is None:
        if len(views) < 40 and rng.random() < 0.2:
            views.append(g.view(None))
        seat = rng.choice(g.actors())
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    views.append(g.view(None))
    return views


def test_render_many_states_both_languages() -> None:
    for i, view in enumerate(_views()):
        if i % 2:
            view["seat_names"] = ["A very very long display name indeed", "Борис"]
        _check(render(view, "ru" if i % 3 else "en"))


def test_render_bench_state_size_and_speed() -> None:
    view = bench_state().view(None)
    img = _check(render(view, "en"))
    assert img.size == (1400, 926)
    times = []
    for _ in range(7):
        t = time.perf_counter()
        render(view, "ru")
        times.append(time.perf_counter() - t)
    assert statistics.median(times) < 0.25      # generous: the machine is shared; target is < 60 ms


def test_render_is_deterministic_and_differs_by_language() -> None:
    view = bench_state().view(None)
    assert render(view, "en") == render(view, "en")
    assert render(view, "en") != render(view, "ru")
