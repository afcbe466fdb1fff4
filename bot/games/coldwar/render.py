"""Cold War table PNG from the public view: target card, both sides' groups, agents, score track.

The frames and labels that never change (background, title, card and panel frames, the panels'
headings) are drawn once per language and cached; a render copies that base, draws the view with
cached text masks, and maps the result onto the game's fixed palette. What a move seldom changes is
kept from earlier tables and pasted: the target card (per target and language, ``_card``) and each
side panel's body (per side, its shown state and language, ``_cached_body``; a move usually changes
one side). Each is drawn only inside its own area, so a pasted part is the drawn one, pixel for pixel.
The PNG is deflated at ``BOARD_PNG_LEVEL``.

For phones (issue 13): an event's text is written inside the target card (dark on light), and the
zooms and the seat's personal board are drawn by ``bot.games.coldwar.render_zoom`` (hooks at the end).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any, cast

from PIL import Image, ImageDraw

from bot.core.i18n import t
from bot.games.coldwar import render_zoom as zoomed
from bot.games.coldwar.render_style import (
    BG,
    CARD,
    FACTION,
    FRAME,
    GOLD,
    INK,
    MUTED,
    PANEL,
    SIDE,
    SIDE_DARK,
    P,
    _tx,
)
from bot.games.coldwar.render_style import EXACT_COLOURS as EXACT_COLOURS  # the palette builder reads it here
from bot.games.coldwar.view import ColdWarView, GroupView, SideView
from render.common import encode_png, font, palette, rendered_once, rounded_rectangle, seat_label, text, wrap

W, H = 1400, 926
SIDE_SHAPES = ("disc", "square")
"""Each side's emblem shape (panel headers, score markers): the sides differ without colour too."""
TARGET_BOX = (24, 112, 360, 676)
"""The target card, as tall as both side panels: an event's text is written inside it, dark on light."""
PANEL_BOXES = ((408, 112, W - 408 - 24, 330), (408, 458, W - 408 - 24, 330))
TRACK_BOX = (24, 806, W - 48)


def _name(view: ColdWarView, seat: int, lang: str) -> str:
    """``ЦРУ · <name>``: the side, then the seat's display name (or its number)."""
    return f"{_tx(f'side.{seat}', lang)} · {seat_label(view, seat, _tx('r.seat', lang, n=seat + 1), limit=19)}"


def _centered(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], label: str, fnt: Any,
              fill: tuple[int, int, int]) -> None:
    x0, y0, x1, y1 = box
    text(d, ((x0 + x1) / 2, (y0 + y1) / 2), label, fnt, fill, "mm")


def emblem(d: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float) -> None:
    """The side's emblem: its colour in its shape (a disc for the CIA, a square for the KGB)."""
    box = (cx - r, cy - r, cx + r, cy + r)
    if SIDE_SHAPES[seat % 2] == "disc":
        d.ellipse(box, fill=SIDE[seat], outline=INK, width=2)
    else:
        k = r * 0.88
        d.rectangle((cx - k, cy - k, cx + k, cy + k), fill=SIDE[seat], outline=INK, width=2)


def _diamond(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]) -> None:
    d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=INK, width=2)


def _pawn(d: ImageDraw.ImageDraw, x: float, y: float, color: tuple[int, int, int]) -> None:
    d.ellipse((x + 6, y, x + 18, y + 12), fill=color)
    rounded_rectangle(d, (x, y + 13, x + 24, y + 30), radius=6, fill=color)


def _faction_icon(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fac: str, lang: str) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=FACTION[fac], outline=INK, width=2)
    _centered(d, (cx - r, cy - r, cx + r, cy + r), _tx(f"r.fac.{fac}", lang), font(int(r * 1.1), "bold"), BG)


