"""Cold War's drawing style, shared by the table (``bot.games.coldwar.render``) and its phone views
(``bot.games.coldwar.render_zoom``): the flat colours and the renderers' strings. Both import this module,
neither the other's internals, so the table can name its zoom functions without an import cycle."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from render.common import Colour

BG = (22, 27, 38)
PANEL = (32, 39, 54)
INK = (236, 238, 242)
MUTED = (150, 158, 175)
SIDE = [(64, 132, 230), (218, 62, 62)]
SIDE_DARK = [(30, 58, 104), (100, 30, 34)]
FACTION = {"military": (176, 96, 58), "economic": (212, 170, 48), "political": (140, 92, 196),
           "media": (48, 166, 160)}
GOLD = (240, 196, 64)
CARD = (236, 228, 206)
FRAME = (52, 60, 78)
P = "coldwar."
# Flat colours that must survive the palette exactly.
EXACT_COLOURS: tuple[Colour, ...] = (BG, PANEL, INK, MUTED, *SIDE, *SIDE_DARK, *FACTION.values(), GOLD, CARD, FRAME)


def _tx(key: str, lang: str, **kw: Any) -> str:
    return t(P + key, lang, **kw)
