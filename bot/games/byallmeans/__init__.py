"""By All Means («Все средства хороши»): rules engine (phase 1; not registered as a playable game yet)."""

from bot.games.byallmeans.game import ByAllMeans

__all__ = ["ByAllMeans"]
