"""Card data of Cold War (numbers from data/coldwar/; names live in the i18n file).

Two card sets exist. Set 2 (``cards.json``) holds the printed cards and is used by every new game.
Set 1 (``cards_v1.json``) holds this edition's earlier, mostly invented values; a game records its
set in ``State.cards`` (absent in states stored before set 2 existed, which means set 1), so a
game started with the old cards finishes with them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.core.paths import DATA_DIR

DATA_FILES = {1: DATA_DIR / "coldwar" / "cards_v1.json", 2: DATA_DIR / "coldwar" / "cards.json"}
DATA_FILE = DATA_FILES[2]
CURRENT = 2

FACTIONS = ("military", "economic", "political", "media")
PHASES = ("briefing", "struggle", "truce", "detente")
SPY, DEPUTY, DOUBLE, ANALYST, ASSASSIN, DIRECTOR = 1, 2, 3, 4, 5, 6
AGENTS = (SPY, DEPUTY, DOUBLE, ANALYST, ASSASSIN, DIRECTOR)
AGENT_KEYS = {SPY: "spy", DEPUTY: "deputy", DOUBLE: "double", ANALYST: "analyst",
              ASSASSIN: "assassin", DIRECTOR: "director"}
CIA, KGB = 0, 1


@dataclass(frozen=True)
class CardSet:
    """One version of the targets and groups, looked up by card id."""

    version: int
    targets: dict[str, dict[str, Any]]
    groups: dict[str, dict[str, Any]]
    target_ids: list[str] = field(default_factory=list)
    group_ids: list[str] = field(default_factory=list)

    def influence(self, gid: str) -> int:
        return int(self.groups[gid]["influence"])

    def faction(self, gid: str) -> str:
        return str(self.groups[gid]["faction"])

    def vp(self, tid: str) -> int:
        return int(self.targets[tid]["vp"])

    def phase(self, tid: str) -> str | None:
        """The phase in which a captured event's ability may be used (None for a country)."""
        return self.targets[tid]["phase"]

    def ability(self, tid: str) -> str | None:
        """The key of an event's ability (the engine's behaviour and the i18n description)."""
        return self.targets[tid]["ability"]


def _load(version: int) -> CardSet:
    data = json.loads(DATA_FILES[version].read_text(encoding="utf-8"))
    return CardSet(version, {t["id"]: t for t in data["targets"]}, {g["id"]: g for g in data["groups"]},
                   [t["id"] for t in data["targets"]], [g["id"] for g in data["groups"]])


CARD_SETS: dict[int, CardSet] = {v: _load(v) for v in DATA_FILES}


def cards_of(version: int | None) -> CardSet:
    """The card set of a game (``State.cards``; None: a state stored before card sets existed, set 1)."""
    return CARD_SETS[1 if version is None else int(version)]


def card_set(state: Mapping[str, Any]) -> CardSet:
    """The card set a stored game state (its JSON) was started with."""
    return cards_of(state.get("cards"))


# the current set, for code that needs no particular game
_NOW = CARD_SETS[CURRENT]
TARGETS: dict[str, dict[str, Any]] = _NOW.targets
GROUPS: dict[str, dict[str, Any]] = _NOW.groups
TARGET_IDS: list[str] = _NOW.target_ids
GROUP_IDS: list[str] = _NOW.group_ids


def influence(gid: str) -> int:
    return _NOW.influence(gid)


def faction(gid: str) -> str:
    return _NOW.faction(gid)


def vp(tid: str) -> int:
    return _NOW.vp(tid)
