"""Rebuild a game from its seed and action log, to check the stored state (and debug games).

``python -m bot.replay DATABASE GAME_ID`` prints whether the log reproduces the stored state.

A game replays with the random generator it was created with (``rng_version`` in its settings;
games stored before generators were versioned used version 1), and a state stored by an older
version of the rules is migrated before the comparison.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from bot.games.base import RNG_VERSION, Game, rng_version
from bot.games.registry import game_class
from bot.store import ActionRow, Store


def replay(game_key: str, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int,
           actions: list[ActionRow] | list[tuple[int, dict[str, Any]]], *, rng: int = RNG_VERSION) -> Game:
    """A fresh game from ``seed`` (random generator version ``rng``) with every logged action
    applied in order."""
    with rng_version(rng):
        game = game_class(game_key).new(seat_info, options, seed)
        for entry in actions:
            seat, action = (entry.seat, entry.action) if isinstance(entry, ActionRow) else entry
            game.apply(seat, action)
    return game


def stored_state(game_key: str, state: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The stored state brought up to the rules' current state version."""
    cls = game_class(game_key)
    version = int(settings.get("state_version", 1))
    return state if version == cls.STATE_VERSION else cls.migrate_state(state, version)


def stored_options(game_key: str, options: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The stored options brought up to the rules' current state version (see ``migrate_options``)."""
    cls = game_class(game_key)
    version = int(settings.get("state_version", 1))
    return options if version == cls.STATE_VERSION else cls.migrate_options(dict(options), version)


async def verify(store: Store, game_id: int) -> bool:
    row = await store.load_game(game_id)
    if row is None or row.state is None or row.seed is None:
        return False
    settings = row.settings.to_json()
    options = stored_options(row.game, row.options, settings)
    game = replay(row.game, row.seat_info or [], options, row.seed, await store.actions(game_id),
                  rng=row.settings.rng_version or 1)
    return json.loads(json.dumps(game.to_json())) == stored_state(row.game, row.state, settings)


async def _main(path: str, game_id: int) -> int:
    store = await Store.open(path)
    try:
        ok = await verify(store, game_id)
    finally:
        await store.close()
    print("ok: the log reproduces the stored state" if ok else "MISMATCH: the log does not reproduce the state")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: python -m bot.replay DATABASE GAME_ID", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(asyncio.run(_main(sys.argv[1], int(sys.argv[2]))))
