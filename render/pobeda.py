"""Pobeda board: 12x12 event cells, coordinates on the edges, chips, lines and a caption.

The static part (cells, titles, dates, coordinates) depends only on the layout and the
language, so it is drawn once, mapped onto the game's fixed palette and cached; each render copies
that palette image and draws the chips, lines and highlights straight onto it by palette index
(they have no anti-aliasing). Only the caption's text is drawn in full colour and mapped.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.pobeda.data import cell_index
from bot.games.pobeda.text import side_name
from bot.games.pobeda.view import PobedaView
from bot.i18n import t
from bot.paths import DATA_DIR
from render.common import Colour, encode_png, font, palette, rendered_once, seat_label, wrap

EVENTS_FILE = DATA_DIR / "pobeda" / "events.json"

SIZE = 12
CELL = 150
MARGIN = 44
BOARD = CELL * SIZE
CAPTION = 140
WIDTH = BOARD + 2 * MARGIN
HEIGHT = BOARD + 2 * MARGIN + CAPTION
CHIP_R = 40
CHIP_DY = 24  # the disc sits below the cell centre, leaving the title visible above it

# The pixels of each side's colour (``bot.games.pobeda.text.SIDE_COLOUR_KEYS`` names them), in
# Okabe–Ito shades (vermillion, blue, bluish green): distinct for common colour blindness.
SIDE_COLOURS: tuple[tuple[int, int, int], ...] = ((213, 94, 0), (0, 114, 178), (0, 158, 115))
SIDE_DARK: tuple[tuple[int, int, int], ...] = ((140, 55, 0), (0, 70, 115), (0, 100, 72))

BG = (250, 248, 242)
GRID = (120, 112, 100)
INK = (35, 32, 28)
MUTED = (110, 102, 92)
CORNER_BG = (60, 56, 50)
GOLD = (245, 196, 30)
HIGHLIGHT = (255, 214, 0)
WHITE = (255, 255, 255)
CORNER_TEXT = (240, 236, 226)
YEAR_TINTS = {
    "1941": (244, 234, 216), "1942": (234, 236, 226), "1943": (245, 241, 214),
    "1944": (230, 237, 233), "1945": (246, 231, 226),
}
# Flat colours that must survive the palette exactly (chips are drawn by palette index).
EXACT_COLOURS: tuple[Colour, ...] = (*SIDE_COLOURS, *SIDE_DARK, BG, GRID, INK, MUTED, CORNER_BG, GOLD, HIGHLIGHT,
                                     WHITE, CORNER_TEXT, *YEAR_TINTS.values())
Ink = Callable[[Colour], Any]  # a colour as the target image wants it: an RGB triple or a palette index


@lru_cache(maxsize=1)
def _events() -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in json.loads(EVENTS_FILE.read_text(encoding="utf-8"))}


def _cell_box(index: int) -> tuple[int, int, int, int]:
    row, col = divmod(index, SIZE)
    x, y = MARGIN + col * CELL, MARGIN + row * CELL
    return x, y, x + CELL, y + CELL


def cell_center(view: PobedaView, cell: str) -> tuple[int, int]:
    """Pixel centre of the chip disc drawn on ``cell`` (e.g. ``"E5"``)."""
    x0, y0, _, _ = _cell_box(cell_index(cell))
    return x0 + CELL // 2, y0 + CELL // 2 + CHIP_DY


def _short_date(iso: str, lang: str) -> str:
    parts = iso.split("-")
    if len(parts) == 3:
        return f"{int(parts[2]):02d}.{parts[1]}.{parts[0]}"
    return f"{parts[1]}.{parts[0]}"


def _star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    points = []
    for k in range(10):
        radius = outer if k % 2 == 0 else inner
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _draw_background(layout: tuple[str | None, ...], lang: str) -> Image.Image:
    """The static board in full colour (not cached: the cache keeps only its palette image)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(image)
    events = _events()
    title_font = font(17, "condensed-bold")
    date_font = font(14, "condensed")
    coord_font = font(24, "bold")
    for index, event_id in enumerate(layout):
        x0, y0, x1, y1 = _cell_box(index)
        if event_id is None:
            draw.rectangle((x0, y0, x1, y1), fill=CORNER_BG)
            draw.polygon(_star(x0 + CELL / 2, y0 + CELL / 2 - 8, 46, 19), fill=GOLD)
            label = t("pobeda.render.corner", lang)
            width = draw.textlength(label, font=date_font)
            draw.text((x0 + (CELL - width) / 2, y1 - 30), label, font=date_font, fill=CORNER_TEXT)
            continue
        record = events.get(event_id, {})
        tint = YEAR_TINTS.get(str(record.get("date", ""))[:4], BG)
        draw.rectangle((x0, y0, x1, y1), fill=tint)
        title = record.get("title", {}).get(lang) or record.get("title", {}).get("en", event_id)
        for k, line in enumerate(wrap(draw, title, title_font, CELL - 12, 3)):
            width = draw.textlength(line, font=title_font)
            draw.text((x0 + (CELL - width) / 2, y0 + 5 + 18 * k), line, font=title_font, fill=INK)
        date = _short_date(str(record.get("date", "")), lang) if record else ""
        width = draw.textlength(date, font=date_font)
        draw.text((x0 + (CELL - width) / 2, y1 - 24), date, font=date_font, fill=MUTED)
    for k in range(SIZE + 1):
        pos = MARGIN + k * CELL
        draw.line((pos, MARGIN, pos, MARGIN + BOARD), fill=GRID, width=2)
        draw.line((MARGIN, pos, MARGIN + BOARD, pos), fill=GRID, width=2)
    for k in range(SIZE):
        centre = MARGIN + k * CELL + CELL / 2
        letter, number = "ABCDEFGHIJKL"[k], str(k + 1)
        lw = draw.textlength(letter, font=coord_font)
        nw = draw.textlength(number, font=coord_font)
        for y in (8, MARGIN + BOARD + 8):
            draw.text((centre - lw / 2, y), letter, font=coord_font, fill=INK)
        for x in (MARGIN / 2, MARGIN + BOARD + MARGIN / 2):
            draw.text((x - nw / 2, centre - 14), number, font=coord_font, fill=INK)
    return image


