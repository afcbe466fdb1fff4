"""Game states to render: each game's crowded bench state and a few others (early, team, classic,
finished), reached by seeded random legal play, as public views with player names."""

from __future__ import annotations

import copy
import functools
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


def byallmeans_views() -> list[tuple[str, dict[str, Any]]]:
    """Public views, plus seat 1's own view (with ``me``) of each: the field renders the public part,
    the hand render (``bot.games.byallmeans.render.reference_hand``) the seat view."""
    from bot.games.byallmeans import ByAllMeans
    from bot.games.byallmeans.bench import ai_game, bench_state

    def both(name: str, game: ByAllMeans) -> list[tuple[str, dict[str, Any]]]:
        own: dict[str, Any] = dict(game.view(0))
        own["seat_names"] = NAMES[:2]
        return [(name, _public(game, 2)), (name + "-seat1", own)]

    views = both("bench", bench_state())
    views += both("start", ByAllMeans.new([{}, {}], {"decks": ["press", "syndicate"]}, 41))
    views += both("finished", ai_game(42, ("syndicate", "press"))[0])
    return views


Views = list[tuple[str, dict[str, Any]]]


def _kept(build: Callable[[], Views]) -> Callable[[], Views]:
    """``build`` run once per process (it plays whole games: about a second for Godstorm's), and a
    fresh copy of its views for every caller, who may change them."""
    once = functools.cache(build)
    return functools.wraps(build)(lambda: copy.deepcopy(once()))


VIEWS: dict[str, Callable[[], Views]] = {
    key: _kept(build) for key, build in
    {"pobeda": pobeda_views, "coldwar": coldwar_views, "godstorm": godstorm_views, "byallmeans": byallmeans_views}.items()
}
