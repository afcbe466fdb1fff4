"""What a seat (or the public) may see of a By All Means game: the view the renderer, the cog and the AI read.

Shape (``View``, all JSON)::

    phase      "shuffle" | "order" | "exchange" | "turn" | "over"
    turn       {active, number, main_left, extra_used, restricted}
    players    [PlayerView] * 2: {seat, rep, inf, trust, hand (count), main (count), extra (count),
               buffer: [{uid, code, symbols}], utility: [codes, oldest first], lost_actions, agents (count)}
    field      [CellView] * 12, cell = row * 3 + col (row 0 on seat 0's side): {territory, graffiti, agent,
               plot}, each None or ObjView {uid, code, owner, symbols, loyalty (territory), tapped/exposed/
               efficiency/resilience/reckless (agent), shadows (agent: count), face_down (a graffigent as graffiti:
               its code is "" for everyone but its owner)}
    neutral    [codes] in the neutral zone until the action ends
    waiting    [seats] who must act now
    decision   None, or the open decision of an effect: {seat (who decides), controller (whose effect:
               ``self`` and ``opp`` in its ops are relative to it), op, source (code or ""), kind, owner,
               who, options (i18n keys of a ``choose``), option_ops (their ops), follow (the card ops after
               it), n}. ``op`` is one of: ``choose`` (values: option indices), ``target`` (uids, or
               archives ``"<seat>.main|extra"``), ``route`` (``utility``, ``buffer``, ``buffer:<sym>``),
               ``discard_one`` (own hand uids), ``expose`` (``tap`` or a cell), ``move_symbol``
               (``"<src uid>:<sym>:<dst uid>"``), ``offer_move`` (``stay`` or an agent uid), ``lost_action``
               (``main``/``extra``), ``rival_window`` (``pass``, ``discard:<uid>``, ``utilise:<uid>``),
               ``pick_trigger`` (uids). The legal ``{"type": "choose", "v": ...}`` actions list the values.
    result     None, or {winners, draw, reasons}; reasons: influence, trust, loyalty, loyalty_tie, stalemate
               (texts ``bam.reason.<reason>``)
    me         only in a seat's own view: {seat, hand: [{uid, code, price: [hand X, buffer Y] after static
               modifiers, null for the dash]}]}

Public: the field, counters, buffers (planned objects are on the table), utility piles, the neutral zone,
and the *sizes* of hands and archives. Private: only ``me``. Archive order is never shown to anyone; a
uid names where a card was dealt, not which card it is (see ``game.ByAllMeans.new``).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from bot.games.byallmeans import effects, rules
from bot.games.byallmeans.state import FieldObj, State


class BufferCardView(TypedDict):
    uid: str
    code: str
    symbols: list[str]


class PlayerView(TypedDict):
    seat: int
    rep: int
    inf: int
    trust: int
    hand: int
    main: int
    extra: int
    buffer: list[BufferCardView]
    utility: list[str]
    lost_actions: int
    agents: int


class ObjView(TypedDict):
    uid: str
    code: str
    owner: int
    symbols: list[str]
    loyalty: NotRequired[int]
    tapped: NotRequired[bool]
    exposed: NotRequired[bool]
    efficiency: NotRequired[int]
    resilience: NotRequired[int]
    reckless: NotRequired[bool]
    shadows: NotRequired[int]
    face_down: NotRequired[bool]


class CellView(TypedDict):
    territory: ObjView | None
    graffiti: ObjView | None
    agent: ObjView | None
    plot: ObjView | None


class TurnView(TypedDict):
    active: int
    number: int
    main_left: int
    extra_used: bool
    restricted: bool


class HandCardView(TypedDict):
    uid: str
    code: str
    price: list[int | None]


class MeView(TypedDict):
    seat: int
    hand: list[HandCardView]


class DecisionView(TypedDict):
    seat: int
    controller: int
    op: str
    source: str
    kind: str
    owner: str
    who: str
    options: list[str]
    option_ops: list[list[dict[str, Any]]]
    follow: list[dict[str, Any]]
    n: int


class View(TypedDict):
    phase: str
    turn: TurnView
    players: list[PlayerView]
    field: list[CellView]
    neutral: list[str]
    waiting: list[int]
    decision: DecisionView | None
    result: dict[str, object] | None
    me: NotRequired[MeView]


def _obj(s: State, cell: int, o: FieldObj | None, seat: int | None) -> ObjView | None:
    """A field object; a face-down graffigent shows its code only to its owner."""
    if o is None:
        return None
    hidden = rules.face_down(s, o)
    code = "" if hidden and seat != o.owner else s.cards[o.uid]
    v: ObjView = {"uid": o.uid, "code": code, "owner": o.owner, "symbols": list(o.symbols)}
    if hidden:
        v["face_down"] = True
    if o.kind == "territory":
        v["loyalty"] = o.loyalty
    if o.kind == "agent":
        v["tapped"] = o.tapped
        v["exposed"] = rules.exposed(s, cell, o)
        v["efficiency"] = rules.efficiency(s, o)
        v["resilience"] = rules.resilience(s, o)
        v["reckless"] = rules.reckless(s, cell, o)
        v["shadows"] = len(o.shadows)
    return v


def decision(s: State) -> DecisionView | None:
    """The effect step waiting for a decision, described by public data only."""
    waiting = effects.pending(s)
    if waiting is None:
        return None
    f = s.stack[-1]
    op = f.ops[0]  # ops of card data are public text; engine steps that follow (route, settle...) are left out
    return {"seat": waiting[0], "controller": f.controller, "op": op["op"], "source": s.cards.get(f.source or "", ""),
            "kind": str(op.get("kind", "")), "owner": str(op.get("owner", "")), "who": str(op.get("who", "")),
            "options": [o["key"] for o in op.get("options", [])],
            "option_ops": [[dict(x) for x in o["ops"]] for o in op.get("options", [])],
            "follow": [dict(x) for x in f.ops[1:] if effects.OPS[x["op"]].data], "n": int(op.get("n", 0))}


def build(s: State, seat: int | None, actors: list[int]) -> View:
    players: list[PlayerView] = [
        {"seat": i, "rep": p.rep, "inf": p.inf, "trust": p.trust, "hand": len(p.hand), "main": len(p.main),
         "extra": len(p.extra),
         "buffer": [{"uid": b.uid, "code": s.cards[b.uid], "symbols": list(b.symbols)} for b in p.buffer],
         "utility": [s.cards[u] for u in p.utility], "lost_actions": p.lost_actions,
         "agents": len(rules.agents(s, i))}
        for i, p in enumerate(s.players)]
    field: list[CellView] = [{"territory": _obj(s, i, c.territory, seat), "graffiti": _obj(s, i, c.graffiti, seat),
                              "agent": _obj(s, i, c.agent, seat), "plot": _obj(s, i, c.plot, seat)}
                             for i, c in enumerate(s.field)]
    t = s.turn
    view: View = {"phase": s.phase,
                  "turn": {"active": t.active, "number": t.number, "main_left": t.main_left,
                           "extra_used": t.extra_used, "restricted": t.restricted},
                  "players": players, "field": field, "neutral": [s.cards[n.uid] for n in s.neutral],
                  "waiting": list(actors), "decision": decision(s),
                  "result": None if s.result is None else dict(s.result)}
    if seat is not None:
        hand: list[HandCardView] = []
        for u in sorted(s.players[seat].hand):
            card = rules.card_of(s, u)
            hand.append({"uid": u, "code": s.cards[u],
                         "price": [rules.price(s, seat, card, "hand"), rules.price(s, seat, card, "buffer")]})
        view["me"] = {"seat": seat, "hand": hand}
    return view


def pending_seat(s: State) -> int | None:
    waiting = effects.pending(s)
    return None if waiting is None else waiting[0]
