"""Risk Godstorm board data, loaded once at import from ``data/godstorm/*.json``.

Pure data: no rules live here. Provenance of every table is in ``data/godstorm/README.md``.

Notes for the rules:

* ``Territory.neighbours`` holds every link (land and sea); mountain-blocked pairs are not links.
* ``Space.neighbours`` holds the Underworld links; ``Space.fire`` lists spaces that *touch* across a
  fire border. The two sets are disjoint, so ``neighbours`` alone is already the set of legal
  attack targets inside the Underworld (the heavens are not spaces and are never attack targets).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.core import paths

DATA_DIR = paths.DATA_DIR / "godstorm"

Name = dict[str, str]


@dataclass(frozen=True)
class Territory:
    id: str
    name: Name
    continent: str
    neighbours: tuple[str, ...]
    sea: frozenset[str]
    xy: tuple[int, int]


@dataclass(frozen=True)
class Continent:
    id: str
    name: Name
    bonus: int
    territories: tuple[str, ...]


@dataclass(frozen=True)
class Space:
    """An Underworld space ("uw1".."uw13", numbered I..XIII on the board)."""

    id: str
    kind: str
    name: Name
    neighbours: tuple[str, ...]
    fire: frozenset[str]
    xy: tuple[int, int]


@dataclass(frozen=True)
class Pantheon:
    id: str
    name: Name
    colour: tuple[int, int, int]
    heaven: str
    gods: dict[str, Name]


def _load(name: str) -> dict[str, Any]:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


_MAP = _load("map.json")
_UW = _load("underworld.json")
_PANTHEONS = _load("pantheons.json")
_CARDS = _load("cards.json")

MAP_CANVAS: tuple[int, int] = (int(_MAP["canvas"][0]), int(_MAP["canvas"][1]))
UNDERWORLD_CANVAS: tuple[int, int] = (int(_UW["canvas"][0]), int(_UW["canvas"][1]))

TERRITORIES: dict[str, Territory] = {
    tid: Territory(
        id=tid,
        name=dict(t["name"]),
        continent=t["continent"],
        neighbours=tuple(sorted(t["neighbours"])),
        sea=frozenset(t["sea"]),
        xy=(int(t["xy"][0]), int(t["xy"][1])),
    )
    for tid, t in _MAP["territories"].items()
}

CONTINENTS: dict[str, Continent] = {
    cid: Continent(id=cid, name=dict(c["name"]), bonus=int(c["bonus"]), territories=tuple(c["territories"]))
    for cid, c in _MAP["continents"].items()
}

MOUNTAIN_RIDGES: tuple[tuple[str, str], ...] = tuple((a, b) for a, b in _MAP["mountain_ridges"])
"""Pairs separated by a mountain ridge (informational: they are simply not linked)."""

UNDERWORLD: dict[str, Space] = {
    sid: Space(
        id=sid,
        kind=s["kind"],
        name=dict(s["name"]),
        neighbours=tuple(s["neighbours"]),
        fire=frozenset(s["fire"]),
        xy=(int(s["xy"][0]), int(s["xy"][1])),
    )
    for sid, s in _UW["spaces"].items()
}
SPACE_NUMERALS: dict[str, str] = {sid: s["numeral"] for sid, s in _UW["spaces"].items()}
GATES: tuple[str, ...] = tuple(sid for sid, s in UNDERWORLD.items() if s.kind == "gate")
CRYPTS: tuple[str, ...] = tuple(sid for sid, s in UNDERWORLD.items() if s.kind == "crypt")
ALTARS: tuple[str, ...] = tuple(sid for sid, s in UNDERWORLD.items() if s.kind == "altar")

HEAVENS: dict[str, Name] = {hid: dict(h) for hid, h in _UW["heavens"].items()}

PANTHEONS: dict[str, Pantheon] = {
    pid: Pantheon(
        id=pid,
        name=dict(p["name"]),
        colour=(int(p["colour"][0]), int(p["colour"][1]), int(p["colour"][2])),
        heaven=p["heaven"],
        gods={kind: dict(n) for kind, n in p["gods"].items()},
    )
    for pid, p in _PANTHEONS["pantheons"].items()
}
GOD_KINDS: tuple[str, ...] = ("war", "magic", "sky", "death")
GOD_KIND_NAMES: dict[str, Name] = {
    k: {"ru": v["ru"], "en": v["en"]} for k, v in _PANTHEONS["god_kinds"].items()
}
GOD_LETTERS: dict[str, Name] = {k: dict(v["letter"]) for k, v in _PANTHEONS["god_kinds"].items()}

TERRITORY_CARDS: tuple[dict[str, Any], ...] = tuple(dict(c) for c in _CARDS["territory_cards"])
CARD_SYMBOL_NAMES: dict[str, Name] = {k: dict(v) for k, v in _CARDS["card_symbols"].items()}
RELIC_TERRITORIES: dict[str, str] = dict(_CARDS["relic_territories"])
ARMIES_BY_PLAYERS: dict[int, int] = {int(k): int(v) for k, v in _CARDS["armies_by_players"].items()}
CLASSIC_ARMIES_BY_PLAYERS: dict[int, int] = {
    int(k): int(v) for k, v in _CARDS["classic_armies_by_players"].items()
}
MIRACLE_DECK_SIZES: dict[str, int] = {k: int(v) for k, v in _CARDS["miracle_decks"].items()}

TEMPLES: int = int(_CARDS["temples"])
PLAGUES: int = int(_CARDS["plagues"])
PLAGUES_AT_SETUP: int = int(_CARDS["plagues_at_setup"])
STARTING_FAITH: int = int(_CARDS["starting_faith"])
EPOCHS: int = int(_CARDS["epochs"])


def links() -> list[tuple[str, str]]:
    """Every Ancient Earth link once, as sorted pairs (for drawing and tests)."""
    return sorted({tuple(sorted((a, b))) for a, t in TERRITORIES.items() for b in t.neighbours})  # type: ignore[misc]


def underworld_links() -> list[tuple[str, str]]:
    return sorted({tuple(sorted((a, b))) for a, s in UNDERWORLD.items() for b in s.neighbours})  # type: ignore[misc]


def fire_borders() -> list[tuple[str, str]]:
    return sorted({tuple(sorted((a, b))) for a, s in UNDERWORLD.items() for b in s.fire})  # type: ignore[misc]


def pantheon_of_heaven(heaven: str) -> str:
    return next(p.id for p in PANTHEONS.values() if p.heaven == heaven)
