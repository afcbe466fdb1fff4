"""By All Means pictures: the public field and a seat's private hand.

* ``render(view, lang)``: the field from a neutral side (seat 2 above, seat 1 below), 3 columns by 4
  rows; each cell shows its territory (name, owner, loyalty, influence, symbols), graffiti (a face-down
  graffigent as a card back), Agent (efficiency/resilience, tapped, exposed, reckless, shadows) and an
  attached plot; each player's counters (reputation, influence, trust), buffer (planned objects are
  public), the sizes of hand, archives and utility pile, and whose action it is. It reads only the
  public parts of the view: never ``me``, so a hand can never reach the channel's picture.
* ``render_hand(view, lang)``: the seat's own hand and buffer as card faces drawn from the card data
  (name, price, number, symbols, type, key stats, ability text), legible at a phone's 400 px width.
  It is the personal board of the seat's private panel (``bot/discord_app/boards.py``).

Both are drawn in full colour and mapped onto the game's fixed palette (``data/palettes/byallmeans.txt``).
The zooms of ``/game board zoom:`` (the field's halves and the players, readable at 400 px) are drawn by
``bot.games.byallmeans.render_zoom`` from the public part of the view.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.core.i18n import t
from bot.games.byallmeans import data
from bot.games.byallmeans import render_zoom as zoomed
from bot.games.byallmeans.render_style import (
    BACK,
    BG,
    CARD,
    CELL,
    DARK,
    GAME,
    GOLD,
    GREEN,
    INK,
    MUTED,
    PANEL,
    PNG_LEVEL,
    RED,
    SEAT,
    SEAT_DARK,
    SYMBOL,
    TYPE,
    _name,
    _tx,
    public_part,
)
from bot.games.byallmeans.render_style import (
    EXACT_COLOURS as EXACT_COLOURS,  # the palette builder reads it here
)
from render.common import (
    Colour,
    encode_png,
    font,
    palette,
    rendered_once,
    rounded_rectangle,
    seat_label,
    text,
    wrap,
)

W = 1080
HEAD_H = 96
PANEL_H = 178
CELL_W, CELL_H = 340, 250
GRID_X = (W - 3 * CELL_W - 2 * 12) // 2
FIELD_Y = HEAD_H + PANEL_H + 16
H = FIELD_Y + 4 * CELL_H + 3 * 12 + 16 + PANEL_H + 12

HAND_W = 920
CARD_W, CARD_H = 446, 340
HAND_HEAD = 76
MAX_HAND_ROWS = 5


def _seat(view: dict[str, Any], seat: int, lang: str, limit: int = 22) -> str:
    return seat_label(view, seat, t("bam.seat", lang, n=seat + 1), limit=limit)


def _symbols(d: ImageDraw.ImageDraw, syms: list[str], x: float, y: float, r: int, lang: str,
             labels: bool = False) -> float:
    """Coloured discs with the symbol's initial (its name beside it when ``labels``); returns the end x."""
    for sym in syms:
        col = SYMBOL.get(sym, MUTED)
        d.ellipse((x, y, x + 2 * r, y + 2 * r), fill=col, outline=INK, width=2)
        name = t(f"bam.sym.{sym}", lang)
        text(d, (x + r, y + r), name[:1], font(int(r * 1.15), "bold"), DARK if sym in ("coin", "fog") else INK, "mm")
        x += 2 * r + 6
        if labels:
            short = name.split(" (")[0]
            text(d, (x, y + r), short, font(int(r * 1.2), "condensed"), DARK, "lm")
            x += d.textlength(short, font=font(int(r * 1.2), "condensed")) + 12
    return x


