"""The toy's pictures: the board (public) and a seat's own board with its secret numbers (Pillow only)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.core.i18n import t

SIZE = 360
CELL = SIZE // 3
CAPTION = 48
INK = (30, 30, 40)
MARK_INK = ((200, 40, 40), (40, 80, 200))


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def compose(view: dict[str, Any], lang: str, secrets: list[int] | None = None) -> Image.Image:
    image = Image.new("RGB", (SIZE, SIZE + CAPTION), (250, 248, 240))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=64)
    small = ImageFont.load_default(size=22)
    for i in (1, 2):
        draw.line([(i * CELL, 0), (i * CELL, SIZE)], fill=INK, width=4)
        draw.line([(0, i * CELL), (SIZE, i * CELL)], fill=INK, width=4)
    mine: list[int] = list(secrets or [])
    for cell, owner in enumerate(view["board"]):
        if owner is None:
            continue
        x, y = (cell % 3) * CELL + CELL // 2, (cell // 3) * CELL + CELL // 2
        draw.text((x, y), "XO"[owner], font=font, fill=MARK_INK[owner], anchor="mm")
    if mine:
        draw.text((8, SIZE + CAPTION // 2), " ".join(map(str, mine)), font=small, fill=INK, anchor="lm")
    mark = "XO"[view["turn"]]
    caption = t("toygame.board.over", lang) if view.get("outcome") else t("toygame.board.turn", lang, mark=mark)
    draw.text((SIZE - 8, SIZE + CAPTION // 2), caption, font=small, fill=INK, anchor="rm")
    return image


def render(view: dict[str, Any], lang: str) -> bytes:
    """The public board."""
    return _png(compose(view, lang))


def render_personal(view: dict[str, Any], lang: str) -> bytes | None:
    """The seat's own board: the public one with its secret numbers written under it."""
    if "secrets" not in view:
        return None
    return _png(compose(view, lang, view["secrets"]))
