"""By All Means («Все средства хороши»): rules engine, card pool, decks and AI (registered; pictures in
``render/byallmeans.py``, deck commands in ``cogs/byallmeans.py``)."""

from bot.games.byallmeans.game import ByAllMeans

__all__ = ["ByAllMeans", "bench_state"]


def bench_state() -> ByAllMeans:
    """A crowded late-game position (see :mod:`bot.games.byallmeans.bench`)."""
    from bot.games.byallmeans.bench import bench_state as build

    return build()