def _seat_name(view: PobedaView, seat: int, lang: str) -> str:
    return seat_label(view, seat, t("pobeda.seat", lang, n=seat + 1), limit=18)


def _side_name(view: PobedaView, side: int, lang: str) -> str:
    return side_name(side, bool(view.get("team_game")), lang)


@lru_cache(maxsize=8)
def _palette_background(layout: tuple[str | None, ...], lang: str) -> Image.Image:
    """The static board on the game's palette, per layout and language (8 x 3.8 MB at most)."""
    return palette("pobeda").quantize(_draw_background(layout, lang))


def _draw_lines(draw: ImageDraw.ImageDraw, view: PobedaView, ink: Ink) -> None:
    for line in view.get("lines", []):
        cells = line["cells"]
        start = cell_center(view, cells[0])
        end = cell_center(view, cells[-1])
        draw.line((start, end), fill=ink(WHITE), width=22)
        draw.line((start, end), fill=ink(SIDE_DARK[line["side"]]), width=14)


def _hide_dates(background: Image.Image, draw: ImageDraw.ImageDraw, view: PobedaView) -> None:
    """Cover the date of each occupied cell with the cell's own tint (the disc hides it)."""
    for chip in view.get("chips", []):
        x0, _, x1, y1 = _cell_box(cell_index(chip["cell"]))
        draw.rectangle((x0 + 4, y1 - 26, x1 - 4, y1 - 3), fill=background.getpixel((x0 + 6, y1 - 6)))


def _draw_chips(draw: ImageDraw.ImageDraw, view: PobedaView, ink: Ink) -> None:
    for chip in view.get("chips", []):
        cx, cy = cell_center(view, chip["cell"])
        colour = ink(SIDE_COLOURS[chip["side"]])
        if chip.get("locked"):
            draw.ellipse((cx - CHIP_R - 6, cy - CHIP_R - 6, cx + CHIP_R + 6, cy + CHIP_R + 6), fill=ink(GOLD))
            draw.ellipse((cx - CHIP_R, cy - CHIP_R, cx + CHIP_R, cy + CHIP_R), fill=colour,
                         outline=ink(INK), width=2)
            draw.polygon(_star(cx, cy, 30, 13), outline=ink(WHITE), width=4)
        else:
            draw.ellipse((cx - CHIP_R, cy - CHIP_R, cx + CHIP_R, cy + CHIP_R), fill=colour,
                         outline=ink(INK), width=3)


