"""Issue 23, item 6: the session escapes display names for Discord markdown (``Session.seat_name``
puts ``cool\\_guy\\*`` in ``view["seat_names"]``), but a board is a picture, not markdown: every
renderer takes a seat's name through ``render.common.seat_label``, which draws the name as typed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest
from PIL import ImageDraw

from bot.core.parse import escape
from bot.games.byallmeans import render as byallmeans
from bot.games.byallmeans import render_zoom as byallmeans_zoom
from bot.games.coldwar import render as coldwar
from bot.games.coldwar import render_zoom as coldwar_zoom
from bot.games.godstorm import render as godstorm
from bot.games.pobeda import Pobeda
from bot.games.pobeda import render as pobeda
from bot.games.pobeda.view import PobedaView
from render.common import seat_label

TYPED = ["cool_guy*", "[x](https://e.example)", "<@1> @everyone", "back\\slash"]


def session_view(**view: Any) -> dict[str, Any]:
    """A view with ``seat_names`` as the session fills it in: each name escaped."""
    return {**view, "seat_names": [escape(name) for name in TYPED]}


@pytest.mark.parametrize("seat", range(len(TYPED)))
def test_seat_label_draws_the_name_as_typed(seat: int) -> None:
    view = session_view()
    assert "\\" in view["seat_names"][0]  # what the session hands over is escaped
    assert seat_label(view, seat, "Seat") == TYPED[seat]
    assert seat_label(view, len(TYPED), "Seat 5") == "Seat 5"


def test_the_cut_counts_the_typed_name_not_its_escapes() -> None:
    view = {"seat_names": [escape("a_b_c_d_e")]}  # 9 characters, 14 escaped
    assert seat_label(view, 0, "Seat", limit=9) == "a_b_c_d_e"
    assert seat_label(view, 0, "Seat", limit=5) == "a_b_…"


LABELS: list[tuple[str, Callable[[Any, int, str], str]]] = [
    ("pobeda", pobeda._seat_name), ("godstorm", godstorm._seat_name), ("coldwar", coldwar._name),
    ("coldwar_zoom", coldwar_zoom._name), ("byallmeans", byallmeans._seat), ("byallmeans_zoom", byallmeans_zoom._seat),
]


@pytest.mark.parametrize(("game", "label"), LABELS, ids=[name for name, _ in LABELS])
def test_every_renderers_seat_label_has_no_backslash(game: str, label: Callable[[Any, int, str], str]) -> None:
    view = session_view()
    text = label(view, 0, "en")
    assert "cool_guy*" in text and "\\" not in text, (game, text)


def test_a_pobeda_board_draws_cool_guy_without_a_backslash(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    plain_text = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(str(text))
        plain_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    game = Pobeda.new([{"side": 0}, {"side": 1}], {}, 5)
    view = session_view(**game.view(None))
    view["seat_names"] = view["seat_names"][:2]
    view["current"] = 0  # the status line names the seat to move
    pobeda.compose(cast(PobedaView, view), "en")
    status = [line for line in drawn if "cool_guy" in line]
    assert status, drawn
    assert all("\\" not in line for line in status), status
