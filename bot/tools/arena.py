"""Bot arena: how strong the bots are, measured.

``python -m bot.tools.arena GAME --games N [--level strong|quick] [--players 2|3] [--seed S]`` plays
``N`` games of the bot at ``--level`` against uniformly random legal players, then ``N`` games of
the strong level against the quick level, and prints each win rate with its Wilson 95% interval.
The measured seat moves round the table from game to game, so the first-move advantage cancels.
``GAME`` is a game key, or the name of an arena variant a game's manifest declares (``risk``: Godstorm's
classic ruleset). A game still being built can be measured before it is registered for play: name its
manifest in ``TABLETOP_GAMES_EXTRA`` for this command only (see ``bot.games.registry``).

A game that reaches ``--max-actions`` unfinished counts as not won (random players can keep a
classic Risk board going for ever). A draw is not a win either.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.ai import Policy, bot_rng, game_rng, policy_for, visible_events, wilson
from bot.games.base import Action, Event
from bot.games.registry import game_class, manifests

DEFAULT_MAX_ACTIONS = 20_000


@dataclass
class GameResult:
    winners: list[int]
    """Winning sides (empty: unfinished or drawn with nobody ahead)."""
    draw: bool
    actions: int
    finished: bool
    side_of: list[int]
    move_ms: dict[int, list[float]] = field(default_factory=dict)
    """Seat -> time of each of its policy's decisions, in milliseconds."""
    log: list[tuple[int, Action]] = field(default_factory=list)
    """Every (seat, action) applied, in order: with the seed and options it replays the game."""
    state: dict[str, Any] = field(default_factory=dict)
    """The final state (``to_json``)."""


def variants() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every arena variant the registered manifests declare: name -> (game key, options)."""
    return {name: (m.key, dict(options)) for m in manifests() for name, options in m.arena.items()}


def resolve(game: str) -> tuple[str, dict[str, Any]]:
    """(game key, options) of a game key or an arena variant's name."""
    key, options = variants().get(game, (game, {}))
    return key, dict(options)


def play(key: str, policies: Sequence[Policy], seed: int, options: dict[str, Any] | None = None,
         max_actions: int = DEFAULT_MAX_ACTIONS, history: bool = True,
         seat_info: list[dict[str, Any]] | None = None) -> GameResult:
    """One game with ``policies[i]`` in seat ``i``; every choice is checked against the legal list.
    ``seat_info`` defaults to one side per seat."""
    cls = game_class(key)
    n = len(policies)
    game = cls.new(seat_info or [{"side": i} for i in range(n)], dict(options or {}), seed)
    seen: list[list[Event]] = [[] for _ in range(n)]
    times: dict[int, list[float]] = {i: [] for i in range(n)}
    steps = 0
    log: list[tuple[int, Action]] = []
    while game.outcome() is None and steps < max_actions:
        actors = game.actors()
        if not actors:
            raise RuntimeError(f"{key}: no actor in a running game (seed {seed})")
        seat = actors[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        rng = bot_rng(game_rng(game), seat, steps)
        start = time.perf_counter()
        action = policies[seat].choose(view, legal, rng, seen[seat])
        times[seat].append((time.perf_counter() - start) * 1000)
        if not game.is_listed(seat, action):
            raise RuntimeError(f"{policies[seat].name} chose an unlisted action {action!r} (seed {seed})")
        events = game.apply(seat, action)
        log.append((seat, action))
        if history:
            for s in range(n):
                seen[s].extend(visible_events(events, s))
        steps += 1
    out = game.outcome()
    side_of = [game.side_of(i) for i in range(n)]
    if out is None:
        return GameResult([], False, steps, False, side_of, times, log, game.to_json())
    return GameResult(list(out.get("winners", [])), bool(out.get("draw")), steps, True, side_of, times, log,
                      game.to_json())


@dataclass
class Match:
    label: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    unfinished: int = 0
    actions: int = 0
    bot_ms: list[float] = field(default_factory=list)

    def row(self) -> str:
        lo, hi = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        return (f"| {self.label} | {self.games} | {self.wins} | {rate:.1%} | {lo:.1%}–{hi:.1%} | "
                f"{self.draws} | {self.unfinished} |")


def match(key: str, bot: Policy, others: Policy, games: int, players: int, seed: int,
          options: dict[str, Any] | None = None, max_actions: int = DEFAULT_MAX_ACTIONS,
          label: str = "") -> Match:
    """``games`` games of ``bot`` in one seat (seat ``g % players`` in game ``g``) against ``others``
    in every other seat. A win: the bot's side alone among the winners, or among them when the
    game has a single winner list without a draw."""
    m = Match(label or f"{bot.name} vs {others.name}")
    for g in range(games):
        seat = g % players
        table = [bot if i == seat else others for i in range(players)]
        res = play(key, table, seed + g, options, max_actions)
        m.games += 1
        m.actions += res.actions
        m.bot_ms.extend(res.move_ms[seat])
        if not res.finished:
            m.unfinished += 1
        elif res.draw:
            m.draws += 1
        elif res.side_of[seat] in res.winners:
            m.wins += 1
    return m


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) by the nearest-rank method."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.tools.arena", description=__doc__.split("\n\n")[0])
    keys = [m.key for m in manifests()]
    parser.add_argument("game", help="a game key or an arena variant: "
                                     + ", ".join(dict.fromkeys([*keys, *variants()])))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--level", choices=("strong", "quick"), default="strong")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-actions", type=int, default=DEFAULT_MAX_ACTIONS)
    parser.add_argument("--skip-levels", action="store_true", help="only the bot against random players")
    args = parser.parse_args(argv)
    key, options = resolve(args.game)
    random_player = policy_for(key, "random")
    started = time.perf_counter()
    matches = [match(key, policy_for(key, args.level), random_player, args.games, args.players, args.seed,
                     options, args.max_actions, f"{args.level} vs random")]
    if not args.skip_levels:
        matches.append(match(key, policy_for(key, "strong"), policy_for(key, "quick"), args.games,
                             args.players, args.seed + 1_000_000, options, args.max_actions,
                             "strong vs quick"))
    print(f"{args.game}: {args.players} players, {args.games} games per row, seeds from {args.seed}, "
          f"the measured bot in one seat and the other level in every other seat")
    print("| match | games | bot wins | win rate | Wilson 95% | draws | unfinished |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for m in matches:
        print(m.row())
    for m in matches:
        print(f"{m.label}: bot move p50 {percentile(m.bot_ms, 0.5):.2f} ms, "
              f"p99 {percentile(m.bot_ms, 0.99):.2f} ms, max {max(m.bot_ms, default=0.0):.2f} ms, "
              f"{m.actions / max(1, m.games):.0f} actions per game")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
