"""Risk Godstorm board renderer: the Ancient Earth map, the Underworld with the heavens, players.

Draws only what ``Godstorm.view(None)`` exposes (see the view contract in the rules package).
Everything that never changes (sea, continent-tinted territory regions, links, ridges, names,
the Underworld graph, frames and the legend) is drawn once per language and ruleset into a
cached base image; a render copies it and adds owners, armies, gods, temples, plague,
Underworld owners, heaven armies, the header and the players table (text through cached glyph
masks), then maps the picture onto the game's fixed palette. A view holding a colour the palette
lacks (player colours come from the view) is encoded in full colour instead.

Territory regions are a Voronoi partition of the board positions, each cell clipped to a disc
around its territory and pulled back from neighbours it is not linked to by land, so the sea
shows between them. Only convex polygon clipping is needed, which keeps the first build fast.
"""

from __future__ import annotations

import inspect
import io
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.core.i18n import has, t
from bot.games.godstorm import data as D
from bot.games.godstorm.view import GodstormView
from render.common import (
    Colour,
    encode_png,
    font,
    palette,
    rendered_once,
    rounded_rectangle,
    seat_label,
    text,
    text_width,
)
from render.layers import kept_on_disk

Point = tuple[float, float]

# ---- layout -------------------------------------------------------------------------------
W = 1920
HEADER_H = 92
MAP_W, MAP_H = D.MAP_CANVAS
MAP_Y = HEADER_H
BOTTOM_Y = MAP_Y + MAP_H
H = BOTTOM_Y + 520
UW_X, UW_Y = 10, BOTTOM_Y + 8
UW_PANEL_W, UW_PANEL_H = 1000, H - BOTTOM_Y - 16
HEAVEN_X, HEAVEN_W = UW_X + 14, 262
SPACES_X, SPACES_Y = UW_X + 290, UW_Y + 44
TABLE_X, TABLE_W = 1024, W - 1024 - 10
H_CLASSIC = BOTTOM_Y + 300  # no Underworld: the table moves left, the legend right
CLASSIC_LEGEND_X = 980
SS = 2  # supersampling of the cached base layer

NODE_R = 19
SPACE_R = 34

# ---- palette ------------------------------------------------------------------------------
SEA = (160, 193, 216)
SEA_LINE = (36, 70, 120)
INK = (30, 28, 36)
PAPER = (250, 247, 238)
PANEL_DARK = (38, 33, 50)
PANEL_TEXT = (236, 230, 246)
GOLD = (232, 190, 64)
ATTACK = (214, 30, 30)
UNOWNED = (200, 200, 200)
CONTINENT_TINT: dict[str, Colour] = {
    "europa": (238, 208, 150),
    "germania": (176, 210, 150),
    "africa": (236, 172, 136),
    "asia_minor": (208, 186, 226),
    "atlantis": (140, 208, 204),
    "hyrkania": (224, 224, 168),
}
SPACE_RING: dict[str, Colour] = {
    "gate": (232, 190, 64),
    "crypt": (222, 214, 192),
    "altar": (218, 64, 52),
    "plain": (140, 130, 166),
}
CARD_COLOUR: dict[str, Colour] = {
    "war": (196, 52, 40),
    "magic": (136, 64, 176),
    "sky": (52, 120, 200),
    "death": (40, 40, 44),
}
HEAVEN_BOX = (60, 54, 78)
"""The heavens' boxes: a colour the fixed palette keeps exactly (the zoom of the Underworld shows them big)."""
NEUTRAL_SEAT = -2
# Flat colours that must survive the palette exactly (player colours come from the views).
EXACT_COLOURS: tuple[Colour, ...] = (
    SEA, SEA_LINE, INK, PAPER, PANEL_DARK, PANEL_TEXT, GOLD, ATTACK, UNOWNED, (255, 255, 255),
    *CONTINENT_TINT.values(), *SPACE_RING.values(), *CARD_COLOUR.values(), *(p.colour for p in D.PANTHEONS.values()),
)


def territory_center(tid: str) -> tuple[int, int]:
    """Centre of a territory's owner badge, in pixels of the rendered image."""
    x, y = D.TERRITORIES[tid].xy
    return x, y + MAP_Y


def owner_pixel(tid: str) -> tuple[int, int]:
    """A pixel of a territory's owner disc that shows the owner's colour (left of the owner's mark)."""
    x, y = territory_center(tid)
    return x - NODE_R + 7, y


def space_owner_pixel(sid: str) -> tuple[int, int]:
    """A pixel of an Underworld space's owner disc that shows the owner's colour (left of the mark)."""
    x, y = space_center(sid)
    return x - 10, y - 2


def space_center(sid: str) -> tuple[int, int]:
    """Centre of an Underworld space's owner badge, in pixels of the rendered image."""
    x, y = D.UNDERWORLD[sid].xy
    return SPACES_X + x, SPACES_Y + y


def _tr(key: str, lang: str, **params: Any) -> str:
    return t(f"godstorm.map.{key}", lang, **params)


def _shade(c: Sequence[int], f: float) -> Colour:
    """Darken (f < 1) or lighten towards white (f > 1)."""
    if f <= 1:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f))
    g = f - 1
    return (int(c[0] + (255 - c[0]) * g), int(c[1] + (255 - c[1]) * g), int(c[2] + (255 - c[2]) * g))


# ---- geometry -----------------------------------------------------------------------------
def _clip(poly: list[Point], nx: float, ny: float, c: float) -> list[Point]:
    """Keep the part of a convex polygon where nx*x + ny*y <= c (Sutherland-Hodgman)."""
    out: list[Point] = []
    if not poly:
        return out
    prev = poly[-1]
    pin = nx * prev[0] + ny * prev[1] <= c
    for cur in poly:
        cin = nx * cur[0] + ny * cur[1] <= c
        if cin != pin:
            d0 = nx * prev[0] + ny * prev[1] - c
            d1 = nx * cur[0] + ny * cur[1] - c
            s = d0 / (d0 - d1)
            out.append((prev[0] + (cur[0] - prev[0]) * s, prev[1] + (cur[1] - prev[1]) * s))
        if cin:
            out.append(cur)
        prev, pin = cur, cin
    return out


def _cell(sites: dict[str, Point], tid: str, radius: float, gap: dict[frozenset[str], float],
          bounds: tuple[float, float, float, float]) -> list[Point]:
    px, py = sites[tid]
    poly = [(px + radius * math.cos(a * math.pi / 20), py + radius * math.sin(a * math.pi / 20))
            for a in range(40)]
    x0, y0, x1, y1 = bounds
    for bx, by, bc in ((-1, 0, -x0), (1, 0, x1), (0, -1, -y0), (0, 1, y1)):
        poly = _clip(poly, bx, by, bc)
    for other, (qx, qy) in sites.items():
        if other == tid:
            continue
        nx, ny = qx - px, qy - py
        dist = math.hypot(nx, ny)
        if dist > 2.2 * radius:
            continue
        c = nx * (px + qx) / 2 + ny * (py + qy) / 2 - gap.get(frozenset((tid, other)), 0.0) / 2 * dist
        poly = _clip(poly, nx, ny, c)
    return poly


@lru_cache(maxsize=1)
def _territory_cells() -> dict[str, list[Point]]:
    """Region polygons in map-canvas pixels."""
    sites = {tid: (float(t_.xy[0]), float(t_.xy[1])) for tid, t_ in D.TERRITORIES.items()}
    gap: dict[frozenset[str], float] = {}
    for a in D.TERRITORIES:
        for b in D.TERRITORIES:
            if a < b:
                linked_by_land = b in D.TERRITORIES[a].neighbours and b not in D.TERRITORIES[a].sea
                gap[frozenset((a, b))] = 0.0 if linked_by_land else 26.0
    bounds = (14.0, 40.0, MAP_W - 14.0, MAP_H - 14.0)
    return {tid: _cell(sites, tid, 128.0, gap, bounds) for tid in D.TERRITORIES}


def _dashed(draw: ImageDraw.ImageDraw, a: Point, b: Point, fill: Colour, width: int, dash: float,
            gap: float) -> None:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        draw.line([(a[0] + ux * pos, a[1] + uy * pos), (a[0] + ux * end, a[1] + uy * end)], fill=fill, width=width)
        pos = end + gap


def _zigzag(draw: ImageDraw.ImageDraw, mid: Point, along: Point, length: float, amp: float, teeth: int,
            fill: Colour, width: int) -> None:
    """A zigzag centred on ``mid`` running along unit vector ``along`` (mountain ridges, flames)."""
    ax, ay = along
    px, py = -ay, ax
    pts = []
    for i in range(teeth * 2 + 1):
        s = -length / 2 + length * i / (teeth * 2)
        o = amp if i % 2 else -amp
        pts.append((mid[0] + ax * s + px * o, mid[1] + ay * s + py * o))
    draw.line(pts, fill=fill, width=width, joint="curve")


def _unit(a: Point, b: Point) -> Point:
    d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return (b[0] - a[0]) / d, (b[1] - a[1]) / d