def _target_card(d: ImageDraw.ImageDraw, view: ColdWarView, lang: str, x: int, y: int) -> None:
    w, h = TARGET_BOX[2:]
    tgt = view.get("target")
    if tgt is None:
        _centered(d, (x, y, x + w, y + h), _tx("r.no_target", lang), font(28, "bold"), (60, 60, 60))
        return
    dark = (34, 34, 40)
    kind = _tx("r.event" if tgt["kind"] == "event" else "r.country", lang)
    text(d, (x + 20, y + 16), kind.upper(), font(20, "bold"), (120, 90, 40))
    lines = wrap(d, t(P + "target." + tgt["id"], lang), font(36, "bold"), w - 40, 2)
    for i, line in enumerate(lines):
        text(d, (x + 20, y + 44 + i * 42), line, font(36, "bold"), dark)
    top = y + 140
    # stability diamond
    _diamond(d, x + 75, top + 70, 62, (58, 70, 96))
    _centered(d, (x + 13, top + 8, x + 137, top + 132), str(tgt["stability"]), font(52, "bold"), INK)
    text(d, (x + 75, top + 142), _tx("r.stability", lang), font(18), dark, "mt")
    # victory points
    d.ellipse((x + 200, top + 18, x + 320, top + 138), fill=GOLD, outline=dark, width=3)
    _centered(d, (x + 200, top + 18, x + 320, top + 124), str(tgt["vp"]), font(50, "bold"), dark)
    text(d, (x + 260, top + 112), _tx("r.vp", lang), font(16, "bold"), dark, "mm")
    text(d, (x + 260, top + 142), _tx("r.points", lang), font(18), dark, "mt")
    # group limit
    yy = top + 190
    text(d, (x + 20, yy), _tx("r.limit", lang, n=tgt["limit"]), font(20, "bold"), dark)
    for i in range(tgt["limit"]):
        _pawn(d, x + 22 + i * 34, yy + 30, (70, 70, 80))
    # priority icons, decreasing size
    yy += 86
    text(d, (x + 20, yy), _tx("r.priority", lang), font(20, "bold"), dark)
    col_w = (w - 24) // 4
    for i, fac in enumerate(tgt["priority"]):
        r = 34 - i * 6
        cx = x + 12 + col_w * i + col_w // 2
        _faction_icon(d, cx, yy + 70, r, fac, lang)
        text(d, (cx, yy + 112), _tx(f"faction.{fac}", lang), font(13, "condensed"), dark, "mt")
    if tgt["kind"] == "event":
        text(d, (x + 20, EVENT_TOP - 22), _tx(f"phase.{tgt['phase']}", lang).upper(), font(16, "bold"), (120, 90, 40))
        for xy, line, size in event_lines(tgt["id"], lang):
            text(d, xy, line, font(size), dark)


EVENT_SIZES = (17, 16, 15, 14)
EVENT_TOP = TARGET_BOX[1] + 140 + 190 + 86 + 134 + 22
"""Where the first line of an event's description is written (under its phase, inside the card)."""


def event_lines(tid: str, lang: str) -> list[tuple[tuple[int, int], str, int]]:
    """(top left, text, font size) of each line of an event's description on the target card: the
    largest size whose lines all fit the card below the priority icons (every text fits at 17 px)."""
    x, _, w, _ = TARGET_BOX
    room = (TARGET_BOX[1] + TARGET_BOX[3] - 12 - EVENT_TOP) // 22
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    desc = t(P + "evdesc." + tid, lang)
    size = next((s for s in EVENT_SIZES if len(wrap(probe, desc, font(s), w - 40, room + 1)) <= room),
                EVENT_SIZES[-1])
    lines = wrap(probe, desc, font(size), w - 40, room)  # too long even at 14 px: cut, with an ellipsis
    return [((x + 20, EVENT_TOP + i * 22), line, size) for i, line in enumerate(lines)]


def _fit(d: ImageDraw.ImageDraw, text: str, width: float, size: int) -> Any:
    """The largest condensed-bold font (down to 12 px) whose longest word fits ``width``."""
    longest = max(text.split(), key=len, default="")
    while size > 12 and d.textlength(longest, font=font(size, "condensed-bold")) > width:
        size -= 1
    return font(size, "condensed-bold")


