"""By All Means («Все средства хороши»): rules engine, card pool, decks and AI (pictures in
``bot/games/byallmeans/render.py``, deck commands in ``bot/games/byallmeans/cog.py``; its plugin manifest is
``bot.games.byallmeans.manifest``).

The package's names are imported on first use, so loading its manifest (read by the registry) does not
load the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.games.byallmeans.bench import bench_state
    from bot.games.byallmeans.game import ByAllMeans

__all__ = ["ByAllMeans", "bench_state"]
_LAZY = {"ByAllMeans": "bot.games.byallmeans.game", "bench_state": "bot.games.byallmeans.bench"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