# ---- the public field ------------------------------------------------------------------------------
def _panel(d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, lang: str, y: int) -> None:
    p = view["players"][seat]
    acting = seat in (view.get("waiting") or [])
    rounded_rectangle(d, (12, y, W - 12, y + PANEL_H), radius=14, fill=PANEL,
                         outline=SEAT[seat] if acting else SEAT_DARK[seat], width=5 if acting else 2)
    rounded_rectangle(d, (12, y, W - 12, y + 46), radius=14, fill=SEAT_DARK[seat])
    text(d, (30, y + 23), _seat(view, seat, lang), font(26, "bold"), INK, "lm")
    if acting:
        text(d, (W - 30, y + 23), _tx("acting", lang), font(22, "bold"), GOLD, "rm")
    # counters
    for i, (key, val, col) in enumerate((("rep", p["rep"], GOLD), ("inf", p["inf"], GREEN),
                                         ("trust", p["trust"], SEAT[seat]))):
        cx = 30 + i * 132
        text(d, (cx, y + 58), t(f"bam.res.{key}", lang), font(17), MUTED)
        text(d, (cx, y + 80), str(val), font(44, "bold"), col)
    sizes = _tx("sizes", lang, hand=p["hand"], main=p["main"], extra=p["extra"], util=len(p["utility"]))
    for i, line in enumerate(wrap(d, sizes, font(19), 390, 2)):
        text(d, (30, y + 134 + i * 21), line, font(19), INK)
    if p.get("lost_actions"):
        text(d, (300, y + 58), _tx("lost", lang, n=p["lost_actions"]), font(17, "bold"), RED)
    # buffer: two slots
    bx = 440
    text(d, (bx, y + 56), _tx("buffer", lang), font(17, "bold"), MUTED)
    for slot in range(2):
        x0 = bx + slot * 310
        box = (x0, y + 80, x0 + 298, y + PANEL_H - 12)
        buf = p["buffer"]
        if slot < len(buf):
            b = buf[slot]
            card = data.card(b["code"])
            rounded_rectangle(d, box, radius=10, fill=CARD, outline=TYPE[card.type], width=4)
            for i, line in enumerate(wrap(d, _name(b["code"], lang), font(20, "condensed-bold"), 280, 1)):
                text(d, (x0 + 10, y + 88 + i * 22), line, font(20, "condensed-bold"), DARK)
            _symbols(d, b["symbols"], x0 + 10, y + 116, 13, lang)
            text(d, (x0 + 288, y + 130), str(card.number), font(24, "bold"), DARK, "rm")
        else:
            rounded_rectangle(d, box, radius=10, outline=MUTED, width=2)
            text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), _tx("empty", lang), font(18), MUTED, "mm")


def _tag(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: Colour, owner: int,
         label: str, fnt: Any, ink: Colour = INK) -> None:
    rounded_rectangle(d, box, radius=8, fill=fill, outline=SEAT[owner], width=3)
    lines = wrap(d, label, fnt, box[2] - box[0] - 12, 1)
    text(d, (box[0] + 8, (box[1] + box[3]) / 2), lines[0] if lines else "", fnt, ink, "lm")


