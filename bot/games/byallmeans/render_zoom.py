"""By All Means zoomed views for ``/game board zoom:`` (issue 13).

The field (``bot.games.byallmeans.render``) is 1080 px wide: shown 400 px wide its names are about 5 px tall. A
zoom redraws a part of it as text blocks whose letters are at least ``phone_zoom.CAP_AT_400`` px tall
at 400 px:

* ``rows:1-2`` / ``rows:3-4``: two rows of the field, three cells each, laid out as on the table (the
  higher row above); a cell lists its territory (name, owner, influence, loyalty, symbols), graffiti,
  Agent (name, efficiency and resilience, tapped / exposed / reckless) and plot;
* ``players``: whose turn and what is left of it, the neutral zone, and each player's counters, the
  sizes of hand, archives and utility pile, and the planned objects of the buffer.

Only public parts are drawn: the view's ``me`` (the seat's hand) is dropped, and a face-down card is
shown as a face-down card even in the view of its owner (a zoom may be posted in the channel).
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.core.i18n import t
from bot.games.byallmeans import data
from bot.games.byallmeans.render_style import (
    BACK,
    BG,
    CARD,
    CELL,
    DARK,
    GOLD,
    INK,
    MUTED,
    PANEL,
    PNG_LEVEL,
    SEAT,
    SEAT_DARK,
    TYPE,
    _name,
    _tx,
    public_part,
)
from render.common import encode_png, palette, seat_label
from render.phone_zoom import Block, Line, Sheet

ZOOM_W = 1020
P = "phoneboards."
PLAYERS = "players"
OWNER_LIMIT = 14
"""A cell names each card's owner this short (its colour band tells the owner too)."""
ROWS = {"rows:1-2": (0, 1), "rows:3-4": (2, 3)}


def zoom_choices(view: dict[str, Any], lang: str) -> list[tuple[str, str]]:
    """(value, label): the two halves of the field, then the players."""
    out = [(key, t(P + "bam.rows", lang, a=a + 1, b=b + 1, first=3 * a + 1, last=3 * b + 3))
           for key, (a, b) in ROWS.items()]
    out.append((PLAYERS, t(P + "bam.players", lang)))
    return out


def _seat(view: dict[str, Any], seat: int, lang: str, limit: int = 40) -> str:
    return seat_label(view, seat, t("bam.seat", lang, n=seat + 1), limit=limit)


def _symbols(syms: list[str], lang: str) -> str:
    return ", ".join(t(f"bam.sym.{s}", lang).split(" (")[0] for s in syms)


def _hidden(obj: dict[str, Any]) -> bool:
    return bool(obj.get("face_down")) or not obj.get("code")


def cell_blocks(view: dict[str, Any], idx: int, lang: str) -> list[Block]:
    cell = view["field"][idx]
    out = [Block([Line(t("bam.cell", lang, n=idx + 1), MUTED, "bold")], CELL)]
    ter = cell.get("territory")
    if ter is not None:
        owner = ter["owner"]
        lines = [Line(_tx("hidden_card", lang) if _hidden(ter) else _name(ter["code"], lang), DARK, "condensed-bold"),
                 Line(_seat(view, owner, lang, OWNER_LIMIT), DARK)]
        if not _hidden(ter):
            inf = data.card(ter["code"]).influence
            lines.append(Line(t(P + "bam.territory", lang, inf=f"{inf:+d}", loy=ter.get("loyalty", 0)), DARK, "bold"))
        if ter.get("symbols"):
            lines.append(Line(_symbols(ter["symbols"], lang), DARK, "condensed"))
        out.append(Block(lines, CARD, SEAT[owner], swatch=SEAT[owner]))
    graf = cell.get("graffiti")
    if graf is not None:
        owner = graf["owner"]
        if _hidden(graf):
            out.append(Block([Line(_tx("graffiti_back", lang), INK, "condensed-bold"),
                              Line(_seat(view, owner, lang, OWNER_LIMIT), INK)], BACK, SEAT[owner], swatch=SEAT[owner]))
        else:
            out.append(Block([Line(_tx("graffiti", lang) + ": " + _name(graf["code"], lang), INK, "condensed-bold"),
                              Line(_seat(view, owner, lang, OWNER_LIMIT), INK)], PANEL, TYPE["graffiti"], swatch=SEAT[owner]))
    agent = cell.get("agent")
    if agent is not None:
        owner = agent["owner"]
        label = _tx("hidden_card", lang) if _hidden(agent) else _name(agent["code"], lang)
        if agent.get("shadows"):
            label += f" +{agent['shadows']}"
        lines = [Line(label, INK, "condensed-bold"), Line(_seat(view, owner, lang, OWNER_LIMIT), INK),
                 Line(_tx("agent_stats", lang, eff=agent.get("efficiency", 0), res=agent.get("resilience", 0)), INK,
                      "condensed")]
        flags = [_tx(k, lang) for k in ("tapped", "exposed", "reckless") if agent.get(k)]
        if flags:
            lines.append(Line(" · ".join(flags), GOLD, "bold"))
        out.append(Block(lines, SEAT_DARK[owner], GOLD if agent.get("exposed") else SEAT[owner], swatch=SEAT[owner]))
    plot = cell.get("plot")
    if plot is not None:
        label = _tx("hidden_card", lang) if _hidden(plot) else _name(plot["code"], lang)
        out.append(Block([Line(_tx("plot", lang) + ": " + label, INK, "condensed-bold"),
                          Line(_seat(view, plot["owner"], lang, OWNER_LIMIT), INK)], PANEL, TYPE["plot"], swatch=SEAT[plot["owner"]]))
    if len(out) == 1:
        out.append(Block([Line(_tx("empty", lang), MUTED)], CELL))
    return out