def _arrow(draw: ImageDraw.ImageDraw, a: Point, b: Point, fill: Colour, width: int, trim: float) -> None:
    ux, uy = _unit(a, b)
    a2 = (a[0] + ux * trim, a[1] + uy * trim)
    b2 = (b[0] - ux * trim, b[1] - uy * trim)
    draw.line([a2, b2], fill=(255, 255, 255), width=width + 4)
    draw.line([a2, b2], fill=fill, width=width)
    head = 18
    px, py = -uy, ux
    tip = b2
    base = (tip[0] - ux * head, tip[1] - uy * head)
    draw.polygon([tip, (base[0] + px * head * 0.6, base[1] + py * head * 0.6),
                  (base[0] - px * head * 0.6, base[1] - py * head * 0.6)], fill=fill, outline=(255, 255, 255))


# ---- sprites (anti-aliased by supersampling, cached) --------------------------------------
@lru_cache(maxsize=128)
def _disc(colour: Colour, r: int, ring: Colour = (255, 255, 255), edge: Colour = INK) -> Image.Image:
    """An RGBA disc: edge line, white ring, filled centre of ``colour``."""
    k = 4
    size = (2 * r + 4) * k
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    d.ellipse([c - (r + 1) * k, c - (r + 1) * k, c + (r + 1) * k, c + (r + 1) * k], fill=edge)
    d.ellipse([c - r * k + k, c - r * k + k, c + r * k - k, c + r * k - k], fill=ring)
    inner = r - 3
    d.ellipse([c - inner * k, c - inner * k, c + inner * k, c + inner * k], fill=colour)
    return img.resize((2 * r + 4, 2 * r + 4), Image.Resampling.LANCZOS)


def _paste_disc(img: Image.Image, xy: tuple[int, int], colour: Colour, r: int, ring: Colour = (255, 255, 255),
                edge: Colour = INK) -> None:
    sprite = _disc(tuple(colour), r, ring, edge)
    img.paste(sprite, (xy[0] - r - 2, xy[1] - r - 2), sprite)


MARKS = ("ring", "square", "triangle", "plus", "bar", "diamond")
"""A white shape on each player's pieces (by seat), so owners differ in greyscale and for colour-blind
players; the neutral armies wear an ×."""


def mark_of(owner: int | None) -> str | None:
    if owner is None:
        return None
    if owner == NEUTRAL_SEAT:
        return "cross"
    return MARKS[owner % len(MARKS)]


def _mark(draw: ImageDraw.ImageDraw, x: float, y: float, owner: int | None, r: float) -> None:
    """The owner's mark centred on (x, y), about ``r`` in radius: white with a dark edge."""
    kind = mark_of(owner)
    if kind is None:
        return
    w = max(1, round(r / 5))
    white = (255, 255, 255)
    if kind == "ring":
        k, hole = r * 0.72, r * 0.3
        draw.ellipse([x - k, y - k, x + k, y + k], fill=white, outline=INK, width=w)
        draw.ellipse([x - hole, y - hole, x + hole, y + hole], fill=INK)
    elif kind == "square":
        k = r * 0.58
        draw.rectangle([x - k, y - k, x + k, y + k], fill=white, outline=INK, width=w)
    elif kind in ("triangle", "diamond"):  # the outline as the shape in ink, then the white inset
        # (Pillow's wide polygon outline masks the whole image: slow on a board)
        if kind == "triangle":
            points = [(x, y - r * 0.8), (x + r * 0.78, y + r * 0.55), (x - r * 0.78, y + r * 0.55)]
        else:
            points = [(x, y - r * 0.85), (x + r * 0.85, y), (x, y + r * 0.85), (x - r * 0.85, y)]
        draw.polygon(points, fill=INK)
        draw.polygon(_inset(points, w), fill=white)
    elif kind == "plus":
        a, b = r * 0.85, r * 0.3
        draw.rectangle([x - b, y - a, x + b, y + a], fill=INK)
        draw.rectangle([x - a, y - b, x + a, y + b], fill=INK)
        draw.rectangle([x - b + w, y - a + w, x + b - w, y + a - w], fill=white)
        draw.rectangle([x - a + w, y - b + w, x + a - w, y + b - w], fill=white)
    elif kind == "bar":
        draw.rectangle([x - r * 0.85, y - r * 0.3, x + r * 0.85, y + r * 0.3], fill=white, outline=INK, width=w)
    else:  # cross
        k = r * 0.6
        draw.line([(x - k, y - k), (x + k, y + k)], fill=INK, width=w + 4)
        draw.line([(x - k, y + k), (x + k, y - k)], fill=INK, width=w + 4)
        draw.line([(x - k, y - k), (x + k, y + k)], fill=white, width=w + 1)
        draw.line([(x - k, y + k), (x + k, y - k)], fill=white, width=w + 1)


