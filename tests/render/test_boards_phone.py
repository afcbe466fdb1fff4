"""Boards for phones (issue 13): titles never cut, text big enough in zoomed views at 400 px width,
sides told apart without colour, line bars off the text, the personal board marks exactly the
cells of the cards in the hand, and every picture within Discord's limits.

The issue's measures: "At 400 px the Pobeda board's titles cannot be read, 16 of 140 titles are
cut mid-word, chips hide dates, vertical line bars run through titles and corner stars; Godstorm
army counts need zooming." and "image tests that measure text height at 400 px width (at least
9 px cap height for the zoomed views) and that no title is cut".
"""

from __future__ import annotations

import io
import json
from itertools import combinations
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.core.paths import DATA_DIR
from bot.games.coldwar import render as coldwar
from bot.games.godstorm import render as godstorm
from bot.games.pobeda import render as pobeda
from bot.games.pobeda.data import cell_index, cell_name
from render.common import font
from tests.pobeda.pobeda_helpers import give, make, put, row
from tests.render.states import VIEWS

EVENTS = json.loads((DATA_DIR / "pobeda" / "events.json").read_text(encoding="utf-8"))
PHONE = 400
MIN_CAP = 9.0
MAX_SIDE = 2048  # what the bot sends stays within a phone-friendly size (and Discord's previews)
MAX_BYTES = 800_000


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def glyph_cap(size: int, style: str) -> int:
    """The cap height of the bundled font at ``size``, measured on a drawn "H" (not taken from metrics)."""
    box = font(size, style).getmask("H").getbbox()
    assert box is not None
    return box[3] - box[1]


def ink_rows(image: Image.Image, box: tuple[float, float, float, float], background: tuple[int, int, int]) -> int:
    """Rows of ``box`` holding any pixel darker than ``background`` (the text's drawn height, anti-aliased edges included)."""
    crop = image.crop(tuple(round(v) for v in box)).convert("L")  # type: ignore[arg-type]
    level = sum(background) / 3 - 25
    rows = [y for y in range(crop.height) if any(crop.getpixel((x, y)) < level for x in range(crop.width))]
    return rows[-1] - rows[0] + 1 if rows else 0


# ---- titles: wrapped, never cut --------------------------------------------------------------
def words(title: str) -> str:
    return " ".join(title.split())


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("grid_of", ["board", "zoom"])
def test_every_title_is_drawn_whole_inside_its_cell(lang: str, grid_of: str) -> None:
    """All 140 titles: the lines the cell draws read back as the title (no word cut or lost), each
    fits the cell between its margins, and a word breaks only at one of its break points (its own
    hyphen, a TeX pattern point, or a syllable point for names the patterns do not know)."""
    layout = tuple(pobeda._events())  # every event once, in file order (plus no corners)
    layout = layout + (None,) * (144 - len(layout))
    if grid_of == "board":
        grids = [pobeda.BOARD_GRID]
    else:
        grids = [pobeda._zoom_grid(layout, lang, (row0, col0, 6, 6)) for row0, col0 in pobeda.QUADRANTS.values()]
    seen = 0
    for grid in grids:
        texts = pobeda._cell_texts(layout, lang, grid)
        for index, cell in texts.items():
            event_id = layout[index]
            if event_id is None:
                continue
            seen += 1
            title = next(e["title"][lang] for e in EVENTS if e["id"] == event_id)
            fitted = cell.title
            assert fitted is not None
            assert pobeda.joined(fitted) == words(title), (event_id, fitted.lines)
            assert len(fitted.lines) <= grid.title_lines
            x0, _, x1, _ = grid.box(index)
            fnt = font(fitted.size, "condensed-bold")
            for line, (x, _) in zip(fitted.lines, cell.title_at, strict=True):
                assert x >= x0 + grid.pad - 0.5 and x + fnt.getlength(line) <= x1 - grid.pad + 0.5, (event_id, line)
            for word, cuts in broken_words(fitted):
                heads = {head for head, _, _ in pobeda.break_points(word, lang)}
                for at, end in cuts:
                    assert word[:at] + ("-" if end == "hyphen" else "") in heads, (event_id, word, at)
    assert seen == 140 * len(grids) if grid_of == "board" else seen > 0


