"""Shared drawing helpers: bundled fonts (full Cyrillic), PNG encoding, text fitting."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.paths import DATA_DIR

FONT_DIR = DATA_DIR / "fonts"
FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
}


@lru_cache(maxsize=64)
def font(size: int, style: str = "regular") -> ImageFont.FreeTypeFont:
    """A bundled DejaVu font, so every machine and the Docker image render identically."""
    return ImageFont.truetype(str(FONT_DIR / FONT_FILES[style]), size)


def to_png(image: Image.Image, *, max_bytes: int = 800_000) -> bytes:
    """Encode as PNG; quantise to a palette when the plain encoding is over ``max_bytes``."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    data = buf.getvalue()
    if len(data) <= max_bytes:
        return data
    buf = io.BytesIO()
    image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
        buf, format="PNG", optimize=True
    )
    return buf.getvalue()


def text_width(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont) -> float:
    return draw.textlength(text, font=fnt)


def wrap(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont, width: float,
         max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines; the last line ends with '…' if cut."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}".strip()
        if text_width(draw, candidate, fnt) <= width or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and text_width(draw, last + "…", fnt) > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "…"
    # a single word wider than the box: shorten it
    fitted = []
    for line in lines:
        while len(line) > 1 and text_width(draw, line, fnt) > width:
            line = line[:-2] + "…"
        fitted.append(line)
    return fitted
