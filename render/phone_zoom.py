"""Building blocks of the text-first zoomed views of Cold War and By All Means (issue 13).

A zoom is a column of *blocks* (a rounded box holding wrapped lines of text, optionally beside a
coloured swatch), drawn at one text size chosen so that every letter has a cap height of at least
``CAP_AT_400`` px once the picture is shown 400 px wide. Every text of such a zoom goes through
:func:`draw_text`, so a test can see each font drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.common import Colour, font, text, wrap

CAP_AT_400 = 9.0
"""Cap height, in px, of every text of a zoom once the picture is shown 400 px wide (the threshold
of ``tests/render/test_boards_phone.py``)."""
STYLES = ("regular", "bold", "condensed", "condensed-bold")


@lru_cache(maxsize=64)
def cap_height(size: int, style: str) -> int:
    """The drawn height of an "H" at ``size`` in ``style`` (measured on the glyph, not from metrics)."""
    box = font(size, style).getmask("H").getbbox()
    return 0 if box is None else box[3] - box[1]


@lru_cache(maxsize=64)
def text_size(width: int) -> int:
    """The smallest font size whose "H", in every bundled style, is ``CAP_AT_400`` px tall or more when
    ``width`` px are shown in 400."""
    size = 8
    while any(cap_height(size, style) * 400 / width < CAP_AT_400 for style in STYLES):
        size += 1
    return size


def draw_text(d: ImageDraw.ImageDraw, xy: tuple[float, float], label: str, fnt: ImageFont.FreeTypeFont,
              fill: Colour, anchor: str | None = None) -> None:
    """The one way a zoom writes text."""
    text(d, xy, label, fnt, fill, anchor)


@dataclass
class Line:
    """A text to wrap: ``scale`` times the zoom's size (1.0 or more), in ``style`` and ``colour``."""

    label: str
    colour: Colour
    style: str = "regular"
    scale: float = 1.0


@dataclass
class Block:
    """A box of lines; ``swatch`` (a colour) draws a band on its left, ``badge`` a big number in it."""

    lines: list[Line]
    fill: Colour
    outline: Colour | None = None
    swatch: Colour | None = None
    badge: str = ""
    badge_ink: Colour = (0, 0, 0)
    wrapped: list[tuple[str, ImageFont.FreeTypeFont, Colour]] = field(default_factory=list)
    height: int = 0


class Sheet:
    """Lays blocks out in a column of ``width`` px at the text size that width needs."""

    def __init__(self, width: int, background: Colour, margin: int = 14) -> None:
        self.width = width
        self.size = text_size(width)
        self.margin = margin
        self.pad = max(8, self.size // 2)
        self.gap = max(6, self.size // 3)
        self.background = background
        self.probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
        self.inset = 0

    def font(self, line: Line) -> ImageFont.FreeTypeFont:
        return font(max(self.size, round(self.size * line.scale)), line.style)

    def line_height(self, fnt: ImageFont.FreeTypeFont) -> int:
        return round(int(fnt.size) * 1.22)

    def swatch_width(self, block: Block) -> int:
        if block.swatch is None:
            return 0
        if not block.badge:
            return self.pad
        return int(self.probe.textlength(block.badge, font=font(round(self.size * 1.6), "bold"))) + 2 * self.pad

    def measure(self, block: Block, width: int) -> int:
        """Wrap ``block``'s lines to ``width`` (the box's outer width); returns and keeps its height."""
        inner = width - 2 * self.pad - self.swatch_width(block)
        block.wrapped = []
        for line in block.lines:
            fnt = self.font(line)
            for part in wrap(self.probe, line.label, fnt, inner, 40) if line.label else []:
                block.wrapped.append((part, fnt, line.colour))
        body = sum(self.line_height(f) for _, f, _ in block.wrapped)
        badge = round(self.size * 1.6 * 1.3) if block.badge else 0
        block.height = 2 * self.pad + max(body, badge)
        return block.height

    def draw(self, d: ImageDraw.ImageDraw, block: Block, x: int, y: int, width: int, height: int | None = None) -> None:
        """Draw a measured block with its top left at (x, y); ``height`` stretches it (a row of cells)."""
        h = height or block.height
        d.rounded_rectangle((x, y, x + width, y + h), radius=max(8, self.size // 2), fill=block.fill,
                            outline=block.outline, width=4 if block.outline else 0)
        sw = self.swatch_width(block)
        if block.swatch is not None:
            d.rounded_rectangle((x + 4, y + 4, x + sw, y + h - 4), radius=max(6, self.size // 3), fill=block.swatch)
            if block.badge:
                draw_text(d, (x + 4 + (sw - 4) / 2, y + self.pad + round(self.size * 1.0)), block.badge,
                          font(round(self.size * 1.6), "bold"), block.badge_ink, "mm")
        yy = y + self.pad
        for part, fnt, colour in block.wrapped:
            draw_text(d, (x + sw + self.pad, yy), part, fnt, colour)
            yy += self.line_height(fnt)

    def _stack(self, stack: list[Block], width: int) -> int:
        return sum(self.measure(b, width - 2 * self.inset) for b in stack) + self.gap * max(0, len(stack) - 1) \
            + 2 * self.inset

    def render(self, items: list[Block | list[list[Block]]], cell_fill: Colour | None = None) -> Image.Image:
        """The column: each item a block across the width, or a row of cells side by side, each cell a
        stack of blocks in a frame of ``cell_fill`` (equal widths, stretched to the tallest)."""
        self.inset = self.gap if cell_fill is not None else 0
        inner = self.width - 2 * self.margin
        heights: list[int] = []
        for item in items:
            if isinstance(item, Block):
                heights.append(self.measure(item, inner))
            else:
                cell = (inner - self.gap * (len(item) - 1)) // len(item)
                heights.append(max(self._stack(stack, cell) for stack in item))
        total = self.margin * 2 + sum(heights) + self.gap * (len(items) - 1)
        img = Image.new("RGB", (self.width, total), self.background)
        d = ImageDraw.Draw(img)
        y = self.margin
        for item, h in zip(items, heights, strict=True):
            if isinstance(item, Block):
                self.draw(d, item, self.margin, y, inner)
            else:
                cell = (inner - self.gap * (len(item) - 1)) // len(item)
                for k, stack in enumerate(item):
                    x = self.margin + k * (cell + self.gap)
                    if cell_fill is not None:
                        d.rounded_rectangle((x, y, x + cell, y + h), radius=max(8, self.size // 2), fill=cell_fill)
                    yy = y + self.inset
                    for b in stack:
                        self.draw(d, b, x + self.inset, yy, cell - 2 * self.inset)
                        yy += b.height + self.gap
            y += h + self.gap
        return img
