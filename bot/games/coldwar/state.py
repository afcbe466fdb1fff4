"""The Cold War state as typed records (slotted dataclasses with explicit ``to_json``/``from_json``).

The JSON form is the one stored since the first release, key for key and in the same order, so a stored
game loads and writes back byte for byte. Seat 0 is the CIA, seat 1 the KGB; lists indexed by seat hold
both sides.

* ``cards`` is the card set (absent in states stored before card sets existed: set 1). A version-1 state
  migrated by ``ColdWar.migrate_state`` got it appended last, and keeps it there.
* ``shown`` (Summit Meeting revealed an agent X) and ``unrest_x`` (the agent X lost to civil unrest) exist
  only in a round that needed them, and are written after the other keys, in that order.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, Literal

from bot.games.base import Rng

JSON = dict[str, Any]
Claim = int | Literal["bottom"] | None
"""Who took the target this round: a seat, ``"bottom"`` (under the target deck), or nobody yet."""


@dataclass(slots=True)
class Group:
    """A group card on a side's table, active (may be used this struggle) or not."""

    gid: str
    active: bool

    def to_json(self) -> list[Any]:
        return [self.gid, self.active]

    @classmethod
    def from_json(cls, data: list[Any]) -> Group:
        return cls(str(data[0]), bool(data[1]))


@dataclass(slots=True)
class Agents:
    """A side's agents outside play: in headquarters (sorted), on leave, eliminated."""

    hq: list[int]
    leave: list[int] = dc_field(default_factory=list)
    dead: list[int] = dc_field(default_factory=list)

    def to_json(self) -> JSON:
        return {"hq": list(self.hq), "leave": list(self.leave), "dead": list(self.dead)}

    @classmethod
    def from_json(cls, data: JSON) -> Agents:
        return cls(list(data["hq"]), list(data["leave"]), list(data["dead"]))


@dataclass(slots=True)
class Pending:
    """The open decision (JSON ``dec``); its kind is a key of ``engine.DECISIONS``.

    ``seat`` answers it (every kind but ``plan``, which both seats answer); ``card`` is the event offered
    at a window (``event``); ``cards`` the cards to order (``analyst``, ``space``) or still to destroy
    (``discard``); ``peek`` the seat a Double Agent lets learn the other's agent X (``plan``)."""

    kind: str
    seat: int | None = None
    card: str | None = None
    cards: list[str] | None = None
    peek: int | None = None

    def to_json(self) -> JSON:
        out: JSON = {"kind": self.kind}
        if self.kind == "plan":
            out["peek"] = self.peek
            return out
        out["seat"] = self.seat
        if self.card is not None:
            out["card"] = self.card
        if self.cards is not None:
            out["cards"] = list(self.cards)
        return out

    @classmethod
    def from_json(cls, data: JSON) -> Pending:
        cards = data.get("cards")
        return cls(str(data["kind"]), data.get("seat"), data.get("card"), None if cards is None else list(cards),
                   data.get("peek"))


@dataclass(slots=True)
class Over:
    """The result, once the game ended: the winning seat (none on a draw), the scores, and whether the
    target deck ran out (``exhausted``) rather than a goal being reached."""

    winners: list[int]
    draw: bool
    scores: list[int]
    exhausted: bool

    def to_json(self) -> JSON:
        return {"winners": list(self.winners), "draw": self.draw, "scores": list(self.scores),
                "exhausted": self.exhausted}

    @classmethod
    def from_json(cls, data: JSON) -> Over:
        return cls(list(data["winners"]), bool(data["draw"]), list(data["scores"]), bool(data.get("exhausted", False)))


def _same(value: list[Any]) -> list[Any]:
    return value


def _pair(data: JSON, key: str) -> list[Any] | None:
    value = data.get(key)
    return None if value is None else list(value)


