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
