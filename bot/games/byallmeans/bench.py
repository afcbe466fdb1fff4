"""Benchmark positions for By All Means: a crowded late-game state and a whole AI-against-AI game (timed by
``bot.tools.bench``, which passes its clock in: the rules package reads no clock)."""

from __future__ import annotations

from collections.abc import Callable

from bot.games.ai import bot_rng, game_rng, policy_for
from bot.games.byallmeans.game import ByAllMeans
from bot.games.byallmeans.state import State


def _crowd(s: State) -> int:
    return sum(len(c.objects()) for c in s.field)


def ai_game(seed: int, decks: tuple[str, str] = ("random", "random"), turn_cap: int = 120,
            stop_at_crowd: int | None = None,
            clock: Callable[[], float] = lambda: 0.0) -> tuple[ByAllMeans, list[float]]:
    """An AI-against-AI game between preset decks; returns it and the time of each ``apply`` in ms as
    measured by ``clock`` (seconds; zeros without one). ``stop_at_crowd`` stops it, unfinished, once that
    many objects are on the field."""
    bot = policy_for("byallmeans", "strong")
    game = ByAllMeans.new([{}, {}], {"decks": list(decks)}, seed)
    times: list[float] = []
    while game.outcome() is None and game.s.turn.number <= turn_cap:
        if stop_at_crowd is not None and game.s.phase == "turn" and _crowd(game.s) >= stop_at_crowd:
            break
        seat = game.actors()[0]
        legal = game.legal_actions(seat)
        action = bot.choose(dict(game.view(seat)), legal, bot_rng(game_rng(game), seat, len(times)))
        start = clock()
        game.apply(seat, action)
        times.append((clock() - start) * 1000)
    return game, times


def bench_state() -> ByAllMeans:
    """A deterministic crowded position: the first AI game that reaches 10 objects on the field, stopped
    there (the renderer's and the apply benchmark's state)."""
    for seed in range(1, 200):
        game, _ = ai_game(seed, ("cityhall", "underground"), stop_at_crowd=10)
        if game.outcome() is None:
            return game
    raise RuntimeError("no crowded position found")
