"""Pobeda board: 12x12 event cells, coordinates on the edges, chips, lines and a caption.

The static part (cells, titles, dates, coordinates) depends only on the layout and the
language, so it is drawn once, mapped onto the game's fixed palette and cached; each render copies
that palette image and draws the chips, lines and highlights straight onto it by palette index
(they have no anti-aliasing). Only the caption's text is drawn in full colour and mapped. A chip is
pasted from a sprite drawn once per side and kind (``_chip_sprite``: the same pixels), and a line's
bar pieces (where it crosses no text) are worked out once per line (``_line_pieces``). The PNG is
written with the settings of ``encode_board``.

A cell holds its title at the top (wrapped, hyphenated only at TeX pattern points, shrunk a little
if it needs to be, never cut: ``fit_title``), its date at the bottom left and the chip at the bottom
right, so a chip never hides the date. Each side's chip has its own shape (disc, square, triangle)
as well as its colour, for colour-blind players and greyscale screens. A finished line's bar is
drawn only where it crosses no text and no corner star (``_bar_pieces``).

Besides the public board: ``render_zoom`` draws a region (a quadrant, or the last move's
neighbourhood) with text big enough for a phone (``ZOOM_CAP_AT_400`` px cap height at 400 px
width), and ``render_personal`` draws one seat's board in that seat's language with the cells of
the event cards in its hand marked.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

import pyphen  # type: ignore[import-untyped]
from PIL import Image, ImageDraw, ImageFont

from bot.core.i18n import t
from bot.core.paths import DATA_DIR
from bot.games.pobeda.data import cell_index
from bot.games.pobeda.text import side_name
from bot.games.pobeda.view import PobedaView
from render.common import (
    Colour,
    encode_png,
    font,
    palette,
    rendered_once,
    rounded_rectangle,
    seat_label,
    text,
)
from render.layers import kept_on_disk

EVENTS_FILE = DATA_DIR / "pobeda" / "events.json"

SIZE = 12
CELL = 150
MARGIN = 44
BOARD = CELL * SIZE
CAPTION = 140
WIDTH = BOARD + 2 * MARGIN
HEIGHT = BOARD + 2 * MARGIN + CAPTION
PAD = 9
"""Text keeps this far from a cell's edge (the last-move and playable frames live in it)."""
TITLE_SIZES = (17, 16, 15, 14)
"""The board's title font sizes, largest first: a title shrinks only as far as it must."""
TITLE_LINES = 4
DATE_SIZE = 14
CHIP_R = 26
CHIP_DX = CELL - CHIP_R - 8  # the chip's centre from the cell's left edge (bottom right, clear of the date)
CHIP_DY = CELL - PAD - CHIP_R - 2  # ... and from its top
BAR = 12  # a finished line's bar, with a white casing of BAR + 6
CAP_RATIO = 0.73
"""DejaVu's cap height as a share of the font size (measured: 73 px at 100 px)."""

# The pixels of each side's colour (``bot.games.pobeda.text.SIDE_COLOUR_KEYS`` names them), in
# Okabe–Ito shades (vermillion, blue, bluish green): distinct for common colour blindness.
SIDE_COLOURS: tuple[tuple[int, int, int], ...] = ((213, 94, 0), (0, 114, 178), (0, 158, 115))
SIDE_DARK: tuple[tuple[int, int, int], ...] = ((140, 55, 0), (0, 70, 115), (0, 100, 72))
SIDE_SHAPES = ("disc", "square", "triangle")
"""Each side's chip shape: the sides differ without colour too."""

BG = (250, 248, 242)
GRID = (120, 112, 100)
INK = (35, 32, 28)
MUTED = (110, 102, 92)
CORNER_BG = (60, 56, 50)
GOLD = (245, 196, 30)
HIGHLIGHT = (255, 214, 0)
PLAYABLE = (204, 121, 167)
"""The dashed frame of a cell the viewer holds the card of (personal board), Okabe–Ito purple."""
WHITE = (255, 255, 255)
CORNER_TEXT = (240, 236, 226)
YEAR_TINTS = {
    "1941": (244, 234, 216), "1942": (234, 236, 226), "1943": (245, 241, 214),
    "1944": (230, 237, 233), "1945": (246, 231, 226),
}
# Flat colours that must survive the palette exactly (chips are drawn by palette index).
EXACT_COLOURS: tuple[Colour, ...] = (*SIDE_COLOURS, *SIDE_DARK, BG, GRID, INK, MUTED, CORNER_BG, GOLD, HIGHLIGHT,
                                     PLAYABLE, WHITE, CORNER_TEXT, *YEAR_TINTS.values())
Ink = Callable[[Colour], Any]  # a colour as the target image wants it: an RGB triple or a palette index
Box = tuple[float, float, float, float]


@lru_cache(maxsize=1)
def _events() -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in json.loads(EVENTS_FILE.read_text(encoding="utf-8"))}


def event_title(event_id: str, lang: str) -> str:
    record = _events().get(event_id, {})
    return str(record.get("title", {}).get(lang) or record.get("title", {}).get("en", event_id))


# ---- titles: wrap, hyphenate, shrink; never cut ---------------------------------------------
@dataclass(frozen=True)
class TitleLayout:
    size: int
    lines: tuple[str, ...]
    breaks: tuple[str, ...]
    """How each line ends: "space" (between words, and the last line), "hyphen" (inside a word, at a
    hyphen the layout added) or "inside" (inside a word, after a hyphen the word has itself)."""