def _group_card(d: ImageDraw.ImageDraw, g: GroupView, lang: str, x: int, y: int, k: float) -> int:
    """Active: upright bright card; inactive: turned sideways and dimmed. ``k`` scales the card
    so that five sideways cards still fit. Returns the width used."""
    col = FACTION[g["faction"]]
    name = t(P + "group." + g["id"], lang)
    ink = (30, 30, 36)
    if g["active"]:
        w, h = int(132 * k), 176
        rounded_rectangle(d, (x, y, x + w, y + h), radius=12, fill=(246, 244, 238), outline=col, width=5)
        rounded_rectangle(d, (x, y, x + w, y + 36), radius=12, fill=col)
        text(d, (x + w / 2, y + 18), _tx(f"faction.{g['faction']}", lang), font(15, "condensed-bold"), BG, "mm")
        _centered(d, (x, y + 36, x + w, y + 116), str(g["influence"]), font(60, "bold"), ink)
        fnt = _fit(d, name, w - 12, 17)
        for i, line in enumerate(wrap(d, name, fnt, w - 12, 2)):
            text(d, (x + w / 2, y + 126 + i * 20), line, fnt, ink, "mt")
        return w
    w, h = int(176 * k), 120
    yy = y + 56
    rounded_rectangle(d, (x, yy, x + w, yy + h), radius=12, fill=(92, 96, 108), outline=(60, 62, 70), width=3)
    d.rectangle((x + 6, yy + 6, x + 36, yy + h - 6), fill=tuple(c // 2 + 40 for c in col))
    _centered(d, (x + 6, yy + 6, x + 36, yy + h - 6), str(g["influence"]), font(26, "bold"), INK)
    fnt = _fit(d, name, w - 50, 16)
    for i, line in enumerate(wrap(d, name, fnt, w - 50, 2)):
        text(d, (x + 44, yy + 14 + i * 19), line, fnt, (225, 225, 230))
    text(d, (x + 44, yy + h - 30), _tx("r.inactive", lang), font(14, "bold"), (250, 200, 120))
    d.line((x + w - 22, yy + 10, x + w - 10, yy + 22), fill=(250, 200, 120), width=3)
    return w


def _agents(d: ImageDraw.ImageDraw, side: SideView, lang: str, x: int, y: int, w: int) -> None:
    status: dict[int, str] = {}
    for a in side["hq"]:
        status[a] = "hq"
    for a in side["leave"]:
        status[a] = "leave"
    for a in side["dead"]:
        status[a] = "dead"
    chip = (w - 5 * 8) // 6
    for i in range(1, 7):
        cx = x + (i - 1) * (chip + 8)
        st = status.get(i, "field")
        fill = {"hq": (58, 66, 86), "leave": (44, 48, 58), "dead": (34, 30, 32), "field": (74, 62, 28)}[st]
        rounded_rectangle(d, (cx, y, cx + chip, y + 46), radius=8, fill=fill,
                             outline=GOLD if st == "field" else (80, 88, 104), width=2)
        label = t(P + f"agent.{i}", lang)
        col = INK if st == "hq" else (MUTED if st != "dead" else (120, 100, 100))
        lines = wrap(d, f"{i} {label}", font(13, "condensed-bold"), chip - 8, 1)
        text(d, (cx + 6, y + 5), lines[0], font(13, "condensed-bold"), col)
        text(d, (cx + 6, y + 25), _tx(f"r.ag.{st}", lang), font(13), col)
        if st == "dead":
            d.line((cx + 4, y + 4, cx + chip - 4, y + 42), fill=(200, 60, 60), width=3)


def _side_panel(d: ImageDraw.ImageDraw, view: ColdWarView, seat: int, lang: str, x: int, y: int,
                w: int, h: int) -> None:
    _panel_head(d, view, seat, lang, x, y, w, h)
    _panel_body(d, view["sides"][seat], view.get("decision") == "plan", seat, lang, x, y, w, h)


def _panel_head(d: ImageDraw.ImageDraw, view: ColdWarView, seat: int, lang: str, x: int, y: int,
                w: int, h: int) -> None:
    """A side panel's frame and heading: the acting side's frame, name, influence badge, tokens."""
    side = view["sides"][seat]
    if seat in view.get("actors", []):  # the acting side's frame, over the quiet one of the base
        rounded_rectangle(d, (x, y, x + w, y + h), radius=16, outline=SIDE[seat], width=5)
        rounded_rectangle(d, (x, y, x + w, y + 50), radius=16, fill=SIDE_DARK[seat])
    emblem(d, seat, x + 32, y + 25, 13)
    text(d, (x + 54, y + 25), _name(view, seat, lang), font(26, "bold"), INK, "lm")
    # influence vs stability
    tgt = view.get("target")
    inf = side["influence"]
    over = tgt is not None and inf > tgt["stability"]
    label = f"{inf}" + (f" / {tgt['stability']}" if tgt else "")
    badge_w = 210
    bx = x + w - badge_w - 14
    rounded_rectangle(d, (bx, y + 8, bx + badge_w, y + 44), radius=10, fill=(170, 40, 40) if over else (24, 28, 38))
    text(d, (bx + 10, y + 26), _tx("r.influence", lang), font(16), MUTED, "lm")
    text(d, (bx + badge_w - 10, y + 26), label, font(24, "bold"), INK, "rm")
    # tokens
    tx = bx - 12
    if view.get("token") == seat:
        tx -= 40
        d.ellipse((tx, y + 7, tx + 36, y + 43), fill=SIDE[seat], outline=GOLD, width=3)
        _centered(d, (tx, y + 7, tx + 36, y + 43), "★", font(20, "bold"), INK)
    if view.get("balance") == seat:
        tx -= 112
        rounded_rectangle(d, (tx, y + 9, tx + 104, y + 41), radius=15, fill=GOLD)
        _centered(d, (tx, y + 9, tx + 104, y + 41), _tx("r.balance", lang), font(15, "bold"), BG)


BODY_KEYS = ("x", "score", "trophies", "groups", "hq", "leave", "dead")
"""What a side panel's body shows of the side's view (``_panel_body``)."""


def _body_area(seat: int) -> tuple[int, int, int, int]:
    """The pixels of a side panel's body: under its heading (and the acting side's header fill), inside
    its frame and clear of its rounded corners. Only the body is drawn there."""
    x, y, w, h = PANEL_BOXES[seat]
    return x + 16, y + 51, x + w - 16, y + h - 5


def _panel_body(d: ImageDraw.ImageDraw, side: SideView, plan: bool, seat: int, lang: str, x: int, y: int,
                w: int, h: int) -> None:
    """A side panel's body: agent X, score and trophies, groups, agents (``plan``: the sides are
    choosing their agent X)."""
    # agent X
    ax = x + 18
    ay = y + 64
    xval = side["x"]
    if xval == "hidden":
        xt, col = _tx("r.hidden", lang), GOLD
    elif isinstance(xval, int):
        xt, col = t(P + f"agent.{xval}", lang), GOLD
    else:
        xt, col = (_tx("r.choosing", lang), MUTED) if plan else ("—", MUTED)
    rounded_rectangle(d, (ax, ay + 22, ax + 150, ay + 92), radius=10, fill=(48, 42, 24) if xval else (40, 46, 60),
                         outline=col, width=2)
    for i, line in enumerate(wrap(d, xt, font(17, "bold"), 136, 2)):
        text(d, (ax + 75, ay + 40 + i * 21), line, font(17, "bold"), col, "mm")
    # score + trophies
    text(d, (ax, ay + 124), str(side["score"]), font(40, "bold"), SIDE[seat])
    troph = ", ".join(t(P + "target." + tid, lang) for tid in side["trophies"]) or "—"
    for i, line in enumerate(wrap(d, troph, font(13), 150, 4)):
        text(d, (ax, ay + 174 + i * 16), line, font(13), MUTED)
    # groups
    gx = x + 190
    gy = y + 64
    if not side["groups"]:
        text(d, (gx + 10, gy + 80), _tx("r.no_groups", lang), font(20), MUTED)
    need = sum((132 if g["active"] else 176) + 12 for g in side["groups"])
    k = min(1.0, (x + w - 18 - gx) / max(1, need))
    for g in side["groups"]:
        gx += _group_card(d, g, lang, gx, gy, k) + 12
    # agents row
    _agents(d, side, lang, x + 190, y + h - 60, w - 190 - 18)


def _score_track(d: ImageDraw.ImageDraw, view: ColdWarView, lang: str, x: int, y: int, w: int) -> None:
    goal = max(1, int(view.get("goal", 100)))
    top = max(goal, *(s["score"] for s in view["sides"]))
    bx0, bx1 = x + 24, x + w - 24
    by = y + 62
    rounded_rectangle(d, (bx0, by - 6, bx1, by + 6), radius=6, fill=(60, 68, 88))
    for v in range(0, top + 1, 10):
        px = bx0 + (bx1 - bx0) * v / top
        d.line((px, by - 12, px, by + 12), fill=(110, 118, 140), width=2)
        text(d, (px, by + 16), str(v), font(13), MUTED, "mt")
    gx = bx0 + (bx1 - bx0) * goal / top
    d.line((gx, by - 22, gx, by + 14), fill=GOLD, width=4)
    places = [bx0 + (bx1 - bx0) * min(view["sides"][seat]["score"], top) / top for seat in (0, 1)]
    for seat, px in enumerate(places):  # each side's emblem on a stem; the KGB's higher when they meet
        cy = by - 46 if seat == 1 and abs(places[0] - px) < 24 else by - 22
        d.line((px, by, px, cy), fill=INK, width=3)
        emblem(d, seat, px, cy, 10)
    text(d, (x + 24, y + 8), _tx("r.track", lang, goal=goal), font(17, "bold"), INK)
    scores = (f"{_tx('side.0', lang)} {view['sides'][0]['score']}  ·  "
              f"{_tx('side.1', lang)} {view['sides'][1]['score']}")
    text(d, (x + w - 24, y + 8), scores, font(17, "bold"), INK, "ra")


def _header(d: ImageDraw.ImageDraw, view: ColdWarView, lang: str) -> None:
    phase = _tx(f"phase.{view['phase']}", lang)
    text(d, (28, 62), _tx("r.round", lang, n=view["round"], phase=phase), font(22), MUTED)
    out = view.get("outcome")
    if out:
        msg = (_tx("r.draw", lang) if out.get("draw") else
               _tx("r.winner", lang, name=_name(view, out["winners"][0], lang)))
        col = GOLD
    else:
        actors = view.get("actors", [])
        if view.get("decision") == "plan":
            marks = [f"{_tx(f'side.{s}', lang)}: " + _tx("r.chosen" if view["sides"][s]["chosen"] else "r.choosing", lang)
                     for s in (0, 1)]
            msg, col = "   ".join(marks), INK
        elif actors:
            msg, col = _tx("r.to_act", lang, name=_name(view, actors[0], lang)), SIDE[actors[0]]
        else:
            msg, col = "", INK
    text(d, (W - 28, 30), msg, font(26, "bold"), col, "ra")
    decks = _tx("r.decks", lang, t=view["target_deck"], g=view["group_deck"], d=view["group_discard"])
    text(d, (W - 28, 66), decks, font(18), MUTED, "ra")


def _draw_base(lang: str) -> Image.Image:
    """What every table shows whatever the view: background, title, frames and headings."""
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    text(d, (28, 22), _tx("name", lang), font(30, "bold"), INK)
    x, y, w, h = TARGET_BOX
    rounded_rectangle(d, (x, y, x + w, y + h), radius=18, fill=CARD, outline=GOLD, width=4)
    for seat, (x, y, w, h) in enumerate(PANEL_BOXES):
        rounded_rectangle(d, (x, y, x + w, y + h), radius=16, fill=PANEL, outline=FRAME, width=2)
        rounded_rectangle(d, (x, y, x + w, y + 50), radius=16, fill=SIDE_DARK[seat])
        text(d, (x + 18, y + 64), _tx("r.agent_x", lang), font(16, "bold"), MUTED)
        text(d, (x + 18, y + 168), _tx("r.score", lang), font(16, "bold"), MUTED)
    x, y, w = TRACK_BOX
    rounded_rectangle(d, (x, y, x + w, y + 96), radius=14, fill=PANEL)
    return img


@lru_cache(maxsize=2)
def _base(lang: str) -> Image.Image:
    return _draw_base(lang)


CARD_AREA = (TARGET_BOX[0], TARGET_BOX[1], TARGET_BOX[0] + TARGET_BOX[2] + 1, TARGET_BOX[1] + TARGET_BOX[3] + 1)
"""The pixels of the target card (its frame included): nothing but the card is drawn there."""


@lru_cache(maxsize=4)  # a target stays for several moves; 0.7 MB each
def _card(target: str, lang: str) -> Image.Image:
    """The target card (``target``: the view's target as JSON) drawn on the base, cut to its area."""
    img = _base(lang).copy()
    _target_card(ImageDraw.Draw(img), cast("ColdWarView", {"target": json.loads(target)}), lang, *TARGET_BOX[:2])
    return img.crop(CARD_AREA)


BODIES_MAX = 4  # side panel bodies kept (0.8 MB each): both sides of a game or two
_bodies: OrderedDict[tuple[str, int, str], Image.Image] = OrderedDict()
_bodies_lock = threading.Lock()


def _cached_body(img: Image.Image, d: ImageDraw.ImageDraw, view: ColdWarView, seat: int, lang: str) -> None:
    """A side panel's body pasted from the last tables when its side has not changed since (a move
    usually changes one side), otherwise drawn and kept."""
    side = view["sides"][seat]
    plan = view.get("decision") == "plan"
    shown = {k: v for k, v in side.items() if k in BODY_KEYS}
    key = (json.dumps([shown, plan], sort_keys=True), seat, lang)
    area = _body_area(seat)
    with _bodies_lock:
        body = _bodies.get(key)
        if body is not None:
            _bodies.move_to_end(key)
    if body is not None:
        img.paste(body, area[:2])
        return
    _panel_body(d, side, plan, seat, lang, *PANEL_BOXES[seat])
    body = img.crop(area)
    with _bodies_lock:
        _bodies[key] = body
        while len(_bodies) > BODIES_MAX:
            _bodies.popitem(last=False)


def _draw_view(img: Image.Image, view: ColdWarView, lang: str, cached: bool = False) -> None:
    """The view over a copy of the base; ``cached``: the target card and the side panels' bodies
    pasted from earlier tables where they are unchanged (``_card``, ``_cached_body``), drawn otherwise."""
    d = ImageDraw.Draw(img)
    _header(d, view, lang)
    if cached:
        img.paste(_card(json.dumps(view.get("target"), sort_keys=True), lang), CARD_AREA[:2])
    else:
        _target_card(d, view, lang, *TARGET_BOX[:2])
    for seat, box in enumerate(PANEL_BOXES):
        if cached:
            _panel_head(d, view, seat, lang, *box)
            _cached_body(img, d, view, seat, lang)
        else:
            _side_panel(d, view, seat, lang, *box)
    _score_track(d, view, lang, *TRACK_BOX)


def compose(view: ColdWarView, lang: str) -> Image.Image:
    """The table on the game's palette: the cached base plus this view."""
    img = _base(lang).copy()
    _draw_view(img, view, lang, cached=True)
    return palette("coldwar").quantize(img)


def reference(view: ColdWarView, lang: str) -> Image.Image:
    """The same table drawn straightforwardly in full colour, without caches or palette (tests)."""
    img = _draw_base(lang)
    _draw_view(img, view, lang)
    return img


BOARD_PNG_LEVEL = 3
"""zlib level of the table. Nearly every row of the table changes from move to move (both side panels:
the acting side's frame moves), so its PNG bands are seldom reused and the table is deflated almost
whole each time; zlib's fast levels (1-3) take about two thirds of level 6's time (the bench state's
successive boards on one thread: 5.9 ms instead of 8.7-10.3) for 53.5 KB instead of 43.8, inside the
60 KB aim; level 4 (48 KB) saves little time (8.0 ms)."""


@rendered_once("coldwar")
def render(view: ColdWarView, lang: str) -> bytes:
    return encode_png(compose(view, lang), level=BOARD_PNG_LEVEL)


# ---- zooms and the personal board (issue 13), drawn by bot.games.coldwar.render_zoom ------------------------
def zoom_choices(view: ColdWarView, lang: str) -> list[tuple[str, str]]:
    return zoomed.zoom_choices(dict(view), lang)


def render_zoom(view: ColdWarView, lang: str, zoom: str) -> bytes | None:
    return zoomed.render_zoom(dict(view), lang, zoom)


@rendered_once("coldwar-personal")
def render_personal(view: ColdWarView, lang: str) -> bytes | None:
    return zoomed.render_personal(dict(view), lang)