def broken_words(fitted: pobeda.TitleLayout) -> list[tuple[str, list[tuple[int, str]]]]:
    """The words a layout breaks across lines, each with its break offsets and kinds."""
    out: list[tuple[str, list[tuple[int, str]]]] = []
    current, cuts = "", []
    for line, end in zip(fitted.lines, fitted.breaks, strict=True):
        parts = line.split()
        for k, part in enumerate(parts):
            if k == len(parts) - 1 and end != "space":
                current += part[:-1] if end == "hyphen" else part
                cuts.append((len(current), end))
                continue
            if cuts:
                out.append((current + part, cuts))
            current, cuts = "", []
    return out


def test_no_board_title_shrinks_more_than_slightly_and_few_hyphenate() -> None:
    """On the board a title keeps 17 px or shrinks to 14 at least; added hyphens stay rare (the
    layout prefers shrinking a little to breaking a word)."""
    hyphenated = 0
    for event in EVENTS:
        for lang in ("ru", "en"):
            fitted = pobeda.fit_title(event["title"][lang], lang, pobeda.CELL - 2 * pobeda.PAD, pobeda.TITLE_SIZES,
                                      pobeda.TITLE_LINES)
            assert fitted.size >= 14
            hyphenated += fitted.breaks.count("hyphen")
    assert hyphenated <= 4


def test_break_points_are_sensible() -> None:
    assert ("Корсунь-", "Шевченковская", False) in pobeda.break_points("Корсунь-Шевченковская", "ru")
    heads = [head for head, _, _ in pobeda.break_points("Сталинградской", "ru")]
    assert "Сталин-" in heads and "Ст-" not in heads
    assert "Lenin-" in [head for head, _, _ in pobeda.break_points("Leningrad", "en")]
    assert not pobeda.break_points("битва", "ru") or all(len(rest) >= 2 for _, rest, _ in
                                                         pobeda.break_points("битва", "ru"))


# ---- the board: dates, bars, chips ------------------------------------------------------------
def bench_view() -> dict[str, Any]:
    return VIEWS["pobeda"]()[0][1]


def test_dates_stay_visible_next_to_chips() -> None:
    """Every occupied cell still shows its date: ink where the date is written, and no chip there."""
    view = bench_view()
    image = pobeda.reference(view, "ru")
    texts = pobeda._cell_texts(tuple(view["layout"]), "ru", pobeda.BOARD_GRID)
    for chip in view["chips"]:
        index = cell_index(chip["cell"])
        cell = texts[index]
        if view["layout"][index] is None:
            continue
        date_box = cell.keep_out[-1]
        tint = image.getpixel((int(date_box[0]) + 1, int(date_box[1]) - 5))  # inside the frames, above the date
        assert ink_rows(image, date_box, tint) >= glyph_cap(pobeda.DATE_SIZE, "condensed"), chip["cell"]
        for y in range(int(date_box[1]), int(date_box[3])):
            for x in range(int(date_box[0]), int(date_box[2])):
                assert image.getpixel((x, y)) not in pobeda.SIDE_COLOURS, (chip["cell"], x, y)


