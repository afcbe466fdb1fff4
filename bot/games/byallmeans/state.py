"""The By All Means state as typed records (slotted dataclasses with explicit ``to_json``/``from_json``).

Cards are identified by a *uid* ``"<seat>.<n>"`` (the owner's seat and the card's index in the deck it
started in); ``State.cards`` maps each uid to its card code. Every uid is in exactly one place: an
archive, a hand, a buffer slot, the utility pile, the neutral zone, a field object or the shadows under an agent. Archive lists have their *top* card last.

The field is 12 cells, ``cell = row * 3 + col``: 3 columns wide, 4 rows high, row 0 on seat 0's side.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field  # State has an attribute named ``field``
from typing import Any

from bot.games.base import Rng

JSON = dict[str, Any]

COLS = 3
ROWS = 4
CELLS = COLS * ROWS
RULES = 2
"""The rules version a new game is played by (``State.rules``). 1: the readings of the first release (a full
field of equal loyalty is a draw whatever else holds; a replaced Agent leaves with its shadow). 2 (issue 26):
an influence or trust win stands over a loyalty tie (l. 383, l. 385); the shadow of a replaced Agent goes in its
place (l. 289). Games stored under version 1 keep version 1, so their logs replay as they were played."""


@dataclass(slots=True)
class FieldObj:
    """A card on the field: a territory, a graffiti or an agent (the rulebook's *object*)."""

    uid: str
    owner: int
    kind: str
    """``territory``, ``graffiti``, ``agent`` (a graffigent played face down is a ``graffiti``) or ``plot``
    (a lasting plot attached to the cell's territory)."""
    symbols: list[str]
    """Active symbols on the object (spent ones leave the game)."""
    loyalty: int = 0
    tapped: bool = False
    entered: int = 0
    """Turn number in which it came onto the field (recklessness lasts that turn)."""
    used: list[str] = dc_field(default_factory=list)
    """An agent's actions this turn: it may not repeat one."""
    shadows: list[str] = dc_field(default_factory=list)
    """Uids of the agent's shadows (later copies of the same agent lying under it)."""

    def to_json(self) -> JSON:
        return {"uid": self.uid, "owner": self.owner, "kind": self.kind, "symbols": list(self.symbols),
                "loyalty": self.loyalty, "tapped": self.tapped, "entered": self.entered, "used": list(self.used),
                "shadows": list(self.shadows)}

    @classmethod
    def from_json(cls, d: JSON) -> FieldObj:
        return cls(d["uid"], d["owner"], d["kind"], list(d["symbols"]), d["loyalty"], d["tapped"], d["entered"],
                   list(d["used"]), list(d["shadows"]))


@dataclass(slots=True)
class Cell:
    """At most one territory, one graffiti and one agent; and at most one lasting plot attached to the
    territory («слизень-камнеед остается на поле прикрепленный к территории»)."""

    territory: FieldObj | None = None
    graffiti: FieldObj | None = None
    agent: FieldObj | None = None
    plot: FieldObj | None = None

    def objects(self) -> list[FieldObj]:
        return [o for o in (self.territory, self.graffiti, self.agent, self.plot) if o is not None]

    def to_json(self) -> JSON:
        return {k: (o.to_json() if o else None) for k, o in
                (("territory", self.territory), ("graffiti", self.graffiti), ("agent", self.agent),
                 ("plot", self.plot))}

    @classmethod
    def from_json(cls, d: JSON) -> Cell:
        return cls(*(FieldObj.from_json(d[k]) if d.get(k) else None
                     for k in ("territory", "graffiti", "agent", "plot")))


@dataclass(slots=True)
class BufferSlot:
    """A card in the buffer (a *planned object*) with its active symbols."""

    uid: str
    symbols: list[str]

    def to_json(self) -> JSON:
        return {"uid": self.uid, "symbols": list(self.symbols)}

    @classmethod
    def from_json(cls, d: JSON) -> BufferSlot:
        return cls(d["uid"], list(d["symbols"]))


@dataclass(slots=True)
class PlayerState:
    main: list[str]
    extra: list[str]
    hand: list[str] = dc_field(default_factory=list)
    buffer: list[BufferSlot] = dc_field(default_factory=list)
    utility: list[str] = dc_field(default_factory=list)
    rep: int = 6
    inf: int = 0
    trust: int = 10
    lost_actions: int = 0
    """Actions to lose in the next turn (Оклеветать)."""
    setup_done: bool = False
    """This seat has answered the current simultaneous setup decision (shuffle, exchange)."""

    def to_json(self) -> JSON:
        return {"main": list(self.main), "extra": list(self.extra), "hand": list(self.hand),
                "buffer": [b.to_json() for b in self.buffer], "utility": list(self.utility), "rep": self.rep,
                "inf": self.inf, "trust": self.trust, "lost_actions": self.lost_actions,
                "setup_done": self.setup_done}

    @classmethod
    def from_json(cls, d: JSON) -> PlayerState:
        return cls(list(d["main"]), list(d["extra"]), list(d["hand"]),
                   [BufferSlot.from_json(b) for b in d["buffer"]], list(d["utility"]), d["rep"], d["inf"],
                   d["trust"], d["lost_actions"], d["setup_done"])


@dataclass(slots=True)
class Frame:
    """An effect program being resolved: ``ops`` still to run, for ``controller`` (``self`` in the ops),
    with ``vars`` binding target names (``x``, ``host``...) to uids, cells or archive references."""

    controller: int
    source: str | None
    ops: list[JSON]
    vars: dict[str, Any] = dc_field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"controller": self.controller, "source": self.source, "ops": [dict(o) for o in self.ops],
                "vars": dict(self.vars)}

    @classmethod
    def from_json(cls, d: JSON) -> Frame:
        return cls(d["controller"], d["source"], list(d["ops"]), dict(d["vars"]))