def _cell(d: ImageDraw.ImageDraw, cell: dict[str, Any], idx: int, lang: str, x: int, y: int) -> None:
    rounded_rectangle(d, (x, y, x + CELL_W, y + CELL_H), radius=12, fill=CELL)
    ter = cell.get("territory")
    if ter is not None:
        owner = ter["owner"]
        rounded_rectangle(d, (x + 4, y + 4, x + CELL_W - 4, y + 118), radius=10, fill=CARD, outline=SEAT[owner],
                             width=5)
        name = wrap(d, _name(ter["code"], lang), font(21, "condensed-bold"), CELL_W - 150, 2)
        for i, line in enumerate(name):
            text(d, (x + 14, y + 12 + i * 23), line, font(21, "condensed-bold"), DARK)
        card = data.card(ter["code"])
        inf = card.influence
        text(d, (x + 14, y + 62), _tx("inf_short", lang, n=f"{inf:+d}"), font(18, "bold"), GREEN if inf >= 0 else RED)
        _symbols(d, ter["symbols"], x + 14, y + 86, 12, lang)
        # loyalty in a shield on the right
        lx = x + CELL_W - 100  # beside the cell's number
        loyal = ter.get("loyalty", 0)
        rounded_rectangle(d, (lx - 34, y + 30, lx + 34, y + 108), radius=12, fill=RED if loyal <= 0 else SEAT_DARK[owner])
        text(d, (lx, y + 60), str(loyal), font(36, "bold"), INK, "mm")
        text(d, (lx, y + 96), _tx("loyalty_short", lang), font(13), INK, "mm")
    else:
        text(d, (x + CELL_W / 2, y + 60), "·", font(30), MUTED, "mm")
    yy = y + 124
    graf = cell.get("graffiti")
    if graf is not None:
        if graf.get("face_down") or not graf["code"]:
            _tag(d, (x + 4, yy, x + CELL_W - 4, yy + 34), BACK, graf["owner"], _tx("graffiti_back", lang),
                 font(18, "bold"))
        else:
            _tag(d, (x + 4, yy, x + CELL_W - 4, yy + 34), TYPE["graffiti"], graf["owner"],
                 _tx("graffiti", lang) + ": " + _name(graf["code"], lang), font(18, "condensed-bold"))
        yy += 38
    agent = cell.get("agent")
    if agent is not None:
        owner = agent["owner"]
        rounded_rectangle(d, (x + 4, yy, x + CELL_W - 4, yy + 56), radius=8, fill=SEAT_DARK[owner],
                             outline=GOLD if agent.get("exposed") else SEAT[owner], width=3)
        label = _name(agent["code"], lang) if agent["code"] else _tx("hidden_card", lang)
        if agent.get("shadows"):
            label += f" +{agent['shadows']}"
        cut = wrap(d, label, font(18, "condensed-bold"), CELL_W - 110, 1)
        text(d, (x + 12, yy + 15), cut[0] if cut else "", font(18, "condensed-bold"), INK, "lm")
        stats = _tx("eff_res", lang, e=agent.get("efficiency", 0), r=agent.get("resilience", 0))
        text(d, (x + CELL_W - 12, yy + 15), stats, font(19, "bold"), INK, "rm")
        flags = [_tx(k, lang) for k in ("tapped", "exposed", "reckless") if agent.get(k)]
        text(d, (x + 12, yy + 40), " · ".join(flags) if flags else _tx("hidden", lang), font(16, "bold"),
             GOLD if flags else MUTED, "lm")
        yy += 60
    plot = cell.get("plot")
    if plot is not None and yy + 30 <= y + CELL_H:
        _tag(d, (x + 4, yy, x + CELL_W - 4, min(y + CELL_H - 4, yy + 32)), TYPE["plot"], plot["owner"],
             _tx("plot", lang) + ": " + _name(plot["code"], lang), font(17, "condensed-bold"))
    # the cell's number last, over whatever stands there: the panel's buttons say "Cell N" (issue 25:
    # it was 16 px and hidden under a territory, about 5 px on a phone)
    bx, by = x + CELL_W - 30, y + 30
    d.ellipse((bx - 26, by - 26, bx + 26, by + 26), fill=INK, outline=DARK, width=3)
    text(d, (bx, by), str(idx + 1), font(36, "bold"), DARK, "mm")


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], lang: str) -> None:
    text(d, (20, 14), t("bam.name", lang), font(30, "bold"), INK)
    turn = view["turn"]
    text(d, (20, 56), _tx("turn", lang, n=turn["number"], phase=_tx(f"phase.{view['phase']}", lang)), font(20), MUTED)
    result = view.get("result")
    if result:
        winners = result.get("winners") or []
        msg = _tx("draw", lang) if result.get("draw") or not winners else _tx(
            "winner", lang, name=_seat(view, int(winners[0]), lang))
        col = GOLD
    else:
        waiting = view.get("waiting") or []
        if len(waiting) == 1:
            msg, col = _tx("to_act", lang, name=_seat(view, waiting[0], lang)), SEAT[waiting[0]]
        elif waiting:
            msg, col = _tx("both_act", lang), INK
        else:
            msg, col = "", INK
        if view["phase"] == "turn" and not view.get("decision"):
            extra = _tx("actions_left", lang, n=turn["main_left"])
            text(d, (W - 20, 58), extra, font(20), MUTED, "ra")
    text(d, (W - 20, 16), msg, font(26, "bold"), col, "ra")
    if view.get("neutral"):
        names = ", ".join(_name(c, lang) for c in view["neutral"])
        line = wrap(d, _tx("neutral", lang, cards=names), font(18), 560, 1)
        text(d, (360, 60), line[0] if line else "", font(18), GOLD)