@lru_cache(maxsize=4)
def _hyphenator(lang: str) -> pyphen.Pyphen:
    # TeX's own minimum fragments: 2 and 2 letters in Russian, 2 and 3 in English
    return pyphen.Pyphen(lang="ru_RU", left=2, right=2) if lang == "ru" else pyphen.Pyphen(lang="en_US", left=2,
                                                                                            right=3)


def break_points(word: str, lang: str) -> list[tuple[str, str, bool]]:
    """Where ``word`` may be broken: (head as drawn, rest, inserted hyphen?), in order of preference:
    after a hyphen of the word itself, then at a TeX pattern point of its letters (a hyphen is added);
    longest head first within each."""
    found: dict[int, bool] = {}
    for k, char in enumerate(word[:-1]):
        if char in "-–" and k > 0:
            found[k + 1] = False
    start = 0
    while start < len(word) and not word[start].isalpha():
        start += 1
    end = len(word)
    while end > start and not word[end - 1].isalpha():
        end -= 1
    spare: set[int] = set()
    for part_start, part in _alpha_runs(word, start, end):
        for pos in _hyphenator(lang).positions(part):
            found.setdefault(part_start + pos, True)
        spare.update(part_start + pos for pos in syllable_points(part))
    # the word's own hyphens first (a compound breaks between its parts where it can), then the
    # pattern points, then (a name the patterns do not know) the syllable points
    order = sorted(found.items(), key=lambda item: (item[1], -item[0]))
    order += [(k, True) for k in sorted(spare - set(found), reverse=True)]
    return [(word[:k] + ("-" if soft else ""), word[k:], soft) for k, soft in order]


VOWELS = set("aeiouyаеёиоуыэюя")
DIGRAPHS = ("sh", "ch", "kh", "zh", "ts", "th", "ph", "ck", "gh")
"""Latin letter pairs that spell one consonant (transliterated names: Pokryshkin, Prokhorovka)."""


def syllable_points(part: str) -> list[int]:
    """Break points of a word by syllables, for names the TeX patterns do not know: between two
    vowels' syllables, before the last consonant of the cluster between them (a pair that spells one
    sound stays whole, so does a stop before r or l; ь, ъ and й stay with the letter before); at least two letters before the
    break and three after, each side with a vowel."""
    low = part.lower()
    vowels = [k for k, ch in enumerate(low) if ch in VOWELS]
    points = []
    for a, b in zip(vowels, vowels[1:], strict=False):
        gap = low[a + 1:b]
        if not gap:
            continue
        cut = b - 1
        if len(gap) >= 2 and low[b - 2:b] in DIGRAPHS:
            cut = b - 2
        elif len(gap) >= 2 and low[b - 1] in "rlрл" and low[b - 2] not in "rlmnрлмн":
            cut = b - 2  # a stop and a liquid open the syllable together: Lenin-grad
        while cut > a + 1 and low[cut] in "ьъй":
            cut += 1
        if low[cut] in "ьъй":
            cut += 1
        if cut >= 2 and len(part) - cut >= 3 and any(ch in VOWELS for ch in low[cut:]):
            points.append(cut)
    return points


def _alpha_runs(word: str, start: int, end: int) -> Iterable[tuple[int, str]]:
    """The letter runs of ``word[start:end]`` (a hyphenated word's parts), with their offsets."""
    k = start
    while k < end:
        if word[k].isalpha():
            j = k
            while j < end and word[j].isalpha():
                j += 1
            yield k, word[k:j]
            k = j
        else:
            k += 1


def _wrap(words: Sequence[str], lang: str, fnt: ImageFont.FreeTypeFont, width: float, mode: int
          ) -> tuple[list[str], list[str]] | None:
    """Greedy wrap. Mode 0 breaks no word (None if one is wider than a line); mode 1 breaks a word
    wider than a line at its break points (None if a piece still does not fit); mode 2 also breaks
    a word that does not fit the rest of a line, to fill it."""
    lines: list[str] = []
    soft: list[str] = []
    current = ""
    queue = list(words)
    while queue:
        word = queue.pop(0)
        candidate = f"{current} {word}" if current else word
        if fnt.getlength(candidate) <= width:
            current = candidate
            continue
        if not current and mode == 0:
            return None
        if current and mode == 2 or not current:
            lead = f"{current} " if current else ""
            for head, rest, inserted in break_points(word, lang):
                if fnt.getlength(lead + head) <= width:
                    lines.append(lead + head)
                    soft.append("hyphen" if inserted else "inside")
                    current = ""
                    queue.insert(0, rest)
                    break
            else:
                if not current:
                    return None  # not even the shortest piece fits
                lines.append(current)
                soft.append("space")
                current = ""
                queue.insert(0, word)
            continue
        lines.append(current)
        soft.append("space")
        current = ""
        queue.insert(0, word)
    if current:
        lines.append(current)
        soft.append("space")
    return lines, soft


