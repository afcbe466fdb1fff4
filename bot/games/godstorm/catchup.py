"""Godstorm's part of the catch-up summary (``bot.core.catchup``): conquests, temples and eliminations, and the
reader's territories and armies lost first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.manifest import CatchUp, Counter, Loss, loss


def losses(event: Mapping[str, Any], me: int, side: int, by: int) -> list[Loss]:
    kind = event.get("type")
    if kind == "conquered" and event.get("previous") == me:
        return loss("your_territories", 1, by)
    if kind == "roll" and event.get("defender") == me:
        return loss("your_armies", event.get("def_loss"), by)
    return []


CATCHUP = CatchUp(
    counters={
        "conquered": (Counter("conquests", "seat"),),
        "temple_built": (Counter("temples", "seat"),),
        "eliminated": (Counter("eliminated", "seat"),),
    },
    losses=losses,
    loss_order=("your_territories", "your_armies"),
)
