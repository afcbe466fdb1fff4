"""Cold War's zoomed views for ``/game board zoom:`` and its personal board (issue 13).

The table (``bot.games.coldwar.render``) is 1400 px wide: shown 400 px wide on a phone its letters are 3-5 px
tall. A zoom redraws one part of it as a column of text blocks 720 px wide whose letters are at least
``phone_zoom.CAP_AT_400`` px tall at 400 px:

* ``target``: the target card (name, stability, victory points, group limit, the priority order) and,
  for an event, its phase and whole description, dark on the card's light colour;
* ``side:0`` / ``side:1``: a side (name, influence against stability, balance and superiority token,
  agent X, score and captured targets with their event texts, groups, agents).

Drawn from the view it is given: the public view knows an agent X only once revealed. The personal
board (``render_personal``) is the seat's own side and the target, from the seat's own view: its own
agent X and what only it was shown (the opponent's agent X after a peek, a top card, ordered cards).
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from bot.core.i18n import t
from bot.games.coldwar.render_style import BG, CARD, FACTION, GOLD, INK, MUTED, PANEL, SIDE, SIDE_DARK, _tx
from render.common import encode_png, palette, seat_label
from render.phone_zoom import Block, Line, Sheet

ZOOM_W = 720
DARK = (34, 34, 40)
BROWN = (120, 90, 40)
P = "phoneboards."
TARGET = "target"
SIDES = ("side:0", "side:1")


def _name(view: dict[str, Any], seat: int, lang: str) -> str:
    """``КГБ · <name>``, the name cut later than on the table (a zoom wraps it)."""
    return f"{_tx(f'side.{seat}', lang)} · {seat_label(view, seat, _tx('r.seat', lang, n=seat + 1), limit=40)}"


def zoom_choices(view: dict[str, Any], lang: str) -> list[tuple[str, str]]:
    """(value, label): the target card (when one is revealed), then each side."""
    out = []
    tgt = view.get("target")
    if tgt is not None:
        out.append((TARGET, t(P + "cw.target", lang, name=t("coldwar.target." + tgt["id"], lang))))
    out += [(key, t(P + "cw.side", lang, side=_tx(f"side.{seat}", lang))) for seat, key in enumerate(SIDES)]
    return out


def _header(view: dict[str, Any], lang: str) -> Block:
    lines = [Line(_tx("r.round", lang, n=view["round"], phase=_tx(f"phase.{view['phase']}", lang)), INK, "bold")]
    out = view.get("outcome")
    if out:
        lines.append(Line(_tx("r.draw", lang) if out.get("draw") else
                          _tx("r.winner", lang, name=_name(view, out["winners"][0], lang)), GOLD, "bold"))
    elif view.get("actors"):
        lines.append(Line(_tx("r.to_act", lang, name=_name(view, view["actors"][0], lang)), INK))
    lines.append(Line(_tx("r.decks", lang, t=view["target_deck"], g=view["group_deck"], d=view["group_discard"]),
                      MUTED))
    return Block(lines, PANEL)


def _card_text(card: str, lang: str) -> str:
    """A card's name, whether it is a target or a group."""
    key = "coldwar.group." + card
    name = t(key, lang)
    return t("coldwar.target." + card, lang) if name == key else name


def _event_text(tid: str, lang: str) -> str:
    key = "coldwar.evdesc." + tid
    desc = t(key, lang)
    return "" if desc == key else desc


def target_blocks(view: dict[str, Any], lang: str) -> list[Block | list[list[Block]]]:
    tgt = view.get("target")
    if tgt is None:
        return [Block([Line(_tx("r.no_target", lang), DARK, "bold")], CARD, GOLD)]
    kind = _tx("r.event" if tgt["kind"] == "event" else "r.country", lang)
    card = Block([Line(kind.upper(), BROWN, "bold"),
                  Line(t("coldwar.target." + tgt["id"], lang), DARK, "bold", 1.5),
                  Line(t(P + "cw.stability", lang, n=tgt["stability"]), DARK, "bold"),
                  Line(t(P + "cw.vp", lang, n=tgt["vp"]), DARK, "bold"),
                  Line(_tx("r.limit", lang, n=tgt["limit"]), DARK, "bold"),
                  Line(_tx("r.priority", lang), DARK)], CARD, GOLD)
    items: list[Block | list[list[Block]]] = [card]
    order = [Block([Line(f"{k + 1}. {_tx(f'faction.{fac}', lang)}", INK, "condensed-bold")], PANEL,
                   swatch=FACTION[fac]) for k, fac in enumerate(tgt["priority"])]
    items += [[[order[0]], [order[1]]], [[order[2]], [order[3]]]]
    desc = _event_text(tgt["id"], lang) if tgt["kind"] == "event" else ""
    if desc:
        items.append(Block([Line(desc, DARK)], CARD, GOLD))  # the text names its phase first
    return items


def _agent_x(view: dict[str, Any], seat: int, lang: str) -> str:
    own = view.get("seat") == seat and "private" in view and view["private"].get("x") is not None
    if own:
        return t(P + "cw.own_x", lang, agent=t(f"coldwar.agent.{view['private']['x']}", lang))
    x = view["sides"][seat]["x"]
    if x == "hidden":
        shown = _tx("r.hidden", lang)
    elif isinstance(x, int):
        shown = t(f"coldwar.agent.{x}", lang)
    else:
        shown = _tx("r.choosing", lang) if view.get("decision") == "plan" else "—"
    return f"{_tx('r.agent_x', lang)}: {shown}"


