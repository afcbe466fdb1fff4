"""Which games exist, and where their rules and renderers live (imported lazily)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from bot.games.base import Game

GAMES: dict[str, tuple[str, str]] = {
    # key: (rules "module:Class", renderer "module:function(view, lang) -> bytes")
    "pobeda": ("bot.games.pobeda:Pobeda", "render.pobeda:render"),
    "coldwar": ("bot.games.coldwar:ColdWar", "render.coldwar:render"),
    "godstorm": ("bot.games.godstorm:Godstorm", "render.godstorm:render"),
    "byallmeans": ("bot.games.byallmeans:ByAllMeans", "render.byallmeans:render"),
}


def _load(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def available() -> list[str]:
    """Keys of the games whose modules import (a game still being built is simply absent)."""
    keys = []
    for key in GAMES:
        try:
            game_class(key)
        except (ImportError, AttributeError):
            continue
        keys.append(key)
    return keys


def game_class(key: str) -> type[Game]:
    return _load(GAMES[key][0])


def renderer(key: str) -> Callable[[dict[str, Any], str], bytes]:
    return _load(GAMES[key][1])
