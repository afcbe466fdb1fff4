"""The table PNG: decodes, stays within the limits, uses only the public view."""

import io

from PIL import Image

from bot.games.base import Rng
from bot.games.coldwar import ColdWar, bench_state
from bot.games.coldwar.render import FRAME, PANEL, PANEL_BOXES, SIDE, H, W, render


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
    """Whatever the state, the panel of each side that must act is framed in that side's colour
    (5 px) and a waiting side's panel keeps the quiet 2 px frame."""
    acted = set()
    for i, view in enumerate(_views()):
        if i % 2:
            view["seat_names"] = ["A very very long display name indeed", "Борис"]
        img = _check(render(view, "ru" if i % 3 else "en")).convert("RGB")
        assert img.size == (W, H)
        for seat, (x, y, w, h) in enumerate(PANEL_BOXES):
            for edge in ([img.getpixel((x + k, y + h // 2)) for k in range(5)],
                         [img.getpixel((x + w - k, y + h // 2)) for k in range(5)]):
                if seat in view.get("actors", []):
                    acted.add(seat)
                    assert edge == [SIDE[seat]] * 5, (i, seat, edge)
                else:
                    assert edge[:2] == [FRAME] * 2 and edge[2] == PANEL, (i, seat, edge)
    assert acted == {0, 1}


def test_render_bench_state_size() -> None:
    """The benchmark's state renders at the board's size (its speed is `coldwar_render_ms_p50` in
    ``python -m bot.bench``, not a timed test)."""
    view = bench_state().view(None)
    img = _check(render(view, "en"))
    assert img.size == (1400, 926)


def test_render_is_deterministic_and_differs_by_language() -> None:
    view = bench_state().view(None)
    assert render.uncached(view, "en") == render.uncached(view, "en")  # type: ignore[attr-defined]
    assert render(view, "en") != render(view, "ru")