def _draw_field(view: dict[str, Any], lang: str) -> Image.Image:
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    _header(d, view, lang)
    _panel(d, view, 1, lang, HEAD_H)
    for row in range(4):
        y = FIELD_Y + (3 - row) * (CELL_H + 12)
        for col in range(3):
            idx = row * 3 + col
            _cell(d, view["field"][idx], idx, lang, GRID_X + col * (CELL_W + 12), y)
    _panel(d, view, 0, lang, H - PANEL_H - 12)
    return img


def reference(view: dict[str, Any], lang: str) -> Image.Image:
    """The field in full colour, before the palette (palette building and tests)."""
    return _draw_field(public_part(view), lang)


@rendered_once(GAME)
def render(view: dict[str, Any], lang: str) -> bytes:
    return encode_png(palette(GAME).quantize(_draw_field(public_part(view), lang)), level=PNG_LEVEL)


# ---- the private hand ------------------------------------------------------------------------------
def _ability_text(code: str, lang: str) -> str:
    key = f"bam.cardtext.{code}"
    got = t(key, lang)
    return "" if got == key else got


def _price(cost: list[int | None] | tuple[int | None, int | None]) -> str:
    return "/".join("—" if c is None else str(c) for c in cost)


def _arrows(arrows: str) -> str:
    return "".join({"N": "↑", "E": "→", "S": "↓", "W": "←"}[a] for a in arrows)