@lru_cache(maxsize=4096)  # 140 titles x 2 languages x the board's and the zooms' widths
def fit_title(title: str, lang: str, width: float, sizes: tuple[int, ...], max_lines: int,
              style: str = "condensed-bold") -> TitleLayout:
    """The title in at most ``max_lines`` lines of at most ``width`` px, breaking words only at
    their break points: the layout with the fewest added hyphens, then the largest size (a title
    shrinks only as far as it must). Nothing is ever cut: if nothing fits ``max_lines``, the layout
    with the fewest lines is returned all the same."""
    words = title.split()
    best: tuple[tuple[int, int, int], TitleLayout] | None = None
    fewest: TitleLayout | None = None
    for mode in (0, 1, 2):
        for size in sizes:
            if best is not None and (0, -size, 0) >= best[0]:
                continue  # no layout at this size can cost less (fewest matters only while nothing fits)
            wrapped = _wrap(words, lang, font(size, style), width, mode)
            if wrapped is None:
                continue
            found = TitleLayout(size, tuple(wrapped[0]), tuple(wrapped[1]))
            if len(found.lines) > max_lines:
                if fewest is None or len(found.lines) < len(fewest.lines):
                    fewest = found
                continue
            # fewest added hyphens first, then the largest size, then fewest breaks inside words
            cost = (found.breaks.count("hyphen"), -size, found.breaks.count("inside"))
            if best is None or cost < best[0]:
                best = (cost, found)
    if best is not None:
        return best[1]
    if fewest is not None:
        return fewest
    # a piece wider than the box even at the smallest size: one word a line, overhanging
    return TitleLayout(sizes[-1], tuple(words), tuple("space" for _ in words))


def joined(layout: TitleLayout) -> str:
    """The text a layout reads as (inserted hyphens and line breaks undone): the title itself."""
    out = ""
    for line, end in zip(layout.lines, layout.breaks, strict=True):
        out += {"hyphen": line[:-1], "inside": line}.get(end, line + " ")
    return " ".join(out.split())


# ---- geometry ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """Where a (part of the) board is drawn: the rows and columns shown and the sizes used."""

    row0: int
    col0: int
    rows: int
    cols: int
    cell_w: int
    row_h: tuple[int, ...]
    left: int
    top: int
    title_sizes: tuple[int, ...]
    title_lines: int
    date_size: int
    chip_r: int
    pad: int
    stacked: bool
    """Zoom cells: title, then date, then the chip, one under the other (the board's cells put the
    date and chip side by side at the bottom)."""

    def contains(self, index: int) -> bool:
        row, col = divmod(index, SIZE)
        return self.row0 <= row < self.row0 + self.rows and self.col0 <= col < self.col0 + self.cols

    def box(self, index: int) -> tuple[int, int, int, int]:
        row, col = divmod(index, SIZE)
        x = self.left + (col - self.col0) * self.cell_w
        y = self.top + sum(self.row_h[: row - self.row0])
        return x, y, x + self.cell_w, y + self.row_h[row - self.row0]

    @property
    def width(self) -> int:
        return self.cell_w * self.cols

    @property
    def height(self) -> int:
        return sum(self.row_h)

    def chip_center(self, index: int) -> tuple[int, int]:
        x0, y0, x1, y1 = self.box(index)
        if self.stacked:
            return (x0 + x1) // 2, y1 - self.pad - self.chip_r - 4
        return x0 + CHIP_DX, y0 + CHIP_DY


BOARD_GRID = Grid(0, 0, SIZE, SIZE, CELL, (CELL,) * SIZE, MARGIN, MARGIN, TITLE_SIZES, TITLE_LINES, DATE_SIZE,
                  CHIP_R, PAD, False)


def _cell_box(index: int) -> tuple[int, int, int, int]:
    return BOARD_GRID.box(index)


def cell_center(view: PobedaView, cell: str) -> tuple[int, int]:
    """Pixel centre of the chip drawn on ``cell`` (e.g. ``"E5"``) on the board."""
    return BOARD_GRID.chip_center(cell_index(cell))


def _short_date(iso: str, lang: str, short_year: bool = False) -> str:
    parts = iso.split("-")
    if len(parts) < 2:
        return ""
    year = parts[0][2:] if short_year else parts[0]
    if len(parts) == 3:
        return f"{int(parts[2]):02d}.{parts[1]}.{year}"
    return f"{parts[1]}.{year}"


def _star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    points = []
    for k in range(10):
        radius = outer if k % 2 == 0 else inner
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


@dataclass(frozen=True)
class CellText:
    """What a cell's static part shows, where, and the boxes no bar may cross."""

    title: TitleLayout | None
    title_at: tuple[tuple[float, float], ...]
    date: str
    date_at: tuple[float, float]
    keep_out: tuple[Box, ...]


def _date_font(grid: Grid) -> ImageFont.FreeTypeFont:
    return font(grid.date_size, "condensed")


