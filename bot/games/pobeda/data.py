"""Static content of Pobeda: the 140 events, the board layout, the deck and cell names."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from bot.core import paths

DATA_DIR = paths.DATA_DIR / "pobeda"

SIZE = 12
CELLS = SIZE * SIZE
CORNERS: tuple[int, ...] = (0, SIZE - 1, CELLS - SIZE, CELLS - 1)
COLUMNS = "ABCDEFGHIJKL"
CHIPS_PER_SIDE = 48
HAND_SIZE = 6
FREE = -1
"""``owner`` of a cell without a chip."""

# The split of the 11 special cards is not in the rulebook; see docs/games/pobeda.md.
SPECIALS: tuple[tuple[str, int], ...] = (("plus1", 5), ("minus1", 4), ("swap", 2))
SPECIAL_KINDS = tuple(kind for kind, _ in SPECIALS)


def cell_name(index: int) -> str:
    """``0`` -> ``"A1"``: columns A–L left to right, rows 1–12 top to bottom."""
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


def cell_index(name: str) -> int:
    """Inverse of :func:`cell_name`; raises ValueError on a malformed name."""
    if not isinstance(name, str) or len(name) < 2:
        raise ValueError(name)
    col = COLUMNS.find(name[0].upper())
    row = int(name[1:]) - 1
    if col < 0 or not 0 <= row < SIZE:
        raise ValueError(name)
    return row * SIZE + col


@lru_cache(maxsize=1)
def events() -> dict[str, dict[str, Any]]:
    """Event id -> event record (date, title and description in both languages)."""
    items = json.loads((DATA_DIR / "events.json").read_text(encoding="utf-8"))
    return {item["id"]: item for item in items}


def event_ids() -> list[str]:
    return sorted(events())


@lru_cache(maxsize=1)
def chrono_layout() -> tuple[str | None, ...]:
    """The default layout: 144 entries, an event id per cell and None at the corners."""
    data = json.loads((DATA_DIR / "layout.json").read_text(encoding="utf-8"))
    corner = data["corner"]
    flat = [cell for row in data["chrono"] for cell in row]
    return tuple(None if cell == corner else cell for cell in flat)


def special_ids() -> list[str]:
    return [f"{kind}_{i}" for kind, count in SPECIALS for i in range(1, count + 1)]


def full_deck() -> list[str]:
    """All 151 card ids in a fixed order (shuffled by the game)."""
    return event_ids() + special_ids()


def card_kind(card: str) -> str:
    """``"event"`` or the special kind (``plus1``, ``minus1``, ``swap``)."""
    if card.startswith("ev"):
        return "event"
    return card.rsplit("_", 1)[0]


def card_order(card: str) -> tuple[int, str]:
    """Events first, then the special cards by kind (the order hands and controls are listed in)."""
    kind = card_kind(card)
    return (0 if kind == "event" else 1 + SPECIAL_KINDS.index(kind), card)
