"""A league's standings as an image (``/league standings`` and the pinned standings post).

The caller gives every cell as finished text (translated and formatted in the bot process); this
module lays it out: a title, a line under it (the round), a header, one striped row per player (the
leaders marked), numbers right-aligned. 720 px wide with 24 px text, so Discord's 400 px preview
shows 13 px text; up to :data:`MAX_ROWS` players. It runs in a render process
(``bot.core.drawing.draw(render_standings, doc)``): a module-level function over a JSON-like ``doc``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NotRequired, TypedDict

from PIL import Image, ImageDraw, ImageFont

from render.common import Colour, Palette, encode_png, font, text

WIDTH = 720
PAD = 18
ROW_H = 34
NOTE_H = 22
"""What a second line (a team's members) adds to a row."""
NOTE_SIZE = 19
TITLE_SIZE = 30
SUB_SIZE = 22
TEXT_SIZE = 23
MAX_ROWS = 128
BG = (250, 248, 243)
INK = (34, 34, 38)
MUTED = (110, 108, 118)
STRIPE = (236, 233, 224)
RULE = (190, 186, 176)
PODIUM = ((255, 222, 140), (225, 228, 235), (240, 214, 190))
OUT = (160, 156, 150)
UP = (40, 120, 60)
DOWN = (170, 50, 50)


class StandingsDoc(TypedDict):
    title: str
    subtitle: str
    headers: list[str]
    rows: list[list[str]]
    """Cells per row: place, name, then the numeric columns; the last numeric column may start with
    + or − (the rating change: drawn green or red)."""
    out: list[bool]
    """Rows drawn muted (left, dropped, knocked out)."""
    notes: NotRequired[list[str]]
    """A second, smaller line under each row's name (a team's members); absent or empty: one line a row."""


@lru_cache(maxsize=4096)
def _length(label: str, style: str, size: int) -> float:
    """The advance width of ``label`` (kept: names and numbers come back at every refresh)."""
    return float(font(size, style).getlength(label))


@lru_cache(maxsize=1)
def _palette() -> Palette:
    """The image's colours and the anti-aliasing steps between each ink and each background."""
    inks = (INK, MUTED, OUT, UP, DOWN)
    grounds = (BG, STRIPE, RULE, *PODIUM)
    colours: list[Colour] = [*grounds, *inks]
    for ink in inks:
        for ground in grounds:
            colours += [tuple(round(g + (i - g) * k / 8) for g, i in zip(ground, ink, strict=True))  # type: ignore[misc]
                        for k in range(1, 8)]
    unique = list(dict.fromkeys(colours))[:256]
    return Palette(b"".join(bytes(c) for c in unique) + bytes(768 - 3 * len(unique)))


@lru_cache(maxsize=4096)
def _fit(label: str, style: str, width: float, size: int = TEXT_SIZE) -> tuple[str, str]:
    """``label`` in ``style`` or its condensed form, shortened with an ellipsis when still too wide;
    the text and the style used."""
    narrow = "condensed-bold" if "bold" in style else "condensed"
    for candidate in (style, narrow):
        if _length(label, candidate, size) <= width:
            return label, candidate
    cut = label
    while cut and _length(cut + "…", narrow, size) > width:
        cut = cut[:-1]
    return cut + "…", narrow


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[float]:
    """Numbers take what their longest cell needs; the name (column 1) takes the rest."""
    out: list[float] = []
    for c, head in enumerate(headers):
        cells = [_length(r[c], "condensed", TEXT_SIZE) for r in rows if c < len(r)]
        out.append(max([_length(head, "condensed-bold", TEXT_SIZE - 3), *cells]) + 18)
    room = WIDTH - 2 * PAD
    out[1] = max(140.0, room - sum(w for c, w in enumerate(out) if c != 1))
    scale = min(1.0, room / sum(out))
    return [w * scale for w in out]


def render_standings(doc: StandingsDoc) -> bytes:
    rows = doc["rows"][:MAX_ROWS]
    headers = doc["headers"]
    notes = doc.get("notes") or []
    row_h = ROW_H + NOTE_H if any(notes) else ROW_H
    widths = [round(w) for w in _widths(headers, rows)]
    top = PAD + TITLE_SIZE + 8 + SUB_SIZE + 14
    height = top + ROW_H + row_h * len(rows) + PAD
    image = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(image)
    room = WIDTH - 2 * PAD
    title, style = _fit(doc["title"], "bold", room, TITLE_SIZE)
    text(draw, (PAD, PAD), title, font(TITLE_SIZE, style), INK)
    sub, style = _fit(doc["subtitle"], "regular", room, SUB_SIZE)
    text(draw, (PAD, PAD + TITLE_SIZE + 8), sub, font(SUB_SIZE, style), MUTED)
    y = float(top)

    def cells(line: Sequence[str], y0: float, style: str, colour: tuple[int, int, int], size: int) -> None:
        x = float(PAD)
        middle = y0 + ROW_H / 2
        for c, width in enumerate(widths):
            label = line[c] if c < len(line) else ""
            shown, used = _fit(label, style, width - 10, size)
            fnt: ImageFont.FreeTypeFont = font(size, used)
            ink = colour
            if c == len(widths) - 1 and c > 1 and colour == INK and label[:1] in "+−":
                ink = UP if label.startswith("+") else DOWN
            if c == 1:
                text(draw, (x + 6, middle), shown, fnt, ink, anchor="lm")
            else:
                text(draw, (x + width - 8, middle), shown, fnt, ink, anchor="rm")
            x += width

    cells(headers, y, "bold", MUTED, TEXT_SIZE - 3)
    y += ROW_H
    draw.line((PAD, y - 1, WIDTH - PAD, y - 1), fill=RULE, width=2)
    out = doc["out"]
    note_x, note_w = PAD + widths[0] + 6, sum(widths[1:]) - 16
    for i, line in enumerate(rows):
        place = line[0].strip()
        muted = i < len(out) and out[i]
        if place in ("1", "2", "3") and not muted:
            draw.rectangle((PAD, y, WIDTH - PAD, y + row_h - 1), fill=PODIUM[int(place) - 1])
        elif i % 2:
            draw.rectangle((PAD, y, WIDTH - PAD, y + row_h - 1), fill=STRIPE)
        cells(line, y, "regular", OUT if muted else INK, TEXT_SIZE)
        note = notes[i] if i < len(notes) else ""
        if note:  # the members, under the name and across the numbers' columns
            shown, used = _fit(note, "regular", note_w, NOTE_SIZE)
            text(draw, (note_x, y + ROW_H - 4 + NOTE_H / 2), shown, font(NOTE_SIZE, used), OUT if muted else MUTED,
                 anchor="lm")
        y += row_h
    return encode_png(image, _palette())