def _line_height(size: int) -> int:
    return size + max(1, size // 12)


@lru_cache(maxsize=64)  # per layout, language and grid (the board, each zoom region): a few KB each
def _cell_texts(layout: tuple[str | None, ...], lang: str, grid: Grid) -> dict[int, CellText]:
    events = _events()
    out: dict[int, CellText] = {}
    date_font = _date_font(grid)
    inner = grid.cell_w - 2 * grid.pad
    for index, event_id in enumerate(layout):
        if not grid.contains(index):
            continue
        x0, y0, x1, y1 = grid.box(index)
        if event_id is None:
            cx, cy = (x0 + x1) / 2, _star_y(grid, y0, y1)
            r = _star_r(grid)
            label = fit_title(t("pobeda.render.corner", lang), lang, inner, (grid.date_size,), 2, "condensed")
            step = _line_height(grid.date_size)
            bottom = y1 - grid.pad - 4 - step * len(label.lines)
            spots = tuple((x0 + (grid.cell_w - date_font.getlength(line)) / 2, float(bottom + step * k))
                          for k, line in enumerate(label.lines))
            star: list[Box] = [(cx - r, cy - r, cx + r, cy + r)]
            star += [_text_box(date_font, line, at) for line, at in zip(label.lines, spots, strict=True)]
            out[index] = CellText(label, spots, "", spots[-1], tuple(star))
            continue
        record = events.get(event_id, {})
        title = fit_title(event_title(event_id, lang), lang, inner, grid.title_sizes, grid.title_lines)
        fnt = font(title.size, "condensed-bold")
        step = _line_height(title.size)
        places: list[tuple[float, float]] = []
        boxes: list[Box] = []
        for k, line in enumerate(title.lines):
            at = (x0 + (grid.cell_w - fnt.getlength(line)) / 2, y0 + grid.pad + 1 + step * k)
            places.append(at)
            boxes.append(_text_box(fnt, line, at))
        date = _short_date(str(record.get("date", "")), lang)
        if grid.stacked:
            if date_font.getlength(date) > inner:
                date = _short_date(str(record.get("date", "")), lang, short_year=True)
            top = y0 + grid.pad + 1 + step * len(title.lines) + grid.date_size // 3
            date_at = (x0 + (grid.cell_w - date_font.getlength(date)) / 2, top)
        else:
            date_at = (x0 + grid.pad, y1 - grid.pad - grid.date_size - 2)
        boxes.append(_text_box(date_font, date, date_at))
        out[index] = CellText(title, tuple(places), date, date_at, tuple(boxes))
    return out


def _text_box(fnt: ImageFont.FreeTypeFont, label: str, at: tuple[float, float]) -> Box:
    x0, y0, x1, y1 = fnt.getbbox(label)
    return at[0] + x0, at[1] + y0, at[0] + x1, at[1] + y1


def _star_r(grid: Grid) -> float:
    return grid.cell_w * 0.3


def _star_y(grid: Grid, y0: int, y1: int) -> float:
    if grid.stacked:
        return y0 + grid.pad + grid.cell_w * 0.35
    return (y0 + y1) / 2 - grid.date_size * 0.55


def _draw_cells(draw: ImageDraw.ImageDraw, layout: tuple[str | None, ...], lang: str, grid: Grid) -> None:
    events = _events()
    texts = _cell_texts(layout, lang, grid)
    date_font = _date_font(grid)
    for index, cell in texts.items():
        x0, y0, x1, y1 = grid.box(index)
        event_id = layout[index]
        if event_id is None:
            draw.rectangle((x0, y0, x1, y1), fill=CORNER_BG)
            r = _star_r(grid)
            draw.polygon(_star((x0 + x1) / 2, _star_y(grid, y0, y1), r, r * 0.41), fill=GOLD)
            for line, at in zip(cell.title.lines if cell.title else (), cell.title_at, strict=True):
                draw.text(at, line, font=date_font, fill=CORNER_TEXT)
            continue
        record = events.get(event_id, {})
        tint = YEAR_TINTS.get(str(record.get("date", ""))[:4], BG)
        draw.rectangle((x0, y0, x1, y1), fill=tint)
        if cell.title is not None:
            fnt = font(cell.title.size, "condensed-bold")
            for line, at in zip(cell.title.lines, cell.title_at, strict=True):
                draw.text(at, line, font=fnt, fill=INK)
        draw.text(cell.date_at, cell.date, font=date_font, fill=MUTED)
    for k in range(grid.cols + 1):
        x = grid.left + k * grid.cell_w
        draw.line((x, grid.top, x, grid.top + grid.height), fill=GRID, width=2)
    y = grid.top
    for k in range(grid.rows + 1):
        draw.line((grid.left, y, grid.left + grid.width, y), fill=GRID, width=2)
        if k < grid.rows:
            y += grid.row_h[k]


def _draw_background(layout: tuple[str | None, ...], lang: str) -> Image.Image:
    """The static board in full colour (not cached: the cache keeps only its palette image)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(image)
    _draw_cells(draw, layout, lang, BOARD_GRID)
    coord_font = font(24, "bold")
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


@lru_cache(maxsize=4)
@kept_on_disk
def _palette_background(layout: tuple[str | None, ...], lang: str) -> Image.Image:
    """The static board on the game's palette, per layout and language (4 x 3.8 MB at most: a new
    game's layout fills a slot, so a larger cache only grows the process as games come and go); a render
    process started later loads it (``render.layers``)."""
    return palette("pobeda").quantize(_draw_background(layout, lang))


# ---- bars, chips, frames ---------------------------------------------------------------------
def _inside(a: tuple[float, float], b: tuple[float, float], box: Box) -> tuple[float, float] | None:
    """The parameter interval of segment a-b inside ``box`` (Liang–Barsky), or None."""
    lo, hi = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - box[0]), (dx, box[2] - a[0]), (-dy, a[1] - box[1]), (dy, box[3] - a[1])):
        if p == 0:
            if q < 0:
                return None
            continue
        r = q / p
        if p < 0:
            lo = max(lo, r)
        else:
            hi = min(hi, r)
        if lo > hi:
            return None
    return lo, hi


def _bar_pieces(a: tuple[float, float], b: tuple[float, float], keep_out: Iterable[Box], half: float
                ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The parts of the bar a-b (``half`` its half width) that cross none of the ``keep_out`` boxes."""
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    cuts: list[tuple[float, float]] = []
    for box in keep_out:
        grown = (box[0] - half - 1, box[1] - half - 1, box[2] + half + 1, box[3] + half + 1)
        span = _inside(a, b, grown)
        if span is not None:
            cuts.append(span)
    cuts.sort()
    pieces: list[tuple[float, float]] = []
    at = 0.0
    for lo, hi in cuts:
        if lo > at:
            pieces.append((at, lo))
        at = max(at, hi)
    if at < 1.0:
        pieces.append((at, 1.0))
    out = []
    for lo, hi in pieces:
        if (hi - lo) * length < 3:
            continue
        out.append(((a[0] + (b[0] - a[0]) * lo, a[1] + (b[1] - a[1]) * lo),
                    (a[0] + (b[0] - a[0]) * hi, a[1] + (b[1] - a[1]) * hi)))
    return out


Piece = tuple[tuple[float, float], tuple[float, float]]


@lru_cache(maxsize=16)  # per layout, language and grid, as _cell_texts
def _keep_out(layout: tuple[str | None, ...], lang: str, grid: Grid) -> tuple[Box, ...]:
    """Every box of text and corner star on the grid: what no bar may cross."""
    return tuple(box for cell in _cell_texts(layout, lang, grid).values() for box in cell.keep_out)


@lru_cache(maxsize=1024)  # a line's bar is the same from move to move: its pieces are worked out once
def _line_pieces(layout: tuple[str | None, ...], lang: str, grid: Grid, first: int, last: int, casing: int
                 ) -> tuple[Piece, ...]:
    """The pieces of the bar of the line from cell ``first`` to cell ``last`` (``casing`` wide) that cross
    no text and no corner star, clipped to the region on a zoom."""
    start, end = _free_point(grid, first), _free_point(grid, last)
    pieces = _bar_pieces(start, end, _keep_out(layout, lang, grid), casing / 2)
    if grid != BOARD_GRID:  # a zoom: keep the bars on the region
        area = (grid.left, grid.top, grid.left + grid.width, grid.top + grid.height)
        clipped = (_clip_piece(a, b, area) for a, b in pieces)
        pieces = [piece for piece in clipped if piece is not None]
    return tuple(pieces)


def _draw_lines(draw: ImageDraw.ImageDraw, view: PobedaView, ink: Ink, grid: Grid, lang: str) -> None:
    layout = tuple(view["layout"])
    scale = grid.chip_r / CHIP_R
    core, casing = max(4, round(BAR * scale)), max(8, round((BAR + 6) * scale))
    for line in view.get("lines", []):
        cells = [cell_index(name) for name in line["cells"]]
        if not any(grid.contains(c) for c in cells):
            continue
        pieces = _line_pieces(layout, lang, grid, cells[0], cells[-1], casing)
        for a, b in pieces:
            draw.line((a, b), fill=ink(WHITE), width=casing)
        for a, b in pieces:
            draw.line((a, b), fill=ink(SIDE_DARK[line["side"]]), width=core)


def _free_point(grid: Grid, index: int) -> tuple[float, float]:
    """A line's end in the grid's pixels; a cell outside a zoomed region is placed as if the region's
    rows went on at their mean height (the bar is then clipped to the region)."""
    if grid.contains(index):
        return grid.chip_center(index)
    row, col = divmod(index, SIZE)
    origin = grid.row0 * SIZE + grid.col0
    cx, cy = grid.chip_center(origin)
    mean = sum(grid.row_h) / len(grid.row_h)
    return cx + (col - grid.col0) * grid.cell_w, cy + (row - grid.row0) * mean


def _clip_piece(a: tuple[float, float], b: tuple[float, float], area: Box
               ) -> tuple[tuple[float, float], tuple[float, float]] | None:
    span = _inside(a, b, area)
    if span is None:
        return None
    lo, hi = span
    return ((a[0] + (b[0] - a[0]) * lo, a[1] + (b[1] - a[1]) * lo),
            (a[0] + (b[0] - a[0]) * hi, a[1] + (b[1] - a[1]) * hi))


def chip_shape(side: int, cx: float, cy: float, r: float) -> tuple[str, list[tuple[float, float]] | Box]:
    """The outline of ``side``'s chip around (cx, cy): ("ellipse", box) or ("polygon", points)."""
    shape = SIDE_SHAPES[side % len(SIDE_SHAPES)]
    if shape == "square":
        h = r * 0.89
        return "polygon", [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    if shape == "triangle":
        top, base, half = cy - r * 1.2, cy + r * 0.85, r * 1.04
        return "polygon", [(cx, top), (cx + half, base), (cx - half, base)]
    return "ellipse", (cx - r, cy - r, cx + r, cy + r)


def draw_chip(draw: ImageDraw.ImageDraw, side: int, cx: float, cy: float, r: float, fill: Any, outline: Any,
              width: int) -> None:
    kind, geometry = chip_shape(side, cx, cy, r)
    if kind == "ellipse":
        draw.ellipse(geometry, fill=fill, outline=outline, width=width)
        return
    points = cast("list[tuple[float, float]]", geometry)  # a polygon: its outline as the shape in the outline colour, then the
    # fill inset by the width (Pillow's wide polygon outline masks the whole image: slow on a board)
    draw.polygon(points, fill=outline)
    draw.polygon(inset(points, width), fill=fill)


def inset(points: Sequence[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """A convex polygon shrunk towards its centroid so that each edge moves in by ``by`` px."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    apothem = min(_edge_distance(cx, cy, a, b) for a, b in zip(points, [*points[1:], points[0]], strict=True))
    k = max(0.0, 1 - by / apothem) if apothem > 0 else 0.0
    return [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in points]


def _edge_distance(cx: float, cy: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return abs((b[0] - a[0]) * (a[1] - cy) - (a[0] - cx) * (b[1] - a[1])) / length


def _draw_chips(draw: ImageDraw.ImageDraw, view: PobedaView, ink: Ink, grid: Grid,
                sprites: Image.Image | None = None) -> None:
    """Every chip of the view on the grid. With ``sprites`` (the board's palette image, on the board's
    grid), each chip is pasted from a sprite drawn once (``_chip_sprite``): the same pixels, as a
    chip's centre is a whole pixel and a shape drawn a whole number of pixels away is the same shape."""
    r = grid.chip_r
    for chip in view.get("chips", []):
        index = cell_index(chip["cell"])
        if not grid.contains(index):
            continue
        cx, cy = grid.chip_center(index)
        side, locked = chip["side"], bool(chip.get("locked"))
        if sprites is not None:
            sprite, mask, off = _chip_sprite(side, locked, r)
            sprites.paste(sprite, (cx - off, cy - off), mask)
        else:
            _chip(draw, side, locked, cx, cy, r, ink)


def _chip(draw: ImageDraw.ImageDraw, side: int, locked: bool, cx: float, cy: float, r: int, ink: Ink) -> None:
    colour = ink(SIDE_COLOURS[side])
    if locked:
        draw_chip(draw, side, cx, cy, r + max(4, r // 4), ink(GOLD), ink(INK), 2)
        draw_chip(draw, side, cx, cy, r, colour, ink(INK), 2)
        star = _star(cx, cy, r * 0.55, r * 0.23)
        draw.line([*star, star[0]], fill=ink(WHITE), width=max(2, r // 9), joint="curve")
    else:
        draw_chip(draw, side, cx, cy, r, colour, ink(INK), 3)


@lru_cache(maxsize=16)  # side x locked x radius: a few KB each
def _chip_sprite(side: int, locked: bool, r: int) -> tuple[Image.Image, Image.Image, int]:
    """A chip drawn once by palette index around the centre (off, off) of a small image, and the mask
    of the pixels it covers (the same shapes drawn in 255)."""
    off = 2 * r + 8  # room for a locked chip's ring around the tallest shape, the triangle
    sprite = Image.new("P", (2 * off + 1, 2 * off + 1), 0)
    mask = Image.new("L", sprite.size, 0)
    _chip(ImageDraw.Draw(sprite), side, locked, off, off, r, palette("pobeda").ix)
    _chip(ImageDraw.Draw(mask), side, locked, off, off, r, lambda _colour: 255)
    x0, y0, x1, y1 = mask.getbbox() or (off, off, off + 1, off + 1)
    if min(x0, y0) == 0 or x1 == mask.width or y1 == mask.height:
        raise ValueError("a chip's sprite is too small for it")
    # cut to the pixels covered, the centre now at (off - x0, off - y0): a square of the same offset
    # both ways keeps the paste simple, so cut to the larger margin
    cut = min(x0, y0, mask.width - x1, mask.height - y1)
    box = (cut, cut, mask.width - cut, mask.height - cut)
    return sprite.crop(box), mask.crop(box).convert("1", dither=Image.Dither.NONE), off - cut


def _dashed_frame(draw: ImageDraw.ImageDraw, box: Box, colour: Any, width: int, dash: int) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        steps = max(1, round(length / (2 * dash)))
        for k in range(steps):
            lo, hi = k / steps, (k + 0.6) / steps
            draw.line(((a[0] + (b[0] - a[0]) * lo, a[1] + (b[1] - a[1]) * lo),
                       (a[0] + (b[0] - a[0]) * hi, a[1] + (b[1] - a[1]) * hi)), fill=colour, width=width)


def playable_cells(view: PobedaView) -> list[str]:
    """The cells of the event cards in the view's hand (a seat's own view; none in the public one)."""
    hand = set(view.get("hand") or [])
    return [name for name, event_id in zip(view["cells"], view["layout"], strict=True)
            if event_id is not None and event_id in hand]


def _draw_view(image: Image.Image, view: PobedaView, ink: Ink, grid: Grid = BOARD_GRID, lang: str = "ru",
               playable: Sequence[str] = ()) -> None:
    """What changes from move to move, drawn over a copy of the static board."""
    draw = ImageDraw.Draw(image)
    edge = max(4, grid.pad - 3)
    for name in view.get("last_move", []):
        index = cell_index(name)
        if grid.contains(index):
            x0, y0, x1, y1 = grid.box(index)
            draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=ink(HIGHLIGHT), width=edge)
            draw.rectangle((x0 + edge + 1, y0 + edge + 1, x1 - edge - 1, y1 - edge - 1), outline=ink(INK), width=1)
    for name in playable:
        index = cell_index(name)
        if grid.contains(index):
            x0, y0, x1, y1 = grid.box(index)
            half = edge / 2
            _dashed_frame(draw, (x0 + half + 1, y0 + half + 1, x1 - half - 1, y1 - half - 1), ink(PLAYABLE), edge,
                          grid.cell_w // 10)
            if not grid.stacked:  # and a card in the free corner left of the chip, above the date
                card = (x0 + grid.pad + 5, y0 + 88, x0 + grid.pad + 31, y0 + 121)
                rounded_rectangle(draw, card, radius=4, fill=ink(PLAYABLE), outline=ink(INK), width=2)
    _draw_lines(draw, view, ink, grid, lang)
    _draw_chips(draw, view, ink, grid, image if image.mode == "P" else None)


# ---- the caption ------------------------------------------------------------------------------
def _caption(view: PobedaView, lang: str, playable: Sequence[str] | None = None) -> Image.Image:
    image = Image.new("RGB", (WIDTH, CAPTION), BG)
    draw = ImageDraw.Draw(image)
    top = 0
    big, small = font(30, "bold"), font(26, "regular")
    x = MARGIN
    required = view.get("required", 1)
    for side, count in enumerate(view.get("lines_per_side", [])):
        draw_chip(draw, side, x + 17, top + 29, 17, SIDE_COLOURS[side], INK, 2)
        label = t("pobeda.render.lines", lang, side=_side_name(view, side, lang), n=count, required=required)
        text(draw, (x + 44, top + 12), label, big, INK)
        x += 44 + int(draw.textlength(label, font=big)) + 40
    deck = t("pobeda.render.deck", lang, n=view.get("deck", 0))
    text(draw, (WIDTH - MARGIN - draw.textlength(deck, font=big), top + 12), deck, big, INK)
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
        draw_chip(draw, side, MARGIN + 17, top + 89, 17, SIDE_COLOURS[side], INK, 2)
    text(draw, (MARGIN + 44, top + 70), status, small if outcome is None else big, colour)
    if playable is not None:
        mine = t("boards.pobeda.playable", lang, n=len(playable))
        width = draw.textlength(mine, font=small)
        right = WIDTH - MARGIN
        text(draw, (right - width, top + 70), mine, small, INK)
        _dashed_frame(draw, (right - width - 60, top + 68, right - width - 14, top + 104), PLAYABLE, 5, 6)
        rounded_rectangle(draw, (right - width - 46, top + 74, right - width - 28, top + 98), radius=3, fill=PLAYABLE,
                                outline=INK, width=2)
    return image


def compose(view: PobedaView, lang: str, playable: Sequence[str] | None = None) -> Image.Image:
    """The board as a palette image: the cached static board plus this view, drawn by index."""
    pal = palette("pobeda")
    image = _palette_background(tuple(view["layout"]), lang).copy()
    _draw_view(image, view, pal.ix, BOARD_GRID, lang, playable or ())
    image.paste(pal.quantize(_caption(view, lang, playable)), (0, HEIGHT - CAPTION))
    return image


def reference(view: PobedaView, lang: str, playable: Sequence[str] | None = None) -> Image.Image:
    """The same board drawn straightforwardly in full colour, without caches or palette (tests)."""
    image = _draw_background(tuple(view["layout"]), lang)
    _draw_view(image, view, lambda colour: colour, BOARD_GRID, lang, playable or ())
    image.paste(_caption(view, lang, playable), (0, HEIGHT - CAPTION))
    return image


BOARD_PNG_LEVEL = 8
"""zlib level of the whole board (the personal one too): Pobeda's text-heavy board is 180 KB at the
common level 6 and 165 KB at 8 (the bench state). A move re-deflates only the PNG bands it changed
(see ``render.common.palette_png``), and the rows it will change again at the next move only at
``BRIEF_PNG_LEVEL``; a render process's first board pays level 8 on every band (about 100 ms)."""
BOARD_PNG_WINDOW = 12
"""Deflate window bits of the board (4 KB, two rows): a board's matches are in its row or the row
above, so it costs well under 1 % in bytes, while its bands are 32 KB (18 rows), each primed with 4 KB
instead of 32, and a move's changed rows seldom reach the next band's dictionary: on the bench's
successive boards, 288 of the 2028 rows are deflated again after a move (median) instead of 350."""
BRIEF_PNG_LEVEL = 6
"""zlib level of the rows the next move redraws anyway (``brief_rows``: the last move's frame, the
caption), a fifth of the board: they are never reused, so they are deflated fast. Measured on the
bench's successive boards, one thread, with the two settings above: the encode takes 17 ms of CPU
instead of 25 with everything at level 8 (30 ms with the 32 KB window), for 168.7 KB instead of
166.8 (level 7: 168.3 KB, as slow as 8 here); the aim is 170 KB."""


def brief_rows(view: PobedaView) -> tuple[tuple[int, int], ...]:
    """The rows of the board that the next move redraws whatever it is: the last move's cells (their
    frame goes) and the caption."""
    rows = {BOARD_GRID.box(cell_index(name))[1::2] for name in view.get("last_move", [])}
    return (*sorted((y0, y1) for y0, y1 in rows), (HEIGHT - CAPTION, HEIGHT))


def encode_board(image: Image.Image, view: PobedaView) -> bytes:
    """A composed board (public or personal) as PNG, with the board's deflate settings."""
    return encode_png(image, level=BOARD_PNG_LEVEL, window_bits=BOARD_PNG_WINDOW, brief=brief_rows(view),
                      brief_level=BRIEF_PNG_LEVEL)


@rendered_once("pobeda")
def render(view: PobedaView, lang: str) -> bytes:
    return encode_board(compose(view, lang), view)


@rendered_once("pobeda-personal")
def render_personal(view: PobedaView, lang: str) -> bytes:
    """One seat's board (its own view, with ``hand``) in that seat's language: the cells of the
    event cards it holds wear a dashed purple frame and a purple card, and the caption counts them."""
    return encode_board(compose(view, lang, playable_cells(view)), view)


# ---- zoom: a region at a size a phone reads ---------------------------------------------------
ZOOM_CAP_AT_400 = 9.0
"""Cap height, in px, of every text of a zoomed view once the image is shown 400 px wide."""
ZOOM_CELL = 128
ZOOM_LEFT = 40
ZOOM_HEADER = 84
ZOOM_MARGIN = 8
ZOOM_TITLE_LINES = 9
QUADRANTS = {"nw": (0, 0), "ne": (0, 6), "sw": (6, 0), "se": (6, 6)}
LAST = "last"


def zoom_choices(view: PobedaView, lang: str) -> list[tuple[str, str]]:
    """(value, label) of every zoom of this board: the four quadrants, and the last move's
    neighbourhood when there was a move."""
    out = []
    for key, (row, col) in QUADRANTS.items():
        span = f"{'ABCDEFGHIJKL'[col]}–{'ABCDEFGHIJKL'[col + 5]}, {row + 1}–{row + 6}"
        out.append((key, t(f"boards.zoom.pobeda.{key}", lang, span=span)))
    if view.get("last_move"):
        out.append((LAST, t("boards.zoom.last", lang)))
    return out


def zoom_region(view: PobedaView, zoom: str) -> tuple[int, int, int, int] | None:
    """(first row, first column, rows, columns) of a zoom, None for an unknown one."""
    if zoom in QUADRANTS:
        row, col = QUADRANTS[zoom]
        return row, col, 6, 6
    if zoom != LAST or not view.get("last_move"):
        return None
    places = [divmod(cell_index(name), SIZE) for name in view["last_move"]]
    rows = [r for r, _ in places]
    cols = [c for _, c in places]
    r0, r1 = max(0, min(rows) - 1), min(SIZE - 1, max(rows) + 1)
    c0, c1 = max(0, min(cols) - 1), min(SIZE - 1, max(cols) + 1)
    # at least 3x3, at most 6x6 (centred on the first cell of the move when it spans more)
    r0, r1 = _span(r0, r1, rows[0])
    c0, c1 = _span(c0, c1, cols[0])
    return r0, c0, r1 - r0 + 1, c1 - c0 + 1


def _span(lo: int, hi: int, centre: int) -> tuple[int, int]:
    if hi - lo + 1 > 6:
        lo = max(0, min(SIZE - 6, centre - 2))
        hi = lo + 5
    while hi - lo + 1 < 3:
        if lo > 0:
            lo -= 1
        else:
            hi += 1
    return lo, hi


def zoom_text_size(width: int) -> int:
    """The font size whose cap height is ``ZOOM_CAP_AT_400`` px once ``width`` px are shown in 400."""
    return math.ceil(ZOOM_CAP_AT_400 * width / 400 / CAP_RATIO + 0.01)


def _zoom_grid(layout: tuple[str | None, ...], lang: str, region: tuple[int, int, int, int]) -> Grid:
    row0, col0, rows, cols = region
    width = ZOOM_LEFT + cols * ZOOM_CELL + ZOOM_MARGIN
    size = zoom_text_size(width)
    pad = 6
    chip_r = 26
    heights = []
    for row in range(row0, row0 + rows):
        need = 0
        for col in range(col0, col0 + cols):
            event_id = layout[row * SIZE + col]
            if event_id is None:
                lines = 3
            else:
                lines = len(fit_title(event_title(event_id, lang), lang, ZOOM_CELL - 2 * pad, (size,),
                                      ZOOM_TITLE_LINES).lines)
            need = max(need, lines)
        heights.append(pad + 1 + _line_height(size) * (need + 1) + size // 3 + 2 * chip_r + 14 + pad)
    return Grid(row0, col0, rows, cols, ZOOM_CELL, tuple(heights), ZOOM_LEFT, ZOOM_HEADER, (size,),
                ZOOM_TITLE_LINES, size, chip_r, pad, True)


def zoom_image(view: PobedaView, lang: str, zoom: str, playable: Sequence[str] = ()) -> Image.Image | None:
    """The zoomed region in full colour (None for a zoom this board does not offer)."""
    region = zoom_region(view, zoom)
    if region is None:
        return None
    layout = tuple(view["layout"])
    grid = _zoom_grid(layout, lang, region)
    width = grid.left + grid.width + ZOOM_MARGIN
    height = grid.top + grid.height + ZOOM_MARGIN
    size = grid.date_size
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    _draw_cells(draw, layout, lang, grid)
    head = font(size, "bold")
    label = dict(zoom_choices(view, lang)).get(zoom, zoom)
    draw.text((ZOOM_MARGIN, 6), label, font=head, fill=INK)
    for k in range(grid.cols):
        letter = "ABCDEFGHIJKL"[grid.col0 + k]
        x = grid.left + k * grid.cell_w + grid.cell_w / 2
        draw.text((x, ZOOM_HEADER - 6), letter, font=head, fill=INK, anchor="ms")
    y = grid.top
    for k in range(grid.rows):
        draw.text((grid.left / 2, y + grid.row_h[k] / 2), str(grid.row0 + k + 1), font=head, fill=INK, anchor="mm")
        y += grid.row_h[k]
    _draw_view(image, view, lambda colour: colour, grid, lang, playable)
    return image


def render_zoom(view: PobedaView, lang: str, zoom: str) -> bytes | None:
    """A zoom of the board as PNG on the game's palette (None for a zoom this board does not offer)."""
    image = zoom_image(view, lang, zoom, playable_cells(view))
    return None if image is None else encode_png(image, palette("pobeda"))
