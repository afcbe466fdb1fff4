"""What the benchmarks share: which game a measurement plays (from the manifests, :class:`bot.games.manifest.Bench`),
random legal moves, games through the session layer, whole random games, percentiles.

The benchmark modules (:mod:`bot.tools.bench`, :mod:`bot.tools.bench_delivery`, :mod:`bot.tools.bench_loop`,
:mod:`bot.tools.bench_pg`) and the web page's (``bot.web.bench``) import this module, never each other's
helpers, so none of them imports another that imports it back.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.core.sessions import SessionManager, UserInfo
from bot.games.base import Action, Game
from bot.games.manifest import GameManifest, Setup
from bot.games.registry import available, manifest


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def bench_state(key: str) -> Game:
    """The game's own crowded late-game state (``bench_state`` named by its manifest)."""
    return manifest(key).make_bench_state()


def games_with(figure: str) -> list[str]:
    """The available games whose manifest asks for the measurement ``figure`` (:data:`bot.games.manifest.BENCH_FIGURES`)."""
    return [key for key in available() if figure in manifest(key).bench.figures]


def subject(figure: str, games: list[str] | None = None) -> str | None:
    """The game a platform measurement plays: the first available one asking for ``figure`` (among ``games``)."""
    keys = [key for key in games_with(figure) if games is None or key in games]
    return keys[0] if keys else None


def platform_game(games: list[str] | None = None) -> str:
    """The game of the platform figures (steps, throughput, restore...): the one asking for ``platform``,
    else the first available."""
    games = games if games is not None else available()
    return subject("platform", games) or games[0]


def random_action(game: Game, rng: random.Random) -> tuple[int, dict[str, Any]] | None:
    actors = game.actors()
    if not actors:
        return None
    seat = rng.choice(actors)
    legal = game.legal_actions(seat)
    return (seat, rng.choice(legal)) if legal else None


async def new_game(sessions: SessionManager, channel: int, key: str, players: int,
                   options: dict[str, Any] | None = None) -> int:
    """A running game of ``players`` users in ``channel``, through the session layer."""
    users = [UserInfo(channel * 10 + i, f"p{i}") for i in range(players)]
    session = await sessions.create(guild_id=1, channel_id=channel, host=users[0], game_key=key,
                                    options=options or {})
    for user in users[1:]:
        await sessions.join(session.id, user)
    await sessions.start(session.id, users[0].id, seed=channel)
    return session.id


async def play_one(sessions: SessionManager, game_id: int, rng: random.Random) -> bool:
    """One random legal action in game ``game_id`` (False: it is over, or nobody can act)."""
    session = await sessions.get(game_id)
    if session.row.status != "running" or session.game is None:
        return False
    choice = random_action(session.game, rng)
    if choice is None:
        return False
    seat, action = choice
    assert session.row.seat_users is not None  # a running game has its seats
    user = session.row.seat_users[seat][0]
    await sessions.act(game_id, user, seat, action)
    return True


Chooser = Callable[[Game, int, list[Action], random.Random], Action]


def chooser(game: GameManifest) -> Chooser:
    """How a random game of ``game`` chooses: its conformance kit's (biased so games end), else uniformly."""
    kit = game.conformance_kit()
    if kit is not None and kit.choose is not None:
        return kit.choose
    return lambda _game, _seat, legal, rnd: rnd.choice(legal)


@dataclass
class Playout:
    """A whole game of random choices: the game at its end and every action in order."""

    game: Game
    log: list[tuple[int, Action]] = field(default_factory=list)


def playout(key: str, setup: Setup, seed: int, max_actions: int = 200_000,
            choose: Chooser | None = None) -> Playout:
    """A whole game of ``key`` at table ``setup`` (players, options) played by the first actor each time,
    with :func:`chooser`'s choices from ``random.Random(seed)``."""
    seat_info, options = setup
    game_manifest = manifest(key)
    game = game_manifest.game_class().new([dict(s) for s in seat_info], dict(options), seed)
    pick = choose or chooser(game_manifest)
    rnd = random.Random(seed)
    out = Playout(game)
    while game.outcome() is None and len(out.log) < max_actions:
        actors = game.actors()
        if not actors:
            raise RuntimeError(f"no actor in a running {key} game")
        seat = actors[0]
        action = pick(game, seat, game.legal_actions(seat), rnd)
        game.apply(seat, action)
        out.log.append((seat, action))
    return out