@dataclass(slots=True)
class State:
    """Everything of one game. ``queue`` holds the steps still to run this round (``engine.STEPS``)."""

    rng: Rng
    goal: int
    tdeck: list[str]
    gdeck: list[str]
    cards: int | None = None
    """The card set; None: a state stored before card sets existed (set 1)."""
    round: int = 0
    phase: str = "briefing"
    target: str | None = None
    tdiscard: list[str] = dc_field(default_factory=list)
    burnt: list[list[str]] = dc_field(default_factory=lambda: [[], []])
    """Events each side used (their victory points burnt)."""
    gdiscard: list[str] = dc_field(default_factory=list)
    table: list[list[Group]] = dc_field(default_factory=lambda: [[], []])
    trophies: list[list[str]] = dc_field(default_factory=lambda: [[], []])
    won_round: dict[str, int] = dc_field(default_factory=dict)
    """The round each captured target was won in (an event is usable only in a later round)."""
    agents: list[Agents] = dc_field(default_factory=lambda: [Agents(list(range(1, 7))) for _ in range(2)])
    x: list[int | None] = dc_field(default_factory=lambda: [None, None])
    """Each side's agent X this round (secret until revealed)."""
    exposed: list[bool] = dc_field(default_factory=lambda: [False, False])
    """Agent X revealed by civil unrest (it uses no ability)."""
    saved: list[bool] = dc_field(default_factory=lambda: [False, False])
    """Nobel Peace Prize played this truce: unrest sends agent X on leave instead."""
    balance: int | None = None
    token: int | None = None
    claimed: Claim = None
    unrest_capture: bool = False
    last_loser: int | None = None
    double_unrest: bool = False
    analyst: int | None = None
    """The seat whose Analyst orders the top groups at the next briefing."""
    peek: int | None = None
    """The seat whose Double Agent learns the other agent X at the next planning."""
    turn: int | None = None
    """The seat that acts first in the struggle."""
    waits: int = 0
    queue: list[str] = dc_field(default_factory=list)
    dec: Pending | None = None
    offered: list[str] = dc_field(default_factory=list)
    """Events already offered (and skipped) in the current window."""
    over: Over | None = None
    shown: list[bool] | None = None
    unrest_x: list[int | None] | None = None
    cards_last: bool = False
    """Where ``cards`` sits in the JSON: last in a migrated version-1 state."""

    def to_json(self, copy: bool = True) -> JSON:
        """The stored JSON; ``copy=False`` shares this state's lists of ids and numbers (for a serialiser that
        reads it at once, ``ColdWar.to_json_text``)."""
        c: Any = list if copy else _same
        out: JSON = {} if self.cards is None or self.cards_last else {"cards": self.cards}
        out.update({
            "rng": self.rng.to_json(), "goal": self.goal, "round": self.round, "phase": self.phase,
            "tdeck": c(self.tdeck), "target": self.target, "tdiscard": c(self.tdiscard),
            "burnt": [c(b) for b in self.burnt], "gdeck": c(self.gdeck), "gdiscard": c(self.gdiscard),
            "table": [[[g.gid, g.active] for g in side] for side in self.table],
            "trophies": [c(t) for t in self.trophies], "won_round": dict(self.won_round) if copy else self.won_round,
            "agents": [{"hq": c(a.hq), "leave": c(a.leave), "dead": c(a.dead)} for a in self.agents],
            "x": c(self.x), "exposed": c(self.exposed), "saved": c(self.saved), "balance": self.balance,
            "token": self.token, "claimed": self.claimed, "unrest_capture": self.unrest_capture,
            "last_loser": self.last_loser, "double_unrest": self.double_unrest, "analyst": self.analyst,
            "peek": self.peek, "turn": self.turn, "waits": self.waits, "queue": c(self.queue),
            "dec": None if self.dec is None else self.dec.to_json(), "offered": c(self.offered),
            "over": None if self.over is None else self.over.to_json(),
        })
        if self.shown is not None:
            out["shown"] = c(self.shown)
        if self.unrest_x is not None:
            out["unrest_x"] = c(self.unrest_x)
        if self.cards is not None and self.cards_last:
            out["cards"] = self.cards
        return out

    @classmethod
    def from_json(cls, data: JSON) -> State:
        dec, over = data["dec"], data["over"]
        keys = list(data)
        return cls(
            rng=Rng.from_json(data["rng"]), goal=data["goal"], tdeck=list(data["tdeck"]), gdeck=list(data["gdeck"]),
            cards=data.get("cards"), round=data["round"], phase=data["phase"], target=data["target"],
            tdiscard=list(data["tdiscard"]), burnt=[list(b) for b in data["burnt"]], gdiscard=list(data["gdiscard"]),
            table=[[Group.from_json(g) for g in side] for side in data["table"]],
            trophies=[list(t) for t in data["trophies"]], won_round=dict(data["won_round"]),
            agents=[Agents.from_json(a) for a in data["agents"]], x=list(data["x"]), exposed=list(data["exposed"]),
            saved=list(data["saved"]), balance=data["balance"], token=data["token"], claimed=data["claimed"],
            unrest_capture=data["unrest_capture"], last_loser=data["last_loser"], double_unrest=data["double_unrest"],
            analyst=data["analyst"], peek=data["peek"], turn=data["turn"], waits=data["waits"], queue=list(data["queue"]),
            dec=None if dec is None else Pending.from_json(dec), offered=list(data["offered"]),
            over=None if over is None else Over.from_json(over), shown=_pair(data, "shown"),
            unrest_x=_pair(data, "unrest_x"), cards_last="cards" in data and keys[0] != "cards",
        )
