"""By All Means' part of the catch-up summary (``bot.core.catchup``): reputation gained, and first the reader's
reputation, influence and trust lost, agents exposed and cards taken from the hand or an archive."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.manifest import CatchUp, Counter, Loss, loss

TAKEN_FROM = ("hand", "main", "extra")
"""Zones a card is *taken from you* out of (a card leaving the field is another loss)."""


def losses(event: Mapping[str, Any], me: int, side: int, by: int) -> list[Loss]:
    kind = event.get("type")
    if kind == "bam.lose" and event.get("seat") == me and event.get("res") in ("rep", "inf", "trust"):
        return loss(f"your_{event['res']}", event.get("n"), by)
    if kind == "bam.exposed" and event.get("seat") == me:
        return loss("your_agents", 1, by)
    if kind == "bam.utility" and event.get("seat") == me and event.get("from") in TAKEN_FROM and by != me:
        return loss("your_cards", 1, by)  # discarded from the reader's hand or milled from an archive
    return []


CATCHUP = CatchUp(
    counters={"bam.gain": (Counter("reputation", "seat", "n", when=lambda e: e.get("res") == "rep"),)},
    losses=losses,
    loss_order=("your_rep", "your_inf", "your_trust", "your_agents", "your_cards"),
)
