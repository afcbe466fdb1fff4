"""What a seat (or the public) may see of a Cold War game: the view ``bot/games/coldwar/render.py`` draws and the
bots (``ai.py``) read.

Everything is public except ``private`` (the seat's own agent X, a media group's peeked card, the
cards the Analyst or Space Race orders, the opponent's agent X after a Double Agent's peek), which
only that seat's view carries. A seat's agent X is public only once revealed (report, detente,
civil unrest, Summit Meeting); before that the public view says ``"hidden"``. Renderers and cogs
read these, never ``ColdWar.s`` (the typed state, :mod:`bot.games.coldwar.state`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from bot.games.coldwar.state import State

if TYPE_CHECKING:
    from bot.games.coldwar.game import ColdWar

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


def public_x(s: State, seat: int) -> int | Literal["hidden"] | None:
    """Agent X of ``seat`` as everyone sees it: its number once revealed (the report and détente, civil
    unrest, Summit Meeting), ``"hidden"`` while chosen and secret, None if none."""
    agent = s.x[seat]
    if agent is None:
        return None
    shown = s.phase in ("report", "detente") or s.exposed[seat] or (s.shown is not None and s.shown[seat])
    return agent if shown else "hidden"


def private(s: State, seat: int) -> PrivateView:
    d = s.dec
    p: PrivateView = {"x": s.x[seat]}
    if d is not None and d.seat == seat and d.kind != "plan":
        if d.kind == "media":
            p["media_top"] = s.gdeck[0]
        if d.kind in ("analyst", "space"):
            p["cards"] = list(d.cards or [])
    opponent = s.x[1 - seat]
    if d is not None and d.kind == "plan" and d.peek == seat and opponent is not None:
        p["opponent_x"] = opponent
    return p


def build(game: ColdWar, seat: int | None) -> ColdWarView:
    """The view of ``seat`` (0 the CIA, 1 the KGB), or the public view (None or any other number)."""
    s = game.s
    eng = game.engine
    c = eng.c
    target: TargetView | None = None
    if s.target is not None:
        t = c.targets[s.target]
        target = {"id": t["id"], "kind": t["kind"], "stability": t["stability"], "limit": t["limit"],
                  "priority": t["priority"], "vp": t["vp"], "phase": t["phase"]}
    sides: list[SideView] = []
    for side in SEATS:
        x = public_x(s, side)
        agents = s.agents[side]
        chosen = s.x[side]
        hq = sorted(agents.hq + ([chosen] if x == "hidden" and chosen is not None else []))
        sides.append({
            "groups": [{"id": g.gid, "faction": c.faction(g.gid), "influence": c.influence(g.gid),
                        "active": g.active} for g in s.table[side]],
            "influence": eng.inf(side),
            "score": eng.score(side),
            "trophies": list(s.trophies[side]),
            "burnt": list(s.burnt[side]),
            "hq": hq, "leave": list(agents.leave), "dead": list(agents.dead),
            "x": x, "chosen": chosen is not None or s.exposed[side],
        })
    d = s.dec
    over = s.over
    v: ColdWarView = {
        "game": "coldwar", "round": s.round, "phase": s.phase, "goal": s.goal,
        "target": target, "sides": sides, "balance": s.balance, "token": s.token,
        "actors": game.actors(), "decision": d.kind if d else None,
        "turn": d.seat if d and d.kind in ("turn", "media", "discard") else None,
        "target_deck": len(s.tdeck), "target_discard": len(s.tdiscard),
        "group_deck": len(s.gdeck), "group_discard": len(s.gdiscard),
        "discard_top": s.gdiscard[-1] if s.gdiscard else None,
        "outcome": None if over is None else {"winners": list(over.winners), "draw": over.draw,
                                              "scores": list(over.scores), "exhausted": over.exhausted},
    }
    if seat in SEATS:
        assert seat is not None
        v["seat"] = seat
        v["private"] = private(s, seat)
    return v
