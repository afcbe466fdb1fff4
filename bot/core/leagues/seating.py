"""A league table's seat order in its game: the first seat to the player the colour rules chose
(:mod:`bot.core.leagues.colours`), in every game, without a change to the game.

The session layer seats a lobby with the game's own ``arrange_seats``, given the lobby's players in
order and a generator made from the game's seed (``SessionManager.start``: ``seating_rng(seed)``).
Some games keep the lobby's order, others shuffle it. So the league picks the game's seed: starting from a
random one it tries successive seeds until the game's own arrangement puts the players in the wanted order
(two players: one try in two on average for a shuffling game, the first for a game keeping the order). The
game is then started with that seed, and played by its rules as any other: its seat order is simply the one
that seed gives. When no seed within :data:`TRIES` does (a game that seats by rules of its own), the game
is started with a random seed and the seats are the game's.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from bot.games.base import RNG_VERSION, Game, IllegalAction, Player, rng_version, seating_rng

TRIES = 64


def seed_for_order(cls: type[Game], lobby: Sequence[int], wanted: Sequence[int], options: dict[str, Any],
                   start: int | None = None) -> int | None:
    """A seed under which ``cls`` seats the lobby (users in lobby order) one per seat in ``wanted`` order;
    None when none of :data:`TRIES` seeds from ``start`` (random when None) does."""
    players = [Player(user_id=u) for u in lobby]
    base = secrets.randbits(62) if start is None else start
    for i in range(TRIES):
        seed = (base + i) % (1 << 62)
        try:
            with rng_version(RNG_VERSION):
                arrangement = cls.arrange_seats(players, dict(options), seating_rng(seed))
        except IllegalAction:
            return None
        if [list(users) for users in arrangement.seat_users] == [[u] for u in wanted]:
            return seed
    return None