def test_chips_never_cover_text() -> None:
    """Each chip's outline (with a locked chip's ring) stays clear of its cell's title and date."""
    view = bench_view()
    texts = pobeda._cell_texts(tuple(view["layout"]), "ru", pobeda.BOARD_GRID)
    for index, cell in texts.items():
        if view["layout"][index] is None:  # a corner holds no chip
            continue
        cx, cy = pobeda.BOARD_GRID.chip_center(index)
        for side in range(3):
            r = pobeda.CHIP_R + max(4, pobeda.CHIP_R // 4)  # a locked chip's ring
            kind, geometry = pobeda.chip_shape(side, cx, cy, r)
            xs = [p[0] for p in geometry] if kind == "polygon" else [geometry[0], geometry[2]]  # type: ignore[index,union-attr]
            ys = [p[1] for p in geometry] if kind == "polygon" else [geometry[1], geometry[3]]  # type: ignore[index,union-attr]
            for box in cell.keep_out:
                apart = max(xs) < box[0] or min(xs) > box[2] or max(ys) < box[1] or min(ys) > box[3]
                assert apart, (cell_name(index), side, box)


def test_line_bars_cross_no_text_and_no_corner_star() -> None:
    """No pixel of a bar's colour inside any title, date or corner star box (bars cross the board in
    every direction in the bench state, vertical included)."""
    view = bench_view()
    assert any(len({c[0] for c in line["cells"]}) == 1 for line in view["lines"])  # a vertical line
    view = dict(view, lines=[*view["lines"], {"side": 2, "cells": ["A1", "B2", "C3", "D4", "E5"]},
                              {"side": 1, "cells": ["L1", "L2", "L3", "L4", "L5"]}])
    image = pobeda.reference(view, "en")
    texts = pobeda._cell_texts(tuple(view["layout"]), "en", pobeda.BOARD_GRID)
    bar_colours = set(pobeda.SIDE_DARK)
    checked = 0
    for cell in texts.values():
        for box in cell.keep_out:
            crop = image.crop(tuple(int(v) for v in box))  # type: ignore[arg-type]
            colours = {c for _, c in crop.getcolors(1 << 16) or []}
            assert not colours & bar_colours, box
            checked += 1
    assert checked > 400


def test_side_chips_differ_in_shape_in_greyscale() -> None:
    """Converted to greyscale, the three sides' chips on a rendered board differ in shape, not only in
    luminance (vermillion, blue and green are close in grey)."""
    view = bench_view()
    image = decode(pobeda.render(view, "ru")).convert("L")
    masks: dict[int, set[tuple[int, int]]] = {}
    for chip in view["chips"]:
        side = chip["side"]
        if side in masks or chip["locked"]:
            continue
        cx, cy = pobeda.cell_center(view, chip["cell"])
        r = pobeda.CHIP_R + 8
        ground = image.getpixel((cx - r, cy + r))
        masks[side] = {(x, y) for x in range(-r, r + 1) for y in range(-r, r + 1)
                       if abs(image.getpixel((cx + x, cy + y)) - ground) > 40}  # type: ignore[operator]
    assert set(masks) == {0, 1, 2}
    for a, b in combinations(masks, 2):
        differ = len(masks[a] ^ masks[b]) / len(masks[a] | masks[b])
        assert differ > 0.15, (a, b, differ)


def test_godstorm_owners_wear_different_marks_in_greyscale() -> None:
    view = VIEWS["godstorm"]()[0][1]
    image = decode(godstorm.render(view, "en")).convert("L")
    marks: dict[int, set[tuple[int, int]]] = {}
    for tid, st in view["territories"].items():
        owner = st.get("owner")
        if owner is None or owner in marks:
            continue
        x, y = godstorm.territory_center(tid)
        r = godstorm.NODE_R - 5
        marks[owner] = {(dx, dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1)
                        if image.getpixel((x + dx, y + dy)) > 225}  # the white mark
    assert len(marks) >= 4
    for a, b in combinations(marks, 2):
        differ = len(marks[a] ^ marks[b]) / max(1, len(marks[a] | marks[b]))
        assert differ > 0.2, (a, b, differ)


def test_coldwar_sides_have_different_emblems() -> None:
    shapes = []
    for seat in (0, 1):
        canvas = Image.new("RGB", (40, 40), (0, 0, 0))
        coldwar.emblem(ImageDraw.Draw(canvas), seat, 20, 20, 12)
        grey = canvas.convert("L")
        shapes.append({(x, y) for x in range(40) for y in range(40) if grey.getpixel((x, y)) > 20})
    assert len(shapes[0] ^ shapes[1]) / len(shapes[0] | shapes[1]) > 0.1


# ---- zoom: readable at 400 px ---------------------------------------------------------------
def pobeda_zooms() -> list[tuple[str, str]]:
    view = bench_view()
    return [(lang, value) for lang in ("ru", "en") for value, _ in pobeda.zoom_choices(view, lang)]


@pytest.mark.parametrize(("lang", "zoom"), pobeda_zooms())
def test_pobeda_zoom_text_is_9px_at_400(lang: str, zoom: str) -> None:
    """Every text of a zoom is drawn at one size (titles, dates, coordinates, heading) whose cap height,
    measured on a drawn glyph and scaled to 400 px width, is at least 9 px; and a date on the zoomed
    image measures so too."""
    view = bench_view()
    image = pobeda.zoom_image(view, lang, zoom)
    assert image is not None and image.width <= MAX_SIDE and image.height <= MAX_SIDE
    region = pobeda.zoom_region(view, zoom)
    assert region is not None
    grid = pobeda._zoom_grid(tuple(view["layout"]), lang, region)
    scale = PHONE / image.width
    for size in {*grid.title_sizes, grid.date_size}:
        assert glyph_cap(size, "condensed-bold") * scale >= MIN_CAP
        assert glyph_cap(size, "condensed") * scale >= MIN_CAP
    texts = pobeda._cell_texts(tuple(view["layout"]), lang, grid)
    index, cell = next((i, c) for i, c in texts.items() if view["layout"][i] is not None and cell_name(i) not in
                       {ch["cell"] for ch in view["chips"]} | set(view["last_move"]))
    tint = image.getpixel((int(cell.keep_out[-1][0]) - 2, int(cell.keep_out[-1][1]) - 2))
    digits = ink_rows(image, cell.keep_out[-1], tint)  # type: ignore[arg-type]
    assert digits * scale >= MIN_CAP, (cell_name(index), digits, image.width)
    assert len(pobeda.render_zoom(view, lang, zoom) or b"") <= MAX_BYTES


def godstorm_zooms() -> list[tuple[int, str]]:
    out = []
    for k, (_, view) in enumerate(VIEWS["godstorm"]()):
        out += [(k, value) for value, _ in godstorm.zoom_choices(view, "ru")]
    return out


@pytest.mark.parametrize(("which", "zoom"), godstorm_zooms())
def test_godstorm_zoom_names_and_armies_are_9px_at_400(which: int, zoom: str, monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    """Territory names and army counts of every zoom (each continent or its halves, the Underworld,
    the last move) have a cap height of at least 9 px once the image is 400 px wide."""
    view = VIEWS["godstorm"]()[which][1]
    sizes: list[tuple[str, int]] = []
    real_pill, real_name = godstorm._pill, godstorm._territory_name

    def pill(draw: Any, x: float, y: float, label: str, border: Any, size: int = 21) -> None:
        sizes.append(("pill", size))
        real_pill(draw, x, y, label, border, size)

    def name(draw: Any, tid: str, lang: str, size: int = 17) -> None:
        sizes.append(("name", size))
        real_name(draw, tid, lang, size)

    monkeypatch.setattr(godstorm, "_pill", pill)
    monkeypatch.setattr(godstorm, "_territory_name", name)
    image = godstorm.zoom_image(view, "ru", zoom)
    assert image is not None and image.width <= MAX_SIDE and image.height <= MAX_SIDE
    scale = PHONE / image.width
    assert sizes
    for kind, size in sizes:
        assert glyph_cap(size, "bold" if kind == "pill" else "condensed-bold") * scale >= MIN_CAP, (kind, size)
    assert len(godstorm.render_zoom(view, "ru", zoom) or b"") <= MAX_BYTES


def test_unknown_zooms_are_refused_by_the_renderers() -> None:
    assert pobeda.render_zoom(bench_view(), "ru", "north-pole") is None
    view = dict(bench_view(), last_move=[])
    assert "last" not in dict(pobeda.zoom_choices(view, "ru")) and pobeda.render_zoom(view, "ru", "last") is None
    assert godstorm.render_zoom(VIEWS["godstorm"]()[0][1], "ru", "europa:north") is None


# ---- the personal board ---------------------------------------------------------------------
def frame_colours(image: Image.Image, name: str) -> set[tuple[int, int, int]]:
    x0, y0, x1, _ = pobeda.BOARD_GRID.box(cell_index(name))
    band = image.crop((x0 + 1, y0 + 1, x1 - 1, y0 + pobeda.PAD - 2))
    return {c for _, c in band.getcolors(1 << 16) or []}


def test_personal_board_marks_exactly_the_hand_cells_from_the_seat_view() -> None:
    """Seat 1's board marks the cells of the event cards in seat 1's hand (the rules' ``cell_of``)
    and no other cell; seat 0's board, other hands, and the public board are not involved."""
    game = make(3, seed=21)
    put(game, 0, *row("A", "C", 4))
    give(game, 1, game.s.layout[cell_index("D7")], game.s.layout[cell_index("K2")])
    hand = game.s.hands[1]
    expected = {cell_name(game.cell_of[card]) for card in hand if card in game.cell_of}
    assert {"D7", "K2"} <= expected
    view = game.view(1)
    assert sorted(view["hand"]) == sorted(hand) and "hands" not in view  # the seat's own cards only
    image = decode(pobeda.render_personal(view, "en"))
    assert max(image.size) <= MAX_SIDE
    marked = {name for name in view["cells"] if pobeda.PLAYABLE in frame_colours(image, name)}
    assert marked == expected
    public = decode(pobeda.render(game.view(None), "en"))
    assert not any(pobeda.PLAYABLE in frame_colours(public, name) for name in view["cells"])


def test_personal_board_is_in_the_viewers_language() -> None:
    """The same seat view drawn for a Russian and an English reader: the titles follow the language
    (the pixels of the static board match that language's board) while the marks stay the same."""
    game = make(2, seed=5)
    view = game.view(0)
    english = decode(pobeda.render_personal(view, "en"))
    russian = decode(pobeda.render_personal(view, "ru"))
    assert english.size == russian.size == (pobeda.WIDTH, pobeda.HEIGHT)
    playable = pobeda.playable_cells(view)
    assert english.tobytes() == pobeda.compose(view, "en", playable).convert("RGB").tobytes()
    assert english.tobytes() != russian.tobytes()
    assert len(pobeda.render_personal(view, "en")) <= MAX_BYTES


@pytest.mark.parametrize(("game", "zoom"), [("pobeda", "nw"), ("pobeda", "last"), ("godstorm", "europa:e"),
                                            ("godstorm", "underworld")])
def test_zooms_on_the_palette_look_like_full_colour(game: str, zoom: str) -> None:
    """A zoom is sent on the game's fixed palette: the same picture as in full colour (the limits of
    ``test_render_fidelity``: mean difference at most 0.5 of 255, no 8x8 block over 24)."""
    from PIL import ImageChops, ImageStat

    from render.common import palette

    module = pobeda if game == "pobeda" else godstorm
    view = VIEWS[game]()[0][1]
    full = module.zoom_image(view, "ru", zoom)  # type: ignore[attr-defined]
    assert full is not None
    sent = decode(module.render_zoom(view, "ru", zoom))  # type: ignore[attr-defined]
    assert sent.size == full.size
    diff = ImageChops.difference(full.convert("RGB"), sent)
    assert sum(ImageStat.Stat(diff).mean) / 3 <= 0.5
    assert max(high for _, high in diff.reduce(8).getextrema()) <= 24
    assert palette(game).quantize(full).convert("RGB").tobytes() == sent.tobytes()
