"""What a seat (or the public) may see of a By All Means game: the view the renderer and cogs will read.

Public: the field, counters, buffers (planned objects are on the table), utility piles, the neutral zone,
and the *sizes* of hands and archives. Private: only ``me`` (the seat's own hand), in that seat's view.
Archive order is never shown to anyone.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from bot.games.byallmeans import effects, rules
from bot.games.byallmeans.state import FieldObj, State


class BufferCardView(TypedDict):
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


class ObjView(TypedDict):
    code: str
    owner: int
    symbols: list[str]
    loyalty: NotRequired[int]
    tapped: NotRequired[bool]
    exposed: NotRequired[bool]
    face_down: NotRequired[bool]


class CellView(TypedDict):
    territory: ObjView | None
    graffiti: ObjView | None
    agent: ObjView | None


class TurnView(TypedDict):
    active: int
    number: int
    main_left: int
    extra_used: bool
    restricted: bool


class HandCardView(TypedDict):
    uid: str
    code: str


class MeView(TypedDict):
    seat: int
    hand: list[HandCardView]


class View(TypedDict):
    phase: str
    turn: TurnView
    players: list[PlayerView]
    field: list[CellView]
    neutral: list[str]
    waiting: list[int]
    result: dict[str, object] | None
    me: NotRequired[MeView]


def _obj(s: State, cell: int, o: FieldObj | None, seat: int | None) -> ObjView | None:
    """A field object; a face-down graffigent shows its code only to its owner."""
    if o is None:
        return None
    hidden = rules.face_down(s, o)
    code = "" if hidden and seat != o.owner else s.cards[o.uid]
    v: ObjView = {"code": code, "owner": o.owner, "symbols": list(o.symbols)}
    if hidden:
        v["face_down"] = True
    if o.kind == "territory":
        v["loyalty"] = o.loyalty
    if o.kind == "agent":
        v["tapped"] = o.tapped
        v["exposed"] = rules.exposed(s, cell, o)
    return v


def build(s: State, seat: int | None, actors: list[int]) -> View:
    players: list[PlayerView] = [
        {"seat": i, "rep": p.rep, "inf": p.inf, "trust": p.trust, "hand": len(p.hand), "main": len(p.main),
         "extra": len(p.extra), "buffer": [{"code": s.cards[b.uid], "symbols": list(b.symbols)} for b in p.buffer],
         "utility": [s.cards[u] for u in p.utility], "lost_actions": p.lost_actions}
        for i, p in enumerate(s.players)]
    field: list[CellView] = [{"territory": _obj(s, i, c.territory, seat), "graffiti": _obj(s, i, c.graffiti, seat),
                              "agent": _obj(s, i, c.agent, seat)} for i, c in enumerate(s.field)]
    t = s.turn
    view: View = {"phase": s.phase,
                  "turn": {"active": t.active, "number": t.number, "main_left": t.main_left,
                           "extra_used": t.extra_used, "restricted": t.restricted},
                  "players": players, "field": field, "neutral": [s.cards[n.uid] for n in s.neutral],
                  "waiting": list(actors), "result": None if s.result is None else dict(s.result)}
    if seat is not None:
        view["me"] = {"seat": seat, "hand": [{"uid": u, "code": s.cards[u]} for u in sorted(s.players[seat].hand)]}
    return view


def pending_seat(s: State) -> int | None:
    waiting = effects.pending(s)
    return None if waiting is None else waiting[0]