def _caption(view: PobedaView, lang: str) -> Image.Image:
    image = Image.new("RGB", (WIDTH, CAPTION), BG)
    draw = ImageDraw.Draw(image)
    top = 0
    big, small = font(30, "bold"), font(26, "regular")
    x = MARGIN
    required = view.get("required", 1)
    for side, count in enumerate(view.get("lines_per_side", [])):
        draw.ellipse((x, top + 12, x + 34, top + 46), fill=SIDE_COLOURS[side], outline=INK, width=2)
        label = t("pobeda.render.lines", lang, side=_side_name(view, side, lang), n=count, required=required)
        draw.text((x + 44, top + 12), label, font=big, fill=INK)
        x += 44 + int(draw.textlength(label, font=big)) + 40
    deck = t("pobeda.render.deck", lang, n=view.get("deck", 0))
    draw.text((WIDTH - MARGIN - draw.textlength(deck, font=big), top + 12), deck, font=big, fill=INK)
    outcome = view.get("outcome")
    if outcome:
        if outcome.get("draw"):
            status = t("pobeda.render.draw", lang)
        else:
            names = ", ".join(_side_name(view, k, lang) for k in outcome.get("winners", []))
            status = t("pobeda.render.winner", lang, side=names)
        colour = INK
    elif penalty := view.get("penalty"):
        status = t("pobeda.render.penalty", lang, side=_side_name(view, penalty["side"], lang))
        colour = INK
    else:
        seat = view.get("current")
        choice = view.get("pending_choice")
        if choice:
            seat = choice["seat"]
        seat = seat if isinstance(seat, int) else 0
        side = view.get("seat_sides", [0])[seat]
        who = f"{_seat_name(view, seat, lang)} ({_side_name(view, side, lang)})"
        key = "pobeda.render.choosing" if choice else "pobeda.render.turn"
        status = t(key, lang, who=who)
        colour = SIDE_DARK[side]
        draw.ellipse((MARGIN, top + 72, MARGIN + 34, top + 106), fill=SIDE_COLOURS[side], outline=INK, width=2)
    draw.text((MARGIN + 44, top + 70), status, font=small if outcome is None else big, fill=colour)
    return image


def _draw_view(image: Image.Image, view: PobedaView, ink: Ink) -> None:
    """What changes from move to move, drawn over a copy of the static board."""
    draw = ImageDraw.Draw(image)
    _hide_dates(image, draw, view)
    for name in view.get("last_move", []):
        x0, y0, x1, y1 = _cell_box(cell_index(name))
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=ink(HIGHLIGHT), width=8)
        draw.rectangle((x0 + 9, y0 + 9, x1 - 9, y1 - 9), outline=ink(INK), width=1)
    _draw_lines(draw, view, ink)
    _draw_chips(draw, view, ink)


def compose(view: PobedaView, lang: str) -> Image.Image:
    """The board as a palette image: the cached static board plus this view, drawn by index."""
    pal = palette("pobeda")
    image = _palette_background(tuple(view["layout"]), lang).copy()
    _draw_view(image, view, pal.ix)
    image.paste(pal.quantize(_caption(view, lang)), (0, HEIGHT - CAPTION))
    return image


def reference(view: PobedaView, lang: str) -> Image.Image:
    """The same board drawn straightforwardly in full colour, without caches or palette (tests)."""
    image = _draw_background(tuple(view["layout"]), lang)
    _draw_view(image, view, lambda colour: colour)
    image.paste(_caption(view, lang), (0, HEIGHT - CAPTION))
    return image


@rendered_once("pobeda")
def render(view: PobedaView, lang: str) -> bytes:
    return encode_png(compose(view, lang))