def _inset(points: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """A convex polygon shrunk towards its centroid so that each edge moves in by ``by`` px."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    apothem = min(abs((b[0] - a[0]) * (a[1] - cy) - (a[0] - cx) * (b[1] - a[1])) / (math.hypot(b[0] - a[0], b[1] - a[1])
                                                                                   or 1.0)
                  for a, b in zip(points, [*points[1:], points[0]], strict=True))
    k = max(0.0, 1 - by / apothem) if apothem > 0 else 0.0
    return [(cx + (px - cx) * k, cy + (py - cy) * k) for px, py in points]


def _temple(draw: ImageDraw.ImageDraw, x: float, y: float, s: float = 1.0, fill: Colour = GOLD) -> None:
    """A small Greek temple: pediment, three columns, base."""
    w = 11 * s
    draw.polygon([(x - w - 2 * s, y - 4 * s), (x + w + 2 * s, y - 4 * s), (x, y - 12 * s)], fill=fill, outline=INK)
    draw.rectangle([x - w, y - 4 * s, x + w, y - 2 * s], fill=fill, outline=INK)
    for cx in (x - 7 * s, x, x + 7 * s):
        draw.rectangle([cx - 2 * s, y - 2 * s, cx + 2 * s, y + 7 * s], fill=fill, outline=INK)
    draw.rectangle([x - w - 2 * s, y + 7 * s, x + w + 2 * s, y + 10 * s], fill=fill, outline=INK)


def _plague(draw: ImageDraw.ImageDraw, x: float, y: float, r: float = 11) -> None:
    draw.ellipse([x - r, y - r, x + r, y + r], fill=(150, 196, 36), outline=INK, width=2)
    text(draw, (x, y + 1), "☣", font(int(r * 1.6), "bold"), INK, "mm")


def _god(draw: ImageDraw.ImageDraw, x: float, y: float, kind: str, colour: Colour, lang: str, size: int = 13
         ) -> None:
    r = round(size * 10 / 13)
    draw.ellipse([x - r - 1, y - r - 1, x + r + 1, y + r + 1], fill=(255, 255, 255))
    draw.ellipse([x - r + 1, y - r + 1, x + r - 1, y + r - 1], fill=CARD_COLOUR.get(kind, colour))
    letter = D.GOD_LETTERS.get(kind, {}).get(lang) or kind[:1].upper()
    text(draw, (x, y), letter, font(size, "bold"), (255, 255, 255), "mm")


def _pill(draw: ImageDraw.ImageDraw, x: float, y: float, label: str, border: Colour, size: int = 21) -> None:
    f = font(size, "bold")
    tw = text_width(draw, label, f)
    hw = max(tw / 2 + 7, size * 0.62)
    hh = size * 0.62
    rounded_rectangle(draw, [x - hw, y - hh, x + hw, y + hh], radius=int(hh), fill=(255, 255, 255),
                            outline=border, width=3)
    text(draw, (x, y + 1), label, f, INK, "mm")


# ---- the cached base ----------------------------------------------------------------------
def _height(classic: bool) -> int:
    return H_CLASSIC if classic else H


def _table_x(classic: bool) -> int:
    return 10 if classic else TABLE_X


def _draw_base_shapes(img: Image.Image, classic: bool) -> None:
    """Everything static that benefits from supersampling, drawn at SS× scale."""
    d = ImageDraw.Draw(img)
    s = SS
    h = _height(classic)

    def p(pt: Point, dy: float = MAP_Y) -> Point:
        return pt[0] * s, (pt[1] + dy) * s

    d.rectangle([0, MAP_Y * s, W * s, BOTTOM_Y * s], fill=SEA)
    # faint parallels and meridians, the "ancient chart" look
    for gx in range(0, MAP_W, 160):
        d.line([p((gx, 0)), p((gx, MAP_H))], fill=_shade(SEA, 1.08), width=s)
    for gy in range(0, MAP_H, 160):
        d.line([p((0, gy)), p((MAP_W, gy))], fill=_shade(SEA, 1.08), width=s)
    cells = _territory_cells()
    for tid, poly in cells.items():
        tint = CONTINENT_TINT[D.TERRITORIES[tid].continent]
        d.polygon([p(pt) for pt in poly], fill=tint, outline=_shade(tint, 0.62), width=2 * s)
    # continent frontiers over land: a thicker line where two continents meet
    for a, b in D.links():
        ta, tb = D.TERRITORIES[a], D.TERRITORIES[b]
        if ta.continent != tb.continent and b not in ta.sea:
            seg = _shared_edge(cells[a], cells[b])
            if seg:
                d.line([p(seg[0]), p(seg[1])], fill=(92, 72, 52), width=4 * s)
    for a, b in D.MOUNTAIN_RIDGES:
        pa, pb = D.TERRITORIES[a].xy, D.TERRITORIES[b].xy
        mid: Point = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
        ux, uy = _unit(pa, pb)
        _zigzag(d, p(mid), (-uy, ux), 46 * s, 7 * s, 4, (110, 78, 48), 3 * s)
    for a, b in D.links():
        pa, pb = D.TERRITORIES[a].xy, D.TERRITORIES[b].xy
        if b in D.TERRITORIES[a].sea:
            _dashed(d, p(pa), p(pb), SEA_LINE, 3 * s, 11 * s, 8 * s)
        else:
            d.line([p(pa), p(pb)], fill=(112, 96, 76), width=2 * s)
    # bottom band
    d.rectangle([0, BOTTOM_Y * s, W * s, h * s], fill=(228, 222, 208))
    d.rectangle([0, 0, W * s, HEADER_H * s], fill=PANEL_DARK)
    if not classic:
        rounded_rectangle(d, [UW_X * s, UW_Y * s, (UW_X + UW_PANEL_W) * s, (UW_Y + UW_PANEL_H) * s],
                             radius=14 * s, fill=PANEL_DARK)
        for a, b in D.underworld_links():
            d.line([_sp(a, s), _sp(b, s)], fill=(120, 110, 150), width=4 * s)
        for a, b in D.fire_borders():
            fa, fb = _sp(a, 1), _sp(b, 1)
            mid = ((fa[0] + fb[0]) / 2 * s, (fa[1] + fb[1]) / 2 * s)
            ux, uy = _unit(fa, fb)
            _dashed(d, (fa[0] * s, fa[1] * s), (fb[0] * s, fb[1] * s), (196, 96, 40), 2 * s, 5 * s, 7 * s)
            _zigzag(d, mid, (-uy, ux), 62 * s, 7 * s, 5, (250, 120, 30), 5 * s)
            _zigzag(d, mid, (-uy, ux), 62 * s, 3 * s, 5, (255, 220, 80), 2 * s)
        for sid, sp in D.UNDERWORLD.items():
            cx, cy = _sp(sid, s)
            r = SPACE_R * s
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(64, 56, 84), outline=SPACE_RING[sp.kind], width=5 * s)
        for i in range(5):
            y0 = UW_Y + 46 + i * 90
            rounded_rectangle(d, [HEAVEN_X * s, y0 * s, (HEAVEN_X + HEAVEN_W) * s, (y0 + 80) * s], radius=10 * s,
                                 fill=HEAVEN_BOX)


def _sp(sid: str, s: int) -> Point:
    x, y = space_center(sid)
    return x * s, y * s


def _shared_edge(pa: list[Point], pb: list[Point]) -> tuple[Point, Point] | None:
    """The common stretch of two touching cells: the vertices of each lying on the other."""
    close: list[Point] = []
    for pt in pa:
        for q in pb:
            if abs(pt[0] - q[0]) < 1.0 and abs(pt[1] - q[1]) < 1.0:
                close.append(pt)
                break
    if len(close) < 2:
        return None
    close.sort()
    return close[0], close[-1]


def _territory_name(d: ImageDraw.ImageDraw, tid: str, lang: str, size: int = 17) -> None:
    x, y = territory_center(tid)
    text(d, (x, y - NODE_R - 8), D.TERRITORIES[tid].name[lang], font(size, "condensed-bold"), INK, "mb",
         stroke_width=3, stroke_fill=(255, 255, 255))


@lru_cache(maxsize=4)
@kept_on_disk  # a render process started later loads it (render.layers)
def _base(lang: str, classic: bool) -> Image.Image:
    img = _shapes(classic).copy()
    d = ImageDraw.Draw(img)
    for tid in D.TERRITORIES:
        _territory_name(d, tid, lang)
    if not classic:
        _draw_underworld_labels(d, lang)
    _draw_legend(d, img, lang, classic)
    return img


@lru_cache(maxsize=2)
@kept_on_disk
def _shapes(classic: bool) -> Image.Image:
    """The base without any text (zoomed views write their labels bigger)."""
    big = Image.new("RGB", (W * SS, _height(classic) * SS), PAPER)
    _draw_base_shapes(big, classic)
    return big.reduce(SS)  # box filter: smooth edges without ringing, so PNG stays small


def _draw_underworld_labels(d: ImageDraw.ImageDraw, lang: str, size: int | None = None) -> None:
    text(d, (UW_X + 16, UW_Y + 10), _tr("heavens", lang), font(max(24, size or 0), "bold"), GOLD)
    text(d, (SPACES_X + 10, UW_Y + 10), _tr("underworld", lang), font(max(24, size or 0), "bold"), GOLD)
    if size is not None:  # a zoom: bigger labels, placed clear of each other
        for label, xy, fnt, fill, anchor in underworld_zoom_labels(d, lang, size):
            text(d, xy, label, fnt, fill, anchor)
        return
    for sid, sp in D.UNDERWORLD.items():
        x, y = space_center(sid)
        text(d, (x, y - SPACE_R + 6), D.SPACE_NUMERALS[sid], font(13, "bold"), PANEL_TEXT, "mt")
        text(d, (x, y + SPACE_R + 4), _tr(f"kind.{sp.kind}", lang), font(14, "condensed"), SPACE_RING[sp.kind], "mt")


Box = tuple[float, float, float, float]


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def underworld_zoom_labels(d: ImageDraw.ImageDraw, lang: str, size: int
                           ) -> list[tuple[str, tuple[float, float], Any, Colour, str]]:
    """The Underworld zoom's space labels (label, anchor point, font, colour, anchor): each kind under its
    circle, each numeral at the first spot around its circle that covers no circle, kind or numeral and
    stays inside the panel (the numeral right above a circle fell on the kind of the circle above it)."""
    kind_font, num_font = font(size, "condensed"), font(size, "bold")
    circles: list[Box] = []
    for sid in D.UNDERWORLD:
        sx, sy = space_center(sid)
        circles.append((sx - SPACE_R - 3, sy - SPACE_R - 3, sx + SPACE_R + 3, sy + SPACE_R + 3))
    out: list[tuple[str, tuple[float, float], Any, Colour, str]] = []
    taken: list[Box] = list(circles)
    for sid, sp in D.UNDERWORLD.items():
        sx, sy = space_center(sid)
        xy = (float(sx), float(sy + SPACE_R + 2))
        label = _tr(f"kind.{sp.kind}", lang)
        taken.append(d.textbbox(xy, label, font=kind_font, anchor="mt"))
        out.append((label, xy, kind_font, SPACE_RING[sp.kind], "mt"))
    panel = (SPACES_X - 50, UW_Y + 10 + size + 6, UW_X + UW_PANEL_W - 4, UW_Y + UW_PANEL_H)
    k = SPACE_R * 0.74
    for sid in D.UNDERWORLD:
        cx, cy = space_center(sid)
        x, y = float(cx), float(cy)
        numeral = D.SPACE_NUMERALS[sid]
        spots: tuple[tuple[tuple[float, float], str], ...] = (((x - k, y - k), "rb"), ((x + k, y - k), "lb"), ((x, y - SPACE_R - 3), "mb"),
                 ((x - SPACE_R - 4, y), "rm"), ((x + SPACE_R + 4, y), "lm"), ((x - k, y + k), "rt"),
                 ((x + k, y + k), "lt"))
        chosen = spots[0]
        for xy, anchor in spots:
            box = d.textbbox(xy, numeral, font=num_font, anchor=anchor)
            inside = panel[0] <= box[0] and box[2] <= panel[2] and panel[1] <= box[1] and box[3] <= panel[3]
            if inside and not any(_overlaps(box, other) for other in taken):
                chosen = (xy, anchor)
                break
        taken.append(d.textbbox(chosen[0], numeral, font=num_font, anchor=chosen[1]))
        out.append((numeral, chosen[0], num_font, PANEL_TEXT, chosen[1]))
    return out


def _legend_items(lang: str, classic: bool) -> list[tuple[str, str]]:
    items = [("land", _tr("legend.land", lang)), ("sea", _tr("legend.sea", lang)),
             ("ridge", _tr("legend.ridge", lang)), ("attack", _tr("legend.attack", lang))]
    if not classic:
        items[2:2] = [("temple", _tr("legend.temple", lang)), ("plague", _tr("legend.plague", lang))]
        items += [("fire", _tr("legend.fire", lang))]
        items += [(f"god:{k}", D.GOD_KIND_NAMES[k][lang]) for k in D.GOD_KINDS]
    return items


def _draw_legend(d: ImageDraw.ImageDraw, img: Image.Image, lang: str, classic: bool) -> None:
    h = _height(classic)
    x0 = CLASSIC_LEGEND_X if classic else TABLE_X + 6
    y0 = h - 196
    text(d, (x0, y0 - 30), _tr("legend", lang), font(19, "bold"), INK)
    f = font(16, "condensed")
    items = _legend_items(lang, classic)
    cols = 3
    colw = (W - 10 - x0) // cols
    for i, (key, label) in enumerate(items):
        cx = x0 + (i % cols) * colw
        cy = y0 + 8 + (i // cols) * 28
        ix = cx + 16
        if key == "land":
            d.line([(cx, cy), (cx + 32, cy)], fill=(112, 96, 76), width=2)
        elif key == "sea":
            _dashed(d, (cx, cy), (cx + 32, cy), SEA_LINE, 3, 8, 5)
        elif key == "ridge":
            _zigzag(d, (ix, cy), (1, 0), 30, 5, 3, (110, 78, 48), 3)
        elif key == "attack":
            _arrow(d, (cx - 8, cy), (cx + 40, cy), ATTACK, 4, 0)
        elif key == "temple":
            _temple(d, ix, cy - 1, 0.9)
        elif key == "plague":
            _plague(d, ix, cy, 10)
        elif key == "fire":
            _zigzag(d, (ix, cy), (1, 0), 30, 5, 3, (250, 120, 30), 4)
        elif key.startswith("god:"):
            _god(d, ix, cy, key[4:], INK, lang)
        text(d, (cx + 44, cy), label, f, INK, "lm")
    # continents with their bonuses: two rows of three swatches
    cf = font(16, "bold")
    for i, cont in enumerate(D.CONTINENTS.values()):
        cx = x0 + (i % cols) * colw
        cy = h - 50 + (i // cols) * 28
        tint = CONTINENT_TINT[cont.id]
        rounded_rectangle(d, [cx, cy - 11, cx + 32, cy + 11], radius=4, fill=tint, outline=_shade(tint, 0.6), width=2)
        text(d, (cx + 44, cy), f"{cont.name[lang]} +{cont.bonus}", cf, INK, "lm")


# ---- dynamic layer ------------------------------------------------------------------------
def _rgb(colour: Sequence[int] | None, default: Colour) -> Colour:
    """A view's colour (a JSON list of three ints) as an RGB tuple; ``default`` when it has none."""
    if not colour:
        return default
    r, g, b = colour
    return r, g, b


def _seat_colour(view: GodstormView, owner: int | None) -> Colour:
    if owner is None:
        return UNOWNED
    if owner == NEUTRAL_SEAT:
        neutral = view.get("neutral")
        return _rgb(neutral.get("colour") if neutral else None, (150, 150, 150))
    for p in view.get("players") or []:
        if p.get("seat") == owner:
            return _rgb(p.get("colour"), (120, 120, 120))
    return (120, 120, 120)


def _seat_name(view: GodstormView, seat: int, lang: str) -> str:
    if seat == NEUTRAL_SEAT:
        return _tr("neutral", lang)
    return seat_label(view, seat, _tr("seat", lang, n=seat + 1))


def _fit(d: ImageDraw.ImageDraw, text: str, fnt: Any, width: float) -> str:
    if text_width(d, text, fnt) <= width:
        return text
    while text and text_width(d, text + "…", fnt) > width:
        text = text[:-1]
    return text + "…"


def _draw_territories(img: Image.Image, d: ImageDraw.ImageDraw, view: GodstormView, lang: str,
                      size: int | None = None) -> None:
    """Owners (disc and mark), temples, plague, gods and army counts; ``size`` is a zoom's text size."""
    terrs: dict[str, Any] = view.get("territories") or {}
    god = max(13, size or 0)
    step = round(god * 21 / 13)
    for tid in D.TERRITORIES:
        st = terrs.get(tid) or {}
        owner = st.get("owner")
        colour = _seat_colour(view, owner)
        x, y = territory_center(tid)
        _paste_disc(img, (x, y), colour, NODE_R)
        _mark(d, x, y, owner, NODE_R - 8)
        if st.get("temple"):
            _temple(d, x - 31, y - 6, 0.95)
        if st.get("plague"):
            _plague(d, x - 30, y + 15, 10)
        gods = [g for g in st.get("gods") or [] if isinstance(g, str)]
        for i, kind in enumerate(gods[:4]):
            gx = x + NODE_R + step // 2 + 2 + (i // 2) * step
            gy = y - step * 0.45 + (i % 2) * step
            _god(d, gx, gy, kind, colour, lang, god)
        if owner is not None or st.get("armies"):
            pill = max(21, size or 0)
            _pill(d, x, y + NODE_R + pill * 0.62 - 4, str(int(st.get("armies") or 0)), _shade(colour, 0.85), pill)


def _draw_last(d: ImageDraw.ImageDraw, view: GodstormView, lang: str, size: int = 17, names: bool = True) -> None:
    last = view.get("last")
    a, b = (last.get("from", ""), last.get("to", "")) if last else ("", "")  # "" names no place
    centre: Callable[[str], tuple[int, int]] | None = None
    if a in D.TERRITORIES and b in D.TERRITORIES:
        centre = territory_center
    elif a in D.UNDERWORLD and b in D.UNDERWORLD:
        centre = space_center
    if a == "heaven" and b in D.UNDERWORLD:
        box = _heaven_anchor(view)
        if box is not None:
            _arrow(d, box, space_center(b), ATTACK, 5, 0)
    for tid in (a, b):
        if tid in D.TERRITORIES or tid in D.UNDERWORLD:
            x, y = territory_center(tid) if tid in D.TERRITORIES else space_center(tid)
            r = NODE_R + 6
            d.ellipse([x - r, y - r, x + r, y + r], fill=ATTACK)
    if centre is not None:
        _arrow(d, centre(a), centre(b), ATTACK, 6, NODE_R + 10)
    for tid in (a, b):  # keep both names readable over the arrow (a zoom writes them after cropping)
        if tid in D.TERRITORIES and names:
            _territory_name(d, tid, lang, size)


def _heaven_anchor(view: GodstormView) -> Point | None:
    """Right edge of the current player's heaven box (armies descend from there)."""
    current = view.get("current")
    pan = next((p.get("pantheon") for p in view.get("players") or [] if p.get("seat") == current), None)
    if pan not in D.PANTHEONS:
        return None
    i = list(D.HEAVENS).index(D.PANTHEONS[pan].heaven)
    return HEAVEN_X + HEAVEN_W - 4, UW_Y + 46 + i * 90 + 40


def _draw_underworld(img: Image.Image, d: ImageDraw.ImageDraw, view: GodstormView, lang: str,
                     size: int | None = None) -> None:
    spaces: dict[str, Any] = view.get("underworld") or {}
    for sid in D.UNDERWORLD:
        st = spaces.get(sid) or {}
        owner = st.get("owner")
        if owner is None and not st.get("armies"):
            continue
        colour = _seat_colour(view, owner)
        x, y = space_center(sid)
        _paste_disc(img, (x, y - 2), colour, 16)
        _mark(d, x, y - 2, owner, 8)
        pill = max(19, size or 0)
        _pill(d, x, y + 8 + pill * 0.62, str(int(st.get("armies") or 0)), _shade(colour, 0.85), pill)
    # the five heavens, one per pantheon
    by_pantheon: dict[str | None, Mapping[str, Any]] = {
        p.get("pantheon"): p for p in view.get("players") or [] if p.get("pantheon")}
    neutral = view.get("neutral")
    if neutral and neutral.get("pantheon") in D.PANTHEONS and neutral["pantheon"] not in by_pantheon:
        by_pantheon[neutral["pantheon"]] = {"seat": NEUTRAL_SEAT, "colour": neutral.get("colour"),
                                            "heaven": neutral.get("heaven") or 0}
    for i, (hid, hname) in enumerate(D.HEAVENS.items()):
        pid = D.pantheon_of_heaven(hid)
        pan = D.PANTHEONS[pid]
        y0 = UW_Y + 46 + i * 90
        player = by_pantheon.get(pid)
        active = player is not None
        colour = _rgb(player.get("colour"), pan.colour) if player else pan.colour
        stripe = colour if active else _shade(pan.colour, 0.55)
        rounded_rectangle(d, [HEAVEN_X, y0, HEAVEN_X + 16, y0 + 80], radius=6, fill=stripe)
        text_fill = PANEL_TEXT if active else (130, 124, 146)
        name_f, who_f = font(max(21, size or 0), "bold"), font(max(16, size or 0), "condensed")
        count = str(int(player.get("heaven") or 0)) if player else "—"
        count_f = font(max(34, size or 0), "bold")
        room = HEAVEN_W - 40 - text_width(d, count, count_f)
        text(d, (HEAVEN_X + 26, y0 + 4 if size else y0 + 10), _fit(d, hname[lang], name_f, room), name_f, text_fill)
        who = _seat_name(view, int(player["seat"]), lang) if player else pan.name[lang]
        text(d, (HEAVEN_X + 26, y0 + 76 if size else y0 + 42), _fit(d, who, who_f, room), who_f, text_fill,
             "ls" if size else None)
        text(d, (HEAVEN_X + HEAVEN_W - 14, y0 + 40), count, count_f, text_fill, "rm")


def _step_label(step: str | None, lang: str) -> str:
    if not step:
        return ""
    key = f"godstorm.step.{step}"  # the rules' own step names (data/i18n/godstorm.json)
    return t(key, lang) if has(key) else step


def _draw_header(d: ImageDraw.ImageDraw, view: GodstormView, lang: str, classic: bool) -> None:
    title = _tr("title_classic" if classic else "title", lang)
    text(d, (18, 12), title, font(30, "bold"), GOLD)
    sub = []
    if not classic and view.get("epoch"):
        sub.append(_tr("epoch", lang, n=view["epoch"], total=view.get("epochs") or D.EPOCHS))
    step = _step_label(view.get("step"), lang)
    if step:
        sub.append(step)
    text(d, (18, 54), " · ".join(sub), font(22, "regular"), PANEL_TEXT)
    if view.get("outcome"):
        _draw_outcome(d, view, lang)  # the result replaces the turn order
        return
    order = list(view.get("turn_order") or [])
    x: float = 520
    text(d, (x, 18), _tr("turn_order", lang), font(16, "regular"), (190, 182, 210))
    current = view.get("current")
    cf = font(20, "bold")
    for i, seat in enumerate(order):
        name = _fit(d, f"{i + 1}. {_seat_name(view, seat, lang)}", cf, 210)
        colour = _seat_colour(view, seat)
        wdt = text_width(d, name, cf) + 44
        y0 = 42
        if seat == current:
            rounded_rectangle(d, [x - 4, y0 - 4, x + wdt + 4, y0 + 40], radius=10, outline=GOLD, width=3)
        rounded_rectangle(d, [x, y0, x + wdt, y0 + 36], radius=8, fill=(60, 54, 78))
        d.ellipse([x + 8, y0 + 8, x + 28, y0 + 28], fill=colour, outline=(255, 255, 255), width=2)
        _mark(d, x + 18, y0 + 18, seat, 7)
        text(d, (x + 36, y0 + 18), name, cf, PANEL_TEXT, "lm")
        x += wdt + 14
        if x > W - 120:
            break


TABLE_COLS = (("player", 0), ("faith", 330), ("cards", 420), ("territories", 640), ("armies", 730),
              ("heaven", 810))


def _draw_players(d: ImageDraw.ImageDraw, view: GodstormView, lang: str, classic: bool) -> None:
    x0, y0 = _table_x(classic), BOTTOM_Y + 12
    hf = font(16, "bold")
    for key, off in TABLE_COLS:
        if classic and key in ("faith", "heaven"):
            continue
        text(d, (x0 + off + 8, y0), _tr(f"col.{key}", lang), hf, (90, 84, 100))
    rows = list(view.get("players") or [])
    current = view.get("current")
    rf = font(21, "bold")
    nf = font(20, "bold")
    sf = font(14, "condensed")
    y = y0 + 26
    row_h = 44
    for p in rows:
        seat = int(p.get("seat", 0))
        colour = tuple(p.get("colour") or (120, 120, 120))
        fill = (255, 250, 230) if seat == current else (244, 240, 230)
        rounded_rectangle(d, [x0, y, x0 + TABLE_W, y + row_h - 4], radius=8, fill=fill,
                             outline=GOLD if seat == current else (214, 206, 190), width=3 if seat == current else 1)
        rounded_rectangle(d, [x0 + 6, y + 6, x0 + 30, y + row_h - 10], radius=5, fill=colour, outline=INK)
        _mark(d, x0 + 18, y + (row_h - 4) / 2, seat, 8)
        name = _seat_name(view, seat, lang)
        pan = p.get("pantheon")
        muted = (150, 144, 150) if p.get("eliminated") else INK
        text(d, (x0 + 38, y + 3), _fit(d, name, nf, 280), nf, muted)
        tag = D.PANTHEONS[pan].name[lang] if pan in D.PANTHEONS else ""
        if p.get("eliminated"):
            tag = (tag + " · " if tag else "") + _tr("eliminated", lang)
        elif p.get("has_bid"):
            tag = (tag + " · " if tag else "") + _tr("bid_done", lang)
        elif p.get("has_bid") is False:
            tag = (tag + " · " if tag else "") + _tr("bid_waiting", lang)
        relics = p.get("relics") or []
        if relics:  # relics in play (public), issue 10
            tag = (tag + " · " if tag else "") + _tr("relics", lang, n=len(relics))
        text(d, (x0 + 38, y + 25), _fit(d, tag, sf, 280), sf, (96, 90, 104))
        mid = y + (row_h - 4) / 2
        if not classic:
            text(d, (x0 + 338, mid), str(int(p.get("faith") or 0)), rf, muted, "lm")
            text(d, (x0 + 818, mid), str(int(p.get("heaven") or 0)), rf, muted, "lm")
        _draw_cards(d, x0 + 428, mid, p.get("cards") or {}, lang, x0 + 630)
        text(d, (x0 + 648, mid), str(int(p.get("territories") or 0)), rf, muted, "lm")
        text(d, (x0 + 738, mid), str(int(p.get("armies") or 0)), rf, muted, "lm")
        y += row_h
    neutral = view.get("neutral")
    if neutral:
        count = sum(1 for st in (view.get("territories") or {}).values() if st.get("owner") == NEUTRAL_SEAT)
        armies = sum(int(st.get("armies") or 0) for st in (view.get("territories") or {}).values()
                     if st.get("owner") == NEUTRAL_SEAT)
        rounded_rectangle(d, [x0 + 6, y + 6, x0 + 30, y + 30], radius=5, fill=tuple(neutral.get("colour") or UNOWNED),
                             outline=INK)
        _mark(d, x0 + 18, y + 18, NEUTRAL_SEAT, 8)
        text(d, (x0 + 38, y + 18), _tr("neutral", lang), nf, INK, "lm")
        text(d, (x0 + 648, y + 18), str(count), rf, INK, "lm")
        text(d, (x0 + 738, y + 18), str(armies), rf, INK, "lm")


def _draw_cards(d: ImageDraw.ImageDraw, x: float, y: float, cards: dict[str, Any], lang: str,
                limit: float) -> None:
    """Card kinds and counts as small coloured cards with a letter, then the count."""
    f = font(12, "bold")
    cf = font(19, "bold")
    for kind, count in cards.items():
        colour = CARD_COLOUR.get(kind, (110, 104, 96))
        rounded_rectangle(d, [x, y - 13, x + 18, y + 13], radius=3, fill=colour, outline=INK)
        letter = D.GOD_LETTERS.get(kind, {}).get(lang) or (_tr(f"card.{kind}", lang)[:1] if has(
            f"godstorm.map.card.{kind}") else str(kind)[:1].upper())
        text(d, (x + 9, y), letter, f, (255, 255, 255), "mm")
        text(d, (x + 22, y), str(int(count or 0)), cf, INK, "lm")
        x += 54
        if x > limit:
            break


def _draw_outcome(d: ImageDraw.ImageDraw, view: GodstormView, lang: str) -> None:
    outcome = view.get("outcome")
    if not outcome:
        return
    winners: Iterable[Any] = outcome.get("winners") or ([outcome["winner"]] if "winner" in outcome else [])
    names = ", ".join(_seat_name(view, int(s), lang) for s in winners if isinstance(s, int))
    headline = _tr("game_over", lang) + (" — " + _tr("winner", lang, names=names) if names else "")
    scores = outcome.get("scores")
    if isinstance(scores, dict):
        scores = [scores.get(str(i), scores.get(i)) for i in range(len(view.get("players") or []))]
    x0 = 520
    text(d, (x0, 12), _fit(d, headline, font(28, "bold"), W - x0 - 20), font(28, "bold"), GOLD)
    if isinstance(scores, list) and scores:
        line = "   ".join(f"{_seat_name(view, i, lang)}: {v}" for i, v in enumerate(scores) if v is not None)
        text(d, (x0, 52), _fit(d, line, font(22, "regular"), W - x0 - 20), font(22, "regular"), PANEL_TEXT)


def _colours(view: GodstormView) -> set[Colour]:
    """The player colours a view asks for (they are drawn as flat fills)."""
    found = {_rgb(p.get("colour"), (120, 120, 120)) for p in view.get("players") or []}
    neutral = view.get("neutral")
    if neutral:
        found.add(_rgb(neutral.get("colour"), (150, 150, 150)))
    return found


def _draw_view(img: Image.Image, view: GodstormView, lang: str, classic: bool) -> None:
    d = ImageDraw.Draw(img)
    _draw_last(d, view, lang)
    _draw_territories(img, d, view, lang)
    if not classic:
        _draw_underworld(img, d, view, lang)
    _draw_header(d, view, lang, classic)
    _draw_players(d, view, lang, classic)
    if not classic and view.get("miracles"):
        _draw_miracle_marks(d, view, lang)


SUNK_INK = (24, 48, 92)
WHIRL = (20, 40, 80)


def _draw_miracle_marks(d: ImageDraw.ImageDraw, view: GodstormView, lang: str) -> None:
    """Issue 10: sunken Atlantis (waves over its territories and a label), the maelstrom on its sea link
    (a whirlpool on the link's middle, the link struck through)."""
    m: dict[str, Any] = dict(view.get("miracles") or {})
    if m.get("sunk") and "atlantis" in D.CONTINENTS:
        tids = list(D.CONTINENTS["atlantis"].territories)
        for tid in tids:
            x, y = territory_center(tid)
            for k in (-1, 0, 1):  # three waves across the place
                yy = y + k * 12
                pts = [(x - 34 + i * 4, yy + 4 * math.sin(i * 0.9)) for i in range(18)]
                d.line(pts, fill=SUNK_INK, width=4)
        label = _tr("sunk", lang)
        half = text_width(d, label, font(20, "bold")) / 2 + 14
        cx = max(half + 6, sum(territory_center(x)[0] for x in tids) / len(tids) + 20)
        cy = sum(territory_center(x)[1] for x in tids) / len(tids) + 8
        _pill(d, cx, cy, label, SUNK_INK, 20)
    link = m.get("maelstrom")
    if isinstance(link, list) and len(link) == 2 and all(x in D.TERRITORIES for x in link):
        (ax, ay), (bx, by) = territory_center(link[0]), territory_center(link[1])
        mx, my = (ax + bx) / 2, (ay + by) / 2
        d.line([(ax, ay), (bx, by)], fill=ATTACK, width=3)
        for r in (22, 15, 8):
            d.ellipse([mx - r, my - r, mx + r, my + r], outline=WHIRL, width=3, fill=(255, 255, 255) if r == 22 else None)
        d.line([(mx - 26, my - 26), (mx + 26, my + 26)], fill=ATTACK, width=4)
        d.line([(mx - 26, my + 26), (mx + 26, my - 26)], fill=ATTACK, width=4)
        text(d, (mx, my + 36), _tr("maelstrom", lang), font(16, "bold"), WHIRL, "mm")


def render_image(view: GodstormView, lang: str) -> Image.Image:
    """The board in full colour, on a copy of the cached base."""
    lang = lang if lang in ("ru", "en") else "en"
    classic = view.get("ruleset") == "classic"
    img = _base(lang, classic).copy()
    _draw_view(img, view, lang, classic)
    return img


def compose(view: GodstormView, lang: str) -> Image.Image:
    """The board ready to encode: on the game's palette, or in full colour if the view holds a colour
    the palette lacks."""
    img = render_image(view, lang)
    pal = palette("godstorm")
    return pal.quantize(img) if all(c in pal for c in _colours(view)) else img


def reference(view: GodstormView, lang: str) -> Image.Image:
    """The same board drawn straightforwardly in full colour, without caches or palette (tests)."""
    lang = lang if lang in ("ru", "en") else "en"
    classic = view.get("ruleset") == "classic"
    img = inspect.unwrap(_base)(lang, classic)  # drawn here, neither remembered nor kept on disk
    _draw_view(img, view, lang, classic)
    return img


@rendered_once("godstorm")
def render(view: GodstormView, lang: str) -> bytes:
    """The board as PNG (1920×1820)."""
    return encode_png(compose(view, lang))


# ---- zoom: a region at a size a phone reads ---------------------------------------------------
ZOOM_CAP_AT_400 = 9.0
"""Cap height, in px, of the names and army counts of a zoomed view shown 400 px wide."""
CAP_RATIO = 0.73  # DejaVu's cap height as a share of the font size
UNDERWORLD = "underworld"
LAST = "last"
ZOOM_PAD_X, ZOOM_PAD_TOP, ZOOM_PAD_BOTTOM = 120, 95, 70
ZOOM_MIN_W = 480
ZOOM_MIN_H = 320
ZOOM_MAX_W = 900
"""A continent wider than this is offered in two halves, west and east (``africa:w``, ``africa:e``)."""


def zoom_text_size(width: int) -> int:
    """The font size whose cap height is ``ZOOM_CAP_AT_400`` px once ``width`` px are shown in 400."""
    return math.ceil(ZOOM_CAP_AT_400 * width / 400 / CAP_RATIO + 0.01)


def zoom_choices(view: GodstormView, lang: str) -> list[tuple[str, str]]:
    """(value, label) of every zoom: each continent, the Underworld (Godstorm rules), the last move."""
    lang = lang if lang in ("ru", "en") else "en"
    out = []
    for cid, cont in D.CONTINENTS.items():
        if _continent_box(cid)[2] - _continent_box(cid)[0] > ZOOM_MAX_W:
            out += [(f"{cid}:{half}", t(f"boards.zoom.godstorm.{half}", lang, name=cont.name[lang])) for half in "we"]
        else:
            out.append((cid, cont.name[lang]))
    if view.get("ruleset") != "classic":
        out.append((UNDERWORLD, t("boards.zoom.godstorm.underworld", lang)))
    last = view.get("last")
    if last and (last.get("from") in D.TERRITORIES or last.get("to") in D.TERRITORIES
                 or last.get("to") in D.UNDERWORLD):
        out.append((LAST, t("boards.zoom.last", lang)))
    return out


def _window(points: Iterable[tuple[int, int]], bounds: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    pts = list(points)
    x0 = min(x for x, _ in pts) - ZOOM_PAD_X
    x1 = max(x for x, _ in pts) + ZOOM_PAD_X
    y0 = min(y for _, y in pts) - ZOOM_PAD_TOP
    y1 = max(y for _, y in pts) + ZOOM_PAD_BOTTOM
    if x1 - x0 < ZOOM_MIN_W:
        grow = (ZOOM_MIN_W - (x1 - x0)) // 2
        x0, x1 = x0 - grow, x1 + grow
    if y1 - y0 < ZOOM_MIN_H:
        grow = (ZOOM_MIN_H - (y1 - y0)) // 2
        y0, y1 = y0 - grow, y1 + grow
    bx0, by0, bx1, by1 = bounds
    shift = max(0, bx0 - x0) - max(0, x1 - bx1)
    x0, x1 = max(bx0, x0 + shift), min(bx1, x1 + shift)
    shift = max(0, by0 - y0) - max(0, y1 - by1)
    return x0, max(by0, y0 + shift), x1, min(by1, y1 + shift)


MAPPED = (0, MAP_Y, W, BOTTOM_Y)
UNDERWORLD_BOX = (UW_X, UW_Y, UW_X + UW_PANEL_W, UW_Y + UW_PANEL_H)
"""The Underworld zoom: the whole panel, the heavens column included."""


def _continent_points(cid: str, half: str = "") -> list[tuple[int, int]]:
    points = sorted(territory_center(tid) for tid, ter in D.TERRITORIES.items() if ter.continent == cid)
    middle = (len(points) + 1) // 2
    return points[:middle] if half == "w" else points[middle - 1:] if half == "e" else points


def _continent_box(cid: str) -> tuple[int, int, int, int]:
    return _window(_continent_points(cid), MAPPED)


def zoom_window(view: GodstormView, zoom: str) -> tuple[int, int, int, int] | None:
    """The box of the full board a zoom shows (None for a zoom this board does not offer)."""
    classic = view.get("ruleset") == "classic"
    mapped = MAPPED
    cid, _, half = zoom.partition(":")
    if cid in D.CONTINENTS and zoom in dict(zoom_choices(view, "en")):
        return _window(_continent_points(cid, half), mapped)
    if zoom == UNDERWORLD and not classic:
        return UNDERWORLD_BOX
    if zoom == LAST:
        last: Mapping[str, Any] = view.get("last") or {}
        places = [territory_center(p) for p in (last.get("from"), last.get("to")) if p in D.TERRITORIES]
        if places:
            return _window(places, mapped)
        if last.get("to") in D.UNDERWORLD and not classic:
            return UNDERWORLD_BOX
    return None


def zoom_image(view: GodstormView, lang: str, zoom: str) -> Image.Image | None:
    """The zoomed region in full colour: names, army counts, gods and the Underworld's labels drawn at
    the size that reads on a phone (the rest as on the board)."""
    box = zoom_window(view, zoom)
    if box is None:
        return None
    lang = lang if lang in ("ru", "en") else "en"
    classic = view.get("ruleset") == "classic"
    size = max(17, zoom_text_size(box[2] - box[0]))  # never smaller than on the board
    img = _shapes(classic).copy()
    d = ImageDraw.Draw(img)
    _draw_last(d, view, lang, size, names=False)
    _draw_territories(img, d, view, lang, size)
    underworld = box == UNDERWORLD_BOX
    if underworld:
        _draw_underworld_labels(d, lang, size)
        _draw_underworld(img, d, view, lang, size)
    crop = img.crop(box)
    if not underworld:
        _zoom_names(ImageDraw.Draw(crop), box, lang, size)
    legend = _zoom_legend(crop.width, lang, size, classic, underworld)
    out = Image.new("RGB", (crop.width, crop.height + legend.height), PAPER)
    out.paste(crop, (0, 0))
    out.paste(legend, (0, crop.height))
    return out


def zoom_name_boxes(box: tuple[int, int, int, int], lang: str, size: int
                    ) -> list[tuple[str, tuple[float, float]]]:
    """(name, bottom-centre point in the crop) of every territory whose centre the zoom shows: above its
    disc, moved sideways as far as needed to stay whole inside the crop (a name is never cut)."""
    f = font(size, "condensed-bold")
    scratch = ImageDraw.Draw(Image.new("L", (1, 1)))
    out = []
    for tid in D.TERRITORIES:
        x, y = territory_center(tid)
        if not (box[0] <= x < box[2] and box[1] <= y < box[3]):
            continue
        name = D.TERRITORIES[tid].name[lang]
        left, top, right, bottom = scratch.textbbox((0, 0), name, font=f, anchor="mb", stroke_width=3)
        half = (right - left) / 2
        cx = min(max(x - box[0], half + 2), box[2] - box[0] - half - 2)
        cy = min(max(y - NODE_R - 8 - box[1], 2 - top), box[3] - box[1] - 2 - bottom)
        out.append((name, (cx, cy)))
    return out


def _zoom_names(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], lang: str, size: int) -> None:
    for name, xy in zoom_name_boxes(box, lang, size):
        text(d, xy, name, font(size, "condensed-bold"), INK, "mb", stroke_width=3, stroke_fill=(255, 255, 255))


def zoom_legend_items(lang: str, classic: bool, underworld: bool) -> list[tuple[str, str]]:
    """(key, label) of a zoom's legend: what its marks mean."""
    lang = lang if lang in ("ru", "en") else "en"
    items = [("owner", t("godstorm.zoom.legend.yours", lang)), ("armies", t("godstorm.zoom.legend.armies", lang))]
    if underworld:
        return [*items, ("fire", _tr("legend.fire", lang)), ("attack", _tr("legend.attack", lang))]
    if not classic:
        items += [("god", t("godstorm.zoom.legend.god", lang)), ("temple", _tr("legend.temple", lang)),
                  ("plague", _tr("legend.plague", lang))]
    return [*items, ("sea", _tr("legend.sea", lang)), ("ridge", _tr("legend.ridge", lang)),
            ("attack", _tr("legend.attack", lang))]


@lru_cache(maxsize=32)
def _zoom_legend(width: int, lang: str, size: int, classic: bool, underworld: bool) -> Image.Image:
    """The legend band under a zoom: each mark and its meaning at the zoom's text size, in rows."""
    f = font(size, "condensed")
    row = round(size * 1.5)
    icon = round(size * 1.6)
    scratch = ImageDraw.Draw(Image.new("L", (1, 1)))
    placed: list[tuple[str, str, float, float]] = []
    x, y = 10.0, 8.0
    for key, label in zoom_legend_items(lang, classic, underworld):
        label = _fit(scratch, label, f, width - 30 - icon)
        wide = icon + 8 + text_width(scratch, label, f)
        if x > 10 and x + wide > width - 10:
            x, y = 10.0, y + row
        placed.append((key, label, x, y + row / 2))
        x += wide + size
    img = Image.new("RGB", (width, round(y + row + 8)), PAPER)
    d = ImageDraw.Draw(img)
    s = size / 21
    for key, label, lx, cy in placed:
        ix = lx + icon / 2
        if key == "owner":
            _paste_disc(img, (round(ix), round(cy)), (120, 120, 120), round(size * 0.6))
            _mark(d, ix, cy, 0, size * 0.6 - 6)
        elif key == "armies":
            _pill(d, ix, cy, "3", INK, size)
        elif key == "god":
            _god(d, ix, cy, D.GOD_KINDS[0], INK, lang, size)
        elif key == "temple":
            _temple(d, ix, cy - 1, s * 1.3)
        elif key == "plague":
            _plague(d, ix, cy, size * 0.5)
        elif key == "sea":
            _dashed(d, (lx, cy), (lx + icon, cy), SEA_LINE, 3, 8, 5)
        elif key == "ridge":
            _zigzag(d, (ix, cy), (1, 0), icon, 5, 3, (110, 78, 48), 3)
        elif key == "fire":
            _zigzag(d, (ix, cy), (1, 0), icon, 5, 3, (250, 120, 30), 4)
        elif key == "attack":
            _arrow(d, (lx - 4, cy), (lx + icon + 4, cy), ATTACK, 4, 0)
        text(d, (lx + icon + 8, cy), label, f, INK, "lm")
    return img


def render_zoom(view: GodstormView, lang: str, zoom: str) -> bytes | None:
    """A zoom as PNG (on the game's palette when it holds the view's colours), or None."""
    img = zoom_image(view, lang, zoom)
    if img is None:
        return None
    pal = palette("godstorm")
    return encode_png(pal.quantize(img) if all(c in pal for c in _colours(view)) else img)


# ---- the personal board: the seat's own map for its private panel (issue 25) ----------------------
MINE_W = 800
"""Drawn 800 px wide: shown 400 px wide on a phone, every text at half size."""
MINE_CAP_AT_400 = 9.0
"""Cap height, in px, of every text of the personal board shown 400 px wide."""
MINE_TEXT = math.ceil(MINE_CAP_AT_400 * MINE_W / 400 / CAP_RATIO)
MINE_SCALE = MINE_W / MAP_W
MINE_MAP_H = round(MAP_H * MINE_SCALE)
MINE_HEAD = 2 * MINE_TEXT + 34
MINE_PAD = 14
MINE_LIST_ROWS = 8
"""Target lines listed at most (the map marks every target)."""
MINE_FADE = 0.55
"""How far the territories that are neither the seat's nor attackable fade towards white."""
TARGET_FILL = (244, 168, 160)
MINE_NAME = round(MINE_TEXT * 0.84)
"""Names on the personal board's map: a little smaller than the lists (cap height 7.6 px at 400)."""
"""How far the territories that are neither the seat's nor attackable fade towards white."""


def mine_point(tid: str) -> tuple[int, int]:
    """A territory's centre on the personal board's map."""
    x, y = D.TERRITORIES[tid].xy
    return round(x * MINE_SCALE), MINE_HEAD + round(y * MINE_SCALE)


def mine_pixel(tid: str) -> tuple[int, int]:
    """A pixel inside a territory's region on the personal board that shows its highlight (between its
    centre and its army count, clear of both)."""
    x, y = mine_point(tid)
    return x - 15, y - 15


def highlighted(view: GodstormView) -> tuple[list[str], list[str]]:
    """(the seat's territories, the territories it can attack now) as the view says, sorted."""
    me: Mapping[str, Any] = view.get("me") or {}
    seat = me.get("seat")
    terrs: Mapping[str, Any] = view.get("territories") or {}
    own = sorted(tid for tid, st in terrs.items() if tid in D.TERRITORIES and st.get("owner") == seat
                 and seat is not None)
    targets = sorted({str(dst) for _, dst in me.get("attacks") or [] if dst in D.TERRITORIES})
    return own, targets


@lru_cache(maxsize=2)
def _mine_map(classic: bool) -> Image.Image:
    """The Ancient Earth without text, scaled to the personal board's width and faded."""
    region = _shapes(classic).crop((0, MAP_Y, MAP_W, BOTTOM_Y)).resize((MINE_W, MINE_MAP_H), Image.Resampling.BOX)
    return Image.blend(region, Image.new("RGB", region.size, (255, 255, 255)), MINE_FADE)


def _mine_cell(tid: str) -> list[Point]:
    return [(x * MINE_SCALE, MINE_HEAD + y * MINE_SCALE) for x, y in _territory_cells()[tid]]


def _place_name(tid: str, lang: str) -> str:
    return D.TERRITORIES[tid].name[lang] if tid in D.TERRITORIES else tid


def personal_image(view: GodstormView, lang: str) -> Image.Image:
    """The seat's board: the Ancient Earth with its territories in its colour and the ones it can attack
    now in red (arrows from where it can attack them), army counts on both, and below them the targets
    (owner, armies, from where) and its territories by name, all at ``MINE_TEXT``."""
    lang = lang if lang in ("ru", "en") else "en"
    classic = view.get("ruleset") == "classic"
    me: Mapping[str, Any] = view.get("me") or {}
    seat = int(me.get("seat", -1)) if isinstance(me.get("seat"), int) else -1
    own, targets = highlighted(view)
    terrs: Mapping[str, Any] = view.get("territories") or {}
    colour = _seat_colour(view, seat)
    body = font(MINE_TEXT, "condensed")
    bold = font(MINE_TEXT, "condensed-bold")
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    # the lists below the map, laid out first so the image has its height
    attacks = [(str(a), str(b)) for a, b in me.get("attacks") or [] if a in D.TERRITORIES and b in D.TERRITORIES]
    lines: list[tuple[str, Any, Colour]] = []
    width = MINE_W - 2 * MINE_PAD
    if targets:
        lines.append((_tr_mine("targets", lang) + ":", bold, ATTACK))
        for dst in targets[:MINE_LIST_ROWS]:
            st = terrs.get(dst) or {}
            owner = st.get("owner")
            who = _seat_name(view, int(owner), lang) if isinstance(owner, int) else _tr_mine("unowned", lang)
            sources = ", ".join(f"{_place_name(a, lang)} {int((terrs.get(a) or {}).get('armies') or 0)}"
                                for a, b in attacks if b == dst)
            line = t("godstorm.mine.target_line", lang, to=_place_name(dst, lang), owner=who,
                     armies=int(st.get("armies") or 0), sources=sources)
            lines += [(part, body, INK) for part in _wrap_lines(scratch, line, body, width)]
        if len(targets) > MINE_LIST_ROWS:
            lines.append((t("godstorm.mine.more", lang, n=len(targets) - MINE_LIST_ROWS), body, INK))
    else:
        lines.append((_tr_mine("no_attack" if view.get("phase") == "turn" else "not_turn", lang), body, INK))
    names = "\u00a0· ".join(f"{_place_name(tid, lang)}\u00a0{int((terrs.get(tid) or {}).get('armies') or 0)}"
                            for tid in own)  # lines break only between territories
    lines.append((_tr_mine("territories", lang) + ":", bold, _shade(colour, 0.7)))
    lines += [(part, body, INK) for part in _wrap_lines(scratch, names or _tr_mine("none", lang), body, width)]
    step = round(MINE_TEXT * 1.3)
    legend_y = MINE_HEAD + MINE_MAP_H + 8
    list_y = legend_y + 2 * step + 10
    height = list_y + step * len(lines) + MINE_PAD
    img = Image.new("RGB", (MINE_W, height), PAPER)
    img.paste(_mine_map(classic), (0, MINE_HEAD))
    d = ImageDraw.Draw(img)
    # header: whose board, the epoch and step
    d.rectangle([0, 0, MINE_W, MINE_HEAD - 1], fill=PANEL_DARK)
    name = seat_label(view, seat, _tr("seat", lang, n=seat + 1)) if seat >= 0 else ""
    d.ellipse([MINE_PAD, 12, MINE_PAD + MINE_TEXT, 12 + MINE_TEXT], fill=colour, outline=(255, 255, 255), width=2)
    title = _fit(d, t("godstorm.mine.title", lang, name=name), font(MINE_TEXT, "bold"), width - MINE_TEXT - 10)
    text(d, (MINE_PAD + MINE_TEXT + 10, 12 + MINE_TEXT / 2), title, font(MINE_TEXT, "bold"), GOLD, "lm")
    sub = []
    if not classic and view.get("epoch"):
        sub.append(_tr("epoch", lang, n=view["epoch"], total=view.get("epochs") or D.EPOCHS))
    label = _step_label(view.get("step"), lang)
    if label:
        sub.append(label)
    text(d, (MINE_PAD, MINE_HEAD - 12), _fit(d, " · ".join(sub), body, width), body, PANEL_TEXT, "ls")
    # the map: own regions in the seat's colour, targets in red, arrows from where they can be attacked
    tint = _shade(colour, 1.45)
    for tid in own:
        d.polygon(_mine_cell(tid), fill=tint, outline=_shade(colour, 0.7), width=4)
    for tid in targets:
        d.polygon(_mine_cell(tid), fill=TARGET_FILL, outline=ATTACK, width=4)
    for a, b in attacks:
        (ax, ay), (bx, by) = mine_point(a), mine_point(b)
        ux, uy = _unit((ax, ay), (bx, by))
        d.line([(ax + ux * 14, ay + uy * 14), (bx - ux * 16, by - uy * 16)], fill=ATTACK, width=3)
    pill = round(MINE_TEXT * 0.9)
    for tid in [*own, *targets]:
        st = terrs.get(tid) or {}
        x, y = mine_point(tid)
        owner = st.get("owner")
        edge = ATTACK if tid in targets else _shade(colour, 0.7)
        _mark_pill(d, x, y, str(int(st.get("armies") or 0)), _seat_colour(view, owner), owner, edge, pill)
    # the names of the highlighted territories where they fit (the lists below name them all)
    _mine_names(d, [*targets, *own], lang, pill)
    # legend of the two highlights, one row each
    armies = sum(int((terrs.get(tid) or {}).get("armies") or 0) for tid in own)
    cy = legend_y + step / 2
    for fill, edge, label in ((tint, _shade(colour, 0.7), t("godstorm.mine.yours", lang, n=len(own), a=armies)),
                              (TARGET_FILL, ATTACK, t("godstorm.mine.can_attack", lang, n=len(targets)))):
        rounded_rectangle(d, [MINE_PAD, cy - 11, MINE_PAD + 30, cy + 11], radius=4, fill=fill, outline=edge, width=3)
        text(d, (MINE_PAD + 40, cy), _fit(d, label, body, width - 40), body, INK, "lm")
        cy += step
    y = list_y
    for line, fnt, fill in lines:
        text(d, (MINE_PAD, y), line, fnt, fill, "lt")
        y += step
    return img


def _mine_names(d: ImageDraw.ImageDraw, tids: list[str], lang: str, pill: int) -> None:
    """Each territory's name above its army count, targets first, skipped where it would cover a name
    already written or an army count, or leave the map (so no name is ever cut or overprinted)."""
    f = font(MINE_NAME, "condensed-bold")
    hh = pill * 0.62
    taken = [(x - hh - pill * 0.9, y - hh, x + hh + pill * 0.9, y + hh) for x, y in map(mine_point, tids)]
    for tid in tids:
        x, y = mine_point(tid)
        name = _place_name(tid, lang)
        half = text_width(d, name, f) / 2
        box = (x - half - 2, y - pill * 0.62 - MINE_NAME - 4, x + half + 2, y - pill * 0.62)
        if box[0] < 2 or box[2] > MINE_W - 2 or box[1] < MINE_HEAD or box[3] > MINE_HEAD + MINE_MAP_H:
            continue
        if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in taken):
            continue
        taken.append(box)
        text(d, (x, box[3] - 1), name, f, INK, "mb", stroke_width=2, stroke_fill=(255, 255, 255))