def _card_face(d: ImageDraw.ImageDraw, code: str, lang: str, x: int, y: int, price: list[int | None] | None,
               active: list[str] | None) -> None:
    card = data.card(code)
    col = TYPE[card.type]
    rounded_rectangle(d, (x, y, x + CARD_W, y + CARD_H), radius=14, fill=CARD, outline=col, width=5)
    rounded_rectangle(d, (x, y, x + CARD_W, y + 44), radius=14, fill=col)
    name = wrap(d, _name(code, lang), font(26, "condensed-bold"), CARD_W - 110, 1)
    text(d, (x + 14, y + 22), name[0] if name else code, font(26, "condensed-bold"), INK, "lm")
    text(d, (x + CARD_W - 14, y + 22), code, font(23, "bold"), INK, "rm")
    # price (after the static modifiers when the view gives it), number, type
    shown = price if price is not None else list(card.cost)
    text(d, (x + 14, y + 54), _tx("price", lang, p=_price(shown)), font(24, "bold"), DARK)
    d.ellipse((x + CARD_W - 62, y + 52, x + CARD_W - 14, y + 100), fill=DARK)
    text(d, (x + CARD_W - 38, y + 76), str(card.number), font(28, "bold"), INK, "mm")
    text(d, (x + 14, y + 84), t(f"bam.r.type.{card.type}", lang), font(23, "bold"), col)
    syms = active if active is not None else list(card.symbols)
    if syms:
        _symbols(d, syms, x + 14, y + 112, 20, lang, labels=True)
    elif active is not None:
        text(d, (x + 14, y + 130), _tx("no_symbols", lang), font(23), MUTED, "lm")
    stats = ""
    if card.type == "territory":
        stats = _tx("ter_stats", lang, inf=f"{card.influence:+d}", loy=card.loyalty, ally=f"{card.ally:+d}",
                    enemy=f"{card.enemy:+d}", arrows=_arrows(card.arrows) or "—")
    elif card.is_agent:
        stats = _tx("agent_stats", lang, eff=card.efficiency, res=card.resilience)
        if card.operative:
            stats += " · " + _tx("operative", lang)
    yy = y + 160
    if stats:
        for line in wrap(d, stats, font(23, "bold"), CARD_W - 28, 2):
            text(d, (x + 14, yy), line, font(23, "bold"), DARK)
            yy += 28
    body = _ability_text(code, lang)
    room = y + CARD_H - 10 - yy
    for size in (23, 21, 19, 17, 15):  # the whole text, in the largest size that holds it (Russian is longer)
        step = size + 4
        lines = wrap(d, body, font(size, "condensed"), CARD_W - 28, 40)
        if len(lines) * step <= room:
            break
    lines = lines[:max(1, room // step)]
    for line in lines:
        text(d, (x + 14, yy), line, font(size, "condensed"), DARK)
        yy += step


def _draw_hand(view: dict[str, Any], lang: str) -> Image.Image:
    me = view.get("me") or {"seat": 0, "hand": []}
    seat = int(me["seat"])
    entries: list[tuple[str, str, list[int | None] | None, list[str] | None]] = [
        ("hand", c["code"], c.get("price"), None) for c in me["hand"]]
    entries += [("buffer", b["code"], None, list(b["symbols"])) for b in view["players"][seat]["buffer"]]
    cap = MAX_HAND_ROWS * 2
    more = len(entries) - (cap - 1) if len(entries) > cap else 0
    if more:
        entries = entries[:cap - 1]
    rows = max(1, (len(entries) + 1) // 2)
    height = HAND_HEAD + rows * (CARD_H + 14) + (44 if more else 0) + 6
    img = Image.new("RGB", (HAND_W, height), BG)
    d = ImageDraw.Draw(img)
    p = view["players"][seat]
    title = _tx("hand_title", lang, name=_seat(view, seat, lang), n=len(me["hand"]))
    text(d, (12, 8), title, font(28, "bold"), SEAT[seat])
    text(d, (12, 44), _tx("hand_counters", lang, rep=p["rep"], inf=p["inf"], trust=p["trust"]), font(23), INK)
    if not entries:
        text(d, (HAND_W / 2, HAND_HEAD + CARD_H / 2), _tx("hand_empty", lang), font(26), MUTED, "mm")
    for i, (zone, code, price, active) in enumerate(entries):
        x = 10 + (i % 2) * (CARD_W + 8)
        y = HAND_HEAD + (i // 2) * (CARD_H + 14)
        _card_face(d, code, lang, x, y, price, active)
        if zone == "buffer":
            text(d, (x + CARD_W - 14, y + CARD_H - 12), _tx("in_buffer", lang), font(23, "bold"), GOLD, "rd")
    if more:
        text(d, (12, height - 40), _tx("more", lang, n=more), font(24, "bold"), MUTED)
    return img


def reference_hand(view: dict[str, Any], lang: str) -> Image.Image:
    return _draw_hand(view, lang)


@rendered_once(GAME + "-hand")
def render_hand(view: dict[str, Any], lang: str) -> bytes:
    """The seat's own hand and buffer (``view`` is that seat's view, with ``me``)."""
    return encode_png(palette(GAME).quantize(_draw_hand(view, lang)), level=PNG_LEVEL)


render_personal = render_hand
"""The personal board of the seat's private panel (``bot/discord_app/boards.py``): the hand picture."""


# ---- zooms (issue 13), drawn by bot.games.byallmeans.render_zoom ----------------------------------------------
def zoom_choices(view: dict[str, Any], lang: str) -> list[tuple[str, str]]:
    return zoomed.zoom_choices(view, lang)


def render_zoom(view: dict[str, Any], lang: str, zoom: str) -> bytes | None:
    return zoomed.render_zoom(view, lang, zoom)
