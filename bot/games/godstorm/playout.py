"""Random legal playouts (for tests and benchmarks) and a deterministic crowded state for benchmarks."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.games.base import Action
from bot.games.godstorm.game import Godstorm


@dataclass
class Playout:
    game: Godstorm
    log: list[tuple[int, Action]] = field(default_factory=list)


def choose(game: Godstorm, seat: int, legal: list[Action], rnd: random.Random) -> Action:
    """A random legal action biased to attack often (with the odds) and to end steps soon."""
    s = game.s
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    if "move_in" in by_type:
        return by_type["move_in"][-1] if rnd.random() < 0.8 else rnd.choice(by_type["move_in"])
    attacks = by_type.get("attack_until", []) + by_type.get("attack", [])
    if attacks:
        terr, uw = s.terr, s.uw

        def strong(a: Action) -> bool:
            if a["from"] == "heaven":
                return s.players[seat].heaven > uw[a["to"]].armies
            src = terr.get(a["from"]) or uw[a["from"]]
            dst = terr.get(a["to"]) or uw[a["to"]]
            return src.armies > dst.armies + 1

        good = [a for a in attacks if strong(a)]
        if good and rnd.random() < 0.9:
            until = [a for a in good if a["type"] == "attack_until"]
            return rnd.choice(until or good)
        if rnd.random() < 0.05:
            return rnd.choice(attacks)
        for end in ("end_attacks", "end_step"):
            if end in by_type:
                return by_type[end][0]
    if "place" in by_type and s.phase == "turn":
        owned = game.owned(seat)
        border = [a for a in by_type["place"]
                  if any(n not in owned for n in _neighbours(a["territory"]))]
        return rnd.choice(border or by_type["place"])
    if "end_turn" in by_type and rnd.random() < 0.02:
        return by_type["end_turn"][0]
    if "end_step" in by_type and rnd.random() < 0.4:
        return by_type["end_step"][0]
    pool = [a for a in legal if a["type"] not in ("end_turn", "end_step", "hold_god", "dice_pref")] or legal
    return rnd.choice(pool)


def _neighbours(tid: str) -> tuple[str, ...]:
    from bot.games.godstorm.board import NEIGHBOURS

    return NEIGHBOURS[tid]


def play(game: Godstorm, rnd: random.Random, log: list[tuple[int, Action]] | None = None,
         stop: Callable[[Godstorm], bool] | None = None, max_actions: int = 200_000) -> int:
    """Apply random legal actions until the game ends (or ``stop``); returns the number applied."""
    n = 0
    while game.outcome() is None and n < max_actions:
        if stop is not None and stop(game):
            break
        actors = game.actors()
        if not actors:
            raise RuntimeError("no actor in a running game")
        seat = actors[0]
        legal = game.legal_actions(seat)
        action = choose(game, seat, legal, rnd)
        game.apply(seat, action)
        if log is not None:
            log.append((seat, action))
        n += 1
    return n


def random_playout(seed: int, players: int, ruleset: str = "godstorm", placement: str = "random",
                   max_actions: int = 200_000) -> Playout:
    """A whole game (five epochs, or world domination in classic) of random legal actions."""
    game = Godstorm.new([{} for _ in range(players)], {"ruleset": ruleset, "placement": placement}, seed)
    out = Playout(game)
    play(game, random.Random(seed), out.log, max_actions=max_actions)
    return out


def bench_state() -> Godstorm:
    """A crowded five-player Godstorm state in epoch 4 (deterministic), for render/apply benchmarks."""
    game = Godstorm.new([{} for _ in range(5)], {"ruleset": "godstorm", "placement": "random"}, 20251126)

    def late(g: Godstorm) -> bool:
        s = g.s
        return (s.epoch or 0) >= 4 and s.phase == "turn" and s.step == "invade" and s.move is None \
            and s.battle is None and s.pending == 0

    play(game, random.Random(4), stop=late)
    return game
