"""By All Means' drawing style, shared by the field and hand pictures (``bot.games.byallmeans.render``) and
the phone views (``bot.games.byallmeans.render_zoom``): the flat colours, the PNG level, the renderers'
strings and the public part of a view. Both import this module, neither the other's internals."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from render.common import Colour

BG = (24, 26, 34)
PANEL = (36, 40, 52)
CELL = (48, 53, 68)
INK = (238, 238, 242)
DARK = (28, 28, 34)
MUTED = (156, 160, 176)
GOLD = (238, 192, 70)
RED = (214, 70, 62)
GREEN = (72, 178, 96)
CARD = (240, 234, 220)
BACK = (92, 70, 120)
SEAT = [(58, 128, 224), (222, 120, 40)]
SEAT_DARK = [(30, 56, 100), (104, 56, 22)]
TYPE = {"territory": (70, 140, 80), "agent": (60, 90, 160), "graffigent": (120, 80, 160),
        "graffiti": (170, 90, 130), "plot": (150, 110, 50)}
SYMBOL: dict[str, Colour] = {"mask": (192, 57, 43), "eye": (46, 134, 193), "coin": (212, 172, 13),
                             "key": (39, 174, 96), "blade": (86, 101, 115), "fog": (179, 157, 219)}
EXACT_COLOURS: tuple[Colour, ...] = (BG, PANEL, CELL, INK, DARK, MUTED, GOLD, RED, GREEN, CARD, BACK, *SEAT,
                                     *SEAT_DARK, *TYPE.values(), *SYMBOL.values())
GAME = "byallmeans"
PNG_LEVEL = 3
"""zlib level: the field is mostly flat colour, so level 3 is about half the deflate time of the
platform's 6 (18 ms against 35 ms on the bench state) for 47 KB instead of 37 KB, far under 800 KB."""


def _name(code: str, lang: str) -> str:
    return t(f"bam.card.{code}", lang)


def _tx(key: str, lang: str, **kw: Any) -> str:
    return t(f"bam.r.{key}", lang, **kw)


def public_part(view: dict[str, Any]) -> dict[str, Any]:
    """The view without ``me`` (the one private part): the field is drawn from this only."""
    return {k: v for k, v in view.items() if k != "me"}
