"""What a seat (or the public) may see of a Cold War game: the view ``bot/games/coldwar/render.py`` draws and the
bots (``ai.py``) read.

Everything is public except ``private`` (the seat's own agent X, a media group's peeked card, the
cards the Analyst or Space Race orders, the opponent's agent X after a Double Agent's peek), which
only that seat's view carries. A seat's agent X is public only once revealed (report, detente,
civil unrest, Summit Meeting); before that the public view says ``"hidden"``. Renderers and cogs
read these, never ``ColdWar.s``.
"""

from __future__ import annotations

import copy
from typing import Literal, NotRequired, TypedDict

from bot.games.coldwar.engine import Engine

SEATS = (0, 1)


class TargetView(TypedDict):
    id: str
    kind: str
    """``"event"`` or ``"country"``."""
    stability: int
    limit: int
    priority: list[str]
    vp: int
    phase: str | None
    """The phase an event target may be used in."""


class GroupView(TypedDict):
    id: str
    faction: str
    influence: int
    active: bool


class SideView(TypedDict):
    groups: list[GroupView]
    influence: int
    score: int
    trophies: list[str]
    burnt: list[str]
    hq: list[int]
    """Agents in headquarters, with a hidden agent X among them (so it cannot be told apart)."""
    leave: list[int]
    dead: list[int]
    x: int | Literal["hidden"] | None
    """Agent X: its number once revealed, ``"hidden"`` while chosen and secret, None if none."""
    chosen: bool


class PrivateView(TypedDict):
    x: int | None
    media_top: NotRequired[str]
    cards: NotRequired[list[str]]
    opponent_x: NotRequired[int]


class OverView(TypedDict):
    winners: list[int]
    draw: bool
    scores: list[int]
    exhausted: bool


class ColdWarView(TypedDict):
    game: str
    round: int
    phase: str
    goal: int
    target: TargetView | None
    sides: list[SideView]
    balance: int | None
    token: int | None
    actors: list[int]
    decision: str | None
    """The kind of the open decision (``engine.DECISIONS``)."""
    turn: int | None
    """The seat whose struggle turn (or media/discard answer) it is."""
    target_deck: int
    target_discard: int
    group_deck: int
    group_discard: int
    discard_top: str | None
    outcome: OverView | None
    seat: NotRequired[int]
    private: NotRequired[PrivateView]
    seat_names: NotRequired[list[str]]
    """Added by the session layer (display names by seat)."""


def public_x(eng: Engine, seat: int) -> int | Literal["hidden"] | None:
    s = eng.s
    shown = s["phase"] in ("report", "detente") or s["exposed"][seat] or eng.shown(seat)
    if s["x"][seat] is None:
        return None
    return s["x"][seat] if shown else "hidden"


def private(eng: Engine, seat: int) -> PrivateView:
    s = eng.s
    d = s["dec"]
    p: PrivateView = {"x": s["x"][seat]}
    if d and d.get("seat") == seat:
        if d["kind"] == "media":
            p["media_top"] = s["gdeck"][0]
        if d["kind"] in ("analyst", "space"):
            p["cards"] = list(d["cards"])
    if d and d["kind"] == "plan" and d.get("peek") == seat and s["x"][1 - seat] is not None:
        p["opponent_x"] = s["x"][1 - seat]
    return p


def build(eng: Engine, seat: int | None) -> ColdWarView:
    """The view of ``seat`` (0 the CIA, 1 the KGB), or the public view (None or any other number)."""
    s = eng.s
    c = eng.c
    target: TargetView | None = None
    if s["target"] is not None:
        t = c.targets[s["target"]]
        target = {"id": t["id"], "kind": t["kind"], "stability": t["stability"], "limit": t["limit"],
                  "priority": t["priority"], "vp": t["vp"], "phase": t["phase"]}
    sides: list[SideView] = []
    for side in SEATS:
        x = public_x(eng, side)
        ag = s["agents"][side]
        hq = sorted(ag["hq"] + ([s["x"][side]] if x == "hidden" else []))
        sides.append({
            "groups": [{"id": g, "faction": c.faction(g), "influence": c.influence(g), "active": a}
                       for g, a in s["table"][side]],
            "influence": eng.inf(side),
            "score": eng.score(side),
            "trophies": list(s["trophies"][side]),
            "burnt": list(s["burnt"][side]),
            "hq": hq, "leave": list(ag["leave"]), "dead": list(ag["dead"]),
            "x": x, "chosen": s["x"][side] is not None or s["exposed"][side],
        })
    d = s["dec"]
    v: ColdWarView = {
        "game": "coldwar", "round": s["round"], "phase": s["phase"], "goal": s["goal"],
        "target": target, "sides": sides, "balance": s["balance"], "token": s["token"],
        "actors": eng.actors(), "decision": d["kind"] if d else None,
        "turn": d["seat"] if d and d["kind"] in ("turn", "media", "discard") else None,
        "target_deck": len(s["tdeck"]), "target_discard": len(s["tdiscard"]),
        "group_deck": len(s["gdeck"]), "group_discard": len(s["gdiscard"]),
        "discard_top": s["gdiscard"][-1] if s["gdiscard"] else None,
        "outcome": copy.deepcopy(s["over"]),
    }
    if seat in SEATS:
        v["seat"] = seat
        v["private"] = private(eng, seat)
    return v
