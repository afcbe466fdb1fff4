"""Победа (Pobeda): lines of six chips on a 12x12 board of Great Patriotic War events.

The package's names are imported on first use, so loading its manifest (``bot.games.pobeda.manifest``,
read by the registry) does not load the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.games.pobeda.bench import bench_state
    from bot.games.pobeda.game import Pobeda

__all__ = ["Pobeda", "bench_state"]
_LAZY = {"Pobeda": "bot.games.pobeda.game", "bench_state": "bot.games.pobeda.bench"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
