"""Pobeda's part of the catch-up summary (``bot.core.catchup``): lines made and chips removed, and the reader's
chips removed and the other sides' lines first; a player's confirmation of a move (the undo window) is part of
that move, not one more."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.manifest import CatchUp, Counter, Loss, loss


def losses(event: Mapping[str, Any], me: int, side: int, by: int) -> list[Loss]:
    kind = event.get("type")
    if kind == "played" and event.get("kind") in ("minus1", "swap") and event.get("victim") == side:
        return loss("your_chips", 1, by)
    if kind == "line" and isinstance(event.get("side"), int) and event["side"] != side:
        return loss("lines", 1, event["side"], "side")
    return []


CATCHUP = CatchUp(
    counters={
        "line": (Counter("lines", "side:side"),),
        "played": (Counter("removed", "seat", when=lambda e: e.get("kind") in ("minus1", "swap")),),
    },
    losses=losses,
    loss_order=("your_chips", "lines"),
)