def side_blocks(view: dict[str, Any], seat: int, lang: str) -> list[Block | list[list[Block]]]:
    side = view["sides"][seat]
    tgt = view.get("target")
    head = [Line(_name(view, seat, lang), INK, "bold", 1.25)]
    if tgt is not None:
        over = side["influence"] > tgt["stability"]
        head.append(Line(t(P + ("cw.influence_over" if over else "cw.influence"), lang, n=side["influence"],
                           s=tgt["stability"]), GOLD if over else INK, "bold"))
    else:
        head.append(Line(t(P + "cw.influence_only", lang, n=side["influence"]), INK, "bold"))
    marks = []
    if view.get("balance") == seat:
        marks.append(t(P + "cw.balance", lang))
    if view.get("token") == seat:
        marks.append(t(P + "cw.token", lang))
    if seat in view.get("actors", []):
        marks.append(t(P + "cw.acting", lang))
    if marks:
        head.append(Line(" · ".join(marks), GOLD, "bold"))
    items: list[Block | list[list[Block]]] = [Block(head, SIDE_DARK[seat], SIDE[seat], swatch=SIDE[seat])]
    items.append(Block([Line(_agent_x(view, seat, lang), GOLD, "bold")], PANEL, GOLD))
    score = [Line(t(P + "cw.score", lang, n=side["score"]), INK, "bold", 1.25)]
    for tid in side["trophies"]:
        score.append(Line("• " + t("coldwar.target." + tid, lang), INK))
        desc = _event_text(tid, lang)
        if desc:
            score.append(Line(desc, MUTED, "condensed"))
    items.append(Block(score, PANEL))
    if not side["groups"]:
        items.append(Block([Line(_tx("r.no_groups", lang), MUTED)], PANEL))
    for g in side["groups"]:
        lines = [Line(t("coldwar.group." + g["id"], lang), INK, "bold"),
                 Line(_tx(f"faction.{g['faction']}", lang), INK)]
        if not g["active"]:
            lines.append(Line(_tx("r.inactive", lang), GOLD, "bold"))
        items.append(Block(lines, PANEL if g["active"] else BG, FACTION[g["faction"]], swatch=FACTION[g["faction"]],
                           badge=str(g["influence"]), badge_ink=DARK))
    status = {a: "hq" for a in side["hq"]} | {a: "leave" for a in side["leave"]} | {a: "dead" for a in side["dead"]}
    agents = [Block([Line(f"{i} {t(f'coldwar.agent.{i}', lang)}", INK if status.get(i, 'field') != "dead" else MUTED,
                          "condensed-bold"),
                     Line(_tx(f"r.ag.{status.get(i, 'field')}", lang), MUTED, "condensed")],
                    PANEL if status.get(i, "field") != "dead" else BG) for i in range(1, 7)]
    items += [[[agents[k]], [agents[k + 1]]] for k in range(0, 6, 2)]
    return items


def private_blocks(view: dict[str, Any], lang: str) -> list[Block | list[list[Block]]]:
    """What only this seat was shown (its own agent X is on its side's block)."""
    p = view.get("private") or {}
    lines = []
    if "opponent_x" in p:
        lines.append(Line(t("coldwar.priv.peek", lang, agent=t(f"coldwar.agent.{p['opponent_x']}", lang)), INK))
    if "media_top" in p:
        lines.append(Line(t("coldwar.priv.media", lang, group=_card_text(p["media_top"], lang)), INK))
    if "cards" in p:
        lines.append(Line(t("coldwar.priv.cards", lang, cards=", ".join(_card_text(c, lang) for c in p["cards"])),
                          INK))
    return [Block([Line(t(P + "cw.only_you", lang), GOLD, "bold"), *lines], PANEL, GOLD)] if lines else []


def zoom_image(view: dict[str, Any], lang: str, zoom: str) -> Image.Image | None:
    """A zoom in full colour, or None for one this table does not offer now."""
    if zoom not in dict(zoom_choices(view, lang)):
        return None
    sheet = Sheet(ZOOM_W, BG)
    title = Block([Line(dict(zoom_choices(view, lang))[zoom], INK, "bold", 1.25)], BG)
    if zoom == TARGET:
        return sheet.render([title, _header(view, lang), *target_blocks(view, lang)])
    seat = SIDES.index(zoom)
    return sheet.render([title, *side_blocks(view, seat, lang)])


def _encode(img: Image.Image) -> bytes:
    return encode_png(palette("coldwar").quantize(img))


def render_zoom(view: dict[str, Any], lang: str, zoom: str) -> bytes | None:
    img = zoom_image(view, lang, zoom)
    return None if img is None else _encode(img)


def personal_image(view: dict[str, Any], lang: str) -> Image.Image | None:
    seat = view.get("seat")
    if seat not in (0, 1):
        return None
    sheet = Sheet(ZOOM_W, BG)
    return sheet.render([*private_blocks(view, lang), *side_blocks(view, seat, lang), _header(view, lang),
                         *target_blocks(view, lang)])


def render_personal(view: dict[str, Any], lang: str) -> bytes | None:
    """The seat's own side (its agent X shown) and the target, from the seat's own view."""
    img = personal_image(view, lang)
    return None if img is None else _encode(img)
