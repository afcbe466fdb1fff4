"""Cold War's part of the catch-up summary (``bot.core.catchup``): captures and victory points, and the reader's
groups destroyed or taken first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.manifest import CatchUp, Counter, Loss, loss


def losses(event: Mapping[str, Any], me: int, side: int, by: int) -> list[Loss]:
    kind = event.get("type")
    if kind == "destroyed" and event.get("owner") == side:
        return loss("your_groups_destroyed", 1, by)
    if kind == "use" and event.get("owner") == side and event.get("effect") in ("destroy", "steal"):
        return loss("your_groups_destroyed" if event["effect"] == "destroy" else "your_groups_taken", 1, by)
    return []  # the points others scored are in the count of the rest ("+5 victory points")


CATCHUP = CatchUp(
    counters={
        # a capture both counts as a capture and adds its victory points
        "capture": (Counter("captures", "seat"), Counter("points", "seat", "vp")),
        "event_used": (Counter("points", "seat", "vp"),),
    },
    losses=losses,
    loss_order=("your_groups_destroyed", "your_groups_taken"),
)
