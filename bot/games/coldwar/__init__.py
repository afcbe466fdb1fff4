"""Cold War: CIA vs KGB (Холодная война: КГБ против ЦРУ).

The package's names are imported on first use, so loading its manifest (``bot.games.coldwar.manifest``,
read by the registry) does not load the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.games.coldwar.bench import bench_state
    from bot.games.coldwar.game import ColdWar

__all__ = ["ColdWar", "bench_state"]
_LAZY = {"ColdWar": "bot.games.coldwar.game", "bench_state": "bot.games.coldwar.bench"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
