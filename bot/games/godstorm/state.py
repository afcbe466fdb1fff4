"""The Godstorm state as typed records.

Each record reads and writes exactly the JSON the engine stored when the state was one dict (same
keys, same key order, same values), so games stored before the records existed load unchanged and
``to_json`` of a game is byte-identical to what the dict produced. ``to_json`` always builds fresh
containers: the caller may keep or mutate the result without touching the live state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass(slots=True)
class Territory:
    """A territory of the Ancient Earth."""

    owner: int | None = None
    armies: int = 0
    gods: list[str] = field(default_factory=list)
    temple: bool = False
    plague: bool = False

    def to_json(self) -> JSON:
        return {"owner": self.owner, "armies": self.armies, "gods": list(self.gods), "temple": self.temple,
                "plague": self.plague}

    @classmethod
    def from_json(cls, d: JSON) -> Territory:
        return cls(d["owner"], d["armies"], list(d["gods"]), d["temple"], d["plague"])


@dataclass(slots=True)
class Space:
    """A space of the Underworld (gate, crypt, altar or plain)."""

    owner: int | None = None
    armies: int = 0

    def to_json(self) -> JSON:
        return {"owner": self.owner, "armies": self.armies}

    @classmethod
    def from_json(cls, d: JSON) -> Space:
        return cls(d["owner"], d["armies"])


@dataclass(slots=True)
class PlayerState:
    """A seat's pantheon and counters. ``supply`` counts every army the seat owns (in play, in the heavens,
    in reserve); the box is unlimited, so it grows when the reserve runs short."""

    pantheon: str | None
    colour: list[int]
    faith: int
    cards: dict[str, int]
    """Face-down miracle cards by deck (Godstorm)."""
    tcards: list[str]
    """Territory cards in hand (classic)."""
    heaven: int
    reserve: int
    supply: int
    eliminated: bool = False
    bid: int | None = None

    def to_json(self) -> JSON:
        return {"pantheon": self.pantheon, "colour": list(self.colour), "faith": self.faith,
                "cards": dict(self.cards), "tcards": list(self.tcards), "heaven": self.heaven,
                "reserve": self.reserve, "supply": self.supply, "eliminated": self.eliminated, "bid": self.bid}

    @classmethod
    def from_json(cls, d: JSON) -> PlayerState:
        return cls(d["pantheon"], list(d["colour"]), d["faith"], dict(d["cards"]), list(d["tcards"]), d["heaven"],
                   d["reserve"], d["supply"], d["eliminated"], d["bid"])


@dataclass(slots=True)
class Neutral:
    """The neutral armies of a two-player game (with a pantheon of their own in Godstorm)."""

    pantheon: str | None
    heaven: int
    reserve: int
    supply: int
    colour: list[int]

    def to_json(self) -> JSON:
        return {"pantheon": self.pantheon, "heaven": self.heaven, "reserve": self.reserve, "supply": self.supply,
                "colour": list(self.colour)}

    @classmethod
    def from_json(cls, d: JSON) -> Neutral:
        return cls(d["pantheon"], d["heaven"], d["reserve"], d["supply"], list(d["colour"]))


@dataclass(slots=True)
class Battle:
    """A godswar in progress: ``att``/``def_`` are the champions chosen for the current round."""

    src: str
    dst: str
    dice: int
    att: str | None = None
    def_: str | None = None
    rounds: int = 0

    def to_json(self) -> JSON:
        return {"from": self.src, "to": self.dst, "dice": self.dice, "att": self.att, "def": self.def_,
                "rounds": self.rounds}

    @classmethod
    def from_json(cls, d: JSON) -> Battle:
        return cls(d["from"], d["to"], d["dice"], d["att"], d["def"], d["rounds"])


@dataclass(slots=True)
class Move:
    """A conquest waiting for the attacker to choose how many armies move in."""

    src: str
    dst: str
    min: int
    max: int

    def to_json(self) -> JSON:
        return {"from": self.src, "to": self.dst, "min": self.min, "max": self.max}

    @classmethod
    def from_json(cls, d: JSON) -> Move:
        return cls(d["from"], d["to"], d["min"], d["max"])


@dataclass(slots=True)
class Arrow:
    """The last attack or fortification of the turn (drawn on the board)."""

    src: str
    dst: str

    def to_json(self) -> JSON:
        return {"from": self.src, "to": self.dst}

    @classmethod
    def from_json(cls, d: JSON) -> Arrow:
        return cls(d["from"], d["to"])


@dataclass(slots=True)
class TurnFlags:
    """What the current player has done this turn (the limits of the once-per-turn rules).

    Before the first turn of a game the stored JSON holds ``{}``: ``begun`` is False then, every flag
    reads as its default (no turn has done anything) and ``to_json`` writes ``{}`` back.
    """

    conquered: int = 0
    war_card: bool = False
    sky_card: bool = False
    bought: int = 0
    fortified: bool = False
    crypts_used: list[str] = field(default_factory=list)
    plague_done: bool = False
    match_bonus: bool = False
    forced_trade: bool = False
    begun: bool = True

    def to_json(self) -> JSON:
        if not self.begun:
            return {}
        return {"conquered": self.conquered, "war_card": self.war_card, "sky_card": self.sky_card,
                "bought": self.bought, "fortified": self.fortified, "crypts_used": list(self.crypts_used),
                "plague_done": self.plague_done, "match_bonus": self.match_bonus, "forced_trade": self.forced_trade}

    @classmethod
    def from_json(cls, d: JSON) -> TurnFlags:
        if not d:
            return cls(begun=False)
        return cls(d["conquered"], d["war_card"], d["sky_card"], d["bought"], d["fortified"], list(d["crypts_used"]),
                   d["plague_done"], d["match_bonus"], d["forced_trade"])
