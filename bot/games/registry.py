"""Which games exist: one line per game naming its manifest (:mod:`bot.games.manifest`).

Adding a game is a package with a ``MANIFEST``, one line in :data:`BUILTIN`, its docs and its tests.
Every per-game table of the platform (renderer extras, bots, catch-up, ending reasons, arena variants,
bench states, cogs, strings) reads the manifests registered here.

More games can be registered from outside this repository without changing a file: the environment
variable ``TABLETOP_GAMES_EXTRA`` lists references to further manifests, comma-separated
(``TABLETOP_GAMES_EXTRA="tests.toygame:MANIFEST"``), read when this module is first imported, in every
process that imports it (the bot, its render processes, ``bot.tools.arena``, ``bot.tools.bench``). A reference that
does not import, or names no manifest, stops the import with an error saying which.

Manifests are small modules; the rules, renderers and bots they name are imported on first use.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import resources

from bot.core import i18n
from bot.games.base import Game
from bot.games.manifest import BoardFn, GameManifest, GameRenderer, load

BUILTIN: tuple[str, ...] = (
    "bot.games.pobeda.manifest:MANIFEST",
    "bot.games.coldwar.manifest:MANIFEST",
    "bot.games.godstorm.manifest:MANIFEST",
    "bot.games.byallmeans.manifest:MANIFEST",
)
"""The games of this repository, in the order ``/game new`` offers them."""

EXTRA_ENV = "TABLETOP_GAMES_EXTRA"
"""Comma-separated ``"module:attribute"`` references to more manifests (games from other packages)."""


def extra_refs(env: Mapping[str, str] = os.environ) -> list[str]:
    return [ref.strip() for ref in env.get(EXTRA_ENV, "").split(",") if ref.strip()]


def load_manifests(refs: list[str]) -> dict[str, GameManifest]:
    """The manifests ``refs`` name, by key (a key registered twice is an error)."""
    out: dict[str, GameManifest] = {}
    for ref in refs:
        try:
            manifest = load(ref)
        except (ImportError, AttributeError) as exc:
            raise RuntimeError(f"game manifest {ref!r} cannot be imported: {exc}") from exc
        if not isinstance(manifest, GameManifest):
            raise RuntimeError(f"{ref!r} is not a GameManifest")
        if manifest.key in out:
            raise RuntimeError(f"two manifests register the game {manifest.key!r}")
        out[manifest.key] = manifest
    return out


def strings() -> list[i18n.Catalogue]:
    """The string catalogues the registered games bring (``i18n_files``), for :mod:`bot.core.i18n`."""
    out = []
    for game in GAMES.values():
        for ref in game.i18n_files:
            package, _, name = ref.partition(":")
            out.append((ref, game.domains(), resources.files(package).joinpath(name).read_text(encoding="utf-8")))
    return out


GAMES: dict[str, GameManifest] = load_manifests([*BUILTIN, *extra_refs()])
"""Every registered game's manifest, by key (tests may add one with ``monkeypatch.setitem``, then
``bot.core.i18n.catalogue.cache_clear()`` for its strings)."""
i18n.add_source(strings)


def manifest(key: str) -> GameManifest:
    """The manifest of game ``key`` (KeyError for an unknown game)."""
    return GAMES[key]


def manifests() -> list[GameManifest]:
    return list(GAMES.values())


def available() -> list[str]:
    """Keys of the games whose rules import (a game still being built is simply absent)."""
    keys = []
    for key in GAMES:
        try:
            game_class(key)
        except (ImportError, AttributeError, TypeError):
            continue
        keys.append(key)
    return keys


def game_class(key: str) -> type[Game]:
    return GAMES[key].game_class()


def board_renderer(key: str) -> GameRenderer:
    """The renderer of game ``key``: its board and its optional extras (personal board, zooms...)."""
    return GAMES[key].board_renderer()


def renderer(key: str) -> BoardFn:
    """The function drawing the public board of game ``key``: ``(view, lang) -> PNG``."""
    return board_renderer(key).board
