"""Card data of Cold War (numbers from data/coldwar/cards.json; names live in the i18n file)."""

from __future__ import annotations

import json
from typing import Any

from bot.paths import DATA_DIR

DATA_FILE = DATA_DIR / "coldwar" / "cards.json"

FACTIONS = ("military", "economic", "political", "media")
SPY, DEPUTY, DOUBLE, ANALYST, ASSASSIN, DIRECTOR = 1, 2, 3, 4, 5, 6
AGENTS = (SPY, DEPUTY, DOUBLE, ANALYST, ASSASSIN, DIRECTOR)
AGENT_KEYS = {SPY: "spy", DEPUTY: "deputy", DOUBLE: "double", ANALYST: "analyst",
              ASSASSIN: "assassin", DIRECTOR: "director"}
CIA, KGB = 0, 1


def _load() -> dict[str, Any]:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


_DATA = _load()
TARGETS: dict[str, dict[str, Any]] = {t["id"]: t for t in _DATA["targets"]}
GROUPS: dict[str, dict[str, Any]] = {g["id"]: g for g in _DATA["groups"]}
TARGET_IDS: list[str] = [t["id"] for t in _DATA["targets"]]
GROUP_IDS: list[str] = [g["id"] for g in _DATA["groups"]]
EVENT_PHASE: dict[str, str] = {t["id"]: t["phase"] for t in _DATA["targets"] if t["kind"] == "event"}


def influence(gid: str) -> int:
    return int(GROUPS[gid]["influence"])


def faction(gid: str) -> str:
    return str(GROUPS[gid]["faction"])


def vp(tid: str) -> int:
    return int(TARGETS[tid]["vp"])