def _mark_pill(d: ImageDraw.ImageDraw, x: float, y: float, label: str, colour: Colour, owner: int | None,
               edge: Colour, size: int) -> None:
    """An army count on the personal board: the owner's colour and mark, then the count."""
    f = font(size, "bold")
    tw = text_width(d, label, f)
    hh = size * 0.62
    w = tw + 2 * hh + 10
    x0 = x - w / 2
    rounded_rectangle(d, [x0, y - hh, x0 + w, y + hh], radius=int(hh), fill=(255, 255, 255), outline=edge, width=3)
    d.ellipse([x0 + 3, y - hh + 3, x0 + 2 * hh - 3, y + hh - 3], fill=colour)
    _mark(d, x0 + hh, y, owner, hh - 5)
    text(d, (x0 + 2 * hh + 4 + tw / 2, y + 1), label, f, INK, "mm")


def _tr_mine(key: str, lang: str) -> str:
    return t(f"godstorm.mine.{key}", lang)


def _wrap_lines(d: ImageDraw.ImageDraw, line: str, fnt: Any, width: float) -> list[str]:
    """Greedy word wrap; a word longer than the line is cut with an ellipsis (never drawn past the edge)."""
    out: list[str] = []
    current = ""
    for word in line.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and text_width(d, candidate, fnt) > width:
            out.append(current)
            current = word
        else:
            current = candidate
    out.append(current)
    return [_fit(d, part, fnt, width) for part in out]


