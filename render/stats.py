"""Tables of statistics drawn as an image (``/stats``, ``/leaderboard``) when a text table would be long.

The caller gives every cell as finished text (already translated and formatted); this module only
lays it out: a title, a header row, striped rows, numbers right-aligned. The image is 720 px wide
with 24 px text, so it stays readable when Discord shows it 400 px wide (13 px text).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.common import encode_png, font, wrap

WIDTH = 720
PAD = 18
ROW_H = 38
TITLE_SIZE = 30
TEXT_SIZE = 24
MAX_ROWS = 40
BG = (250, 248, 243)
INK = (34, 34, 38)
MUTED = (110, 108, 118)
STRIPE = (236, 233, 224)
RULE = (190, 186, 176)
HIGHLIGHT = (255, 236, 179)


def _fit(draw: ImageDraw.ImageDraw, text: str, style: str, width: float) -> tuple[str, str]:
    """``text`` in the font style that fits ``width`` (condensed, then shortened with an ellipsis)."""
    for candidate in (style, "condensed" if style == "regular" else "condensed-bold"):
        if draw.textlength(text, font=font(TEXT_SIZE, candidate)) <= width:
            return text, candidate
    narrow = "condensed" if style == "regular" else "condensed-bold"
    fnt = font(TEXT_SIZE, narrow)
    cut = text
    while cut and draw.textlength(cut + "…", font=fnt) > width:
        cut = cut[:-1]
    return cut + "…", narrow


def render_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], *,
                 numeric: Sequence[bool] | None = None, highlight: int | None = None,
                 footer: str | None = None) -> bytes:
    """A PNG of the table. ``numeric[i]``: column ``i`` is right-aligned; ``highlight``: a row index
    drawn marked (the caller's own line); at most :data:`MAX_ROWS` rows are drawn."""
    rows = list(rows)[:MAX_ROWS]
    columns = len(headers)
    numeric = list(numeric) if numeric is not None else [False] * columns
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    # column widths: numbers take what their longest cell needs, the first text column the rest
    natural = []
    for c in range(columns):
        head = probe.textlength(headers[c], font=font(TEXT_SIZE, "condensed-bold"))
        cells = [probe.textlength(r[c], font=font(TEXT_SIZE, "condensed")) for r in rows]
        natural.append(max([head, *cells]) + 16)
    room = WIDTH - 2 * PAD
    fixed = sum(w for c, w in enumerate(natural) if numeric[c])
    text_cols = [c for c in range(columns) if not numeric[c]]
    widths = list(natural)
    if text_cols:
        spare = max(room - fixed, 80 * len(text_cols))
        share = spare / sum(natural[c] for c in text_cols)
        for c in text_cols:
            widths[c] = natural[c] * share
    scale = room / sum(widths)
    widths = [w * scale for w in widths]
    note = wrap(probe, footer, font(TEXT_SIZE - 4, "condensed"), room, 3) if footer else []
    height = PAD + TITLE_SIZE + 14 + ROW_H * (len(rows) + 1) + (8 + 26 * len(note) if note else 0) + PAD
    image = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(image)
    shown, style = _fit(draw, title, "bold", room)
    draw.text((PAD, PAD), shown, font=font(TITLE_SIZE, "bold" if style == "bold" else "condensed-bold"), fill=INK)
    y = PAD + TITLE_SIZE + 14

    def row_text(cells: Sequence[str], top: float, style: str, colour: tuple[int, int, int]) -> None:
        x = float(PAD)
        for c in range(columns):
            cell, used = _fit(draw, cells[c], style, widths[c] - 10)
            fnt = font(TEXT_SIZE, used)
            middle = top + ROW_H / 2
            if numeric[c]:
                draw.text((x + widths[c] - 6, middle), cell, font=fnt, fill=colour, anchor="rm")
            else:
                draw.text((x + 4, middle), cell, font=fnt, fill=colour, anchor="lm")
            x += widths[c]

    row_text(headers, y, "bold", MUTED)
    y += ROW_H
    draw.line((PAD, y - 1, WIDTH - PAD, y - 1), fill=RULE, width=2)
    for i, line in enumerate(rows):
        if i == highlight:
            draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 1), fill=HIGHLIGHT)
        elif i % 2:
            draw.rectangle((PAD, y, WIDTH - PAD, y + ROW_H - 1), fill=STRIPE)
        row_text(line, y, "regular", INK)
        y += ROW_H
    y += 8
    for line in note:
        draw.text((PAD, y), line, font=font(TEXT_SIZE - 4, "condensed"), fill=MUTED)
        y += 26
    return encode_png(image)
