"""Risk Godstorm (and classic Risk on the same board): rules engine.

The package's names are imported on first use, so loading its manifest (``bot.games.godstorm.manifest``,
read by the registry) does not load the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.games.godstorm.game import Godstorm
    from bot.games.godstorm.playout import bench_state, random_playout

__all__ = ["Godstorm", "bench_state", "random_playout"]
_LAZY = {"Godstorm": "bot.games.godstorm.game", "bench_state": "bot.games.godstorm.playout",
         "random_playout": "bot.games.godstorm.playout"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
