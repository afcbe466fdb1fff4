"""By All Means data, loaded once from ``data/byallmeans/*.json``: symbols, the symbol-pair table, the
number combinations and the card pool. Pure data, no rules; the effect programs (``ops``) are run by
:mod:`bot.games.byallmeans.effects`.

Provenance: effect names, texts and legality are the rulebook's; symbol names, the pair assignment
and every card are designed by this project (``docs/games/byallmeans.md``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.core import paths

DATA_DIR = paths.DATA_DIR / "byallmeans"

CARD_TYPES = ("territory", "agent", "graffigent", "graffiti", "plot")
FIELD_TYPES = ("territory", "agent", "graffigent", "graffiti")
WHEN = ("enter", "leave", "activated", "plot", "discard", "turn_start", "turn_end", "rival_turn_start", "rival_turn_end",
        "static", "own_territory_enters", "rival_plays_plot")
"""When an ability works. The last two are conditional triggers (the rulebook's «↗ Тригер - эффект,
срабатывающий при определенных условиях»): another territory of the card's controller enters the field;
the controller's rival plays a plot."""
STATS = ("efficiency", "resilience", "price")
"""What a static ability (``when: static``, a list of ``mods``) may modify while its card is on the field."""
CONDITIONS = ("own_territories", "agent_on_field", "own_territory_cell", "own_territory", "opp_territory", "min_rep",
              "opp_agents")
"""Placement conditions a card may print (``requires``), checked before it may be played."""
NEUTRAL_SYMBOL = "fog"
DIRECTIONS = "NESW"

Ops = list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Ability:
    when: str
    ops: tuple[dict[str, Any], ...]
    free: bool = False
    """An activated ability that costs no action (the rulebook's second eye icon)."""
    mods: tuple[dict[str, Any], ...] = ()
    """A static ability's modifiers: ``{"stat": efficiency|resilience|price, "n": int, "scope": ...}``
    (scope ``this``, ``own_agents``, ``opp_agents`` for the agent stats; ``who`` self|opp and ``types``
    for prices)."""


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card of the pool. ``cost`` is (from hand, from buffer); None is the rulebook's dash."""

    code: str
    type: str
    cost: tuple[int | None, int | None]
    number: int
    symbols: tuple[str, ...]
    abilities: tuple[Ability, ...] = ()
    influence: int = 0
    """Territories: positive is green (you gain), negative is red (the opponent loses)."""
    loyalty: int = 0
    ally: int = 0
    """Green impact: added to the loyalty of your territories the arrows point at."""
    enemy: int = 0
    """Red impact: added to the loyalty of the opponent's territories the arrows point at."""
    arrows: str = ""
    """Arrow directions as the owner sees the card: N (away from the owner), E, S, W."""
    efficiency: int = 0
    resilience: int = 0
    operative: bool = False
    utilise: bool = False
    requires: tuple[dict[str, Any], ...] = ()
    """Placement conditions printed on the card (see :data:`CONDITIONS`)."""
    attach: str = ""
    """A lasting plot: ``self``/``opp``/``any``, whose territory it stays attached to after it resolves."""

    def abilities_when(self, when: str) -> list[Ability]:
        return [a for a in self.abilities if a.when == when]

    @property
    def is_agent(self) -> bool:
        return self.type in ("agent", "graffigent")


@dataclass(frozen=True, slots=True)
class PairEffect:
    id: str
    pair: tuple[str, str]
    name_ru: str
    text_ru: str
    legal: dict[str, Any]
    legal_ru: str
    ops: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class NumberCombo:
    sum: int
    id: str
    name_ru: str
    text_ru: str
    min_cards: int
    ops: tuple[dict[str, Any], ...]


def _load(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


def _card(d: dict[str, Any]) -> CardDef:
    impact = d.get("impact", {})
    return CardDef(
        code=d["code"], type=d["type"], cost=(d["cost"][0], d["cost"][1]), number=d["number"],
        symbols=tuple(d["symbols"]),
        abilities=tuple(Ability(a["when"], tuple(a.get("ops", [])), a.get("free", False), tuple(a.get("mods", [])))
                        for a in d.get("abilities", [])),
        influence=d.get("influence", 0), loyalty=d.get("loyalty", 0), ally=impact.get("ally", 0),
        enemy=impact.get("enemy", 0), arrows=d.get("arrows", ""), efficiency=d.get("efficiency", 0),
        resilience=d.get("resilience", 0), operative=d.get("operative", False), utilise=d.get("utilise", False),
        requires=tuple(d.get("requires", [])), attach=d.get("attach", ""))


@lru_cache(maxsize=1)
def symbols() -> tuple[str, ...]:
    return tuple(s["id"] for s in _load("symbols.json")["symbols"])


@lru_cache(maxsize=1)
def active_symbols() -> tuple[str, ...]:
    return tuple(s["id"] for s in _load("symbols.json")["symbols"] if s["active"])


@lru_cache(maxsize=1)
def pair_effects() -> dict[tuple[str, str], PairEffect]:
    out = {}
    for e in _load("symbols.json")["pair_effects"]:
        pair = tuple(sorted(e["pair"]))
        out[pair] = PairEffect(e["id"], (pair[0], pair[1]), e["name_ru"], e["text_ru"], e["legal"], e["legal_ru"],
                               tuple(e["ops"]))
    return out


def pair_effect(a: str, b: str) -> PairEffect:
    x, y = sorted((a, b))
    return pair_effects()[(x, y)]


@lru_cache(maxsize=1)
def number_combos() -> dict[int, NumberCombo]:
    return {c["sum"]: NumberCombo(c["sum"], c["id"], c["name_ru"], c["text_ru"], c["min_cards"], tuple(c["ops"]))
            for c in _load("symbols.json")["number_combos"]}


@lru_cache(maxsize=1)
def cards() -> dict[str, CardDef]:
    return {c["code"]: _card(c) for c in _load("cards.json")["cards"]}


def card(code: str) -> CardDef:
    return cards()[code]


DECK_SIZE = 40
MAX_COPIES = 2
MAIN_ARCHIVE = 25
EXTRA_ARCHIVE = 15


def deck_problems(codes: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Why a deck is not legal, as (i18n key, params) pairs; empty when it is.

    «Колода составляется из 40 карт. В колоде допускается не более двух повторений одной карты.»
    """
    problems: list[tuple[str, dict[str, Any]]] = []
    if len(codes) != DECK_SIZE:
        problems.append(("bam.deck.size", {"n": len(codes), "size": DECK_SIZE}))
    known = cards()
    for code in sorted(set(codes)):
        if code not in known:
            problems.append(("bam.deck.unknown", {"code": code}))
        elif codes.count(code) > MAX_COPIES:
            problems.append(("bam.deck.copies", {"code": code, "n": codes.count(code), "max": MAX_COPIES}))
    return problems


STARTER = ("A01", "A02", "A03", "A04", "A05", "G01", "G02", "P01", "P02", "P03", "P04", "P05", "T01", "T02", "T03",
           "T04", "T05")
"""The first engine phase's 17 cards, which the rule tests build their positions from."""


def starter_deck() -> list[str]:
    """A 40-card development deck over the starter set (17 cards, so some appear three times: it
    breaks the two-copies rule on purpose and is used only by rule tests; real games use the presets)."""
    return [STARTER[i % len(STARTER)] for i in range(DECK_SIZE)]
