"""Game states to render: each game's crowded bench state and a few others (early, team, classic,
finished), reached by seeded random legal play, as public views with player names."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.games.base import Game

NAMES = ["Алексей Длинноимённый", "A very long display name indeed", "Eve", "Борис", "Zoë", "Игрок 6"]


def _public(game: Game, seats: int) -> dict[str, Any]:
    view = game.view(None)
    view["seat_names"] = NAMES[:seats]
    return view


def _play(game: Game, seed: int, steps: int) -> Game:
    """Up to ``steps`` random legal actions (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(steps):
        actors = game.actors()
        if game.outcome() is not None or not actors:
            break
        seat = rng.choice(actors)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def pobeda_views() -> list[tuple[str, dict[str, Any]]]:
    from bot.games.pobeda import Pobeda, bench_state

    crowded = bench_state()
    views = [("bench", _public(crowded, 3))]
    two = Pobeda.new([{"side": 0}, {"side": 1}], {"layout": "shuffled"}, 11)
    views.append(("early-shuffled", _public(_play(two, 1, 6), 2)))
    teams = Pobeda.new([{"side": k % 2} for k in range(4)], {"lines": 2, "teams": 2}, 12)
    views.append(("teams-mid", _public(_play(teams, 2, 60), 4)))
    finished = Pobeda.new([{"side": 0}, {"side": 1}, {"side": 2}], {"lines": 1}, 13)
    views.append(("finished", _public(_play(finished, 3, 2000), 3)))
    return views


def coldwar_views() -> list[tuple[str, dict[str, Any]]]:
    from bot.games.coldwar import ColdWar, bench_state

    views = [("bench", _public(bench_state(), 2))]
    views.append(("start", _public(ColdWar.new([{}, {}], {}, 21), 2)))
    views.append(("mid", _public(_play(ColdWar.new([{}, {}], {}, 22), 4, 40), 2)))
    views.append(("finished", _public(_play(ColdWar.new([{}, {}], {}, 23), 5, 5000), 2)))
    return views


def godstorm_views() -> list[tuple[str, dict[str, Any]]]:
    from bot.games.godstorm import Godstorm, bench_state
    from bot.games.godstorm.playout import play

    views = [("bench", _public(bench_state(), 5))]
    early = Godstorm.new([{} for _ in range(3)], {"ruleset": "godstorm", "placement": "random"}, 31)
    play(early, random.Random(1), max_actions=60)
    views.append(("early-3p", _public(early, 3)))
    classic = Godstorm.new([{} for _ in range(4)], {"ruleset": "classic", "placement": "random"}, 32)
    play(classic, random.Random(2), max_actions=400)
    views.append(("classic-4p", _public(classic, 4)))
    two = Godstorm.new([{} for _ in range(2)], {"ruleset": "godstorm", "placement": "random"}, 33)
    play(two, random.Random(3), max_actions=600)
    views.append(("two-players-neutral", _public(two, 2)))
    return views


VIEWS: dict[str, Callable[[], list[tuple[str, dict[str, Any]]]]] = {
    "pobeda": pobeda_views, "coldwar": coldwar_views, "godstorm": godstorm_views,
}