@rendered_once("godstorm-personal")
def render_personal(view: GodstormView, lang: str) -> bytes | None:
    """The private panel's picture: the seat's board (:func:`personal_image`) and, under it, its miracle
    cards and relics as card faces when it holds any (``bot.games.godstorm.render_cards``). None for a view without
    a seat (the public view)."""
    from bot.games.godstorm.render_cards import render_hand  # noqa: PLC0415 (only panels need it)

    me: Mapping[str, Any] = view.get("me") or {}
    if not isinstance(me.get("seat"), int):
        return render_hand(view, lang)
    board = personal_image(view, lang)
    seat = int(me["seat"])
    players = view.get("players") or []
    relics = tuple(players[seat].get("relics") or []) if 0 <= seat < len(players) else ()
    hand = _hand_image(tuple(me.get("miracles") or []), relics, lang)
    if hand is not None:
        both = Image.new("RGB", (MINE_W, board.height + hand.height), PAPER)
        both.paste(board, (0, 0))
        both.paste(hand, (0, board.height))
        board = both
    return encode_png(palette("godstorm").quantize(board))


@lru_cache(maxsize=32)
def _hand_image(miracles: tuple[str, ...], relics: tuple[str, ...], lang: str) -> Image.Image | None:
    """The card faces of a hand and its relics, ``MINE_W`` wide (kept: a hand changes seldom, the map often)."""
    from bot.games.godstorm.render_cards import render_hand  # noqa: PLC0415 (only panels need it)

    cards = render_hand({"me": {"seat": 0, "miracles": list(miracles)}, "players": [{"relics": list(relics)}]}, lang)
    if cards is None:
        return None
    hand = Image.open(io.BytesIO(cards)).convert("RGB")
    return hand if hand.width == MINE_W else hand.resize((MINE_W, round(hand.height * MINE_W / hand.width)))
