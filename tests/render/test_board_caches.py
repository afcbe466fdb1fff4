"""The parts of a board kept from render to render (issue 22's board aims): Pobeda's chip sprites and
line bars, Cold War's target card and side panel bodies, the kept text wraps. Each is keyed so that two
games, languages, layouts, sizes or states never share a wrong part: a board drawn from them is, pixel
for pixel, the straightforward full-colour drawing mapped onto the game's palette, whatever was drawn
before it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.games.coldwar import render as coldwar
from bot.games.pobeda import Pobeda
from bot.games.pobeda import render as pobeda
from bot.tools.bench import bench_state, board_views
from render import common
from render.common import font, palette, wrap
from tests.render.states import VIEWS


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def pobeda_views() -> list[tuple[dict[str, Any], str, list[str] | None]]:
    """Boards of two layouts (the bench game's and a shuffled one), public and personal, both languages."""
    out: list[tuple[dict[str, Any], str, list[str] | None]] = []
    bench = board_views(bench_state("pobeda"), 3)
    game = Pobeda.new([{"side": 0}, {"side": 1}, {"side": 2}], {"lines": 2, "layout": "shuffled"}, 77)
    rng = random.Random(5)
    for _ in range(60):
        if game.outcome() is not None:
            break
        seat = rng.choice(game.actors())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    shuffled = json.loads(json.dumps(game.view(None)))
    mine = json.loads(json.dumps(game.view(0)))
    assert shuffled["layout"] != bench[0]["layout"] and shuffled["chips"]
    for lang in ("ru", "en"):
        out += [(bench[0], lang, None), (shuffled, lang, None), (mine, lang, pobeda.playable_cells(mine))]
        out += [(view, lang, None) for view in bench[1:]]
    return out


def test_pobeda_boards_drawn_from_kept_layers_are_the_plain_drawing_whatever_came_before() -> None:
    pal = palette("pobeda")
    cases = pobeda_views()
    for view, lang, playable in cases + cases[::-1]:  # each layout and language after each other one
        expected = pal.quantize(pobeda.reference(view, lang, playable))  # type: ignore[arg-type]
        assert same(pobeda.compose(view, lang, playable), expected), (lang, playable is not None)  # type: ignore[arg-type]
        # a zoom between boards: its grid's bars and texts are kept under its own key
        if view.get("last_move"):
            assert pobeda.zoom_image(view, lang, "last") is not None  # type: ignore[arg-type]


@pytest.mark.parametrize("side", [0, 1, 2])
def test_a_pasted_chip_sprite_is_the_drawn_chip_on_every_cell(side: int) -> None:
    """Chips are pasted from a sprite drawn once; a chip drawn in place on any of the 144 cells gives
    the same pixels (its centre is a whole pixel), locked (ring and star) or not."""
    pal = palette("pobeda")
    for locked in (False, True):
        drawn = Image.new("P", (pobeda.WIDTH, pobeda.HEIGHT), pal.ix(pobeda.BG))
        pasted = drawn.copy()
        draw = ImageDraw.Draw(drawn)
        sprite, mask, off = pobeda._chip_sprite(side, locked, pobeda.CHIP_R)
        for index in range(pobeda.SIZE * pobeda.SIZE):
            cx, cy = pobeda.BOARD_GRID.chip_center(index)
            pobeda._chip(draw, side, locked, cx, cy, pobeda.CHIP_R, pal.ix)
            pasted.paste(sprite, (cx - off, cy - off), mask)
        assert same(drawn, pasted), (side, locked)


def test_pobeda_bars_are_kept_per_layout_language_and_grid() -> None:
    view = board_views(bench_state("pobeda"), 1)[0]
    layout = tuple(view["layout"])
    line = view["lines"][0]
    first, last = pobeda.cell_index(line["cells"][0]), pobeda.cell_index(line["cells"][-1])
    board = pobeda._line_pieces(layout, "ru", pobeda.BOARD_GRID, first, last, 18)
    region = pobeda.zoom_region(view, "nw")  # type: ignore[arg-type]
    assert region is not None
    zoom = pobeda._zoom_grid(layout, "ru", region)
    assert pobeda._line_pieces(layout, "ru", zoom, first, last, 18) != board
    keep_out = [box for cell in pobeda._cell_texts(layout, "ru", pobeda.BOARD_GRID).values() for box in cell.keep_out]
    start, end = pobeda._free_point(pobeda.BOARD_GRID, first), pobeda._free_point(pobeda.BOARD_GRID, last)
    assert list(board) == pobeda._bar_pieces(start, end, keep_out, 9)


def coldwar_views() -> list[dict[str, Any]]:
    views: list[dict[str, Any]] = board_views(bench_state("coldwar"), 30)
    return views + [dict(view) for _, view in VIEWS["coldwar"]()]


def test_coldwar_tables_drawn_from_kept_parts_are_the_plain_drawing_whatever_came_before() -> None:
    """Successive tables (a side's panel body and the target card reused while unchanged), other
    states and both languages interleaved: each is the plain drawing, mapped onto the palette."""
    pal = palette("coldwar")
    views = coldwar_views()
    for k, view in enumerate(views + views[::3]):
        lang = "ru" if k % 3 else "en"
        assert same(coldwar.compose(view, lang), pal.quantize(coldwar.reference(view, lang))), (k, lang)  # type: ignore[arg-type]


def test_coldwar_kept_parts_are_drawn_only_where_nothing_else_is() -> None:
    """The target card draws only inside its area, a panel's body only inside the body area, and a
    panel's heading (either frame) never inside the body area: so pasting a kept part is exact."""
    for view in coldwar_views()[::4]:
        for lang in ("ru", "en"):
            base = coldwar._base(lang)
            card = base.copy()
            coldwar._target_card(ImageDraw.Draw(card), view, lang, *coldwar.TARGET_BOX[:2])  # type: ignore[arg-type]
            inside(ImageChops.difference(card, base).getbbox(), coldwar.CARD_AREA)
            for seat, box in enumerate(coldwar.PANEL_BOXES):
                area = coldwar._body_area(seat)
                body = base.copy()
                coldwar._panel_body(ImageDraw.Draw(body), view["sides"][seat], view.get("decision") == "plan", seat,
                                    lang, *box)
                inside(ImageChops.difference(body, base).getbbox(), area)
                for actors in ([seat], []):
                    head = base.copy()
                    coldwar._panel_head(ImageDraw.Draw(head), dict(view, actors=actors), seat, lang, *box)  # type: ignore[arg-type]
                    assert ImageChops.difference(head, base).crop(area).getbbox() is None


def inside(box: tuple[int, int, int, int] | None, area: tuple[int, int, int, int]) -> None:
    assert box is None or (area[0] <= box[0] and area[1] <= box[1] and box[2] <= area[2] and box[3] <= area[3]), \
        (box, area)


def test_kept_parts_are_bounded() -> None:
    for cached in (pobeda._chip_sprite, pobeda._line_pieces, pobeda._keep_out, coldwar._card):
        assert cached.cache_info().maxsize is not None
    assert (coldwar._card.cache_info().maxsize or 0) <= 8
    for k, view in enumerate(board_views(bench_state("coldwar"), 12)):
        coldwar.compose(view, ("ru", "en")[k % 2])  # type: ignore[arg-type]
    assert len(coldwar._bodies) <= coldwar.BODIES_MAX
    assert len(common._wrapped) <= common.WRAPPED_MAX


def test_kept_wraps_are_the_wraps_measured_for_the_image_mode() -> None:
    texts = ["Влияние и прочие длинные слова в строке", "Operation Ajax in Iran", "—", "Supercalifragilistic word"]
    for mode in ("RGB", "L", "1"):
        draw = ImageDraw.Draw(Image.new(mode, (4, 4)))
        for label in texts:
            for fnt in (font(13), font(17, "bold"), font(20, "condensed-bold")):
                for width, lines in ((60, 1), (150, 2), (400, 4)):
                    expected = common._wrap_lines(draw, label, fnt, width, lines)
                    assert wrap(draw, label, fnt, width, lines) == expected
                    assert wrap(draw, label, fnt, width, lines) == expected  # kept