def _header(view: dict[str, Any], lang: str) -> Block:
    turn = view["turn"]
    lines = [Line(_tx("turn", lang, n=turn["number"], phase=_tx(f"phase.{view['phase']}", lang)), INK, "bold")]
    result = view.get("result")
    if result:
        winners = result.get("winners") or []
        lines.append(Line(_tx("draw", lang) if result.get("draw") or not winners else
                          _tx("winner", lang, name=_seat(view, int(winners[0]), lang)), GOLD, "bold"))
    else:
        waiting = view.get("waiting") or []
        if len(waiting) == 1:
            lines.append(Line(_tx("to_act", lang, name=_seat(view, waiting[0], lang)), INK))
        elif waiting:
            lines.append(Line(_tx("both_act", lang), INK))
        if view["phase"] == "turn" and not view.get("decision"):
            lines.append(Line(_tx("actions_left", lang, n=turn["main_left"]), MUTED))
    if view.get("neutral"):
        lines.append(Line(_tx("neutral", lang, cards=", ".join(_name(c, lang) for c in view["neutral"])), GOLD))
    return Block(lines, PANEL)


def player_blocks(view: dict[str, Any], seat: int, lang: str) -> list[Block | list[list[Block]]]:
    p = view["players"][seat]
    lines = [Line(_seat(view, seat, lang), INK, "bold", 1.2)]
    if seat in (view.get("waiting") or []):
        lines.append(Line(_tx("acting", lang), GOLD, "bold"))
    lines += [Line(_tx("hand_counters", lang, rep=p["rep"], inf=p["inf"], trust=p["trust"]), INK, "bold"),
              Line(_tx("sizes", lang, hand=p["hand"], main=p["main"], extra=p["extra"], util=len(p["utility"])), INK)]
    if p.get("lost_actions"):
        lines.append(Line(_tx("lost", lang, n=p["lost_actions"]), GOLD, "bold"))
    out: list[Block | list[list[Block]]] = [Block(lines, SEAT_DARK[seat], SEAT[seat], swatch=SEAT[seat])]
    slots = []
    for b in p["buffer"]:
        card = data.card(b["code"])
        slots.append([Block([Line(_tx("buffer", lang), DARK, "bold"), Line(_name(b["code"], lang), DARK, "condensed-bold"),
                             Line(t(P + "bam.number", lang, n=card.number), DARK, "bold"),
                             Line(_symbols(b["symbols"], lang), DARK, "condensed")], CARD, TYPE[card.type],
                            swatch=TYPE[card.type])])
    while len(slots) < 2:
        slots.append([Block([Line(_tx("buffer", lang), MUTED, "bold"), Line(_tx("empty", lang), MUTED)], PANEL)])
    out.append(slots)
    return out


def zoom_image(view: dict[str, Any], lang: str, zoom: str) -> Image.Image | None:
    """A zoom in full colour from the public part of ``view``, or None for one the field does not offer."""
    labels = dict(zoom_choices(view, lang))
    if zoom not in labels:
        return None
    view = public_part(view)
    sheet = Sheet(ZOOM_W, BG)
    title = Block([Line(labels[zoom], INK, "bold", 1.2)], BG)
    if zoom == PLAYERS:
        return sheet.render([title, _header(view, lang), *player_blocks(view, 1, lang), *player_blocks(view, 0, lang)])
    low, high = ROWS[zoom]
    rows: list[Block | list[list[Block]]] = [[cell_blocks(view, r * 3 + c, lang) for c in range(3)]
                                             for r in (high, low)]  # the higher row above, as on the table
    return sheet.render([title, *rows], cell_fill=CELL)


def render_zoom(view: dict[str, Any], lang: str, zoom: str) -> bytes | None:
    img = zoom_image(view, lang, zoom)
    return None if img is None else encode_png(palette("byallmeans").quantize(img), level=PNG_LEVEL)