@dataclass(slots=True)
class NeutralEntry:
    """A card in the neutral zone until its action ends: where it came from and what it played as."""

    uid: str
    origin: str
    """``hand`` or ``buffer``."""
    role: str
    """``number``, ``symbol``, ``neutral`` or ``plot``."""
    spent: list[str] = dc_field(default_factory=list)
    """Symbols of a hand card spent in the combination (the others become active in the buffer)."""

    def to_json(self) -> JSON:
        return {"uid": self.uid, "origin": self.origin, "role": self.role, "spent": list(self.spent)}

    @classmethod
    def from_json(cls, d: JSON) -> NeutralEntry:
        return cls(d["uid"], d["origin"], d["role"], list(d["spent"]))


@dataclass(slots=True)
class TurnState:
    active: int = 0
    number: int = 0
    main_left: int = 2
    extra_used: bool = False
    restricted: bool = False
    """The first player's first turn: one main action must be a main-archive draw or be skipped."""
    combos: list[str] = dc_field(default_factory=list)
    """Combinations played this turn (effect and cards), which may not be repeated with the same cards."""

    def to_json(self) -> JSON:
        return {"active": self.active, "number": self.number, "main_left": self.main_left,
                "extra_used": self.extra_used, "restricted": self.restricted, "combos": list(self.combos)}

    @classmethod
    def from_json(cls, d: JSON) -> TurnState:
        return cls(d["active"], d["number"], d["main_left"], d["extra_used"], d["restricted"], list(d["combos"]))


@dataclass(slots=True)
class State:
    cards: dict[str, str]
    players: list[PlayerState]
    field: list[Cell]
    rng: Rng
    phase: str = "shuffle"
    """The step of the game: ``shuffle``, ``order``, ``exchange`` (the opening), ``turn`` or ``over``; the open
    decision is read from it (``phases.open_kinds``)."""
    chooser: int = 0
    """The seat the lot chose to pick the turn order."""
    first: int = 0
    turn: TurnState = dc_field(default_factory=TurnState)
    stack: list[Frame] = dc_field(default_factory=list)
    neutral: list[NeutralEntry] = dc_field(default_factory=list)
    result: JSON | None = None
    stall: int = 0
    """Consecutive status checks at which the public position equals the one two checks before (house rule
    40: a dead position ends in a draw)."""
    stall_keys: list[str] = dc_field(default_factory=list)
    """Digests of the public position at the last two status checks."""
    exchanges: list[list[Any]] = dc_field(default_factory=list)
    """The opening exchange decisions taken so far, ``[seat, [uid, ...]]`` in the order taken: held
    secret and applied together once both seats have decided (issue 23: it is simultaneous)."""
    rules: int = RULES
    """The rules version the game is played by (see :data:`RULES`)."""

    def to_json(self) -> JSON:
        out: JSON = {"cards": dict(self.cards), "players": [p.to_json() for p in self.players],
                     "field": [c.to_json() for c in self.field], "rng": self.rng.to_json(), "phase": self.phase,
                     "chooser": self.chooser, "first": self.first, "turn": self.turn.to_json(),
                     "stack": [f.to_json() for f in self.stack], "neutral": [n.to_json() for n in self.neutral],
                     "result": None if self.result is None else dict(self.result), "stall": self.stall,
                     "stall_keys": list(self.stall_keys), "rules": self.rules}
        if self.exchanges:  # only while the opening exchange is half decided: other states stay as stored before
            out["exchanges"] = [[seat, list(c)] for seat, c in self.exchanges]
        return out

    @classmethod
    def from_json(cls, d: JSON) -> State:
        return cls(dict(d["cards"]), [PlayerState.from_json(p) for p in d["players"]],
                   [Cell.from_json(c) for c in d["field"]], Rng.from_json(d["rng"]), d["phase"], d["chooser"],
                   d["first"], TurnState.from_json(d["turn"]), [Frame.from_json(f) for f in d["stack"]],
                   [NeutralEntry.from_json(n) for n in d["neutral"]],
                   None if d["result"] is None else dict(d["result"]), d.get("stall", 0), list(d.get("stall_keys", [])),
                   [[seat, list(c)] for seat, c in d.get("exchanges", [])], d.get("rules", 1))
